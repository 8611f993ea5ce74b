"""The web builder's application: HTML pages (Jinja2 + htmx) and the JSON API under ``/api/``.

``create_app(folder, token=...)`` builds the ASGI app; ``daimyo serve`` runs it with uvicorn.
Everything it reads or writes goes through :class:`builder.web.workspace.Workspace`.
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio.to_thread
import jinja2
import jinja2.bccache
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException

from builder import __version__, i18n
from builder.catalog.packfiles import in_workspace
from builder.errors import DaimyoError, one_line
from builder.i18n import _
from builder.systems import ids
from builder.web import (
    analytics_view,
    backup,
    compare,
    language,
    pack_editor,
    packs_page,
    print_page,
    routes_api,
    routes_pages,
    words,
)
from builder.web.backup import first_number, folder_of
from builder.web.context import AppContext, context
from builder.web.editing import Editor
from builder.web.fragments import install
from builder.web.jsonanswer import SafeJSONResponse
from builder.web.printing import PdfCache
from builder.web.routes import Routes
from builder.web.security import Guard
from builder.web.workspace import Refused, Workspace

HERE = Path(__file__).resolve().parent
THREADS = int(os.environ.get("DAIMYO_SERVE_THREADS", "4") or 4)  # worker threads for blocking work
MAX_BODY = 1024 * 1024  # request bodies over 1 MiB are refused
HTMX_VERSION = "2.0.11"
# -- the app -------------------------------------------------------------------------------------


#: Imported before the first request is answered. The requests run in a pool of threads, and two
#: threads importing a package whose modules import each other in a circle at the same moment
#: can deadlock (ruamel.yaml's C reader and its Python modules do: seen as a 500 when several
#: server processes met their first requests at once); imported here, once, nothing is left for
#: the threads to import at the same time.
REQUEST_MODULES = ("ruamel.yaml", "pydantic", "reportlab.pdfgen.canvas", "PIL.Image", "builder.rulebooks")


class _Compiled(jinja2.BytecodeCache):
    """The templates' compiled code, kept in memory for every app of the process: each app has
    its own template environment (its own globals and kept drawings), but they are all set up
    alike, so a template compiled for one serves every other. Jinja gives the code of a template
    only while its source is unchanged (the checksum of the text it was compiled from)."""

    def __init__(self) -> None:
        self.code: dict[str, tuple[str, Any]] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        hit = self.code.get(bucket.key)
        if hit is not None and hit[0] == bucket.checksum:
            bucket.code = hit[1]

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = (bucket.checksum, bucket.code)

    def clear(self) -> None:
        self.code.clear()


COMPILED = _Compiled()


def create_app(
    folder=".",
    token: str | None = None,
    host: str = "127.0.0.1",
    port: int = 8765,
    csrf: str | None = None,
    shared: bool = False,
):
    """``shared``: one of several server processes of the workspace (their lists' undo history
    and locks kept in its state folder; ``csrf`` then the same in every one)."""
    for name in REQUEST_MODULES:
        importlib.import_module(name)
    ws = Workspace(folder)
    token = token or secrets.token_urlsafe(24)
    csrf = csrf or secrets.token_urlsafe(24)
    templates = _templates(csrf)
    ctx = AppContext(ws, Editor(ws, shared=shared), templates, PdfCache())
    api = FastAPI(
        default_response_class=SafeJSONResponse,
        title="daimyo serve",
        version=__version__,
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        description="Check, edit, export, import and print the lists of a workspace folder. "
        "Send the token printed by 'daimyo serve' as 'Authorization: Bearer TOKEN'.",
    )
    api.add_middleware(InWorkspace, root=ws.root)
    api.state.context = ctx
    api.state.ws = ws
    api.state.token = token
    api.state.editor = ctx.editor
    api.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    api.add_exception_handler(DaimyoError, _daimyo_error)
    api.add_exception_handler(UnicodeDecodeError, _bad_text)
    _add_routes(Routes(api))  # the routes' signatures read once per process, for every app

    gate = templates.get_template("gate.html")

    def gate_html():
        return gate.render(workspace=ws.root.name, version=__version__)

    steps = {"edit": routes_pages.edit_part, "undo": routes_pages.undo_part, "redo": routes_pages.redo_part}
    front = PageEdits(api, steps, ctx.failure, ws.root)
    guard = Guard(
        front, token=token, csrf=csrf, max_body=MAX_BODY, host=host, gate_html=gate_html, cookie=f"daimyo_{port}"
    )
    guard.fastapi = api  # for tests
    guard.templates = templates
    guard.workspace = ws
    # each request in its language, the gate page's too (its attributes are the guard's)
    return language.Language(guard, ws.root)


def _templates(csrf: str) -> Jinja2Templates:
    """An app's templates: compiled once for every app of the process, with its own globals."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.bytecode_cache = COMPILED  # compiled once for every app of the process
    templates.env.globals.update(
        csrf=csrf, version=__version__, htmx_version=HTMX_VERSION, systems=ids(), languages=language.choices
    )
    templates.env.filters["tojson_attr"] = lambda v: json.dumps(v)
    # text from elsewhere (a registry's index, a pack's name): one line, its bidirectional controls shown
    templates.env.filters.update(folder_of=folder_of, first_number=first_number, one_line=one_line)
    templates.env.auto_reload = False  # the templates are part of the program: no disk check per include
    i18n.install_jinja(templates.env)  # {% trans %}, _() and the current language
    # words the games and the print options give the pages (``builder.web.words``), in the page's language
    templates.env.filters.update(tr=words.tr, tr_values=words.tr_values)
    install(templates.env)  # a list's rows are drawn again only when they change
    return templates


def _add_routes(routes: Routes) -> None:
    """Every route, in the order they are matched."""
    packs_page.add_routes(routes)  # the Packs page: installed packs, registry search, install
    pack_editor.add_routes(routes)  # making and editing the workspace's packs
    analytics_view.add_routes(routes)  # before the list page, whose path takes any tail
    routes_pages.add_routes(routes)
    print_page.add_routes(routes)  # the print page, its PDF, previews and downloads
    routes_pages.add_file_routes(routes)
    compare.add_routes(routes)
    backup.add_routes(routes)
    routes_api.add_routes(routes)
    language.add_routes(routes)


@asynccontextmanager
async def lifespan(_app):
    # Blocking work (reading, checking, saving lists) runs in worker threads. A few of them
    # are enough to overlap the waits for the disk; more only make the threads take turns
    # at the interpreter lock and stretch every request's time.
    anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
    yield


async def _daimyo_error(request: Request, exc: Exception):
    return context(request).failure(request, exc)


async def _bad_text(request: Request, exc: Exception):
    return context(request).failure(request, Refused(_("the request is not UTF-8 text")))


# -- helpers ---------------------------------------------------------------------------------------


class PageEdits:
    """The builder page's changes (``POST /l/F/edit``, ``/undo``, ``/redo``, the requests a
    player makes most) handed straight to their route functions, in front of the framework's
    middleware, routing and parameter reading (about a fifth of such a request's CPU time);
    the same functions still answer through the framework, and so do every other request.
    Errors are answered as the app's handlers answer them (``failure``)."""

    def __init__(self, app, steps: dict, failure, root: Path):
        self.app = app
        self.api = app  # the app whose state the route functions read (``self.app`` may be wrapped)
        self.steps = steps
        self.failure = failure
        self.root = root

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"].startswith("/l/"):
            path, _slash, last = scope["path"][3:].rpartition("/")
            step = self.steps.get(last)
            if step is not None and path:
                scope.setdefault("app", self.api)  # the route functions find the app's context there
                request = Request(scope, receive)
                with in_workspace(self.root):
                    try:
                        response = await step(path, request)
                    except DaimyoError as exc:
                        response = self.failure(request, exc)
                    except UnicodeDecodeError:
                        response = self.failure(request, Refused(_("the request is not UTF-8 text")))
                    except (HTTPException, MultiPartException) as exc:  # a form the parser refuses
                        if isinstance(exc, MultiPartException):  # as the framework turns it into a 400
                            exc = HTTPException(400, detail=exc.message)
                        response = await http_exception_handler(request, exc)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class InWorkspace:
    """Every request finds packs by name as the command line run in the workspace folder does
    (its ``packs/`` folder is the workspace's, wherever the server was started)."""

    def __init__(self, app, root: Path):
        self.app = app
        self.root = root

    async def __call__(self, scope, receive, send):
        with in_workspace(self.root):
            await self.app(scope, receive, send)
