"""Every field a pack may write has an effect: a field that is accepted and then silently dropped
is a defect. The guard (``test_every_pack_field_has_a_case``) takes every field of every entry
section of every game's catalog model, and each has a case of one of three kinds:

* ``CASES``: two packs that differ only in the field give a different check (findings, summary),
  a different printed or exported value (card faces and their art, roster rows, unit cards, the
  catalog beside a list, the text export), or the pack is refused. Every field a game documents
  for its main sections (``gs.packs.docs``) is one of these.
* ``SHOWN``: the fields of the sections a pack template only lists (the game's reference data:
  card kinds, troop classes, weapons, treasures ...) and the fields every entry takes (id,
  aliases, notes, assumed, source): the value a pack gives is what ``daimyo catalog list/show``
  and the builder's entry detail show, or a value that contradicts another field is refused
  (``SHOWN_REFUSED``). Many of these act in the check as well (restrictions, titles, targets ...);
  those that act in the lists of the cases above are cases of ``CASES`` (``ALSO_ACTS``).
* ``REFUSED``: art (and its focus) of an entry of a section the game never prints with art:
  ``pack check`` refuses the pack with one line naming the pack's file and line."""

from __future__ import annotations

import json

import pytest
from sweeps import quick_first

from builder.catalog.loader import load_catalog
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
SENJI_LAND = "Test Land, id: province-06, known: true"

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
    if not any(p.split(":", 1)[0].strip() == "assumed" for p in parts):
        parts.append("assumed: t")
    return "  - {name: " + ", ".join([name, *parts]) + "}\n"


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


def senshiai_subtype(change: str | None) -> tuple[str, str]:
    """A pack's own subtype (Ashigaru) and the Troop of that subtype of the Senshiai list."""
    pack, text = senshiai(SENSHIAI_TROOP.replace("subtype: Infantry", "subtype: Ashigaru"), None)
    return pack + "subtypes:\n" + _entry("Ashigaru", "", change), text


def senji(change: str | None, others: str = SENJI_OTHERS) -> tuple[str, str]:
    name, land = SENJI_LAND.split(", ", 1)
    pack = "system: senji\nname: p\nprovinces:\n" + others + _entry(name, land, change)
    return pack, SENJI_LIST


def satsuma(change: str | None) -> tuple[str, str]:
    return "system: satsuma\nname: p\ncards:\n" + _entry("Test Card", SATSUMA_CARD, change), SATSUMA_LIST


def herocard(section: str, change: str | None, action: str = HEROCARD_ACTION) -> tuple[str, str]:
    heroes = HEROCARD_HEROES
    if section == "heroes":
        heroes = "heroes:\n" + _entry("Test Hero", "", change) + "  - {name: Other Hero, assumed: t}\n"
    pack = "system: herocard\nname: p\n" + heroes + "attribute_cards:\n"
    for name, fields in HEROCARD_ATTRS.items():
        pack += _entry(name, fields, change if (section == "attribute_cards" and name == "Test Body") else None)
    pack += "action_cards:\n" + _entry("Test Action", action, change if section == "action_cards" else None)
    return pack, HEROCARD_LIST


def herocard_kind(change: str | None) -> tuple[str, str]:
    """The HeroCard deck of one Attack Mod, with a pack that also changes the Attack Mod kind."""
    pack, text = herocard("action_cards", None, HEROCARD_ACTION.replace("kind: base-attack", "kind: attack-mod"))
    return pack + "card_kinds:\n" + _entry("Attack Mod", "", change), text


# an action card paid in X that costs more than the hero's X score: the check names the attribute
HEROCARD_X_ACTION = HEROCARD_ACTION.replace("cost: 3, attribute: body", "cost: 9, attribute: x")


def kensei(change: str | None, base: str = KENSEI_TROOP, clan: str = "buke", house_rules: str = "") -> tuple[str, str]:
    pack = "system: kensei\nname: p\ntroops:\n" + _entry("Test Troop", base, change) + KENSEI_ONMYOUJI
    text = KENSEI_LIST.replace("clan: buke", f"clan: {clan}" + (f"\nhouse_rules: {house_rules}" if house_rules else ""))
    return pack, text


# a troop any clan may field; Hattori take no common troops, the Kuroi-te no living ones
KENSEI_ANY = KENSEI_TROOP.replace("clans: [buke]", "clans: [any]")
# a creature, for the house rule that the Onmyouji's realm limits the creatures bought
KENSEI_CREATURE = KENSEI_ANY.replace("troop_type: infantry", "troop_type: creature") + ", realm: infernal"
REALM_RULE = "{onmyouji_realm_limits_troops: true}"


def kensei_class(change: str | None, base: str = KENSEI_TROOP, clan: str = "buke") -> tuple[str, str]:
    """The Kensei list with a pack that also changes the Warrior troop class (Test Troop's)."""
    pack, text = kensei(None, base, clan)
    return pack + "troop_classes:\n" + _entry("Warrior", "", change), text


def kensei_clan(change: str | None) -> tuple[str, str]:
    """The Kensei list (of the Buke) with a pack that also changes the Buke clan."""
    pack, text = kensei(None)
    return pack + "clans:\n" + _entry("Buke", "", change), text


def kensei_type(change: str | None) -> tuple[str, str]:
    """The Kensei list, Test Troop a unit of 12 infantry, with a pack that also changes Infantry."""
    pack, text = kensei(None)
    text = text.replace("troop: Test Troop\n    models: 4", "troop: Test Troop\n    models: 12")
    return pack + "troop_types:\n" + _entry("Infantry", "", change), text


KENSEI_LEADER = KENSEI_TROOP.replace("leader: false", "leader: true")
KENSEI_DEAR = KENSEI_TROOP.replace("cost: 10", "cost: 60")  # 240 AP of the list's 400


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
    # a subtype that sets its cards' Type, greatest Speed or cost (as the Capital does, 000:62-66)
    ("senshiai", "subtypes", "type"): (senshiai_subtype(None), senshiai_subtype("type: event")),
    ("senshiai", "subtypes", "max_speed"): (senshiai_subtype(None), senshiai_subtype("max_speed: 1")),
    ("senshiai", "subtypes", "cost"): (senshiai_subtype(None), senshiai_subtype("cost: III")),
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
    # the art printed on a card (a path relative to the pack) and the part of it kept when cropped
    ("senshiai", "cards", "art"): (senshiai(SENSHIAI_TROOP, None), senshiai(SENSHIAI_TROOP, "art: a.png")),
    ("senshiai", "cards", "focus"): (senshiai(SENSHIAI_TROOP, None), senshiai(SENSHIAI_TROOP, "focus: top")),
    ("satsuma", "cards", "art"): (satsuma(None), satsuma("art: a.png")),
    ("satsuma", "cards", "focus"): (satsuma(None), satsuma("focus: '0.5,0.2'")),
    ("herocard", "attribute_cards", "art"): (
        herocard("attribute_cards", None),
        herocard("attribute_cards", "art: a.png"),
    ),
    ("herocard", "attribute_cards", "focus"): (
        herocard("attribute_cards", None),
        herocard("attribute_cards", "focus: bottom"),
    ),
    ("herocard", "action_cards", "art"): (herocard("action_cards", None), herocard("action_cards", "art: a.png")),
    ("herocard", "action_cards", "focus"): (herocard("action_cards", None), herocard("action_cards", "focus: left")),
    # what a troop class is (001:1302-1306): who may be the general (001:1741-1744), what counts
    # toward the creatures' 50% (001:6049-6060) and which troops a Kuroi-te army may take (001:5993-5996)
    ("kensei", "troop_classes", "can_be_general"): (
        kensei_class(None, KENSEI_LEADER),
        kensei_class("can_be_general: true", KENSEI_LEADER),
    ),
    ("kensei", "troop_classes", "creature"): (
        kensei_class(None, KENSEI_DEAR),
        kensei_class("creature: true", KENSEI_DEAR),
    ),
    ("kensei", "troop_classes", "spiritual"): (
        kensei_class(None, KENSEI_ANY, "kuroi-te"),
        kensei_class("spiritual: true", KENSEI_ANY, "kuroi-te"),
    ),
    # which largest unit size a troop type has (001:5919-5922: infantry 15, skirmishers 5, others 10)
    ("kensei", "troop_types", "max_unit_size_key"): (kensei_type(None), kensei_type("max_unit_size_key: other")),
    # an army is raised from one of the playable clans (001:286)
    ("kensei", "clans", "playable"): (kensei_clan(None), kensei_clan("playable: false")),
    # what a mod needs played with it (004:993-1001: an Attack Mod, a Base Attack)
    ("herocard", "card_kinds", "needs"): (herocard_kind(None), herocard_kind("needs: special-attack")),
    # which Attribute X the hero has (004:858-864): the check names it beside the letter
    ("herocard", "heroes", "attribute_x"): (
        herocard("heroes", None, HEROCARD_X_ACTION),
        herocard("heroes", "attribute_x: spirit", HEROCARD_X_ACTION),
    ),
}


# the cases whose second pack is refused, and the words it is refused with
CASES_REFUSED = {
    ("kensei", "troops", "general"): "troop 'Test Troop' is class W; only class H can be the army general",
    ("herocard", "action_cards", "variable"): "give either a constant 'value' or a 'variable' value, not both",
    ("satsuma", "cards", "unknown_suit"): "card 'Test Card' is flagged unknown_suit but all its suits exist",
    ("senshiai", "subtypes", "type"): "p.yaml:5:29: error catalog.reference: an Ashigaru is an event card, not a troop",
    ("senshiai", "subtypes", "max_speed"): "an Ashigaru's speed can never be above 1",
    ("senshiai", "subtypes", "cost"): "an Ashigaru costs III, not II",
}


def _documented() -> set[tuple[str, str, str]]:
    return {(g, section, f) for g in GAMES for section, fields in get(g).packs.docs.items() for f in fields}


def test_every_documented_pack_field_has_a_case():
    assert _documented() <= set(CASES)


def _art(path) -> str | None:
    return None if path is None else path.name


def observe(tmp_path, pack: str, list_text: str) -> str:
    """What a player sees of the list with ``pack``: the check, the text export, the printed
    card faces or roster rows and unit cards, the catalog rows beside the list; or the refusal."""
    (tmp_path / "p.yaml").write_text(pack, encoding="utf-8")
    (tmp_path / "a.png").write_bytes(b"an image a pack names")
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
        from builder.render.cards.art import face_focus, find_art
        from builder.render.cards.template import choose_layout, description, list_cards, load_template

        tpl = load_template(doc.system)
        faces, _ = list_cards(doc, catalog, lst)
        for f in faces:
            f.layout = choose_layout(tpl, f.entry)
        seen["faces"] = [
            (f.name, f.layout, description(tpl, f, catalog), _art(find_art(f, tpl, [tmp_path / "art"], tmp_path)))
            + (face_focus(f),)
            for f in faces
        ]
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


# -- every field of every section: the reference sections and the fields every entry takes -----

# the fields every entry takes, with the value a case gives it
COMMON = {
    "id": "test-id",
    "aliases": "[Test Alias]",
    "notes": "Test notes.",
    "assumed": "Test reason.",
    "source": "'000_ac601013730960cf.txt:2'",
}

# game -> section -> (the entry a pack changes, the fields of both packs, {field: value}): the
# value a pack gives is what 'daimyo catalog list/show' and the builder's entry detail show
SHOWN = {
    "senshiai": {
        "card_types": (
            "Unit",
            "",
            {
                "kind": "type",
                "function": "Test function.",
                "fields": "[name, subtype]",
                "required": "[subtype]",
                "play": "Test play.",
            },
        ),
        "subtypes": (
            "Capital",
            "",
            {
                "required": "[]",
                "implied_abilities": "[Recruit]",
                "description": "Test description.",
            },
        ),
        "paths": ("Air", "", {}),
        "costs": ("N", "", {"value": "1"}),
        "traits": ("Melee", "", {"key": "test", "range": "Test range", "nulla": "false"}),
        "abilities": (
            "Activate",
            "",
            {
                "syntax": "'Activate [number]: [effect] (once a turn)'",
                "params": "[{name: number, kind: number}]",
                "applies_to": "[troop]",
                "text": "Test text.",
            },
        ),
        "targets": (
            "Unit",
            "",
            {
                "matches_types": "[terrain]",
                "matches_subtypes": "[Infantry]",
                "matches_abilities": "[Recruit]",
                "always": "true",
                "description": "Test description.",
            },
        ),
        "cards": ("Warriors", "", {}),
    },
    "senji": {
        "families": ("yellow", "", {"colour": "Test colour", "symbol": "Test symbol", "known": "false"}),
        "provinces": ("Kyushu", "", {}),
        "samurai": ("Chosogabe", "", {"known": "false", "honor": "1", "ability": "Test ability."}),
        "kami": ("Diplomatic Kami", "", {"colour": "Test colour", "power": "Test power."}),
        "components": ("Game board", "", {"total": "2", "per_player": "1", "placed_at_start": "1"}),
    },
    "satsuma": {
        "sides": ("samurai", "", {"deck_size": "47", "first_attacker": "false"}),
        "suits": ("Force", "", {"letter": "Z", "number": "9"}),
        "cards": ("Takamori Saigo", "", {}),
    },
    "herocard": {
        "attribute_kinds": ("Body", "", {"letter": "M", "key": "mind", "description": "Test description."}),
        "action_types": (
            "Fast",
            "",
            {"key": "restricted", "own_turn_only": "true", "per_turn": "1", "description": "Test description."},
        ),
        "card_kinds": (
            "Test Kind",
            "key: other, group: other, role: other, label: Test, valued: false, description: Test.",
            {
                "key": "block-mod",
                "group": "block",
                "role": "mod",
                "label": "Test label",
                "valued": "true",
                "typical_type": "fast",
                "description": "Test description.",
            },
        ),
        "heroes": ("Samurai", "", {"included": "false", "description": "Test description."}),
        "attribute_cards": ("Warrior's Strength", "", {}),
        "action_cards": ("Overhand Thrust", "", {}),
        "treasures": ("An Heir", "", {"kind": "item", "victory_points": "6", "value": "1", "text": "Test text."}),
    },
    "kensei": {
        "clans": (
            "Kuge",
            "",
            {
                "living": "false",
                "description": "Test description.",
                "army_building": "[{name: Test rule, text: Test text., assumed: t}]",
                "special_actions": "[]",
            },
        ),
        "commander_levels": (
            "Taisho",
            "",
            {
                "cost": "11",
                "strategy_bonus": "2",
                "extra_command_cards": "3",
                "scenery_elements": "1",
                "effects": "Test effects.",
            },
        ),
        "battle_sizes": ("Vanguard", "", {"max_ap": "201", "description": "Test description."}),
        "troop_classes": (
            "Hero",
            "",
            {
                "order": "2",
                "lead_order": "5",
                "profile": "{at: 5, ini: 3, wo: 3}",
                "description": "Test description.",
            },
        ),
        "titles": ("Samurai", "", {"grants": "[Kenjutsu]", "living": "false", "creature": "true", "text": "Test."}),
        "troop_types": (
            "Infantry",
            "",
            {"formation": "open", "description": "Test description."},
        ),
        "volumes": ("v1", "", {"value": "2", "height_cm": "3.5", "description": "Test description."}),
        "weapon_types": (
            "Type 0 Basic Weapons",
            "",
            {"kind": "ranged", "number": "1", "range_cm": "1", "modifiers": "Test modifiers"},
        ),
        "weapons": ("Teppo", "", {"weapon_type": "mid-range", "ranged": "false", "firearm": "false"}),
        "armour": ("Samurai Armour", "", {"modifier": "0", "text": "Test text."}),
        "abilities": ("Accelerate", "", {"text": "Test text.", "kind": "PA", "template": "true"}),
        "troops": ("Hero Kuge Naginata", "", {}),
        "sample_lists": (
            "Kuge sample list",
            "",
            {
                "clan": "buke",
                "battle_size": "300",
                "commander_level": "taisho",
                "commander_level_printed": "true",
                "troops": "[{troop: Hero Kuge Naginata, models: 1, points: 20, assumed: t}]",
                "total": "196",
            },
        ),
        "command_cards": ("Command card 0", "", {"value": "1", "count": "8", "suit": "Test suit"}),
        "restrictions": (
            "Total points within the battle size",
            "",
            {
                "code": "test-max",
                "label": "Test label",
                "noun": "Test noun",
                "count": "models",
                "of": "{class: H}",
                "for_each": "entry",
                "plus": "[]",
                "min": "{value: 1}",
                "max": "{value: 1000}",
                "exactly": "{value: 400}",
                "when": "{clan: buke}",
                "unless": "{clan: buke}",
                "replaces": "[leaders-min]",
                "severity": "warning",
                "message": "Test message.",
                "hint": "Test hint.",
                "at": "[troops]",
            },
        ),
    },
}

# the cases whose value contradicts another field of the entry: the pack is refused with this
SHOWN_REFUSED = {
    ("kensei", "weapons", "ranged"): "weapon 'Teppo' is of ranged type 'Long-range' but ranged is False",
    ("kensei", "weapon_types", "kind"): "is of ranged type 'Type 0 Basic Weapons' but ranged is False",
    # the key the catalog's other entries name it by
    ("kensei", "weapon_types", "id"): "has unknown weapon type 'type-0'",
    ("kensei", "troop_classes", "id"): "has unknown class 'H'",
    ("satsuma", "sides", "id"): "side 'samurai' is missing",
    ("satsuma", "suits", "letter"): "uses suit letter 'F', which is none of",
    # a sample list adds up to its printed total (001:6131-6146)
    ("kensei", "commander_levels", "cost"): "adds up to 201 AP (troops 190 + commander level 11), not its total 200",
    ("kensei", "sample_lists", "commander_level"): "adds up to 205 AP (troops 195 + commander level 10)",
    ("kensei", "sample_lists", "troops"): "adds up to 20 AP (troops 20 + commander level 0), not its total 195",
    ("kensei", "sample_lists", "total"): "adds up to 195 AP (troops 195 + commander level 0), not its total 196",
    ("kensei", "restrictions", "exactly"): "'exactly' excludes 'min' and 'max'",
}

ART = ("art", "focus")


def _accepted() -> set[tuple[str, str, str]]:
    """Every (game, section, field) a pack may write: the fields of every entry section's model."""
    from builder.catalog.loader import entry_sections
    from builder.packs.fields import entry_model
    from builder.systems import catalog_module

    out = set()
    for g in GAMES:
        for section in entry_sections(catalog_module(g).CATALOG_MODEL):
            out |= {(g, section, f) for f in entry_model(g, section).model_fields if f != "name"}
    return out


def _shown() -> dict[tuple[str, str, str], tuple[str, str, str]]:
    """(game, section, field) -> (entry, the fields of both packs, value)."""
    out = {}
    for g, by_section in SHOWN.items():
        for section, (name, base, fields) in by_section.items():
            for f, v in {**fields, **COMMON}.items():
                if (g, section, f) not in ALSO_ACTS:
                    out[(g, section, f)] = (name, base, v)
    return out


# reference fields whose SHOWN value also changes the check or the printout of each game's list
# above: their case is in CASES (the game's list with its pack, and the entry changed beside it)
ALSO_ACTS = {
    ("kensei", "restrictions", "replaces"),  # the restriction it replaces is not checked
    ("kensei", "titles", "grants"),  # the roster's glossary of abilities
    ("kensei", "troop_classes", "profile"),  # the profile a troop of the class prints
    ("senji", "components", "per_player"),  # the setup sheet
    ("senshiai", "subtypes", "required"),  # what a card of the subtype must print
}


def _also_acts(case: tuple[str, str, str]):
    g, section, f = case
    name, base, fields = SHOWN[g][section]
    pack, text = {
        "senshiai": senshiai(SENSHIAI_TROOP, None),
        "senji": senji(None),
        "satsuma": satsuma(None),
        "herocard": herocard("action_cards", None),
        "kensei": kensei(None),
    }[g]
    return tuple((pack + f"{section}:\n" + _entry(name, base, change), text) for change in (None, f"{f}: {fields[f]}"))


CASES.update({case: _also_acts(case) for case in ALSO_ACTS})


# the sections each game prints with their art: the card games' cards (a HeroCard Treasure is
# never in a list, 004:294-300); Senji prints a setup sheet and Kensei a roster, without art
PRINTED_WITH_ART = {
    "senshiai": ("cards",),
    "senji": (),
    "satsuma": ("cards",),
    "herocard": ("attribute_cards", "action_cards"),
    "kensei": (),
}


def test_the_sections_printed_with_art_are_the_games_own():
    assert {g: tuple(get(g).packs.art_sections) for g in GAMES} == PRINTED_WITH_ART


def _refused() -> set[tuple[str, str, str]]:
    """Art and its focus of every section a game does not print with art."""
    return {(g, s, f) for g, s, f in _accepted() if f in ART and s not in PRINTED_WITH_ART[g]}


def test_every_pack_field_has_a_case():
    """A field a catalog model accepts in a pack entry has a case (a field added to a model
    without one fails here), and each field has one kind of case only."""
    kinds = [set(CASES), set(_shown()), _refused()]
    assert set().union(*kinds) == _accepted()
    assert sum(len(k) for k in kinds) == len(_accepted())


def _pack(game: str, section: str, name: str, base: str, change: str | None) -> str:
    return f"system: {game}\nname: p\n{section}:\n" + _entry(name, base, change)


def seen_in_catalog(tmp_path, game: str, section: str, name: str, pack: str) -> str:
    """The entry as 'daimyo catalog list' and 'catalog show' print it and the builder's entry
    detail gives it, with the pack; or the pack's refusal."""
    from builder.catalog.browse import list_entries, show_entry
    from builder.catalog.loader import load_catalog
    from builder.errors import DaimyoError
    from builder.web.views import entry_detail

    path = tmp_path / "p.yaml"
    path.write_text(pack, encoding="utf-8")
    try:
        catalog = load_catalog(game, [str(path)])
        seen = {"detail": entry_detail(catalog, section, name), "list": list_entries(game, section, [], [str(path)])}
        try:
            seen["show"] = show_entry(game, name, [str(path)])
        except DaimyoError as exc:  # the name is first found in another section
            seen["show"] = exc.lines()
    except CatalogError as exc:
        return "refused: " + "\n".join(exc.lines())
    return json.dumps(seen, default=str, sort_keys=True)


# what the catalog shows of a section's base entry, without the field, by pack: each section's
# fields share it (38 bases for 303 cases); the folder it was seen in is kept as a mark, and a
# case gets it with its own folder in place, exactly as if seen there
_BASE_SEEN: dict[tuple[str, str, str, str], str] = {}
_FOLDER = "\x00folder\x00"


def seen_base(tmp_path, game: str, section: str, name: str, pack: str) -> str:
    key = (game, section, name, pack)
    if key not in _BASE_SEEN:
        _BASE_SEEN[key] = seen_in_catalog(tmp_path, game, section, name, pack).replace(str(tmp_path), _FOLDER)
    return _BASE_SEEN[key].replace(_FOLDER, str(tmp_path))


@pytest.mark.parametrize("case", quick_first(sorted(_shown()), group=lambda c: c[:2]), ids=lambda c: ".".join(c))
def test_a_reference_field_is_shown(tmp_path, case):
    game, section, field = case
    name, base, value = _shown()[case]
    a = seen_base(tmp_path, game, section, name, _pack(game, section, name, base, None))
    b = seen_in_catalog(tmp_path, game, section, name, _pack(game, section, name, base, f"{field}: {value}"))
    assert not a.startswith("refused"), a
    if case in SHOWN_REFUSED:  # a value that contradicts another field: the pack is refused for it
        assert b.startswith("refused") and SHOWN_REFUSED[case] in b, b
    else:
        assert not b.startswith("refused"), b
        assert a != b, f"{case}: accepted and then dropped (the catalog shows the same entry)"


@pytest.mark.parametrize("case", sorted(_refused()), ids=lambda c: ".".join(c))
def test_art_of_a_section_never_printed_is_refused(tmp_path, case):
    game, section, field = case
    name = next(n for n, _, _ in [_shown()[(game, section, "id")]])
    base = _shown()[(game, section, "id")][1]
    value = "a.png" if field == "art" else "top"
    pack = _pack(game, section, name, base, f"{field}: {value}")
    seen = seen_in_catalog(tmp_path, game, section, name, pack)
    assert seen.startswith("refused"), f"{case}: accepted and then dropped"
    lines = seen.removeprefix("refused: ").splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{tmp_path / 'p.yaml'}:4:"), lines
    assert f"'{field}' is not used in {section}" in lines[0], lines


def _findings(tmp_path, pack: str, list_text: str) -> list[tuple[str, str]]:
    (tmp_path / "p.yaml").write_text(pack, encoding="utf-8")
    (tmp_path / "list.yaml").write_text(list_text, encoding="utf-8")
    _doc, _catalog, _lst, res = load_checked(tmp_path / "list.yaml")
    return [(f.code, f.message) for f in res.findings]


def test_a_pack_troop_class_decides_who_may_be_general_and_what_is_a_creature_or_spiritual(tmp_path):
    """The check reads the troop classes a pack changes, not a fixed list of classes."""
    before = _findings(tmp_path, *kensei_class(None, KENSEI_LEADER))
    after = _findings(tmp_path, *kensei_class("can_be_general: true", KENSEI_LEADER))
    assert [f for f in after if f not in before] == [
        (
            "kensei.general-ambiguous",
            "2 Heroes could be the army general ('Taisho Buke', 'Test Troop'); name one with 'general:'",
        )
    ]
    before = _findings(tmp_path, *kensei_class(None, KENSEI_DEAR))
    after = _findings(tmp_path, *kensei_class("creature: true", KENSEI_DEAR))
    assert [f for f in after if f not in before] == [
        ("kensei.creatures-max", "purchased creatures 315 AP > 50% of 400 AP = 200 AP")
    ]
    before = _findings(tmp_path, *kensei_class(None, KENSEI_ANY, "kuroi-te"))
    after = _findings(tmp_path, *kensei_class("spiritual: true", KENSEI_ANY, "kuroi-te"))
    living = [f for f in before if f[0] == "kensei.no-living-troops"]
    assert ("kensei.no-living-troops", "Test Troop is a living troop; a Kuroi-te army takes none") in living
    assert ("kensei.no-living-troops", "Test Troop is a living troop; a Kuroi-te army takes none") not in after


def test_a_pack_class_that_may_be_general_lets_a_troop_of_it_say_so(tmp_path):
    pack = "system: kensei\nname: p\ntroops:\n" + _entry("Test Troop", KENSEI_LEADER, "general: true")
    path = tmp_path / "p.yaml"
    path.write_text(pack, encoding="utf-8")
    with pytest.raises(CatalogError) as exc:
        load_catalog("kensei", [str(path)])
    assert "troop 'Test Troop' is class W; only class H can be the army general" in "\n".join(exc.value.lines())
    path.write_text(pack + "troop_classes:\n" + _entry("Warrior", "", "can_be_general: true"), encoding="utf-8")
    assert load_catalog("kensei", [str(path)]).find("troops", "Test Troop").general is True


def test_the_check_names_the_heroes_attribute_x(tmp_path):
    """004:858-864: which Attribute X a Hero has is on its rules; the check names it."""
    found = _findings(tmp_path, *herocard("heroes", "attribute_x: spirit", HEROCARD_X_ACTION))
    assert (
        "herocard.cost-exceeds-score",
        "'Test Action' costs 9 X but the hero's X (spirit) score is 6: it can never be played",
    ) in found


def test_pack_check_refuses_art_a_game_never_prints(tmp_path, cli):
    """One line naming the pack's file and line, exit 2 (a usage error)."""
    path = tmp_path / "p.yaml"
    path.write_text("system: senji\nname: p\nprovinces:\n  - name: Kyushu\n    art: kyushu.png\n", encoding="utf-8")
    res = cli("pack", "check", str(path))
    assert res.code == 2
    lines = [ln for ln in (res.stdout + res.stderr).splitlines() if ln.strip()]
    assert lines == [
        f"{path}:5:5: error pack.unused: 'art' is not used in provinces: senji prints no card with art; remove it"
    ]


def test_a_pack_subtype_sets_the_type_speed_and_cost_of_its_cards(tmp_path):
    """What a subtype sets is checked for every subtype a pack defines, not the Capital alone."""
    for change, line in [
        ("type: event", "an Ashigaru is an event card, not a troop"),
        ("max_speed: 1", "an Ashigaru's speed can never be above 1"),
        ("cost: III", "an Ashigaru costs III, not II"),
    ]:
        seen = observe(tmp_path, *senshiai_subtype(change))
        assert seen.startswith("refused"), change
        assert "p.yaml:5:" in seen and line in seen, seen


def test_a_clan_a_pack_marks_not_playable_raises_no_army(tmp_path):
    """001:286: an army is raised from one of the playable clans; the new-list form offers those."""
    assert (
        "kensei.clan-not-playable",
        "clan 'Buke' is not playable (its catalog entry says playable: false); "
        "choose one of Kuge, Sohei, Otokodate, Kuroi-te, Hattori",
    ) in _findings(tmp_path, *kensei_clan("playable: false"))
    assert not [f for f in _findings(tmp_path, *kensei_clan(None)) if f[0] == "kensei.clan-not-playable"]
    (tmp_path / "p.yaml").write_text(kensei_clan("playable: false")[0], encoding="utf-8")
    catalog = load_catalog("kensei", [str(tmp_path / "p.yaml")])
    (clan_field,) = [f for f in get("kensei").new_list.fields(catalog) if f["key"] == "clan"]
    assert "buke" not in [k for k, _ in clan_field["choices"]]
    assert "kuge" in [k for k, _ in clan_field["choices"]]


def test_a_pack_troop_type_sets_its_largest_unit(tmp_path):
    """001:5919-5922: the largest unit is the troop type's (infantry 15, skirmishers 5, others 10)."""
    assert not [f for f in _findings(tmp_path, *kensei_type(None)) if f[0] == "kensei.unit-size-max"]
    assert ("kensei.unit-size-max", "Test Troop: unit of 12 models > 10 (mounted and creature units)") in _findings(
        tmp_path, *kensei_type("max_unit_size_key: other")
    )


def test_a_mod_needs_what_its_card_kind_says(tmp_path):
    """004:993-1001: a mod cannot stand alone; what it needs is its card_kinds entry's 'needs'."""
    assert (
        "herocard.mod-without-base",
        "'Test Action' (Attack Mod) can never be played: the deck has no Base Attack and a mod cannot stand alone",
    ) in _findings(tmp_path, *herocard_kind(None))
    assert (
        "herocard.mod-without-base",
        "'Test Action' (Attack Mod) can never be played: the deck has no Special Attack and a mod cannot stand alone",
    ) in _findings(tmp_path, *herocard_kind("needs: special-attack"))


def test_a_spreadsheet_art_column_a_game_never_prints_is_refused(tmp_path, cli):
    sheet = tmp_path / "troops.csv"
    sheet.write_text("# system: kensei\n# name: t\nname,cost,art\nTest Guy,10,a.png\n", encoding="utf-8")
    res = cli("pack", "import", str(sheet), "-o", str(tmp_path / "t.yaml"))
    assert res.code == 2
    assert [ln for ln in (res.stdout + res.stderr).splitlines() if ln.strip()] == [
        f"{sheet}:3:3: error: column 'art' is not used: kensei prints no card with art; remove the column"
    ]
    assert not (tmp_path / "t.yaml").exists()


# what a player sees of a case's first pack and list, by the two: cases share them (24 for 80),
# with the folder kept as a mark as for the catalog's base entries
_FIRST_SEEN: dict[tuple[str, str], str] = {}


def observe_first(tmp_path, pack: str, list_text: str) -> str:
    if (pack, list_text) not in _FIRST_SEEN:
        _FIRST_SEEN[pack, list_text] = observe(tmp_path, pack, list_text).replace(str(tmp_path), _FOLDER)
    return _FIRST_SEEN[pack, list_text].replace(_FOLDER, str(tmp_path))


@pytest.mark.parametrize("case", quick_first(sorted(CASES), group=lambda c: c[0]), ids=lambda c: ".".join(c))
def test_a_pack_field_has_an_effect(tmp_path, case):
    (pack_a, list_a), (pack_b, list_b) = CASES[case]
    assert pack_a.count("\n") == pack_b.count("\n")  # the same lines: only the field differs
    a = observe_first(tmp_path, pack_a, list_a)
    b = observe(tmp_path, pack_b, list_b)
    assert not a.startswith("refused"), a  # the case's first pack is a good one
    if case in CASES_REFUSED:  # a value the field may not take with the entry's other fields
        assert b.startswith("refused") and CASES_REFUSED[case] in b, b
    else:
        assert not b.startswith("refused"), b
        assert a != b, f"{case}: accepted and then dropped (nothing a player sees changes)"
