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


@pytest.mark.parametrize(("damage", "resistance", "destroyed"), [
    (1, 1, True),   # 000:122 "damage at least equal to their Resistance traits": at the bound
    (0, 1, False),  # one short of it: a Resistance of 1 with no damage stands
    (0, 0, True),   # 000:158 "If an Unit has his Resistance dropped to 0, it is destroyed"
    (5, 6, False),
    (6, 6, True),
])
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
