"""Catalog models for Senshiai (card game, Basic Collection).

Rulebook: ``000_ac601013730960cf.txt``. The rulebook prints no card list; it names a
handful of cards in its examples, gives the card types and the fields each must
print, the costs (N, I-V), the paths, the Power traits with nulla and the Basic
Collection ability list. Anything else comes from packs.

The models are self-describing for printing:

* ``CardType.fields`` lists, in print order, what a card of that type prints;
  ``CardType.required`` what a legal card must state.
* ``Card.power`` is a :class:`Power` (``str(power)`` gives ``3/0/6`` or ``1/n/4``),
  ``Card.cost`` an int 0-5 (``Card.cost_label`` gives ``N``, ``I`` ... ``V``),
  ``Card.modifiers`` a list of :class:`PowerMod` (``+1/1/1``).
* ``Card.abilities`` holds concise abilities (``Recruit``, ``Tardy: 4``) checked
  against the ability list; ``Card.text`` the long-format ability description.

The small parsers here (power, modifier, cost, path, ability) are pure and are
shared with the rules core (``builder.rules.senshiai``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, PlainSerializer, field_validator, model_validator

from builder.catalog.base import BaseCatalog, Entry, Sourced, Strict

SEED = "000_ac601013730960cf.txt"

# -- values printed on cards ------------------------------------------------------

ROMAN = ("N", "I", "II", "III", "IV", "V")
PATHS = ("Air", "Earth", "Water")
TRAITS = ("melee", "ranged", "resistance")
CARD_TYPES = ("terrain", "troop", "event")


@dataclass(frozen=True)
class Power:
    """A Unit's Power: melee / ranged / resistance. ``None`` is nulla (``n``): zero, never modified."""

    melee: int | None
    ranged: int | None
    resistance: int | None

    def traits(self) -> tuple[int | None, int | None, int | None]:
        return (self.melee, self.ranged, self.resistance)

    def __str__(self) -> str:
        return "/".join("n" if t is None else str(t) for t in self.traits())


@dataclass(frozen=True)
class PowerMod:
    """A Power bonus (``+1/1/1``) or penalty (``-0/0/2``); every trait is a magnitude >= 0."""

    sign: int  # +1 bonus, -1 penalty
    melee: int
    ranged: int
    resistance: int

    def traits(self) -> tuple[int, int, int]:
        return (self.melee, self.ranged, self.resistance)

    def signed(self) -> tuple[int, int, int]:
        return tuple(self.sign * t for t in self.traits())

    def __str__(self) -> str:
        return ("+" if self.sign > 0 else "-") + "/".join(str(t) for t in self.traits())


_POWER_RE = re.compile(r"^\s*([^/]*)/([^/]*)/([^/]*)\s*$")


def parse_power(value: Any) -> Power:
    """``3/0/6``, ``1/n/4`` -> Power. Raises ValueError naming the bad trait."""
    if isinstance(value, Power):
        return value
    if isinstance(value, dict):
        try:
            return Power(*(_trait(value.get(k), k, nulla=k != "resistance") for k in TRAITS))
        except AttributeError:  # pragma: no cover
            raise ValueError("power must be a text such as 3/0/6") from None
    if not isinstance(value, str):
        raise ValueError(f"power must be a text such as '3/0/6' or '1/n/4', not {value!r}")
    m = _POWER_RE.match(value)
    if not m:
        raise ValueError(f"power '{value}' is not MELEE/RANGED/RESISTANCE such as '3/0/6' or '1/n/4'")
    parts = [p.strip() for p in m.groups()]
    out = []
    for i, (part, name) in enumerate(zip(parts, TRAITS)):
        try:
            out.append(_trait(part, name, nulla=name != "resistance"))
        except ValueError as exc:
            raise ValueError(f"power '{value}': {exc}") from None
    return Power(*out)


def _trait(part: Any, name: str, nulla: bool) -> int | None:
    text = str(part).strip() if part is not None else ""
    if nulla and text.lower() == "n":
        return None
    if name == "resistance":
        if not text.isdigit() or not 1 <= int(text) <= 99:
            raise ValueError(f"resistance '{text}' is not a whole number from 1 (typically 1-9; "
                             "resistance cannot be nulla)")
        return int(text)
    if not text.isdigit() or not 0 <= int(text) <= 9:
        raise ValueError(f"{name} trait '{text}' is not 0-9 or 'n' (nulla)")
    return int(text)


_MOD_RE = re.compile(r"^\s*([+\-\u2212])\s*([0-9]+)\s*/\s*([0-9]+)\s*/\s*([0-9]+)\s*$")


def parse_modifier(value: Any) -> PowerMod:
    """``+1/1/1`` or ``-0/0/2`` -> PowerMod. Raises ValueError."""
    if isinstance(value, PowerMod):
        return value
    if not isinstance(value, str):
        raise ValueError(f"a power modifier is a text such as '+1/1/1' or '-0/0/2', not {value!r}")
    m = _MOD_RE.match(value)
    if not m:
        raise ValueError(f"power modifier '{value}' is not +M/R/S or -M/R/S such as '+1/1/1' or '-0/0/2'")
    sign = 1 if m.group(1) == "+" else -1
    return PowerMod(sign, int(m.group(2)), int(m.group(3)), int(m.group(4)))


def parse_cost(value: Any) -> int:
    """``N`` (nulla) or ``I``-``V`` (or 0-5) -> 0-5."""
    if isinstance(value, bool):
        raise ValueError(f"cost must be N or I-V, not {value!r}")
    if isinstance(value, int):
        if 0 <= value <= 5:
            return value
        raise ValueError(f"cost {value} is outside 0-5 (N, I-V)")
    if isinstance(value, str):
        key = value.strip().upper()
        if key in ("NULLA", "0"):
            key = "N"
        if key in ROMAN:
            return ROMAN.index(key)
        if key.isdigit():
            return parse_cost(int(key))
    raise ValueError(f"cost '{value}' is not N (nulla) or a roman numeral I-V")


def cost_label(cost: int | None) -> str:
    return "?" if cost is None else ROMAN[cost]


def parse_path(value: Any) -> str:
    if isinstance(value, str):
        for p in PATHS:
            if value.strip().lower() == p.lower():
                return p
    raise ValueError(f"path '{value}' is not one of {', '.join(PATHS)}")


PowerField = Annotated[Power, BeforeValidator(parse_power), PlainSerializer(str, return_type=str)]
ModField = Annotated[PowerMod, BeforeValidator(parse_modifier), PlainSerializer(str, return_type=str)]
CostField = Annotated[int, BeforeValidator(parse_cost), PlainSerializer(cost_label, return_type=str)]
PathField = Annotated[str, BeforeValidator(parse_path)]


# -- catalog entries ------------------------------------------------------------

class PathEntry(Entry):
    """One of the three paths a Unit or Terrain is bound to."""


class CostEntry(Entry):
    """A printed cost: N (nulla) or a roman numeral."""

    value: int


class TraitEntry(Entry):
    """A Power trait (melee, ranged, resistance) or another characteristic."""

    key: str
    range: str | None = None
    nulla: bool = False


class CardType(Entry):
    """A card Type and the fields a card of it must print."""

    kind: Literal["type", "function"] = "type"
    function: str | None = None  # Unit / Effect in the Basic Collection
    fields: list[str]  # printed, in order
    required: list[str]  # what a legal card must state
    play: str | None = None  # where/how it is played

    @field_validator("fields", "required")
    @classmethod
    def _known_fields(cls, v):
        bad = [f for f in v if f not in CARD_FIELDS]
        if bad:
            raise ValueError(f"unknown card field(s) {', '.join(bad)}; fields are {', '.join(CARD_FIELDS)}")
        return v


class Subtype(Entry):
    """A card Subtype; only Capital has rules of its own in the Basic Collection."""

    type: Literal["terrain", "troop", "event"] | None = None  # the Type cards of this subtype have
    cost: CostField | None = None  # the cost every card of this subtype has
    max_speed: int | None = None
    required: list[str] = []  # fields required in addition to the type's
    implied_abilities: list[str] = []  # abilities every card of this subtype has
    description: str | None = None


class AbilityParam(Strict):
    name: str
    kind: Literal["number", "power", "path", "text", "word", "modifier"]
    optional: bool = False
    choices: list[str] = []


class Ability(Entry):
    """A concise ability of the Basic Collection ability list."""

    syntax: str
    params: list[AbilityParam] = []
    applies_to: list[str] = []  # terrain / unit / event / any
    text: str


class TargetKind(Entry):
    """What an Event may be cast upon."""

    matches_types: list[str] = []  # card types whose cards can be this target
    matches_subtypes: list[str] = []
    matches_abilities: list[str] = []  # cards with one of these abilities qualify too
    always: bool = False  # always present in a game (e.g. a player)
    description: str | None = None


class Card(Entry):
    """A Senshiai card. ``None`` means the rulebook does not say (see ``assumed``)."""

    type: Literal["terrain", "troop", "event"] | None = None
    subtype: str | None = None
    cost: CostField | None = None
    paths: list[PathField] | None = None
    limit: int | None = None  # terrain; 1 when not printed (000:68)
    speed: int | None = None  # units
    power: PowerField | None = None  # units (and Capitals, which act as Units)
    target: str | None = None  # events
    duration: str | None = None  # events
    abilities: list[str] = []  # concise abilities from the ability list
    text: str | None = None  # long-format ability description
    modifiers: list[ModField] = []  # power bonuses/penalties the card gives its target

    @field_validator("type", mode="before")
    @classmethod
    def _type_lower(cls, v):
        if isinstance(v, str):
            key = v.strip().lower()
            if key in CARD_TYPES:
                return key
            raise ValueError(f"type '{v}' is not one of terrain, troop, event "
                             "(a Capital is a terrain with subtype Capital)")
        return v

    @field_validator("limit", "speed")
    @classmethod
    def _non_negative(cls, v):
        if v is not None and v < 0:
            raise ValueError("must be 0 or more")
        return v

    @field_validator("paths")
    @classmethod
    def _paths_unique(cls, v):
        if v is not None and len(set(v)) != len(v):
            raise ValueError("a path is listed twice")
        return v

    @property
    def cost_label(self) -> str:
        return cost_label(self.cost)

    @property
    def effective_limit(self) -> int:
        return 1 if self.limit is None else self.limit

    def is_capital(self) -> bool:
        from builder.names import normalize

        return self.subtype is not None and normalize(self.subtype) == "capital"


CARD_FIELDS = ("name", "type", "subtype", "cost", "paths", "limit", "speed", "power", "target",
               "duration", "abilities", "text", "modifiers")


class DeckRules(Sourced):
    """Deck construction (000:17, 64)."""

    capitals: int = 1
    typical_size: int = 50
    max_cards: int = 200
    max_copies: int | None = None  # None: any number of copies
    hand_size: int | None = None
    description: str | None = None


class SenshiaiCatalog(BaseCatalog):
    deck_rules: DeckRules
    card_types: list[CardType] = []
    subtypes: list[Subtype] = []
    paths: list[PathEntry] = []
    costs: list[CostEntry] = []
    traits: list[TraitEntry] = []
    abilities: list[Ability] = []
    targets: list[TargetKind] = []
    cards: list[Card] = []


CATALOG_MODEL = SenshiaiCatalog


# -- abilities as printed on cards ------------------------------------------------------

@dataclass(frozen=True)
class ParsedAbility:
    ability: Any  # the Ability entry
    params: dict
    text: str


def parse_ability(text: str, abilities: list) -> ParsedAbility:
    """Match ``Tardy: 4`` or ``Move Restriction: Air 1`` against the ability list.

    Raises ValueError with a message a user can act on.
    """
    from builder.names import did_you_mean, normalize

    if not isinstance(text, str) or not text.strip():
        raise ValueError("an ability must be a text such as 'Recruit' or 'Tardy: 4'")
    norm = normalize(text)
    best = None
    for ab in abilities:
        for name in [ab.name, *ab.aliases]:
            key = normalize(name)
            if norm == key or norm.startswith(key + " ") or norm.startswith(key + ":"):
                if best is None or len(key) > len(best[1]):
                    best = (ab, key)
    if best is None:
        head = re.split(r"[:0-9]", text, maxsplit=1)[0].strip()
        hint = did_you_mean(head, [n for ab in abilities for n in [ab.name, *ab.aliases]])
        raise ValueError(f"unknown ability '{text}'" + (f"; {hint}" if hint else
                         " (concise abilities come from the ability list; put long descriptions in 'text')"))
    ab, key = best
    rest = text.strip()[len(key):]
    params: dict = {}
    for p in ab.params:
        rest = rest.lstrip(" :\t")
        if p.kind == "number":
            m = re.match(r"([0-9]+)\b", rest)
            if not m:
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a number ({ab.syntax})")
            params[p.name] = int(m.group(1))
            rest = rest[m.end():]
        elif p.kind == "power":
            m = re.match(r"(\S+/\S+/[^\s:]+)", rest)
            if not m:
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a power such as 3/0/6 ({ab.syntax})")
            params[p.name] = parse_power(m.group(1))
            rest = rest[m.end():]
        elif p.kind == "modifier":
            m = re.match(r"([+\-]\S+)", rest)
            if not m:
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a modifier such as +1/1/1 ({ab.syntax})")
            params[p.name] = parse_modifier(m.group(1))
            rest = rest[m.end():]
        elif p.kind == "path":
            m = re.match(r"(air|earth|water)\b", rest, re.IGNORECASE)
            if not m:
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a path (Air, Earth or Water)")
            params[p.name] = parse_path(m.group(1))
            rest = rest[m.end():]
        elif p.kind == "word":
            m = re.match(r"([A-Za-z][A-Za-z\- ]*)", rest)
            word = m.group(1).strip() if m else ""
            if p.choices and normalize(word) not in {normalize(c) for c in p.choices}:
                if p.optional and not word:
                    continue
                raise ValueError(f"'{text}': {ab.name} takes one of {', '.join(p.choices)}")
            if not word:
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a {p.name} ({ab.syntax})")
            params[p.name] = word
            rest = rest[m.end():] if m else rest
        else:  # text: the rest
            if not rest.strip():
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a {p.name} ({ab.syntax})")
            params[p.name] = rest.strip()
            rest = ""
    if rest.strip(" :\t"):
        raise ValueError(f"'{text}': unexpected '{rest.strip()}' after {ab.name} ({ab.syntax})")
    return ParsedAbility(ab, params, text)


# -- cross references ------------------------------------------------------------------

def cross_check(catalog) -> list:
    from builder.names import did_you_mean, normalize

    out = []
    model = catalog.model
    abilities = model.abilities
    types = {normalize(t.name): t for t in model.card_types if t.kind == "type"}
    subtypes = {normalize(s.name) for s in model.subtypes} | {normalize(a) for s in model.subtypes for a in s.aliases}
    target_names = [t.name for t in model.targets] + [a for t in model.targets for a in t.aliases]
    targets = {normalize(n) for n in target_names}
    for t in ("terrain", "troop", "event"):
        if t not in types:
            out.append(catalog.diag(("card_types",), f"card type '{t}' is missing from card_types",
                                    code="catalog.reference"))
    for i, sub in enumerate(model.subtypes):
        for j, ab in enumerate(sub.implied_abilities):
            try:
                parse_ability(ab, abilities)
            except ValueError as exc:
                out.append(catalog.diag(("subtypes", i, "implied_abilities", j), str(exc)))
    for i, tk in enumerate(model.targets):
        for j, t in enumerate(tk.matches_types):
            if normalize(t) not in types:
                out.append(catalog.diag(("targets", i, "matches_types", j), f"unknown card type '{t}'"))
    for i, card in enumerate(model.cards):
        for j, ab in enumerate(card.abilities):
            try:
                parse_ability(ab, abilities)
            except ValueError as exc:
                out.append(catalog.diag(("cards", i, "abilities", j), str(exc)))
        if card.subtype and normalize(card.subtype) not in subtypes \
                and _very_close(card.subtype, [s.name for s in model.subtypes]):
            # subtypes are mostly flavour (000:62): only a near miss of a known one is flagged
            out.append(catalog.diag(("cards", i, "subtype"), f"subtype '{card.subtype}' looks misspelt; "
                                    + did_you_mean(card.subtype, [s.name for s in model.subtypes])))
        if card.target is not None and targets and normalize(card.target) not in targets:
            out.append(catalog.diag(("cards", i, "target"), f"unknown target '{card.target}'",
                                    hint=did_you_mean(card.target, target_names)
                                    or "targets: " + ", ".join(t.name for t in model.targets)))
        if card.type and card.type != "event" and card.target is not None:
            out.append(catalog.diag(("cards", i, "target"), f"a {card.type} has no target (only events do)"))
        if card.is_capital():
            sub = next((s for s in model.subtypes if normalize(s.name) == "capital"), None)
            if sub is not None and sub.type and card.type and card.type != sub.type:
                out.append(catalog.diag(("cards", i, "type"),
                                        f"a Capital is a {sub.type} card, not a {card.type}",
                                        hint=f"see {sub.source}"))
            if sub is not None and sub.max_speed is not None and card.speed is not None \
                    and card.speed > sub.max_speed:
                out.append(catalog.diag(("cards", i, "speed"),
                                        f"a Capital's speed can never be above {sub.max_speed}"))
    return out


def _very_close(name: str, cands: list[str]) -> bool:
    import difflib

    from builder.names import normalize

    return any(difflib.SequenceMatcher(None, normalize(name), normalize(c)).ratio() >= 0.85 for c in cands)
