"""The JSON API under ``/api/``: the lists of the workspace, checked, changed, exported, imported
(described at ``/api/openapi.json``; the page ``/api/docs`` shows it)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from builder.errors import UsageError
from builder.i18n import N_, _
from builder.systems import get, is_system
from builder.web.common import load_view
from builder.web.context import context
from builder.web.editing import version_of
from builder.web.listfiles import create_list, export_response, import_response, json_body, load_editor, missing_notes
from builder.web.views import header, options

# -- request bodies of the API (documented in the OpenAPI page) --------------------------------


class EditOp(BaseModel):
    """One change. ``op``: add (item, count or models), remove (item and count for cards; index for
    a unit; all), models (index, value or delta), troop (index, field standard|led_by, value),
    part (where, field, value: a setup's player or province), set (key, value),
    house_rule (key, value; empty for the default)."""

    op: str
    item: str | None = None
    count: int | None = None
    models: int | None = None
    index: int | None = None
    delta: int | None = None
    field: str | None = None
    key: str | None = None
    value: Any | None = None
    all: bool | None = None
    player: str | None = Field(
        None, description="add: the player (name or family) who takes a samurai card or province of a setup"
    )
    options: dict[str, bool | int | str] | None = Field(
        None, description='add: the options of the game\'s own add by key, e.g. {"models": 2}'
    )
    where: str | None = Field(None, description="part: the part to change, e.g. players/0/provinces/2")
    version: str | None = Field(
        None, description="the version the change was made against; a file changed since is refused (409)"
    )


class Version(BaseModel):
    version: str | None = None


class NewList(BaseModel):
    file: str
    system: str
    name: str | None = None
    options: dict[str, bool | int | str] = Field(
        default_factory=dict,
        description='the game\'s own options by key, as the game declares them (e.g. {"clan": "buke"}); '
        "the older fields below stand for the same keys",
    )
    clan: str | None = None
    points: int | str | None = None
    commander: str | None = None
    occult: bool | None = None
    size: int | str | None = None
    hero: str | None = None
    max_hero_points: int | str | None = None
    players: int | str | None = None
    side: str | None = None
    packs: list[str] = Field(default_factory=list, description="pack files of the workspace the list uses")


class ImportBody(BaseModel):
    text: str = Field(..., description="a share code, or a list in text, Markdown, JSON or YAML")
    file: str | None = Field(None, description="the file to write (default: from the list's name)")


class Target(BaseModel):
    to: str | None = None


def api_docs(request: Request):
    ctx = context(request)
    return ctx.page(request, "api.html", schema=request.app.openapi(), token_hint=True)


def api_lists(request: Request):
    ctx = context(request)
    return {"workspace": str(ctx.ws.root), "lists": [i.to_json() for i in ctx.ws.lists()]}


def api_new(request: Request, body: NewList):
    ctx = context(request)
    given = dict(body.options)
    system = body.system.strip().lower()
    own = get(system).new_list.options if is_system(system) else frozenset()
    for key, value in body.model_dump(exclude={"file", "system", "name", "packs", "options"}).items():
        if value is None or key not in own:  # an older field stands for its key; another game's is let be
            continue
        if key in given:
            raise UsageError(
                _("option '{key}' is given twice").format(key=key),
                _("give options.{key} or {key}, not both").format(key=key),
            )
        given[key] = value
    rel = create_list(ctx.ws, body.system, body.name, body.file, body.packs, given)
    return {"path": rel, "version": version_of(ctx.editor.read(rel)[1])}


def api_import(request: Request, body: ImportBody):
    ctx = context(request)
    rel, missing = import_response(ctx.ws, body.text, body.file)
    return {
        "path": rel,
        "version": version_of(ctx.editor.read(rel)[1]),
        "missing_packs": missing,
        "notes": missing_notes(missing),
    }


def api_check(request: Request, path: str):
    ctx = context(request)
    _doc, _catalog, res, view = load_view(ctx.ws, path, ctx.editor)
    return {"version": view["version"], **res.to_json(), "header": view["header"]}


def api_options(
    request: Request, path: str, q: str = "", type: str = "", cost: str = "", can: str = "", limit: int = 200
):
    ctx = context(request)

    ed, view = load_editor(ctx.ws, path)
    return {
        "version": view["version"],
        "header": view["header"],
        **options(
            ed, q=q[:200], kind=type[:100], max_cost=cost[:20] or None, addable=can, limit=max(1, min(limit, 500))
        ),
    }


def api_edit(request: Request, path: str, body: EditOp):
    ctx = context(request)
    # a worker thread (as every blocking request): a change of a big list takes seconds,
    # and no other request waits for it; changes of one list run one after the other
    op = body.model_dump(exclude_none=True)
    version = op.pop("version", None)
    out = ctx.editor.apply(path, op, version)
    res = out.result

    return json_body(
        {
            "version": out.version,
            "notes": out.notes,
            "header": header(res.system, res),
            "summary": res.summary,
            "findings": [f.to_json() for f in res.findings],
        }
    )


def api_undo(request: Request, path: str, body: Version):
    ctx = context(request)
    out = ctx.editor.step(path, True, body.version)
    return {"version": out.version, "notes": out.notes}


def api_redo(request: Request, path: str, body: Version):
    ctx = context(request)
    out = ctx.editor.step(path, False, body.version)
    return {"version": out.version, "notes": out.notes}


def api_export(request: Request, path: str, format: str = "code"):
    ctx = context(request)
    return {"format": format, "text": export_response(ctx.ws, path, format)}


def api_duplicate(request: Request, path: str, body: Target):
    ctx = context(request)
    return {"path": ctx.ws.duplicate(path, body.to)}


def api_rename(request: Request, path: str, body: Target):
    ctx = context(request)
    new = ctx.ws.rename(path, body.to or "")
    ctx.editor.forget(ctx.ws.clean(path))
    return {"path": new}


def api_delete(request: Request, path: str):
    ctx = context(request)
    where = ctx.ws.delete(path)
    ctx.editor.forget(ctx.ws.clean(path))
    return {"trash": where}


def api_list(request: Request, path: str):
    ctx = context(request)
    _doc, _catalog, _res, view = load_view(ctx.ws, path, ctx.editor)
    return view


def add_routes(routes) -> None:
    """The API's page and its routes."""
    routes.get("/api/docs", response_class=HTMLResponse, include_in_schema=False)(api_docs)
    routes.get("/api/lists", tags=["lists"], summary=N_("Every list of the workspace with its verdict"))(api_lists)
    routes.post("/api/lists", tags=["lists"], status_code=201, summary=N_("Start a new list file"))(api_new)
    routes.post(
        "/api/import", tags=["share"], status_code=201, summary=N_("Write a new list from a share code or pasted text")
    )(api_import)
    routes.get(
        "/api/lists/{path:path}/check", tags=["lists"], summary=N_("Check a list (the findings of 'daimyo check')")
    )(api_check)
    routes.get(
        "/api/lists/{path:path}/options",
        tags=["lists"],
        summary=N_("What can be added: catalog entries, cost, and the first rule that stops each"),
    )(api_options)
    routes.post(
        "/api/lists/{path:path}/edit",
        tags=["lists"],
        summary=N_("Change a list (saved at once; 409 when the file changed since 'version')"),
    )(api_edit)
    routes.post(
        "/api/lists/{path:path}/undo", tags=["lists"], summary=N_("Undo the last change made through the server")
    )(api_undo)
    routes.post("/api/lists/{path:path}/redo", tags=["lists"], summary=N_("Redo the last undone change"))(api_redo)
    routes.get(
        "/api/lists/{path:path}/export",
        tags=["share"],
        summary=N_("The list as a share code, text, Markdown, JSON or YAML"),
    )(api_export)
    routes.post("/api/lists/{path:path}/duplicate", tags=["lists"], status_code=201, summary=N_("Copy a list file"))(
        api_duplicate
    )
    routes.post("/api/lists/{path:path}/rename", tags=["lists"], summary=N_("Rename a list file"))(api_rename)
    routes.delete("/api/lists/{path:path}", tags=["lists"], summary=N_("Move a list to the workspace's .trash folder"))(
        api_delete
    )
    routes.get("/api/lists/{path:path}", tags=["lists"], summary=N_("A list as the builder shows it"))(api_list)
