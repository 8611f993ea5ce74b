"""The print page's routes: the form (its settings remembered in the workspace), the PDF, its
page previews with the warnings printing gave, card images and a Tabletop Simulator deck as zip
files, and the duplex alignment sheet."""

from __future__ import annotations

from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool as off_loop

from builder.i18n import N_
from builder.lists.document import parse_list
from builder.web import printing as P
from builder.web.common import load_view, read_form
from builder.web.context import context
from builder.web.editing import version_of
from builder.web.print_settings import load, save


def ascii_name(name: str) -> str:
    return "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)


def printed(path: str, request: Request) -> P.Printed:
    ctx = context(request)

    p, text = ctx.editor.read(path)
    ctx.ws.check_packs(p, text)
    doc = parse_list(text, ctx.ws.clean(path), base_dir=p.parent)
    opts = P.options_from(request.query_params, doc.system)
    key = (ctx.ws.clean(path), version_of(text), tuple(sorted(opts.items())))
    return ctx.pdfs.get(key, lambda: P.render_pdf(p, opts))


def download(data: bytes, name: str, media: str) -> Response:
    return Response(
        data,
        media_type=media,
        headers={"Content-Disposition": f'attachment; filename="{ascii_name(name)}"', "Cache-Control": "no-store"},
    )


def pdf_response(path: str, request: Request) -> Response:
    ctx = context(request)
    return download(printed(path, request).pdf, Path(ctx.ws.clean(path)).stem + ".pdf", "application/pdf")


def api_print(path: str, request: Request):
    return pdf_response(path, request)


def preview(path: str, n: int, request: Request):
    png = P.preview_png(printed(path, request).pdf, n)
    return Response(png, media_type="image/png", headers={"Cache-Control": "no-store"})


def previews_part(path: str, request: Request):
    ctx = context(request)
    out = printed(path, request)
    n = P.page_count(out.pdf)
    return ctx.page(
        request,
        "_previews.html",
        path=path,
        pages=list(range(1, min(n, P.MAX_PAGES_PREVIEW) + 1)),
        total_pages=n,
        qs=str(request.url.query),
        previewer=P.previewer(),
        size=len(out.pdf),
        printed=out,
    )


def images_zip(path: str, request: Request):
    ctx = context(request)
    p = ctx.ws.resolve(path)
    ctx.ws.check_packs(p)
    data, _said = P.render_images_zip(p, request.query_params)
    return download(data, Path(ctx.ws.clean(path)).stem + "-images.zip", "application/zip")


def tts_zip(path: str, request: Request):
    ctx = context(request)
    p = ctx.ws.resolve(path)
    ctx.ws.check_packs(p)
    return download(
        P.render_tts_zip(p, request.query_params), Path(ctx.ws.clean(path)).stem + "-tts.zip", "application/zip"
    )


async def save_settings(path: str, request: Request):
    ctx = context(request)

    form = await read_form(request)
    _doc, _catalog, _res, view = await off_loop(load_view, ctx.ws, path, ctx.editor)
    await off_loop(save, ctx.ws.root, view["path"], view["system"], form)
    return HTMLResponse(
        "Settings remembered for this list and the next " + view.get("game_name", "") + " list.",
        headers={"Cache-Control": "no-store"},
    )


def alignment_sheet(request: Request, paper: str = "a4", duplex: str = "long", paper_w: str = "", paper_h: str = ""):
    ctx = context(request)
    size = P.chosen_size({"paper": paper, "paper_w": paper_w, "paper_h": paper_h})
    key = ("print-test", size, duplex)
    return download(
        ctx.pdfs.get(key, lambda: P.render_test_pdf(size, duplex)), "alignment-sheet.pdf", "application/pdf"
    )


def print_page(path: str, request: Request):
    ctx = context(request)

    _doc, _catalog, _res, view = load_view(ctx.ws, path, ctx.editor)
    return ctx.page(
        request,
        "print.html",
        view=view,
        P=P,
        undo=False,
        redo=False,
        tab="print",
        s=load(ctx.ws.root, view["path"], view["system"]),
        B=P.BOUNDS,
        profiles=P.printer_profiles(),
    )


def add_routes(routes) -> None:
    """This module's routes, in the order they are matched."""
    routes.get("/l/{path:path}/print.pdf", include_in_schema=False)(pdf_response)
    routes.get(
        "/api/lists/{path:path}/print",
        tags=["print"],
        summary=N_("The printable PDF of a list"),
        response_class=Response,
        responses={200: {"content": {"application/pdf": {}}}},
    )(api_print)
    routes.get("/l/{path:path}/preview/{n}.png", include_in_schema=False)(preview)
    routes.get("/l/{path:path}/print/previews", response_class=HTMLResponse, include_in_schema=False)(previews_part)
    routes.get("/l/{path:path}/print/images.zip", include_in_schema=False)(images_zip)
    routes.get("/l/{path:path}/print/tts.zip", include_in_schema=False)(tts_zip)
    routes.post("/l/{path:path}/print/settings", response_class=HTMLResponse, include_in_schema=False)(save_settings)
    routes.get("/print-test.pdf", include_in_schema=False)(alignment_sheet)
    routes.get("/l/{path:path}/print", response_class=HTMLResponse, include_in_schema=False)(print_page)
