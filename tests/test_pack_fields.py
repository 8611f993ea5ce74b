"""Every pack field a game documents has an effect: a field that is accepted and then silently
dropped is a defect. For each documented field of each game (``gs.packs.docs``, what a pack
template and ``daimyo pack`` document), two packs that differ only in that field give a different
check (findings, summary), a different printed or exported value (card faces, roster rows, unit
cards, the catalog beside a list, the text export), or the pack is refused."""

from __future__ import annotations

import json

import pytest

from builder.check import load_checked
from builder.errors import CatalogError
from builder.systems import get

GAMES = ("senshiai", "senji", "satsuma", "herocard", "kensei")

# -- the lists and packs each case is built from -------------------------------------------------

SENSHIAI_LIST = "system: senshiai\npacks: [p.yaml]\ncards:\n  Test Capital: 1\n  Test Card: 2\n"
SENSHIAI_CAPITAL = "  - {name: Test Capital, type: terrain, subtype: Capital, cost: N, paths: [Earth], assumed: t}\n"
SENSHIAI_TROOP = "type: troop, subtype: Infantry, cost: II, paths: [Earth], speed: 2, power: 2/1/4"
SENSHIAI_EVENT = "type: event, subtype: Training, cost: II, target: Troop, duration: instant, modifiers: [+1/0/0]"
SENSHIAI_TERRAIN = "type: terrain, subtype: Farmland, cost: I, paths: [Earth], limit: 2"

SENJI_LIST = """system: senji
packs: [p.yaml]
players:
  - {name: A, family: red, provinces: [{province: Test Land, units: 1}]}
  - {name: B, family: green, provinces: [{province: Dewa, units: 1}]}
  - {name: C, family: white, provinces: [{province: Echigo, units: 1}]}
"""
SENJI_OTHERS = (
    "  - {id: province-04, name: Dewa, known: true, assumed: t}\n"
    "  - {id: province-05, name: Echigo, known: true, assumed: t}\n"
)
SENJI_LAND = "id: province-06, name: Test Land, known: true"

SATSUMA_LIST = "system: satsuma\npacks: [p.yaml]\nside: samurai\ncards:\n  Test Card: 1\n"
SATSUMA_CARD = "side: samurai, printed: F5"

HEROCARD_LIST = """system: herocard
packs: [p.yaml]
hero: Test Hero
attributes: [Test Body, Test Mind, Test X]
deck:
  Test Action: 1
"""
HEROCARD_HEROES = "heroes:\n  - {name: Test Hero, assumed: t}\n  - {name: Other Hero, assumed: t}\n"
HEROCARD_ATTRS = {
    "Test Body": "hero: Test Hero, attribute: body, score: 6, hero_points: 10, text: Strong.",
    "Test Mind": "hero: Test Hero, attribute: mind, score: 6, hero_points: 10",
    "Test X": "hero: Test Hero, attribute: x, score: 6, hero_points: 10",
}
HEROCARD_ACTION = (
    "hero: Test Hero, kind: base-attack, action_type: restricted, cost: 3, attribute: body, value: 4, text: Strike."
)

KENSEI_LIST = """system: kensei
clan: buke
points: 400
occult: true
packs: [p.yaml]
troops:
  - troop: Taisho Buke
  - troop: Yari Ashigaru
    models: 10
  - troop: Samurai Yari
    models: 5
  - troop: Test Troop
    models: 4
  - troop: Infernal Onmyouji
"""
KENSEI_TROOP = (
    "clans: [buke], cost: 10, troop_class: W, leader: false, single: false, troop_type: infantry, "
    "titles: [Samurai], volume: 2, weapons: [Katana], armour: [Samurai Armour], abilities: [Kenjutsu], living: true, "
    "profile: {mov: 10, at: 2, ini: 1, ho: 3, wo: 1}"
)
KENSEI_ONMYOUJI = "  - {name: Infernal Onmyouji, cost: 20}\n"


def _entry(name: str, fields: str, change: str | None) -> str:
    """A pack entry in one line (both packs of a case have the same lines): ``fields`` with the
    field of ``change`` ("key: value") put in place of the field of that key, or added."""
    parts = [p for p in _split(fields)]
    if change is not None:
        key = change.split(":", 1)[0].strip()
        parts = [p for p in parts if p.split(":", 1)[0].strip() != key] + [change]
    return "  - {name: " + name + ", " + ", ".join(parts + ["assumed: t"]) + "}\n"


def _split(fields: str) -> list[str]:
    """``a: 1, b: [x, y], c: {d: 1}`` into its top-level ``key: value`` parts."""
    out, depth, cur = [], 0, ""
    for ch in fields:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _drop(fields: str, key: str) -> str:
    return ", ".join(p for p in _split(fields) if p.split(":", 1)[0].strip() != key)


def senshiai(base: str, change: str | None) -> tuple[str, str]:
    pack = "system: senshiai\nname: p\ncards:\n" + SENSHIAI_CAPITAL + _entry("Test Card", base, change)
    return pack, SENSHIAI_LIST


def senji(change: str | None, others: str = SENJI_OTHERS) -> tuple[str, str]:
    pack = "system: senji\nname: p\nprovinces:\n" + others + "  - {" + SENJI_LAND
    pack += (", " + change if change else "") + ", assumed: t}\n"
    return pack, SENJI_LIST


def satsuma(change: str | None) -> tuple[str, str]:
    return "system: satsuma\nname: p\ncards:\n" + _entry("Test Card", SATSUMA_CARD, change), SATSUMA_LIST


def herocard(section: str, change: str | None) -> tuple[str, str]:
    pack = "system: herocard\nname: p\n" + HEROCARD_HEROES + "attribute_cards:\n"
    for name, fields in HEROCARD_ATTRS.items():
        pack += _entry(name, fields, change if (section == "attribute_cards" and name == "Test Body") else None)
    pack += "action_cards:\n" + _entry("Test Action", HEROCARD_ACTION, change if section == "action_cards" else None)
    return pack, HEROCARD_LIST


def kensei(change: str | None, base: str = KENSEI_TROOP, clan: str = "buke", house_rules: str = "") -> tuple[str, str]:
    pack = "system: kensei\nname: p\ntroops:\n" + _entry("Test Troop", base, change) + KENSEI_ONMYOUJI
    text = KENSEI_LIST.replace("clan: buke", f"clan: {clan}" + (f"\nhouse_rules: {house_rules}" if house_rules else ""))
    return pack, text


# a troop any clan may field; Hattori take no common troops, the Kuroi-te no living ones
KENSEI_ANY = KENSEI_TROOP.replace("clans: [buke]", "clans: [any]")
# a creature, for the house rule that the Onmyouji's realm limits the creatures bought
KENSEI_CREATURE = KENSEI_ANY.replace("troop_type: infantry", "troop_type: creature") + ", realm: infernal"
REALM_RULE = "{onmyouji_realm_limits_troops: true}"


# (game, section, field) -> the two packs and the list; None: the field left out
CASES = {
    ("senshiai", "cards", "type"): (senshiai(SENSHIAI_TROOP, None), senshiai(SENSHIAI_TROOP, "type: event")),
    ("senshiai", "cards", "subtype"): (
        senshiai(SENSHIAI_TROOP, None),
        senshiai(SENSHIAI_TROOP, "subtype: Cavalry"),
    ),
    ("senshiai", "cards", "cost"): (senshiai(SENSHIAI_TROOP, None), senshiai(SENSHIAI_TROOP, "cost: III")),
    ("senshiai", "cards", "paths"): (senshiai(SENSHIAI_TROOP, None), senshiai(SENSHIAI_TROOP, "paths: [Air]")),
    ("senshiai", "cards", "limit"): (senshiai(SENSHIAI_TERRAIN, None), senshiai(SENSHIAI_TERRAIN, "limit: 1")),
    ("senshiai", "cards", "speed"): (senshiai(SENSHIAI_TROOP, None), senshiai(SENSHIAI_TROOP, "speed: 3")),
    ("senshiai", "cards", "power"): (senshiai(SENSHIAI_TROOP, None), senshiai(SENSHIAI_TROOP, "power: 3/0/6")),
    ("senshiai", "cards", "target"): (
        senshiai(_drop(SENSHIAI_EVENT, "target"), None),
        senshiai(SENSHIAI_EVENT, "target: Construction"),
    ),
    ("senshiai", "cards", "duration"): (
        senshiai(SENSHIAI_EVENT, None),
        senshiai(SENSHIAI_EVENT, "duration: until the end of the round"),
    ),
    ("senshiai", "cards", "abilities"): (
        senshiai(SENSHIAI_TROOP, None),
        senshiai(SENSHIAI_TROOP, "abilities: [Production]"),
    ),
    ("senshiai", "cards", "text"): (senshiai(SENSHIAI_TROOP, None), senshiai(SENSHIAI_TROOP, "text: Charge!")),
    ("senshiai", "cards", "modifiers"): (
        senshiai(SENSHIAI_EVENT, None),
        senshiai(SENSHIAI_EVENT, "modifiers: [-0/0/2]"),
    ),
    ("senji", "provinces", "known"): (senji(None), senji("known: false")),
    ("senji", "provinces", "region"): (senji(None), senji("region: Kanto")),
    ("senji", "provinces", "adjacent"): (
        senji(None),
        senji("adjacent: [Dewa]", SENJI_OTHERS.replace("name: Dewa,", "name: Dewa, adjacent: [Test Land],")),
    ),
    ("senji", "provinces", "seas"): (senji(None), senji("seas: [Inland Sea]")),
    ("satsuma", "cards", "side"): (satsuma(None), satsuma("side: imperial")),
    ("satsuma", "cards", "printed"): (satsuma(None), satsuma("printed: F6")),
    ("satsuma", "cards", "unknown_suit"): (satsuma(None), satsuma("unknown_suit: true")),
    ("herocard", "attribute_cards", "hero"): (
        herocard("attribute_cards", None),
        herocard("attribute_cards", "hero: Other Hero"),
    ),
    ("herocard", "attribute_cards", "attribute"): (
        herocard("attribute_cards", None),
        herocard("attribute_cards", "attribute: mind"),
    ),
    ("herocard", "attribute_cards", "score"): (
        herocard("attribute_cards", None),
        herocard("attribute_cards", "score: 2"),
    ),
    ("herocard", "attribute_cards", "hero_points"): (
        herocard("attribute_cards", None),
        herocard("attribute_cards", "hero_points: 12"),
    ),
    ("herocard", "attribute_cards", "text"): (
        herocard("attribute_cards", None),
        herocard("attribute_cards", "text: Stronger."),
    ),
    ("herocard", "action_cards", "hero"): (
        herocard("action_cards", None),
        herocard("action_cards", "hero: Other Hero"),
    ),
    ("herocard", "action_cards", "kind"): (
        herocard("action_cards", None),
        herocard("action_cards", "kind: base-block"),
    ),
    ("herocard", "action_cards", "action_type"): (
        herocard("action_cards", None),
        herocard("action_cards", "action_type: exclusive"),
    ),
    ("herocard", "action_cards", "cost"): (herocard("action_cards", None), herocard("action_cards", "cost: 9")),
    ("herocard", "action_cards", "attribute"): (
        herocard("action_cards", None),
        herocard("action_cards", "attribute: mind"),
    ),
    ("herocard", "action_cards", "value"): (herocard("action_cards", None), herocard("action_cards", "value: 5")),
    ("herocard", "action_cards", "variable"): (
        herocard("action_cards", None),
        herocard("action_cards", "variable: the number of Peasants"),
    ),
    ("herocard", "action_cards", "text"): (
        herocard("action_cards", None),
        herocard("action_cards", "text: Strike twice."),
    ),
    ("kensei", "troops", "clans"): (kensei(None), kensei("clans: [kuge]")),
    ("kensei", "troops", "list_section"): (
        kensei(None, KENSEI_ANY, "hattori"),
        kensei("list_section: common", KENSEI_ANY, "hattori"),
    ),
    ("kensei", "troops", "cost"): (kensei(None), kensei("cost: 12")),
    ("kensei", "troops", "purchase"): (kensei(None), kensei("purchase: {models: 2, points: 5}")),
    ("kensei", "troops", "troop_class"): (kensei(None), kensei("troop_class: E")),
    ("kensei", "troops", "leader"): (kensei(None), kensei("leader: true")),
    ("kensei", "troops", "general"): (kensei(None), kensei("general: true")),
    ("kensei", "troops", "unique"): (kensei(None), kensei("unique: true")),
    ("kensei", "troops", "legendary"): (kensei(None), kensei("legendary: true")),
    ("kensei", "troops", "troop_type"): (kensei(None), kensei("troop_type: mounted")),
    ("kensei", "troops", "titles"): (kensei(None), kensei("titles: [Monk]")),
    ("kensei", "troops", "volume"): (kensei(None), kensei("volume: 3")),
    ("kensei", "troops", "weapons"): (kensei(None), kensei("weapons: [Yumi]")),
    ("kensei", "troops", "armour"): (kensei(None), kensei("armour: [Cavalry Armour]")),
    ("kensei", "troops", "mount"): (kensei(None), kensei("mount: horse")),
    ("kensei", "troops", "abilities"): (kensei(None), kensei("abilities: [Trained]")),
    ("kensei", "troops", "ki_abilities"): (kensei(None), kensei("ki_abilities: [Stealth]")),
    ("kensei", "troops", "living"): (
        kensei(None, KENSEI_ANY, "kuroi-te"),
        kensei("living: false", KENSEI_ANY, "kuroi-te"),
    ),
    ("kensei", "troops", "common"): (
        kensei(None, KENSEI_ANY, "hattori"),
        kensei("common: true", KENSEI_ANY, "hattori"),
    ),
    ("kensei", "troops", "realm"): (
        kensei(None, KENSEI_CREATURE, house_rules=REALM_RULE),
        kensei("realm: celestial", KENSEI_CREATURE, house_rules=REALM_RULE),
    ),
    ("kensei", "troops", "single"): (kensei(None), kensei("single: true")),
    ("kensei", "troops", "unit_min"): (kensei(None), kensei("unit_min: 5")),
    ("kensei", "troops", "unit_max"): (kensei(None), kensei("unit_max: 3")),
    ("kensei", "troops", "companions"): (kensei(None), kensei("companions: [{troop: Shikigami, count: 2}]")),
    ("kensei", "troops", "profile"): (kensei(None), kensei("profile: {mov: 15, at: 3, ini: 2, ho: 4, wo: 1}")),
}


def _documented() -> set[tuple[str, str, str]]:
    return {(g, section, f) for g in GAMES for section, fields in get(g).packs.docs.items() for f in fields}


def test_every_documented_pack_field_has_a_case():
    assert set(CASES) == _documented()


def observe(tmp_path, pack: str, list_text: str) -> str:
    """What a player sees of the list with ``pack``: the check, the text export, the printed
    card faces or roster rows and unit cards, the catalog rows beside the list; or the refusal."""
    (tmp_path / "p.yaml").write_text(pack, encoding="utf-8")
    path = tmp_path / "list.yaml"
    path.write_text(list_text, encoding="utf-8")
    try:
        doc, catalog, lst, res = load_checked(path)
    except CatalogError as exc:
        return "refused: " + "\n".join(exc.lines())
    gs = get(doc.system)
    seen: dict = {
        "findings": [(f.severity, f.code, f.message, f.value, f.bound) for f in res.findings],
        "summary": res.summary,
    }
    from builder.api import export

    seen["export"] = export(str(path), "markdown")
    if doc.system == "kensei":
        from builder.games.kensei.roster import glossary, troop_line, unit_card_data

        seen["roster"] = [troop_line(e, catalog) for e in lst.entries]
        seen["cards"] = unit_card_data(lst, catalog)
        seen["glossary"] = glossary(lst, catalog)
    elif doc.system == "senji":
        from builder.games.senji.rules import setup_sheet

        seen["sheet"] = setup_sheet(lst, catalog, res.house_rules)
    else:
        from builder.render.cards.template import choose_layout, description, list_cards, load_template

        tpl = load_template(doc.system)
        faces, _ = list_cards(doc, catalog, lst)
        for f in faces:
            f.layout = choose_layout(tpl, f.entry)
        seen["faces"] = [(f.name, f.layout, description(tpl, f, catalog)) for f in faces]
    browse = gs.browse
    seen["browse"] = [
        (
            e.name,
            browse.entry_facts(e),
            browse.entry_type(e),
            browse.cost_text(e, getattr(e, "cost", None)),
            browse.option_extra(doc.data, e),
        )
        for _, e in browse.entries(doc.data, catalog)
        if getattr(e, "name", "").startswith("Test")
    ]
    return json.dumps(seen, default=str, sort_keys=True)


@pytest.mark.parametrize("case", sorted(CASES), ids=lambda c: ".".join(c))
def test_a_documented_pack_field_has_an_effect(tmp_path, case):
    (pack_a, list_a), (pack_b, list_b) = CASES[case]
    assert pack_a.count("\n") == pack_b.count("\n")  # the same lines: only the field differs
    a = observe(tmp_path, pack_a, list_a)
    b = observe(tmp_path, pack_b, list_b)
    assert not a.startswith("refused"), a  # the case's first pack is a good one
    assert a != b, f"{case}: accepted and then dropped (nothing a player sees changes)"
