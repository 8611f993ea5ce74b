"""Cut marks on all four sides of every sheet, at every paper and card size, read back from the PDF."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import drawn_pages

from builder.kit.layout import MARK_EDGE_CLEAR, card_size, mm, paper_size, plan_sheet
from builder.render import api

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _marks(page):
    """Vertical and horizontal marks (mm, from the bottom-left) drawn outside the cards."""
    H = mm(page.height)
    vertical, horizontal = [], []
    for ln in page.lines:
        x0, x1 = mm(ln["x0"]), mm(ln["x1"])
        y0, y1 = H - mm(ln["bottom"]), H - mm(ln["top"])
        if abs(x1 - x0) < 0.01 and y1 - y0 > 0.5:
            vertical.append((round(x0, 2), y0, y1))
        elif abs(y1 - y0) < 0.01 and x1 - x0 > 0.5:
            horizontal.append((round(y0, 2), x0, x1))
    return vertical, horizontal


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "bridge", "tarot", "mini"])
def test_every_cut_line_has_a_mark_on_both_sides_of_the_sheet(tmp_path, paper, card):
    out = api.render_list(EXAMPLES / "satsuma-samurai.yaml", tmp_path / "m.pdf", paper=paper, card=card, backs=False)
    plan = plan_sheet(paper_size(paper), card_size(card), 0.0, marks=True)
    pw, ph = plan.paper
    a = plan.area
    xs = sorted({round(v, 2) for s in plan.slots for v in (s.trim.x, s.trim.x1)})
    ys = sorted({round(v, 2) for s in plan.slots for v in (s.trim.y, s.trim.y1)})
    with pdfplumber.open(out) as pdf:
        vertical, horizontal = _marks(drawn_pages(pdf, slice(1))[0])  # a full sheet
    for x in xs:
        assert any(abs(vx - x) < 0.05 and lo >= a.y1 for vx, lo, hi in vertical), f"no mark above x={x}"
        assert any(abs(vx - x) < 0.05 and hi <= a.y for vx, lo, hi in vertical), f"no mark below x={x}"
    for y in ys:
        assert any(abs(hy - y) < 0.05 and hi <= a.x for hy, lo, hi in horizontal), f"no mark left of y={y}"
        assert any(abs(hy - y) < 0.05 and lo >= a.x1 for hy, lo, hi in horizontal), f"no mark right of y={y}"
    for _, lo, hi in vertical:
        if hi <= a.y or lo >= a.y1:
            assert lo >= MARK_EDGE_CLEAR - 0.01 and hi <= ph - MARK_EDGE_CLEAR + 0.01
    for _, lo, hi in horizontal:
        if hi <= a.x or lo >= a.x1:
            assert lo >= MARK_EDGE_CLEAR - 0.01 and hi <= pw - MARK_EDGE_CLEAR + 0.01


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("card", ["poker", "bridge", "tarot", "mini"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_the_sheet_plan_marks_four_sides_with_or_without_bleed(paper, card, bleed):
    plan = plan_sheet(paper_size(paper), card_size(card), bleed, marks=True)
    a = plan.area
    xs = {round(v, 3) for s in plan.slots for v in (s.trim.x, s.trim.x1)}
    ys = {round(v, 3) for s in plan.slots for v in (s.trim.y, s.trim.y1)}
    top = {round(m.x0, 3) for m in plan.marks if m.x0 == m.x1 and m.y0 >= a.y1}
    bottom = {round(m.x0, 3) for m in plan.marks if m.x0 == m.x1 and m.y1 <= a.y}
    left = {round(m.y0, 3) for m in plan.marks if m.y0 == m.y1 and m.x1 <= a.x}
    right = {round(m.y0, 3) for m in plan.marks if m.y0 == m.y1 and m.x0 >= a.x1}
    assert top == xs and bottom == xs and left == ys and right == ys
    for m in plan.marks:  # no mark reaches into a card's bleed
        for s in plan.slots:
            b = s.bleed
            inside = (
                b.x < max(m.x0, m.x1) and min(m.x0, m.x1) < b.x1 and b.y < max(m.y0, m.y1) and min(m.y0, m.y1) < b.y1
            )
            assert not inside
