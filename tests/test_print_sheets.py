"""Card sheets as a player prints them: chrome inside the printable area on both sides of
the sheet, every page that carries the share code carries its QR code (and it scans back
into the same list), no-duplex layouts, shared gutters, scale correction."""

from __future__ import annotations

import itertools
from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import drawn_pages, text_pages

from builder.kit.layout import MARK_EDGE_CLEAR, mm
from builder.lists.document import load_list
from builder.render import api
from builder.share.api import parse_source_text
from builder.share.canonical import canonical
from builder.share.code import share_code_of

from qrread import page_codes

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SENSHIAI = EXAMPLES / "senshiai-northern-host.yaml"
EDGE = 5.0


def _text(page) -> str:
    """All characters in drawing order (also text turned to read upwards in a side margin)."""
    return "".join(c["text"] for c in page.chars)


def _objects_near_edge(page, edge=EDGE, line_edge=MARK_EDGE_CLEAR):
    """Characters closer than ``edge`` mm to the paper edge, lines (cut marks, shortened in a
    narrow margin rather than left out) closer than ``line_edge`` mm."""
    W, H = mm(page.width), mm(page.height)
    bad = []
    for c in page.chars:
        if min(mm(c["x0"]), W - mm(c["x1"]), mm(c["top"]), H - mm(c["bottom"])) < edge - 0.05:
            bad.append(c["text"])
    for ln in page.lines:
        if min(mm(ln["x0"]), W - mm(ln["x1"]), mm(ln["top"]), H - mm(ln["bottom"])) < line_edge - 0.05:
            bad.append("line")
    return bad


@pytest.mark.parametrize(
    "paper,card,bleed",
    [
        ("a4", "poker", 0),
        ("letter", "poker", 0),
        ("a4", "bridge", 0),
        ("a4", "mini", 0),
        ("letter", "bridge", 3),
        ("a4", "tarot", 2),
    ],
)
def test_sheet_text_keeps_5mm_and_marks_2mm_from_the_paper_edge_on_both_sides(tmp_path, paper, card, bleed):
    out = api.render_list(SENSHIAI, tmp_path / "s.pdf", paper=paper, card=card, bleed=bleed)
    with pdfplumber.open(out) as pdf:
        for page in pdf.pages[:2]:
            assert _objects_near_edge(page) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_both_sides_of_a_duplex_sheet_carry_the_ruler_and_the_label(tmp_path, paper):
    out = api.render_list(SENSHIAI, tmp_path / "s.pdf", paper=paper)
    with pdfplumber.open(out) as pdf:
        front, back = (_text(p) for p in text_pages(pdf, slice(2)))
    assert "sheet 1 of 6, fronts" in front and "sheet 1 of 6, backs" in back
    assert "50 mm: print at 100 %" in back
    if paper == "a4":  # Letter's margins beside 3 x 88.9 mm cards hold no ruler on the fronts
        assert "50 mm: print at 100 %" in front
    assert "next page" not in back  # the back's label speaks of the back


def test_no_backs_keeps_ruler_label_verdict_and_share_code(tmp_path):
    code = share_code_of(load_list(SENSHIAI))
    out = api.render_list(SENSHIAI, tmp_path / "s.pdf", backs=False)
    with pdfplumber.open(out) as pdf:
        n = len(pdf.pages)
        assert n == 7  # 50 cards: 6 sheets of fronts, the list page
        first_page, last_page = text_pages(pdf, slice(0, n, n - 1))
        first = _text(first_page)
        last = last_page.extract_text()
    assert "50 mm: print at 100 %" in first and "sheet 1 of 6, fronts" in first
    assert "daimyo check: legal" in first and f"share code and its QR code: page {n}" in first
    assert "daimyo check: legal" in last and "share code:" in last
    assert page_codes(out, n) == [code]


@pytest.mark.parametrize("name", ["senshiai-northern-host", "satsuma-samurai", "kensei-buke", "senji-three-daimyo"])
def test_every_page_with_the_share_code_has_a_qr_code_that_imports_the_list(tmp_path, name):
    src = EXAMPLES / f"{name}.yaml"
    code = share_code_of(load_list(src))
    out = api.render_list(src, tmp_path / "p.pdf")
    with pdfplumber.open(out) as pdf:
        carrying = [i + 1 for i, p in enumerate(text_pages(pdf)) if "share code:" in (p.extract_text() or "")]
    assert carrying
    for page in carrying:
        assert page_codes(out, page) == [code], page
    # scanned back in, the code is the same list
    imported = parse_source_text(code, file="<scan>")
    original = parse_source_text(src.read_text(encoding="utf-8"), file=str(src))
    assert canonical(imported.doc) == canonical(original.doc)


TOL = 0.05


def _card_rects(page, w_mm, h_mm):
    """Rectangles of one card size (face backgrounds, back fills), (x, y) mm from the bottom-left."""
    H = page.height
    out = set()
    for r in page.rects:
        w, h = mm(r["x1"] - r["x0"]), mm(r["bottom"] - r["top"])
        if abs(w - w_mm) <= TOL and abs(h - h_mm) <= TOL:
            out.add((round(mm(r["x0"]), 2), round(mm(H - r["bottom"]), 2)))
    return sorted(out)


def test_separate_layout_prints_all_fronts_then_all_backs_with_a_page_order_hint(tmp_path):
    out = api.render_list(SENSHIAI, tmp_path / "s.pdf", layout="separate")
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 13  # 6 fronts, 6 backs, the list page
        first = _text(pdf.pages[0])
        back1 = _text(pdf.pages[6])
        fronts = _card_rects(pdf.pages[0], 63.5, 88.9)
        backs = _card_rects(pdf.pages[6], 63.5, 88.9)
    assert "Print pages 1-6 (fronts)" in first and "then print pages 7-12 (backs)" in first
    assert "page 7 goes on the back of page 1" in back1
    assert len(fronts) == 9 and sorted((round(210 - x - 63.5, 2), y) for x, y in fronts) == backs


def test_fold_layout_puts_each_back_beside_its_front_across_the_fold(tmp_path):
    out = api.render_list(SENSHIAI, tmp_path / "f.pdf", layout="fold")
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        text = _text(page)
        # sideways poker cards: 2 x 2 fronts above the fold, their backs below it
        faces = _card_rects(page, 88.9, 63.5)
        dashed = [ln for ln in page.lines if abs(mm(ln["top"]) - 148.5) < 0.1 and ln.get("dash")]
        n = len(pdf.pages)
    assert "fold along the dashed line, glue, then cut" in text
    assert n == 14  # 50 cards, 4 a page, and the list page
    above = [p for p in faces if p[1] > 148.5]
    below = [p for p in faces if p[1] + 63.5 < 148.5]
    assert len(above) == 4 and len(below) == 4
    assert sorted((x, round(297 - y - 63.5, 2)) for x, y in above) == below
    assert dashed, "the fold line is drawn dashed across the middle of the page"


def test_scale_correction_stretches_each_axis(tmp_path):
    out = api.render_list(SENSHIAI, tmp_path / "s.pdf", scale_x=1.02, scale_y=0.99)
    with pdfplumber.open(out) as pdf:
        first, second = drawn_pages(pdf, slice(2))
        assert len(_card_rects(first, 63.5 * 1.02, 88.9 * 0.99)) == 9
        assert len(_card_rects(second, 63.5 * 1.02, 88.9 * 0.99)) == 9


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_gutter_0_fits_nine_poker_cards_with_bleed_and_cut_lines_run_across(tmp_path, paper):
    out = api.render_list(SENSHIAI, tmp_path / "s.pdf", paper=paper, bleed=3, gutter=0, cut_lines=True)
    with pdfplumber.open(out) as pdf:
        (page,) = drawn_pages(pdf, slice(1))
        faces = _card_rects(page, 63.5 + 6, 88.9 + 6)  # the face background with its bleed (clipped)
        long_lines = [ln for ln in page.lines if mm(ln["x1"] - ln["x0"]) > 150 or mm(ln["bottom"] - ln["top"]) > 200]
    assert len(faces) == 9
    xs = sorted({x for x, _ in faces})
    assert [round(b - a, 2) for a, b in itertools.pairwise(xs)] == [63.5, 63.5]  # trims abut
    assert len(long_lines) == 8  # 4 vertical and 4 horizontal cut lines


def test_bad_sheet_options_are_refused():
    from builder.errors import UsageError
    from builder.render.cards import sheet_options

    for kw in ({"layout": "gutterfold"}, {"gutter": -1}, {"scale_x": 1.5}, {"scale_y": "x"}):
        with pytest.raises(UsageError):
            sheet_options(**kw)
