"""Catalog models for Satsuma Rebellion (003_d64fd863b3930085.txt).

Cards keep their options exactly as printed (``printed: W5 or M6``); the parsed
options are derived from that text, so the catalog cannot disagree with itself.
A card whose printed suit letter names no suit ("Bodyguard T2") must say so with
``unknown_suit: true``; the house rule ``bodyguard_suit`` decides how it plays.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from builder.catalog.base import BaseCatalog, Entry, Sourced, Strict
from builder.i18n import L_

SIDES = ("samurai", "imperial")
_OPTION = re.compile(r"^\s*([A-Za-z])\s*(-?[0-9]+)\s*$")


class Option(Strict):
    """One suit/strength choice printed on a card (``W5``)."""

    suit: str  # the printed letter, upper case
    strength: int

    @property
    def printed(self) -> str:
        return f"{self.suit}{self.strength}"


def parse_printed(text: str) -> list[Option]:
    """``"W5 or M6"`` -> [Option(W, 5), Option(M, 6)]; raises ValueError when unreadable."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("printed options are empty; write e.g. 'F7' or 'W5 or M6'")
    parts = re.split(r"\s+or\s+|\s*/\s*", text.strip(), flags=re.IGNORECASE)
    out = []
    for part in parts:
        m = _OPTION.match(part)
        if not m:
            raise ValueError(f"'{part}' is not a suit letter and a strength such as 'F7'")
        out.append(Option(suit=m[1].upper(), strength=int(m[2])))
    if len(out) > 2:
        raise ValueError(f"'{text}' has {len(out)} options; a card prints one or two")
    return out


class Suit(Entry):
    letter: str
    number: int = Field(ge=1)

    @field_validator("letter")
    @classmethod
    def _letter(cls, v: Any) -> Any:
        if not re.fullmatch(r"[A-Z]", v or ""):
            raise ValueError("a suit letter is one upper-case letter")
        return v


class Card(Entry):
    side: Literal["samurai", "imperial"]
    printed: str
    unknown_suit: bool = False  # the printed letter names no suit (kept as printed, flagged)

    @field_validator("printed")
    @classmethod
    def _printed(cls, v: Any) -> Any:
        parse_printed(v)
        return v

    @property
    def options(self) -> list[Option]:
        return parse_printed(self.printed)


class Side(Entry):
    deck_size: int = Field(ge=1)
    first_attacker: bool = False


class Number(Sourced):
    value: int


class Victory(Sourced):
    min: int | None = None  # imperial casualties, inclusive
    max: int | None = None
    result: str

    @model_validator(mode="after")
    def _range(self) -> Any:
        if self.min is None and self.max is None:
            raise ValueError("a victory level needs 'min' or 'max' imperial casualties")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("victory 'min' is above 'max'")
        return self


class Constants(Strict):
    hand_size: Number
    max_discard: Number
    end_casualties: Number
    casualties_per_loss: Number


class SatsumaCatalog(BaseCatalog):
    sides: list[Side] = []
    suits: list[Suit] = []
    cards: list[Card] = []
    victory: list[Victory] = []
    constants: Constants | None = None


CATALOG_MODEL = SatsumaCatalog


def cross_check(catalog: Any) -> list:
    m = catalog.model
    out = []
    letters = {s.letter for s in m.suits}
    if len(m.suits) != 8:
        out.append(
            catalog.diag(
                ("suits",), L_("expected the 8 suits of 003_d64fd863b3930085.txt:20-28, found {n}", n=len(m.suits))
            )
        )
    seen_letters: dict[str, int] = {}
    for i, s in enumerate(m.suits):
        if s.letter in seen_letters:
            out.append(
                catalog.diag(("suits", i, "letter"), L_("suit letter '{letter}' is used twice", letter=s.letter))
            )
        seen_letters[s.letter] = i
    side_ids = {s.id for s in m.sides}
    for need in SIDES:
        if need not in side_ids:
            out.append(catalog.diag(("sides",), L_("side '{need}' is missing", need=need)))
    for i, c in enumerate(m.cards):
        unknown = [o.suit for o in c.options if o.suit not in letters]
        if unknown and not c.unknown_suit:
            out.append(
                catalog.diag(
                    ("cards", i, "printed"),
                    f"card '{c.name}' uses suit letter '{unknown[0]}', which is none of " + ", ".join(sorted(letters)),
                    hint=L_("fix the letter, or keep it as printed with 'unknown_suit: true'"),
                )
            )
        if c.unknown_suit and not unknown:
            out.append(
                catalog.diag(
                    ("cards", i, "unknown_suit"),
                    L_("card '{name}' is flagged unknown_suit but all its suits exist", name=c.name),
                )
            )
        for o in c.options:
            if o.strength <= 0:
                out.append(
                    catalog.diag(
                        ("cards", i, "printed"),
                        L_(
                            "card '{name}' has strength {strength}; strengths are positive",
                            name=c.name,
                            strength=o.strength,
                        ),
                    )
                )
    for s in m.sides:
        n = sum(1 for c in m.cards if c.side == s.id)
        if n != s.deck_size and not catalog.packs:
            out.append(
                catalog.diag(
                    ("sides",),
                    L_(
                        "the {id} deck has {n} cards, side says deck_size {deck_size}",
                        id=s.id,
                        n=n,
                        deck_size=s.deck_size,
                    ),
                )
            )
    return out
