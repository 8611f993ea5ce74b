"""Senshiai's printed values, free of pydantic: costs, paths, Power traits and modifiers, and
the parsers the catalog models and the rules core share (``builder.games.senshiai.catalog`` exposes
them too). Kept apart so that a check from the catalog cache, which unpickles these values,
imports no pydantic."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from builder.names import did_you_mean, normalize

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

    def signed(self) -> tuple[int, ...]:
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
    for _i, (part, name) in enumerate(zip(parts, TRAITS, strict=False)):
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
            raise ValueError(
                f"resistance '{text}' is not a whole number from 1 (typically 1-9; resistance cannot be nulla)"
            )
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


# -- catalog entries ------------------------------------------------------------


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
        raise ValueError(
            f"unknown ability '{text}'"
            + (
                f"; {hint}"
                if hint
                else " (concise abilities come from the ability list; put long descriptions in 'text')"
            )
        )
    ab, key = best
    rest = text.strip()[len(key) :]
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
            rest = rest[m.end() :]
        elif p.kind == "power":
            m = re.match(r"(\S+/\S+/[^\s:]+)", rest)
            if not m:
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a power such as 3/0/6 ({ab.syntax})")
            params[p.name] = parse_power(m.group(1))
            rest = rest[m.end() :]
        elif p.kind == "modifier":
            m = re.match(r"([+\-]\S+)", rest)
            if not m:
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a modifier such as +1/1/1 ({ab.syntax})")
            params[p.name] = parse_modifier(m.group(1))
            rest = rest[m.end() :]
        elif p.kind == "path":
            m = re.match(r"(air|earth|water)\b", rest, re.IGNORECASE)
            if not m:
                if p.optional:
                    continue
                raise ValueError(f"'{text}': {ab.name} needs a path (Air, Earth or Water)")
            params[p.name] = parse_path(m.group(1))
            rest = rest[m.end() :]
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
            rest = rest[m.end() :] if m else rest
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
