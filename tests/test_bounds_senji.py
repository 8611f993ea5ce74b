"""Senji: every bound of a setup, at the bound and just past it (Senji rulebook, Setup, lines
19-50, and the limits of lines 102, 177 and 181).

Each test starts from the legal three-player setup of ``examples/senji-three-daimyo.yaml``,
changes one thing, and asserts the one finding that bound gives: absent at the bound, present
(with the value and bound it names) just past it.
"""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from builder.check import check_text
from builder.lists.dump import dump_list_yaml

from conftest import ROOT

EXAMPLES = ROOT / "examples"
BOARD = [
    "Mutsu",
    "Dewa",
    "Echigo",
    "Shimotsuke",
    "Musashi",
    "Kai",
    "Shinano",
    "Etchu",
    "Mino",
    "Owari",
    "Mikawa",
    "Omi",
    "Yamashiro",
    "Harima",
    "Izumo",
    "Aki",
]
FAMILIES = ["red", "green", "white", "black", "blue", "yellow"]  # the families a count leaves in play first
SAMURAI = ["Baba", "Chosogabe", "Wakizaka", "Ekes", "Samurai 5", "Samurai 6", "Samurai 7"]


def base() -> dict:
    with open(EXAMPLES / "senji-three-daimyo.yaml", encoding="utf-8") as fh:
        return YAML(typ="safe").load(fh)


def check(data: dict):
    return check_text(dump_list_yaml(data), "setup.yaml", base_dir=EXAMPLES)


def found(data: dict, code: str) -> list:
    return [f for f in check(data).findings if f.code == code]


def test_the_example_setup_is_legal():
    res = check(base())
    assert res.legal and not [f for f in res.findings if f.severity != "info"], res.findings


def players(n: int) -> dict:
    """``n`` players, each with a family, a samurai card and three provinces of their own."""
    data = base()
    data["players"] = [
        {
            "name": f"P{i + 1}",
            "family": FAMILIES[i % 6],
            "samurai": SAMURAI[i % len(SAMURAI)],
            "provinces": [
                {"province": BOARD[(3 * i + j) % len(BOARD)], "units": 1, "samurai": j == 0} for j in range(3)
            ],
        }
        for i in range(n)
    ]
    return data


@pytest.mark.parametrize("n, bad", [(2, True), (3, False), (6, False), (7, True)])
def test_three_to_six_players(n, bad):
    got = found(players(n), "senji.player-count")
    assert bool(got) == bad, [f.message for f in got]
    if bad:
        assert got[0].value == n and got[0].bound == "3-6"
        assert f"{n} players; Senji is for 3 to 6 players" in got[0].message


def with_provinces(k: int, units: list[int] | None = None) -> dict:
    """Aiko with ``k`` provinces (the samurai in the first; ``units`` per province)."""
    data = base()
    taken = {p["province"] for pl in data["players"][1:] for p in pl["provinces"]}
    free = [b for b in BOARD if b not in taken]
    units = units or [3] + [0] * (k - 1)
    data["players"][0]["provinces"] = [{"province": free[i], "units": units[i], "samurai": i == 0} for i in range(k)]
    return data


@pytest.mark.parametrize("k, bad", [(2, True), (3, False), (4, True)])
def test_exactly_three_starting_provinces(k, bad):
    got = found(with_provinces(k), "senji.starting-provinces")
    assert bool(got) == bad
    if bad:
        assert got[0].value == k and got[0].bound == 3


@pytest.mark.parametrize("k, bad", [(6, False), (7, True)])
def test_at_most_six_provinces_a_player(k, bad):
    got = found(with_provinces(k), "senji.provinces-max")
    assert bool(got) == bad
    if bad:
        assert got[0].value == 7 and got[0].bound == 6


@pytest.mark.parametrize("units, bad", [([1, 1, 0], True), ([3, 0, 0], False), ([1, 1, 1], False), ([2, 1, 1], True)])
def test_exactly_three_starting_units(units, bad):
    got = found(with_provinces(3, units), "senji.starting-units")
    assert bool(got) == bad
    if bad:
        assert got[0].value == sum(units) and got[0].bound == 3


@pytest.mark.parametrize("n, bad", [(6, False), (7, True)])
def test_at_most_six_units_in_a_province(n, bad):
    got = found(with_provinces(3, [n, 0, 0]), "senji.province-units-max")
    assert bool(got) == bad
    if bad:
        assert got[0].value == 7 and got[0].bound == 6


@pytest.mark.parametrize("n, bad", [(5, False), (6, True)])
def test_a_samurai_counts_in_the_province_under_the_house_rule(n, bad):
    data = with_provinces(3, [n, 0, 0])  # the samurai stands in the first province
    assert not found(data, "senji.province-units-max")  # by default a samurai is not a unit
    data["house_rules"] = {"samurai_in_province_limit": True}
    got = found(data, "senji.province-units-max")
    assert bool(got) == bad
    if bad:
        assert got[0].value == 7 and got[0].bound == 6


@pytest.mark.parametrize("total, bad", [(12, False), (13, True)])
def test_at_most_twelve_units_a_player(total, bad):
    units = [6, 6, 0] if total == 12 else [6, 6, 1]
    got = found(with_provinces(3, units), "senji.player-units-max")
    assert bool(got) == bad
    if bad:
        assert got[0].value == 13 and got[0].bound == 12


@pytest.mark.parametrize("fortresses, bad", [(0, True), (1, False), (2, True)])
def test_exactly_one_fortress_in_a_starting_province(fortresses, bad):
    data = base()
    data["players"][0]["provinces"][1]["fortresses"] = fortresses
    got = found(data, "senji.fortress-count")
    assert bool(got) == bad
    if bad:
        assert got[0].value == fortresses and got[0].bound == 1


@pytest.mark.parametrize("placed, bad", [(0, True), (1, False), (2, True)])
def test_the_samurai_in_exactly_one_province(placed, bad):
    data = base()
    for i, p in enumerate(data["players"][0]["provinces"]):
        p["samurai"] = i < placed
    got = found(data, "senji.samurai-placement")
    assert bool(got) == bad
    if bad:
        assert got[0].value == placed and got[0].bound == 1
        # it points at the samurai one too many, or at the provinces that lack one
        where = ("provinces", 1, "samurai") if placed > 1 else ("provinces",)
        assert got[0].loc == ("players", 0, *where)


def test_each_player_keeps_one_samurai_card():
    data = base()
    assert not found(data, "senji.samurai-card")
    del data["players"][0]["samurai"]
    (got,) = found(data, "senji.samurai-card")
    assert got.value == 0 and got.bound == 1
    assert got.message.endswith("no samurai card; each player keeps 1 of the 3 drawn")  # 002:37


# the setup table (002:21-24): who is out and what is neutral, by the number of players
SETUPS = {
    3: (["yellow", "blue", "black"], ["Kyushu", "Shikoku", "Northernmost province"], "24"),
    4: (["yellow", "blue"], ["Kyushu", "Shikoku"], "23"),
    5: (["yellow"], ["Kyushu"], "22"),
    6: ([], [], "21"),
}


@pytest.mark.parametrize("n", sorted(SETUPS))
def test_the_setup_of_each_player_count(n):
    from builder.catalog.loader import load_catalog
    from builder.games.senji.rules import setup_table

    excluded, neutral, line = SETUPS[n]
    got = setup_table(load_catalog("senji"), n)
    assert (got["excluded"], got["neutral"]) == (excluded, neutral)
    assert len(got["in_play"]) == n and not set(got["in_play"]) & set(excluded)
    assert got["source"] == f"002_55c7e5ab3d1a76a7.txt:{line}"
