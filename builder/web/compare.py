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

from fastapi import Query, Request
from fastapi.responses import HTMLResponse


def side(ws, editor, path: str):
    """The :class:`~builder.lists.diff.Side` of a list of the workspace."""
    from builder.lists.diff import Side
    from builder.web.common import load_view

    doc, catalog, res, _view = load_view(ws, path, editor)
    return Side(doc, catalog, res)


def compare(ws, editor, a: str, b: str) -> dict:
    from builder.lists.diff import diff_loaded

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
    from builder.lists.diff import variant_name

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
    from builder.web.common import load_view

    return load_view(ws, rel, editor)


def add_routes(api, ws, editor, page, go, form) -> None:
    """The comparison page, its JSON twin and the variant action."""

    @api.get("/compare", response_class=HTMLResponse, include_in_schema=False)
    def compare_page(request: Request, a: str = "", b: str = "", from_: str = Query("", alias="from")):
        from builder.lists.diff import verdict_text

        lists = [i for i in ws.lists() if i.system]
        if from_ and not a and not b:
            a, b = preselected(lists, ws.clean(from_))
        d = compare(ws, editor, a, b) if a and b else None
        return page(
            request,
            "compare.html",
            lists=lists,
            a=ws.clean(a) if a else "",
            b=ws.clean(b) if b else "",
            d=d,
            verdict_text=verdict_text,
        )

    @api.get("/api/diff", tags=["lists"], summary="Compare two lists (the answer of 'daimyo diff A B --format json')")
    def api_diff(a: str, b: str):
        return compare(ws, editor, a, b)

    @api.post("/l/{path:path}/variant", include_in_schema=False)
    async def variant_page(path: str, request: Request):
        await form(request)
        new = make_variant(ws, editor, path)
        from urllib.parse import quote

        return go(request, f"/l/{quote(new)}?variant_of={quote(ws.clean(path))}")

    @api.post(
        "/api/lists/{path:path}/variant",
        tags=["lists"],
        status_code=201,
        summary="Copy a list as a variant (a new file, named as the variant)",
    )
    def api_variant(path: str):
        return {"path": make_variant(ws, editor, path)}
