"""Card faces read back from the PDF: no text overlaps other text on any face of any example
at any card size, and with art on every card no rule is dropped (the art yields first)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import overlapping_lines, text_pages

from builder.kit.layout import mm
from builder.render import api

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CARD_GAMES = ["senshiai-northern-host", "satsuma-samurai", "satsuma-imperial", "herocard-samurai"]


@pytest.mark.parametrize(  # the quick loop prints every game on one card size, the suite on every size
    "card", ["poker", *(pytest.param(c, marks=pytest.mark.slow) for c in ("bridge", "tarot", "mini"))]
)
@pytest.mark.parametrize("example", CARD_GAMES)
def test_no_text_overlaps_on_any_face(tmp_path, capsys, example, card):
    out = api.render_list(EXAMPLES / f"{example}.yaml", tmp_path / "f.pdf", card=card, backs=False)
    with pdfplumber.open(out) as pdf:
        for page in text_pages(pdf, slice(-1)):  # the sheets (the list page is not a card)
            assert overlapping_lines(page) == [], f"page {page.page_number}"
    assert "does not fit" not in capsys.readouterr().err


def test_the_overlap_check_sees_text_drawn_over_text(tmp_path):
    """The check itself: two lines of 6 pt type 5.3 pt apart overlap; the same strings a line apart do not."""
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "o.pdf"
    c = Canvas(str(path))
    c.setFont("Helvetica", 6)
    c.drawString(100, 100, "one card per suit counts in a clash")
    c.drawString(100, 100 - 6 + 0.7, "Saigo's rebels")  # 0.7 pt into the line above
    c.drawString(300, 100, "one card per suit counts in a clash")
    c.drawString(300, 100 - 6 * 1.2, "Saigo's rebels")
    c.save()
    with pdfplumber.open(path) as pdf:
        found = overlapping_lines(pdf.pages[0])
    assert len(found) == 1 and found[0][1].startswith("Saigo")


def test_the_text_reader_reads_what_pdfplumber_reads(tmp_path):
    """The checks' quicker readings of a page give pdfplumber's own characters and text, turned
    text included, or its own lines and rectangles, and refuse to answer for what they did not read."""
    from pdfcheck import CHAR_KEYS, chars, drawn_pages, extract_text_lines
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "t.pdf"
    c = Canvas(str(path), pagesize=(300, 200))
    c.setFont("Helvetica", 7)
    c.drawString(20, 150, "Limit: one per deck")
    c.line(20, 140, 280, 140)
    c.rect(15, 15, 270, 170)
    c.saveState()
    c.translate(290, 30)
    c.rotate(90)
    c.drawString(0, 0, "sheet 1 of 6")
    c.restoreState()
    c.save()
    with pdfplumber.open(path) as whole, pdfplumber.open(path) as text:
        page, (read,) = whole.pages[0], text_pages(text)
        assert page.lines and page.rects
        assert [tuple(ch[k] for k in CHAR_KEYS) for ch in page.chars] == [
            tuple(ch[k] for k in CHAR_KEYS) for ch in chars(read)
        ]
        assert page.chars == read.chars
        assert "sheet 1 of 6" in "".join(ch["text"] for ch in chars(read))
        assert page.extract_text() == read.extract_text() and "Limit: one per deck" in read.extract_text()
        lines, want = extract_text_lines(read), page.extract_text_lines()
        assert [{k: v for k, v in ln.items() if k != "chars"} for ln in lines] == [
            {k: v for k, v in ln.items() if k != "chars"} for ln in want
        ]
        assert [[tuple(ch[k] for k in (*CHAR_KEYS, "doctop")) for ch in ln["chars"]] for ln in lines] == [
            [tuple(ch[k] for k in (*CHAR_KEYS, "doctop")) for ch in ln["chars"]] for ln in want
        ]
        assert lines[0]["text"] == "Limit: one per deck"
        with pytest.raises(AttributeError):
            read.lines  # noqa: B018
    with pdfplumber.open(path) as whole, pdfplumber.open(path) as drawing:
        page, (drawn,) = whole.pages[0], drawn_pages(drawing)
        assert (drawn.lines, drawn.rects, drawn.curves) == (page.lines, page.rects, page.curves)
        assert len(drawn.lines) == 1 and len(drawn.rects) == 1
        for name in ("chars", "extract_text"):
            with pytest.raises(AttributeError):
                getattr(drawn, name)
        with pytest.raises(RuntimeError, match="read for its drawing alone"):
            text_pages(drawing)[0].chars  # noqa: B018


def _deck_with_art(tmp_path, example: str, pack: str) -> Path:
    """The example deck with an image for every card in its pack (art/<card>.png)."""
    from PIL import Image

    from builder.names import slug
    from builder.yamlio import load_yaml

    (tmp_path / "packs").mkdir()
    shutil.copy(EXAMPLES / "packs" / pack, tmp_path / "packs" / pack)
    shutil.copy(EXAMPLES / f"{example}.yaml", tmp_path / "deck.yaml")
    (tmp_path / "art").mkdir()
    data, _ = load_yaml(EXAMPLES / "packs" / pack)
    names = {
        c["name"]
        for section in data.values()
        if isinstance(section, list)
        for c in section
        if isinstance(c, dict) and "name" in c
    }
    from builder.catalog.loader import load_catalog

    system = example.split("-")[0]
    names |= {e.name for e in load_catalog(system).entries("cards")}
    for i, name in enumerate(sorted(names)):
        Image.new("RGB", (800, 600), (40 + i % 200, 90, 140)).save(tmp_path / "art" / f"{slug(name)}.png")
    return tmp_path / "deck.yaml"


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("card", ["poker", pytest.param("mini", marks=pytest.mark.slow)])
def test_with_art_on_every_card_no_rule_is_dropped(tmp_path, capsys, card):
    from builder.catalog.loader import load_catalog
    from builder.kit.layout import card_size

    deck = _deck_with_art(tmp_path, "senshiai-northern-host", "senshiai-example.yaml")
    w, h = card_size(card)
    # paper that holds one card: each page's text is one card's
    out = api.render_list(deck, tmp_path / "a.pdf", card=card, backs=False, paper=f"{w + 30:g}x{h + 30:g}")
    err = capsys.readouterr().err
    assert not [line for line in err.splitlines() if "card '" in line and "does not fit" in line]
    cat = load_catalog("senshiai")
    rules = {name: _words(cat.find("abilities", name).text) for name in ("Recruit", "Activate", "Move Restriction")}
    seen = set()
    with pdfplumber.open(out) as pdf:
        for page in text_pages(pdf, slice(-1)):
            assert len(page.images) == 1  # the card's art is on it
            text = _words(page.extract_text() or "")
            for name, rule in rules.items():
                if f"{name}:" in text:
                    assert f"{name}: {rule}" in text, (name, text)  # every word of the rule, in order
                    seen.add(name)
    assert seen == set(rules)


def test_art_yields_to_the_rules_text_and_every_card_of_a_type_keeps_its_layout(tmp_path):
    """Fishing Harbor's two rules need more room than the text box: the art box of every terrain
    of the deck gets shorter by the same amount, so the stat band sits at one height on all of them."""
    deck = _deck_with_art(tmp_path, "senshiai-northern-host", "senshiai-example.yaml")
    out = api.render_list(deck, tmp_path / "a.pdf", backs=False)
    with pdfplumber.open(out) as pdf:
        (page,) = text_pages(pdf, slice(1))
        limits = [w for w in page.extract_words() if w["text"] == "Limit"]
        heights = [round(i["height"], 1) for i in page.images]
    card_tops = sorted({round(mm(w["top"]), 1) for w in limits})
    rows = {round(t // 88.9) for t in card_tops}
    assert len(card_tops) == len(rows)  # one height per row of cards: the same place on every card
    assert heights and max(heights) < 29 / 25.4 * 72  # shorter than the template's 29 mm art box
    assert min(heights) >= 14 / 25.4 * 72 - 0.5  # ... but never below art_min
