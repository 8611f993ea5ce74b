"""Every Kensei bound at its value from the rulebook, and lists at the bound and just past it.

The bounds are read from the limits the check measures (``daimyo stats``), at every battle size
of the leader and unit table (001:6091-6113) and the percent table (001:6026-6060), so a changed
number in catalog/kensei/restrictions.yaml or house_rules.yaml is caught; the lists of one-AP
test troops put each percentage exactly on its bound and one AP past it.
"""

import copy

import pytest

from builder.check import check_text
from builder.lists.dump import dump_list_yaml
from tests.test_kensei_rules import BUKE, KUROI, OTOKODATE, PACK, SOHEI

# battle size -> (leaders min, max, units min, max): the table of 001:6091-6113
TABLE = {200: (1, 2, 2, 4), 300: (2, 3, 3, 5), 400: (2, 4, 4, 6), 500: (3, 5, 5, 7), 600: (3, 6, 6, 8)}
# percentage of the battle size: melee min 25 (001:5895-5899), ranged max 50 (001:5962-5967), firearms
# max 25, cavalry max 40 (001:5969-5972), skirmishers max 35 (001:5974-5977), creatures max 50 (001:6049-6060)
PERCENT = {
    ("melee infantry warriors", "min"): 25,
    ("ranged troops", "max"): 50,
    ("troops with firearms", "max"): 25,
    ("cavalry", "max"): 40,
    ("skirmishers", "max"): 35,
    ("purchased creatures", "max"): 50,
}


def _limits(cli, tmp_path, doc, packs=(PACK,)):
    import json

    path = tmp_path / "army.yaml"
    d = copy.deepcopy(doc)
    d["packs"] = [str(p) for p in packs]
    path.write_text(dump_list_yaml(d))
    res = cli("stats", str(path), "--format", "json")
    data = json.loads(res.stdout)
    data = data[0] if isinstance(data, list) else data
    out = {}
    for row in data["limits"]:
        out.setdefault((row["label"], row["kind"]), set()).add(row["bound"])
    return out


@pytest.mark.parametrize("points", sorted(TABLE))
def test_table_bounds_at_every_battle_size(cli, tmp_path, points):
    got = _limits(cli, tmp_path, dict(BUKE, points=points))
    lmin, lmax, umin, umax = TABLE[points]
    assert got[("leaders", "min")] == {lmin} and got[("leaders", "max")] == {lmax}
    assert got[("units", "min")] == {umin} and got[("units", "max")] == {umax}
    assert got[("total (troops plus commander level)", "max")] == {points}
    for key, pct in PERCENT.items():
        assert got[key] == {points * pct // 100}, key


def test_between_hundreds_rounds_up(cli, tmp_path):
    # 250 AP reads as 300 AP for leaders and units (001:5913-5914, house rule limits_between_hundreds)
    got = _limits(cli, tmp_path, dict(BUKE, points=250))
    assert got[("leaders", "min")] == {2} and got[("units", "max")] == {5}
    assert got[("melee infantry warriors", "min")] == {62.5}


def test_unit_and_profile_bounds(cli, tmp_path):
    got = _limits(cli, tmp_path, BUKE)
    assert got[("unit size", "min")] == {3} and got[("unit size", "max")] == {15}  # 001:5919-5922
    assert got[("units of one profile", "max")] == {2}  # 001:5923-5924
    assert got[("models of a unique profile", "max")] == {1}
    assert got[("spiritual troops (Onmyouji or Komuso)", "max")] == {1}


def test_clan_bounds(cli, tmp_path):
    # Otokodate firearms up to 40% (001:5987-5990)
    assert _limits(cli, tmp_path, OTOKODATE)[("troops with firearms (Otokodate)", "max")] == {80}
    assert {k: v for k, v in _limits(cli, tmp_path, KUROI).items() if "melee" in k[0]} != {}
    assert _limits(cli, tmp_path, SOHEI)[("ranged troops", "max")] == {100}


# -- lists at the bound and one AP past it ----------------------------------------------------------

ONE_AP = """\
system: kensei
name: one-AP test troops
version: "1"
troops:
  - name: Test Spearmen
    clans: [buke]
    cost: 1
    leader: false
    general: false
    unique: false
    legendary: false
    single: false
    troop_class: W
    troop_type: infantry
    weapons: [Yari]
    living: true
    assumed: a test profile at one AP a model
  - name: Test Archers
    clans: [buke]
    cost: 1
    leader: false
    general: false
    unique: false
    legendary: false
    single: false
    troop_class: P
    troop_type: infantry
    weapons: [Yumi]
    living: true
    assumed: a test profile at one AP a model
"""


def _one_ap(tmp_path, spear: int, archers: int, points=200):
    pack = tmp_path / "one-ap.yaml"
    pack.write_text(ONE_AP)
    troops = [{"troop": "Taisho Buke"}]
    for name, n in (("Test Spearmen", spear), ("Test Archers", archers)):
        while n > 0:
            take = min(15, n) if n - min(15, n) == 0 or n - min(15, n) >= 3 else n - 3
            troops.append({"troop": name, "models": take})
            n -= take
    doc = {"system": "kensei", "clan": "buke", "points": points, "troops": troops}
    return check_text(dump_list_yaml(doc), str(tmp_path / "a.yaml"), extra_packs=[str(pack)])


def _codes(res):
    return {f.code for f in res.findings if f.severity == "error"}


def test_melee_minimum_at_the_bound_and_one_ap_past_it(tmp_path):
    # 200 AP: the Taisho Buke (leader, exempt) plus one-AP troops; 25% of 200 = 50 AP of melee warriors
    # (the leader count and unit numbers stay inside their own bounds)
    at = _one_ap(tmp_path, spear=50, archers=30)
    assert "kensei.melee-min" not in _codes(at), [f.format() for f in at.findings]
    past = _one_ap(tmp_path, spear=49, archers=30)
    assert "kensei.melee-min" in _codes(past)


def test_ranged_maximum_at_the_bound_and_one_ap_past_it(tmp_path):
    # 50% of 200 = 100 AP of ranged troops
    at = _one_ap(tmp_path, spear=60, archers=100)
    assert "kensei.ranged-max" not in _codes(at), [f.format() for f in at.findings]
    assert "kensei.ranged-max" in _codes(_one_ap(tmp_path, spear=60, archers=101))


def test_points_at_the_limit_and_one_ap_past_it(tmp_path):
    spent = {f.code for f in _one_ap(tmp_path, spear=60, archers=20).findings}
    res = _one_ap(tmp_path, spear=60, archers=20)
    base = res.summary["points"]
    room = 200 - base
    assert "kensei.points-max" not in spent
    assert "kensei.points-max" not in _codes(_one_ap(tmp_path, spear=60 + room, archers=20))
    assert "kensei.points-max" in _codes(_one_ap(tmp_path, spear=61 + room, archers=20))


def test_the_formulas_scale_by_the_hundred(cli, tmp_path):
    # "Min 1 leader every 200 ap. Max 1 leader every 100 ap", units "maximum 2 every 100 points"
    # (001:5912-5914, 001:5925-5928): at 100,000 AP the per-AP numbers themselves show
    got = _limits(cli, tmp_path, dict(BUKE, points=100000))
    assert got[("leaders", "min")] == {500} and got[("leaders", "max")] == {1000}
    assert got[("units", "min")] == {1000} and got[("units", "max")] == {1002}
    assert got[("melee infantry warriors", "min")] == {25000}


@pytest.mark.parametrize(
    "points,leaders,units",
    [
        (100, (1, 1), (1, 2)),
        (300, (1, 3), (1, 6)),
        (400, (2, 4), (1, 8)),
        (19900, (99, 199), (1, 398)),
        (500, (2, 5), (1, 10)),
    ],
)
def test_the_formulas_read_literally(cli, tmp_path, points, leaders, units):
    # house rules leader_count=formula and unit_count=formula (001:5912-5913, 001:5925-5926):
    # leaders max(1, floor(S/200)) to floor(S/100), units 1 to 2 per 100 AP
    doc = dict(BUKE, points=points, house_rules={"leader_count": "formula", "unit_count": "formula"})
    got = _limits(cli, tmp_path, doc)
    assert (got[("leaders", "min")], got[("leaders", "max")]) == ({leaders[0]}, {leaders[1]})
    assert (got[("units", "min")], got[("units", "max")]) == ({units[0]}, {units[1]})
