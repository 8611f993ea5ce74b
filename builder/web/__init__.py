"""The local web builder behind ``daimyo serve``: FastAPI, Jinja2 templates and htmx.

Only ``daimyo serve`` imports this package, so the command line starts without the web stack.
htmx 2.0.11 (Zero-Clause BSD licence, see static/htmx.LICENSE.txt) is shipped in ``static/``.
"""
