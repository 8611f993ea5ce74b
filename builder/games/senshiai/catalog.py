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
shared with the rules core (``builder.games.senshiai.rules``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, PlainSerializer, field_validator

from builder.catalog.base import BaseCatalog, Entry, Sourced, Strict
from builder.games.senshiai.terms import (  # noqa: F401 - the values and parsers, shared with the rules core
    CARD_TYPES,
    PATHS,
    ROMAN,
    SEED,
    TRAITS,
    ParsedAbility,
    Power,
    PowerMod,
    cost_label,
    parse_ability,
    parse_cost,
    parse_modifier,
    parse_path,
    parse_power,
)
from builder.i18n import L_
from builder.names import did_you_mean, normalize

PowerField = Annotated[Power, BeforeValidator(parse_power), PlainSerializer(str, return_type=str)]
ModField = Annotated[PowerMod, BeforeValidator(parse_modifier), PlainSerializer(str, return_type=str)]
CostField = Annotated[int, BeforeValidator(parse_cost), PlainSerializer(cost_label, return_type=str)]
PathField = Annotated[str, BeforeValidator(parse_path)]


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
    def _known_fields(cls, v: list[str]) -> list[str]:
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
    def _type_lower(cls, v: object) -> object:
        if isinstance(v, str):
            key = v.strip().lower()
            if key in CARD_TYPES:
                return key
            raise ValueError(
                f"type '{v}' is not one of terrain, troop, event (a Capital is a terrain with subtype Capital)"
            )
        return v

    @field_validator("limit", "speed")
    @classmethod
    def _non_negative(cls, v: int | None) -> int | None:
        if v is not None and v < 0:
            raise ValueError("must be 0 or more")
        return v

    @field_validator("paths")
    @classmethod
    def _paths_unique(cls, v: list[str] | None) -> list[str] | None:
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
        return self.subtype is not None and normalize(self.subtype) == "capital"


CARD_FIELDS = (
    "name",
    "type",
    "subtype",
    "cost",
    "paths",
    "limit",
    "speed",
    "power",
    "target",
    "duration",
    "abilities",
    "text",
    "modifiers",
)


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


# -- cross references ------------------------------------------------------------------


def cross_check(catalog: Any) -> list:
    out = []
    model = catalog.model
    abilities = model.abilities
    types = {normalize(t.name): t for t in model.card_types if t.kind == "type"}
    subtypes = {normalize(s.name) for s in model.subtypes} | {normalize(a) for s in model.subtypes for a in s.aliases}
    target_names = [t.name for t in model.targets] + [a for t in model.targets for a in t.aliases]
    targets = {normalize(n) for n in target_names}
    for t in CARD_TYPES:
        if t not in types:
            out.append(
                catalog.diag(
                    ("card_types",), L_("card type '{t}' is missing from card_types", t=t), code="catalog.reference"
                )
            )
    for i, sub in enumerate(model.subtypes):
        for j, ab in enumerate(sub.implied_abilities):
            try:
                parse_ability(ab, abilities)
            except ValueError as exc:
                out.append(catalog.diag(("subtypes", i, "implied_abilities", j), str(exc)))
    for i, tk in enumerate(model.targets):
        for j, t in enumerate(tk.matches_types):
            if normalize(t) not in types:
                out.append(catalog.diag(("targets", i, "matches_types", j), L_("unknown card type '{t}'", t=t)))
    for i, card in enumerate(model.cards):
        for j, ab in enumerate(card.abilities):
            try:
                parse_ability(ab, abilities)
            except ValueError as exc:
                out.append(catalog.diag(("cards", i, "abilities", j), str(exc)))
        if (
            card.subtype
            and normalize(card.subtype) not in subtypes
            and _very_close(card.subtype, [s.name for s in model.subtypes])
        ):
            # subtypes are mostly flavour (000:62): only a near miss of a known one is flagged
            out.append(
                catalog.diag(
                    ("cards", i, "subtype"),
                    f"subtype '{card.subtype}' looks misspelt; "
                    + did_you_mean(card.subtype, [s.name for s in model.subtypes]),
                )
            )
        if card.target is not None and targets and normalize(card.target) not in targets:
            out.append(
                catalog.diag(
                    ("cards", i, "target"),
                    L_("unknown target '{target}'", target=card.target),
                    hint=did_you_mean(card.target, target_names)
                    or L_("targets: {values}", values=", ".join(t.name for t in model.targets)),
                )
            )
        if card.type and card.type != "event" and card.target is not None:
            out.append(
                catalog.diag(("cards", i, "target"), L_("a {type} has no target (only events do)", type=card.type))
            )
        out += _subtype_fits(catalog, card, i, _find_subtype(model, card.subtype))
    return out


def _find_subtype(model: Any, name: str | None) -> Any:
    if not name:
        return None
    key = normalize(name)
    return next((s for s in model.subtypes if key in {normalize(s.name), *map(normalize, s.aliases)}), None)


def _a(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _subtype_fits(catalog: Any, card: Any, i: int, sub: Any) -> list:
    """A card of a subtype that sets its cards' Type, Speed or cost (the Capital's, 000:62-66, or
    a pack's subtype) has that Type, no greater Speed and that cost (a Capital's cost is the
    check's: a Capital of another collection may cost more, with a warning)."""
    if sub is None:
        return []
    out = []
    if sub.type and card.type and card.type != sub.type:
        out.append(
            catalog.diag(
                ("cards", i, "type"),
                L_("{a} is {a2} card, not {a3}", a=_a(sub.name), a2=_a(sub.type), a3=_a(card.type)),
                hint=L_("see {source}", source=sub.source) if sub.source else None,
            )
        )
    if sub.max_speed is not None and card.speed is not None and card.speed > sub.max_speed:
        out.append(
            catalog.diag(
                ("cards", i, "speed"),
                L_("{a}'s speed can never be above {max_speed}", a=_a(sub.name), max_speed=sub.max_speed),
            )
        )
    if sub.cost is not None and card.cost is not None and card.cost != sub.cost and not card.is_capital():
        out.append(
            catalog.diag(
                ("cards", i, "cost"),
                L_(
                    "{a} costs {cost_label}, not {cost_label2}",
                    a=_a(sub.name),
                    cost_label=cost_label(sub.cost),
                    cost_label2=cost_label(card.cost),
                ),
            )
        )
    return out


def _very_close(name: str, cands: list[str]) -> bool:
    import difflib  # noqa: PLC0415 - difflib only when a name is unknown; `daimyo check` of a legal list loads none

    return any(difflib.SequenceMatcher(None, normalize(name), normalize(c)).ratio() >= 0.85 for c in cands)
