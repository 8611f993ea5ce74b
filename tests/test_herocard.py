"""HeroCard: catalog, hero checks and the rules core against the rulebook (004_80c161daf2b1fabf.txt)."""

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.catalog.loader import load_catalog
from builder.check import check_file, check_text
from builder.errors import CatalogError, DaimyoError, ListError
from builder.games.herocard import rules as R
from builder.games.herocard.catalog import ActionCard

from conftest import examples

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "herocard"
PACK = ROOT / "examples" / "packs" / "herocard-example.yaml"
EXAMPLES = sorted((ROOT / "examples").glob("herocard-*.yaml"))


@pytest.fixture(scope="module")
def cat():
    return load_catalog("herocard", [PACK])


@pytest.fixture(scope="module")
def book():
    return load_catalog("herocard")


# -- catalog ----------------------------------------------------------------------------------


def test_catalog_has_the_rulebook_facts(book):
    m = book.model
    assert (m.deck_rules.min_action_cards, m.deck_rules.max_copies, m.deck_rules.max_hero_points) == (20, 6, 30)
    assert [(k.name, k.letter) for k in m.attribute_kinds] == [("Body", "B"), ("Mind", "M"), ("Attribute X", "X")]
    assert [t.key for t in m.action_types] == ["fast", "restricted", "exclusive"]
    assert book.find("action_types", "Exclusive").per_turn == 1
    assert {k.key for k in m.card_kinds} == {
        "base-attack",
        "attack-mod",
        "special-attack",
        "base-block",
        "block-mod",
        "special-block",
        "other",
    }
    samurai = [c for c in m.attribute_cards if c.hero == "Samurai"]
    assert [(c.name, c.attribute) for c in samurai] == [
        ("Warrior's Strength", "body"),
        ("Scholar's Wisdom", "mind"),
        ("Honor's Power", "x"),
    ]
    values = {c.name: (c.kind, c.value) for c in m.action_cards}
    assert values["Attack from Above"] == ("base-attack", 4)
    assert values["Stone Falls through Water"] == ("attack-mod", 5)
    assert values["Unbroken Defense"] == ("base-block", 9)
    assert values["Efficient Block"] == ("base-block", 4)
    assert values["Cross Block"] == ("block-mod", 5)
    assert values["Forfeiture"] == ("special-attack", None)
    assert values["Distracting Smile"] == ("special-block", None)
    assert {"Overhand Thrust", "Thunder Stroke", "Resounding Blow"} <= set(values)
    assert book.find("action_cards", "Overhand Thrust").action_type == "exclusive"
    assert book.find("action_cards", "Thunder Stroke").action_type == "fast"
    assert book.find("treasures", "An Heir").victory_points == 5
    assert {h.name for h in m.heroes} == {"Samurai", "Ninja", "Miko", "Prince"}
    for c in m.attribute_cards + m.action_cards:
        assert c.source and c.assumed  # the rulebook prints none of them completely


def test_rise_of_the_shogun_facts(book):
    sh = book.model.shogun
    assert sh.victory_points == {2: 24, 3: 22, 4: 20}
    assert sh.castles == {2: 6, 3: 7, 4: 8}
    assert sh.scoring == {"claimed_castle": 4, "chain_peasant": 1, "prisoner": 1, "an_heir": 5}
    assert sh.duel_victory_points == {2: 3, 3: 5, 4: 7}
    assert R.shogun_target(3, sh) == 22 and R.castles_for(4, sh) == 8
    assert R.shogun_points(claimed_castles=3, chain_peasants=5, prisoners=2, heir=True) == 12 + 5 + 2 + 5
    with pytest.raises(ValueError):
        R.shogun_target(5)


def test_house_rules(book):
    hr = book.house_rules()
    assert hr["min_action_cards"].default == 20 and hr["min_action_cards"].alternatives[0].value == 30
    assert "004_80c161daf2b1fabf.txt:1316" in hr["min_action_cards"].alternatives[0].source
    assert hr["max_hero_points"].default == 30
    assert hr["three_player_extra_shrine"].allowed() == ["first", "second"]


def test_labels_for_card_faces(cat):
    assert cat.find("action_cards", "Attack from Above").value_label == "Attack 4"
    assert cat.find("action_cards", "Cross Block").value_label == "Block Mod +5"
    assert cat.find("action_cards", "Forfeiture").value_label == "Special Attack"
    assert cat.find("action_cards", "Overhand Thrust").cost_label == "3 B"
    assert cat.find("attribute_cards", "Honor's Power").letter == "X"


def test_catalog_rejects_a_value_on_a_special_card(tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text(
        "system: herocard\naction_cards:\n  - name: Odd\n    kind: special attack\n    value: 3\n    assumed: t\n"
    )
    with pytest.raises(CatalogError) as ei:
        load_catalog("herocard", [pack], use_cache=False)
    assert re.search(r"p\.yaml:3:5: .*a Special Attack card has no attack or block value", ei.value.lines()[0])


def test_catalog_rejects_bad_attribute_and_hero(tmp_path):
    pack = tmp_path / "p.yaml"
    pack.write_text("system: herocard\nattribute_cards:\n  - name: Odd\n    attribute: Soul\n    assumed: t\n")
    with pytest.raises(CatalogError) as ei:
        load_catalog("herocard", [pack], use_cache=False)
    assert re.search(r"p\.yaml:4:16: .*attribute 'Soul' is not Body \(B\), Mind \(M\) or X", ei.value.lines()[0])
    pack.write_text("system: herocard\nattribute_cards:\n  - name: Odd\n    hero: Samuri\n    assumed: t\n")
    with pytest.raises(CatalogError) as ei:
        load_catalog("herocard", [pack], use_cache=False)
    assert "unknown hero 'Samuri' (did you mean 'Samurai'? Or declare a new hero in the pack" in ei.value.lines()[0]


# -- rules core: the rulebook's worked examples ----------------------------------------------------


def test_attack_from_above_with_stone_falls_through_water(book):
    # 004:991-1001 Attack 4 + Attack Mod +5 = 9
    cards = [book.find("action_cards", "Attack from Above"), book.find("action_cards", "Stone Falls through Water")]
    assert R.attack_value(cards) == 9


def test_block_examples(book):
    ud, eb, cb = (book.find("action_cards", n) for n in ("Unbroken Defense", "Efficient Block", "Cross Block"))
    assert R.block_value([ud]) == 9  # 004:1088
    assert R.block_value([ud, eb]) == 13  # 004:1090-1092
    assert R.block_value([ud, cb]) == 14  # 004:1100-1102
    assert R.block_value([cb, ud, eb]) == 18  # 004:1104-1106


def test_attack_succeeds_only_when_it_exceeds_the_block():
    # 004:1060-1062: equal block fails the attack
    assert R.attack_succeeds(9, 8)
    assert not R.attack_succeeds(9, 9)
    assert not R.attack_succeeds(9, 13)


def test_mods_cannot_stand_alone():
    with pytest.raises(ValueError, match="Attack Mod cannot stand alone"):
        R.attack_value([("attack-mod", 5)])
    with pytest.raises(ValueError, match="Block Mod cannot stand alone"):
        R.block_value([("block-mod", 5)])
    with pytest.raises(ValueError, match="one Base Attack"):
        R.attack_value([("base-attack", 4), ("base-attack", 6)])
    assert R.attack_value([("base-attack", 4), ("special-attack", None)]) == 4


def test_one_exclusive_action_per_turn(cat):
    thrust = cat.find("action_cards", "Overhand Thrust")  # Exclusive, 3 B
    scores = {"body": 9, "mind": 7, "x": 8}
    assert R.can_play(thrust, scores, {}, own_turn=True, exclusives_played=0) == (True, "")
    ok, why = R.can_play(thrust, scores, {}, own_turn=True, exclusives_played=1)
    assert not ok and why == "only one Exclusive action per turn"
    ok, why = R.can_play(thrust, scores, {}, own_turn=False)
    assert not ok and "own Action Phase" in why
    assert R.exclusive_allowed(0) and not R.exclusive_allowed(1)
    block = cat.find("action_cards", "Efficient Block")  # Fast: any player's turn
    assert R.can_play(block, scores, {}, own_turn=False)[0]


def test_spent_attribute_points(cat):
    scores = {"body": 9, "mind": 7, "x": 8}
    spent = R.spend({}, 5, "body", scores)  # Unbroken Defense
    spent = R.spend(spent, 3, "body", scores)  # Overhand Thrust
    assert spent == {"body": 8} and R.free_points(9, spent["body"]) == 1
    with pytest.raises(ValueError, match="needs 10 of 9 Body points"):
        R.spend(spent, 2, "body", scores)
    ok, why = R.can_play(cat.find("action_cards", "Efficient Block"), scores, spent)
    assert not ok and why == "costs 2 B but only 1 Body points are free"
    assert R.clear(spent, 5, "body") == {"body": 3}
    assert not R.is_ever_playable(cat.find("action_cards", "Heaven Splitter"), scores)


def test_hero_points(cat):
    cards = [cat.find("attribute_cards", n) for n in ("Warrior's Strength", "Scholar's Wisdom", "Honor's Power")]
    assert R.hero_points(cards) == 30
    assert R.attribute_scores(cards) == {"body": 9, "mind": 7, "x": 8}
    assert R.hero_points([load_catalog("herocard").find("attribute_cards", "Warrior's Strength")]) is None


# -- heroes -------------------------------------------------------------------------------------------


def test_examples_exist_and_are_legal_without_warnings():
    assert EXAMPLES
    for path in EXAMPLES:
        res = check_file(path)
        assert res.legal, [f.format() for f in res.findings]
        assert not res.has_warnings(), [f.format() for f in res.findings]
        assert res.summary["hero_points"] <= res.summary["max_hero_points"]
        assert res.summary["action_cards"] >= 20


def _expectations(path: Path) -> dict:
    out = {"also": []}
    for line in path.read_text().splitlines():
        m = re.match(r"# (expect(?:-exit|-line)?|also): (.*)$", line)
        if m:
            if m.group(1) == "also":
                out["also"].append(tuple(m.group(2).split()))
            else:
                out[m.group(1)] = m.group(2)
    return out


CASES = sorted(DATA.glob("*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_failing_lists(path, cli):
    exp = _expectations(path)
    assert "expect" in exp or "expect-exit" in exp, f"{path.name} says what it expects"
    old = os.getcwd()
    os.chdir(path.parent)
    try:
        res = cli("check", path.name, "--format", "json")
    finally:
        os.chdir(old)
    if "expect-exit" in exp:
        assert res.code == int(exp["expect-exit"]), res
        want = exp["expect-line"]
        lines = res.stderr.strip().splitlines()
        assert any(ln == want or ln.startswith(want + " (") for ln in lines), (want, lines)
        return
    severity, code = exp["expect"].split()
    (doc,) = json.loads(res.stdout)
    codes = [(f["severity"], f["code"]) for f in doc["findings"] if f["severity"] != "info"]
    assert (severity, code) in codes, codes
    others = {c for c in codes if c[1] != code} - set(exp["also"])
    assert not others, others
    assert res.code == (1 if severity == "error" else 0)
    hit = next(f for f in doc["findings"] if f["code"] == code)
    assert hit["line"] >= 1
    assert code == "herocard.unknown-card" or hit["source"].startswith("004_80c161daf2b1fabf.txt:")


def test_findings_explain_themselves():
    (f,) = [f for f in check_file(DATA / "hero-points.yaml").findings if f.code == "herocard.hero-points-max"]
    assert (f.value, f.bound, f.message) == (30, 25, "hero points 30 > 25 (the agreed hero point limit)")
    assert f.counted == ["Warrior's Strength: 11", "Scholar's Wisdom: 9", "Honor's Power: 10"]
    (f,) = [f for f in check_file(DATA / "copies-max.yaml").findings if f.code == "herocard.copies-max"]
    assert (f.value, f.bound, f.path, f.line) == (7, 6, "deck.Overhand Thrust", 6)
    (f,) = [f for f in check_file(DATA / "cost-exceeds.yaml").findings if f.code == "herocard.cost-exceeds-score"]
    assert f.message == "'Heaven Splitter' costs 11 B but the hero's Body score is 9: it can never be played"
    (f,) = [f for f in check_file(DATA / "unknown-card.yaml").findings if f.code == "herocard.unknown-card"]
    assert f.message == "unknown action card 'Overhand Trust'; did you mean 'Overhand Thrust'?"


def test_glossary_reading_as_house_rule():
    res = check_file(DATA / "deck-min-30.yaml")
    assert res.house_rules["min_action_cards"] == 30 and res.house_rules_agreed == {"min_action_cards": 30}
    (f,) = [f for f in res.findings if f.code == "herocard.deck-min"]
    assert (f.value, f.bound) == (24, 30)


def test_list_limit_is_reported_as_agreed(cli):
    res = cli("check", str(DATA / "hero-points.yaml"))
    assert "max_hero_points=25 (agreed)" in res.stdout


def test_cli_output_reads_well(cli):
    res = cli("check", *map(str, EXAMPLES))
    assert res.code == 0, res
    assert res.stdout.splitlines()[0].endswith(': herocard "Samurai of the Rising Sun": legal (0 errors, 0 warnings)')
    assert "hero_points 30, max_hero_points 30, action_cards 26" in res.stdout


def test_json_summary(cli):
    res = cli("check", str(EXAMPLES[0]), "--format", "json")
    (doc,) = json.loads(res.stdout)
    assert doc["legal"] and doc["summary"]["hero_points"] == 30 and doc["summary"]["action_cards"] == 26


# -- properties ---------------------------------------------------------------------------------------

DECK = {
    "Overhand Thrust": 3,
    "Attack from Above": 4,
    "Thunder Stroke": 7,
    "Efficient Block": 3,
    "Heaven Splitter": 1,
    "Cross Block": 2,
    "Distracting Smile": 1,
}
ATTRS = ["Warrior's Strength", "Iron Body", "Honor's Power"]


def _hero_text(deck: dict, attrs: list) -> str:
    lines = [
        "system: herocard",
        f"packs: ['{PACK}']",
        "attributes: [" + ", ".join(f'"{a}"' for a in attrs) + "]",
        "deck:",
    ]
    lines += [f'  "{k}": {v}' for k, v in deck.items()]
    return "\n".join(lines) + "\n"


def _key(res):
    return (res.legal, res.summary, sorted((f.code, f.severity, f.message) for f in res.findings))


@settings(max_examples=examples(25))
@given(st.permutations(list(DECK.items())), st.permutations(ATTRS))
def test_card_order_never_changes_the_result(deck, attrs):
    a = check_text(_hero_text(DECK, ATTRS))
    b = check_text(_hero_text(dict(deck), list(attrs)))
    assert _key(a) == _key(b)


@settings(max_examples=examples(40))
@given(st.lists(st.tuples(st.sampled_from(["base-block", "block-mod"]), st.integers(0, 20)), max_size=6))
def test_block_value_is_order_free(cards):
    try:
        v = R.block_value(cards)
    except ValueError:
        assert not any(k == "base-block" for k, _ in cards)
        return
    assert v == R.block_value(list(reversed(cards))) == sum(x for _, x in cards)


yaml_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=8)),
    lambda ch: st.one_of(st.lists(ch, max_size=3), st.dictionaries(st.text(max_size=8), ch, max_size=3)),
    max_leaves=8,
)


@settings(max_examples=examples(60))
@given(
    st.dictionaries(
        st.sampled_from(["hero", "max_hero_points", "attributes", "deck", "decks", "house_rules"]),
        yaml_values,
        max_size=5,
    )
)
def test_bad_input_never_raises(body):
    doc = {"system": "herocard", "packs": [str(PACK)], **body}
    try:
        res = check_text(json.dumps(doc))
    except ListError as exc:
        assert exc.lines()
        return
    except DaimyoError:
        return
    assert isinstance(res.legal, bool)
    assert "hero_points" in res.summary and "action_cards" in res.summary


def test_action_card_model_is_strict():
    with pytest.raises(ValueError):  # pydantic's ValidationError
        ActionCard(name="X", assumed="t", colour="red")


# -- a Treasure is not an action card (004:294-300, 004:1211-1217) --------------------------------

TREASURE_DECK = """system: herocard
packs: [{pack}]
attributes: [Warrior's Strength, Scholar's Wisdom, Honor's Power]
deck:
  Overhand Thrust: 6
  Attack from Above: 6
  Efficient Block: 6
  Cross Block: {last}
  An Heir: 1
"""


def test_a_treasure_in_the_action_deck_is_named_a_treasure_and_not_counted(tmp_path):
    # 20 action cards and the Treasure "An Heir": the Treasure is no action card
    res = check_text(TREASURE_DECK.format(pack=PACK, last=2), str(tmp_path / "hero.yaml"))
    (f,) = res.findings
    assert f.code == "herocard.not-action-card" and f.severity == "error"
    assert f.message == (
        "'An Heir' is a Treasure card, not an action card: Treasures are drawn from their own deck "
        "when a Hero searches a Shrine; remove it from 'deck'"
    )
    assert "unknown" not in f.message and "add it in a pack" not in f.message
    assert f.source == "004_80c161daf2b1fabf.txt:294-300, 004_80c161daf2b1fabf.txt:1211-1217"
    assert res.summary["action_cards"] == 20
    # 19 action cards and the Treasure: one short of the 20 an action deck holds
    res = check_text(TREASURE_DECK.format(pack=PACK, last=1), str(tmp_path / "hero.yaml"))
    (f,) = [f for f in res.findings if f.code == "herocard.deck-min"]
    assert (f.value, f.bound) == (19, 20) and res.summary["action_cards"] == 19


def test_a_minimum_set_by_a_house_rule_cites_the_house_rule_s_lines():
    (f,) = [f for f in check_file(DATA / "deck-min-30.yaml").findings if f.code == "herocard.deck-min"]
    assert f.source == "004_80c161daf2b1fabf.txt:1316"  # "a deck of 30 or more Action Cards"
    assert f.message == (
        "action deck has 24 cards < 30 (the fewest an Action deck may hold, house rule min_action_cards=30)"
    )
    # the default reading cites the deck-building rule that says 20
    (f,) = [f for f in check_file(DATA / "deck-min.yaml").findings if f.code == "herocard.deck-min"]
    assert f.source.startswith("004_80c161daf2b1fabf.txt:1211-1217") and "house rule" not in f.message
