"""The web builder's application: HTML pages (Jinja2 + htmx) and the JSON API under ``/api/``.

``create_app(folder, token=...)`` builds the ASGI app; ``daimyo serve`` runs it with uvicorn.
Everything it reads or writes goes through :class:`builder.web.workspace.Workspace`.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Sequence
from contextlib import asynccontextmanager
from pathlib import Path, PurePosixPath
from typing import Any, Optional, Union

import jinja2
import jinja2.bccache
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException

from builder import __version__
from builder.errors import DaimyoError, UsageError
from builder.systems import get, ids, is_system
from builder.web.common import describe, load_view, read_form, redirect
from builder.web.editing import Conflict, Editor, version_of
from builder.web.workspace import Refused, Workspace

HERE = Path(__file__).resolve().parent
THREADS = int(os.environ.get("DAIMYO_SERVE_THREADS", "4") or 4)  # worker threads for blocking work
MAX_BODY = 1024 * 1024  # request bodies over 1 MiB are refused
HTMX_VERSION = "2.0.11"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "object-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
GAME_COOKIE = "daimyo_game"  # the game last chosen for a new list (not secret)
GAME_COOKIE_AGE = 365 * 24 * 3600
FORMATS = (("code", "Share code"), ("text", "Text"), ("markdown", "Markdown"), ("json", "JSON"), ("yaml", "YAML"))


# -- request bodies of the API (documented in the OpenAPI page) --------------------------------


class EditOp(BaseModel):
    """One change. ``op``: add (item, count or models), remove (item and count for cards; index for
    a unit; all), models (index, value or delta), troop (index, field standard|led_by, value),
    part (where, field, value: a setup's player or province), set (key, value),
    house_rule (key, value; empty for the default)."""

    op: str
    item: Optional[str] = None
    count: Optional[int] = None
    models: Optional[int] = None
    index: Optional[int] = None
    delta: Optional[int] = None
    field: Optional[str] = None
    key: Optional[str] = None
    value: Optional[Any] = None
    all: Optional[bool] = None
    player: Optional[str] = Field(
        None, description="add: the player (name or family) who takes a samurai card or province of a setup"
    )
    options: Optional[dict[str, Union[bool, int, str]]] = Field(
        None, description='add: the options of the game\'s own add by key, e.g. {"models": 2}'
    )
    where: Optional[str] = Field(None, description="part: the part to change, e.g. players/0/provinces/2")
    version: Optional[str] = Field(
        None, description="the version the change was made against; a file changed since is refused (409)"
    )


class Version(BaseModel):
    version: Optional[str] = None


class NewList(BaseModel):
    file: str
    system: str
    name: Optional[str] = None
    options: dict[str, Union[bool, int, str]] = Field(
        default_factory=dict,
        description='the game\'s own options by key, as the game declares them (e.g. {"clan": "buke"}); '
        "the older fields below stand for the same keys",
    )
    clan: Optional[str] = None
    points: Optional[Union[int, str]] = None
    commander: Optional[str] = None
    occult: Optional[bool] = None
    size: Optional[Union[int, str]] = None
    hero: Optional[str] = None
    max_hero_points: Optional[Union[int, str]] = None
    players: Optional[Union[int, str]] = None
    side: Optional[str] = None
    packs: list[str] = Field(default_factory=list, description="pack files of the workspace the list uses")


class ImportBody(BaseModel):
    text: str = Field(..., description="a share code, or a list in text, Markdown, JSON or YAML")
    file: Optional[str] = Field(None, description="the file to write (default: from the list's name)")


class Target(BaseModel):
    to: Optional[str] = None


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
    import importlib

    from builder.web.security import Guard

    for name in REQUEST_MODULES:
        importlib.import_module(name)
    ws = Workspace(folder)
    editor = Editor(ws, shared=shared)
    token = token or secrets.token_urlsafe(24)
    csrf = csrf or secrets.token_urlsafe(24)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.bytecode_cache = COMPILED  # compiled once for every app of the process
    templates.env.globals.update(csrf=csrf, version=__version__, htmx_version=HTMX_VERSION, systems=ids())
    templates.env.filters["tojson_attr"] = lambda v: json.dumps(v)
    from builder.errors import one_line
    from builder.web.backup import first_number, folder_of

    # text from elsewhere (a registry's index, a pack's name): one line, its bidirectional controls shown
    templates.env.filters.update(folder_of=folder_of, first_number=first_number, one_line=one_line)
    templates.env.auto_reload = False  # the templates are part of the program: no disk check per include
    from builder.web.fragments import install

    install(templates.env)  # a list's rows are drawn again only when they change
    from builder.web.printing import PdfCache

    pdfs = PdfCache()

    @asynccontextmanager
    async def lifespan(_app):
        # Blocking work (reading, checking, saving lists) runs in worker threads. A few of them
        # are enough to overlap the waits for the disk; more only make the threads take turns
        # at the interpreter lock and stretch every request's time.
        import anyio.to_thread

        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        yield

    api = FastAPI(
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
    api.state.ws = ws
    api.state.token = token
    api.state.editor = editor
    api.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    from builder.web.routes import Routes

    routes = Routes(api)  # the routes' signatures read once per process, for every app

    def page(request: Request, name: str, status: int = 200, **ctx):
        # drawn here, in the thread the route runs in, rather than by the framework's template
        # response (which draws in the same way and then passes the template to test clients)
        html = templates.env.get_template(name).render(request=request, workspace=ws.root.name, **ctx)
        return HTMLResponse(
            html, status_code=status, headers={"Content-Security-Policy": CSP, "Cache-Control": "no-store"}
        )

    def is_htmx(request: Request) -> bool:
        return request.headers.get("hx-request") == "true"

    def failure(request: Request, exc: Exception):
        status, message, lines = describe(exc)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message, "details": lines}, status_code=status)
        if is_htmx(request):
            resp = page(
                request, "_flash.html", status=status, message=message, lines=lines, conflict=isinstance(exc, Conflict)
            )
            resp.headers["X-Daimyo-Flash"] = "1"  # app.js shows it in #flash, whatever asked
            return resp
        return page(request, "error.html", status=status, message=message, lines=lines)

    @api.exception_handler(DaimyoError)
    async def _daimyo_error(request: Request, exc: DaimyoError):
        return failure(request, exc)

    @api.exception_handler(UnicodeDecodeError)
    async def _bad_text(request: Request, exc):
        return failure(request, Refused("the request is not UTF-8 text"))

    from builder.web.pack_editor import register as register_pack_editor
    from builder.web.packs_page import register as register_packs

    register_packs(routes, page, ws)  # the Packs page: installed packs, registry search, install
    register_pack_editor(routes, page, ws)  # making and editing the workspace's packs

    # -- pages ---------------------------------------------------------------------------------

    from builder.web.analytics_view import add_routes as analytics_routes

    analytics_routes(routes, ws, editor, page)  # before the list page, whose path takes any tail

    @routes.get("/", response_class=HTMLResponse, include_in_schema=False)
    def workspace_page(request: Request):
        lists = ws.lists()
        meta = _systems_meta(ws, ws.packs(), lists)
        chosen = default_game(request.cookies.get(GAME_COOKIE), lists, [m["id"] for m in meta])
        return page(
            request,
            "workspace.html",
            lists=lists,
            systems_meta=meta,
            folder=str(ws.root),
            chosen=chosen,
            game_names={m["id"]: m["name"] for m in meta},
            game_cookie=GAME_COOKIE,
        )

    @routes.post("/new", include_in_schema=False)
    async def new_page(request: Request):
        form = await read_form(request, multi=("packs",))
        rel = await off_loop(_create_from_form, ws, form)
        resp = redirect(request, "/l/" + rel)
        resp.set_cookie(
            GAME_COOKIE,
            str(form.get("system", "")).strip().lower(),
            max_age=GAME_COOKIE_AGE,
            samesite="strict",
            path="/",
        )  # the next new list starts with the same game
        return resp

    @routes.post("/import", include_in_schema=False)
    async def import_page(request: Request):
        form = await read_form(request)
        rel, missing = await off_loop(_import, ws, form.get("text", ""), form.get("file") or None)
        from urllib.parse import urlencode

        return redirect(request, "/l/" + rel + ("?" + urlencode({"missing": missing}, doseq=True) if missing else ""))

    @routes.post("/l/{path:path}/duplicate", include_in_schema=False)
    async def duplicate_page(path: str, request: Request):
        form = await read_form(request)
        await off_loop(ws.duplicate, path, form.get("to") or None)
        return redirect(request, "/")

    @routes.post("/l/{path:path}/rename", include_in_schema=False)
    async def rename_page(path: str, request: Request):
        form = await read_form(request)
        await off_loop(ws.rename, path, form.get("to", ""))
        editor.forget(ws.clean(path))
        return redirect(request, "/")

    @routes.post("/l/{path:path}/delete", include_in_schema=False)
    async def delete_page(path: str, request: Request):
        await off_loop(ws.delete, path)
        editor.forget(ws.clean(path))
        return redirect(request, "/")

    @routes.get("/l/{path:path}/catalog", response_class=HTMLResponse, include_in_schema=False)
    def catalog_part(
        path: str, request: Request, q: str = "", type: str = "", cost: str = "", can: str = "", others: str = ""
    ):
        from builder.web.views import options

        ed, view = _load_editor(ws, path)
        opts = options(ed, q=q[:200], kind=type[:100], max_cost=cost[:20] or None, addable=can, others=others == "1")
        return page(request, "_catalog_rows.html", view=view, opts=opts, q=q)

    @routes.get("/l/{path:path}/entry", response_class=HTMLResponse, include_in_schema=False)
    def entry_part(path: str, request: Request, section: str = "", name: str = ""):
        from builder.web.views import entry_detail

        _doc, catalog, _res, view = load_view(ws, path, editor)
        if section not in catalog.sections():
            raise Refused(f"no catalog section '{section}'", 404)
        detail = entry_detail(catalog, section, name)
        if detail is None:
            raise Refused(f"no entry '{name}' in the catalog", 404)
        return page(request, "_entry.html", view=view, e=detail)

    @routes.post("/l/{path:path}/edit", response_class=HTMLResponse, include_in_schema=False)
    async def edit_part(path: str, request: Request):
        form = await read_form(request)
        op = {k: v for k, v in form.items() if k not in ("version",)}

        def work():
            out = editor.apply(path, op, form.get("version") or None)
            return _list_part(request, path, out.notes, picked=op.get("player"), out=out)

        return await off_loop(work)

    @routes.post("/l/{path:path}/undo", response_class=HTMLResponse, include_in_schema=False)
    async def undo_part(path: str, request: Request):
        form = await read_form(request)
        return await off_loop(lambda: _stepped(request, path, True, form.get("version") or None))

    @routes.post("/l/{path:path}/redo", response_class=HTMLResponse, include_in_schema=False)
    async def redo_part(path: str, request: Request):
        form = await read_form(request)
        return await off_loop(lambda: _stepped(request, path, False, form.get("version") or None))

    def _stepped(request, path, back, version):
        out = editor.step(path, back, version)
        return _list_part(request, path, out.notes, out=out)

    def _list_part(request, path, notes, picked=None, out=None):
        _doc, _catalog, _res, view = load_view(
            ws, path, editor, out.text if out else None, out.known if out else None, out.path if out else None
        )
        # what the change left (with several processes, not read back from the shared history)
        undo, redo = out.steps if out and out.steps else editor.can(path, view["version"])
        resp = page(request, "_list.html", view=view, notes=notes, undo=undo, redo=redo, oob=True, picked=picked)
        resp.headers["HX-Trigger"] = "list-changed"
        return resp

    from builder.web.print_page import add_routes as print_routes

    print_routes(routes, ws, editor, page, pdfs, read_form)  # the print page, its PDF, previews and downloads

    @routes.get("/l/{path:path}/export", include_in_schema=False)
    def export_file(path: str, format: str = "yaml"):
        text = _export(ws, path, format)
        ext = {"code": "txt", "text": "txt", "markdown": "md", "json": "json", "yaml": "yaml"}[format]
        name = Path(ws.clean(path)).stem + ("-code" if format == "code" else "") + "." + ext
        return Response(
            text,
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{_ascii(name)}"'},
        )

    @routes.get("/l/{path:path}/share", response_class=HTMLResponse, include_in_schema=False)
    def share_page(path: str, request: Request):
        doc, _catalog, res, view = load_view(ws, path, editor)
        from builder.share.fingerprint import fingerprint

        try:
            fp = fingerprint(doc.data, res.packs if res else ())
        except DaimyoError:  # a list the canonical form cannot read has no fingerprint yet
            fp = ""
        exports = []
        for fmt, label in FORMATS:
            try:
                exports.append({"format": fmt, "label": label, "text": _export(ws, path, fmt), "error": None})
            except DaimyoError as exc:
                exports.append({"format": fmt, "label": label, "text": "", "error": describe(exc)[1]})
        return page(
            request, "share.html", view=view, exports=exports, fingerprint=fp, undo=False, redo=False, tab="share"
        )

    @routes.get("/l/{path:path}", response_class=HTMLResponse, include_in_schema=False)
    def builder_page(path: str, request: Request):
        doc, catalog, _res, view = load_view(ws, path, editor)
        missing = missing_notes(
            [m[:200] for m in request.query_params.getlist("missing")[:10]]
        )  # packs an import lacked
        from builder.web.views import catalog_entries, entry_type

        types = sorted({entry_type(doc.system, e) for _, e in catalog_entries(doc, catalog)} - {""})
        undo, redo = editor.can(path, view["version"])
        return page(
            request,
            "builder.html",
            view=view,
            types=types,
            undo=undo,
            redo=redo,
            tab="build",
            notes=[],
            missing=missing,
        )

    @routes.get("/aid/{system}.pdf", include_in_schema=False)
    def aid_pdf(system: str, paper: str = "a4"):
        from builder.web.printing import render_aid_pdf

        if not is_system(system):  # a game registered by another package prints its aid too
            raise Refused(f"unknown system '{system}'", 404)
        if paper not in ("a4", "letter"):
            raise Refused("paper must be a4 or letter")
        pdf = pdfs.get(("aid", system, paper), lambda: render_aid_pdf(system, paper))
        return Response(
            pdf,
            media_type="application/pdf",
            headers={"Content-Disposition": f'attachment; filename="{system}-player-aid.pdf"'},
        )

    from builder.web.compare import add_routes as compare_routes

    compare_routes(routes, ws, editor, page, redirect, read_form)
    from builder.web.backup import add_routes as backup_routes

    backup_routes(routes, ws, editor, page, redirect)

    @routes.get("/api/docs", response_class=HTMLResponse, include_in_schema=False)
    def api_docs(request: Request):
        return page(request, "api.html", schema=api.openapi(), token_hint=True)

    # -- the JSON API --------------------------------------------------------------------------

    @routes.get("/api/lists", tags=["lists"], summary="Every list of the workspace with its verdict")
    def api_lists():
        return {"workspace": str(ws.root), "lists": [i.to_json() for i in ws.lists()]}

    @routes.post("/api/lists", tags=["lists"], status_code=201, summary="Start a new list file")
    def api_new(body: NewList):
        given = dict(body.options)
        system = body.system.strip().lower()
        own = get(system).new_list.options if is_system(system) else frozenset()
        for key, value in body.model_dump(exclude={"file", "system", "name", "packs", "options"}).items():
            if value is None or key not in own:  # an older field stands for its key; another game's is let be
                continue
            if key in given:
                raise UsageError(f"option '{key}' is given twice", f"give options.{key} or {key}, not both")
            given[key] = value
        rel = _create_list(ws, body.system, body.name, body.file, body.packs, given)
        return {"path": rel, "version": version_of(editor.read(rel)[1])}

    @routes.post(
        "/api/import", tags=["share"], status_code=201, summary="Write a new list from a share code or pasted text"
    )
    def api_import(body: ImportBody):
        rel, missing = _import(ws, body.text, body.file)
        return {
            "path": rel,
            "version": version_of(editor.read(rel)[1]),
            "missing_packs": missing,
            "notes": missing_notes(missing),
        }

    @routes.get("/api/lists/{path:path}/check", tags=["lists"], summary="Check a list (the findings of 'daimyo check')")
    def api_check(path: str):
        _doc, _catalog, res, view = load_view(ws, path, editor)
        return {"version": view["version"], **res.to_json(), "header": view["header"]}

    @routes.get(
        "/api/lists/{path:path}/options",
        tags=["lists"],
        summary="What can be added: catalog entries, cost, and the first rule that stops each",
    )
    def api_options(path: str, q: str = "", type: str = "", cost: str = "", can: str = "", limit: int = 200):
        from builder.web.views import options

        ed, view = _load_editor(ws, path)
        return {
            "version": view["version"],
            "header": view["header"],
            **options(
                ed, q=q[:200], kind=type[:100], max_cost=cost[:20] or None, addable=can, limit=max(1, min(limit, 500))
            ),
        }

    @routes.post(
        "/api/lists/{path:path}/edit",
        tags=["lists"],
        summary="Change a list (saved at once; 409 when the file changed since 'version')",
    )
    def api_edit(path: str, body: EditOp):
        # a worker thread (as every blocking request): a change of a big list takes seconds,
        # and no other request waits for it; changes of one list run one after the other
        op = body.model_dump(exclude_none=True)
        version = op.pop("version", None)
        out = editor.apply(path, op, version)
        res = out.result
        from builder.web.views import header

        return _json(
            {
                "version": out.version,
                "notes": out.notes,
                "header": header(res.system, res),
                "summary": res.summary,
                "findings": [f.to_json() for f in res.findings],
            }
        )

    @routes.post("/api/lists/{path:path}/undo", tags=["lists"], summary="Undo the last change made through the server")
    def api_undo(path: str, body: Version):
        out = editor.step(path, True, body.version)
        return {"version": out.version, "notes": out.notes}

    @routes.post("/api/lists/{path:path}/redo", tags=["lists"], summary="Redo the last undone change")
    def api_redo(path: str, body: Version):
        out = editor.step(path, False, body.version)
        return {"version": out.version, "notes": out.notes}

    @routes.get(
        "/api/lists/{path:path}/export",
        tags=["share"],
        summary="The list as a share code, text, Markdown, JSON or YAML",
    )
    def api_export(path: str, format: str = "code"):
        return {"format": format, "text": _export(ws, path, format)}

    @routes.post("/api/lists/{path:path}/duplicate", tags=["lists"], status_code=201, summary="Copy a list file")
    def api_duplicate(path: str, body: Target):
        return {"path": ws.duplicate(path, body.to)}

    @routes.post("/api/lists/{path:path}/rename", tags=["lists"], summary="Rename a list file")
    def api_rename(path: str, body: Target):
        new = ws.rename(path, body.to or "")
        editor.forget(ws.clean(path))
        return {"path": new}

    @routes.delete("/api/lists/{path:path}", tags=["lists"], summary="Move a list to the workspace's .trash folder")
    def api_delete(path: str):
        where = ws.delete(path)
        editor.forget(ws.clean(path))
        return {"trash": where}

    @routes.get("/api/lists/{path:path}", tags=["lists"], summary="A list as the builder shows it")
    def api_list(path: str):
        _doc, _catalog, _res, view = load_view(ws, path, editor)
        return view

    gate = templates.get_template("gate.html")

    def gate_html():
        return gate.render(workspace=ws.root.name, version=__version__)

    steps = {"edit": edit_part, "undo": undo_part, "redo": redo_part}
    front = PageEdits(api, steps, failure, ws.root)
    app = Guard(
        front, token=token, csrf=csrf, max_body=MAX_BODY, host=host, gate_html=gate_html, cookie=f"daimyo_{port}"
    )
    app.fastapi = api  # for tests
    app.templates = templates
    app.token = token
    app.csrf = csrf
    app.workspace = ws
    return app


# -- helpers ---------------------------------------------------------------------------------------


class PageEdits:
    """The builder page's changes (``POST /l/F/edit``, ``/undo``, ``/redo``, the requests a
    player makes most) handed straight to their route functions, in front of the framework's
    middleware, routing and parameter reading (about a fifth of such a request's CPU time);
    the same functions still answer through the framework, and so do every other request.
    Errors are answered as the app's handlers answer them (``failure``)."""

    def __init__(self, app, steps: dict, failure, root: Path):
        self.app = app
        self.steps = steps
        self.failure = failure
        self.root = root

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"].startswith("/l/"):
            path, _, last = scope["path"][3:].rpartition("/")
            step = self.steps.get(last)
            if step is not None and path:
                from starlette.requests import Request

                from builder.catalog.packfiles import in_workspace

                request = Request(scope, receive)
                with in_workspace(self.root):
                    try:
                        response = await step(path, request)
                    except DaimyoError as exc:
                        response = self.failure(request, exc)
                    except UnicodeDecodeError:
                        response = self.failure(request, Refused("the request is not UTF-8 text"))
                    except (HTTPException, MultiPartException) as exc:  # a form the parser refuses
                        from fastapi.exception_handlers import http_exception_handler

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
        from builder.catalog.packfiles import in_workspace

        with in_workspace(self.root):
            await self.app(scope, receive, send)


async def off_loop(fn, *args):
    """Run blocking work (reading, checking, writing lists) in a worker thread: the event loop
    keeps answering every other request meanwhile."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(fn, *args)


def _json(data: dict) -> Response:
    """A JSON answer of plain data, serialised at once (no framework encoder pass)."""
    return Response(json.dumps(data, ensure_ascii=False, default=_plain).encode("utf-8"), media_type="application/json")


def _plain(v):
    from fractions import Fraction

    if isinstance(v, Fraction):
        return float(v)
    if isinstance(v, (set, frozenset, tuple)):
        return list(v)
    return str(v)


def _ascii(name: str) -> str:
    return "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)


def _load_editor(ws: Workspace, path: str):
    """The library's ListEditor on a list of the workspace, and the page's view of it."""
    from builder.lists.editor import ListEditor
    from builder.web.views import header, words
    from builder.yamlio import read_text

    p = ws.resolve(path)
    rel = ws.clean(path)
    text = read_text(p, display=rel)
    ws.check_packs(p, text)
    ed = ListEditor(text, file=rel, base_dir=p.parent)
    gs = ed.game
    view = {
        "path": rel,
        "system": ed.system,
        "version": version_of(text),
        "header": header(ed.system, ed.check()),
        **words(gs.id),
    }
    return ed, view


def _systems_meta(ws: Workspace | None = None, packs: Sequence[dict] = (), lists=()):
    """Each game for the new-list form: id, title, name, the fields its new list asks for, an
    example name (with the file it would give) and the workspace's packs for it."""
    from builder.catalog.loader import load_catalog
    from builder.systems import list_systems

    out = []
    for gs in list_systems():
        try:
            fields = gs.new_list.fields(load_catalog(gs.id))
        except DaimyoError:
            fields = []
        example = gs.new_list.example or f"My {gs.what}"
        try:
            file = ws.new_name(example) if ws is not None else ""
        except DaimyoError:
            file = ""
        # a pack starts ticked when the game's lists here use it, or when there are none to ask
        mine = [i for i in lists if i.system == gs.id]
        used = {pk for i in mine for pk in i.packs}
        from builder.web.catalog_view import completes_only

        offered = [
            {
                **p,
                "ticked": not mine
                or p["file"] in used
                or (ws is not None and completes_only(ws.root, gs.id, p["file"])),
            }
            for p in packs
            if p["system"] == gs.id
        ]
        out.append(
            {
                "id": gs.id,
                "title": gs.title,
                "name": gs.name,
                "fields": fields,
                "example": example,
                "example_file": file,
                "packs": offered,
            }
        )
    return out


def default_game(remembered: str | None, lists, ids: list[str]) -> str:
    """The game the new-list form starts with: the one last chosen (remembered in a cookie),
    else the game of most lists in the workspace (the most recently changed list breaks a tie),
    else the first game."""
    if remembered in ids:
        return remembered
    used: dict[str, list] = {}
    for info in lists:
        if info.system in ids:
            used.setdefault(info.system, []).append(info.mtime)
    if used:
        return max(used, key=lambda sid: (len(used[sid]), max(used[sid])))
    return ids[0] if ids else ""


def _create_from_form(ws: Workspace, form: dict) -> str:
    """The new-list form's list: its fields are the options the game declares, by key."""
    system = str(form.get("system", "")).strip().lower()
    own = get(system).new_list.options if is_system(system) else frozenset()
    given = {key: form[key] for key in own if key in form}
    return _create_list(ws, system, form.get("name"), form.get("file"), form.get("packs") or [], given)


def _create_list(ws: Workspace, system: str, name, file, packs, options: dict) -> str:
    """Start a new list in the workspace (the form's and the JSON API's): ``packs`` are workspace
    paths the form offers, ``options`` the game's own by key; what the form shows and is left
    out takes what the form starts with. The list is made by the library's one path for a new
    list (``builder.lists.new.start``); the file is created, never replaced."""
    from builder.errors import UsageError
    from builder.lists.new import NewListRequest, start

    system = str(system or "").strip().lower()
    if not is_system(system):  # every registered game, not only the built-in ones
        raise UsageError(f"unknown system '{system}'", "one of " + ", ".join(ids()))
    name = str(name or "").strip() or None
    rel = ws.new_name(file or name or f"new-{system}")
    wanted = [packs] if isinstance(packs, str) else list(packs or [])
    offered = {p["path"]: p for p in ws.packs()} if wanted else {}
    files = []
    for w in wanted:
        pk = offered.get(str(w))
        if pk is None or pk["system"] != system:
            raise UsageError(f"no {system} pack '{w}' in the workspace", "choose one of the packs the form offers")
        files.append(pk["file"])
    written = [ws.pack_ref(Path(pk), rel, system) for pk in files]  # by name, as 'daimyo new --pack' writes
    new = start(NewListRequest(system, options, name, written, files, as_form=True))
    ws.create(rel, new.text)
    return rel


def _import(ws: Workspace, text: str, file: str | None) -> tuple[str, list[str]]:
    """Write a received list into the workspace: (its file, the packs it names that are not
    found here). Its packs are named by their names, found by the documented search order
    from the new list's folder, as 'daimyo import' finds them; a path the sender wrote is
    never followed."""
    from builder.errors import UsageError
    from builder.share.api import export_doc, parse_source_text

    if not text or not text.strip():
        raise UsageError("paste a share code or a list to import")
    imp = parse_source_text(text, "<pasted>", None, ws.root)
    imp.received = True  # its packs are found by name only
    from builder.share.api import validate

    validate(imp)  # a list the check cannot read is refused (422), as 'daimyo import' refuses it
    doc = imp.doc
    wanted = doc.get("packs") or []
    doc = {k: v for k, v in doc.items() if k != "packs"}
    rel = ws.new_name(file or doc.get("name") or f"imported-{doc['system']}")
    packs, missing = _pack_names(ws, rel, doc, wanted)
    if packs:
        doc = _with_packs(doc, packs)
    out = export_doc(doc, "yaml")
    if file:
        ws.create(rel, out)
        return rel, missing
    base = PurePosixPath(rel)
    names = [rel] + [ws.clean(str(base.with_name(f"{base.stem}-{n}{base.suffix}"))) for n in range(2, 2 + 1000)]
    return ws.create_free(names, out), missing


def _with_packs(doc: dict, packs: list[str]) -> dict:
    """``doc`` with ``packs`` in the place a list writes them (after system, name, author, notes)."""
    out: dict = {}
    for k, v in doc.items():
        if k not in ("system", "name", "author", "notes") and "packs" not in out:
            out["packs"] = packs
        out[k] = v
    out.setdefault("packs", packs)
    return out


def _pack_names(ws: Workspace, rel: str, doc: dict, wanted) -> tuple[list[str], list[str]]:
    """The names of the packs a received list names (the sender's paths or names), for the new
    list ``rel``: those the search order finds from its folder (the workspace's packs, the user's,
    the bundled ones); and the names of those it does not find."""
    from builder.catalog.packfiles import resolve_recorded
    from builder.share.api import pack_name

    here = (ws.root / rel).parent
    out: list[str] = []
    missing: list[str] = []
    for w in wanted if isinstance(wanted, list) else [wanted]:
        if not isinstance(w, str) or not w.strip():
            continue
        ref = w.strip()
        name = pack_name(ref)
        with ws.packs_here():
            found = resolve_recorded(ref, doc, here, doc.get("system"), names_only=True)
            if found is not None and resolve_recorded(name, doc, here, doc.get("system"), names_only=True) != found:
                recorded = [
                    e["name"]
                    for e in doc.get("checked_with") or []
                    if isinstance(e, dict) and e.get("pack") == ref and isinstance(e.get("name"), str)
                ]
                name = recorded[0] if recorded else name  # found by the name it was recorded with
        if found is not None:
            if name not in out:
                out.append(name)
            continue
        # named as 'daimyo import' names it: the name (and version) the sender's check recorded
        rec = next((e for e in doc.get("checked_with") or [] if isinstance(e, dict) and e.get("pack") == ref), {})
        label = str(rec.get("name") or PurePosixPath(ref.replace("\\", "/")).name)
        if rec.get("version"):
            label += f"@{rec['version']}"
        if label not in missing:
            missing.append(label)
    return out, missing


def missing_notes(missing: list[str]) -> list[str]:
    """The lines 'daimyo import' says of the packs a received list names and this folder lacks
    (each ``NAME`` or ``NAME@VERSION``)."""
    from builder.packs.bundle import missing_line

    out = []
    for m in missing:
        name, _, version = m.rpartition("@") if "@" in m else (m, "", "")
        out.append(missing_line(name, version or None))
    return out


def _export(ws: Workspace, path: str, fmt: str) -> str:
    from builder.errors import UsageError
    from builder.share.api import export_doc, parse_source_text, summary_of
    from builder.yamlio import read_text

    if fmt not in dict(FORMATS):
        raise UsageError(f"unknown format '{fmt}'", "code, text, markdown, json or yaml")
    p = ws.resolve(path)
    text = read_text(p, display=ws.clean(path))
    ws.check_packs(p, text)
    imp = parse_source_text(text, ws.clean(path), None, p.parent)
    return export_doc(imp.doc, fmt, summary_of(imp))
