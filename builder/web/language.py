"""The language of the web builder's pages, chosen per request: the one picked in the language
menu (remembered per workspace, in ``.daimyo/settings.json``, written atomically), else the
browser's ``Accept-Language``, else English.

``Language`` is the ASGI middleware in front of the app: it sets the request's language
(``builder.i18n.use``) for everything the request runs, the pages drawn in worker threads
included (a worker thread runs in a copy of the request's context)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from babel import Locale
from fastapi import Request
from fastapi.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from builder import i18n, state
from builder.errors import DaimyoError
from builder.i18n import _
from builder.paths import within
from builder.web.common import read_form
from builder.web.workspace import Refused
from builder.yamlio import atomic_write, read_text

FILE = Path(".daimyo") / "settings.json"
_LOCK = threading.Lock()
# the settings file's (mtime, size) -> the language it names: read again only when it changes
_SEEN: dict[Path, tuple[tuple[int, int], str]] = state.cache(
    "web.language", bound=64, lifetime=state.FILE, doc="a workspace's chosen language, by its settings file's identity"
)


def autonym(lang: str) -> str:
    """A language's name in itself (``Français``), as a language menu shows it."""
    try:
        name = Locale.parse(lang).get_display_name(lang) or lang
    except Exception:
        return lang
    return name[:1].upper() + name[1:]


def choices() -> list[tuple[str, str]]:
    """(tag, name in itself) of every language with a catalog, English first."""
    return [(lang, autonym(lang)) for lang in i18n.available()]


def _read(root: Path) -> dict[str, Any]:
    path = within(root, FILE)  # None: a link out of the workspace, never read
    if path is None or not path.exists():
        return {}
    try:
        data = json.loads(read_text(path))
    except (DaimyoError, ValueError):
        return {}  # an unreadable file is forgotten, never a failure of the page
    return data if isinstance(data, dict) else {}


def remembered(root: Path) -> str:
    """The language picked in the menu for this workspace (``""``: none picked)."""
    path = root / FILE
    try:
        st = path.stat()
    except OSError:
        return ""
    key = (st.st_mtime_ns, st.st_size)
    hit = _SEEN.get(path)
    if hit is not None and hit[0] == key:
        return hit[1]
    lang = _read(root).get("language")
    lang = lang if isinstance(lang, str) and lang in i18n.available() else ""
    if len(_SEEN) > 64:
        _SEEN.clear()
    _SEEN[path] = (key, lang)
    return lang


def remember(root: Path, lang: str) -> None:
    """Keep ``lang`` as the workspace's language (the other settings of the file kept)."""
    folder = within(root, FILE.parent)
    if folder is None:
        raise Refused(
            _("the workspace's {folder} folder leads outside the workspace (a symbolic link)").format(
                folder=FILE.parent
            ),
            403,
        )
    with _LOCK:
        folder.mkdir(exist_ok=True)
        target = within(root, FILE)
        if target is None:
            raise Refused(_("the workspace's settings file leads outside the workspace (a symbolic link)"), 403)
        data = _read(root)
        data["language"] = lang
        atomic_write(str(target), json.dumps(data, indent=1, sort_keys=True) + "\n", force=True)


def choose(root: Path, accept_language: str | None) -> str:
    """The language of a request: the workspace's, else the browser's, else English."""
    return remembered(root) or i18n.language_from_header(accept_language)


class Language:
    """ASGI middleware: each request in its language (see ``choose``); the JSON API (``/api/``,
    its HTML description aside) always in English, as machine output is."""

    def __init__(self, app: ASGIApp, root: Path) -> None:
        self.inner = app
        self.root = root

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        path = scope.get("path", "")
        if path.startswith("/api/") and path != "/api/docs":
            lang = i18n.SOURCE_LANGUAGE  # the JSON API is machine output: English whatever is asked
        else:
            header = None
            for k, v in scope.get("headers", []):
                if k == b"accept-language":
                    header = v.decode("latin-1")
                    break
            lang = choose(self.root, header)
        with i18n.use(lang):
            await self.inner(scope, receive, send)

    def __getattr__(self, name: str) -> Any:  # the wrapped app's attributes (``app``: the app behind it) as before
        return getattr(self.inner, name)


async def set_language(request: Request) -> Response:
    """The language menu's choice (``lang``), remembered for the workspace; the page reloads."""
    form = await read_form(request)
    lang = str(form.get("lang", ""))
    if lang not in i18n.available():
        raise Refused(
            _("no language '{lang}' here").format(lang=lang[:20]),
            hint=_("choose one of: {choices}").format(choices=", ".join(i18n.available())),
        )
    remember(request.app.state.ws.root, lang)
    if request.headers.get("hx-request") == "true":
        return Response(status_code=204, headers={"HX-Refresh": "true"})
    return Response(status_code=303, headers={"Location": "/"})


def add_routes(routes: Any) -> None:
    routes.post("/language", include_in_schema=False)(set_language)
