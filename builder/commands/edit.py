"""CLI commands that build a list: new, add, remove, set, why.

Each edit keeps the file's comments and key order (ruamel round trip), refuses a
file that does not parse (leaving it untouched), refuses unknown names with
suggestions, writes atomically, and prints the new totals and findings.
Kensei lists gain troops (units of N models); the card systems (Senshiai,
HeroCard, Satsuma Rebellion) gain and lose copies of cards, deck-builder style;
a Senji setup is started with ``new`` and named with ``set``.
"""

from __future__ import annotations

from typing import Optional

import typer

EDITABLE = ("kensei", "senshiai", "herocard", "senji", "satsuma")
CARD_SYSTEMS = ("senshiai", "herocard", "satsuma")
COMMON_ORDER = ("system", "name", "author", "notes", "packs", "house_rules")
KEY_ORDER = {
    "kensei": COMMON_ORDER + ("clan", "points", "commander", "occult", "general", "troops"),
    "senshiai": COMMON_ORDER + ("size", "cards"),
    "herocard": COMMON_ORDER + ("hero", "max_hero_points", "attributes", "deck"),
    "senji": COMMON_ORDER + ("players",),
    "satsuma": COMMON_ORDER + ("side", "deck", "cards"),
}


def _unsupported(system: str, what: str):
    from builder.errors import UsageError

    if system == "senji" and what in ("add", "remove", "why"):
        return UsageError(f"'{what}' takes cards or troops; a senji setup has neither",
                          "write players, families, samurai and provinces in the file; "
                          "'daimyo check' names what is missing")
    return UsageError(f"'{what}' is not supported for {system}", "supported: " + ", ".join(EDITABLE))


# -- kensei ------------------------------------------------------------------------------------

def kensei_new(catalog, clan: str, points: int, commander: str, name: str | None, occult: bool) -> dict:
    from builder.errors import UsageError

    c = catalog.find("clans", clan)
    if c is None:
        raise UsageError(f"unknown clan '{clan}'", catalog.did_you_mean("clans", clan) or
                         "one of " + ", ".join(e.id for e in catalog.entries("clans")))
    lvl = catalog.find("commander_levels", commander)
    if lvl is None:
        raise UsageError(f"unknown commander level '{commander}'",
                         catalog.did_you_mean("commander_levels", commander) or
                         "one of " + ", ".join(e.id for e in catalog.entries("commander_levels")))
    if points <= 0:
        raise UsageError(f"--points must be positive, not {points}", "e.g. --points 200")
    data = {"system": "kensei"}
    if name:
        data["name"] = name
    data.update({"clan": c.id, "points": points, "commander": lvl.id, "occult": occult, "troops": []})
    return data


def _troop_or_fail(catalog, name: str):
    from builder.errors import UsageError

    t = catalog.find("troops", name)
    if t is None:
        raise UsageError(f"unknown troop '{name}'", catalog.did_you_mean("troops", name) or
                         "see 'daimyo catalog list kensei troops'")
    return t


def _default_models(catalog, troop) -> int:
    from builder.rules.kensei import troop_facts

    facts = troop_facts(troop, catalog)
    if facts["unit"] is True:
        return max(3, troop.unit_min or 3)
    return 1


SET_KEYS = ("commander", "points", "clan", "occult", "general", "name")


def kensei_set_value(catalog, key: str, value: str):
    from builder.errors import UsageError
    from builder.names import did_you_mean

    if key not in SET_KEYS:
        raise UsageError(f"cannot set '{key}'", did_you_mean(key, SET_KEYS) or "one of " + ", ".join(SET_KEYS))
    if key == "commander":
        lvl = catalog.find("commander_levels", value)
        if lvl is None:
            raise UsageError(f"unknown commander level '{value}'",
                             catalog.did_you_mean("commander_levels", value) or
                             "one of " + ", ".join(e.id for e in catalog.entries("commander_levels")))
        return lvl.id
    if key == "clan":
        c = catalog.find("clans", value)
        if c is None:
            raise UsageError(f"unknown clan '{value}'", catalog.did_you_mean("clans", value) or
                             "one of " + ", ".join(e.id for e in catalog.entries("clans")))
        return c.id
    if key == "points":
        try:
            n = int(value)
        except ValueError:
            raise UsageError(f"points must be a whole number, not '{value}'", "e.g. 400") from None
        if n <= 0:
            raise UsageError(f"points must be positive, not {n}")
        return n
    if key == "occult":
        v = value.strip().lower()
        if v in ("true", "yes", "on", "1"):
            return True
        if v in ("false", "no", "off", "0"):
            return False
        raise UsageError(f"occult takes true or false, not '{value}'")
    if key == "general":
        return _troop_or_fail(catalog, value).name
    return value


# -- shared plumbing ---------------------------------------------------------------------------

def _report(path: str, echo) -> None:
    from builder.check import check_file, format_result

    res = check_file(path)
    for line in format_result(res, all_rules=False):
        echo(line)


def _write_checked(path: str, text: str, catalog=None) -> None:
    """Write ``text`` only if it still parses as a list document (and, given the catalog,
    still reads as a list of its system)."""
    from pathlib import Path

    from builder.lists.document import parse_list
    from builder.yamlio import atomic_write

    doc = parse_list(text, path, base_dir=Path(path).parent)
    if catalog is not None:
        from builder.systems import rules_module

        rules_module(doc.system).load_list(doc, catalog)
    atomic_write(path, text, force=True)


def _open(path: str):
    from builder.catalog.loader import load_catalog
    from builder.lists.edit import load_roundtrip

    doc, data, _ = load_roundtrip(path)
    if doc.system not in EDITABLE:
        raise _unsupported(doc.system, "editing")
    catalog = load_catalog(doc.system, list(doc.packs))
    from builder.systems import rules_module

    rules_module(doc.system).load_list(doc, catalog)  # wrong shapes: ListError, file untouched
    return doc, data, catalog


def why_lines(path: str, name: str, count: int | None = None, models: int | None = None) -> tuple[bool, list[str]]:
    """Could ``name`` (``count`` copies of a card, a unit of ``models`` of a troop) be added to the
    list at ``path``? ``(yes, lines)`` from the library's comparison before and after."""
    from builder.lists.editor import ListEditor
    from builder.lists.compare import gap

    ed = ListEditor.open(path)
    if ed.system not in EDITABLE or ed.system == "senji":
        raise _unsupported(ed.system, "why")
    res = ed.why(name, count, models=models)
    if ed.system == "kensei":
        entry = res.data["troops"][res.target[1]]
        n = entry.get("models", 1)
        cost = _n(res.adds.get("troops", 0))
        what, noun, note = f"{n} {entry['troop']} ({cost} AP)", "troop", None
        state = (f"points would be {_n(res.after.summary.get('points'))}/{_n(res.after.summary.get('limit'))} AP")
    else:
        pick = resolve_card(ed.system, ed.catalog, name, ed.doc.data)
        what = pick.name if pick.field == "attributes" else f"{count or 1} {pick.name}"
        noun = "card"
        note = f"  note: {res.notes[-1]}" if pick.field == "attributes" else None
        state = _why_state(ed.system, res.after.summary, res.data, pick, ed.catalog, "deck" in ed.doc.data)
    if res.ok:
        lines = [f"yes: {what} can be added; {state}"] + ([note] if note else [])
        lines += [f"  and it would satisfy {c}" for c in res.fixes]
        lines += [f"  still to fix: {f.code}: {f.message}{gap(f)}" for f in res.still]
        return True, lines
    k = len(res.breaks)
    lines = [f"no: adding {what} would break {k} rule{'s' * (k != 1)}:"] + ([note] if note else [])
    for b in res.breaks:
        f = b.finding
        lines.append(f"  {f.code}: {f.message}{gap(f)}" + (f" ({f.source})" if f.source else ""))
        if b.before is not None:
            lines.append(f"      already broken before: {b.before.message}")
    lines += [f"  still to fix (not caused by this {noun}): {f.code}: {f.message}{gap(f)}" for f in res.still]
    return False, lines


def _n(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


# -- card lists (senshiai, herocard, satsuma) ------------------------------------------------

WHAT = {"senshiai": "deck", "herocard": "hero", "senji": "setup", "satsuma": "deck"}
ATTR_LABEL = {"body": "Body", "mind": "Mind", "x": "X"}
YAML11_WORDS = {"yes", "no", "on", "off", "y", "n"}


class Pick:
    """A card named on the command line, resolved through the list's catalog and packs."""

    def __init__(self, section: str | None, entry, name: str, field: str):
        self.section = section  # catalog section; None for a custom card written in the list
        self.entry = entry
        self.name = name  # the catalog's spelling (or the list's, for a custom card)
        self.field = field  # the list key that holds it: cards, deck or attributes


def _sections(system: str) -> tuple[tuple[str, str], ...]:
    """(catalog section, list key) pairs a card name may resolve to, in lookup order."""
    return {"senshiai": (("cards", "cards"),),
            "herocard": (("action_cards", "deck"), ("attribute_cards", "attributes")),
            "satsuma": (("cards", "cards"),)}[system]


def _custom_satsuma(data, name: str):
    from builder.names import normalize

    cards = data.get("cards")
    if not isinstance(cards, dict):
        return None
    for k, v in cards.items():
        if isinstance(v, dict) and normalize(str(k)) == normalize(name):
            return str(k)
    return None


def _unknown_card(system: str, catalog, name: str, extra: list[str] = ()):
    from builder.errors import UsageError
    from builder.names import did_you_mean

    cands: list[str] = []
    for section, _ in _sections(system):
        cands += catalog.suggest(section, name)
    cands += [x for x in extra if x not in cands]
    hint = did_you_mean(name, cands)
    section = _sections(system)[0][0]
    return UsageError(f"unknown card '{name}'",
                      hint or f"see 'daimyo catalog list {system} {section}'; a pack (packs: [...]) can add cards")


def resolve_card(system: str, catalog, name: str, data=None) -> Pick:
    """The card called ``name`` (case, hyphen variants and aliases ignored); UsageError if unknown."""
    if system == "satsuma" and data is not None:
        custom = _custom_satsuma(data, name)
        if custom is not None:
            return Pick(None, None, custom, "cards")
    for section, field in _sections(system):
        entry = catalog.find(section, name)
        if entry is not None:
            return Pick(section, entry, entry.name, field)
    raise _unknown_card(system, catalog, name)


def _same(pick: Pick, catalog):
    """A test: does a name written in the list name the picked card?"""
    from builder.names import normalize

    want = normalize(pick.name)

    def same(written) -> bool:
        if not isinstance(written, (str, int, float)) or isinstance(written, bool):
            return False
        if normalize(str(written)) == want:
            return True
        if pick.section is None:
            return False
        other = catalog.find(pick.section, str(written))
        return other is not None and other.id == pick.entry.id

    return same


def _mapping(data, key: str):
    from builder.errors import UsageError

    m = data.get(key)
    if not isinstance(m, dict):
        raise UsageError(f"the list has no '{key}:' mapping to edit", f"add '{key}: {{}}' to the file")
    return m


def _copies(mapping, keys) -> int:
    total = 0
    for k in keys:
        v = mapping[k]
        total += int(v.get("count", 1)) if isinstance(v, dict) else int(v)
    return total


def _anchor(system: str, mapping, pick: Pick, catalog):
    """The line a new card goes after: the last card of its type (senshiai) or kind (herocard)."""
    if pick.entry is None:
        return None
    attr = {"senshiai": "type", "herocard": "kind"}.get(system)
    mine = getattr(pick.entry, attr, None) if attr else None
    if mine is None:
        return None
    hit = None
    for k in mapping:
        other = catalog.find(pick.section, str(k))
        if other is not None and getattr(other, attr, None) == mine:
            hit = k
    return hit


def _side_cards(catalog, side: str) -> list:
    return [c for c in catalog.entries("cards") if c.side == side]


def satsuma_to_variant(data, catalog) -> str:
    """Write a ``deck: standard`` list's published cards out under ``cards:``; returns a note."""
    from ruamel.yaml.comments import CommentedMap

    from builder.lists.edit import replace_key

    side = str(data.get("side", "")).strip().lower()
    cards = CommentedMap()
    for c in _side_cards(catalog, side):
        cards[c.name] = cards.get(c.name, 0) + 1
    replace_key(data, "deck", "cards", cards)
    return f"wrote the published {side} deck ({sum(cards.values())} cards) out under 'cards:' (a variant deck now)"


def _satsuma_ready(data, catalog, variant: bool, verb: str) -> list[str]:
    """A ``deck: standard`` list becomes a variant deck only with ``--variant``."""
    from builder.errors import UsageError

    if "deck" not in data:
        return []
    side = str(data.get("side", "")).strip().lower()
    if not variant:
        n = len(_side_cards(catalog, side))
        raise UsageError(f"this is the published {side} deck ('deck: standard'); {verb} a card makes it a "
                         "variant deck", f"pass --variant to write its {n} cards out under 'cards:' first")
    return [satsuma_to_variant(data, catalog)]


def add_card(system: str, data, catalog, pick: Pick, count: int = 1, variant: bool = False,
             check_side: bool = True) -> list[str]:
    """Add ``count`` copies of the picked card to the list tree; returns what was done."""
    from builder.errors import UsageError
    from builder.lists.edit import add_copies, insert_key_after, keys_naming

    notes: list[str] = []
    if system == "herocard" and pick.field == "attributes":
        return _add_attribute(data, catalog, pick, count)
    if system == "satsuma":
        side = str(data.get("side", "")).strip().lower()
        if check_side and pick.entry is not None and pick.entry.side != side:
            from builder.names import did_you_mean

            hint = did_you_mean(pick.name, [c.name for c in _side_cards(catalog, side)])
            raise UsageError(f"'{pick.name}' is a card of the {pick.entry.side} deck, not the {side} deck",
                             hint or f"a {side} deck takes {side} cards: 'daimyo catalog list satsuma cards'")
        notes += _satsuma_ready(data, catalog, variant, "adding")
    mapping = _mapping(data, pick.field)
    keys = keys_naming(mapping, _same(pick, catalog))
    if keys:
        add_copies(mapping, keys[0], count)
    else:
        insert_key_after(mapping, _anchor(system, mapping, pick, catalog), pick.name, count)
        keys = [pick.name]
    total = _copies(mapping, keys_naming(mapping, _same(pick, catalog)))
    where = "action deck" if system == "herocard" else "deck"
    notes.append(f"added {count} {pick.name} ({total} in the {where})")
    return notes


def _attribute_kind(catalog, name) -> str | None:
    card = catalog.find("attribute_cards", str(name)) if isinstance(name, (str, int, float)) else None
    return getattr(card, "attribute", None) if card is not None else None


def _add_attribute(data, catalog, pick: Pick, count: int) -> list[str]:
    from builder.errors import UsageError

    if count != 1:
        raise UsageError(f"'{pick.name}' is an attribute card: a hero has it once, not {count} times",
                         "leave out --count")
    attrs = data.get("attributes")
    if not isinstance(attrs, list):
        raise UsageError("the list has no 'attributes:' list to edit", "add 'attributes: []' to the file")
    same = _same(pick, catalog)
    if any(same(a) for a in attrs):
        raise UsageError(f"'{pick.name}' is already one of the hero's attribute cards")
    kind = pick.entry.attribute
    label = ATTR_LABEL.get(kind or "", "")
    if kind is not None:
        for i, a in enumerate(attrs):
            if _attribute_kind(catalog, a) == kind:
                old = attrs[i]
                attrs[i] = pick.name
                return [f"{pick.name} is an attribute card ({label}): it replaces {old} as the hero's {label} "
                        "card (a hero has one Body, one Mind and one X card)"]
    if not attrs and hasattr(attrs, "fa"):
        attrs.fa.set_flow_style()
    attrs.append(pick.name)
    what = f" ({label})" if label else ""
    return [f"{pick.name} is an attribute card{what}: added to the hero's attribute cards, not the action deck"]


def remove_card(system: str, data, catalog, name: str, count: int | None = 1, variant: bool = False) -> list[str]:
    """Take copies of a card off the list tree (``count`` None: every copy); returns what was done."""
    from builder.errors import UsageError
    from builder.lists.edit import keys_naming, remove_copies

    try:
        pick = resolve_card(system, catalog, name, data)
    except UsageError:
        pick = None
    fields = [f for _, f in _sections(system)]
    if pick is not None:
        fields.remove(pick.field)
        fields.insert(0, pick.field)
    else:
        pick = Pick(None, None, name, fields[0])  # a line the catalog does not know
    same = _same(pick, catalog)
    for field in fields:
        holder = data.get(field)
        if field == "attributes" and isinstance(holder, list):
            for i, a in enumerate(holder):
                if same(a):
                    if count not in (None, 1):
                        raise UsageError(f"'{a}' is an attribute card: the hero has it once", "leave out --count")
                    del holder[i]
                    return [f"removed {a} from the hero's attribute cards"]
            continue
        notes: list[str] = []
        if system == "satsuma" and field == "cards" and "deck" in data:
            side = str(data.get("side", "")).strip().lower()
            if pick.entry is None or pick.entry.side != side:
                break
            notes += _satsuma_ready(data, catalog, variant, "removing")
            holder = data.get(field)
        if not isinstance(holder, dict):
            continue
        keys = keys_naming(holder, same)
        if not keys:
            continue
        have = _copies(holder, keys)
        want = have if count is None else count
        if want > have:
            raise UsageError(f"only {have} {pick.name} in the {'action ' * (system == 'herocard')}deck, "
                             f"cannot remove {want}", f"use --count {have} or --all")
        left = want
        for k in reversed(keys):
            if left <= 0:
                break
            v = holder[k]
            on_line = int(v.get("count", 1)) if isinstance(v, dict) else int(v)
            take = min(on_line, left)
            remove_copies(holder, k, take)
            left -= take
        rest = have - want
        notes.append(f"removed {want} {pick.name}" + (f" ({rest} left)" if rest else " (none left; line removed)"))
        return notes
    listed = []
    for field in [f for _, f in _sections(system)]:
        holder = data.get(field)
        if isinstance(holder, (dict, list)):
            listed += [str(k) for k in holder]
    from builder.names import did_you_mean

    hint = did_you_mean(name, listed)
    raise UsageError(f"no '{name}' in the {WHAT[system]}", hint or None)


# -- set ------------------------------------------------------------------------------------------

TEXT_KEYS = ("name", "author", "notes")
SET_KEYS_BY_SYSTEM = {
    "senshiai": ("size",) + TEXT_KEYS,
    "herocard": ("hero", "max_hero_points") + TEXT_KEYS,
    "senji": TEXT_KEYS,
    "satsuma": ("side",) + TEXT_KEYS,
}
UNSET = ("none", "null", "off", "-")


def _whole(key: str, value: str, example: str) -> int:
    from builder.errors import UsageError

    try:
        n = int(value)
    except ValueError:
        raise UsageError(f"{key} must be a whole number, not '{value}'", f"e.g. {example}") from None
    if n < 1:
        raise UsageError(f"{key} must be at least 1, not {n}")
    return n


def _text(value: str):
    if value.strip().lower() in YAML11_WORDS:
        from ruamel.yaml.scalarstring import SingleQuotedScalarString

        return SingleQuotedScalarString(value)
    return value


def set_value(system: str, catalog, key: str, value: str) -> tuple[object, str | None]:
    """The value to write for ``set KEY VALUE`` (None: remove the key) and a note, if any."""
    from builder.errors import UsageError
    from builder.names import did_you_mean

    keys = SET_KEYS_BY_SYSTEM[system]
    if key not in keys:
        raise UsageError(f"cannot set '{key}' in a {system} {WHAT[system]}",
                         did_you_mean(key, keys) or "one of " + ", ".join(keys))
    if key in TEXT_KEYS:
        return (_text(value) if value.strip() else None), None
    if key == "size":
        if value.strip().lower() in UNSET:
            return None, "no agreed deck size now: any size up to the maximum is legal"
        return _whole("size", value, "size 50"), None
    if key == "max_hero_points":
        return _whole("max_hero_points", value, "max_hero_points 30"), None
    if key == "hero":
        if not value.strip():
            raise UsageError("hero needs a name", "e.g. set hero.yaml hero Samurai")
        hero = catalog.find("heroes", value)
        if hero is not None:
            return hero.name, None
        hint = catalog.did_you_mean("heroes", value)
        return _text(value), (f"'{value}' is not a hero of the catalog ({hint}); kept as your own hero's name"
                              if hint else f"'{value}' is your own hero (not a catalog hero)")
    if key == "side":
        from builder.rules.satsuma import SIDES

        v = value.strip().lower()
        if v not in SIDES:
            raise UsageError(f"side must be samurai or imperial, not '{value}'", did_you_mean(value, SIDES) or None)
        return v, None
    raise UsageError(f"cannot set '{key}'")  # pragma: no cover - keys are listed above


# -- new --------------------------------------------------------------------------------------

def hero_attributes(catalog, hero: str) -> tuple[list[str], list[str]]:
    """The hero's first Body, Mind and X cards in catalog order (rulebook cards before pack
    additions) and the hero's other attribute cards; ([], ...) when a kind is missing."""
    from builder.names import normalize

    by_kind: dict[str, list[str]] = {}
    for a in catalog.entries("attribute_cards"):
        if a.hero and normalize(a.hero) == normalize(hero) and a.attribute:
            by_kind.setdefault(a.attribute, []).append(a.name)
    if not all(by_kind.get(k) for k in ("body", "mind", "x")):
        return [], []
    others = [f"{n} ({ATTR_LABEL[k]})" for k in ("body", "mind", "x") for n in by_kind[k][1:]]
    return [by_kind[k][0] for k in ("body", "mind", "x")], others


def swap_hero_attributes(data, catalog, hero: str) -> list[str]:
    """After the hero changed to ``hero``: put the new hero's Body, Mind and X cards in place
    of the attribute cards, or say why the cards stay. Returns notes for a person."""
    from builder.names import normalize

    attrs = data.get("attributes")
    old = [str(a) for a in attrs] if isinstance(attrs, list) else []
    entry = catalog.find("heroes", hero)
    new, _ = hero_attributes(catalog, entry.name) if entry is not None else ([], [])
    if new and [normalize(a) for a in old] == [normalize(a) for a in new]:
        return []
    if new:
        from ruamel.yaml.comments import CommentedSeq

        seq = CommentedSeq(new)
        seq.fa.set_flow_style()
        data["attributes"] = seq
        return [f"attributes: the {entry.name}'s " + ", ".join(new)
                + (f" (replacing {', '.join(old)})" if old else "")]
    if not old:
        return []
    owners = {getattr(catalog.find("attribute_cards", a), "hero", None) for a in old} - {None}
    whose = f"the {', '.join(sorted(owners))}'s cards" if owners else "cards of your own"
    if entry is None:
        return [f"the attribute cards stay ({', '.join(old)}: {whose}); give your own hero its Body, Mind "
                "and X cards with 'daimyo add'"]
    return [f"the attribute cards stay ({', '.join(old)}: {whose}): the catalog has no Body, Mind and X "
            f"cards for the {entry.name}; a pack can add them, then 'daimyo add' each"]


def new_list(system: str, catalog, opts: dict) -> tuple[dict, list[str]]:
    """The data of a new list of ``system`` and notes to print."""
    from builder.errors import UsageError

    data: dict = {"system": system}
    notes: list[str] = []
    if opts.get("name"):
        data["name"] = opts["name"]
    if opts.get("packs"):
        data["packs"] = list(opts["packs"])
    if system == "senshiai":
        size = opts.get("size")
        if size is not None:
            if size < 1:
                raise UsageError(f"--size must be at least 1, not {size}", "e.g. --size 50")
            data["size"] = size
        data["cards"] = {}
    elif system == "herocard":
        hero = opts.get("hero")
        if not hero or not hero.strip():
            raise UsageError("--hero is required for a herocard hero",
                             "e.g. daimyo new herocard --hero Samurai -o hero.yaml")
        entry = catalog.find("heroes", hero)
        data["hero"] = entry.name if entry is not None else hero
        limit = opts.get("max_hero_points")
        if limit is None:
            limit = int(catalog.default_rules().get("max_hero_points", catalog.model.deck_rules.max_hero_points))
        if limit < 1:
            raise UsageError(f"--max-hero-points must be at least 1, not {limit}", "e.g. --max-hero-points 30")
        data["max_hero_points"] = limit
        attrs, others = hero_attributes(catalog, entry.name) if entry is not None else ([], [])
        data["attributes"] = attrs
        if attrs:
            notes.append(f"attributes: the {entry.name}'s " + ", ".join(attrs))
            if others:
                notes.append("  also in the catalog: " + ", ".join(others)
                             + "; 'daimyo add' one to swap it in for the card of its kind")
        elif entry is None:
            hint = catalog.did_you_mean("heroes", hero)
            notes.append(f"'{hero}' is your own hero" + (f" ({hint})" if hint else "")
                         + ": add its Body, Mind and X attribute cards with 'daimyo add'")
        data["deck"] = {}
    elif system == "senji":
        from builder.rules.senji import constants, setup_for

        n = opts.get("players")
        c = constants(catalog)
        if n is None:
            raise UsageError("--players is required for a senji setup",
                             f"{c['players_min']} to {c['players_max']}, e.g. --players 3")
        if not c["players_min"] <= n <= c["players_max"]:
            raise UsageError(f"Senji is for {c['players_min']} to {c['players_max']} players, not {n}")
        setup = setup_for(n, catalog)
        out = {f.id for f in setup[0]} if setup else set()
        families = [f for f in catalog.entries("families") if f.id not in out][:n]
        data["players"] = [{"name": f"Player {i + 1}", "family": f.name, "provinces": []}
                           for i, f in enumerate(families)]
        notes.append("families " + ", ".join(f.name for f in families) + f" (those in play with {n} players); "
                     "give each player a samurai card and three provinces")
    elif system == "satsuma":
        from builder.names import did_you_mean
        from builder.rules.satsuma import SIDES

        side = opts.get("side")
        if side is None:
            raise UsageError("--side is required for a satsuma deck", "--side samurai or --side imperial")
        v = side.strip().lower()
        if v not in SIDES:
            raise UsageError(f"side must be samurai or imperial, not '{side}'", did_you_mean(side, SIDES) or None)
        data["side"] = v
        data["deck"] = "standard"
    return data, notes


def _pack_paths(packs: list[str], out: str, system: str | None = None) -> tuple[list[str], list[str]]:
    """Packs as written in the list (a path relative to the list's folder, or a pack name found
    in the packs folders) and the files they resolve to."""
    import os
    from pathlib import Path

    from builder.errors import UsageError
    from builder.packs.resolve import is_name, not_found_hint, resolve_pack
    from builder.paths import is_file

    folder = Path(out).resolve().parent
    written, files = [], []
    for p in packs:
        pp = Path(p)
        if is_file(pp):
            written.append(Path(os.path.relpath(pp.resolve(), folder)).as_posix())
            files.append(str(pp.resolve()))
            continue
        found = resolve_pack(p, folder, system)
        if found is None:
            raise UsageError(f"pack file '{p}' not found", not_found_hint(p))
        written.append(p if is_name(p) else Path(os.path.relpath(found.resolve(), folder)).as_posix())
        files.append(str(found.resolve()))
    return written, files


# -- why (card lists) -------------------------------------------------------------------------

def _loc_of(system: str, data, pick: Pick, catalog):
    """Where the picked card is written in ``data``: ("cards", key) or ("attributes", i)."""
    same = _same(pick, catalog)
    holder = data.get(pick.field)
    if isinstance(holder, list):
        for i, a in enumerate(holder):
            if same(a):
                return (pick.field, i)
        return None
    if isinstance(holder, dict):
        for k in holder:
            if same(k):
                return (pick.field, k)
    return None


def _cards(n) -> str:
    return f"{n} card" + ("" if n == 1 else "s")


def _why_state(system: str, summary: dict, data, pick: Pick, catalog, was_standard: bool) -> str:
    from builder.lists.edit import keys_naming

    if system == "senshiai":
        size = summary.get("size")
        return (f"the deck would have {_cards(summary.get('cards'))}"
                + (f" (agreed size {size})" if size is not None else f" (at most {summary.get('max_cards')})"))
    if system == "herocard":
        if pick.field == "attributes":
            return (f"hero points would be {_n(summary.get('hero_points') if summary.get('hero_points') is not None else '?')}"
                    f"/{_n(summary.get('max_hero_points'))}")
        copies = _copies(data["deck"], keys_naming(data["deck"], _same(pick, catalog)))
        most = catalog.model.deck_rules.max_copies
        return f"{copies} of at most {most} copies; the action deck would have {_cards(summary.get('action_cards'))}"
    text = f"the deck would have {_cards(summary.get('cards'))}"
    if was_standard:
        text += " as a variant deck ('daimyo add --variant' writes it out)"
    return text


# -- commands ------------------------------------------------------------------------------------

# options of ``new`` that belong to one system
NEW_OPTIONS = {"--clan": "kensei", "--points": "kensei", "--commander": "kensei", "--occult": "kensei",
               "--size": "senshiai", "--hero": "herocard", "--max-hero-points": "herocard",
               "--players": "senji", "--side": "satsuma"}


def _only_for(system: str, given: dict) -> None:
    from builder.errors import UsageError

    for opt, value in given.items():
        owner = NEW_OPTIONS.get(opt, system)
        if value is not None and owner != system:
            raise UsageError(f"{opt} applies to {owner} lists, not {system}",
                             f"see 'daimyo new --help'")


def register(app) -> None:
    """Add this module's commands to the typer app."""
    from builder.cli import echo, fail
    from builder.errors import DaimyoError

    def edit_file(path, change):
        from builder.lists.editor import edit_file

        return edit_file(path, change)

    @app.command("new")
    def new_cmd(
        system: str = typer.Argument(..., help="the game system: kensei, senshiai, herocard, senji or satsuma"),
        clan: Optional[str] = typer.Option(None, "--clan", help="kensei: buke, kuge, sohei, otokodate, kuroi-te, hattori"),
        points: Optional[int] = typer.Option(None, "--points", help="kensei: the agreed battle size in AP [default: 200]"),
        commander: Optional[str] = typer.Option(None, "--commander", help="kensei: hatamoto, taisho or daimyo [default: hatamoto]"),
        occult: Optional[bool] = typer.Option(None, "--occult/--no-occult", help="kensei: use the advanced occult rules [default: no]"),
        size: Optional[int] = typer.Option(None, "--size", help="senshiai: the agreed deck size (the deck must have exactly this many cards)"),
        hero: Optional[str] = typer.Option(None, "--hero", help="herocard: the hero's name (a catalog hero starts with its attribute cards)"),
        max_hero_points: Optional[int] = typer.Option(None, "--max-hero-points", help="herocard: the agreed hero point limit [default: 30]"),
        players: Optional[int] = typer.Option(None, "--players", help="senji: the number of players, 3 to 6"),
        side: Optional[str] = typer.Option(None, "--side", help="satsuma: samurai or imperial (starts with the published deck)"),
        pack: list[str] = typer.Option([], "--pack", "-p", help="a pack file whose cards or troops the list may name (repeatable); written relative to the list's folder"),
        name: Optional[str] = typer.Option(None, "--name", help="the list's name"),
        out: str = typer.Option(..., "--output", "-o", help="the list file to create"),
        force: bool = typer.Option(False, "--force", help="replace an existing file"),
    ):
        """Start a new list file and check it.

        kensei --clan C [--points 200]; senshiai [--size 50]; herocard --hero NAME
        [--max-hero-points 30]; senji --players N; satsuma --side samurai|imperial.
        """
        from pathlib import Path

        from builder.catalog.loader import load_catalog
        from builder.cli import _system
        from builder.errors import UsageError
        from builder.lists.dump import dump_list_yaml
        from builder.yamlio import atomic_write

        try:
            sysname = _system(system)
            _only_for(sysname, {"--clan": clan, "--points": points, "--commander": commander, "--occult": occult,
                                "--size": size, "--hero": hero, "--max-hero-points": max_hero_points,
                                "--players": players, "--side": side})
            packs, pack_files = _pack_paths(pack, out, sysname)
            catalog = load_catalog(sysname, pack_files)
            notes: list[str] = []
            if sysname == "kensei":
                if clan is None:
                    raise UsageError("--clan is required for a kensei list",
                                     "e.g. daimyo new kensei --clan buke --points 400 -o army.yaml")
                data = kensei_new(catalog, clan, 200 if points is None else points, commander or "hatamoto",
                                  name, bool(occult))
                if packs:
                    data["packs"] = packs
            else:
                data, notes = new_list(sysname, catalog, {
                    "name": name, "packs": packs, "size": size, "hero": hero, "max_hero_points": max_hero_points,
                    "players": players, "side": side})
            atomic_write(out, dump_list_yaml(data), force=force)
            echo(f"wrote {out}")
            for n in notes:
                echo(n)
            _report(out, echo)
        except DaimyoError as exc:
            fail(exc)

    @app.command("add")
    def add_cmd(
        file: str = typer.Argument(..., help="the list file"),
        item: str = typer.Argument(..., metavar="NAME", help="a card (or, for kensei, a troop) named as in the catalog or the list's packs"),
        count: Optional[int] = typer.Option(None, "--count", "-n", help="cards: how many copies to add [default: 1]"),
        variant: bool = typer.Option(False, "--variant", help="satsuma: turn the published deck ('deck: standard') into a variant deck first"),
        models: Optional[int] = typer.Option(None, "--models", "-m", help="kensei: models in the unit (default: 3 for a unit, 1 for a single model)"),
        led_by: Optional[str] = typer.Option(None, "--led-by", help="kensei: a leader of the list deployed as unit leader"),
        standard: bool = typer.Option(False, "--standard", help="kensei: the unit carries a Hata-Jurushi"),
    ):
        """Add copies of a card (senshiai, herocard, satsuma) or a troop (kensei) to a list.

        A HeroCard attribute card goes into 'attributes' (replacing the card of the same
        kind); new cards are written with the catalog's spelling, after the last card of
        their type. A rule the addition breaks is named at once.
        """
        try:
            _flags_fit(file, count=count, models=models, led_by=led_by, standard=standard, variant=variant)
            ed, change = edit_file(file, lambda ed: ed.add(item, count, models=models, led_by=led_by,
                                                          standard=standard, variant=variant))
        except DaimyoError as exc:
            fail(exc)
        _print_change(ed, change, breaks=True)

    @app.command("remove")
    def remove_cmd(
        file: str = typer.Argument(..., help="the list file"),
        item: str = typer.Argument(..., metavar="NAME", help="the card to take copies of (or the kensei troop: its last entry)"),
        count: Optional[int] = typer.Option(None, "--count", "-n", help="cards: how many copies to remove [default: 1]; at 0 the line goes"),
        all_: bool = typer.Option(False, "--all", help="cards: remove every copy"),
        variant: bool = typer.Option(False, "--variant", help="satsuma: turn the published deck ('deck: standard') into a variant deck first"),
    ):
        """Remove copies of a card, or a troop, from a list."""
        from builder.errors import UsageError

        try:
            system = _flags_fit(file, variant=variant, remove=True, count=count, all_=all_)
            if system != "kensei" and all_ and count is not None:
                raise UsageError("give --count or --all, not both")
            n = None if all_ else (1 if count is None else count)
            ed, change = edit_file(file, lambda ed: ed.remove(item, n, variant=variant))
        except DaimyoError as exc:
            fail(exc)
        _print_change(ed, change)

    @app.command("set")
    def set_cmd(
        file: str = typer.Argument(..., help="the list file"),
        key: str = typer.Argument(..., help="kensei: commander, points, clan, occult, general; senshiai: size; "
                                            "herocard: hero, max_hero_points; satsuma: side; any: name"),
        value: str = typer.Argument(..., help="the new value ('none' removes a senshiai size; '' removes a name)"),
    ):
        """Change a setting of a list: kensei commander, points, clan, occult, general;
        senshiai size; herocard hero, max_hero_points; satsuma side; the name of any list."""
        try:
            ed, change = edit_file(file, lambda ed: ed.set(key, value))
        except DaimyoError as exc:
            fail(exc)
        _print_change(ed, change)

    @app.command("why")
    def why_cmd(
        file: str = typer.Argument(..., help="the list file"),
        item: str = typer.Argument(..., metavar="NAME", help="a card (or, for kensei, a troop) name"),
        count: int = typer.Option(1, "--count", "-n", help="cards: how many more copies to try"),
        models: Optional[int] = typer.Option(None, "--models", "-m", help="kensei: models in the unit to try"),
    ):
        """Could one more copy of a card (or unit of a troop) be added? If not, which rule
        stops it and by how much. Exit 0 yes, 1 no, 2 bad input."""
        from builder.errors import UsageError
        from builder.lists.document import load_list

        try:
            system = load_list(file).system
            if system != "kensei":
                if models is not None:
                    raise UsageError(f"--models applies to kensei troops, not {system} cards", "use --count")
                if count < 1:
                    raise UsageError(f"--count must be at least 1, not {count}")
            yes, lines = why_lines(file, item, None if system == "kensei" else count, models)
        except DaimyoError as exc:
            fail(exc)
        for line in lines:
            echo(line)
        raise typer.Exit(0 if yes else 1)

    @app.command("options")
    def options_cmd(
        file: str = typer.Argument(..., help="the list file"),
        type_: Optional[str] = typer.Option(None, "--type", "-t", help="only this troop type, card type or kind (e.g. infantry, event, base-attack)"),
        search: Optional[str] = typer.Option(None, "--search", "-s", help="only names containing this (case and accents ignored)"),
        max_cost: Optional[float] = typer.Option(None, "--max-cost", help="only entries costing at most this"),
        can: bool = typer.Option(False, "--can", help="only what can be added now"),
        format: str = typer.Option("text", "--format", "-f", help="text or json"),
    ):
        """What could be added to a list now: every troop or card of the catalog and the list's
        packs, with its cost and what is left after it, or the first rule that stops it."""
        from builder.errors import UsageError
        from builder.lists.editor import ListEditor
        from builder.lists.options import options

        try:
            if format not in ("text", "json"):
                raise UsageError(f"unknown format '{format}'", "use text or json")
            ed = ListEditor.open(file)
            found = options(ed, type=type_, search=search, max_cost=max_cost, only_ok=can)
        except DaimyoError as exc:
            fail(exc)
        if format == "json":
            import json

            echo(json.dumps([o.to_json() for o in found], indent=2, ensure_ascii=False))
            return
        for line in options_lines(ed, found):
            echo(line)


def options_lines(ed, found) -> list[str]:
    """``daimyo options`` as text: one line per entry."""
    if ed.system == "senji":
        return [f"{ed.file}: a senji setup gains players, provinces and samurai by editing the file"]
    if not found:
        return ["nothing matches"]
    width = min(max(len(o.name) for o in found), 32)
    out = []
    for o in found:
        if o.unit == "AP":
            cost = "? AP" if o.cost is None else f"{_n(o.cost)} AP"
        else:
            cost = "" if o.cost is None else f"cost {_n(o.cost)}"
        what = f"{o.count} models" if ed.system == "kensei" and o.count > 1 else ""
        head = f"{'+' if o.ok else '-'} {o.name:<{width}}  {cost:>8}"
        if o.ok:
            left = "" if o.left is None else f"{_n(o.left)} {o.unit} left"
            out.append("  ".join(x for x in (head, what, left) if x).rstrip())
        else:
            out.append("  ".join(x for x in (head, what) if x) + f"  no: {o.code}: {o.reason}")
    ok = sum(o.ok for o in found)
    out.append(f"{ok} of {len(found)} can be added")
    return out


def _flags_fit(file: str, count=None, models=None, led_by=None, standard=False, variant=False,
               remove=False, all_=False) -> str:
    """Refuse options that do not apply to the list's system, naming the option; the system."""
    from builder.errors import UsageError
    from builder.lists.document import load_list

    system = load_list(file).system
    if system == "senji":
        raise _unsupported("senji", "remove" if remove else "add")
    if system == "kensei":
        if remove and (count is not None or all_):
            raise UsageError("--count and --all apply to card lists; 'remove' takes one kensei troop entry")
        if not remove and count is not None:
            raise UsageError("--count applies to card lists; a kensei unit's size is --models")
        if variant:
            raise UsageError("--variant applies to satsuma decks")
        if models is not None and models < 1:
            raise UsageError(f"--models must be at least 1, not {models}")
        return system
    for opt, given in (("--models", models is not None), ("--led-by", led_by is not None), ("--standard", standard)):
        if given:
            raise UsageError(f"{opt} applies to kensei troops, not {system} cards", "use --count for copies")
    if count is not None and count < 1:
        raise UsageError(f"--count must be at least 1, not {count}")
    if variant and system != "satsuma":
        raise UsageError("--variant applies to satsuma decks")
    return system


def _print_change(ed, change, breaks: bool = False) -> None:
    """The notes of an edit, the rules it broke (as ``check`` prints them), then the list's check."""
    from builder.check import format_result
    from builder.cli import echo

    for line in change.notes:
        echo(line)
    if breaks:
        for f in change.breaks:
            echo(f.format(ed.file))
    for line in format_result(ed.check(), all_rules=False):
        echo(line)
