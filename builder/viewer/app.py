"""The viewer: a small, stateless web application that shows a list from its link alone.

``GET /v/<share code>`` is the list (game, name, total, verdict and findings, every entry with
what the catalog says of it, the packs it names and whether they are known here), with its
table view (``/table``), its PDF (``/list.pdf``) and YAML (``/list.yaml``). The code is the
whole payload: the viewer keeps no data of its own (a PDF is drawn in a temporary folder
removed at once), so any number of copies behind any load balancer give the same answers. Each
answer carries an ETag of the code, the language and daimyo's version and is cacheable for a
year (``immutable``); ``If-None-Match`` gets 304 before anything is decoded. The answers drawn
are kept in memory and, with a cache folder, in that folder for every copy on the host
(builder/viewer/shelf.py): a link is drawn once, by whichever copy is asked first.

A code longer than ``MAX_VIEWER_CODE_CHARS`` or whose body would expand past
``MAX_VIEWER_BODY`` is refused before it is decoded (400); a damaged code is 400; a code of a
game or catalog entries not installed here is 404, and so is a list naming packs this viewer
lacks (its page still shows the list, checked without them). No request is answered with 500.

``daimyo viewer`` builds its application with ``make_app``; an event's server (``daimyo event
serve``) answers its own ``/v/`` addresses with a ``Viewer`` of its own (``viewer_for``), so a
share code reads the same on both.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from markupsafe import Markup

from builder import __version__, i18n, state
from builder.errors import DaimyoError, UsageError
from builder.i18n import _
from builder.limits import MAX_LINK_CHARS, MAX_VIEWER_BODY, MAX_VIEWER_CODE_CHARS
from builder.share.api import Imported
from builder.share.canonical import canonical
from builder.share.code import decode
from builder.share.link import code_in, link_of, viewer_base_or_none
from builder.viewer.play import Loaded, Play, loaded_of, play_of
from builder.viewer.qr import qr_svg
from builder.viewer.shelf import Answer, Shelf
from builder.viewer.table import ICON_SVG, environment, inline, table_html, verdict_word

__all__ = ["BUILDER_ENV", "DEFAULT_BUILDER", "GET", "VIEWS", "Viewer", "make_app", "viewer_for", "worker_app"]

DEFAULT_BUILDER = "http://127.0.0.1:8765"  # where 'daimyo serve' listens by default
BUILDER_ENV = "DAIMYO_VIEWER_BUILDER"  # the builder address of the worker processes
CODE_SHAPE = re.compile(r"^[A-Za-z]{3}\d+-[A-Za-z0-9_-]*$")
YEAR = "public, max-age=31536000, immutable"
SHORT = "public, max-age=300"  # an answer that a pack installed here later would change
CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
    "manifest-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
CACHE_HEADER = "X-Daimyo-Cache"  # where an answer came from: drawn, memory (this process's) or folder (a copy's)
GET = ["GET", "HEAD"]  # link previews may ask for the headers alone
# the answers about one code: the address under /v/CODE and the kind of answer ``Viewer.answer`` draws
VIEWS = (("", "page"), ("/table", "table"), ("/list.yaml", "yaml"), ("/list.pdf", "pdf"))
NOT_HERE = ("not installed here", "this catalog does not have", "do not match this catalog", "matches several")

KEPT = 256  # answers kept per process: a code drawn once is answered at the cost of a static page
KEPT_BYTES = 256 * 1024  # the largest answer kept (a page is 10-30 KB; a printout may be megabytes)
_ANSWERS: dict[str, Answer] = state.cache(
    "viewer.answers",
    bound=KEPT,
    lifetime=state.VALUE,
    doc="the viewer's answers by ETag (the code, the language, daimyo's version): status, body, type, name",
)


_KEEPING = threading.Lock()


class Refused(Exception):
    """A code the viewer does not show: its status and what to tell the reader."""

    def __init__(self, status: int, title: str, message: str):
        super().__init__(message)
        self.status, self.title, self.message = status, title, message


def _etag(kind: str, code: str, lang: str, root: str) -> str:
    """The answer's tag: of the code, the kind of answer, the language, daimyo's version and the
    viewer's address (which its links carry)."""
    digest = hashlib.sha256(f"{__version__}\0{lang}\0{kind}\0{root}\0{code}".encode()).hexdigest()[:32]
    return f'"{digest}"'


def _checked_code(code: str) -> str:
    """``code`` if it has the shape and size of a share code; Refused (400) before any decoding."""
    if len(code) > MAX_VIEWER_CODE_CHARS:
        raise Refused(
            400,
            _("This link is too long"),
            _("The code is {n:,} characters long; a viewer reads codes of at most {most:,}.").format(
                n=len(code), most=MAX_VIEWER_CODE_CHARS
            ),
        )
    if not CODE_SHAPE.match(code):
        raise Refused(400, _("This is not a link to a list"), _("The address does not end in a share code."))
    return code


@contextlib.contextmanager
def _reading() -> Iterator[None]:
    """Refused for a code that is damaged (400) or names what is not here (404)."""
    try:
        yield
    except DaimyoError as exc:
        lines = [line.removeprefix("daimyo: error: ").removeprefix("<code>:1:1: error: ") for line in exc.lines()]
        message = lines[0] if lines else _("the code cannot be read")
        if any(words in message for words in NOT_HERE):
            raise Refused(404, _("This list needs what this viewer does not have"), message) from None
        raise Refused(400, _("This list cannot be read"), message) from None
    except (RecursionError, MemoryError, ValueError, TypeError, KeyError, IndexError) as exc:
        raise Refused(
            400, _("This list cannot be read"), _("the code is damaged ({what})").format(what=type(exc).__name__)
        ) from None


def _read(code: str) -> tuple[Imported, Loaded]:
    """The list of ``code`` with its packs and catalog, not yet checked; Refused as ``_play``."""
    with _reading():
        doc = decode(code, where="<code>", max_body=MAX_VIEWER_BODY)
        imp = Imported(canonical(doc, file="<code>"), "code", "<code>", Path("."))
        return imp, loaded_of(imp)


def _play(code: str, read: tuple[Imported, Loaded] | None = None) -> Play:
    """The list of ``code``; Refused for a code that is damaged (400) or names what is not here
    (404). ``read``: ``_read(code)``, when the caller has it already."""
    imp, loaded = read or _read(code)
    with _reading():
        return play_of(imp, code, is_canonical=True, loaded=loaded)


def _pdf(play: Play) -> bytes:
    """The list printed as ``daimyo print`` prints it, drawn in a folder removed at once."""
    from builder.render.api import render_list  # noqa: PLC0415 - reportlab: loaded when a list is printed

    with tempfile.TemporaryDirectory(prefix="daimyo-viewer-") as tmp:
        src, out = Path(tmp) / "list.yaml", Path(tmp) / "list.pdf"
        src.write_text(play.printed, encoding="utf-8")
        render_list(str(src), str(out), force=True)
        return out.read_bytes()


def _file_name(play: Play, suffix: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_-]+", "-", play.name).strip("-")[:60] or "list"
    return stem + suffix


class Viewer:
    """The pages of one viewer application."""

    def __init__(self, builder: str, base: str | None, shelf: Shelf | None = None):
        self.builder = builder.rstrip("/")
        self.base = base
        self.shelf = shelf  # the answers shared with the other copies on this host
        self.env = environment()
        self.env.globals.update(
            css=Markup(inline("view.css")),
            icon="data:image/svg+xml," + quote(ICON_SVG),
        )

    def root(self, request: Request) -> str:
        return (self.base + "/") if self.base else str(request.base_url)

    def page(self, name: str, request: Request, **ctx: Any) -> str:
        return self.env.get_template(name).render(root=self.root(request), **ctx)

    def refused(self, request: Request, exc: Refused, lang: str) -> Response:
        with i18n.use(lang):
            body = self.page("error.html", request, title=exc.title, message=exc.message)
        return _html(body, exc.status, SHORT)

    def list_page(self, request: Request, play: Play) -> str:
        link = link_of(play.code, self.root(request).rstrip("/"))
        # one mask rather than the best of eight (any decoder reads any mask), drawn from what
        # each version of QR code has in common (builder/viewer/qr.py)
        qr = qr_svg(link, _("QR code of the link"))
        return self.page(
            "list.html",
            request,
            play=play,
            link=link,
            here="/v/" + play.code,
            builder=f"{self.builder}/import?code={play.code}",
            verdict_word=verdict_word(play.verdict),
            description=f"{verdict_word(play.verdict)} · {play.total_text} · {play.game}",
            qr=Markup(qr),
        )

    def answer(self, request: Request, code: str, kind: str) -> Response:
        lang = i18n.language_from_header(request.headers.get("accept-language"))
        try:
            code = _checked_code(code)
        except Refused as exc:
            return self.refused(request, exc, lang)
        tag = _etag(kind, code, lang, self.root(request))
        if tag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers={"ETag": tag, "Cache-Control": YEAR, "Vary": "Accept-Language"})
        kept, source = _ANSWERS.get(tag), "memory"
        if kept is None:
            with i18n.use(lang):
                try:
                    kept, source = self.fresh(request, code, kind, lang)
                except Refused as exc:
                    return self.refused(request, exc, lang)
            if len(kept[1]) <= KEPT_BYTES:  # a big printout is drawn again rather than kept
                with _KEEPING:  # requests are answered on several threads
                    while len(_ANSWERS) >= KEPT:
                        _ANSWERS.pop(next(iter(_ANSWERS)))
                    _ANSWERS[tag] = kept
        status, body, media, name = kept
        headers = {
            "ETag": tag,
            "Cache-Control": YEAR if status == 200 else SHORT,
            "Vary": "Accept-Language",
            "Content-Security-Policy": CSP,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            CACHE_HEADER: source,
        }
        if name:
            headers["Content-Disposition"] = f'attachment; filename="{name}"'
        return Response(body, status_code=status, media_type=media, headers=headers)

    def route(self, kind: str) -> Callable[[Request, str], Response]:
        """The route answering ``/v/CODE`` and its tail for ``kind`` (a worker thread's: decoding
        and drawing take a while)."""

        def answer(request: Request, code: str) -> Response:
            return self.answer(request, code, kind)

        answer.__name__ = f"viewer_{kind}"
        return answer

    def fresh(self, request: Request, code: str, kind: str, lang: str) -> tuple[Answer, str]:
        """The answer of a code this process does not keep, and where it came from: from the
        folder shared with the other copies ("folder") or drawn here ("drawn")."""
        read = _read(code)
        catalog = getattr(read[1].catalog, "fingerprint", None)
        if self.shelf is None or not catalog:
            return self.draw(request, code, kind, read), "drawn"
        key = self.shelf.key(code, kind, lang, catalog, self.root(request))
        found = self.shelf.get(key)
        if found is not None:
            return found, "folder"
        answer = self.draw(request, code, kind, read)
        if len(answer[1]) <= KEPT_BYTES:
            self.shelf.put(key, answer)
        return answer, "drawn"

    def draw(self, request: Request, code: str, kind: str, read: tuple[Imported, Loaded] | None = None) -> Answer:
        play = _play(code, read)
        status = 404 if play.missing else 200
        if kind == "table":
            return status, table_html(play, self.env).encode(), "text/html; charset=utf-8", ""
        if kind == "yaml":
            return status, play.yaml.encode(), "application/yaml; charset=utf-8", _file_name(play, ".yaml")
        if kind == "pdf":
            try:
                pdf = _pdf(play)
            except DaimyoError as exc:
                raise Refused(
                    400, _("This list cannot be printed"), exc.lines()[0].removeprefix("daimyo: error: ")
                ) from None
            return status, pdf, "application/pdf", _file_name(play, ".pdf")
        return status, self.list_page(request, play).encode(), "text/html; charset=utf-8", ""


def _html(body: str, status: int = 200, cache: str = "no-store") -> HTMLResponse:
    return HTMLResponse(
        body,
        status_code=status,
        headers={
            "Cache-Control": cache,
            "Content-Security-Policy": CSP,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        },
    )


def viewer_for(builder: str | None = None, base: str | None = None, configured: bool = True) -> Viewer:
    """The pages of a viewer. ``builder``: the address of the local builder that "Open in my
    builder" goes to (``daimyo serve``'s default); ``base``: the public address for the links it
    shows (with ``configured``, DAIMYO_VIEWER or config.toml when not given; else the address each
    request came to)."""
    if base is None and configured:
        try:
            base = viewer_base_or_none()
        except UsageError:
            base = None
    return Viewer(builder or os.environ.get(BUILDER_ENV) or DEFAULT_BUILDER, base or None)


def make_app(builder: str | None = None, base: str | None = None, cache_dir: str | None = None) -> FastAPI:
    """The viewer's application (``viewer_for`` says what ``builder`` and ``base`` are);
    ``cache_dir``: the folder of answers shared with the other copies (none: each draws its own)."""
    view = viewer_for(builder, base)
    if cache_dir:
        try:
            view.shelf = Shelf(cache_dir)
        except OSError:  # checked by 'daimyo viewer' before it starts: made unwritable since
            view.shelf = None
    app = FastAPI(title="daimyo viewer", docs_url=None, redoc_url=None, openapi_url=None)

    @app.api_route("/healthz", methods=GET)
    def healthz() -> PlainTextResponse:
        return PlainTextResponse("ok", headers={"Cache-Control": "no-store"})

    @app.api_route("/", response_class=HTMLResponse, methods=GET)
    def home(request: Request) -> Response:
        with i18n.use(i18n.language_from_header(request.headers.get("accept-language"))):
            return _html(view.page("home.html", request, most=MAX_LINK_CHARS), cache="public, max-age=3600")

    @app.api_route("/v", methods=GET)
    def opened(request: Request, code: str = "") -> Response:
        text = code[: MAX_LINK_CHARS + 1].strip()
        found = code_in(text) or text
        return RedirectResponse("/v/" + quote(found[:MAX_LINK_CHARS], safe=""), status_code=303)

    for tail, kind in VIEWS:
        app.api_route("/v/{code}" + tail, methods=GET)(view.route(kind))

    @app.exception_handler(404)
    async def not_found(request: Request, exc: Exception) -> Response:
        lang = i18n.language_from_header(request.headers.get("accept-language"))
        return view.refused(
            request, Refused(404, _("No such page"), _("This viewer shows lists at /v/ and a share code.")), lang
        )

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> Response:  # never a 500 page with a trace
        lang = i18n.language_from_header(request.headers.get("accept-language"))
        return view.refused(request, Refused(400, _("This list cannot be shown"), type(exc).__name__), lang)

    app.state.viewer = view
    return app


def worker_app() -> FastAPI:
    """The application of one of several worker processes (``daimyo viewer --workers N``)."""
    given = json.loads(os.environ.get("DAIMYO_VIEWER_WORKER", "{}"))
    return make_app(given.get("builder"), given.get("base"), given.get("cache_dir"))
