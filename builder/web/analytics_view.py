"""Analytics beside the list: the figures of ``daimyo stats`` (counts by type, cost, suit and
the like, limits with the room left, exact odds from the query language) and the sample hands
of ``daimyo hand``, computed by the same library calls so that the page and the command line
give the same numbers.

``/l/LIST/stats?odds=Q&seed=N`` is the page; ``/api/lists/LIST/stats?odds=Q`` and
``/api/lists/LIST/hand?seed=N`` give the JSON of ``daimyo stats -f json`` and ``daimyo hand -f json``.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse

from builder.analytics.hands import MAX_HANDS, format_hands, sample_hands
from builder.analytics.stats import format_stats, list_stats, load
from builder.errors import DaimyoError, UsageError
from builder.i18n import N_, _
from builder.web.common import describe, load_view
from builder.web.context import context

MAX_ODDS = 8  # queries on one page
MAX_QUERY = 300  # characters of one query


def _loaded(ws, editor, path: str):

    p, text = editor.read(path)
    ws.check_packs(p, text)
    return ws.clean(path), load(p)


def stats_of(ws, editor, path: str, odds=()) -> dict:

    rel, ld = _loaded(ws, editor, path)
    st = list_stats(None, list(odds), loaded=ld)
    st["file"] = rel
    return st


def hands_of(ws, editor, path: str, seed: int, draws: int = 1) -> dict:

    rel, ld = _loaded(ws, editor, path)
    if ld.view is None:
        raise UsageError(
            _("{rel}: a {system} list has no cards to draw").format(rel=rel, system=ld.result.system),
            _("hands are for Senshiai, HeroCard and Satsuma decks"),
        )
    if ld.view.total == 0:
        raise UsageError(_("{rel}: the deck has no known card to draw").format(rel=rel))
    if not 1 <= draws <= MAX_HANDS:
        raise UsageError(_("draws {draws}: give 1 to {most:,} hands").format(draws=draws, most=MAX_HANDS))
    data = sample_hands(ld, seed, draws)
    data["file"] = rel
    return data


def _seed(raw: str) -> int:

    raw = (raw or "").strip() or "1"
    if not raw.lstrip("-").isdigit() or len(raw) > 18:
        raise UsageError(_("seed must be a whole number, not '{raw}'").format(raw=raw[:40]))
    return int(raw)


def stats_page(path: str, request: Request, seed: str = "1"):
    ctx = context(request)

    _doc, _catalog, _res, view = load_view(ctx.ws, path, ctx.editor)
    odds = [q.strip()[:MAX_QUERY] for q in request.query_params.getlist("odds") if q.strip()][:MAX_ODDS]
    n = _seed(seed)
    odds_error = ""
    try:
        st = stats_of(ctx.ws, ctx.editor, path, odds)
    except DaimyoError as exc:  # a query that cannot be read: said beside the form
        odds_error = describe(exc)[1]
        st = stats_of(ctx.ws, ctx.editor, path)
    hand, hand_lines = None, []
    if st.get("cards"):
        hand = hands_of(ctx.ws, ctx.editor, path, n)
        hand_lines = format_hands(hand)
    return ctx.page(
        request,
        "stats.html",
        view=view,
        st=st,
        lines=format_stats(st),
        odds=odds,
        odds_error=odds_error,
        seed=n,
        hand=hand,
        hand_lines=hand_lines,
        undo=False,
        redo=False,
        tab="stats",
    )


def api_stats(path: str, request: Request):
    ctx = context(request)
    odds = [q[:MAX_QUERY] for q in request.query_params.getlist("odds")][:MAX_ODDS]
    return stats_of(ctx.ws, ctx.editor, path, odds)


def api_hand(request: Request, path: str, seed: int, draws: int = 1):
    ctx = context(request)
    return hands_of(ctx.ws, ctx.editor, path, seed, draws)


def add_routes(routes) -> None:
    """This module's routes, in the order they are matched."""
    routes.get("/l/{path:path}/stats", response_class=HTMLResponse, include_in_schema=False)(stats_page)
    routes.get(
        "/api/lists/{path:path}/stats",
        tags=["analytics"],
        summary=N_("The statistics of a list (the answer of 'daimyo stats LIST --format json')"),
    )(api_stats)
    routes.get(
        "/api/lists/{path:path}/hand",
        tags=["analytics"],
        summary=N_("Sample opening hands (the answer of 'daimyo hand LIST --seed N --format json')"),
    )(api_hand)
