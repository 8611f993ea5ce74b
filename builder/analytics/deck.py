"""A card deck as statistics and odds see it: rows of (name, copies, facts).

``deck_view(system, lst, catalog, rules)`` turns what a rules core loaded into a
``DeckView`` for the card games (Senshiai, HeroCard, Satsuma); Kensei armies and Senji
starts are not card decks and have none. Facts are tuples of values so that a card
with two paths, abilities or suits has each of them; counts are never expanded into
lists of cards, so a deck of a billion copies costs what its lines cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FieldSpec:
    name: str
    title: str  # how a chart or a table names it
    kind: str = "text"  # text | number | ordinal
    order: tuple = ()  # ordinal: the values from low to high
    aliases: tuple = ()
    counted: bool = True  # shown in the counts by field
    ordered: bool = True  # order tests (<, >=) make sense


@dataclass
class Row:
    name: str
    count: int
    facts: dict  # field -> tuple of values


@dataclass
class DeckView:
    system: str
    rows: list[Row]
    fields: dict[str, FieldSpec]
    hand_size: int
    hand_source: str
    notes: list[str] = field(default_factory=list)  # e.g. cards left out (unknown names)

    @property
    def total(self) -> int:
        return sum(r.count for r in self.rows)

    def field(self, name: str) -> FieldSpec | None:
        key = name.strip().lower()
        for f in self.fields.values():
            if key == f.name or key in f.aliases:
                return f
        if key.endswith("s") and key[:-1] in self.fields:  # plural: types, paths, suits
            return self.fields[key[:-1]]
        return None

    def values(self, fname: str) -> list:
        """Every value of a field in this deck, in a stable order (ordinal order, numbers ascending)."""
        spec = self.fields[fname]
        seen: dict = {}
        for r in self.rows:
            for v in r.facts.get(fname, ()):
                seen.setdefault(v, None)
        vals = list(seen)
        if spec.kind == "ordinal":
            return sorted(vals, key=lambda v: spec.order.index(v) if v in spec.order else len(spec.order))
        if spec.kind == "number":
            return sorted(vals, key=lambda v: (not isinstance(v, (int, float)), v if isinstance(v, (int, float))
                                               else 0, str(v)))
        return vals

    def counts(self, fname: str) -> dict:
        """Copies per value of a field (a card with two values counts under both; none: '(none)')."""
        out: dict = {v: 0 for v in self.values(fname)}
        for r in self.rows:
            vals = r.facts.get(fname, ())
            if not vals:
                out["(none)"] = out.get("(none)", 0) + r.count
            for v in dict.fromkeys(vals):
                out[v] += r.count
        return out


# -- per system --------------------------------------------------------------------------------

def deck_view(system: str, lst, catalog, rules: dict) -> DeckView:
    """The deck of a card game's list (its ``GameSystem.deck_view``); ValueError for other games."""
    from builder.systems import get

    view = get(system).deck_view(lst, catalog, rules)
    if view is None:
        raise ValueError(f"{system} lists are not card decks")
    return view


def senshiai_view(lst, catalog, rules: dict) -> DeckView:
    return _senshiai(lst, catalog)


def herocard_view(lst, catalog, rules: dict) -> DeckView:
    return _herocard(lst, catalog)


def satsuma_view(lst, catalog, rules: dict) -> DeckView:
    return _satsuma(lst, catalog, rules)


def _unknown_note(names: list[str]) -> list[str]:
    if not names:
        return []
    return [f"left out (unknown card): {', '.join(names)}"]


def _senshiai(deck, catalog) -> DeckView:
    from builder.games.senshiai.catalog import ROMAN, cost_label
    from builder.games.senshiai.rules import card_abilities

    fields = {
        "name": FieldSpec("name", "Card", counted=False, aliases=("card",)),
        "type": FieldSpec("type", "Type", aliases=("types",)),
        "subtype": FieldSpec("subtype", "Subtype", aliases=("subtypes",)),
        "cost": FieldSpec("cost", "Cost", kind="ordinal", order=ROMAN + ("?",), aliases=("costs",)),
        "path": FieldSpec("path", "Path", aliases=("paths",)),
        "ability": FieldSpec("ability", "Ability", aliases=("abilities",)),
        "capital": FieldSpec("capital", "Capital", counted=False),
        "speed": FieldSpec("speed", "Speed", kind="number", counted=False),
    }
    rows, unknown = [], []
    for e in deck.entries:
        c = e.card
        if c is None:
            unknown.append(e.name)
            continue
        facts = {
            "name": (c.name,),
            "type": (c.type or "unknown",),
            "subtype": (c.subtype,) if c.subtype else (),
            "cost": (cost_label(c.cost),),
            "path": tuple(str(p) for p in (c.paths or ())),
            "ability": tuple(dict.fromkeys(p.ability.name for p in card_abilities(c, catalog))),
            "capital": ("yes" if c.is_capital() else "no",),
            "speed": (c.speed,) if c.speed is not None else (),
        }
        rows.append(Row(c.name, e.count, facts))
    from builder.games.senshiai.rules import hand_size

    size, source = hand_size(catalog)
    return DeckView("senshiai", rows, fields, size, source, _unknown_note(unknown))


def _herocard(lst, catalog) -> DeckView:
    from builder.games.herocard.rules import ATTR_NAME

    kinds = {k.key: k for k in catalog.model.card_kinds}
    fields = {
        "name": FieldSpec("name", "Card", counted=False, aliases=("card",)),
        "kind": FieldSpec("kind", "Card kind", aliases=("kinds", "card_kind")),
        "group": FieldSpec("group", "Attack or block", aliases=("groups",)),
        "type": FieldSpec("type", "Action type", aliases=("types", "action_type")),
        "attribute": FieldSpec("attribute", "Attribute", aliases=("attributes", "attr")),
        "cost": FieldSpec("cost", "Cost", kind="number", aliases=("costs",)),
        "value": FieldSpec("value", "Value", kind="number", counted=False),
        "hero": FieldSpec("hero", "Hero", counted=False),
    }
    rows, unknown = [], []
    for s in lst.deck:
        c = s.card
        if c is None:
            unknown.append(s.name)
            continue
        kind = kinds.get(c.kind) if c.kind else None
        facts = {
            "name": (c.name,),
            "kind": (kind.label if kind is not None else (c.kind or "unknown"),),
            "group": (kind.group if kind is not None else "unknown",),
            "type": (c.action_type or "unknown",),
            "attribute": (ATTR_NAME.get(c.attribute, c.attribute) if c.attribute else "unknown",),
            "cost": (c.cost,) if c.cost is not None else ("unknown",),
            "value": (c.value,) if c.value is not None else (),
            "hero": (c.hero,) if c.hero else (),
        }
        rows.append(Row(c.name, s.count, facts))
    from builder.games.herocard.rules import hand_size

    size, source = hand_size(catalog)
    return DeckView("herocard", rows, fields, size, source, _unknown_note(unknown))


def _satsuma(lst, catalog, rules) -> DeckView:
    from builder.games.satsuma import rules as core

    fields = {
        "name": FieldSpec("name", "Card", counted=False, aliases=("card",)),
        "suit": FieldSpec("suit", "Suit", kind="ordinal", order=tuple(core.SUIT_NAMES.values()), aliases=("suits",),
                          ordered=False),
        "strength": FieldSpec("strength", "Strength", kind="number", aliases=("strengths",)),
        "options": FieldSpec("options", "Suits to choose from", kind="number"),
        "usable": FieldSpec("usable", "Usable by", aliases=("role", "roles")),
    }
    rows, unknown = [], []
    for e in lst.entries:
        pc = e.custom if e.custom is not None else (core.play_card(e.card, rules) if e.card is not None else None)
        if pc is None:
            unknown.append(e.name)
            continue
        usable = tuple(r for r in core.ROLES if core.usable_options(pc, r))
        facts = {
            "name": (pc.name,),
            "suit": tuple(dict.fromkeys(core.SUIT_NAMES[s] for s, _ in pc.options if s in core.SUIT_NAMES)),
            "strength": tuple(dict.fromkeys(v for s, v in pc.options if s in core.SUIT_NAMES)),
            "options": (len(pc.options),),
            "usable": usable,
        }
        rows.append(Row(pc.name, e.count, facts))
    size, source = core.hand_size(catalog)
    return DeckView("satsuma", rows, fields, size, source, _unknown_note(unknown))
