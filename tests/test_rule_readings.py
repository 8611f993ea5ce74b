"""Readings of the rules held to what the rulebooks say, each with a list at the bound.

A rule the rulebook does not state is never an error: a card that can never be played, a
card the catalog lacks data for and a Capital with a cost are warnings; Sato's "Leader" is an
ability, not leader rank; with ``leaders_exempt: caps_only`` the general counts toward the
melee minimum; a deck over the maximum is reported once.
"""

from __future__ import annotations

from builder.check import check_text


def codes(res, severity=None):
    return [f.code for f in res.findings if severity is None or f.severity == severity]


# -- HeroCard: a card costing more than the hero's score (004 lines 941-946) ---------------------

HERO = """system: herocard
hero: Samurai
packs: [herocard-example]
attributes: [Warrior's Strength, Scholar's Wisdom, Honor's Power]
deck:
  Overhand Thrust: 6
  Resounding Blow: 6
  Attack from Above: 6
  Efficient Block: 2
  {extra}
"""


def test_herocard_card_costing_more_than_the_score_is_a_warning_not_an_error(tmp_path):
    res = check_text(HERO.format(extra="Heaven Splitter: 1"), "hero.yaml", base_dir=tmp_path)
    f = next(f for f in res.findings if f.code == "herocard.cost-exceeds-score")
    assert f.severity == "warning" and "can never be played" in f.message
    assert f.value == 11 and f.bound == 9
    assert res.legal  # no deck rule forbids the card (004 lines 1211-1217)
    at_bound = check_text(HERO.format(extra=""), "hero.yaml", base_dir=tmp_path)
    assert "herocard.cost-exceeds-score" not in codes(at_bound)


# -- Senshiai: missing card data, Capital cost, deck maximum --------------------------------------

DECK = """system: senshiai
packs: [{pack}]
{size}cards:
  {capital}: 1
  Warriors: {warriors}
"""


def _pack(tmp_path, capital_cost="N", warriors_extra=""):
    (tmp_path / "cards.yaml").write_text(
        f"""system: senshiai
name: test cards
cards:
  - name: Test Capital
    type: terrain
    subtype: Capital
    cost: {capital_cost}
    paths: [Earth]
    limit: 3
    speed: 0
    power: 2/1/8
    assumed: test card
  - name: Half Card
    type: troop
    assumed: a card printed without its cost, speed, paths or power
""",
        encoding="utf-8",
    )
    return "cards.yaml"


def test_senshiai_card_missing_data_is_a_warning_naming_the_fields(tmp_path):
    pack = _pack(tmp_path)
    text = DECK.format(pack=pack, size="", capital="Test Capital", warriors=0).replace(
        "  Warriors: 0\n", "  Half Card: 2\n"
    )
    res = check_text(text, "deck.yaml", base_dir=tmp_path)
    f = next(f for f in res.findings if f.code == "senshiai.card-fields")
    assert f.severity == "warning"
    assert "'Half Card'" in f.message and "cost" in f.message and "speed" in f.message
    assert res.legal


def test_senshiai_capital_with_a_cost_is_a_warning(tmp_path):
    pack = _pack(tmp_path, capital_cost="I")
    text = DECK.format(pack=pack, size="", capital="Test Capital", warriors=0).replace("  Warriors: 0\n", "")
    res = check_text(text, "deck.yaml", base_dir=tmp_path)
    f = next(f for f in res.findings if f.code == "senshiai.capital-cost")
    assert f.severity == "warning" and res.legal
    res_n = check_text(text.replace("I\n", "N\n"), "deck.yaml", base_dir=tmp_path)
    assert "senshiai.capital-cost" not in codes(
        check_text(
            DECK.format(pack=_pack(tmp_path), size="", capital="Test Capital", warriors=0).replace(
                "  Warriors: 0\n", ""
            ),
            "deck.yaml",
            base_dir=tmp_path,
        )
    )
    assert res_n is not None


def test_senshiai_deck_over_the_maximum_is_reported_once(tmp_path):
    (tmp_path / "w.yaml").write_text(
        "system: senshiai\nname: w\ncards:\n  - {name: Test Capital, type: terrain, "
        "subtype: Capital, cost: N, paths: [Earth], limit: 3, speed: 0, power: 2/1/8, "
        "assumed: t}\n  - {name: Filler, type: troop, cost: I, paths: [Earth], limit: 1, "
        "speed: 1, power: 1/1/1, assumed: t}\n",
        encoding="utf-8",
    )
    over = "system: senshiai\npacks: [w.yaml]\nsize: 201\ncards:\n  Test Capital: 1\n  Filler: 200\n"
    res = check_text(over, "deck.yaml", base_dir=tmp_path)
    assert codes(res).count("senshiai.deck-max") == 1
    f = next(f for f in res.findings if f.code == "senshiai.deck-max")
    assert f.value == 201 and f.bound == 200
    at_bound = over.replace("size: 201", "size: 200").replace("Filler: 200", "Filler: 199")
    assert "senshiai.deck-max" not in codes(check_text(at_bound, "deck.yaml", base_dir=tmp_path))
    no_size = over.replace("size: 201\n", "")
    assert codes(check_text(no_size, "deck.yaml", base_dir=tmp_path)).count("senshiai.deck-max") == 1


# -- Kensei: Sato, The Protector, caps_only (001 lines 7295-7315, 5889-5894) ----------------------

KUROI = """system: kensei
clan: kuroi-te
points: 200
troops:
  - troop: Taisho Samurai
  - troop: Kogen
  - troop: Sato
{sato_led}  - troop: Yurei Naginata
    models: 5
    led_by: Kogen
  - troop: Ashigaru Yari
    models: 10
"""


def test_sato_is_not_a_leader_so_taisho_kogen_and_sato_keep_to_two_leaders():
    res = check_text(KUROI.format(sato_led=""), "army.yaml")
    assert "kensei.leaders-max" not in codes(res)
    summary_leaders = res.summary.get("leaders")
    assert summary_leaders == 2  # Taisho Samurai and Kogen: the bound at 200 AP
    f = next(f for f in res.findings if f.code == "kensei.the-protector")
    assert f.severity == "info" and "Yurei Naginata" in f.message


def test_the_protector_sato_goes_with_kogen():
    res = check_text(KUROI.format(sato_led="    led_by: Taisho Samurai\n"), "army.yaml")
    f = next(f for f in res.findings if f.code == "kensei.the-protector")
    assert f.severity == "error" and "Kogen" in f.message


CAPS = """system: kensei
clan: buke
points: 200
packs: [p.yaml]
house_rules: {{leaders_exempt: {reading}}}
troops:
  - troop: Taisho Buke
  - troop: Samurai Yari
    models: {yari}
  - troop: Yumi Samurai
    models: 4
"""


def test_caps_only_counts_the_hero_general_toward_the_melee_minimum(tmp_path):
    (tmp_path / "p.yaml").write_text(
        "system: kensei\nname: p\ntroops:\n  - {name: Taisho Buke, weapons: [Katana]}\n", encoding="utf-8"
    )
    # 6 Samurai Yari = 30 AP of warriors; with the 20 AP general 50 AP = 25% of 200 AP, the bound
    caps = check_text(CAPS.format(reading="caps_only", yari=6), "army.yaml", base_dir=tmp_path)
    assert "kensei.melee-min" not in codes(caps), [f.format() for f in caps.findings]
    below = check_text(CAPS.format(reading="caps_only", yari=5), "army.yaml", base_dir=tmp_path)
    f = next(f for f in below.findings if f.code == "kensei.melee-min")
    assert f.value == 45 and f.bound == 50
    default = check_text(CAPS.format(reading="all_type_limits", yari=6), "army.yaml", base_dir=tmp_path)
    assert next(f for f in default.findings if f.code == "kensei.melee-min").value == 30
