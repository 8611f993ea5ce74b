"""Catalog models for HeroCard: Rise of the Shogun (rulebook ``004_80c161daf2b1fabf.txt``).

A Hero is three Attribute cards (one Body, one Mind, one Attribute X) and an Action
deck. The rulebook names a few cards in its examples and prints no card list;
unknown values are ``None`` and the entry's ``assumed`` says so. Packs complete them.

Self-describing for printing:

* ``AttributeCard``: ``attribute`` (``body``/``mind``/``x``), ``score`` (the Attribute
  score) and ``hero_points`` (printed in the bottom left corner, 004:1220).
* ``ActionCard``: ``kind`` (one of ``CARD_KINDS``; ``CardKind.label`` is how the value
  is printed: "Attack 4", "Attack Mod +5", "Block 9", "Block Mod +5"),
  ``action_type`` (fast/restricted/exclusive), ``cost`` and ``attribute`` (the Action
  Cost, e.g. 3 B), ``value`` (constant value) or ``variable`` (text of a variable
  value), ``text``. ``ActionCard.value_label`` and ``cost_label`` give printable text.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import field_validator, model_validator

from builder.catalog.base import BaseCatalog, Entry, Sourced
from builder.games.herocard.terms import (  # noqa: F401 - shared with the rules core
    ACTION_TYPES,
    ATTRIBUTE_LETTER,
    ATTRIBUTES,
    CARD_KINDS,
    KIND_LABEL,
    VALUED_KINDS,
)
from builder.i18n import L_
from builder.names import did_you_mean, normalize

SEED = "004_80c161daf2b1fabf.txt"

_ATTR_ALIASES = {
    "body": "body",
    "b": "body",
    "mind": "mind",
    "m": "mind",
    "x": "x",
    "attribute x": "x",
    "x attribute": "x",
    "ki": "x",
}


def parse_attribute(v: object) -> str | None:
    if v is None:
        return None
    if isinstance(v, str):
        key = " ".join(v.strip().lower().split())
        if key in _ATTR_ALIASES:
            return _ATTR_ALIASES[key]
    raise ValueError(f"attribute '{v}' is not Body (B), Mind (M) or X")


def _choice(v: object, allowed: tuple, what: str) -> str | None:
    if v is None:
        return None
    if isinstance(v, str):
        key = "-".join(v.strip().lower().replace("_", " ").split())
        if key in allowed:
            return key
    raise ValueError(f"{what} '{v}' is not one of {', '.join(allowed)}")


class AttributeKind(Entry):
    """Body, Mind or Attribute X."""

    letter: Literal["B", "M", "X"]
    key: Literal["body", "mind", "x"]
    description: str | None = None


class ActionType(Entry):
    """When an Action card can be played."""

    key: Literal["fast", "restricted", "exclusive"]
    own_turn_only: bool
    per_turn: int | None = None  # at most this many per turn (Exclusive: 1)
    description: str


class CardKind(Entry):
    """Base/mod/special attack and block, or any other Action card."""

    key: Literal["base-attack", "attack-mod", "special-attack", "base-block", "block-mod", "special-block", "other"]
    group: Literal["attack", "block", "other"]
    role: Literal["base", "mod", "special", "other"]
    label: str  # how the value prints: "Attack", "Attack Mod", ...
    valued: bool  # contributes a number to the attack or block value
    needs: str | None = None  # a mod needs this kind in the same Attack Sequence
    typical_type: str | None = None
    description: str


class Hero(Entry):
    """A Hero deck of Rise of the Shogun (or an expansion)."""

    included: bool = True
    description: str | None = None
    attribute_x: str | None = None  # what X stands for


class AttributeCard(Entry):
    hero: str | None = None
    attribute: Literal["body", "mind", "x"] | None = None
    score: int | None = None
    hero_points: int | None = None
    text: str | None = None

    @field_validator("attribute", mode="before")
    @classmethod
    def _attr(cls, v: object) -> str | None:
        return parse_attribute(v)

    @field_validator("score", "hero_points")
    @classmethod
    def _non_negative(cls, v: int | None) -> int | None:
        if v is not None and v < 0:
            raise ValueError("must be 0 or more")
        return v

    @property
    def letter(self) -> str:
        return ATTRIBUTE_LETTER.get(self.attribute or "", "?")


class ActionCard(Entry):
    hero: str | None = None
    kind: (
        Literal["base-attack", "attack-mod", "special-attack", "base-block", "block-mod", "special-block", "other"]
        | None
    ) = None
    action_type: Literal["fast", "restricted", "exclusive"] | None = None
    cost: int | None = None
    attribute: Literal["body", "mind", "x"] | None = None
    value: int | None = None  # constant value (Attack 4, Block Mod +5)
    variable: str | None = None  # a variable value, described
    text: str | None = None

    @field_validator("attribute", mode="before")
    @classmethod
    def _attr(cls, v: object) -> str | None:
        return parse_attribute(v)

    @field_validator("kind", mode="before")
    @classmethod
    def _kind(cls, v: object) -> str | None:
        return _choice(v, CARD_KINDS, "kind")

    @field_validator("action_type", mode="before")
    @classmethod
    def _type(cls, v: object) -> str | None:
        return _choice(v, ACTION_TYPES, "action type")

    @field_validator("cost", "value")
    @classmethod
    def _non_negative(cls, v: int | None) -> int | None:
        if v is not None and v < 0:
            raise ValueError("must be 0 or more")
        return v

    @model_validator(mode="after")
    def _value_fits_kind(self) -> Any:
        if self.kind and self.kind not in VALUED_KINDS and self.value is not None:
            raise ValueError(
                f"a {KIND_LABEL[self.kind]} card has no attack or block value "
                f"(it does not contribute to the numerical value, 004:1335-1338)"
            )
        if self.value is not None and self.variable:
            raise ValueError("give either a constant 'value' or a 'variable' value, not both")
        return self

    @property
    def value_label(self) -> str:
        if not self.kind:
            return ""
        label = KIND_LABEL[self.kind]
        if self.kind not in VALUED_KINDS:
            return label
        shown = "X" if self.variable else ("?" if self.value is None else str(self.value))
        return f"{label} +{shown}" if self.kind.endswith("mod") else f"{label} {shown}"

    @property
    def cost_label(self) -> str:
        if self.cost is None:
            return "?"
        return f"{self.cost} {ATTRIBUTE_LETTER.get(self.attribute or '', '?')}"


class Treasure(Entry):
    """A Rise of the Shogun Treasure card: an Item or a Monster."""

    kind: Literal["item", "monster"] | None = None
    victory_points: int | None = None
    value: int | None = None  # a Monster's base attack
    text: str | None = None


class DeckRules(Sourced):
    attribute_cards: int = 3
    min_action_cards: int = 20
    max_copies: int = 6
    max_hero_points: int = 30
    hand_limit: int = 7
    draw_per_turn: int = 3
    clear_per_turn: int = 3
    opening_hand: int = 7
    description: str | None = None


class Shogun(Sourced):
    """Facts of the Rise of the Shogun board game."""

    players_min: int
    players_max: int
    victory_points: dict[int, int]  # players -> points needed to become Shogun
    castles: dict[int, int]  # players -> castles placed
    scoring: dict[str, int]  # what scores how many victory points
    duel_victory_points: dict[int, int]  # head-to-head duels: players -> points needed
    components: dict[str, int]
    peasants_per_player: int
    hero_move: int
    treasure_max: int
    description: str | None = None


class HerocardCatalog(BaseCatalog):
    deck_rules: DeckRules
    shogun: Shogun
    attribute_kinds: list[AttributeKind] = []
    action_types: list[ActionType] = []
    card_kinds: list[CardKind] = []
    heroes: list[Hero] = []
    attribute_cards: list[AttributeCard] = []
    action_cards: list[ActionCard] = []
    treasures: list[Treasure] = []


CATALOG_MODEL = HerocardCatalog


def _unknown_hero_hint(hero: str, hero_names: list[str]) -> str:
    """The heroes it may be, and that a pack may declare a new one."""
    declare = f"declare a new hero in the pack: heroes: [{{name: {hero}}}]"
    dym = did_you_mean(hero, hero_names)
    if dym:
        return f"{dym} Or {declare}"
    return "heroes: " + ", ".join(hero_names) + f"; or {declare}"


def cross_check(catalog: Any) -> list:
    out = []
    m = catalog.model
    heroes = {normalize(n) for h in m.heroes for n in [h.name, h.id, *h.aliases]}
    hero_names = [h.name for h in m.heroes]
    for section in ("attribute_cards", "action_cards"):
        for i, card in enumerate(getattr(m, section)):
            if card.hero and normalize(card.hero) not in heroes:
                out.append(
                    catalog.diag(
                        (section, i, "hero"),
                        L_("unknown hero '{hero}'", hero=card.hero),
                        hint=_unknown_hero_hint(card.hero, hero_names),
                    )
                )
    kinds = {k.key for k in m.card_kinds}
    for k in CARD_KINDS:
        if k not in kinds:
            out.append(catalog.diag(("card_kinds",), L_("card kind '{k}' is missing from card_kinds", k=k)))
    # a name is either an attribute card or an action card, never both
    attr_names = {normalize(c.name) for c in m.attribute_cards}
    for i, card in enumerate(m.action_cards):
        if normalize(card.name) in attr_names:
            out.append(
                catalog.diag(
                    ("action_cards", i, "name"),
                    L_("'{name}' is also an attribute card; names must tell them apart", name=card.name),
                )
            )
    return out
