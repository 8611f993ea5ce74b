"""The card games' bounds, each with a list at the bound and one just past it.

Senshiai: one Capital, at most 200 cards, the agreed size (000:17, 000:64); HeroCard: three
attribute cards, at most 30 hero points, at least 20 action cards, at most six copies
(004:1204-1228, 004:1253); Satsuma: a deck holds at least one hand of seven (003:35, 003:37).
"""

from pathlib import Path

import pytest

from builder.check import check_text

ROOT = Path(__file__).resolve().parent.parent
SENSHIAI_PACK = ROOT / "examples" / "packs" / "senshiai-example.yaml"
HERO_PACK = ROOT / "examples" / "packs" / "herocard-example.yaml"


def _errors(res):
    return {f.code for f in res.findings if f.severity == "error"}


# -- Senshiai -------------------------------------------------------------------------------------


def _deck(cards: dict, size=None, rules=None):
    lines = ["system: senshiai", f"packs: ['{SENSHIAI_PACK}']"]
    if size is not None:
        lines.append(f"size: {size}")
    if rules:
        lines.append("house_rules: {" + ", ".join(f"{k}: {v}" for k, v in rules.items()) + "}")
    lines += ["cards:"] + [f"  {k}: {v}" for k, v in cards.items()]
    return check_text("\n".join(lines) + "\n")


def _senshiai(total: int) -> dict:
    return {"Capital of the North": 1, "Rice Fields": 9, "Warriors": total - 10}


@pytest.mark.parametrize("total,legal", [(200, True), (201, False)])
def test_senshiai_most_cards(total, legal):
    res = _deck(_senshiai(total))
    assert ("senshiai.deck-max" not in _errors(res)) is legal
    assert res.legal is legal


@pytest.mark.parametrize("size,legal", [(200, True), (201, False)])
def test_senshiai_agreed_size_at_most_200(size, legal):
    res = _deck(_senshiai(size), size=size)
    assert ("senshiai.deck-max" not in _errors(res)) is legal


@pytest.mark.parametrize("held,legal", [(49, False), (50, True), (51, False)])
def test_senshiai_agreed_size_is_met_exactly(held, legal):
    res = _deck(_senshiai(held), size=50)
    assert ("senshiai.deck-size" not in _errors(res)) is legal


@pytest.mark.parametrize("most,total,legal", [(60, 60, True), (60, 61, False)])
def test_senshiai_house_rule_most_cards(most, total, legal):
    res = _deck(_senshiai(total), rules={"max_deck_cards": most})
    assert ("senshiai.deck-max" not in _errors(res)) is legal


@pytest.mark.parametrize("capitals,legal", [(0, False), (1, True), (2, False)])
def test_senshiai_exactly_one_capital(capitals, legal):
    cards = {"Rice Fields": 9, "Warriors": 40}
    if capitals:
        cards["Capital of the North"] = capitals
    assert ("senshiai.capital-count" not in _errors(_deck(cards))) is legal


# -- HeroCard -------------------------------------------------------------------------------------

POINTS = """\
system: herocard
name: hero point probes
version: "1"
attribute_cards:
  - {{name: Probe Body, hero: Samurai, attribute: body, score: 9, hero_points: {body}, assumed: a test card}}
  - {{name: Probe Mind, hero: Samurai, attribute: mind, score: 7, hero_points: 10, assumed: a test card}}
  - {{name: Probe X, hero: Samurai, attribute: x, score: 8, hero_points: 10, assumed: a test card}}
"""
DECK = {"Overhand Thrust": 4, "Attack from Above": 4, "Thunder Stroke": 4, "Efficient Block": 4, "Cross Block": 4}


def _hero(tmp_path, deck=DECK, body=10, attrs=("Probe Body", "Probe Mind", "Probe X"), rules=None):
    pack = tmp_path / "probes.yaml"
    pack.write_text(POINTS.format(body=body))
    lines = [
        "system: herocard",
        f"packs: ['{HERO_PACK}', '{pack}']",
        "attributes: [" + ", ".join(f'"{a}"' for a in attrs) + "]",
    ]
    if rules:
        lines.append("house_rules: {" + ", ".join(f"{k}: {v}" for k, v in rules.items()) + "}")
    lines += ["deck:"] + [f'  "{k}": {v}' for k, v in deck.items()]
    return check_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("body,legal", [(10, True), (11, False)])
def test_herocard_hero_points_at_most_30(tmp_path, body, legal):
    res = _hero(tmp_path, body=body)  # 10 + 10 + body
    assert ("herocard.hero-points-max" not in _errors(res)) is legal
    assert res.legal is legal


@pytest.mark.parametrize("limit,legal", [(30, True), (29, False)])
def test_herocard_agreed_hero_point_limit(tmp_path, limit, legal):
    res = _hero(tmp_path, rules={"max_hero_points": limit})
    assert ("herocard.hero-points-max" not in _errors(res)) is legal


@pytest.mark.parametrize("blocks,legal", [(4, True), (3, False)])
def test_herocard_at_least_20_action_cards(tmp_path, blocks, legal):
    res = _hero(tmp_path, deck={**DECK, "Cross Block": blocks})  # 16 + blocks
    assert ("herocard.deck-min" not in _errors(res)) is legal


@pytest.mark.parametrize("most,blocks,legal", [(24, 8, True), (24, 7, False)])
def test_herocard_house_rule_action_cards(tmp_path, most, blocks, legal):
    res = _hero(
        tmp_path,
        deck={**DECK, "Overhand Thrust": 6, "Attack from Above": 6, "Cross Block": blocks - 4, "Efficient Block": 4},
        rules={"min_action_cards": most},
    )
    assert ("herocard.deck-min" not in _errors(res)) is legal


@pytest.mark.parametrize("copies,legal", [(6, True), (7, False)])
def test_herocard_at_most_six_copies(tmp_path, copies, legal):
    res = _hero(tmp_path, deck={**DECK, "Overhand Thrust": copies})
    assert ("herocard.copies-max" not in _errors(res)) is legal


@pytest.mark.parametrize(
    "attrs,legal",
    [
        (("Probe Body", "Probe Mind", "Probe X"), True),
        (("Probe Body", "Probe Mind"), False),
        (("Probe Body", "Probe Mind", "Probe X", "Iron Body"), False),
    ],
)
def test_herocard_exactly_three_attribute_cards(tmp_path, attrs, legal):
    res = _hero(tmp_path, attrs=attrs)
    assert ("herocard.attribute-count" not in _errors(res)) is legal


def test_herocard_cost_at_the_score_is_playable_one_past_is_not(tmp_path):
    # Probe Body gives Body 9 (004:941-946): a Body card costing 9 can be played, one costing 10 never
    pack = tmp_path / "costly.yaml"
    pack.write_text(
        "system: herocard\nname: cost probes\nversion: '1'\naction_cards:\n"
        "  - {name: Nine Cuts, kind: base-attack, value: 5, cost: 9, attribute: body, assumed: a test card}\n"
        "  - {name: Ten Cuts, kind: base-attack, value: 5, cost: 10, attribute: body, assumed: a test card}\n"
    )
    probes = tmp_path / "probes.yaml"
    probes.write_text(POINTS.format(body=10))
    for card, flagged in (("Nine Cuts", False), ("Ten Cuts", True)):
        lines = [
            "system: herocard",
            f"packs: ['{HERO_PACK}', '{probes}', '{pack}']",
            'attributes: ["Probe Body", "Probe Mind", "Probe X"]',
            "deck:",
        ]
        lines += [f'  "{k}": {v}' for k, v in {**DECK, card: 2}.items()]
        found = {f.code for f in check_text("\n".join(lines) + "\n").findings}
        assert ("herocard.cost-exceeds-score" in found) is flagged, card


# -- Satsuma --------------------------------------------------------------------------------------

SIX = {"Bushido": 1, "Honor": 1, "Raiders": 1, "Takamori Saigo": 1, "Samurai Warriors": 1, "Foxholes": 1}


@pytest.mark.parametrize("extra,legal", [({}, False), ({"Break Out": 1}, True)])
def test_satsuma_a_deck_holds_at_least_one_hand(extra, legal):
    cards = {**SIX, **extra}
    text = "system: satsuma\nside: samurai\ncards: {" + ", ".join(f"{k}: {v}" for k, v in cards.items()) + "}\n"
    res = check_text(text)
    assert ("satsuma.deck-size" not in _errors(res)) is legal


# -- the range of every agreed house-rule number, at its ends and one past ---------------------------


def _ranges():
    from builder.yamlio import parse_yaml

    out = []
    for system in ("kensei", "senshiai", "herocard", "senji", "satsuma"):
        path = ROOT / "catalog" / system / "house_rules.yaml"
        data, _ = parse_yaml(path.read_text(encoding="utf-8"), str(path))
        for rule in data.get("house_rules", []):
            if rule.get("kind") not in ("number", "int"):
                continue
            for end, step in (("min", -1), ("max", 1)):
                if rule.get(end) is not None:
                    out.append((system, rule["id"], rule[end], rule[end] + step))
    return out


MINIMAL = {
    "kensei": "system: kensei\nclan: buke\npoints: 200\n{rules}troops:\n  - troop: Taisho Buke\n",
    "senshiai": "system: senshiai\n{rules}cards:\n  Warriors: 3\n",
    "herocard": "system: herocard\n{rules}attributes: [Warrior's Strength, Scholar's Wisdom, Honor's Power]\ndeck:\n  Overhand Thrust: 3\n",
    "senji": "system: senji\n{rules}players: []\n",
    "satsuma": "system: satsuma\nside: samurai\ndeck: standard\n{rules}",
}


# what may be agreed: a percentage from 0 to 100, a hand of 1 to 6 cards (the command deck's bands,
# 001:4424), and at least one card or hero point; written here, not read from the catalog under test
RANGES = [
    ("kensei", rule, end, end + step)
    for rule in ("melee_min_percent", "cavalry_max_percent", "skirmisher_max_percent", "creature_max_percent")
    for end, step in ((0, -1), (100, 1))
]
RANGES += [
    ("kensei", "hand_size_below_200", 1, 0),
    ("kensei", "hand_size_below_200", 6, 7),
    ("senshiai", "max_deck_cards", 1, 0),
    ("herocard", "min_action_cards", 1, 0),
    ("herocard", "max_hero_points", 1, 0),
]


def test_the_catalogs_declare_these_ranges():
    assert sorted(_ranges()) == sorted(RANGES)


@pytest.mark.parametrize("system,rule,end,past", RANGES, ids=lambda v: str(v))
def test_house_rule_numbers_are_agreed_within_their_range(cli, tmp_path, system, rule, end, past):
    for value, accepted in ((end, True), (past, False)):
        path = tmp_path / f"{value}.yaml"
        path.write_text(MINIMAL[system].format(rules=f"house_rules: {{{rule}: {value}}}\n"))
        r = cli("check", str(path))
        assert (r.code != 2) is accepted, (rule, value, r.stderr)
        if not accepted:
            assert f"'{rule}' must be at" in r.stderr


def test_every_numeric_house_rule_has_a_range():
    assert len(_ranges()) >= 10


def test_herocard_turn_numbers_are_the_rulebook_s():
    from builder.catalog.loader import load_catalog

    rules = load_catalog("herocard").model.deck_rules
    # hand of 7, draw 3 and clear 3 a turn, an opening hand of 7 (004:900-901, 004:913, 004:1244)
    assert (rules.hand_limit, rules.draw_per_turn, rules.clear_per_turn, rules.opening_hand) == (7, 3, 3, 7)


def test_senshiai_hand_size_is_the_rulebook_s():
    from builder.catalog.loader import load_catalog
    from builder.games.senshiai.rules import hand_size

    # "up to 6 cards in hand (the card cap)" (000:27)
    assert hand_size(load_catalog("senshiai")) == (6, "000_ac601013730960cf.txt:27")
