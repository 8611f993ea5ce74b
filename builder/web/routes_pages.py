"""The builder's pages: the workspace, a new or imported list, a list's page and the changes
made on it (htmx parts), its share page and downloads, a game's player aid."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

import segno
from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup

from builder.errors import DaimyoError
from builder.i18n import _
from builder.kit.printbounds import QR_MAX_BYTES
from builder.limits import MAX_LINK_CHARS
from builder.share.fingerprint import fingerprint
from builder.share.link import link_of, viewer_base_or_none
from builder.systems import is_system
from builder.web.common import describe, load_view, read_form, redirect
from builder.web.context import context, off_loop
from builder.web.listfiles import (
    FORMATS,
    GAME_COOKIE,
    GAME_COOKIE_AGE,
    ascii_name,
    create_from_form,
    default_game,
    export_response,
    import_response,
    list_systems_meta,
    load_editor,
    missing_notes,
)
from builder.web.printing import render_aid_pdf
from builder.web.views import catalog_entries, entry_detail, entry_type, options
from builder.web.workspace import Refused


def workspace_page(request: Request):
    ctx = context(request)
    lists = ctx.ws.lists()
    meta = list_systems_meta(ctx.ws, ctx.ws.packs(), lists)
    chosen = default_game(request.cookies.get(GAME_COOKIE), lists, [m["id"] for m in meta])
    return ctx.page(
        request,
        "workspace.html",
        offered=request.query_params.get("import", "")[:MAX_LINK_CHARS],  # from a viewer's link
        lists=lists,
        systems_meta=meta,
        folder=str(ctx.ws.root),
        chosen=chosen,
        game_names={m["id"]: m["name"] for m in meta},
        game_cookie=GAME_COOKIE,
    )


async def new_page(request: Request):
    ctx = context(request)
    form = await read_form(request, multi=("packs",))
    rel = await off_loop(create_from_form, ctx.ws, form)
    resp = redirect(request, "/l/" + rel)
    resp.set_cookie(
        GAME_COOKIE,
        str(form.get("system", "")).strip().lower(),
        max_age=GAME_COOKIE_AGE,
        samesite="strict",
        path="/",
    )  # the next new list starts with the same game
    return resp


def import_offer(request: Request, code: str = "") -> HTMLResponse:
    """A list sent from a viewer ("Open in my builder"): the page offers to import it, through
    the workspace page's Import box (nothing is written by a link)."""
    ctx = context(request)
    code = code[:MAX_LINK_CHARS]
    if not code.strip():
        raise Refused(_("no list to import: the address carries no code"), 400)
    return ctx.page(request, "import_offer.html", code=code, go="/?" + urlencode({"import": code}))


async def import_page(request: Request):
    ctx = context(request)
    form = await read_form(request)
    rel, missing = await off_loop(import_response, ctx.ws, form.get("text", ""), form.get("file") or None)

    return redirect(request, "/l/" + rel + ("?" + urlencode({"missing": missing}, doseq=True) if missing else ""))


async def duplicate_page(path: str, request: Request):
    ctx = context(request)
    form = await read_form(request)
    await off_loop(ctx.ws.duplicate, path, form.get("to") or None)
    return redirect(request, "/")


async def rename_page(path: str, request: Request):
    ctx = context(request)
    form = await read_form(request)
    await off_loop(ctx.ws.rename, path, form.get("to", ""))
    ctx.editor.forget(ctx.ws.clean(path))
    return redirect(request, "/")


async def delete_page(path: str, request: Request):
    ctx = context(request)
    await off_loop(ctx.ws.delete, path)
    ctx.editor.forget(ctx.ws.clean(path))
    return redirect(request, "/")


def catalog_part(
    path: str,
    request: Request,
    q: str = "",
    type: str = "",
    cost: str = "",
    can: str = "",
    others: str = "",
    owned: str = "",
):
    ctx = context(request)

    ed, view = load_editor(ctx.ws, path)
    opts = options(
        ed,
        q=q[:200],
        kind=type[:100],
        max_cost=cost[:20] or None,
        addable=can,
        others=others == "1",
        owned_only=owned == "1",
        across=ctx.ws.used(ed.system),
    )
    return ctx.page(request, "_catalog_rows.html", view=view, opts=opts, q=q)


def entry_part(path: str, request: Request, section: str = "", name: str = ""):
    ctx = context(request)

    _doc, catalog, _res, view = load_view(ctx.ws, path, ctx.editor)
    if section not in catalog.sections():
        raise Refused(_("no catalog section '{section}'").format(section=section), 404)
    detail = entry_detail(catalog, section, name)
    if detail is None:
        raise Refused(_("no entry '{name}' in the catalog").format(name=name), 404)
    return ctx.page(request, "_entry.html", view=view, e=detail)


async def edit_part(path: str, request: Request):
    ctx = context(request)
    form = await read_form(request)
    op = {k: v for k, v in form.items() if k not in ("version",)}

    def work():
        out = ctx.editor.apply(path, op, form.get("version") or None)
        return _list_part(request, path, out.notes, picked=op.get("player"), out=out)

    return await off_loop(work)


async def undo_part(path: str, request: Request):
    form = await read_form(request)
    return await off_loop(lambda: _stepped(request, path, True, form.get("version") or None))


async def redo_part(path: str, request: Request):
    form = await read_form(request)
    return await off_loop(lambda: _stepped(request, path, False, form.get("version") or None))


def _stepped(request, path, back, version):
    ctx = context(request)
    out = ctx.editor.step(path, back, version)
    return _list_part(request, path, out.notes, out=out)


def _list_part(request, path, notes, picked=None, out=None):
    ctx = context(request)
    _doc, _catalog, _res, view = load_view(
        ctx.ws, path, ctx.editor, out.text if out else None, out.known if out else None, out.path if out else None
    )
    # what the change left (with several processes, not read back from the shared history)
    undo, redo = out.steps if out and out.steps else ctx.editor.can(path, view["version"])
    resp = ctx.page(request, "_list.html", view=view, notes=notes, undo=undo, redo=redo, oob=True, picked=picked)
    resp.headers["HX-Trigger"] = "list-changed"
    return resp


def export_file(request: Request, path: str, format: str = "yaml"):
    ctx = context(request)
    text = export_response(ctx.ws, path, format)
    ext = {"code": "txt", "text": "txt", "markdown": "md", "json": "json", "yaml": "yaml"}[format]
    name = Path(ctx.ws.clean(path)).stem + ("-code" if format == "code" else "") + "." + ext
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{ascii_name(name)}"'},
    )


def share_page(path: str, request: Request):
    ctx = context(request)
    doc, _catalog, res, view = load_view(ctx.ws, path, ctx.editor)

    try:
        fp = fingerprint(doc.data, res.packs if res else ())
    except DaimyoError:  # a list the canonical form cannot read has no fingerprint yet
        fp = ""
    exports = []
    for fmt, label in FORMATS:
        try:
            exports.append({"format": fmt, "label": label, "text": export_response(ctx.ws, path, fmt), "error": None})
        except DaimyoError as exc:
            exports.append({"format": fmt, "label": label, "text": "", "error": describe(exc)[1]})
    code = next((str(x["text"]).strip() for x in exports if x["format"] == "code" and not x["error"]), "")
    link, qr = share_link(code)
    return ctx.page(
        request,
        "share.html",
        view=view,
        exports=exports,
        fingerprint=fp,
        undo=False,
        redo=False,
        tab="share",
        link=link,
        qr=qr,
    )


def share_link(code: str) -> tuple[str, Markup | None]:
    """The link of a share code and the QR code of it (an SVG), when a viewer is configured;
    ("", None) otherwise."""
    try:
        base = viewer_base_or_none()
    except DaimyoError:  # a viewer address that is none: the page says how to set one
        base = None
    if not base or not code:
        return "", None
    link = link_of(code, base)
    if len(link.encode("utf-8")) > QR_MAX_BYTES:
        return link, None
    svg = segno.make(link, error="l", micro=False).svg_inline(
        scale=1, light="#fff", omitsize=True, title=_("QR code of the link")
    )
    return link, Markup(svg)


def builder_page(path: str, request: Request):
    ctx = context(request)
    doc, catalog, _res, view = load_view(ctx.ws, path, ctx.editor)
    missing = missing_notes([m[:200] for m in request.query_params.getlist("missing")[:10]])  # packs an import lacked

    types = sorted({entry_type(doc.system, e) for _, e in catalog_entries(doc, catalog)} - {""})
    undo, redo = ctx.editor.can(path, view["version"])
    return ctx.page(
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


def aid_pdf(request: Request, system: str, paper: str = "a4"):
    ctx = context(request)

    if not is_system(system):  # a game registered by another package prints its aid too
        raise Refused(_("unknown system '{system}'").format(system=system), 404)
    if paper not in ("a4", "letter"):
        raise Refused(_("paper must be a4 or letter"))
    pdf = ctx.pdfs.get(("aid", system, paper), lambda: render_aid_pdf(system, paper))
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{system}-player-aid.pdf"'},
    )


def add_routes(routes) -> None:
    """The workspace page and a list's page parts, before the print page's routes."""
    routes.get("/", response_class=HTMLResponse, include_in_schema=False)(workspace_page)
    routes.post("/new", include_in_schema=False)(new_page)
    routes.post("/import", include_in_schema=False)(import_page)
    routes.get("/import", response_class=HTMLResponse, include_in_schema=False)(import_offer)
    routes.post("/l/{path:path}/duplicate", include_in_schema=False)(duplicate_page)
    routes.post("/l/{path:path}/rename", include_in_schema=False)(rename_page)
    routes.post("/l/{path:path}/delete", include_in_schema=False)(delete_page)
    routes.get("/l/{path:path}/catalog", response_class=HTMLResponse, include_in_schema=False)(catalog_part)
    routes.get("/l/{path:path}/entry", response_class=HTMLResponse, include_in_schema=False)(entry_part)
    routes.post("/l/{path:path}/edit", response_class=HTMLResponse, include_in_schema=False)(edit_part)
    routes.post("/l/{path:path}/undo", response_class=HTMLResponse, include_in_schema=False)(undo_part)
    routes.post("/l/{path:path}/redo", response_class=HTMLResponse, include_in_schema=False)(redo_part)


def add_file_routes(routes) -> None:
    """A list's downloads, share page and page (its path takes any tail: after every other
    route under ``/l/``), and the player aids."""
    routes.get("/l/{path:path}/export", include_in_schema=False)(export_file)
    routes.get("/l/{path:path}/share", response_class=HTMLResponse, include_in_schema=False)(share_page)
    routes.get("/l/{path:path}", response_class=HTMLResponse, include_in_schema=False)(builder_page)
    routes.get("/aid/{system}.pdf", include_in_schema=False)(aid_pdf)
