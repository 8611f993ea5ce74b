"""The restriction language's own bounds, at the bound and just past it.

A club's pack may write any restriction the language allows (builder.catalog.restrictions): a
numeric range of a fact, a table by battle size, an exact count. These lists put each of them
on its bound and one past it and check the verdict and the numbers a player reads; the engine's
numbers (a bound that is not whole, what a JSON report prints) and a limits row (the stats of
every game) are checked the same way.
"""

import json
from fractions import Fraction

import pytest
from test_missing_data import RONIN  # the same pack of one profile without a leader field

from builder.catalog.loader import load_catalog
from builder.check import check_doc, check_text
from builder.lists.document import parse_list
from builder.rules.engine import fmt_num, match
from builder.rules.limits import limit

LIST = """\
system: kensei
clan: buke
points: {points}
troops:
  - troop: Taisho Buke
  - {{troop: Samurai Yari, models: 5}}
  - {{troop: Yari Ashigaru, models: 9}}
  - {{troop: Samurai Dai-Katana, models: 5}}
{more}"""
YUMI = "  - {troop: Yumi Samurai, models: 4}\n"
RULE = """\
system: kensei
restrictions:
  - id: club-rule
    name: A rule of our club
    code: club-rule
    label: {label}
    count: {count}
{body}
    assumed: a house rule of our club
"""


def _check(tmp_path, rule: str, points=200, more=YUMI):
    # checked with the catalog the club's pack extends, whose restrictions register its codes
    pack = tmp_path / "club.yaml"
    pack.write_text(rule)
    catalog = load_catalog("kensei", [str(pack)])
    return check_doc(parse_list(LIST.format(points=points, more=more), "army.yaml"), catalog=catalog)


def _club(res):
    return [f for f in res.findings if f.code == "kensei.club-rule"]


@pytest.mark.parametrize(
    "selector, found",
    [
        # Taisho Buke costs 20 AP a model, Samurai Yari and Yari Ashigaru 5, Dai-Katana 10, Yumi 15
        ("{min: 15}", [(2, "priced units 2 units > 0")]),  # 15 is in the range: Yumi Samurai counts
        ("{min: 16}", [(1, "priced units 1 unit > 0")]),
        ("{max: 5}", [(2, "priced units 2 units > 0")]),  # 5 is in the range: both yari units count
        ("{max: 4}", []),
    ],
)
def test_a_numeric_range_holds_its_ends(tmp_path, selector, found):
    rule = RULE.format(label="priced units", count="units", body=f"    of: {{cost: {selector}}}\n    max: 0")
    assert [(f.value, f.message) for f in _club(_check(tmp_path, rule))] == found


TABLE = "    of: {unit: true}\n    max: {of: limit, table: [{max: 200, value: 4}, {min: 201, value: 3}]}"


def test_a_table_row_holds_its_highest_battle_size(tmp_path):
    rule = RULE.format(label="units", count="units", body=TABLE)
    # 200 AP is the first row's last size: 4 units allowed, the list's 4 pass
    assert _club(_check(tmp_path, rule, points=200)) == []
    # 201 AP is the second row's: 3 units allowed
    (f,) = _club(_check(tmp_path, rule, points=201))
    assert (f.severity, f.value, f.bound, f.message) == ("error", 4, 3, "units 4 units > 3 at 201 AP")


EXACTLY = "    of: {unit: true}\n    exactly: 4"


@pytest.mark.parametrize("more, value", [("", 3), (YUMI, 4), (YUMI * 2, 5)])
def test_an_exact_count_is_met_only_on_it(tmp_path, more, value):
    res = _check(tmp_path, RULE.format(label="units", count="units", body=EXACTLY), more=more)
    got = [(f.value, f.bound, f.message) for f in _club(res)]
    assert got == ([] if value == 4 else [(value, 4, f"units {value} units != 4")])


def _limits(tmp_path, rule: str, points=200, more=YUMI) -> dict:
    """The limits rows (``daimyo stats``) of the list with the club's pack, by finding code."""
    from builder.games.kensei import rules as kensei

    pack = tmp_path / "club.yaml"
    pack.write_text(rule)
    catalog = load_catalog("kensei", [str(pack)])
    lst, _ = kensei.load_list(parse_list(LIST.format(points=points, more=more), "army.yaml"), catalog)
    return {r["code"]: r for r in kensei.limits(lst, catalog, catalog.default_rules())}


def test_an_exact_count_in_the_limits_table(tmp_path):
    rule = RULE.format(label="units", count="units", body=EXACTLY)
    for more, ok, room in (("", False, 1), (YUMI, True, 0), (YUMI * 2, False, -1)):
        row = _limits(tmp_path, rule, more=more)["kensei.club-rule"]
        assert (row["ok"], row["room"], row["bound_text"]) == (ok, room, "4"), more


def test_a_whole_number_is_shown_exactly_however_large():
    # a list may hold 100,000 entries of up to 1,000,000 models at up to 1,000,000 AP
    # (builder.limits): the points spent, a base of percentages, can pass 2**53, where floats
    # skip whole numbers; a bound is shown from the exact number
    assert fmt_num(Fraction(2**53 + 1)) == "9007199254740993"
    assert fmt_num(Fraction(201, 10)) == "20.1"


def test_a_bound_that_is_not_whole_is_shown_as_a_decimal(tmp_path):
    # 10% of 201 AP is 20.1 AP: shown and reported as 20.1, never rounded to a whole number
    rule = RULE.format(
        label="yari", count="points", body="    of: {troop: samurai-yari}\n    max: {percent: 10, of: limit}"
    )
    (f,) = _club(_check(tmp_path, rule, points=201))
    assert f.message == "yari 25 AP > 10% of 201 AP = 20.1 AP"
    assert json.dumps(f.to_json()["bound"]) == "20.1"
    # a whole bound is a whole number in the JSON report (20, not 20.0)
    (f,) = _club(_check(tmp_path, rule, points=200))
    assert f.message == "yari 25 AP > 10% of 200 AP = 20 AP"
    assert json.dumps(f.to_json()["bound"]) == "20"


@pytest.mark.parametrize("ronin_entries, decides", [(1, False), (2, True)])
def test_a_missing_field_decides_a_maximum_only_past_it(tmp_path, ronin_entries, decides):
    # at 200 AP at most 2 leaders (001:6091-6113); Taisho Buke is one. One ronin of 3 models who
    # may be a leader makes at most 2 leaders (units, not models): the maximum holds either way.
    # Two such entries may make 3: whether they are leaders decides kensei.leaders-max.
    pack = tmp_path / "ronin.yaml"
    pack.write_text(RONIN)
    ronin = "  - {troop: Nameless Ronin, models: 3}\n" * ronin_entries
    res = check_text(LIST.format(points=200, more=ronin), str(tmp_path / "army.yaml"), extra_packs=[str(pack)])
    (f,) = [f for f in res.findings if f.code == "kensei.profile-incomplete" and "'leader'" in f.message]
    blocking = f.message.split(" so ", 1)[1].split(" cannot be checked")[0].split(", ")
    assert f.severity == "error"  # other rules of each entry depend on it too
    assert ("kensei.leaders-max" in blocking) is decides


def test_the_first_entry_past_a_maximum_is_blamed_after_the_commander_level(tmp_path):
    # a 20 AP battle with the Daimyo level (20 AP): the level alone is on the bound, Taisho Buke
    # takes the total past it, so the finding points at Taisho Buke
    text = "system: kensei\nclan: buke\npoints: 20\ncommander: Daimyo\ntroops:\n  - troop: Taisho Buke\n"
    (f,) = [f for f in check_text(text, "army.yaml").findings if f.code == "kensei.points-max"]
    assert (f.value, f.bound, f.path, f.line) == (40, 20, "troops[0]", 6)


def test_a_fact_written_as_a_list_matches_any_of_its_names():
    # a caller's items may give a fact as a list of names (compared normalized, one by one)
    assert match({"weapons": "katana"}, {"weapons": ["Yari", "Katana"]}, {}) == (True, [])
    assert match({"weapons": "katana"}, {"weapons": ["Yari", "Yumi"]}, {}) == (False, [])
    assert match({"weapons": "katana"}, {"weapons": ["Katana"]}, {}) == (True, [])


@pytest.mark.parametrize(
    "kind, value, bound, ok, room",
    [
        ("max", 40, 40, True, 0),  # a Senshiai deck of 40 cards against the most of 40
        ("max", 41, 40, False, -1),
        ("min", 6, 6, True, 0),  # a Satsuma deck of 6 cards against a hand of 6
        ("min", 5, 6, False, -1),
    ],
)
def test_a_limits_row_at_its_bound_and_past_it(kind, value, bound, ok, room):
    row = limit("cards in the deck", kind, value, bound, "cards")
    assert (row["ok"], row["room"], row["value"], row["bound"]) == (ok, room, value, bound)
