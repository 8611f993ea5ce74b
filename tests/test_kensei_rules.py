"""Kensei army-building rules: each rule broken alone gives its finding code; at the bound it passes.

Lists are built from the rulebook's sample lists (ARMY LIST SAMPLES, L6115-6248)
with one change each; troop profiles come from tests/data/kensei/troops-pack.yaml.
"""

import copy

import pytest

from builder.check import check_text
from builder.lists.dump import dump_list_yaml

from conftest import DATA, ROOT

PACK = str(DATA / "kensei" / "troops-pack.yaml")

KUGE = {
    "system": "kensei",
    "clan": "kuge",
    "points": 200,
    "troops": [
        {"troop": "Hero Kuge Naginata"},
        {"troop": "Yari Ashigaru", "models": 10},
        {"troop": "Onna-Bushi", "models": 5},
        {"troop": "Ninja Shinobigatana", "models": 5},
        {"troop": "Ashigaru Teppo", "models": 5},
    ],
}
BUKE = {
    "system": "kensei",
    "clan": "buke",
    "points": 200,
    "troops": [
        {"troop": "Taisho Buke"},
        {"troop": "Samurai Yari", "models": 5},
        {"troop": "Yari Ashigaru", "models": 9},
        {"troop": "Samurai Dai-Katana", "models": 5},
        {"troop": "Yumi Samurai", "models": 4},
    ],
}
SOHEI = {
    "system": "kensei",
    "clan": "sohei",
    "points": 200,
    "troops": [
        {"troop": "Hero Sohei Katana"},
        {"troop": "Ikame Bo"},
        {"troop": "Monk Naginata", "models": 5},
        {"troop": "Yari Ashigaru", "models": 10},
        {"troop": "Monk Teppo", "models": 3},
        {"troop": "Ashigaru Sling", "models": 5},
    ],
}
OTOKODATE = {
    "system": "kensei",
    "clan": "otokodate",
    "points": 200,
    "commander": "daimyo",
    "troops": [
        {"troop": "Taisho Otokodate"},
        {"troop": "Assassin"},
        {"troop": "Yari Ashigaru", "models": 10},
        {"troop": "Otokodate Ashigaru Katana", "models": 10},
        {"troop": "Ozutzu Cannon", "models": 5},
    ],
}
KUROI = {
    "system": "kensei",
    "clan": "kuroi-te",
    "points": 200,
    "commander": "taisho",
    "troops": [
        {"troop": "Taisho Samurai"},
        {"troop": "Tenome"},
        {"troop": "Yurei Naginata", "models": 5},
        {"troop": "Ashigaru Yari", "models": 10},
        {"troop": "Jikininki", "models": 5},
    ],
}
SAMPLES = {
    "kuge": (KUGE, 195),
    "buke": (BUKE, 200),
    "sohei": (SOHEI, 200),
    "otokodate": (OTOKODATE, 200),
    "kuroi-te": (KUROI, 200),
}


def run(doc, packs=(PACK,)):
    return check_text(dump_list_yaml(doc), "list.yaml", extra_packs=list(packs))


def codes(res, severity=None):
    return sorted(f.code for f in res.findings if severity is None or f.severity == severity)


def edit(doc, **changes):
    d = copy.deepcopy(doc)
    d.update(changes)
    return d


def troops(doc, *items):
    return edit(doc, troops=[dict(t) if isinstance(t, dict) else {"troop": t} for t in items])


@pytest.mark.parametrize("clan", list(SAMPLES))
def test_sample_lists_are_legal_with_the_printed_totals(clan):
    doc, total = SAMPLES[clan]
    res = run(doc)
    assert res.findings == [], [f.format() for f in res.findings]
    assert res.summary["points"] == total
    assert res.summary["limit"] == 200


# -- each rule: broken alone (exact code), and at the bound (passes) ---------------------------------


def only(res, code):
    assert codes(res) == [code], [f.format() for f in res.findings]
    return next(f for f in res.findings if f.code == code)


def test_points_max():
    f = only(run(edit(BUKE, points=199)), "kensei.points-max")
    # 199 AP is below the unit/leader table steps, so only the total breaks
    assert (f.value, f.bound) == (200, 199)
    assert f.message == "total (troops plus commander level) 200 AP > 199 AP (the battle size)"
    assert run(BUKE).legal


def test_points_max_counts_the_commander_level():
    f = only(run(edit(BUKE, commander="taisho")), "kensei.points-max")
    assert (f.value == 210 and f.loc == ("commander",)) or f.value == 210
    assert "commander level Taisho: 10 AP" in f.counted
    assert run(edit(KUGE, commander="hatamoto")).legal


def test_ranged_max_message_matches_the_contract():
    # Sohei: ranged 95 AP; one more sling model (105) breaks 50% of 200; firearms unchanged
    doc = copy.deepcopy(SOHEI)
    doc["troops"][5]["models"] = 6
    doc["troops"][3]["models"] = 8  # keep the total at 200
    f = only(run(doc), "kensei.ranged-max")
    assert f.message == "ranged troops 105 AP > 50% of 200 AP = 100 AP"
    assert f.source == "001_dbcd2f61c1014419.txt:5962-5967"
    assert f.loc == ("troops", 5)
    assert (f.value, f.bound, f.base) == (105, 100, "50% of 200 AP")
    assert sorted(f.counted) == [
        "Ashigaru Sling (6 models, 60 AP) at troops[5]",
        "Monk Teppo (3 models, 45 AP) at troops[4]",
    ]


def test_ranged_at_the_bound_passes():
    doc = copy.deepcopy(SOHEI)
    doc["troops"][4]["models"] = 3
    doc["troops"][3]["models"] = 9  # 45
    doc["troops"][5]["models"] = 5  # ranged 95 -> add one Monk Naginata model
    doc["troops"][2]["models"] = 6  # total 200, ranged 95
    assert run(doc).legal


def test_firearms_max_and_at_the_bound():
    # Kuge sample has exactly 50 AP of firearms (25% of 200)
    assert run(KUGE).legal
    doc = copy.deepcopy(KUGE)
    doc["troops"][4]["models"] = 6  # 60 AP firearms
    doc["troops"][2]["models"] = 3  # keep total at 195
    f = only(run(doc), "kensei.firearms-max")
    assert f.message == "troops with firearms 60 AP > 25% of 200 AP = 50 AP"


def test_otokodate_firearms_40_percent():
    doc = copy.deepcopy(OTOKODATE)
    doc["troops"][4]["models"] = 8  # 80 AP firearms = 40%
    doc["troops"][3]["models"] = 4  # 20 AP; total 20+10+50+20+80+20 = 200
    assert run(doc).legal
    doc["troops"][4]["models"] = 9  # 90 AP
    doc["troops"][3]["models"] = 3
    doc["troops"][2]["models"] = 9  # total 20+10+45+15+90+20 = 200
    f = only(run(doc), "kensei.firearms-max")
    assert f.bound == 80 and "40% of 200 AP = 80 AP" in f.message
    # the same list for another clan uses 25%
    assert "kensei.firearms-max" in codes(run(edit(doc, clan="kuge")))


def test_melee_min():
    # Buke: melee 120; swap the melee units for archers -> below 50
    doc = troops(
        BUKE,
        "Taisho Buke",
        {"troop": "Samurai Yari", "models": 5},
        {"troop": "Yari Ashigaru", "models": 4},
        {"troop": "Yumi Samurai", "models": 4},
        {"troop": "Ashigaru Yumi", "models": 4},
    )
    f = only(run(doc), "kensei.melee-min")
    assert f.message == "melee infantry warriors 45 AP < 25% of 200 AP = 50 AP"
    assert f.loc == ("troops",)
    doc["troops"][2]["models"] = 5  # melee 50: at the bound
    assert run(doc).legal


def test_melee_min_house_rule_20_percent():
    doc = troops(
        BUKE,
        "Taisho Buke",
        {"troop": "Samurai Yari", "models": 5},
        {"troop": "Yari Ashigaru", "models": 4},
        {"troop": "Yumi Samurai", "models": 4},
        {"troop": "Ashigaru Yumi", "models": 4},
    )
    doc["house_rules"] = {"melee_min_percent": 20}
    try:
        res = run(doc)
    except Exception as exc:  # the catalog must define the parameter
        pytest.fail(f"house rule melee_min_percent not accepted: {exc}")
    assert res.legal
    assert res.house_rules["melee_min_percent"] == 20


def test_kuroi_te_inferior_creatures_count_as_warriors():
    # Only undead spectres... replace the Ashigaru Yari by more Jikininki: melee from creatures
    doc = troops(
        KUROI,
        "Taisho Samurai",
        {"troop": "Jikininki", "models": 5},
        {"troop": "Jikininki", "models": 5},
        {"troop": "Shikome", "models": 3},
    )
    doc["commander"] = "hatamoto"
    res = run(doc)
    assert "kensei.melee-min" not in codes(res)
    assert run(edit(doc, clan="buke")).findings  # elsewhere creatures are not warriors


def test_hattori_ranged_warriors_count_and_skirmishers_50():
    doc = {
        "system": "kensei",
        "clan": "hattori",
        "points": 200,
        "troops": [
            {"troop": "Hattori Hero"},
            {"troop": "Hattori Shuriken", "models": 5},
            {"troop": "Hattori Genin", "models": 5},
            {"troop": "Hattori Genin", "models": 5},
        ],
    }
    res = run(doc)  # skirmishers 100 AP = 50%, melee minimum met by shuriken warriors
    assert res.findings == [], [f.format() for f in res.findings]
    doc["troops"].append({"troop": "Hattori Kusarigama", "models": 3})
    doc["troops"][2]["models"] = 6  # would be 110 AP of skirmishers... max 5 per skirmisher unit
    assert "kensei.unit-size-max" in codes(run(doc))
    doc["troops"][2]["models"] = 5
    doc["troops"][1]["models"] = 4
    doc["troops"].append({"troop": "Shikome", "models": 3})  # over 200
    assert "kensei.points-max" in codes(run(doc))


def test_hattori_skirmishers_over_half():
    doc = {
        "system": "kensei",
        "clan": "hattori",
        "points": 200,
        "troops": [
            {"troop": "Hattori Hero"},
            {"troop": "Hattori Shuriken", "models": 5},
            {"troop": "Hattori Genin", "models": 5},
            {"troop": "Hattori Genin", "models": 5},
            {"troop": "Hattori Kunoichi", "models": 3},
        ],
    }
    f = only(run(doc), "kensei.skirmishers-max")
    assert f.message == "skirmishers (Hattori) 130 AP > 50% of 200 AP = 100 AP"
    del doc["troops"][4]
    assert run(doc).legal


def test_cavalry_max_and_house_rule():
    doc = troops(
        BUKE,
        "Taisho Buke",
        {"troop": "Mounted Samurai", "models": 5},
        {"troop": "Samurai Yari", "models": 10},
        {"troop": "Yari Ashigaru", "models": 6},
    )
    f = only(run(doc), "kensei.cavalry-max")  # 100 AP cavalry > 80
    assert f.message == "cavalry 100 AP > 40% of 200 AP = 80 AP"
    res = run(edit(doc, house_rules={"cavalry_max_percent": 50}))
    assert res.legal
    assert res.house_rules_agreed == {"cavalry_max_percent": 50}
    doc["troops"][1]["models"] = 4  # 80 AP: at the bound
    doc["troops"][3]["models"] = 10
    assert run(doc).legal


def test_skirmishers_max():
    doc = troops(
        KUGE,
        "Hero Kuge Naginata",
        {"troop": "Yari Ashigaru", "models": 10},
        {"troop": "Ninja Shinobigatana", "models": 5},
        {"troop": "Ninja Shinobigatana", "models": 3},
    )
    f = only(run(doc), "kensei.skirmishers-max")
    assert f.message == "skirmishers 80 AP > 35% of 200 AP = 70 AP"
    doc["troops"][2]["models"] = 4  # 70 AP: at the bound
    assert run(doc).legal
    assert run(edit(doc, house_rules={"skirmisher_max_percent": 25})).findings


def test_leaders_and_units_min_max():
    # no units at all
    res = run(troops(BUKE, "Taisho Buke"))
    assert codes(res) == ["kensei.melee-min", "kensei.units-min"]
    # three leaders at 200 AP
    doc = troops(
        SOHEI,
        "Hero Sohei Katana",
        "Ikame Bo",
        {"troop": "Monk Naginata", "models": 5},
        {"troop": "Yari Ashigaru", "models": 10},
        {"troop": "Ashigaru Sling", "models": 5},
    )
    doc["troops"].insert(2, {"troop": "Ashigaru Taisho"})
    f = only(run(doc), "kensei.leaders-max")
    assert f.message == "3 leaders > 1 per 100 AP of 200 AP rounded up, at least 2 = 2"
    # five units at 200 AP
    doc = troops(
        KUGE,
        "Hero Kuge Naginata",
        {"troop": "Yari Ashigaru", "models": 4},
        {"troop": "Onna-Bushi", "models": 5},
        {"troop": "Ninja Shinobigatana", "models": 5},
        {"troop": "Ashigaru Teppo", "models": 5},
        {"troop": "Yari Ashigaru", "models": 5},
    )
    f = only(run(doc), "kensei.units-max")
    assert f.message == "5 units > 1 per 100 AP of 200 AP rounded up + 2 = 4"
    # 300 AP needs two leaders
    doc = edit(BUKE, points=300)
    f = only(run(doc), "kensei.leaders-min")
    assert (f.value, f.bound) == (1, 2)


def test_unit_size_min_and_max():
    doc = copy.deepcopy(BUKE)
    doc["troops"][4]["models"] = 2
    f = only(run(doc), "kensei.unit-size-min")
    assert f.loc == ("troops", 4)
    doc["troops"][4]["models"] = 3
    assert run(doc).legal
    doc = copy.deepcopy(KUGE)
    doc["troops"][3]["models"] = 6  # skirmishers: at most 5
    doc["troops"][2]["models"] = 3
    f = only(run(doc), "kensei.unit-size-max")
    assert f.message == "Ninja Shinobigatana: skirmisher unit of 6 models > 5"


def test_infantry_unit_of_15_passes_16_fails():
    doc = troops(
        BUKE,
        "Taisho Buke",
        {"troop": "Yari Ashigaru", "models": 15},
        {"troop": "Samurai Yari", "models": 5},
        {"troop": "Yumi Samurai", "models": 4},
    )
    assert run(doc).legal
    doc["troops"][1]["models"] = 16
    assert codes(run(doc)) == ["kensei.unit-size-max"]


def test_cavalry_unit_of_10():
    doc = edit(
        BUKE,
        points=400,
        troops=[{"troop": "Taisho Buke"}, {"troop": "Ikame Bo"}][:1]
        + [
            {"troop": "Mounted Samurai", "models": 8},
            {"troop": "Samurai Yari", "models": 10},
            {"troop": "Yari Ashigaru", "models": 10},
            {"troop": "Samurai Dai-Katana", "models": 5},
            {"troop": "Hero Buke Yumi"},
        ],
        general="Taisho Buke",
    )
    res = run(doc)
    assert res.legal, [f.format() for f in res.findings]
    doc["troops"][1]["models"] = 11
    assert "kensei.unit-size-max" in codes(run(doc))


def test_profile_max_and_elite_profile_max():
    doc = troops(
        BUKE,
        "Taisho Buke",
        {"troop": "Yari Ashigaru", "models": 5},
        {"troop": "Yari Ashigaru", "models": 5},
        {"troop": "Yari Ashigaru", "models": 5},
        {"troop": "Samurai Yari", "models": 5},
    )
    f = only(run(doc), "kensei.profile-max")
    assert f.loc == ("troops", 3)
    del doc["troops"][3]
    assert run(doc).legal
    doc = troops(
        BUKE,
        "Taisho Buke",
        {"troop": "Samurai Hatamoto", "models": 3},
        {"troop": "Samurai Hatamoto", "models": 3},
        {"troop": "Yari Ashigaru", "models": 10},
    )
    f = only(run(doc), "kensei.elite-profile-max")
    assert f.message == "Samurai Hatamoto: 2 units of this Elite profile > 1 at 200 AP"
    del doc["troops"][2]
    assert run(doc).legal


def test_unique_max():
    doc = troops(
        BUKE,
        "Taisho Buke",
        "Kensei Master",
        "Kensei Master",
        {"troop": "Yari Ashigaru", "models": 10},
        {"troop": "Samurai Yari", "models": 5},
    )
    f = only(run(doc), "kensei.unique-max")
    assert f.value == 2 and f.bound == 1
    del doc["troops"][2]
    assert run(doc).legal


def test_wrong_clan_no_living_no_common():
    f = only(run(troops(KUGE, *KUGE["troops"][:4], {"troop": "Yumi Samurai", "models": 3})), "kensei.wrong-clan")
    assert f.message.startswith("Yumi Samurai is not in the kuge army list")
    doc = copy.deepcopy(KUROI)
    doc["troops"][3] = {"troop": "Yari Ashigaru", "models": 10}
    f = only(run(doc), "kensei.no-living-troops")
    assert f.loc == ("troops", 3)
    doc = {
        "system": "kensei",
        "clan": "hattori",
        "points": 200,
        "troops": [
            {"troop": "Hattori Hero"},
            {"troop": "Hattori Kusarigama", "models": 5},
            {"troop": "Yari Ashigaru", "models": 6},
        ],
    }
    f = only(run(doc), "kensei.no-common-troops")
    doc["troops"][2] = {"troop": "Hattori Kusarigama", "models": 6}
    assert run(doc).legal


def test_spiritual_troops():
    base = troops(
        BUKE, *BUKE["troops"][:3], {"troop": "Samurai Dai-Katana", "models": 3}, {"troop": "Infernal Onmyouji"}
    )
    assert codes(run(base), "error") == ["kensei.spiritual-without-occult"]
    ok = edit(base, occult=True)
    res = run(ok)
    assert res.legal and codes(res) == ["kensei.onmyouji-shikigami"]  # info: comes with its Shikigami
    both = troops(
        ok,
        *ok["troops"][:3],
        {"troop": "Samurai Dai-Katana", "models": 1 + 2},
        {"troop": "Komuso"},
        {"troop": "Infernal Onmyouji"},
    )
    assert "kensei.spiritual-max" in codes(run(both), "error")
    kuroi = copy.deepcopy(KUROI)
    kuroi["occult"] = True
    kuroi["commander"] = "hatamoto"
    kuroi["troops"][2]["models"] = 3  # make room
    kuroi["troops"].append({"troop": "Celestial Onmyouji"})
    assert codes(run(kuroi), "error") == ["kensei.kuroi-te-onmyouji"]
    kuroi["troops"][-1] = {"troop": "Komuso"}
    assert codes(run(kuroi), "error") == ["kensei.kuroi-te-komuso"]
    kuroi["troops"][-1] = {"troop": "Infernal Onmyouji"}
    assert run(kuroi).legal


def test_onmyouji_with_two_shikigami():
    doc = edit(
        BUKE,
        occult=True,
        troops=BUKE["troops"][:3]
        + [
            {"troop": "Samurai Dai-Katana", "models": 3},
            {"troop": "Infernal Onmyouji"},
            {"troop": "Shikigami", "models": 1},
        ],
    )
    f = only(run(doc), "kensei.onmyouji-shikigami")
    assert f.severity == "error" and (f.value, f.bound) == (1, 2)
    doc["troops"][-1]["models"] = 2
    assert codes(run(doc)) == []


def test_general():
    f = only(run(edit(BUKE, general="Samurai Yari")), "kensei.general-not-hero")
    assert f.loc == ("general",)
    assert only(run(edit(BUKE, general="Hero Kuge Naginata")), "kensei.general-not-listed")
    assert run(edit(BUKE, general="Taisho Buke")).legal
    assert only(run(edit(SOHEI, troops=[{"troop": "Ikame Bo"}] + SOHEI["troops"][2:])), "kensei.general-missing")
    two = troops(
        BUKE,
        "Taisho Buke",
        "Hero Buke Yumi",
        {"troop": "Yari Ashigaru", "models": 6},
        {"troop": "Samurai Yari", "models": 5},
        {"troop": "Samurai Dai-Katana", "models": 5},
    )
    assert only(run(two), "kensei.general-ambiguous")
    assert run(edit(two, general="Taisho Buke")).legal


def test_unit_leaders():
    doc = copy.deepcopy(SOHEI)
    doc["troops"][3]["led_by"] = "Ikame Bo"  # elite leader of a warrior unit: fine
    assert run(doc).legal
    doc["troops"][2]["led_by"] = "Ikame Bo"  # the same leader twice
    assert only(run(doc), "kensei.unit-leader-twice")
    doc = copy.deepcopy(SOHEI)
    doc["troops"][4]["led_by"] = "Ikame Bo"  # melee leader, ranged unit
    assert only(run(doc), "kensei.unit-leader-type")
    doc = copy.deepcopy(SOHEI)
    doc["troops"][3]["led_by"] = "Ikame"
    f = only(run(doc), "kensei.led-by-unknown")
    assert "did you mean 'Ikame Bo'" in f.message
    doc["troops"][3]["led_by"] = "Monk Naginata"
    assert only(run(doc), "kensei.led-by-not-leader")


def test_unit_leader_class():
    doc = troops(
        BUKE,
        "Taisho Buke",
        "Ashigaru Taisho",
        {"troop": "Samurai Hatamoto", "models": 4, "led_by": "Ashigaru Taisho"},
        {"troop": "Yari Ashigaru", "models": 10},
        {"troop": "Samurai Yari", "models": 5},
    )
    assert run(doc).legal  # E leads E
    doc["troops"][2]["led_by"] = "Taisho Buke"
    assert run(doc).legal  # H leads E
    kuroi = copy.deepcopy(KUROI)
    kuroi["troops"][4]["led_by"] = "Tenome"  # inferior creatures cannot be led
    assert codes(run(kuroi)) == ["kensei.unit-leader-class", "kensei.unit-leader-type"]


def test_standard():
    doc = copy.deepcopy(BUKE)
    doc["troops"][2]["standard"] = True
    assert run(doc).legal
    doc["troops"][2]["standard"] = 2
    assert only(run(doc), "kensei.standard-max")
    doc = copy.deepcopy(BUKE)
    doc["troops"][0]["standard"] = True
    assert only(run(doc), "kensei.standard-not-unit")


def test_peasants_two_per_five_points():
    doc = troops(
        BUKE, *BUKE["troops"][:3], {"troop": "Samurai Dai-Katana", "models": 5}, {"troop": "Peasants", "models": 4}
    )
    res = run(doc)
    assert res.legal and res.summary["points"] == 150
    doc["troops"][4]["models"] = 5
    res = run(doc)
    f = only(res, "kensei.peasant-pairs")
    assert f.severity == "warning" and res.summary["points"] == 155


def test_unknown_troop_with_suggestion_and_hyphen_variants():
    doc = troops(
        BUKE,
        "Taisho Buke",
        {"troop": "Samurai Yari", "models": 5},
        {"troop": "yari  ashigaru", "models": 9},
        {"troop": "Samurai Dai\u2010Katana", "models": 5},
        {"troop": "YUMI samurai", "models": 4},
    )
    assert run(doc).legal
    doc["troops"][2]["troop"] = "Yari Ashigary"
    f = only(run(doc), "kensei.unknown-troop")
    assert f.message == "unknown troop 'Yari Ashigary'; did you mean 'Yari Ashigaru'?"
    assert f.loc == ("troops", 2)


def test_missing_profile_field_warns_never_silent():
    doc = troops(BUKE, *BUKE["troops"], {"troop": "Mystery Ronin", "models": 3})
    doc["points"] = 250
    res = run(doc)
    f = next(f for f in res.findings if f.code == "kensei.profile-incomplete")
    assert f.severity == "warning" and "'weapons'" in f.message and "kensei.ranged-max" in f.message
    assert f.loc == ("troops", 5)


def test_missing_cost_is_an_error():
    # a troop without a cost cannot be checked against the points limit: never "legal"
    doc = troops(BUKE, *BUKE["troops"], {"troop": "Samurai Nodachi", "models": 3})
    doc["points"] = 250
    res = run(doc)
    assert "kensei.cost-unknown" in codes(res, "error") and not res.legal


def test_examples_are_legal_with_the_catalog_alone():
    from builder.check import check_file

    for clan, (_, total) in SAMPLES.items():
        res = check_file(ROOT / "examples" / f"kensei-{clan}.yaml")
        errors = [f.format() for f in res.findings if f.severity == "error"]
        assert not errors, errors
        assert res.summary["points"] == total
