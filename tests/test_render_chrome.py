"""Page chrome read back from the PDFs: share code printed in full, page numbers, ruler and
footer inside the printable area."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import chars, text_pages

from builder.kit import fonts
from builder.kit.layout import mm
from builder.kit.pdfbase import ShareLine, footer_rows
from builder.lists.document import load_list
from builder.render import api
from builder.share.code import share_code_of

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _lines(page, top_mm=None, bottom_mm=None):
    """Text lines of a page region (mm from the bottom edge)."""
    H = page.height
    region = page
    if top_mm is not None or bottom_mm is not None:
        top = H - (top_mm if top_mm is not None else mm(H)) / 25.4 * 72
        bottom = H - (bottom_mm or 0) / 25.4 * 72
        region = page.crop((0, top, page.width, bottom))
    return [ln for ln in (region.extract_text() or "").splitlines() if ln.strip()]


def _printed_code(lines):
    """The share code as printed: the 'share code:' line and its continuation lines."""
    for i, ln in enumerate(lines):
        if ln.startswith("share code: "):
            code = ln[len("share code: ") :].strip()
            for more in lines[i + 1 :]:
                more = more.strip()
                if " " in more:
                    break
                code += more
            return code
    return None


def _list_page_code(lines):
    """The share code as printed on a card deck's list page: the lines between
    'share code:' and the QR code's caption."""
    i = next(i for i, ln in enumerate(lines) if ln.startswith("share code:"))
    code = lines[i][len("share code:") :].strip()
    for more in lines[i + 1 :]:
        if more.startswith("scan to import"):
            break
        code += more.strip()
    return code


@pytest.mark.parametrize("name", ["senshiai-northern-host", "herocard-samurai", "satsuma-samurai"])
def test_card_sheet_prints_the_whole_share_code(tmp_path, name):
    code = share_code_of(load_list(EXAMPLES / f"{name}.yaml"))
    assert code and len(code) > 100
    out = api.render_list(EXAMPLES / f"{name}.yaml", tmp_path / "c.pdf")
    with pdfplumber.open(out) as pdf:
        n = len(pdf.pages)
        last = _lines(text_pages(pdf)[-1])
        first = " ".join(_lines(text_pages(pdf)[0]))
    assert _list_page_code(last) == code
    assert not any(fonts.ELLIPSIS in ln for ln in last if ln.startswith("share code"))
    # the sheets say where it is
    assert f"share code and its QR code: page {n}" in first


def test_long_share_code_wraps_on_the_roster_and_setup_sheet(tmp_path):
    lst = EXAMPLES / "senji-three-daimyo.yaml"
    code = share_code_of(load_list(lst))
    assert len(code) > 400  # wider than the page at any legible size: it must wrap
    out = api.render_list(lst, tmp_path / "s.pdf")
    with pdfplumber.open(out) as pdf:
        for page in text_pages(pdf):
            foot = _lines(page, top_mm=18.5)
            assert _printed_code(foot) == code
            # the footer stays clear of the page edge and below the body frame (18 mm)
            footer = [c for c in chars(page) if mm(page.height - c["bottom"]) < 18.5]
            assert min(mm(page.height - c["bottom"]) for c in footer) >= 5.0
            assert max(mm(page.height - c["top"]) for c in footer) <= 18.0


def test_share_code_that_cannot_fit_says_how_to_get_it():
    fonts.register_fonts()
    line = ShareLine.make("X" * 2000, "my-deck.yaml")
    rows = footer_rows(line, 500.0, 5.0, 4.5, fonts.CONDENSED, max_share_lines=2)
    assert [r.text for r in rows] == ["share code: run daimyo export my-deck.yaml --to code"]
    short = ShareLine.make("AB-12", None)
    assert [r.text for r in footer_rows(short, 500.0)] == ["share code: AB-12"]
    # two rows: the code continues under its first character and nothing is lost
    mid = ShareLine.make("Q" * 150)
    rows = footer_rows(mid, 500.0, 5.0, 4.5, fonts.CONDENSED, max_share_lines=2)
    assert len(rows) == 2 and rows[1].indent > 0
    assert rows[0].text[len("share code: ") :] + rows[1].text == "Q" * 150


def test_documents_number_pages_n_of_m(tmp_path):
    out = api.render_list(EXAMPLES / "kensei-buke.yaml", tmp_path / "r.pdf", unit_cards=True)
    with pdfplumber.open(out) as pdf:
        n = len(pdf.pages)
        for i, page in enumerate(text_pages(pdf), 1):
            assert f"page {i} of {n}" in " ".join(_lines(page, top_mm=18.5))
    aid = api.render_aid("senshiai", tmp_path / "a.pdf", paper="148x210")  # an aid of several pages
    with pdfplumber.open(aid) as pdf:
        n = len(pdf.pages)
        assert n >= 2
        assert all(f"page {i} of {n}" in (p.extract_text() or "") for i, p in enumerate(text_pages(pdf), 1))


def test_card_sheets_say_sheet_n_of_m(tmp_path):
    out = api.render_list(EXAMPLES / "satsuma-samurai.yaml", tmp_path / "c.pdf")
    with pdfplumber.open(out) as pdf:
        assert "sheet 1 of 6" in (text_pages(pdf)[0].extract_text() or "")


@pytest.mark.parametrize("what", ["roster", "aid"])
def test_ruler_and_its_label_stay_inside_the_margins(tmp_path, what):
    if what == "roster":
        out = api.render_list(EXAMPLES / "kensei-buke.yaml", tmp_path / "r.pdf")
    else:
        out = api.render_aid("kensei", tmp_path / "a.pdf")
    with pdfplumber.open(out) as pdf:
        page = text_pages(pdf)[0]
        W, H = mm(page.width), mm(page.height)
        label = [c for c in chars(page) if mm(page.height - c["bottom"]) > H - 12]
        assert label, "the ruler label is printed at the top"
        assert max(mm(c["x1"]) for c in label) <= W - 10
        assert min(mm(c["top"]) for c in label) >= 5


def test_long_table_starts_on_the_page_its_heading_is_on(tmp_path):
    """The roster's limits table (23 rows) is not pushed whole to page 2 with its heading:
    it starts under the troop table and goes on, with its header repeated, on the next page."""
    out = api.render_list(EXAMPLES / "kensei-buke.yaml", tmp_path / "r.pdf")
    with pdfplumber.open(out) as pdf:
        first = text_pages(pdf)[0].extract_text()
        second = text_pages(pdf)[1].extract_text()
    assert "Army-building limits" in first and "Total points within the battle" in first
    assert "Limit Value Bound Result Source" in second  # the header repeats


def test_setup_sheet_verdict_comes_first(tmp_path):
    out = api.render_list(EXAMPLES / "senji-three-daimyo.yaml", tmp_path / "s.pdf")
    with pdfplumber.open(out) as pdf:
        first = text_pages(pdf)[0].extract_text()
        last = text_pages(pdf)[-1].extract_text()
    assert first.index("Validation (daimyo check)") < first.index("Families and provinces")
    assert "daimyo check: legal (0 errors, 0 warnings)" in first
    assert "senji.placeholder-family" in first
    assert "Validation (daimyo check)" not in last or len(pdf.pages) == 1
