"""Kensei bounds: the fallback written beside each limit is its house rule's default; unit sizes.

A limit of catalog/kensei/restrictions.yaml that names a house rule (``param``) also writes the
number it falls back to; the house rule (house_rules.yaml) gives the rulebook's number as its
default. The two must be the same number, or a list checked without the house rules (a pack, a
library caller) would be held to another bound than the rulebook's (001:5895-5899, 001:5969-5977,
001:6049-6060).
"""

from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
KENSEI = ROOT / "catalog" / "kensei"
# the rulebook's percentages: melee min 25, cavalry max 40, skirmishers max 35, creatures max 50
RULEBOOK = {
    "melee_min_percent": 25,
    "cavalry_max_percent": 40,
    "skirmisher_max_percent": 35,
    "creature_max_percent": 50,
}


def _params(node, out):
    if isinstance(node, dict):
        if "param" in node and "default" in node:
            out.append((str(node["param"]), node["default"]))
        for v in node.values():
            _params(v, out)
    elif isinstance(node, list):
        for v in node:
            _params(v, out)
    return out


def test_each_limit_falls_back_to_its_house_rule_s_default():
    yaml = YAML(typ="safe")
    rules = {r["id"]: r for r in yaml.load((KENSEI / "house_rules.yaml").read_text())["house_rules"]}
    used = _params(yaml.load((KENSEI / "restrictions.yaml").read_text()), [])
    assert {p for p, _ in used} == set(RULEBOOK)
    for param, default in used:
        assert default == rules[param]["default"] == RULEBOOK[param], param


def _unit_size(models: int):
    from builder.check import check_text
    from builder.lists.dump import dump_list_yaml
    from tests.test_kensei_rules import BUKE, PACK

    doc = {
        **BUKE,
        "packs": [PACK],
        "points": 400,
        "troops": [*BUKE["troops"], {"troop": "Mounted Samurai", "models": models}],
    }
    res = check_text(dump_list_yaml(doc), "army.yaml")
    return [f.message for f in res.findings if f.code == "kensei.unit-size-max"]


def test_a_mounted_unit_holds_at_most_10_models():
    # 001:5921-5922 "15 for infantry units, 5 for skirmisher units and 10 for the rest": a mounted
    # unit of 10 is taken, of 11 refused
    assert _unit_size(10) == []
    [message] = _unit_size(11)
    assert message == "Mounted Samurai: unit of 11 models > 10 (mounted and creature units)"


def test_firearms_read_against_the_ranged_points_are_held_to_half_of_them(cli, tmp_path):
    # 001:5965-5966 read as half of the ranged points (house rule firearms_cap_basis): the Sohei
    # list's ranged troops cost 95 AP, so its firearms may cost 47.5
    from tests.test_bounds_kensei import _limits
    from tests.test_kensei_rules import SOHEI

    doc = {**SOHEI, "house_rules": {"firearms_cap_basis": "ranged_points"}}
    assert _limits(cli, tmp_path, doc)[("troops with firearms", "max")] == {47.5}
