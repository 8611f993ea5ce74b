"""Kensei unit cards at a sleeve size, on pages of their own, packed without lone cards."""

from __future__ import annotations

import math
from pathlib import Path

import pdfplumber
import pytest
from sweeps import quick_first

from builder.kit.layout import card_size, mm, paper_size, plan_sheet
from builder.render import api

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KENSEI = ["buke", "kuge", "kuroi-te", "otokodate", "sohei"]


def _card_pages(pdf):
    """The pages of unit cards: each card has a MOV stat (so has the roster's troop table, whose
    AP/unit column no card has)."""
    texts = [(p, p.extract_text() or "") for p in pdf.pages]
    return [p for p, t in texts if "MOV" in t and "Validation" not in t and "AP/unit" not in t]


@pytest.mark.parametrize("name", quick_first(KENSEI))
def test_unit_cards_are_poker_cards_on_their_own_pages_without_a_lone_card(tmp_path, name):
    out = api.render_list(EXAMPLES / f"kensei-{name}.yaml", tmp_path / "r.pdf", unit_cards=True)
    with pdfplumber.open(out) as pdf:
        pages = _card_pages(pdf)
        counts = [(p.extract_text() or "").count("MOV") for p in pages]
        frames = [r for p in pages for r in p.curves if abs(mm(r["x1"] - r["x0"]) - (63.5 - 2.4)) < 0.05]
        roster_text = " ".join(p.extract_text() or "" for p in pdf.pages if p not in pages)
    per_page = plan_sheet(paper_size("a4"), card_size("poker"), 0.0, marks=True).per_page
    n = sum(counts)
    assert pages and "No abilities listed in the catalog" not in roster_text
    assert len(frames) == n  # every card 63.5 mm wide (its rounded frame 1.2 mm in)
    assert all(abs(mm(r["bottom"] - r["top"]) - (88.9 - 2.4)) < 0.05 for r in frames)
    assert len(pages) == math.ceil(n / per_page)
    assert max(counts) - min(counts) <= 1  # shared evenly: no page with a lone card
    assert n == 1 or min(counts) >= 2


def test_tarot_unit_cards_and_other_sizes_refused(tmp_path, cli):
    out = api.render_list(EXAMPLES / "kensei-kuge.yaml", tmp_path / "t.pdf", unit_cards=True, card="tarot")
    with pdfplumber.open(out) as pdf:
        frames = [r for p in pdf.pages for r in p.curves if abs(mm(r["x1"] - r["x0"]) - (69.85 - 2.4)) < 0.05]
    assert frames and all(abs(mm(r["bottom"] - r["top"]) - (120.65 - 2.4)) < 0.05 for r in frames)
    r = cli("print", EXAMPLES / "kensei-kuge.yaml", "--unit-cards", "--card", "mini", "-o", tmp_path / "m.pdf")
    assert r.code == 2 and "unit cards print at a sleeve size: poker, tarot, not 'mini'" in r.stderr
    assert r.stderr.count("\n") == 1
