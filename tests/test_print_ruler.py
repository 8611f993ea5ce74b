"""The 50 mm ruler on every sheet of cards, with bleed or not, and the fold line clear of the
sheet label: read back from the PDF."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import drawn_pages, example_deck, rulers
from sweeps import quick_first

from builder.kit.layout import MARK_EDGE_CLEAR, Rect, back_slot, card_size, mm, paper_size, plan_fold, plan_sheet
from builder.render import api

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x < b.x1 and b.x < a.x1 and a.y < b.y1 and b.y < a.y1


@pytest.mark.parametrize("layout", ["duplex", "fold"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
@pytest.mark.parametrize("paper", quick_first(["a4", "letter"]))
@pytest.mark.parametrize("card", quick_first(["poker", "bridge", "tarot", "mini"]))
def test_every_sheet_of_fronts_has_a_ruler_clear_of_cards_and_marks(tmp_path, card, paper, bleed, layout):
    P, C = paper_size(paper), card_size(card)
    if layout == "fold":
        plan, fold, _ = plan_fold(P, C, bleed)
        cards = [s.bleed for s in plan.slots] + [back_slot(s, P, fold)[1] for s in plan.slots]
    else:
        plan = plan_sheet(P, C, bleed)
        cards = [s.bleed for s in plan.slots]
    out = api.render_list(
        example_deck(tmp_path, len(plan.slots) + 1),
        tmp_path / "r.pdf",
        paper=paper,
        card=card,
        bleed=bleed,
        layout=layout,
    )
    with pdfplumber.open(out) as pdf:
        pages = drawn_pages(pdf, slice(-1))  # the list page has its own ruler
        fronts = pages if layout == "fold" else pages[0::2]
        assert len(fronts) == 2  # a full sheet, and one holding a single card
        for n, page in enumerate(fronts, 1):
            found = rulers(page)
            assert len(found) == 1, f"sheet {n}: {len(found)} rulers"
            r = found[0]
            assert not any(_overlaps(r, c) for c in cards), f"sheet {n}: the ruler is on a card"
            assert r.x >= MARK_EDGE_CLEAR and r.y >= MARK_EDGE_CLEAR
            assert r.x1 <= P[0] - MARK_EDGE_CLEAR and r.y1 <= P[1] - MARK_EDGE_CLEAR
            # no cut mark runs through it
            H = mm(page.height)
            for ln in page.lines:
                if (
                    abs(ln["x1"] - ln["x0"]) < 0.01
                    and mm(ln["bottom"] - ln["top"]) > 1.4
                    and mm(ln["bottom"] - ln["top"]) < 3.2
                ):
                    continue  # its own ticks
                seg = Rect(mm(ln["x0"]), H - mm(ln["bottom"]), mm(ln["x1"] - ln["x0"]), mm(ln["bottom"] - ln["top"]))
                inside = r.x + 0.2 < seg.x1 and seg.x < r.x1 - 0.2 and r.y + 0.2 < seg.y1 and seg.y < r.y1 - 0.2
                assert not (inside and (seg.w > 3.2 or seg.h > 3.2)), f"sheet {n}: a line crosses the ruler"


def test_a_full_margin_keeps_the_ruler_beside_the_label(tmp_path):
    """Where the margin has room (A4 poker, no bleed) the ruler stays in its band with its label."""
    out = api.render_list(EXAMPLES / "senshiai-northern-host.yaml", tmp_path / "r.pdf", paper="a4", card="poker")
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        assert len(rulers(page)) == 1
        assert "50 mm: print at 100 % (actual size)" in (page.extract_text() or "")


@pytest.mark.parametrize(
    ("card", "paper"), [("poker", "a4"), ("poker", "letter"), ("bridge", "letter"), ("mini", "a4")]
)  # where the margins hold the sheet label
def test_the_fold_line_crosses_no_text(tmp_path, card, paper):
    out = api.render_list(
        EXAMPLES / "senshiai-northern-host.yaml", tmp_path / "f.pdf", paper=paper, card=card, layout="fold"
    )
    P = paper_size(paper)
    _, fold, _line = plan_fold(P, card_size(card))
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        H = mm(page.height)
        if fold == "short":  # a horizontal fold at half the height
            drawn = [
                ln for ln in page.lines if abs(mm(ln["top"]) - P[1] / 2) < 0.05 and abs(ln["top"] - ln["bottom"]) < 0.01
            ]
        else:
            drawn = [ln for ln in page.lines if abs(mm(ln["x0"]) - P[0] / 2) < 0.05 and abs(ln["x0"] - ln["x1"]) < 0.01]
        assert drawn, "no fold line"
        label = [ch for ch in page.chars if ch["text"].strip()]
        a = plan_fold(P, card_size(card))[0].area
        chrome = [ch for ch in label if not (a.x < mm(ch["x0"]) < a.x1 and a.y < H - mm(ch["bottom"]) < a.y1)]
        assert len(chrome) > 40, "the sheet label is not in the margin"
        for ln in drawn:
            for ch in label:
                cx0, cx1, ctop, cbot = ch["x0"], ch["x1"], ch["top"], ch["bottom"]
                crosses = cx0 < ln["x1"] and ln["x0"] < cx1 and ctop < ln["bottom"] and ln["top"] < cbot
                assert not crosses, f"the fold line crosses '{ch['text']}' at {mm(cx0):.1f},{H - mm(cbot):.1f} mm"
