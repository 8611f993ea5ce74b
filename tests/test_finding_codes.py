"""Finding codes are registered per system with their meaning, and the registry is complete both ways.

Every code a system registers is given by some list: the examples, the lists under
tests/data, or the lists built below; and every code those lists give is registered,
with a severity no milder than the one given. (conftest.py also checks every finding the
whole suite produces against the registry.)
"""

from __future__ import annotations

import copy
import json

import pytest

from builder.catalog.loader import load_catalog
from builder.check import check_text
from builder.errors import DaimyoError
from builder.findings import FindingCode
from builder.lists.dump import dump_list_yaml
from builder.systems import get

from conftest import DATA, ROOT

BUILT_IN = ("senshiai", "kensei", "herocard", "senji", "satsuma")
PACK = str(DATA / "kensei" / "troops-pack.yaml")

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
KUROI = {
    "system": "kensei",
    "clan": "kuroi-te",
    "points": 200,
    "commander": "hatamoto",
    "occult": True,
    "troops": [
        {"troop": "Taisho Samurai"},
        {"troop": "Tenome"},
        {"troop": "Yurei Naginata", "models": 3},
        {"troop": "Ashigaru Yari", "models": 10},
        {"troop": "Jikininki", "models": 5},
    ],
}


def _with(doc, **changes):
    d = copy.deepcopy(doc)
    d.update(changes)
    return d


def _troops(doc, *items):
    return _with(doc, troops=[dict(t) if isinstance(t, dict) else {"troop": t} for t in items])


def _built_lists():
    """Lists built here for the codes the example and data lists do not give: (name, document, packs)."""
    sohei_led = copy.deepcopy(SOHEI)
    sohei_led["troops"][3]["led_by"] = "Monk Naginata"
    sohei_unknown_leader = copy.deepcopy(SOHEI)
    sohei_unknown_leader["troops"][3]["led_by"] = "Ikame"
    sohei_type = copy.deepcopy(SOHEI)
    sohei_type["troops"][4]["led_by"] = "Ikame Bo"
    sohei_twice = copy.deepcopy(SOHEI)
    sohei_twice["troops"][3]["led_by"] = sohei_twice["troops"][2]["led_by"] = "Ikame Bo"
    kuroi_led = _with(KUROI, occult=False, commander="taisho")
    kuroi_led["troops"][4]["led_by"] = "Tenome"
    standard_twice = copy.deepcopy(BUKE)
    standard_twice["troops"][2]["standard"] = 2
    standard_single = copy.deepcopy(BUKE)
    standard_single["troops"][0]["standard"] = True
    kensei = [
        ("unknown clan", _with(BUKE, clan="no such clan")),
        ("unknown commander", _with(BUKE, commander="no such level")),
        ("unknown troop", _troops(BUKE, *BUKE["troops"], "No Such Troop")),
        ("points over", _with(BUKE, points=199)),
        ("no units", _troops(BUKE, "Taisho Buke")),
        (
            "three leaders",
            _troops(
                SOHEI,
                "Hero Sohei Katana",
                "Ikame Bo",
                "Ashigaru Taisho",
                {"troop": "Monk Naginata", "models": 5},
                {"troop": "Yari Ashigaru", "models": 10},
                {"troop": "Ashigaru Sling", "models": 5},
            ),
        ),
        ("one leader at 300", _with(BUKE, points=300)),
        (
            "five units",
            _troops(
                BUKE,
                "Taisho Buke",
                *({"troop": "Yari Ashigaru", "models": 4},) * 2,
                *({"troop": "Samurai Yari", "models": 5},) * 3,
            ),
        ),
        (
            "unit too small and too big",
            _troops(
                BUKE, "Taisho Buke", {"troop": "Yari Ashigaru", "models": 16}, {"troop": "Yumi Samurai", "models": 2}
            ),
        ),
        (
            "ranged and firearms",
            _troops(
                SOHEI,
                "Hero Sohei Katana",
                {"troop": "Monk Teppo", "models": 6},
                {"troop": "Ashigaru Sling", "models": 6},
            ),
        ),
        (
            "cavalry",
            _troops(
                BUKE,
                "Taisho Buke",
                {"troop": "Mounted Samurai", "models": 5},
                {"troop": "Samurai Yari", "models": 10},
                {"troop": "Yari Ashigaru", "models": 6},
            ),
        ),
        (
            "skirmishers",
            _with(
                _troops(
                    BUKE,
                    "Hero Kuge Naginata",
                    {"troop": "Yari Ashigaru", "models": 10},
                    {"troop": "Ninja Shinobigatana", "models": 5},
                    {"troop": "Ninja Shinobigatana", "models": 3},
                ),
                clan="kuge",
            ),
        ),
        (
            "profile max",
            _troops(
                BUKE,
                "Taisho Buke",
                *({"troop": "Yari Ashigaru", "models": 5},) * 3,
                {"troop": "Samurai Yari", "models": 5},
            ),
        ),
        (
            "elite profile max",
            _troops(
                BUKE,
                "Taisho Buke",
                {"troop": "Samurai Hatamoto", "models": 3},
                {"troop": "Samurai Hatamoto", "models": 3},
                {"troop": "Yari Ashigaru", "models": 10},
            ),
        ),
        (
            "unique twice",
            _troops(
                BUKE,
                "Taisho Buke",
                "Kensei Master",
                "Kensei Master",
                {"troop": "Yari Ashigaru", "models": 10},
                {"troop": "Samurai Yari", "models": 5},
            ),
        ),
        ("wrong clan", _troops(BUKE, *BUKE["troops"][:4], {"troop": "Onna-Bushi", "models": 3})),
        ("no living troops", _with(KUROI, troops=KUROI["troops"][:3] + [{"troop": "Yari Ashigaru", "models": 10}])),
        (
            "no common troops",
            {
                "system": "kensei",
                "clan": "hattori",
                "points": 200,
                "troops": [
                    {"troop": "Hattori Hero"},
                    {"troop": "Hattori Kusarigama", "models": 5},
                    {"troop": "Yari Ashigaru", "models": 6},
                ],
            },
        ),
        (
            "creatures",
            _with(
                _troops(
                    BUKE,
                    "Taisho Buke",
                    {"troop": "Jikininki", "models": 5},
                    {"troop": "Jikininki", "models": 5},
                    {"troop": "Shikome", "models": 3},
                ),
                commander="hatamoto",
            ),
        ),
        (
            "spirits without occult",
            _troops(BUKE, *BUKE["troops"][:3], {"troop": "Samurai Dai-Katana", "models": 3}, "Infernal Onmyouji"),
        ),
        (
            "two spirits",
            _with(
                _troops(
                    BUKE,
                    *BUKE["troops"][:3],
                    {"troop": "Samurai Dai-Katana", "models": 3},
                    "Komuso",
                    "Infernal Onmyouji",
                ),
                occult=True,
            ),
        ),
        ("kuroi-te onmyouji", _with(KUROI, troops=KUROI["troops"][:4] + [{"troop": "Celestial Onmyouji"}])),
        ("kuroi-te komuso", _with(KUROI, troops=KUROI["troops"][:4] + [{"troop": "Komuso"}])),
        (
            "onmyouji realm",
            _with(
                KUROI,
                troops=KUROI["troops"] + [{"troop": "Infernal Onmyouji"}],
                house_rules={"onmyouji_realm_limits_troops": True},
            ),
        ),
        (
            "one shikigami",
            _with(
                BUKE,
                occult=True,
                troops=BUKE["troops"][:3]
                + [
                    {"troop": "Samurai Dai-Katana", "models": 3},
                    {"troop": "Infernal Onmyouji"},
                    {"troop": "Shikigami", "models": 1},
                ],
            ),
        ),
        ("general not a hero", _with(BUKE, general="Samurai Yari")),
        ("general not listed", _with(BUKE, general="Hero Kuge Naginata")),
        ("no general", _with(SOHEI, troops=[{"troop": "Ikame Bo"}] + SOHEI["troops"][2:])),
        (
            "two generals",
            _troops(
                BUKE,
                "Taisho Buke",
                "Hero Buke Yumi",
                {"troop": "Yari Ashigaru", "models": 6},
                {"troop": "Samurai Yari", "models": 5},
                {"troop": "Samurai Dai-Katana", "models": 5},
            ),
        ),
        ("leader twice", sohei_twice),
        ("leader of another type", sohei_type),
        ("unknown leader", sohei_unknown_leader),
        ("leader without rank", sohei_led),
        ("creatures cannot be led", kuroi_led),
        ("standard twice", standard_twice),
        ("standard on a single model", standard_single),
        ("standard alone", _troops(BUKE, *BUKE["troops"], "Hata-Jurushi")),
        (
            "peasants",
            _troops(
                BUKE,
                *BUKE["troops"][:3],
                {"troop": "Samurai Dai-Katana", "models": 5},
                {"troop": "Peasants", "models": 5},
            ),
        ),
        ("the protector", _troops(BUKE, "Taisho Buke", "Kogen", "Sato", {"troop": "Yari Ashigaru", "models": 10})),
    ]
    out = [(name, doc, (PACK,)) for name, doc in kensei]
    out.append(
        (
            "satsuma custom card",
            {
                "system": "satsuma",
                "side": "imperial",
                "cards": {
                    "Imperial Guard": 1,
                    "Garrison": 1,
                    "Siege": 1,
                    "Patrols": 1,
                    "Sniping": 1,
                    "Sortie": {"printed": "F2"},
                },
            },
            (),
        )
    )
    return out


def _file_lists():
    """Every list file of the examples and tests/data (files that are not lists are left out)."""
    for path in sorted([*(ROOT / "examples").glob("*.yaml"), *DATA.rglob("*.yaml")]):
        if "toygame" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if "system:" not in text or "\npack:" in text or text.startswith("pack:"):
            continue
        yield path


@pytest.fixture(scope="module")
def emitted(tmp_path_factory):
    """code -> [(list, severity)] for every finding the lists give."""
    out: dict[str, list] = {}

    def record(where, res):
        for f in res.findings:
            out.setdefault(f.code, []).append((where, f.severity))

    for path in _file_lists():
        try:
            res = check_text(path.read_text(encoding="utf-8"), str(path), base_dir=path.parent)
        except DaimyoError:
            continue  # a list that does not load (the tests of bad input)
        record(path.name, res)
    for name, doc, packs in _built_lists():
        record(name, check_text(dump_list_yaml(doc), f"{name}.yaml", extra_packs=list(packs)))
    # a pack that marks the list's clan not playable
    unplayable = tmp_path_factory.mktemp("packs") / "unplayable.yaml"
    unplayable.write_text("system: kensei\nname: unplayable\nclans:\n  - {name: Buke, playable: false}\n")
    record("unplayable clan", check_text(dump_list_yaml(BUKE), "unplayable.yaml", extra_packs=[PACK, str(unplayable)]))
    return out


def _registered() -> dict[str, FindingCode]:
    out = {}
    for sid in BUILT_IN:
        out.update(get(sid).catalog.finding_codes(load_catalog(sid)))
    return out


def test_every_code_has_a_meaning_a_severity_and_its_system_prefix():
    for sid in BUILT_IN:
        codes = get(sid).catalog.finding_codes(load_catalog(sid))
        assert codes, sid
        for code, fc in codes.items():
            assert code == fc.code and code.startswith(f"{sid}."), code
            assert fc.severity in ("error", "warning", "info")
            assert fc.meaning and "\n" not in fc.meaning and len(fc.meaning) < 120, code
            if fc.source:
                assert ".txt" not in fc.section(), (code, fc.section())  # a title and section, not a file


def test_every_registered_code_is_given_by_some_list(emitted):
    never = sorted(set(_registered()) - set(emitted))
    assert never == [], f"registered but given by no test list: {never}"


def test_every_code_the_lists_give_is_registered_no_milder_than_given(emitted):
    registry = _registered()
    unknown = sorted(set(emitted) - set(registry))
    assert unknown == [], f"given but not registered: {unknown}"
    for code, hits in emitted.items():
        for where, severity in hits:
            assert registry[code].allows(severity), (code, where, severity, registry[code].severity)


def test_a_code_not_registered_is_found(emitted):
    """The check above can fail: a code the registry lacks is reported."""
    registry = _registered()
    registry.pop("kensei.peasant-pairs")
    assert "kensei.peasant-pairs" in set(emitted) - set(registry)


def test_restriction_codes_come_from_the_catalog_with_their_source():
    codes = get("kensei").catalog.finding_codes(load_catalog("kensei"))
    fc = codes["kensei.ranged-max"]
    assert fc.severity == "error" and fc.source.startswith("001_dbcd2f61c1014419.txt:")
    assert fc.section().startswith("Kensei rulebook, ")
    assert codes["kensei.profile-incomplete"].severity == "error"  # when the missing field decides a bound


def test_rules_codes_lists_the_codes_of_a_system(cli):
    r = cli("rules", "senshiai", "--codes")
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert any(line.startswith("senshiai.deck-max") and "error" in line for line in lines), r.stdout
    assert "Senshiai rulebook" in r.stdout and ".txt" not in r.stdout
    r = cli("rules", "kensei", "--codes", "--format", "json")
    data = json.loads(r.stdout)
    by_code = {c["code"]: c for c in data["codes"]}
    assert by_code["kensei.the-protector"]["severity"] == "error"
    assert by_code["kensei.melee-min"]["section"].startswith("Kensei rulebook")
