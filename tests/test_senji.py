"""Senji: catalog, setups per player count, the combat core, the end, setup checks."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.catalog.loader import load_catalog
from builder.check import check_file, check_text
from builder.errors import CatalogError, DaimyoError, ListError
from builder.games.senji import rules as core
from builder.games.senji.rules import CombatSide

from conftest import examples

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "senji"
BOARD = ROOT / "examples" / "packs" / "senji-board.yaml"


@pytest.fixture(scope="module")
def cat():
    return load_catalog("senji")


@pytest.fixture(scope="module")
def board():
    return load_catalog("senji", [BOARD])


# -- catalog -----------------------------------------------------------------------


def test_six_families_three_named_by_the_text(cat):
    fams = cat.entries("families")
    assert len(fams) == 6
    assert [f.name for f in fams if f.known] == ["yellow", "blue", "black"]
    assert all(f.source for f in fams if f.known)
    assert all(f.assumed and not f.source for f in fams if not f.known)


def test_setups_per_player_count(cat):
    def names(n):
        fams, provs = core.setup_for(n, cat)
        return [f.name for f in fams], [p.id for p in provs]

    assert names(6) == ([], [])
    assert names(5) == (["yellow"], ["kyushu"])
    assert names(4) == (["yellow", "blue"], ["kyushu", "shikoku"])
    assert names(3) == (["yellow", "blue", "black"], ["kyushu", "shikoku", "northernmost"])
    assert core.setup_for(2, cat) is None


def test_board_has_18_provinces_with_visible_placeholders(cat):
    provs = cat.entries("provinces")
    assert len(provs) == 18
    assert [p.name for p in provs if p.known] == ["Kyushu", "Shikoku"]
    north = cat.find("provinces", "northernmost")
    assert north.known is False and north.source.endswith(":24")
    assert all(p.assumed for p in provs[3:])


def test_board_pack_names_every_province(board):
    provs = board.entries("provinces")
    assert len(provs) == 18 and all(p.known for p in provs)
    assert board.find("provinces", "northernmost").name == "Mutsu"
    owari = board.find("provinces", "Owari")
    assert owari.id == "province-12" and board.is_example("provinces", owari)
    assert not board.is_example("provinces", board.find("provinces", "Kyushu"))


def test_limits_and_constants(cat):
    c = core.constants(cat)
    assert (c["units_per_province"], c["units_per_player"], c["units_per_fleet"], c["provinces_per_player"]) == (
        6,
        12,
        6,
        6,
    )
    assert (c["starting_provinces"], c["starting_units"], c["dice"], c["honor_goal"]) == (3, 3, 9, 60)
    assert (c["attacker_honor_multiplier"], c["defender_honor_multiplier"]) == (2, 1)
    assert [s.name for s in cat.entries("samurai") if s.known] == ["Chosogabe", "Ekes", "Wakizaka", "Baba"]
    assert len(cat.entries("samurai")) == 18


def _pack(tmp_path, text):
    p = tmp_path / "pack.yaml"
    p.write_text("system: senji\n" + text)
    return p


def test_catalog_cross_check_catches_bad_references(tmp_path):
    p = _pack(
        tmp_path,
        "setups:\n  - players: 2\n    excluded: [yelow]\n    neutral: [Kyushu]\n    assumed: t\n"
        "  - players: 5\n    assumed: t\n",
    )
    with pytest.raises(CatalogError) as ei:
        load_catalog("senji", [p], use_cache=False)
    text = str(ei.value)
    assert "unknown family 'yelow'" in text and "did you mean 'yellow'" in text
    assert "pack.yaml:7:14: error catalog.reference: a second setup for 5 players" in text


def test_catalog_rejects_one_sided_adjacency_and_extra_provinces(tmp_path):
    p = _pack(tmp_path, "provinces:\n  - name: Kyushu\n    adjacent: [Shikoku]\n")
    with pytest.raises(CatalogError, match="not the other way round"):
        load_catalog("senji", [p], use_cache=False)
    p = _pack(tmp_path, "provinces:\n  - name: Hokkaido\n    assumed: t\n")
    with pytest.raises(CatalogError, match="the catalog lists 19"):
        load_catalog("senji", [p], use_cache=False)


def test_catalog_rejects_unknown_keys(tmp_path):
    p = _pack(tmp_path, "families:\n  - name: red\n    color: red\n")
    with pytest.raises(CatalogError, match=r"unknown key 'color'.*did you mean 'colour'"):
        load_catalog("senji", [p], use_cache=False)


# -- combat --------------------------------------------------------------------------


def test_combat_value_parts():
    # 3 units, 1 samurai die set to the symbol, 2 rolled symbols, support card 2 with 3 symbols rolled
    v = core.combat_value(CombatSide(units=3, samurai=1, symbols_rolled=2, support_value=2, support_symbols=3))
    assert (v.units, v.samurai_dice, v.rolled, v.support, v.total) == (3, 1, 2, 2, 8)
    # the dummy support card (value 0) gives nothing
    assert core.combat_value(CombatSide(units=3, support_value=0, support_symbols=4)).total == 3


def test_dice_to_roll():
    assert core.dice_to_roll(1, 1) == 7
    assert core.dice_to_roll(0, 0) == 9
    assert core.dice_to_roll(5, 5) == 0


def test_support_cap_and_contest():
    assert core.support_points(5, 3) == 3
    assert core.support_points(1, 3) == 1
    assert core.contested_support("blue", 3, "black", 1) == (True, True)
    assert core.contested_support("blue", 3, "blue", 1) == (True, False)
    assert core.contested_support("blue", 1, "blue", 2) == (False, True)
    assert core.contested_support("blue", 2, "blue", 2) == (False, False)
    assert core.contested_support("blue", 2, "blue", 2, "both") == (True, True)
    assert core.contested_support("blue", 2, "blue", 2, "defender") == (False, True)


def test_attacker_wins_loser_loses_all_winner_as_many_units():
    att = CombatSide(units=4, samurai=1, symbols_rolled=1)  # 6
    dfn = CombatSide(units=2, samurai=1, symbols_rolled=0)  # 3
    r = core.resolve_combat(att, dfn)
    assert r.winner == "attacker"
    assert (r.attacker_units_lost, r.defender_units_lost) == (2, 2)
    assert (r.attacker_samurai_lost, r.defender_samurai_lost) == (0, 1)  # the winner's samurai survive
    assert r.honor == 2 * (2 + 2)


def test_defender_wins_gets_single_honor():
    att = CombatSide(units=2)
    dfn = CombatSide(units=3, symbols_rolled=1)
    r = core.resolve_combat(att, dfn)
    assert r.winner == "defender"
    assert (r.attacker_units_lost, r.defender_units_lost) == (2, 2)
    assert r.honor == 1 * 4


def test_winner_cannot_lose_more_units_than_it_has():
    att = CombatSide(units=1, samurai=1, symbols_rolled=5)  # 7
    dfn = CombatSide(units=5)  # 5
    r = core.resolve_combat(att, dfn)
    assert r.winner == "attacker" and (r.attacker_units_lost, r.defender_units_lost) == (1, 5)
    assert r.honor == 2 * 6


def test_tie_is_a_new_round():
    r = core.resolve_combat(CombatSide(units=3), CombatSide(units=2, samurai=1))
    assert r.new_round and r.winner is None and r.honor == 0
    assert r.attacker_units_lost == r.defender_units_lost == 0


def test_same_family_support_in_combat():
    att = CombatSide(units=2, support_value=3, support_symbols=3, support_family="blue")
    dfn = CombatSide(units=3, support_value=1, support_symbols=3, support_family="blue")
    r = core.resolve_combat(att, dfn)
    assert (r.attacker.total, r.defender.total) == (5, 3) and r.winner == "attacker"
    # equal cards: by default neither counts its support
    dfn2 = CombatSide(units=3, support_value=3, support_symbols=3, support_family="blue")
    r = core.resolve_combat(att, dfn2)
    assert (r.attacker.total, r.defender.total) == (2, 3)
    r = core.resolve_combat(att, dfn2, {"support_tie": "both"})
    assert (r.attacker.total, r.defender.total) == (5, 6)


def test_samurai_as_losses_house_rule():
    att = CombatSide(units=3, samurai=1, symbols_rolled=2)
    dfn = CombatSide(units=1, samurai=1)
    assert core.resolve_combat(att, dfn).honor == 2 * (1 + 1)
    r = core.resolve_combat(att, dfn, {"samurai_count_as_losses": True})
    assert (r.attacker_units_lost, r.honor) == (2, 2 * (2 + 2))


@settings(max_examples=examples(200))
@given(
    *(
        st.builds(
            CombatSide, st.integers(0, 12), st.integers(0, 2), st.integers(0, 9), st.integers(0, 4), st.integers(0, 9)
        )
        for _ in range(2)
    )
)
def test_combat_invariants(att, dfn):
    r = core.resolve_combat(att, dfn)
    if r.winner is None:
        assert r.attacker.total == r.defender.total
        return
    w, lo = (att, dfn) if r.winner == "attacker" else (dfn, att)
    w_lost = r.attacker_units_lost if r.winner == "attacker" else r.defender_units_lost
    l_lost = r.defender_units_lost if r.winner == "attacker" else r.attacker_units_lost
    assert l_lost == lo.units and w_lost == min(w.units, lo.units)
    assert r.honor == (2 if r.winner == "attacker" else 1) * (w_lost + l_lost)


# -- the end -------------------------------------------------------------------------


def test_game_end_at_60():
    assert not core.game_end({"a": 59, "b": 40}).over
    end = core.game_end({"a": 61, "b": 60, "c": 10})
    assert end.over and end.winner == "a"
    end = core.game_end({"a": 60, "b": 60})
    assert not end.over and end.extra_turn
    # after the additional turn the highest score wins, even below 60
    end = core.game_end({"a": 58, "b": 55}, extra_turns_played=1)
    assert end.over and end.winner == "a"
    tied = core.game_end({"a": 62, "b": 62}, extra_turns_played=1)
    assert not tied.over and tied.extra_turn
    shared = core.game_end({"a": 62, "b": 62}, extra_turns_played=1, end_tie="shared")
    assert shared.over and shared.winners == ("a", "b") and shared.winner is None


# -- setup lists ---------------------------------------------------------------------


def test_example_setup_is_legal():
    res = check_file(ROOT / "examples" / "senji-three-daimyo.yaml")
    assert res.legal, [f.format() for f in res.findings]
    assert not res.has_warnings()
    assert res.summary["players"] == 3
    assert res.summary["neutral"] == ["Kyushu", "Shikoku", "Mutsu"]
    assert "senji.example-board" in {f.code for f in res.findings}


def _expect(path):
    return path.read_text().splitlines()[0].split(":", 1)[1].split()


@pytest.mark.parametrize("path", sorted(DATA.glob("bad-*.yaml")), ids=lambda p: p.stem)
def test_bad_setups_give_their_finding(path):
    res = check_file(path)
    assert not res.legal
    codes = {f.code for f in res.findings if f.severity == "error"}
    for code in _expect(path):
        assert code in codes, (code, [f.format() for f in res.findings])
    for f in res.findings:
        if f.severity == "error":
            assert f.source and f.source.startswith("002_55c7e5ab3d1a76a7.txt:")
            assert f.line and f.line > 2


@pytest.mark.parametrize("path", sorted(DATA.glob("warn-*.yaml")), ids=lambda p: p.stem)
def test_placeholder_setups_are_legal_with_warnings(path):
    res = check_file(path)
    assert res.legal
    assert set(_expect(path)) <= {f.code for f in res.findings if f.severity == "warning"}


@pytest.mark.parametrize("path", sorted(DATA.glob("shape-*.yaml")), ids=lambda p: p.stem)
def test_bad_shapes_are_list_errors(path):
    want = path.read_text().splitlines()[0].split(":", 1)[1].strip()
    with pytest.raises(ListError) as ei:
        check_file(path)
    assert any(want in line for line in ei.value.lines()), ei.value.lines()


def _players(*specs):
    out = []
    for fam, sam, provs in specs:
        out.append(
            {
                "family": fam,
                "samurai": sam,
                "provinces": [{"province": provs[0], "units": 3, "samurai": True}]
                + [{"province": p} for p in provs[1:]],
            }
        )
    return out


def _doc(players, **extra):
    return json.dumps({"system": "senji", "packs": [str(BOARD)], "players": players, **extra})


FOUR = [
    ("red", "Baba", ["Owari", "Mino", "Mikawa"]),
    ("green", "Ekes", ["Aki", "Izumo", "Harima"]),
    ("white", "Wakizaka", ["Echigo", "Dewa", "Etchu"]),
    ("black", "Chosogabe", ["Kai", "Shinano", "Musashi"]),
]


def test_four_players_exclude_yellow_and_blue_not_black():
    assert check_text(_doc(_players(*FOUR))).legal
    blue = list(FOUR)
    blue[3] = ("blue", "Chosogabe", ["Kai", "Shinano", "Musashi"])
    res = check_text(_doc(_players(*blue)))
    (f,) = [f for f in res.findings if f.code == "senji.family-excluded"]
    assert "blue family is excluded with 4 players" in f.message and f.source.endswith(":23")
    shikoku = list(FOUR)
    shikoku[3] = ("black", "Chosogabe", ["Kai", "Shinano", "Shikoku"])
    res = check_text(_doc(_players(*shikoku)))
    assert [f.code for f in res.findings if f.severity == "error"] == ["senji.province-neutral"]
    # with 4 players the northernmost province is not neutral
    north = list(FOUR)
    north[3] = ("black", "Chosogabe", ["Kai", "Shinano", "Mutsu"])
    assert check_text(_doc(_players(*north))).legal


def test_six_players_all_families_and_provinces():
    six = FOUR + [
        ("yellow", "Samurai 5", ["Kyushu", "Yamashiro", "Omi"]),
        ("blue", "Samurai 6", ["Shikoku", "Mutsu", "Shimotsuke"]),
    ]
    res = check_text(_doc(_players(*six)))
    assert res.legal, [f.format() for f in res.findings]
    assert {f.code for f in res.findings if f.severity == "warning"} == {"senji.placeholder-samurai"}
    assert res.summary["players"] == 6 and res.summary["provinces"] == 18


def test_seven_players_is_illegal():
    seven = FOUR + [
        ("yellow", "Samurai 5", ["Kyushu", "Yamashiro", "Omi"]),
        ("blue", "Samurai 6", ["Shikoku", "Mutsu", "Shimotsuke"]),
        ("blue", "Samurai 7", ["Harima", "Aki", "Izumo"]),
    ]
    codes = {f.code for f in check_text(_doc(_players(*seven))).findings}
    assert {"senji.player-count", "senji.family-duplicate", "senji.province-taken"} <= codes


def test_province_without_board_pack_suggests_and_says_why():
    doc = json.dumps({"system": "senji", "players": _players(*FOUR)})
    res = check_text(doc)
    f = next(f for f in res.findings if f.code == "senji.unknown-name")
    assert "unknown province 'Owari'" in f.message and "board pack" in f.message


def test_samurai_limit_house_rule():
    players = _players(*FOUR[:3])
    players[0]["provinces"][0]["units"] = 6
    players[0]["provinces"][1]["units"] = 0
    players[0]["provinces"][0]["samurai"] = True
    doc = json.loads(_doc(players))
    codes = {f.code for f in check_text(json.dumps(doc)).findings}
    assert "senji.province-units-max" not in codes
    doc["house_rules"] = {"samurai_in_province_limit": True}
    res = check_text(json.dumps(doc))
    (f,) = [f for f in res.findings if f.code == "senji.province-units-max"]
    assert f.value == 7 and f.bound == 6


def test_province_shorthand_and_names_loose():
    doc = {"system": "senji", "packs": [str(BOARD)], "players": _players(*FOUR[:3])}
    doc["players"][0]["provinces"] = [{"province": "OWARI", "units": 3, "samurai": True}, "mino", "Mi-kawa"]
    doc["players"][0]["family"] = "Red family"
    res = check_text(json.dumps(doc))
    assert res.legal, [f.format() for f in res.findings]


def test_setup_sheet(board):
    from builder.lists.document import load_list

    doc = load_list(ROOT / "examples" / "senji-three-daimyo.yaml")
    lst, _findings = core.load_list(doc, board)
    sheet = core.setup_sheet(lst, board, board.default_rules())
    assert sheet["player_count"] == 3 and sheet["honor_goal"] == 60
    assert sheet["excluded_families"] == ["yellow", "blue", "black"]
    assert sheet["players"][0]["provinces"][0] == {"province": "Owari", "units": 2, "samurai": True, "fortresses": 1}
    assert {"name": "Military unit", "count": 12, "in_play": 3} in sheet["players"][0]["components"]


@settings(max_examples=examples(80))
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 20) | st.text(max_size=10),
        lambda kids: (
            st.lists(kids, max_size=4)
            | st.dictionaries(
                st.sampled_from(["name", "family", "samurai", "provinces", "province", "units", "fortresses", "x"]),
                kids,
                max_size=4,
            )
        ),
        max_leaves=14,
    )
)
def test_junk_never_raises(junk):
    for doc in (
        {"system": "senji", "players": junk},
        {"system": "senji", "players": [junk, junk]},
        {"system": "senji", "players": [{"family": "red", "samurai": "Baba", "provinces": junk}]},
    ):
        try:
            check_text(json.dumps(doc))
        except DaimyoError:
            pass


# -- who is named: a setup of several players, built by the rulebook's setup rules ----------------


def _four_player_setup() -> str:
    """A legal 4-player start as the rulebook's setup sets it up (lines 20-47): with 4 players the
    yellow and blue families are out and Kyushu and Shikoku are neutral; each player keeps one
    samurai card of the three drawn, names 3 provinces with a fortress each and places the
    samurai and the 3 starting units in them."""
    rows = [
        ("Aiko", "black", "Baba", ["Owari", "Mino", "Mikawa"]),
        ("Kenji", "red", "Chosogabe", ["Aki", "Izumo", "Harima"]),
        ("Sora", "green", "Wakizaka", ["Echigo", "Dewa", "Etchu"]),
        ("Hana", "white", "Ekes", ["Mutsu", "Kai", "Shinano"]),
    ]
    lines = ["system: senji", "packs:", f"  - {BOARD.as_posix()}", "players:"]
    for name, family, samurai, provinces in rows:
        lines += [
            f"  - name: {name}",
            f"    family: {family}",
            f"    samurai: {samurai}",
            "    provinces:",
            f"      - {{province: {provinces[0]}, units: 3, samurai: true}}",
            f"      - {{province: {provinces[1]}}}",
            f"      - {{province: {provinces[2]}}}",
        ]
    return "\n".join(lines) + "\n"


def test_why_names_the_player_who_would_name_the_province_and_the_one_who_has_it():
    from builder.check import check_text
    from builder.lists.editor import ListEditor

    text = _four_player_setup()
    assert check_text(text).legal, [f.message for f in check_text(text).findings if f.severity == "error"]
    ed = ListEditor.from_text(text)
    # Aiko (first in the file) would name Dewa, a starting province of Sora (third)
    res = ed.why("Dewa", player="Aiko")
    assert not res.ok
    first = res.breaks[0].finding
    assert first.code == "senji.province-taken"
    assert first.message == "Aiko: province 'Dewa' is also a starting province of Sora"
    assert tuple(first.loc[:3]) == ("players", 0, "provinces")
    # Kenji would name Mutsu, Hana's (last): the same from the other side of the file
    res = ed.why("Mutsu", player="Kenji")
    assert res.breaks[0].finding.message == "Kenji: province 'Mutsu' is also a starting province of Hana"
    # a samurai card kept by a later player: one card of each samurai
    res = ed.why("Ekes", player="Sora")
    assert res.breaks[0].finding.message.startswith("Sora: samurai card 'Ekes' is also kept by Hana")
    # neutral with 4 players (Kyushu, Shikoku): the player who would name it is the one named
    res = ed.why("Shikoku", player="Hana")
    assert [b.finding.code for b in res.breaks if b.finding.message.startswith("Hana: 'Shikoku'")] == [
        "senji.province-neutral"
    ]
    # the builder's catalog gives the same reason, for the player an addition goes to
    stop = {o.name: o for o in ed.options(search="Etchu")}["Etchu"]
    assert not stop.ok and stop.reason == "Aiko: province 'Etchu' is also a starting province of Sora"
    # a samurai card when every player has one: a reason a person reads, with no markup left in it
    baba = {o.name: o for o in ed.options(search="Baba")}["Baba"]
    assert baba.reason == "every player has a samurai card already (choose the player whose card it replaces)"


def test_a_province_named_by_two_players_is_reported_at_both():
    from builder.check import check_text

    text = _four_player_setup().replace("{province: Kai}", "{province: Mino}")
    res = check_text(text)
    taken = [f for f in res.findings if f.code == "senji.province-taken"]
    assert sorted(f.message for f in taken) == [
        "Aiko: province 'Mino' is also a starting province of Hana",
        "Hana: province 'Mino' is also a starting province of Aiko",
    ]
    assert sorted(f.loc[1] for f in taken) == [0, 3]  # at Aiko's and at Hana's Mino
    assert all(f.counted for f in taken)


def test_the_four_player_setup_follows_the_rulebook_table():
    from conftest import rulebook_text

    text = rulebook_text("002_55c7e5ab3d1a76a7.txt")
    assert "4 players: Yellow and blue families excluded; Kyushu and Shikoku neutral" in text
    assert "Host names their 3 provinces" in text
    cat = load_catalog("senji", [BOARD])
    fams, provs = core.setup_for(4, cat)
    assert [f.name for f in fams] == ["yellow", "blue"] and [p.name for p in provs] == ["Kyushu", "Shikoku"]
