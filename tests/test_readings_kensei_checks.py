"""Kensei checks written in Python, each at the reading's edge: the army general of a pack's troop
without a ``general`` field, the melee warriors by house rule, a unit leader not in the list,
peasants bought as a bonus, and the Onmyouji's realm (rulebook 001, lines cited per test)."""

from builder.catalog.loader import load_catalog
from builder.check import check_doc, check_text
from builder.lists.document import parse_list
from builder.lists.dump import dump_list_yaml
from tests.test_kensei_rules import BUKE, KUROI, PACK

# pack troops that say their class and leader rank but not whether they may be the general
TROOPS = """system: kensei
name: club
troops:
  - {name: Club Hero, clans: [buke], cost: 20, troop_class: H, leader: true, troop_type: infantry,
     titles: [Samurai], weapons: [Katana], living: true, assumed: test fixture}
  - {name: Club Officer, clans: [buke], cost: 10, troop_class: E, leader: true, troop_type: infantry,
     titles: [Samurai], weapons: [Katana], living: true, assumed: test fixture}
"""
# a club's rule on the ``general`` fact: no troop that may be the general
NO_GENERAL = """restrictions:
  - id: no-general
    name: No general
    code: no-general
    label: troops that may be the general
    count: units
    of: {general: true}
    max: 0
    assumed: a house rule of our club
"""


def _army(*troops, general=None, hr=""):
    lines = ["system: kensei", "clan: buke", "points: 200"] + ([f"general: {general}"] if general else [])
    lines += [hr] if hr else []
    lines += ["troops:"] + [f"  - troop: {t}" for t in troops]
    lines += ["  - troop: Yari Ashigaru", "    models: 9", "  - troop: Samurai Yari", "    models: 5"]
    return "\n".join(lines) + "\n"


def _codes(res):
    return [f.code for f in res.findings]


def test_a_hero_with_leader_rank_is_the_general_and_an_elite_leader_is_not(tmp_path):
    # "First select one of your clan heroes. This miniature will be your army general" (5869-5871):
    # a class H troop with leader rank may be the general; a class E one with leader rank may not
    pack = tmp_path / "club.yaml"
    pack.write_text(TROOPS)
    hero = check_text(_army("Club Hero"), "army.yaml", extra_packs=[str(pack)])
    assert not [c for c in _codes(hero) if c.startswith("kensei.general")]
    officer = check_text(
        _army("Club Hero", "Club Officer", general="Club Officer"), "army.yaml", extra_packs=[str(pack)]
    )
    (f,) = [f for f in officer.findings if f.code == "kensei.general-not-hero"]
    assert f.message == "the general 'Club Officer' must be a Hero with leader rank (class E)"


def test_the_general_fact_of_a_pack_troop_follows_its_class(tmp_path):
    pack = tmp_path / "club.yaml"
    pack.write_text(TROOPS + NO_GENERAL)
    catalog = load_catalog("kensei", [str(pack)])
    hero = check_doc(parse_list(_army("Club Hero"), "army.yaml"), catalog=catalog)
    (f,) = [f for f in hero.findings if f.code == "kensei.no-general"]
    assert f.value == 1 and f.bound == 0
    officer = check_doc(
        parse_list(
            _army("Taisho Buke", "Club Officer", general="Taisho Buke").replace("  - troop: Taisho Buke\n", ""),
            "army.yaml",
        ),
        catalog=catalog,
    )
    assert "kensei.no-general" not in _codes(officer)


def test_elites_count_as_melee_warriors_unless_the_house_rule_says_warriors_only():
    # "Warrior infantry with hand to hand weapons ... at least a 25%" (5893-5899): Elites count too
    # by default (house rule melee_warrior_classes); Samurai Hatamoto is an Elite with a Katana, 15 AP
    doc = {**BUKE, "troops": [*BUKE["troops"], {"troop": "Samurai Hatamoto", "models": 2}]}
    default = check_text(dump_list_yaml(doc), "army.yaml", extra_packs=[PACK])
    only = check_text(
        dump_list_yaml({**doc, "house_rules": {"melee_warrior_classes": "warrior_only"}}),
        "army.yaml",
        extra_packs=[PACK],
    )
    assert default.summary["melee"] == only.summary["melee"] + 30


def test_a_unit_leader_must_be_in_the_list():
    # a leader included "as a unit leader" (1839-1845) is one of the army's troops
    led = [
        {"troop": "Taisho Buke"},
        {"troop": "Samurai Yari", "models": 5, "led_by": "Taisho Buke"},
        *BUKE["troops"][2:],
    ]
    res = check_text(dump_list_yaml({**BUKE, "troops": led}), "army.yaml", extra_packs=[PACK])
    assert "kensei.led-by-unknown" not in _codes(res)
    led[1] = {**led[1], "led_by": "Taisho Samurai"}  # a leader of the catalog, not of this list
    res = check_text(dump_list_yaml({**BUKE, "troops": led}), "army.yaml", extra_packs=[PACK])
    (f,) = [f for f in res.findings if f.code == "kensei.led-by-unknown"]
    assert f.message.startswith("Samurai Yari: unit leader 'Taisho Samurai' is not in the list")


def test_peasants_as_a_bonus_pay_for_the_fewest_models():
    # "two villagers for every five points spent on them" (5938-5939) read as a bonus: 2 peasants
    # at 2.5 AP bring 2 more (4 for 5 AP); the fifth is paid (7.5 AP for 5), and the sixth (10 AP)
    for models, cost in ((4, 5), (5, 7.5), (6, 10)):
        doc = {
            **BUKE,
            "house_rules": {"peasant_purchase": "bonus"},
            "troops": [*BUKE["troops"], {"troop": "Peasants", "models": models}],
        }
        res = check_text(dump_list_yaml(doc), "army.yaml", extra_packs=[PACK])
        assert res.summary["troops"] == 200 + cost, models


def test_the_onmyouji_realm_limits_the_creatures():
    # "you can only include profiles that are aligned to a specific realm" (4917-4922, house rule
    # onmyouji_realm_limits_troops): Jikininki and an Onmyouji of its realm, then of another
    def realm_findings(onmyouji):
        doc = {
            **KUROI,
            "house_rules": {"onmyouji_realm_limits_troops": True},
            "troops": [*KUROI["troops"], {"troop": onmyouji}],
        }
        res = check_text(dump_list_yaml(doc), "army.yaml", extra_packs=[PACK])
        return [f.message for f in res.findings if f.code == "kensei.onmyouji-realm"]

    assert realm_findings("Onmyouji of Death") == []
    assert realm_findings("Infernal Onmyouji") == ["Jikininki is a death creature; the Onmyouji's realm is infernal"]


def test_a_hata_jurushi_is_deployed_inside_a_unit():
    # "They must be deployed inside a unit" (5941-5944): a unit's 'standard: true', not an entry
    def outside(extra):
        doc = {
            **BUKE,
            "troops": [{**BUKE["troops"][1], "standard": True}, BUKE["troops"][0], *BUKE["troops"][2:], *extra],
        }
        res = check_text(dump_list_yaml(doc), "army.yaml", extra_packs=[PACK])
        return [f.severity for f in res.findings if f.code == "kensei.standard-outside-unit"]

    assert outside([]) == []
    assert outside([{"troop": "Hata-Jurushi"}]) == ["error"]


def test_command_cards_in_hand_by_battle_size():
    # "200 to 399 4 command cards, 400 to 599 5, 600 or more 6" (4419-4435); below 200, the first band
    from builder.games.kensei.rules import hand_size

    catalog = load_catalog("kensei", [])
    got = {p: hand_size(catalog, p)[0] for p in (100, 199, 200, 399, 400, 599, 600, 1000)}
    assert got == {100: 4, 199: 4, 200: 4, 399: 4, 400: 5, 599: 5, 600: 6, 1000: 6}


def test_percentages_are_exact_or_to_one_decimal():
    # the summary's percentages of the battle size: a whole number when exact, else one decimal
    from builder.games.kensei.rules import _percent

    assert [_percent(v, lim) for v, lim in ((50, 200), (125, 200), (1, 3), (2, 3), (199, 201))] == [
        25,
        62.5,
        33.3,
        66.7,
        99.0,
    ]
    assert type(_percent(50, 200)) is int


def _table(doc, packs=()):
    from builder.games.kensei import rules as kensei

    catalog = load_catalog("kensei", [PACK, *packs])
    lst, found = kensei.load_list(parse_list(dump_list_yaml(doc), "army.yaml"), catalog)
    rules = catalog.default_rules()
    found = found + kensei.check(lst, catalog, rules)
    rows = {r["id"]: r for r in kensei.limit_table(lst, catalog, rules, found)}
    return rows, kensei.points_by(lst, catalog, rules, "class")


def test_the_roster_s_limits_table_at_and_past_a_unit_size():
    # a unit of 16 infantry is one past "15 for infantry units" (5921-5922): the row fails, naming
    # the largest unit; the smallest unit is named against the minimum of 3 (5919-5920)
    doc = {**BUKE, "troops": [BUKE["troops"][0], {"troop": "Samurai Yari", "models": 16}, *BUKE["troops"][2:]]}
    rows, by_class = _table(doc)
    assert (rows["unit-size-max"]["value"], rows["unit-size-max"]["status"]) == ("highest 16 models", "FAIL")
    assert (rows["unit-size-min"]["value"], rows["unit-size-min"]["status"]) == ("lowest 4 models", "pass")
    # the skirmisher row shares the finding code but not its bound: its own row passes
    assert rows["unit-size-max-skirmisher"]["status"] == "pass"
    assert (rows["leaders-max"]["value"], rows["leaders-max"]["status"]) == ("1 leader", "pass")
    # one leader is the minimum at 200 AP (6091-6101): on the bound the row passes; none fails it
    assert (rows["leaders-min"]["value"], rows["leaders-min"]["status"]) == ("1 leader", "pass")
    assert rows["leaders-min"]["bound"] == "\u2265 1 per 200 AP of 200 AP rounded up = 1"
    none = _table({**doc, "troops": doc["troops"][1:]})[0]["leaders-min"]
    assert (none["value"], none["status"]) == ("0 leaders", "FAIL")
    # a bound of points is in AP, a bound of models a bare number
    assert rows["melee-min"]["bound"] == "\u2265 25% of 200 AP = 50 AP"
    assert rows["unit-size-max"]["bound"] == "\u2264 15"
    assert rows["units-max"]["value"] == "4 units"
    assert rows["melee-min"]["value"] == "175 AP"
    assert by_class == {"h": 20, "w": 235}
    at = {**doc, "troops": [BUKE["troops"][0], {"troop": "Samurai Yari", "models": 15}, *BUKE["troops"][2:]]}
    assert _table(at)[0]["unit-size-max"]["status"] == "pass"


def test_the_limits_table_names_the_checks_written_in_code():
    # no Hero to be the general (5869-5871): a failing row of its own; an info alone adds no row
    doc = {**BUKE, "troops": BUKE["troops"][1:]}
    rows, _ = _table(doc)
    assert rows["kensei.general-missing"]["status"] == "FAIL"
    assert rows["kensei.general-missing"]["label"] == "General missing"
    assert not [k for k in rows if k.startswith("kensei.") and rows[k]["status"] == "pass"]


def test_the_summary_follows_the_house_rules_it_is_given():
    # a list checked under the default rules, summed up under warrior_only (5893-5899): the
    # Elite's 30 AP leave the melee warriors; under the same rules the summary is the check's
    from builder.games.kensei import rules as kensei

    catalog = load_catalog("kensei", [PACK])
    doc = {**BUKE, "troops": [*BUKE["troops"], {"troop": "Samurai Hatamoto", "models": 2}]}
    lst, _ = kensei.load_list(parse_list(dump_list_yaml(doc), "army.yaml"), catalog)
    rules = catalog.default_rules()
    kensei.check(lst, catalog, rules)
    same = kensei.summary(lst, catalog, dict(rules))["melee"]
    only = kensei.summary(lst, catalog, {**rules, "melee_warrior_classes": "warrior_only"})["melee"]
    assert same == only + 30


# a club's rule with a bound for big battles only: below 600 AP it cannot be applied
BIG_BATTLES = """system: kensei
restrictions:
  - id: big-units
    name: Units in big battles
    code: big-units
    label: units
    count: units
    of: {unit: true}
    max:
      table:
        - {min: 600, value: 9}
    assumed: a house rule of our club
"""
# the same finding code on a rule that applies at every size: its row is to check by hand too
ANY_BATTLE = """  - id: any-units
    name: Units in any battle
    code: big-units
    label: units
    count: units
    of: {unit: true}
    max: 9
    assumed: a house rule of our club
"""


def test_a_rule_that_cannot_be_applied_is_checked_by_hand(tmp_path):
    pack = tmp_path / "big.yaml"
    pack.write_text(BIG_BATTLES)
    rows, _ = _table(BUKE, packs=[str(pack)])  # no bound at 200 AP: a row of its warning, to check
    assert "big-units" not in rows
    assert rows["kensei.big-units"]["status"] == "check"
    assert rows["kensei.big-units"]["value"].endswith("(no table row for 200 AP); check it by hand")
    rows, _ = _table({**BUKE, "points": 600}, packs=[str(pack)])
    assert rows["big-units"]["status"] == "pass" and "kensei.big-units" not in rows
    pack.write_text(BIG_BATTLES + ANY_BATTLE)
    rows, _ = _table(BUKE, packs=[str(pack)])
    assert rows["any-units"]["status"] == "check"
    rows, _ = _table({**BUKE, "points": 600}, packs=[str(pack)])
    assert rows["any-units"]["status"] == "pass"
