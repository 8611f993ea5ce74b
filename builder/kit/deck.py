"""A card deck as statistics and odds see it: rows of (name, copies, facts).

A card game's ``deck_view(lst, catalog, rules)`` (its ``Analytics`` part) turns what its
rules loaded into a ``DeckView`` (Senshiai, HeroCard, Satsuma); Kensei armies and Senji
starts are not card decks and have none. Facts are tuples of values so that a card
with two paths, abilities or suits has each of them; counts are never expanded into
lists of cards, so a deck of a billion copies costs what its lines cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.i18n import L_


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
            return sorted(
                vals, key=lambda v: (not isinstance(v, (int, float)), v if isinstance(v, (int, float)) else 0, str(v))
            )
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


def unknown_note(names: list[str]) -> list[str]:
    if not names:
        return []
    return [L_("left out (unknown card): {names}", names=", ".join(names))]
