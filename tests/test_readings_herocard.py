"""HeroCard readings at their bounds: a mod whose only base card can never be played (004:1035-1038)."""

from pathlib import Path

from builder.check import check_text

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "examples" / "packs" / "herocard-example.yaml"


def _hero(attrs, deck):
    lines = [
        "system: herocard",
        f"packs: ['{PACK}']",
        "attributes: [" + ", ".join(f'"{a}"' for a in attrs) + "]",
        "deck:",
    ] + [f'  "{k}": {v}' for k, v in deck.items()]
    return check_text("\n".join(lines) + "\n")


DECK = {"Heaven Splitter": 6, "Thunder Stroke": 6, "Efficient Block": 4, "Cross Block": 4}


def test_a_mod_whose_only_base_can_never_be_played_can_never_be_played():
    # Heaven Splitter (the only Base Attack) costs 11 Body; Warrior's Strength gives Body 9
    res = _hero(["Warrior's Strength", "Scholar's Wisdom", "Honor's Power"], DECK)
    (f,) = [f for f in res.findings if f.code == "herocard.mod-without-base"]
    assert f.severity == "warning"
    assert f.message == (
        "'Thunder Stroke' (Attack Mod) can never be played: the deck's only Base Attack "
        "('Heaven Splitter') can never be played (cost over the hero's score) and a mod cannot "
        "stand alone"
    )
    assert "herocard.cost-exceeds-score" in {g.code for g in res.findings}


def test_a_mod_with_a_playable_base_is_fine():
    # Iron Body gives Body 12: Heaven Splitter (11) can be played, and with it the mod
    res = _hero(["Iron Body", "Scholar's Wisdom", "Honor's Power"], DECK)
    assert "herocard.mod-without-base" not in {g.code for g in res.findings}, [f.format() for f in res.findings]
