"""Senshiai bounds of play, each at the bound and just past it (000_ac601013730960cf.txt)."""

from pathlib import Path

import pytest

from builder.catalog.loader import load_catalog
from builder.games.senshiai import rules as R

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "examples" / "packs" / "senshiai-example.yaml"

PROBES = """\
system: senshiai
name: bound probes
version: "1"
cards:
  - name: Mirage Hill
    type: event
    subtype: Conjuration
    cost: I
    target: Terrain
    duration: instant
    abilities: [Acts as Terrain]
    assumed: a probe card
  - name: Phantom Band
    type: event
    subtype: Conjuration
    cost: I
    target: Terrain
    duration: instant
    abilities: [Acts as Unit]
    assumed: a probe card
"""


@pytest.mark.parametrize(
    ("damage", "resistance", "destroyed"),
    [
        (1, 1, True),  # 000:122 "damage at least equal to their Resistance traits": at the bound
        (0, 1, False),  # one short of it: a Resistance of 1 with no damage stands
        (0, 0, True),  # 000:158 "If an Unit has his Resistance dropped to 0, it is destroyed"
        (5, 6, False),
        (6, 6, True),
    ],
)
def test_a_unit_is_destroyed_by_damage_reaching_its_resistance(damage, resistance, destroyed):
    assert R.is_destroyed(damage, resistance) is destroyed


@pytest.fixture(scope="module")
def cat(tmp_path_factory):
    probes = tmp_path_factory.mktemp("packs") / "probes.yaml"
    probes.write_text(PROBES)
    return load_catalog("senshiai", [PACK, probes])


def test_only_a_card_that_acts_as_a_unit_is_a_unit_target(cat):
    # 000:167 "Acts as [function or Type]": the card behaves as the listed Type; "Cards may
    # 'act as a Unit'". A conjuration acting as a Unit can be the Target of an Event that
    # targets a Unit; one acting as a Terrain cannot, though both hold the "Acts as" ability.
    assert R.can_target("Unit", cat.find("cards", "Phantom Band"), cat)
    assert not R.can_target("Unit", cat.find("cards", "Mirage Hill"), cat)
    assert not R.can_target("Company", cat.find("cards", "Mirage Hill"), cat)


def _read(text: str):
    from builder.check import check_text
    from builder.errors import ListError

    try:
        return check_text(text, "deck.yaml")
    except ListError as e:
        return str(e)


@pytest.mark.parametrize(("count", "read"), [(1, True), (0, False)])
def test_a_card_line_counts_at_least_one_copy(count, read):
    # a deck holds "as many cards of each Type ... as the player wishes" (000:17): one copy at
    # least; a count of 0 is refused with its place and the fix, not read as a card
    res = _read(f"system: senshiai\ncards:\n  Capital of the North: 1\n  Warriors: {count}\n")
    if read:
        assert not isinstance(res, str) and res.summary["cards"] == 2
    else:
        assert res == (
            "deck.yaml:4:13: error: count of 'Warriors' must be at least 1, not 0 "
            "(remove the line to leave the card out)"
        )


@pytest.mark.parametrize(("size", "read"), [(1, True), (0, False)])
def test_the_agreed_deck_size_is_at_least_one_card(size, read):
    # 000:17 the players agree on the deck size: a size of 1 is a size (the deck then misses
    # or meets it), a size of 0 is refused where it is written
    res = _read(f"system: senshiai\nsize: {size}\ncards:\n  Capital of the North: 1\n")
    if read:
        assert not isinstance(res, str) and res.summary["cards"] == 1
        assert "senshiai.deck-size" not in [f.code for f in res.findings]  # 1 card held, 1 agreed
    else:
        assert res.startswith("deck.yaml:2:7: error: 'size' must be a whole number of at least 1")


@pytest.mark.parametrize(("held", "tail"), [(200, ""), (201, "; the deck has 201 cards")])
def test_an_agreed_size_over_200_names_the_cards_held_only_when_they_are_over_too(held, tail):
    # 000:17 a deck "shouldn't go over 200": a size of 201 agreed is refused; the cards held
    # are named beside it only when they too are over the bound (200 held are within it)
    res = _read(f"system: senshiai\nsize: 201\ncards:\n  Capital of the North: 1\n  Warriors: {held - 1}\n")
    [f] = [f for f in res.findings if f.code == "senshiai.deck-max"]
    assert f.message == "agreed size 201 > 200 (the most a deck may hold)" + tail


def test_counts_of_one_and_of_none_read_as_english():
    # one card short of an agreed size of 2, no Capital (000:17, 000:64): "1 card", "0 Capitals"
    res = _read(f"system: senshiai\npacks: ['{PACK}']\nsize: 2\ncards:\n  Rice Fields: 1\n")
    messages = {f.code: f.message for f in res.findings}
    assert messages["senshiai.deck-size"] == "deck has 1 card but the agreed size is 2"
    assert messages["senshiai.capital-count"] == (
        "deck has 0 Capitals but must have exactly 1 (a card with the Capital subtype)"
    )
    # the summary counts the cards per Type under the Type's plural
    assert res.summary["terrains"] == 1 and "unknown_type" not in res.summary
