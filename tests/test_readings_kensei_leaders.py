"""A unit leader "Must be of the same type (hand to hand armed infantry, ranged weapon armed
infantry, cavalry, etc)" (001:1857-1860): only infantry is split by its weapons. The rulebook's
own example, a mounted Sohei Daimyo leading cavalry warrior monks (001:1820-1831), is legal; the
stricter reading is the house rule unit_leader_weapons_every_type."""

from builder.check import check_text
from builder.lists.dump import dump_list_yaml

PACK = """system: kensei
name: riders
troops:
  - {name: Mounted Daimyo Sohei, cost: 30}
  - {name: Warrior Monk Cavalry, cost: 10, weapons: [Yari]}  # the catalog lists none: the ranged cap asks
  - {name: Mounted Archer Hero, clans: [sohei], cost: 30, troop_class: H, leader: true, general: true,
     troop_type: mounted, weapons: [Yumi], living: true, assumed: test fixture}
  - {name: Mounted Spearmen, clans: [sohei], cost: 10, troop_class: W, leader: false, single: false,
     troop_type: mounted, weapons: [Yari], living: true, assumed: test fixture}
  - {name: Archer Hero, clans: [sohei], cost: 20, troop_class: H, leader: true, general: false,
     troop_type: infantry, weapons: [Yumi], living: true, assumed: test fixture}
"""


def _check(tmp_path, leader, unit, house_rules=None, general=None):
    (tmp_path / "riders.yaml").write_text(PACK, encoding="utf-8")
    doc = {
        "system": "kensei",
        "clan": "sohei",
        "points": 200,
        "packs": ["riders.yaml"],
        **({"general": general} if general else {}),
        **({"house_rules": house_rules} if house_rules else {}),
        "troops": [
            {"troop": leader},
            {"troop": unit, "models": 5, "led_by": leader},
            {"troop": "Yari Ashigaru", "models": 10},
            {"troop": "Monk Naginata", "models": 5},
        ],
    }
    return check_text(dump_list_yaml(doc), str(tmp_path / "list.yaml"), base_dir=tmp_path)


def _type_findings(res):
    return [f for f in res.findings if f.code == "kensei.unit-leader-type"]


def test_the_rulebook_s_mounted_sohei_daimyo_leads_cavalry_monks(tmp_path):
    res = _check(tmp_path, "Mounted Daimyo Sohei", "Warrior Monk Cavalry")
    assert res.legal and res.findings == [], [f.format() for f in res.findings]


def test_a_mounted_archer_hero_leads_mounted_spearmen(tmp_path):
    res = _check(tmp_path, "Mounted Archer Hero", "Mounted Spearmen")
    assert res.legal and res.findings == [], [f.format() for f in res.findings]


def test_every_type_split_by_its_weapons_is_a_house_rule(tmp_path):
    strict = {"unit_leader_weapons_every_type": True}
    (f,) = _type_findings(_check(tmp_path, "Mounted Archer Hero", "Mounted Spearmen", strict))
    assert f.severity == "error"
    assert f.message == (
        "Mounted Spearmen: leader 'Mounted Archer Hero' is ranged weapon armed mounted, the unit is "
        "hand to hand armed mounted; they must be of the same type (house rule unit_leader_weapons_every_type)"
    )
    assert f.value != f.bound
    # the catalog lists no weapons for the rulebook's Daimyo: under this reading that cannot be told
    (f,) = _type_findings(_check(tmp_path, "Mounted Daimyo Sohei", "Warrior Monk Cavalry", strict))
    assert f.severity == "warning" and "lacks weapons" in f.message


def test_infantry_is_split_into_hand_to_hand_and_ranged(tmp_path):
    res = _check(tmp_path, "Archer Hero", "Monk Naginata", general="Archer Hero")
    (f,) = _type_findings(res)
    assert f.severity == "error" and "house rule" not in f.message
    assert "is ranged weapon armed infantry, the unit is hand to hand armed infantry" in f.message


def test_the_message_never_names_one_type_twice(tmp_path):
    res = _check(tmp_path, "Mounted Archer Hero", "Monk Naginata")
    (f,) = _type_findings(res)
    assert f.message == (
        "Monk Naginata: leader 'Mounted Archer Hero' is mounted, the unit is infantry; they must be of the same type"
    )
