"""Layout math: paper and card sizes, grid fitting, cut marks, duplex back positions."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.errors import UsageError
from builder.kit.layout import (
    MIN_MARGIN,
    PAPERS,
    back_slot,
    card_size,
    paper_size,
    parse_offset,
    plan_sheet,
    pt,
)

from conftest import examples


def test_named_sizes():
    assert paper_size("A4") == (210.0, 297.0)
    assert paper_size("letter") == (215.9, 279.4)
    assert card_size("poker") == (63.5, 88.9)
    assert card_size("bridge") == (57.15, 88.9)
    assert card_size("tarot") == (69.85, 120.65)
    assert card_size("mini") == (44.0, 67.0)
    assert card_size("59x86") == (59.0, 86.0)
    assert round(pt(63.5), 3) == 180.0  # a poker card is 180 pt wide


@pytest.mark.parametrize("bad", ["a5", "", "poker"])
def test_unknown_paper(bad):
    with pytest.raises(UsageError, match="unknown paper"):
        paper_size(bad)


@pytest.mark.parametrize("bad", ["0x0", "49.9x100", "100x2000.5", "300000x300000"])
def test_paper_outside_the_range(bad):
    with pytest.raises(UsageError, match="must be between 50 and 2000 mm"):
        paper_size(bad)
    assert paper_size("50x2000") == (50.0, 2000.0)


@pytest.mark.parametrize("bad", ["jumbo", "5x5", "63.5"])
def test_unknown_card(bad):
    with pytest.raises(UsageError):
        card_size(bad)


def test_offset_parsing():
    assert parse_offset("0.5,-1") == (0.5, -1.0)
    assert parse_offset(None) == (0.0, 0.0)
    with pytest.raises(UsageError):
        parse_offset("1")
    with pytest.raises(UsageError):
        parse_offset("30,0")


@pytest.mark.parametrize(
    "paper,card,cols,rows,rotated",
    [
        ("a4", "poker", 3, 3, False),
        ("letter", "poker", 3, 3, False),
        ("a4", "bridge", 2, 5, True),  # turned: 10 instead of 9 (research table 2.8)
        ("a4", "tarot", 2, 2, False),
        ("a4", "mini", 4, 4, False),
    ],
)
def test_grid_counts(paper, card, cols, rows, rotated):
    plan = plan_sheet(paper_size(paper), card_size(card))
    assert (plan.cols, plan.rows, plan.rotated) == (cols, rows, rotated)
    assert plan.per_page == cols * rows


def test_poker_a4_positions_are_centred_and_abut():
    plan = plan_sheet((210, 297), (63.5, 88.9))
    xs = sorted({round(s.trim.x, 3) for s in plan.slots})
    assert xs == [pytest.approx(9.75), pytest.approx(73.25), pytest.approx(136.75)]
    assert plan.slots[0].row == 0 and plan.slots[0].trim.y1 == pytest.approx(297 - 15.15)


def test_bleed_that_cannot_fit():
    with pytest.raises(UsageError, match="bleed of 6 mm does not fit"):
        plan_sheet((210, 297), (190, 270), bleed=6)
    with pytest.raises(UsageError, match="does not fit on"):
        plan_sheet((210, 297), (300, 400))
    with pytest.raises(UsageError, match=r"bleed must be between 0 and 6 mm, not 6\.5"):
        plan_sheet((210, 297), (63.5, 88.9), bleed=6.5)


def test_bleed_reduces_the_grid():
    assert plan_sheet((215.9, 279.4), (63.5, 88.9), bleed=3).per_page < 9


def test_long_edge_back_mirrors_columns():
    plan = plan_sheet((210, 297), (63.5, 88.9))
    first, third = plan.slots[0], plan.slots[2]
    trim, _, rot = back_slot(first, plan.paper, "long")
    assert rot == 0
    assert trim.x == pytest.approx(third.trim.x) and trim.y == pytest.approx(first.trim.y)


def test_short_edge_back_mirrors_rows_and_turns():
    plan = plan_sheet((210, 297), (63.5, 88.9))
    top, bottom = plan.slots[0], plan.slots[6]
    trim, _, rot = back_slot(top, plan.paper, "short")
    assert rot == 180
    assert trim.y == pytest.approx(bottom.trim.y) and trim.x == pytest.approx(top.trim.x)


def test_offset_shifts_backs():
    plan = plan_sheet((210, 297), (63.5, 88.9))
    a, _, _ = back_slot(plan.slots[4], plan.paper, "long")
    b, _, _ = back_slot(plan.slots[4], plan.paper, "long", (1.5, -0.5))
    assert (b.x - a.x, b.y - a.y) == (pytest.approx(1.5), pytest.approx(-0.5))


def test_unknown_duplex():
    plan = plan_sheet((210, 297), (63.5, 88.9))
    with pytest.raises(UsageError):
        back_slot(plan.slots[0], plan.paper, "sideways")


@settings(max_examples=examples(120))
@given(
    paper=st.sampled_from(sorted(PAPERS)),
    w=st.floats(20, 130),
    h=st.floats(20, 180),
    bleed=st.sampled_from([0, 0.5, 1, 2, 3]),
    duplex=st.sampled_from(["long", "short"]),
)
def test_layout_invariants(paper, w, h, bleed, duplex):
    pw, ph = PAPERS[paper]
    try:
        plan = plan_sheet((pw, ph), (w, h), bleed=bleed)
    except UsageError:
        return
    page_inner = (MIN_MARGIN - 1e-6, MIN_MARGIN - 1e-6, pw - MIN_MARGIN + 1e-6, ph - MIN_MARGIN + 1e-6)
    for s in plan.slots:
        # exact size, inside the margins, bleed around the trim
        assert sorted((s.trim.w, s.trim.h)) == pytest.approx(sorted((w, h)))
        assert s.bleed.x >= page_inner[0] and s.bleed.y >= page_inner[1]
        assert s.bleed.x1 <= page_inner[2] and s.bleed.y1 <= page_inner[3]
        assert s.trim.inside(s.bleed)
        # no two cards overlap
        for o in plan.slots:
            if o.index != s.index:
                assert not (
                    s.trim.x < o.trim.x1 - 1e-6
                    and o.trim.x < s.trim.x1 - 1e-6
                    and s.trim.y < o.trim.y1 - 1e-6
                    and o.trim.y < s.trim.y1 - 1e-6
                )
        # backs land on the page, same size
        t, _b, _ = back_slot(s, (pw, ph), duplex)
        assert t.x >= 0 and t.y >= 0 and t.x1 <= pw + 1e-6 and t.y1 <= ph + 1e-6
        # going through the mirror twice gives the front position back
        assert (pw - t.x - t.w if duplex == "long" else t.x) == pytest.approx(s.trim.x)
    for m in plan.marks:
        assert 0 < m.x0 < pw and 0 < m.y0 < ph and 0 < m.x1 < pw and 0 < m.y1 < ph
        for s in plan.slots:
            assert not s.bleed.intersects_segment(m)
            assert not s.trim.intersects_segment(m)
