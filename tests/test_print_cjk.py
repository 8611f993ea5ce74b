"""Kana and kanji on paper: a name in Japanese prints as glyphs of the bundled IPAex Gothic,
embedded as a subset, and a PDF of Latin text does not carry that font at all."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from builder.render import api

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KANJI = "\u4f8d\u306e\u885b\u5175"  # 侍の衛兵, "Samurai Guard"


def _fonts(pdf: Path) -> dict[str, bool]:
    """Every font the pages use: base name -> embedded (a font file in its descriptor)."""
    out: dict[str, bool] = {}
    for page in PdfReader(pdf).pages:
        res = page.get("/Resources")
        for _name, ref in ((res.get_object().get("/Font") or {}) if res is not None else {}).items():
            f = ref.get_object()
            desc = f.get("/FontDescriptor")
            desc = desc.get_object() if desc is not None else {}
            out[str(f.get("/BaseFont"))] = any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    return out


@pytest.fixture
def kanji_deck(tmp_path) -> Path:
    """The example Senshiai deck with its pack's 'Samurai Guard' renamed in kanji."""
    (tmp_path / "packs").mkdir()
    pack = (EXAMPLES / "packs" / "senshiai-example.yaml").read_text(encoding="utf-8")
    (tmp_path / "packs" / "senshiai-example.yaml").write_text(
        pack.replace("name: Samurai Guard", f"name: {KANJI}"), encoding="utf-8"
    )
    deck = (EXAMPLES / "senshiai-northern-host.yaml").read_text(encoding="utf-8")
    assert "Samurai Guard: 2" in deck
    lst = tmp_path / "deck.yaml"
    lst.write_text(deck.replace("Samurai Guard: 2", f"{KANJI}: 2"), encoding="utf-8")
    return lst


def test_a_pack_card_named_in_kanji_prints_as_glyphs(tmp_path, kanji_deck, capsys):
    out = api.render_list(kanji_deck, tmp_path / "deck.pdf")
    err = capsys.readouterr().err
    assert "missing from font" not in err, err
    with pdfplumber.open(out) as pdf:
        chars = [c for page in pdf.pages for c in page.chars]
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
        first = next(i for i, page in enumerate(pdf.pages) if KANJI in (page.extract_text() or "")) + 1
    assert KANJI in text, "the kanji name is not in the PDF's text"
    assert "?" * len(KANJI) not in text
    kanji_fonts = {c["fontname"] for c in chars if c["text"] in KANJI}
    assert kanji_fonts and all(re.fullmatch(r"[A-Z]{6}\+IPAexGothic", f) for f in kanji_fonts), kanji_fonts
    fonts = _fonts(out)
    cjk = [name for name in fonts if name.endswith("+IPAexGothic")]
    assert cjk and all(fonts[name] for name in cjk), fonts  # embedded, as a subset (the XXXXXX+ prefix)
    # Latin text around it stays in the DejaVu fonts
    assert all("DejaVu" in c["fontname"] for c in chars if c["text"] == "W")
    if shutil.which("pdftoppm"):  # the page as a player sees it (a PNG to look at)
        png = tmp_path / "kanji"
        subprocess.run(
            ["pdftoppm", "-png", "-r", "80", "-f", str(first), "-l", str(first), "-singlefile", str(out), str(png)],
            check=True,
        )
        assert png.with_suffix(".png").stat().st_size > 1000


def test_the_embedded_cjk_subset_is_small(tmp_path, kanji_deck):
    out = api.render_list(kanji_deck, tmp_path / "deck.pdf")
    latin = api.render_list(EXAMPLES / "senshiai-northern-host.yaml", tmp_path / "latin.pdf")
    # a subset of a few glyphs, not the 6 MB font
    assert out.stat().st_size - latin.stat().st_size < 60_000


@pytest.mark.parametrize("example", ["kensei-buke", "senji-three-daimyo", "satsuma-samurai", "senshiai-northern-host"])
def test_a_latin_only_pdf_does_not_embed_the_cjk_font(tmp_path, example):
    out = api.render_list(EXAMPLES / f"{example}.yaml", tmp_path / "x.pdf")
    fonts = _fonts(out)
    assert fonts and not any("IPAex" in name for name in fonts), fonts
    assert b"IPAex" not in out.read_bytes()


def test_a_roster_in_japanese_prints_its_fixed_words_as_glyphs(tmp_path):
    """The whole pipeline for a non-Latin script: the Japanese catalog's words, printed with the
    embedded IPAex Gothic subset."""
    from builder import i18n

    with i18n.use("ja"):
        out = api.render_list(EXAMPLES / "kensei-buke.yaml", tmp_path / "roster.pdf")
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        text = page.extract_text() or ""
        fonts_of = {c["fontname"] for c in page.chars if c["text"] in "軍編成表"}
    assert "Kensei 軍編成表" in text and "軍編成の制限" in text, text[:300]
    assert fonts_of and all(f.endswith("+IPAexGothic") for f in fonts_of), fonts_of
    assert any(name.endswith("+IPAexGothic") and embedded for name, embedded in _fonts(out).items())
