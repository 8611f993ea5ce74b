"""Senshiai: catalog, deck checks and the rules core against the rulebook (000_ac601013730960cf.txt)."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.catalog.loader import load_catalog
from builder.check import check_file, check_text
from builder.errors import CatalogError, DaimyoError, ListError
from builder.games.senshiai import rules as R
from builder.games.senshiai.catalog import Power, PowerMod, parse_ability, parse_cost, parse_modifier, parse_power

from conftest import examples

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "senshiai"
PACK = ROOT / "examples" / "packs" / "senshiai-example.yaml"
EXAMPLES = sorted((ROOT / "examples").glob("senshiai-*.yaml"))


@pytest.fixture(scope="module")
def cat():
    return load_catalog("senshiai", [PACK])


# -- catalog ---------------------------------------------------------------------------


def test_catalog_has_the_rulebook_facts():
    c = load_catalog("senshiai")
    m = c.model
    assert m.deck_rules.capitals == 1 and m.deck_rules.typical_size == 50 and m.deck_rules.max_cards == 200
    assert [p.name for p in m.paths] == ["Air", "Earth", "Water"]
    assert [(x.name, x.value) for x in m.costs] == [("N", 0), ("I", 1), ("II", 2), ("III", 3), ("IV", 4), ("V", 5)]
    assert {t.id for t in m.card_types if t.kind == "type"} == {"terrain", "troop", "event"}
    troop = c.find("card_types", "Troop")
    assert troop.fields == ["name", "subtype", "cost", "paths", "speed", "power", "abilities"]
    assert str(c.find("cards", "Warriors").power) == "3/0/6"
    assert c.find("cards", "militiamen").power == Power(1, None, 4)
    assert str(c.find("cards", "War Veterans").modifiers[0]) == "+1/1/1"
    assert str(c.find("cards", "Rotten Provisions").modifiers[0]) == "-0/0/2"
    assert c.find("cards", "Open the Vaults").text == "The target draws 2 cards."
    assert c.find("cards", "Native Barbarian").abilities == ["Acts as Unit"]
    capital = c.find("subtypes", "Capital")
    assert capital.cost == 0 and capital.max_speed == 0
    assert capital.implied_abilities == ["Acts as Unit", "Recruit", "Maintenance"]
    for card in m.cards:  # every rulebook card says what was assumed
        assert card.source and card.assumed


def test_every_ability_of_the_basic_collection_is_listed():
    names = {a.name for a in load_catalog("senshiai").model.abilities}
    assert names >= {
        "Activate",
        "Acts as",
        "Annuls the Target",
        "Artillery",
        "Boarding",
        "Dive Attack",
        "Contingency",
        "Interrupt",
        "Pillage",
        "Power Modifiers",
        "Production",
        "Tardy",
        "Attracts Attacks",
        "Bushido",
        "Chaos",
        "Move Restriction",
        "Interrupts a Die Roll",
        "Recruit",
        "Maintenance",
    }


@pytest.mark.parametrize(
    "text,name,params",
    [
        ("Activate 2: restore a card", "Activate", {"number": 2, "effect": "restore a card"}),
        ("Artillery: 0/5/3", "Artillery", {"power": Power(0, 5, 3)}),
        ("Production", "Production", {}),
        ("Production: a Water terrain", "Production", {"condition": "a Water terrain"}),
        ("Tardy: 4", "Tardy", {"number": 4}),
        ("Chaos 5: every Unit flees", "Chaos", {"number": 5, "effect": "every Unit flees"}),
        ("Move Restriction: Air 1", "Move Restriction", {"path": "Air", "number": 1}),
        ("Move Restriction: 2", "Move Restriction", {"number": 2}),
        ("Interrupts a Die Roll", "Interrupts a Die Roll", {}),
        ("Interrupt a move", "Interrupt", {"event": "a move"}),
        ("acts as unit", "Acts as", {"what": "unit"}),
        ("Take Away Attracts Attacks", "Attracts Attacks", {}),
    ],
)
def test_ability_parameters(text, name, params):
    abilities = load_catalog("senshiai").model.abilities
    parsed = parse_ability(text, abilities)
    assert parsed.ability.name == name
    assert parsed.params == params


@pytest.mark.parametrize(
    "text,msg",
    [
        ("Tardy", "Tardy needs a number"),
        ("Tardy: soon", "Tardy needs a number"),
        ("Artillery: 3/x/6", "ranged trait 'x'"),
        ("Recruti", "did you mean 'Recruit'"),
        ("Boarding 3", "unexpected '3'"),
        ("Acts as Dragon", "takes one of Unit"),
    ],
)
def test_bad_abilities_are_explained(text, msg):
    with pytest.raises(ValueError, match=re.escape(msg)):
        parse_ability(text, load_catalog("senshiai").model.abilities)


@pytest.mark.parametrize(
    "text,power",
    [
        ("3/0/6", Power(3, 0, 6)),
        ("1/n/4", Power(1, None, 4)),
        ("n/N/2", Power(None, None, 2)),
        (" 9 / 9 / 12 ", Power(9, 9, 12)),
    ],
)
def test_power_strings(text, power):
    assert parse_power(text) == power


@pytest.mark.parametrize(
    "text,msg",
    [
        ("3/x/6", "power '3/x/6': ranged trait 'x' is not 0-9 or 'n' (nulla)"),
        ("10/0/6", "melee trait '10' is not 0-9"),
        ("3/0/n", "resistance 'n' is not a whole number from 1"),
        ("3/0/0", "resistance '0'"),
        ("3/0", "is not MELEE/RANGED/RESISTANCE"),
    ],
)
def test_bad_power_strings(text, msg):
    with pytest.raises(ValueError, match=re.escape(msg)):
        parse_power(text)


def test_costs_are_nulla_and_roman():
    assert [parse_cost(x) for x in ("N", "nulla", "I", "ii", "III", "IV", "V", 0, 5)] == [0, 0, 1, 2, 3, 4, 5, 0, 5]
    for bad in ("VI", 6, -1, "X", True):
        with pytest.raises(ValueError):
            parse_cost(bad)


def test_bad_power_in_a_pack_points_at_the_value(cli):
    res = cli("check", str(DATA / "bad-power.yaml"))
    assert res.code == 2
    line = res.stderr.strip().splitlines()[0]
    assert re.match(
        r".*packs/bad-power\.yaml:6:12: error catalog\.value: cards\[\d+\]\.power: power '3/x/6': "
        r"ranged trait 'x' is not 0-9 or 'n' \(nulla\)$",
        line,
    ), line


def test_catalog_rejects_unknown_keys(tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text("system: senshiai\ncards:\n  - name: X\n    type: troop\n    colour: red\n    assumed: t\n")
    with pytest.raises(CatalogError) as ei:
        load_catalog("senshiai", [pack], use_cache=False)
    text = "\n".join(ei.value.lines())
    assert re.search(r"p\.yaml:5:5: error catalog\.unknown-key: .*unknown key 'colour'", text), text


def test_catalog_cross_checks_references(tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text(
        "system: senshiai\ncards:\n"
        "  - name: Y\n    type: event\n    target: Dragon\n    abilities: [Recruti]\n    assumed: t\n"
    )
    with pytest.raises(CatalogError) as ei:
        load_catalog("senshiai", [pack], use_cache=False)
    text = "\n".join(ei.value.lines())
    assert re.search(r"p\.yaml:5:13: error catalog\.reference: unknown target 'Dragon'", text), text
    assert re.search(
        r"p\.yaml:6:17: error catalog\.reference: unknown ability 'Recruti'; did you mean 'Recruit'", text
    ), text


def test_capital_must_be_a_terrain_with_speed_0(tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text(
        "system: senshiai\ncards:\n  - name: Flying Capital\n    type: troop\n    subtype: Capital\n"
        "    speed: 2\n    assumed: t\n"
    )
    with pytest.raises(CatalogError) as ei:
        load_catalog("senshiai", [pack], use_cache=False)
    text = "\n".join(ei.value.lines())
    assert "a Capital is a terrain card, not a troop" in text
    assert "a Capital's speed can never be above 0" in text


# -- rules core: the rulebook's worked examples -----------------------------------------------


def test_power_modifiers_warriors():
    # 000:167 Warriors 3/0/6 with +1/1/1 (War Veterans) and -0/0/2 (Rotten Provisions) is 4/1/5
    assert str(R.modified_power("3/0/6", ["+1/1/1", "-0/0/2"])) == "4/1/5"


def test_power_modifiers_militiamen_nulla_cannot_change():
    # ... and Militiamen 1/n/4 with the same becomes 2/n/3, not 2/1/3
    assert str(R.modified_power("1/n/4", ["+1/1/1", "-0/0/2"])) == "2/n/3"
    assert R.modified_power("n/n/4", [("event", "+5/5/0")]) == Power(None, None, 4)


def test_rule_of_singularity_bonus_and_penalty():
    # 000:167 bonuses +1/0/1, +1/2/0 and penalties -1/1/1, -2/0/0 (one Type)
    mods = [("event", "+1/0/1"), ("event", "+1/2/0"), ("event", "-1/1/1"), ("event", "-2/0/0")]
    bonus, penalty = R.singularity(mods)
    assert bonus == (1, 2, 1) and penalty == (2, 1, 1)
    b, p = R.net_modifiers(mods)
    assert (str(b), str(p)) == ("+0/1/0", "-1/0/0")


def test_rule_of_singularity_second_example():
    # 000:99 a +2/1/1 and a -1/1/2 leave a +1/0/0 bonus and a -0/0/1 penalty
    b, p = R.net_modifiers(["+2/1/1", "-1/1/2"])
    assert (str(b), str(p)) == ("+1/0/0", "-0/0/1")


def test_bonuses_of_separate_traits_stack():
    # 000:97 the Power bonuses +1/0/1 and +1/2/0 stack up to +1/2/1
    assert R.singularity([("event", "+1/0/1"), ("event", "+1/2/0")])[0] == (1, 2, 1)


def test_resistance_example():
    # 000:167 Resistance 3, a Terrain +1, Event +2 -> 6; another Event +1 -> still 6; Event +3 -> 7
    steps = [("terrain", 1), ("event", 2)]
    assert R.modified_trait(3, steps) == 6
    steps.append(("event", 1))
    assert R.modified_trait(3, steps) == 6
    steps.append(("event", 3))
    assert R.modified_trait(3, steps) == 7
    # the same through Power modifiers
    mods = [("terrain", "+0/0/1"), ("event", "+0/0/2"), ("event", "+0/0/1"), ("event", "+0/0/3")]
    assert R.modified_power("2/1/3", mods).resistance == 7


def test_different_types_stack():
    # 000:97 a supplier of another Type (a Troop, a Terrain) adds to an Event's bonus
    assert R.modified_power("3/0/6", [("event", "+2/0/0"), ("troop", "+1/0/0"), ("terrain", "+1/0/0")]).melee == 7


def test_destroyed_and_capital_maintenance():
    assert R.is_destroyed(6, 6) and not R.is_destroyed(5, 6)
    assert R.capital_waste(9, 8) == 1 and R.capital_waste(8, 8) == 0
    assert R.capital_waste(8, 8, "reaching") == 1 and R.capital_waste(3, 8, "reaching") == 0


def test_card_helpers(cat):
    cap = cat.find("cards", "Capital of the North")
    assert R.has_ability(cap, "Recruit", cat) and R.has_ability(cap, "Maintenance", cat)
    assert R.required_fields(cap, cat) == ["subtype", "cost", "paths", "power"]
    assert R.missing_fields(load_catalog("senshiai").find("cards", "Warriors"), load_catalog("senshiai")) == [
        "subtype",
        "cost",
        "paths",
        "speed",
    ]
    assert R.can_recruit_on(cat.find("cards", "Warriors"), cap, cat)
    assert not R.can_recruit_on(cat.find("cards", "Storm Hawks"), cap, cat)
    assert not R.can_recruit_on(cat.find("cards", "Warriors"), cat.find("cards", "Mountain Pass"), cat)
    assert R.can_target("Unit", cap, cat) and R.can_target("Unit", cat.find("cards", "Native Barbarian"), cat)
    assert not R.can_target("Construction", cap, cat)


def test_a_cards_abilities_are_worked_out_once_per_catalog_and_each_catalog_keeps_its_own(cat):
    import pickle

    cap = cat.find("cards", "Capital of the North")
    fresh = R._parsed_abilities(cap, cat)  # parsed from the texts, nothing kept
    first = R.card_abilities(cap, cat)
    assert [p.ability.name for p in first] == [p.ability.name for p in fresh] and first == fresh
    assert "Recruit" in [p.ability.name for p in first]
    first.clear()  # the caller's list is its own: the kept answer is not changed through it
    assert R.card_abilities(cap, cat) == fresh
    # a second card with the same printed abilities and subtype gets the same answer
    twin = cap.model_copy(update={"name": "Capital of the South", "id": "capital-of-the-south"})
    assert R.card_abilities(twin, cat) == fresh
    # another subtype implies other abilities: its own answer, not the first card's
    other = cap.model_copy(update={"subtype": None})
    assert len(R.card_abilities(other, cat)) < len(fresh)
    # each catalog keeps its own answers (its ability list may differ: a pack can add abilities)
    base = load_catalog("senshiai")
    assert base.memo("senshiai.card_abilities") is not cat.memo("senshiai.card_abilities")
    # what is kept stays bounded: past the bound it starts again, the answers the same
    memo = cat.memo("senshiai.card_abilities")
    for i in range(R._KEPT_ABILITIES + 1 - len(memo)):
        memo[(f"filler {i}",), None] = ()
    assert len(memo) == R._KEPT_ABILITIES + 1
    recruit = cap.model_copy(update={"abilities": ["Recruit"], "subtype": None})
    assert [p.ability.name for p in R.card_abilities(recruit, cat)] == ["Recruit"] and len(memo) == 1
    assert R.card_abilities(cap, cat) == fresh and len(memo) == 2
    # what is worked out is never written to the cache on disk
    assert "_memos" not in pickle.loads(pickle.dumps(cat)).__dict__


# -- decks ------------------------------------------------------------------------------------


def test_examples_exist_and_are_legal_without_warnings():
    assert EXAMPLES
    for path in EXAMPLES:
        res = check_file(path)
        assert res.legal, [f.format() for f in res.findings]
        assert not res.has_warnings(), [f.format() for f in res.findings]
        assert res.summary["cards"] == res.summary.get("size", res.summary["cards"])
        assert isinstance(res.summary["capital"], str)


def _expectations(path: Path) -> dict:
    out = {}
    for line in path.read_text().splitlines():
        m = re.match(r"# (expect(?:-exit|-line)?): (.*)$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


CASES = sorted(p for p in DATA.glob("*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_failing_lists(path, cli):
    exp = _expectations(path)
    assert exp, f"{path.name} says what it expects"
    import os

    old = os.getcwd()
    os.chdir(path.parent)
    try:
        res = cli("check", path.name, "--format", "json")
    finally:
        os.chdir(old)
    if "expect-exit" in exp:
        assert res.code == int(exp["expect-exit"]), res
        want = exp["expect-line"]
        pattern = ".*".join(re.escape(part) for part in want.split("..."))
        lines = res.stderr.strip().splitlines()
        assert any(re.fullmatch(r"(.*/)?" + pattern + r"( \(.*\))?", ln) for ln in lines), (want, lines)
        assert "Traceback" not in res.stderr
        return
    import json

    severity, code = exp["expect"].split()
    (doc,) = json.loads(res.stdout)
    codes = [(f["severity"], f["code"]) for f in doc["findings"] if f["severity"] != "info"]
    assert (severity, code) in codes, codes
    others = {c for c in codes if c[1] != code}
    if path.name == "card-fields.yaml":
        others.discard(("error", "senshiai.capital-count"))
    assert not others, others
    assert res.code == (1 if any(sev == "error" for sev, _ in codes) else 0)
    hit = next(f for f in doc["findings"] if f["code"] == code)
    assert (hit["source"] and hit["source"].startswith("000_ac601013730960cf.txt:")) or code.endswith("unknown-card")
    assert hit["line"] >= 1


def test_capital_count_explains_itself():
    res = check_file(DATA / "capital-two.yaml")
    (f,) = [f for f in res.findings if f.code == "senshiai.capital-count"]
    assert f.value == 2 and f.bound == 1
    assert f.message == (
        "deck has 2 Capitals (1 Capital of the North, 1 Capital of the South) but must have "
        "exactly 1 (a card with the Capital subtype)"
    )
    assert (f.line, f.col) == (6, 3)  # the second Capital's key


def test_unrecruitable_names_the_troop_and_its_paths():
    res = check_file(DATA / "unrecruitable.yaml")
    (f,) = [f for f in res.findings if f.code == "senshiai.unrecruitable"]
    assert "'Storm Hawks' (paths Air) can never be recruited" in f.message
    assert f.path == "cards.Storm Hawks" and f.line == 9


def test_unknown_card_suggests():
    res = check_file(DATA / "unknown-card.yaml")
    (f,) = [f for f in res.findings if f.code == "senshiai.unknown-card"]
    assert f.message == "unknown card 'Warrior'; did you mean 'Warriors'?"


def test_cli_output_reads_well(cli):
    res = cli("check", *map(str, EXAMPLES))
    assert res.code == 0, res
    first = res.stdout.splitlines()[0]
    assert first.endswith(': senshiai "Northern host": legal (0 errors, 0 warnings)')
    assert "summary: cards 50, size 50" in res.stdout
    assert "curve N:1" in res.stdout


def test_agreed_size_counts_and_json_summary(cli):
    res = cli("check", str(EXAMPLES[0]), "--format", "json")
    import json

    (doc,) = json.loads(res.stdout)
    assert doc["legal"] and doc["summary"]["cards"] == 50 and doc["house_rules"]["max_deck_cards"] == 200


# -- properties ---------------------------------------------------------------------------------

BASE = {
    "Capital of the North": 1,
    "Rice Fields": 4,
    "Warriors": 6,
    "Storm Hawks": 2,
    "Stone Rain": 1,
    "Militiamen": 3,
    "War Veterans": 2,
}


def _deck_text(cards: dict, size=None) -> str:
    lines = ["system: senshiai", f"packs: ['{PACK}']"]
    if size is not None:
        lines.append(f"size: {size}")
    lines.append("cards:")
    lines += [f"  '{k}': {v}" for k, v in cards.items()]
    return "\n".join(lines) + "\n"


def _key(res):
    return (res.legal, res.summary, sorted((f.code, f.severity, f.message) for f in res.findings))


@settings(max_examples=examples(25))
@given(st.permutations(list(BASE.items())), st.sampled_from([None, 19, 40]))
def test_card_order_never_changes_the_result(order, size):
    a = check_text(_deck_text(BASE, size))
    b = check_text(_deck_text(dict(order), size))
    assert _key(a) == _key(b)


@settings(max_examples=examples(25))
@given(
    st.permutations(["+1/0/1", "+1/2/0", "-1/1/1", "-2/0/0", "+0/0/3"]),
    st.lists(st.sampled_from(["event", "troop", "terrain"]), min_size=5, max_size=5),
)
def test_modifier_order_never_changes_the_power(order, types):
    mods = list(zip(types, order, strict=False))
    assert R.modified_power("3/0/6", mods) == R.modified_power("3/0/6", list(reversed(mods)))


yaml_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=8)),
    lambda ch: st.one_of(st.lists(ch, max_size=3), st.dictionaries(st.text(max_size=8), ch, max_size=3)),
    max_leaves=8,
)


@settings(max_examples=examples(60))
@given(
    st.dictionaries(st.sampled_from(["size", "cards", "sizee", "notes", "name"]), yaml_values, max_size=4),
    st.dictionaries(st.sampled_from(["Warriors", "Capital of the North", "Foo", "1/n/4", ""]), yaml_values, max_size=4),
)
def test_bad_input_never_raises(top, cards):
    import json

    doc = {"system": "senshiai", "packs": [str(PACK)], **top}
    if cards:
        doc["cards"] = cards
    try:
        res = check_text(json.dumps(doc))
    except ListError as exc:
        assert exc.lines() and all(":" in ln for ln in exc.lines())
        return
    except DaimyoError:
        return
    assert isinstance(res.legal, bool)


@settings(max_examples=examples(80))
@given(st.text(max_size=12))
def test_power_parser_only_raises_value_error(text):
    try:
        p = parse_power(text)
    except ValueError:
        return
    assert str(parse_power(str(p))) == str(p)


@settings(max_examples=examples(80))
@given(st.text(max_size=12))
def test_modifier_parser_only_raises_value_error(text):
    try:
        m = parse_modifier(text)
    except ValueError:
        return
    assert isinstance(m, PowerMod) and parse_modifier(str(m)) == m
