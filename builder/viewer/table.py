"""The table view: one self-contained HTML file of a list for the table (``daimyo export LIST
--to html``, and ``/v/<code>/table`` of the viewer).

Everything is inside the file: styles, script, the web app manifest and the icon as ``data:``
addresses, and a Content-Security-Policy that lets the page fetch nothing. Its counters (the
game's own, ``gs.printing.counters``) are kept in the browser's local storage under the list's
fingerprint, so the same list keeps its counts however it was opened, and a reset clears them.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import jinja2
from markupsafe import Markup

from builder import __version__, i18n
from builder.i18n import N_, _
from builder.share.api import Imported
from builder.viewer.play import Play, play_of

__all__ = ["ICON_SVG", "environment", "inline", "severity_word", "table_html", "table_of", "verdict_word"]

HERE = Path(__file__).resolve().parent
ICON_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" '
    'fill="#8c1c13"/><circle cx="32" cy="32" r="17" fill="none" stroke="#fff" stroke-width="5"/>'
    '<circle cx="32" cy="32" r="5" fill="#fff"/></svg>'
)


def inline(name: str) -> str:
    """A file of the viewer's ``static`` folder, as text to put inside a page."""
    return (HERE / "static" / name).read_text(encoding="utf-8")


def environment() -> jinja2.Environment:
    """The viewer's templates, escaped, with ``_()`` in the current language."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(HERE / "templates")),
        autoescape=True,
        auto_reload=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    i18n.install_jinja(env)
    env.globals["version"] = __version__
    env.filters["severity"] = severity_word
    return env


SEVERITIES = {"error": N_("error"), "warning": N_("warning"), "info": N_("note")}


def severity_word(severity: str) -> str:
    """A finding's severity as a person reads it."""
    return _(SEVERITIES[severity]) if severity in SEVERITIES else severity


def verdict_word(verdict: str) -> str:
    """The verdict as a person reads it."""
    return {"legal": _("legal"), "warnings": _("legal, with warnings"), "illegal": _("not legal")}.get(verdict, verdict)


def _data_url(mime: str, text: str) -> str:
    return f"data:{mime};base64," + base64.b64encode(text.encode("utf-8")).decode("ascii")


def table_html(play: Play, env: jinja2.Environment | None = None) -> str:
    """The table view of ``play``: one HTML page that references nothing outside itself."""
    icon = _data_url("image/svg+xml", ICON_SVG)
    manifest = {
        "name": play.name,
        "short_name": play.name[:24],
        "description": _("{game} list: table view").format(game=play.game),
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#fbfaf7",
        "theme_color": "#8c1c13",
        "icons": [{"src": icon, "sizes": "any", "type": "image/svg+xml"}],
    }
    page = (env or environment()).get_template("table.html")
    return page.render(
        play=play,
        general=play.findings,
        verdict_word=verdict_word(play.verdict),
        css=Markup(inline("view.css")),
        script=Markup(inline("table.js")),
        icon=icon,
        manifest=_data_url("application/manifest+json", json.dumps(manifest, ensure_ascii=False)),
    )


def table_of(imp: Imported) -> str:
    """The table view of a list read by ``daimyo export`` (a file, a code, a link)."""
    return table_html(play_of(imp))
