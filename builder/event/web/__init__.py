"""The event server (``daimyo event serve``): ``builder.event.web.app``. The web stack is imported
only here."""
