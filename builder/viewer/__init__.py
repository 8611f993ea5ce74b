"""The viewer behind ``daimyo viewer`` and the table view of ``daimyo export --to html``.

``play`` draws a received list as plain data, ``table`` writes the self-contained table view
and ``app`` is the small, stateless web application that serves ``/v/<share code>``. Only the
``viewer`` command imports ``app`` (with the web stack); ``export --to html`` imports ``table``.
"""
