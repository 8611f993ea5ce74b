"""Text on cards: names wrap rather than being cut on small cards, nothing below 6 pt on a
poker card, rules text grows into an empty art box, and text that cannot fit is a warning
naming the card."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import chars, text_pages

from builder.kit.layout import mm
from builder.render import api

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="module")
def fronts(tmp_path_factory):
    """An example's cards printed without backs, printed once for the tests that read them."""
    printed: dict[str, Path] = {}

    def render(example: str) -> Path:
        if example not in printed:
            out = tmp_path_factory.mktemp("fronts") / "p.pdf"
            printed[example] = api.render_list(EXAMPLES / f"{example}.yaml", out, backs=False)
        return printed[example]

    return render


def test_long_names_wrap_on_mini_cards(tmp_path, capsys):
    out = api.render_list(EXAMPLES / "herocard-samurai.yaml", tmp_path / "m.pdf", card="mini")
    with pdfplumber.open(out) as pdf:
        text = "\n".join(p.extract_text() or "" for p in text_pages(pdf))
    assert "Stone Falls through" in text and "\u2026" not in text
    assert "does not fit" not in capsys.readouterr().err


@pytest.mark.parametrize("example", ["senshiai-northern-host", "satsuma-samurai", "herocard-samurai"])
def test_no_card_text_below_6_pt_on_poker_cards(fronts, example):
    out = fronts(example)
    with pdfplumber.open(out) as pdf:
        for page in text_pages(pdf, slice(-1)):  # the sheets (the list page is not a card)
            W, H = mm(page.width), mm(page.height)
            inner = [c for c in chars(page) if 12 < mm(c["x0"]) < W - 12 and 16 < mm(c["top"]) < H - 16]
            assert inner and min(c["size"] for c in inner) >= 6.0 - 1e-6


def _deck_with_text(tmp_path, text: str) -> Path:
    (tmp_path / "packs").mkdir()
    pack = (EXAMPLES / "packs" / "senshiai-example.yaml").read_text(encoding="utf-8")
    marker = "  - name: Open the Vaults\n"
    assert marker in pack
    pack = pack.replace(marker, marker + f'    text: "{text}"\n', 1)
    (tmp_path / "packs" / "senshiai-example.yaml").write_text(pack, encoding="utf-8")
    shutil.copy(EXAMPLES / "senshiai-northern-host.yaml", tmp_path / "deck.yaml")
    return tmp_path / "deck.yaml"


def _card_chars(pdf_path, first_word):
    with pdfplumber.open(pdf_path) as pdf:
        for page in text_pages(pdf):
            words = page.extract_words()
            hit = [w for w in words if w["text"] == first_word]
            if hit:
                return page, hit[0]
    return None, None


def test_rules_text_takes_the_room_of_the_empty_art_box(tmp_path, capsys):
    long = "Zanshin " + " ".join(["each player draws two cards and discards one card"] * 6)
    deck = _deck_with_text(tmp_path, long)
    out = api.render_list(deck, tmp_path / "t.pdf", backs=False)
    err = capsys.readouterr().err
    assert "Open the Vaults" not in err  # it fits: no warning
    page, word = _card_chars(out, "Zanshin")
    assert word is not None
    text = page.extract_text()
    assert text.count("discards one card") >= 6 * 3 // 3  # the whole text is printed
    # the empty art box yielded: the stat band moved up and the text starts well above its own
    # box (73.5 mm below the card's top)
    names = [w for w in page.extract_words() if w["text"] == "Vaults"]
    card_top = min(mm(w["top"]) for w in names) - 3.5
    assert 20 <= mm(word["top"]) - card_top <= 60


def test_text_that_cannot_fit_is_a_warning_naming_the_card(tmp_path, capsys):
    deck = _deck_with_text(tmp_path, " ".join(["a very long rule that never ends"] * 60))
    api.render_list(deck, tmp_path / "t.pdf", backs=False)
    err = capsys.readouterr().err
    assert "card 'Open the Vaults', field 'text' does not fit its box even at 6 pt" in err


def test_cards_carry_the_deck_name_and_their_number(fronts):
    out = fronts("senshiai-northern-host")
    with pdfplumber.open(out) as pdf:
        first, last_sheet = (p.extract_text() for p in text_pages(pdf, slice(0, 6, 5)))
    assert "Northern host 1/50" in first and "Northern host 9/50" in first
    assert "Northern host 50/50" in last_sheet and "51/50" not in last_sheet


def test_ability_reminder_text_comes_from_the_catalog(fronts):
    from builder.catalog.loader import load_catalog

    cat = load_catalog("senshiai")
    recruit = cat.find("abilities", "Recruit").text.split(".")[0]
    out = fronts("senshiai-northern-host")
    with pdfplumber.open(out) as pdf:
        text = " ".join((text_pages(pdf, slice(1))[0].extract_text() or "").split())
    assert "Recruit: " + " ".join(recruit.split()[:6]) in text  # Rice Fields (Recruit)
    assert "Move Restriction: A Unit coming into or out" in text  # Mountain Pass


def test_a_card_without_a_subtype_prints_none_rather_than_a_placeholder(tmp_path):
    """Subtypes are mostly flavour (000:62): a card of a player's pack without one (as the pack
    editor's preview shows it too) prints nothing in its place; one with a subtype prints it."""
    (tmp_path / "packs").mkdir()
    card = "    type: troop\n    cost: I\n    paths: [Earth]\n    speed: 2\n    power: 2/1/3\n    assumed: test\n"
    (tmp_path / "packs" / "mine.yaml").write_text(
        "system: senshiai\nname: Mine\nversion: '1'\ncards:\n"
        f"  - name: Plain Band\n{card}  - name: Named Band\n    subtype: Ashigaru\n{card}",
        encoding="utf-8",
    )
    (tmp_path / "deck.yaml").write_text(
        "system: senshiai\nname: Deck\npacks: [packs/mine.yaml]\ncards:\n  Plain Band: 1\n  Named Band: 1\n",
        encoding="utf-8",
    )
    out = api.render_list(tmp_path / "deck.yaml", tmp_path / "d.pdf", backs=False)
    with pdfplumber.open(out) as pdf:
        text = "\n".join(p.extract_text() or "" for p in text_pages(pdf))
    assert "Plain Band" in text and "Named Band" in text and "Ashigaru" in text
    assert "unknown" not in text
