"""The Kensei catalog against the rulebook (shared/seeds/001_dbcd2f61c1014419.txt)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from builder.catalog.loader import load_catalog
from builder.errors import CatalogError
from builder.names import normalize

from conftest import ROOT, rulebook_text

SEED = "001_dbcd2f61c1014419.txt"
BAD = Path("tests/data/catalog_bad/kensei")
PACK = Path("examples/packs/kensei-profiles.yaml")

# The five 200 AP sample lists (L6115-6248): troop -> AP per model; the
# reconstructed cells (research note section 3) are Samurai Dai-Katana 10 (printed
# 5 for the unit), Otokodate Ashigaru Katana 5 and Ozutzu Cannon 10.
SAMPLE_COSTS = {
    "Hero Kuge Naginata": 20,
    "Yari Ashigaru": 5,
    "Onna-Bushi": 5,
    "Ninja Shinobigatana": 10,
    "Ashigaru Teppo": 10,
    "Taisho Buke": 20,
    "Samurai Yari": 5,
    "Samurai Dai-Katana": 10,
    "Yumi Samurai": 15,
    "Hero Sohei Katana": 20,
    "Ikame Bo": 10,
    "Monk Naginata": 5,
    "Monk Teppo": 15,
    "Ashigaru Sling": 10,
    "Taisho Otokodate": 20,
    "Assassin": 10,
    "Otokodate Ashigaru Katana": 5,
    "Ozutzu Cannon": 10,
    "Taisho Samurai": 20,
    "Tenome": 20,
    "Yurei Naginata": 10,
    "Ashigaru Yari": 5,
    "Jikininki": 10,
}


@pytest.fixture(scope="module")
def cat():
    return load_catalog("kensei", use_cache=False)


@pytest.fixture(scope="module")
def seed_lines():
    return rulebook_text(SEED).split("\n")


def _lines(source: str) -> list[tuple[int, int]]:
    out = []
    for ref in re.split(r"[;,]", source):
        m = re.search(r":(\d+)(?:-(\d+))?$", ref.strip())
        out.append((int(m[1]), int(m[2] or m[1])))
    return out


def test_catalog_validates(cat):
    assert cat.model.title == "Kensei"
    assert {c.id for c in cat.entries("clans")} == {"buke", "kuge", "sohei", "otokodate", "kuroi-te", "hattori"}


def test_exactly_123_abilities_with_text_and_appendix_source(cat, seed_lines):
    abilities = cat.entries("abilities")
    assert len(abilities) == 123
    starts = []
    for a in abilities:
        assert a.text.strip(), a.name
        ((first, last),) = _lines(a.source)
        assert 6821 <= first <= last <= 7389, a.name
        starts.append(first)
        # the source line is the ability's heading in the extraction
        heading = seed_lines[first - 1].split("|>")[-1]
        assert normalize(heading).replace(" ", "")[:3] in normalize(a.name).replace(" ", "") or any(
            normalize(heading) == normalize(x) for x in a.aliases
        ), (a.name, heading)
    assert starts == sorted(starts)  # the book's order
    assert abilities[0].name == "Accelerate" and abilities[-1].name == "Zen"


def test_ability_artefacts_cleaned_and_variant_spellings_found(cat):
    agile = cat.find("abilities", "Agile")  # "Opportunity A ack" in the extraction (L6838)
    assert agile.text == "Can disengage from a combat without receiving any Opportunity Attack in response."
    assert "'A ack' -> 'Attack'" in agile.notes
    # raw extraction spelling and the names used elsewhere in the book
    for raw, name in [
        ("Area a ack", "Area attack"),
        ("Swi", "Swift"),
        ("Tac cian", "Tactician"),
        ("For tude", "Fortitude"),
        ("In the Shadows", "Into the shadows"),
        ("Spiritual Fascination", "Spirit fascination"),
        ("Tao", "The Tao"),
        ("Lava Whip", "Lava lash"),
        ("Volcanic Ground", "Volcanic soil"),
        ("Point‐blank", "Point-blank"),
    ]:
        assert cat.find("abilities", raw).name == name
    # No ligature artefact survives in any ability text
    for a in cat.entries("abilities"):
        assert not re.search(r"\b(a ack|ba le|a er|ac va on|shoo ng|a ribute|ini a ve|un l)\b", a.text), a.name


def test_every_sample_list_troop_has_its_cost(cat):
    for name, cost in SAMPLE_COSTS.items():
        troop = cat.find("troops", name)
        assert troop is not None, name
        assert troop.cost == cost, name
    assert len(SAMPLE_COSTS) == 23
    assert cat.find("troops", "Assasin").name == "Assassin"  # as printed (L6235)
    assert cat.find("troops", "Samurai Dai‐Katana").name == "Samurai Dai-Katana"  # U+2010 hyphen


def test_sample_lists_add_up_to_their_printed_totals(cat):
    lists = {s.clan: s for s in cat.entries("sample_lists")}
    assert set(lists) == {"kuge", "buke", "sohei", "otokodate", "kuroi-te"}
    totals = {"kuge": 195, "buke": 200, "sohei": 200, "otokodate": 200, "kuroi-te": 200}
    for clan, sl in lists.items():
        level = cat.find("commander_levels", sl.commander_level)
        troops = sum(i.points for i in sl.troops)
        assert troops + level.cost == sl.total == totals[clan]
        for item in sl.troops:
            assert cat.find("troops", item.troop).cost * item.models == item.points
    garbled = {
        (s.clan, i.troop): (i.printed_points, i.points)
        for s in lists.values()
        for i in s.troops
        if i.printed_points is not None
    }
    assert garbled == {
        ("buke", "Samurai Dai-Katana"): (5, 50),
        ("otokodate", "Yari Ashigaru"): (10, 50),
        ("otokodate", "Otokodate Ashigaru Katana"): (10, 50),
        ("otokodate", "Ozutzu Cannon"): (5, 50),
    }
    assert lists["otokodate"].commander_level == "daimyo" and lists["kuroi-te"].commander_level == "taisho"


def test_command_deck_has_24_cards_and_hand_sizes(cat):
    cards = cat.entries("command_cards")
    assert sum(c.count for c in cards) == 24
    assert {c.value: c.count for c in cards} == {0: 7, 1: 8, 2: 6, 3: 3}
    assert {c.value: c.suit for c in cards} == {0: "clubs", 1: "spades", 2: "hearts", 3: "diamonds"}
    hands = cat.model.army_building.hand_sizes
    assert [(h["from_ap"], h.get("to_ap"), h["hand"]) for h in hands] == [(200, 399, 4), (400, 599, 5), (600, None, 6)]


def test_commander_levels_and_battle_sizes(cat):
    levels = {c.id: (c.cost, c.strategy_bonus, c.extra_command_cards) for c in cat.entries("commander_levels")}
    assert levels == {"hatamoto": (0, 1, 0), "taisho": (10, 1, 1), "daimyo": (20, 2, 2)}
    assert [b.max_ap for b in cat.entries("battle_sizes")] == [200, 400, 600]


def test_troop_classes_in_the_books_order(cat):
    classes = cat.entries("troop_classes")
    assert [c.id for c in classes] == ["H", "E", "W", "P", "K", "O", "C", "M", "I"]
    assert [c.id for c in classes if c.lead_order] == ["H", "E", "W", "P"]
    assert [c.id for c in classes if c.can_be_general] == ["H"]
    assert cat.find("troop_classes", "Mayor Creature").id == "M"  # as printed (L1305)


def test_weapons_ranged_and_firearms(cat):
    firearms = {w.name for w in cat.entries("weapons") if w.firearm}
    assert firearms == {"Ozutsu", "Teppo", "Arquebus", "Musket"}  # L4352
    ranged = {w.name for w in cat.entries("weapons") if w.ranged}
    assert {"Yumi", "Ishitsubute", "Shuriken", "Cerbatana", "Grenade"} <= ranged
    assert cat.find("weapons", "Ozutzu").name == "Ozutsu"  # the sample list's spelling
    assert cat.find("weapons", "Dai-Katana").weapon_type == "type-6"
    assert not cat.find("weapons", "Naginata").ranged


def test_army_building_constants(cat):
    ab = cat.model.army_building
    table = {r.ap: (r.leaders_min, r.leaders_max, r.units_min, r.units_max) for r in ab.leaders_and_units.table}
    assert table == {200: (1, 2, 2, 4), 300: (2, 3, 3, 5), 400: (2, 4, 4, 6), 500: (3, 5, 5, 7), 600: (3, 6, 6, 8)}
    assert ab.unit_size.min == 3 and ab.unit_size.max == {"infantry": 15, "skirmisher": 5, "other": 10}
    limits = {x.id: (x.kind, x.percent, x.house_rule) for x in ab.limits}
    assert limits == {
        "melee_min": ("min", 25, "melee_min_percent"),
        "ranged_max": ("max", 50, None),
        "firearms_max": ("max", 25, "firearms_cap_basis"),
        "cavalry_max": ("max", 40, "cavalry_max_percent"),
        "skirmishers_max": ("max", 35, "skirmisher_max_percent"),
        "creatures_max": ("max", 50, "creature_max_percent"),
    }
    overrides = {(o.clan, o.rule, o.limit): (o.percent, tuple(o.counts)) for o in ab.clan_overrides}
    assert overrides[("otokodate", "limit", "firearms_max")] == (40, ())
    assert overrides[("hattori", "limit", "skirmishers_max")] == (50, ())
    assert overrides[("hattori", "melee_minimum_counts", None)] == (None, ("ranged_warriors",))
    assert overrides[("kuroi-te", "melee_minimum_counts", None)] == (None, ("inferior_creatures",))
    assert ("kuroi-te", "no_living_troops", None) in overrides
    assert ("hattori", "no_common_troops", None) in overrides
    assert (ab.peasants.models, ab.peasants.points) == (2, 5)
    assert ab.profile_limits.max_units_per_profile == 2
    assert ab.profile_limits.elite == [{"from_ap": 0, "to_ap": 599, "max": 1}, {"from_ap": 600, "max": 2}]


def test_house_rules_present_with_defaults(cat):
    defaults = cat.default_rules()
    assert defaults["leader_count"] == "table"
    assert defaults["unit_count"] == "table"
    assert defaults["melee_min_percent"] == 25
    assert defaults["cavalry_max_percent"] == 40
    assert defaults["skirmisher_max_percent"] == 35
    assert defaults["firearms_cap_basis"] == "battle_size"
    assert defaults["melee_warrior_classes"] == "warrior_elite"
    assert defaults["peasant_purchase"] == "pairs"
    rules = cat.house_rules()
    assert rules["melee_min_percent"].allowed() == [25, 20]
    assert rules["cavalry_max_percent"].allowed() == [40, 50]
    assert rules["skirmisher_max_percent"].allowed() == [35, 25]
    for h in rules.values():  # both readings carry their provenance
        assert h.source or h.assumed
        for alt in h.alternatives:
            assert alt.source or alt.assumed, (h.id, alt.value)
    assert cat.resolve_rules({"cavalry_max_percent": 50})["cavalry_max_percent"] == 50
    with pytest.raises(KeyError, match="did you mean 'cavalry_max_percent'"):
        cat.resolve_rules({"cavalry_percent": 50})


def test_every_limit_names_an_existing_house_rule(cat):
    ids = set(cat.house_rules())
    ab = cat.model.army_building
    used = {x.house_rule for x in ab.limits if x.house_rule} | set(ab.leaders_and_units.house_rules)
    assert used <= ids


def test_every_source_is_inside_the_rulebook(cat):
    for section in cat.sections():
        for e in cat.entries(section):
            if e.source:
                for a, b in _lines(e.source):
                    assert 1 <= a <= b <= 7389


def test_clan_rules_quote_the_clan_table(cat, seed_lines):
    otokodate = cat.find("clans", "Otokodate")
    (rule,) = otokodate.army_building
    ((a, b),) = _lines(rule.source)
    assert "40%" in " ".join(seed_lines[a - 1 : b]) and "40%" in rule.text
    assert cat.find("clans", "Ha ori").id == "hattori"
    assert cat.find("clans", "Kuroi‐te").id == "kuroi-te"
    assert cat.find("clans", "kuroi-te").living is False


@pytest.mark.parametrize("case", sorted(p.stem for p in (ROOT / BAD).glob("*.expected")))
def test_bad_pack_gives_exact_messages(case, monkeypatch):
    monkeypatch.chdir(ROOT)
    expected = (BAD / f"{case}.expected").read_text().splitlines()
    with pytest.raises(CatalogError) as ei:
        load_catalog("kensei", [BAD / f"{case}.yaml"], use_cache=False)
    assert ei.value.lines() == expected


def test_every_bad_pack_has_expected_output():
    assert {p.stem for p in (ROOT / BAD).glob("*.yaml")} == {p.stem for p in (ROOT / BAD).glob("*.expected")}
    assert len(list((ROOT / BAD).glob("*.yaml"))) >= 4


def test_example_profile_pack_is_labelled_and_complete(monkeypatch):
    monkeypatch.chdir(ROOT)
    cat = load_catalog("kensei", [PACK], use_cache=False)
    assert cat.packs[0]["example"] is True
    for name in SAMPLE_COSTS:
        troop = cat.find("troops", name)
        assert troop.profile is not None and troop.profile.wo and troop.profile.at, name
        assert cat.is_example("troops", troop)
        assert troop.cost == SAMPLE_COSTS[name]  # the pack adds stat lines only
    assert "NOT RULEBOOK DATA" in (ROOT / PACK).read_text()


def test_cli_browsing(cli):
    res = cli("catalog", "list", "kensei", "troops", "--where", "clan=buke")
    assert res.code == 0
    names = [ln.split("  (")[0].strip().removesuffix(" [assumed]") for ln in res.stdout.splitlines()[1:]]
    # the Buke list first, then the troops every clan may take (peasants, the standard, spiritual troops)
    assert names[:5] == ["Yari Ashigaru", "Taisho Buke", "Samurai Yari", "Samurai Dai-Katana", "Yumi Samurai"]
    assert "Peasants" in names and "Hata-Jurushi" in names
    res = cli("catalog", "show", "kensei", "Samurai Yari")
    assert res.code == 0
    assert "cost: 5\n" in res.stdout and "troop_class: W" in res.stdout
    res = cli("rules", "kensei")
    assert res.code == 0
    assert "cavalry_max_percent = 40" in res.stdout and "alternative 50" in res.stdout
