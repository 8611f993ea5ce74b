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


def why_troop(path: str, troop_name: str, models: int | None = None) -> tuple[bool, list[str]]:
    """Could one more unit of ``troop_name`` be added? ``(yes, lines)``."""
    import copy

    from builder.check import check_doc
    from builder.lists.document import load_list

    doc = load_list(path)
    if doc.system not in EDITABLE:
        raise _unsupported(doc.system, "why")
    from builder.catalog.loader import load_catalog

    catalog = load_catalog(doc.system, list(doc.packs))
    troop = _troop_or_fail(catalog, troop_name)
    n = models or _default_models(catalog, troop)
    before = check_doc(doc, catalog=catalog)
    doc2 = copy.copy(doc)
    doc2.data = copy.deepcopy(doc.data)
    troops = doc2.data.get("troops") or []
    if not isinstance(troops, list):
        troops = []
    troops = list(troops) + [{"troop": troop.name, "models": n}]
    doc2.data["troops"] = troops
    after = check_doc(doc2, catalog=catalog)

    def key(f):
        return (f.code, f.message)

    old = {key(f) for f in before.findings}
    new = [f for f in after.findings if f.severity == "error" and key(f) not in old]
    # rules that were already broken and got worse
    old_by_code = {}
    for f in before.findings:
        if f.severity == "error":
            old_by_code.setdefault(f.code, []).append(f)
    fixed_codes = {f.code for f in before.findings} - {f.code for f in after.findings}
    cost = after.summary.get("troops", 0) - before.summary.get("troops", 0)
    what = f"{n} {troop.name}" if n > 1 else f"1 {troop.name}"
    lines = []
    blocking = []
    still = []
    for f in new:
        was = next((g for g in old_by_code.get(f.code, []) if g.loc == f.loc), None) or \
            next(iter(old_by_code.get(f.code, [])), None)
        if was is not None and _not_worse(f, was):
            still.append(f)  # already broken; the addition does not make it worse
        else:
            blocking.append((f, was))
    if not blocking:
        lines.append(f"yes: {what} ({_n(cost)} AP) can be added; points would be "
                     f"{_n(after.summary.get('points'))}/{_n(after.summary.get('limit'))} AP")
        for c in sorted(fixed_codes):
            lines.append(f"  and it would satisfy {c}")
        for f in still:
            lines.append(f"  still to fix: {f.code}: {f.message}{_gap(f)}")
        return True, lines
    lines.append(f"no: adding {what} ({_n(cost)} AP) would break {len(blocking)} rule"
                 f"{'s' * (len(blocking) != 1)}:")
    for f, was in blocking:
        lines.append(f"  {f.code}: {f.message}{_gap(f)}" + (f" ({f.source})" if f.source else ""))
        if was is not None and was.value is not None:
            lines.append(f"      already broken before: {was.message}")
    for f in still:
        lines.append(f"  still to fix (not caused by this troop): {f.code}: {f.message}{_gap(f)}")
    return False, lines


def _num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _gap(f) -> str:
    """"(over by N)" for a maximum, "(short by N)" for a minimum."""
    v, b = _num(f.value), _num(f.bound)
    if v is None or b is None or v == b:
        return ""
    return f" ({'over' if v > b else 'short'} by {_n(abs(v - b))})"


def _not_worse(f, was) -> bool:
    """The same rule was broken before and the new value is no further from its bound."""
    v, b, w = _num(f.value), _num(f.bound), _num(was.value)
    if v is None or b is None or w is None:
        return f.message == was.message
    if v < b:  # a minimum: adding can only help
        return v >= w
    return v <= w


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


def why_card(path: str, name: str, count: int = 1) -> tuple[bool, list[str]]:
    """Could ``count`` more copies of card ``name`` be added? ``(yes, lines)``."""
    import copy

    from builder.catalog.loader import load_catalog
    from builder.check import check_doc
    from builder.lists.document import load_list
    from builder.systems import rules_module

    doc = load_list(path)
    if doc.system not in CARD_SYSTEMS:
        raise _unsupported(doc.system, "why")
    catalog = load_catalog(doc.system, list(doc.packs))
    rules_module(doc.system).load_list(doc, catalog)  # wrong shapes: ListError
    pick = resolve_card(doc.system, catalog, name, doc.data)
    data2 = copy.deepcopy(doc.data)
    notes = add_card(doc.system, data2, catalog, pick, count, variant=True, check_side=False)
    before = check_doc(doc, catalog=catalog)
    doc2 = copy.copy(doc)
    doc2.data = data2
    after = check_doc(doc2, catalog=catalog)
    target = _loc_of(doc.system, data2, pick, catalog)

    def key(f):
        return (f.code, f.message)

    old = {key(f) for f in before.findings}
    old_errors = [f for f in before.findings if f.severity == "error"]
    blocking, still = [], []
    for f in after.findings:
        if f.severity != "error":
            continue
        if target is not None and f.loc == target:
            was = next((g for g in old_errors if g.code == f.code and g.loc == f.loc), None)
            blocking.append((f, was if was is not None and key(was) != key(f) else None))
            continue
        if key(f) in old:
            still.append(f)
            continue
        was = next((g for g in old_errors if g.code == f.code and g.loc == f.loc), None)
        if was is not None and _not_worse(f, was):
            still.append(f)
        else:
            blocking.append((f, was))
    fixed = sorted({f.code for f in old_errors} - {f.code for f in after.findings if f.severity == "error"})
    what = f"{count} {pick.name}"
    if pick.field == "attributes":
        what = pick.name
    state = _why_state(doc.system, after.summary, data2, pick, catalog, "deck" in doc.data)
    lines = []
    if not blocking:
        lines.append(f"yes: {what} can be added; {state}")
        if pick.field == "attributes":
            lines.append(f"  note: {notes[-1]}")
        for c in fixed:
            lines.append(f"  and it would satisfy {c}")
        for f in still:
            lines.append(f"  still to fix: {f.code}: {f.message}{_gap(f)}")
        return True, lines
    lines.append(f"no: adding {what} would break {len(blocking)} rule{'s' * (len(blocking) != 1)}:")
    if pick.field == "attributes":
        lines.append(f"  note: {notes[-1]}")
    for f, was in blocking:
        lines.append(f"  {f.code}: {f.message}{_gap(f)}" + (f" ({f.source})" if f.source else ""))
        if was is not None:
            lines.append(f"      already broken before: {was.message}")
    for f in still:
        lines.append(f"  still to fix (not caused by this card): {f.code}: {f.message}{_gap(f)}")
    return False, lines


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
        their type.
        """
        from builder.errors import UsageError
        from builder.lists.edit import add_troop, dump_roundtrip

        try:
            doc, data, catalog = _open(file)
            if doc.system == "senji":
                raise _unsupported("senji", "add")
            if doc.system != "kensei":
                for opt, given in (("--models", models is not None), ("--led-by", led_by is not None),
                                   ("--standard", standard)):
                    if given:
                        raise UsageError(f"{opt} applies to kensei troops, not {doc.system} cards",
                                         "use --count for copies")
                n = 1 if count is None else count
                if n < 1:
                    raise UsageError(f"--count must be at least 1, not {n}")
                if variant and doc.system != "satsuma":
                    raise UsageError("--variant applies to satsuma decks")
                pick = resolve_card(doc.system, catalog, item, data)
                notes = add_card(doc.system, data, catalog, pick, n, variant)
                _write_checked(file, dump_roundtrip(data), catalog)
                for line in notes:
                    echo(line)
                _report(file, echo)
                return
            if count is not None:
                raise UsageError("--count applies to card lists; a kensei unit's size is --models")
            if variant:
                raise UsageError("--variant applies to satsuma decks")
            t = _troop_or_fail(catalog, item)
            n = models if models is not None else _default_models(catalog, t)
            if n < 1:
                raise UsageError(f"--models must be at least 1, not {n}")
            if led_by is not None:
                _troop_or_fail(catalog, led_by)
            add_troop(data, t.name, n, led_by, standard)
            _write_checked(file, dump_roundtrip(data))
            echo(f"added {n} {t.name}" if n > 1 else f"added {t.name}")
            _report(file, echo)
        except DaimyoError as exc:
            fail(exc)

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
        from builder.lists.edit import dump_roundtrip, remove_troop

        try:
            doc, data, catalog = _open(file)
            if doc.system == "senji":
                raise _unsupported("senji", "remove")
            if doc.system != "kensei":
                if all_ and count is not None:
                    raise UsageError("give --count or --all, not both")
                n = None if all_ else (1 if count is None else count)
                if n is not None and n < 1:
                    raise UsageError(f"--count must be at least 1, not {n}")
                if variant and doc.system != "satsuma":
                    raise UsageError("--variant applies to satsuma decks")
                notes = remove_card(doc.system, data, catalog, item, n, variant)
                _write_checked(file, dump_roundtrip(data), catalog)
                for line in notes:
                    echo(line)
                _report(file, echo)
                return
            if count is not None or all_:
                raise UsageError("--count and --all apply to card lists; 'remove' takes one kensei troop entry")
            if variant:
                raise UsageError("--variant applies to satsuma decks")
            removed = remove_troop(data, item, catalog)
            _write_checked(file, dump_roundtrip(data))
            shown = removed.get("troop") if isinstance(removed, dict) else removed
            echo(f"removed {shown}")
            _report(file, echo)
        except DaimyoError as exc:
            fail(exc)

    @app.command("set")
    def set_cmd(
        file: str = typer.Argument(..., help="the list file"),
        key: str = typer.Argument(..., help="kensei: commander, points, clan, occult, general; senshiai: size; "
                                            "herocard: hero, max_hero_points; satsuma: side; any: name"),
        value: str = typer.Argument(..., help="the new value ('none' removes a senshiai size; '' removes a name)"),
    ):
        """Change a setting of a list: kensei commander, points, clan, occult, general;
        senshiai size; herocard hero, max_hero_points; satsuma side; the name of any list."""
        from builder.lists.edit import dump_roundtrip, set_key, set_key_ordered

        try:
            doc, data, catalog = _open(file)
            if doc.system == "kensei":
                v = kensei_set_value(catalog, key, value)
                set_key(data, key, v)
                _write_checked(file, dump_roundtrip(data))
                echo(f"set {key} = {str(v).lower() if isinstance(v, bool) else v}")
                _report(file, echo)
                return
            v, note = set_value(doc.system, catalog, key, value)
            if v is None:
                if key in data:
                    from builder.lists.edit import delete_key

                    delete_key(data, key)
                echo_line = f"removed {key}"
            else:
                set_key_ordered(data, key, v, KEY_ORDER[doc.system])
                echo_line = f"set {key} = {v}"
            _write_checked(file, dump_roundtrip(data), catalog)
            echo(echo_line)
            if note:
                echo(note)
            _report(file, echo)
        except DaimyoError as exc:
            fail(exc)

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
            if system == "kensei":
                yes, lines = why_troop(file, item, models)
            else:
                if models is not None:
                    raise UsageError(f"--models applies to kensei troops, not {system} cards", "use --count")
                if count < 1:
                    raise UsageError(f"--count must be at least 1, not {count}")
                yes, lines = why_card(file, item, count)
        except DaimyoError as exc:
            fail(exc)
        for line in lines:
            echo(line)
        raise typer.Exit(0 if yes else 1)
