"""Text on printed pages: glyph checks cover the list name, aids embed every font and show
Markdown code as code, not backticks."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import text_pages
from pypdf import PdfReader

from builder.render import api

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _named(tmp_path, src: Path, name: str) -> Path:
    text = src.read_text(encoding="utf-8")
    lines = [ln if not ln.startswith("name:") else f"name: {name}" for ln in text.splitlines()]
    p = tmp_path / src.name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


@pytest.mark.parametrize("example", ["satsuma-samurai", "kensei-buke", "senji-three-daimyo"])
def test_glyph_check_covers_the_list_name(tmp_path, capsys, example):
    lst = _named(tmp_path, EXAMPLES / f"{example}.yaml", "\u8a66\u9a13 \U0001f409")  # 試験 and a dragon no font draws
    api.render_list(lst, tmp_path / "x.pdf")
    err = capsys.readouterr().err
    assert "the list, field 'name': characters missing from font" in err and "(U+1F409)" in err, err
    assert "(U+8A66)" not in err, err  # kanji print with the CJK fallback font


def _fonts(pdf: Path) -> dict[str, bool]:
    """Every font the PDF uses: base name -> embedded."""
    out = {}
    reader = PdfReader(pdf)
    todo = [p.get("/Resources") for p in reader.pages]
    seen = set()
    while todo:
        res = todo.pop()
        if res is None:
            continue
        res = res.get_object()
        for _, ref in (res.get("/Font") or {}).items():
            f = ref.get_object()
            desc = f.get("/FontDescriptor")
            if desc is None and f.get("/DescendantFonts"):
                desc = f["/DescendantFonts"][0].get_object().get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            embedded = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            out[str(f.get("/BaseFont"))] = embedded
        for _, ref in (res.get("/XObject") or {}).items():
            if id(ref) in seen:
                continue
            seen.add(id(ref))
            o = ref.get_object()
            if o.get("/Subtype") == "/Form":
                todo.append(o.get("/Resources"))
    return out


@pytest.mark.parametrize("system", ["senshiai", "kensei", "herocard", "senji", "satsuma"])
def test_every_font_of_an_aid_is_embedded(tmp_path, system):
    out = api.render_aid(system, tmp_path / "a.pdf")
    fonts = _fonts(out)
    assert fonts and all(fonts.values()), fonts
    assert not any("Helvetica" in name or "Times" in name or "Courier" in name or "Zapf" in name for name in fonts)


def test_every_font_of_a_card_sheet_and_a_roster_is_embedded(tmp_path):
    for ex in ("satsuma-samurai", "kensei-buke", "senji-three-daimyo"):
        out = api.render_list(EXAMPLES / f"{ex}.yaml", tmp_path / f"{ex}.pdf")
        fonts = _fonts(out)
        assert fonts and all(fonts.values()), (ex, fonts)


@pytest.mark.parametrize("system", ["senshiai", "kensei", "herocard", "senji", "satsuma"])
def test_aids_print_no_markdown_backticks(tmp_path, system):
    out = api.render_aid(system, tmp_path / "a.pdf")
    with pdfplumber.open(out) as pdf:
        text = "\n".join(p.extract_text() or "" for p in text_pages(pdf))
    assert "`" not in text


@pytest.mark.parametrize("system", ["senshiai", "kensei", "herocard", "senji", "satsuma"])
def test_aids_on_letter_keep_the_page_count_they_have_on_a4(tmp_path, system):
    from builder.render.aids import page_count

    a4 = page_count(api.render_aid(system, tmp_path / "a4.pdf", paper="a4"))
    letter = page_count(api.render_aid(system, tmp_path / "letter.pdf", paper="letter"))
    assert letter == a4
    assert not list(tmp_path.glob(".*"))  # no trial file left behind
