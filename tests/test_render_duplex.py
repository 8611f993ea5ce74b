"""Backs stand upright behind their fronts, for every card size, paper, bleed, gutter,
flip edge and sheet layout; sheet layouts without a duplex printer; shared gutters."""

from __future__ import annotations

import itertools

import pytest

from builder.errors import UsageError
from builder.kit.layout import (
    CARDS,
    MARK_PAGE_CLEAR,
    MIN_MARGIN,
    PAPERS,
    apply,
    back_slot,
    card_matrix,
    cut_lines,
    plan_fold,
    plan_sheet,
)


def _physical(paper, flip, x, y):
    """A point of the back page, seen through the sheet in the front page's coordinates."""
    pw, ph = paper
    return (pw - x, y) if flip == "long" else (x, ph - y)


def _assert_back_upright(paper, card, slot, flip):
    """Turning the cut card over about its own vertical axis shows the back upright: the
    back's card point (u, v) lies behind the front's card point (w - u, v)."""
    cw, ch = card
    front = card_matrix(slot.trim, slot.rotated, False)
    trim, _, turn = back_slot(slot, paper, flip)
    back = card_matrix(trim, slot.rotated, turn == 180)
    for u, v in ((0, 0), (cw, 0), (0, ch), (cw, ch), (cw * 0.3, ch * 0.8)):
        bx, by = _physical(paper, flip, *apply(back, u, v))
        fx, fy = apply(front, cw - u, v)
        assert (bx, by) == pytest.approx((fx, fy), abs=1e-6), (card, paper, slot.rotated, flip, (u, v))


CASES = list(itertools.product(sorted(PAPERS), sorted(CARDS), (0, 1, 3), (None, 0), ("long", "short")))


@pytest.mark.parametrize("paper,card,bleed,gutter,flip", CASES)
def test_every_back_stands_upright_behind_its_front(paper, card, bleed, gutter, flip):
    p, c = PAPERS[paper], CARDS[card]
    try:
        plan = plan_sheet(p, c, bleed, gutter=gutter)
    except UsageError:
        return
    for slot in plan.slots:
        _assert_back_upright(p, c, slot, flip)


@pytest.mark.parametrize("paper,card,bleed", list(itertools.product(sorted(PAPERS), sorted(CARDS), (0, 3))))
def test_folded_backs_stand_upright_behind_their_fronts(paper, card, bleed):
    p, c = PAPERS[paper], CARDS[card]
    plan, fold, line = plan_fold(p, c, bleed)
    assert plan.slots
    for slot in plan.slots:
        _assert_back_upright(p, c, slot, fold)
        _trim, bl, _ = back_slot(slot, p, fold)
        # front and back on opposite sides of the fold, at least 5 mm from it
        if fold == "short":
            assert slot.bleed.y >= line.y0 + MIN_MARGIN - 1e-6 and bl.y1 <= line.y0 - MIN_MARGIN + 1e-6
        else:
            assert slot.bleed.x1 <= line.x0 - MIN_MARGIN + 1e-6 and bl.x >= line.x0 + MIN_MARGIN - 1e-6


def test_sideways_cards_were_the_broken_case():
    """Bridge cards lie sideways on A4: a long-edge flip turns their backs a half turn."""
    plan = plan_sheet(PAPERS["a4"], CARDS["bridge"])
    assert plan.rotated
    assert back_slot(plan.slots[0], plan.paper, "long")[2] == 180
    assert back_slot(plan.slots[0], plan.paper, "short")[2] == 0
    upright = plan_sheet(PAPERS["a4"], CARDS["poker"])
    assert not upright.rotated and back_slot(upright.slots[0], upright.paper, "long")[2] == 0


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_with_bleed_fit_with_shared_gutters(paper):
    p = PAPERS[paper]
    assert plan_sheet(p, CARDS["poker"], bleed=3).per_page < 9  # own bleed: fewer cards
    plan = plan_sheet(p, CARDS["poker"], bleed=3, gutter=0)
    assert plan.per_page == 9 and not plan.rotated
    for s in plan.slots:
        # cards abut; the bleed is only on the outer edges of the grid
        assert s.bleed.x >= MIN_MARGIN - 1e-6 and s.bleed.x1 <= p[0] - MIN_MARGIN + 1e-6
        outer_left = s.col == 0
        assert s.trim.x - s.bleed.x == pytest.approx(3 if outer_left else 0)
        assert s.bleed.y >= MIN_MARGIN - 1e-6 and s.bleed.y1 <= p[1] - MIN_MARGIN + 1e-6
    # Letter is 279.4 mm high: 3 x 88.9 mm leave 1.35 mm of outer bleed above and below
    assert plan.outer_bleed == pytest.approx((3, 3) if paper == "a4" else (3, 1.35))
    xs = sorted({round(s.trim.x, 3) for s in plan.slots})
    assert xs[1] - xs[0] == pytest.approx(63.5)
    # a gutter of 2 mm shares 1 mm of bleed on each inner side
    g2 = plan_sheet(p, CARDS["poker"], bleed=3, gutter=2)
    mid = next(s for s in g2.slots if s.col == 1)
    assert mid.trim.x - mid.bleed.x == pytest.approx(1)


def test_full_length_cut_lines_follow_every_trim_edge():
    plan = plan_sheet(PAPERS["a4"], CARDS["poker"], bleed=3, gutter=0)
    lines = cut_lines(plan.slots, plan.paper)
    verticals = [s for s in lines if s.x0 == s.x1]
    assert len(verticals) == 4 and len(lines) == 8  # 3x3 abutting cards: 4 + 4 lines
    for s in lines:
        for v in (s.x0, s.x1, s.y0, s.y1):
            assert v >= MARK_PAGE_CLEAR - 1e-9
        assert max(s.x0, s.x1) <= 210 - MARK_PAGE_CLEAR + 1e-9 and max(s.y0, s.y1) <= 297 - MARK_PAGE_CLEAR + 1e-9
