"""Card text at every card size: 6 pt or more, or one warning naming the cards that print
smaller; the frame's rounded corner scales with the card as the art box does."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from sweeps import quick_first

from builder.kit.layout import card_size, mm
from builder.render.cards import MIN_CARD_PT, list_cards, load_template

EX = Path(__file__).resolve().parent.parent / "examples"


def _face_text_sizes(page, card) -> list[float]:
    """The size (pt) of every character drawn inside a card on the page (the sheet's own
    label and ruler are outside the cards)."""
    H = mm(page.height)
    w, h = card
    cards = []
    for r in page.rects:
        rw, rh = mm(r["width"]), mm(r["height"])
        if r.get("fill") and all(abs(a - b) < 0.02 for a, b in zip(sorted((rw, rh)), sorted((w, h)), strict=True)):
            cards.append((mm(r["x0"]), H - mm(r["bottom"]), mm(r["x1"]), H - mm(r["top"])))
    assert cards
    out = []
    for ch in page.chars:
        if not ch["text"].strip():
            continue
        cx, cy = mm((ch["x0"] + ch["x1"]) / 2), H - mm((ch["top"] + ch["bottom"]) / 2)
        if any(x0 < cx < x1 and y0 < cy < y1 for x0, y0, x1, y1 in cards):
            out.append(ch["bottom"] - ch["top"] if ch["upright"] else ch["x1"] - ch["x0"])
    return out


def _deck_names(example: str) -> set[str]:
    from builder.check import load_checked

    doc, catalog, lst, _ = load_checked(EX / example)
    return {f.name for f in list_cards(doc, catalog, lst)[0]}


@pytest.mark.parametrize("example", ["senshiai-northern-host.yaml", "herocard-samurai.yaml", "satsuma-imperial.yaml"])
@pytest.mark.parametrize("card", quick_first(["poker", "tarot", "bridge", "mini"]))
def test_text_is_6pt_or_the_cards_are_named(cli, tmp_path, example, card):
    out = tmp_path / "c.pdf"
    r = cli("print", EX / example, "-o", out, "--card", card)
    assert r.code == 0, r
    with pdfplumber.open(out) as pdf:
        sizes = _face_text_sizes(pdf.pages[0], card_size(card))
    smallest = min(sizes)
    warnings = [ln for ln in r.stderr.splitlines() if f"under {MIN_CARD_PT:g} pt" in ln]
    if smallest >= MIN_CARD_PT - 0.05:
        assert warnings == [], warnings
        return
    assert len(warnings) == 1, r.stderr
    line = warnings[0]
    w, h = card_size(card)
    assert f"on {w:g}x{h:g} mm cards" in line
    m = re.search(r"down to ([\d.]+) pt", line)
    assert m and abs(float(m.group(1)) - smallest) < 0.1, (line, smallest)
    more = re.search(r"and (\d+) more", line)
    deck = _deck_names(example)
    named = {n for n in deck if f"'{n}'" in line}
    assert 1 <= len(named) <= 8
    # the card number on every face is small at this size: every card is counted
    assert len(named) + (int(more.group(1)) if more else 0) == len(deck)


def test_poker_and_tarot_text_is_at_least_6pt(cli, tmp_path):
    for card in ("poker", "tarot"):
        out = tmp_path / f"{card}.pdf"
        assert cli("print", EX / "satsuma-imperial.yaml", "-o", out, "--card", card).code == 0
        with pdfplumber.open(out) as pdf:
            assert min(_face_text_sizes(pdf.pages[0], card_size(card))) >= MIN_CARD_PT - 0.05


@pytest.mark.parametrize("card", ["poker", "bridge", "tarot", "mini"])
def test_the_frame_corner_scales_with_the_card(card):
    """The rounded-corner guide (the frame) is drawn from the template's numbers times the
    card's scale, as the art box and the frame's inset are."""
    from reportlab.pdfgen.canvas import Canvas

    from builder.render.cards import CardSheetWriter
    from builder.render.cards.sheet import sheet_options

    tpl = load_template("senshiai")
    opts = sheet_options(card=card)

    class Job:
        canvas = Canvas("/dev/null")

        @staticmethod
        def warn(_msg):
            pass

    calls = []
    c = Job.canvas
    c.roundRect = lambda x, y, w, h, r, **kw: calls.append((x, y, w, h, r))  # type: ignore[method-assign]
    writer = CardSheetWriter(Job, tpl, opts, None)
    layout = next(iter(tpl.layouts))
    writer.frame_form(layout)
    spec = tpl.layouts[layout].frame
    scale = min(opts.card[0] / tpl.size[0], opts.card[1] / tpl.size[1])
    inset = spec.border * scale
    frame = [k for k in calls if abs(mm(k[0]) - inset) < 1e-6 and abs(mm(k[1]) - inset) < 1e-6]
    assert len(frame) == 1
    assert abs(mm(frame[0][4]) - spec.radius * scale) < 1e-6
