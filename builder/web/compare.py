"""Variants and comparison in the web builder: duplicate a list as a variant, and compare any
two lists of the workspace side by side.

The comparison is the library's (:mod:`builder.lists.diff`), the same answer ``daimyo diff A B``
prints: ``/compare?a=A&b=B`` shows it, ``/api/diff?a=A&b=B`` gives its JSON.

Asked for from a list (``/compare?from=L``: the Compare button of a list, "Compare with..." of
the workspace), the page preselects what a person comparing that list means: a variant
(``buke-variant.yaml``, made by Variant) is compared with its original, the original as Before
and the variant as After; a list that has variants is Before, with its newest variant as After;
any other list is Before, with After left to choose.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import quote

from fastapi import Query, Request
from fastapi.responses import HTMLResponse

from builder.i18n import N_
from builder.lists.diff import Side, diff_loaded, variant_name, verdict_text
from builder.web.common import load_view, read_form, redirect
from builder.web.context import context


def side(ws, editor, path: str):
    """The :class:`~builder.lists.diff.Side` of a list of the workspace."""

    doc, catalog, res, _view = load_view(ws, path, editor)
    return Side(doc, catalog, res)


def compare(ws, editor, a: str, b: str) -> dict:

    return diff_loaded(side(ws, editor, a), side(ws, editor, b), ws.clean(a), ws.clean(b))


def variant_file(ws, rel: str) -> str:
    """A free file name for a variant of ``rel``: ``buke.yaml`` -> ``buke-variant.yaml``,
    then ``buke-variant-2.yaml`` and on."""
    p = PurePosixPath(ws.clean(rel))
    stem = p.stem
    n = 1
    while True:
        cand = str(p.with_name(f"{stem}-variant{'' if n == 1 else '-' + str(n)}{p.suffix}"))
        if not (ws.root / cand).exists():
            return ws.clean(cand)
        n += 1


def make_variant(ws, editor, rel: str) -> str:
    """Copy a list to a new file named as its variant; the copy's list name says so too."""

    doc, _catalog, _res, view = side_view(ws, editor, rel)
    target = ws.duplicate(rel, variant_file(ws, rel))
    if not target.lower().endswith(".json"):
        editor.apply(target, {"op": "set", "key": "name", "value": variant_name(doc.name or view["name"])}, None)
    return target


def _variant_of(rel: str) -> str | None:
    """The original a variant's file is named after (``a/buke-variant-2.yaml`` -> ``a/buke.yaml``)."""
    p = PurePosixPath(rel)
    m = re.fullmatch(r"(.+)-variant(?:-\d+)?", p.stem)
    return str(p.with_name(m.group(1) + p.suffix)) if m else None


def preselected(lists, rel: str) -> tuple[str, str]:
    """Before and After of a comparison asked for from the list ``rel`` among ``lists`` (the
    workspace's readable lists): see the module's words."""
    paths = {i.path: i for i in lists}
    if rel not in paths:
        return "", ""
    original = _variant_of(rel)
    if original is not None and original in paths:
        return original, rel
    variants = [i for i in lists if i.path != rel and _variant_of(i.path) == rel]
    if variants:
        newest = max(variants, key=lambda i: (i.mtime, i.path))
        return rel, newest.path
    return rel, ""


def side_view(ws, editor, rel):

    return load_view(ws, rel, editor)


def compare_page(request: Request, a: str = "", b: str = "", from_: str = Query("", alias="from")):
    ctx = context(request)

    lists = [i for i in ctx.ws.lists() if i.system]
    if from_ and not a and not b:
        a, b = preselected(lists, ctx.ws.clean(from_))
    d = compare(ctx.ws, ctx.editor, a, b) if a and b else None
    return ctx.page(
        request,
        "compare.html",
        lists=lists,
        a=ctx.ws.clean(a) if a else "",
        b=ctx.ws.clean(b) if b else "",
        d=d,
        verdict_text=verdict_text,
    )


def api_diff(request: Request, a: str, b: str):
    ctx = context(request)
    return compare(ctx.ws, ctx.editor, a, b)


async def variant_page(path: str, request: Request):
    ctx = context(request)
    await read_form(request)
    new = make_variant(ctx.ws, ctx.editor, path)

    return redirect(request, f"/l/{quote(new)}?variant_of={quote(ctx.ws.clean(path))}")


def api_variant(request: Request, path: str):
    ctx = context(request)
    return {"path": make_variant(ctx.ws, ctx.editor, path)}


def add_routes(routes) -> None:
    """This module's routes, in the order they are matched."""
    routes.get("/compare", response_class=HTMLResponse, include_in_schema=False)(compare_page)
    routes.get(
        "/api/diff", tags=["lists"], summary=N_("Compare two lists (the answer of 'daimyo diff A B --format json')")
    )(api_diff)
    routes.post("/l/{path:path}/variant", include_in_schema=False)(variant_page)
    routes.post(
        "/api/lists/{path:path}/variant",
        tags=["lists"],
        status_code=201,
        summary=N_("Copy a list as a variant (a new file, named as the variant)"),
    )(api_variant)
