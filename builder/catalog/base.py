"""Base models every system's catalog builds on.

Every entry says where it comes from: ``source: <seed file>:<line or range>`` for
what the rulebook states, ``assumed: <why>`` for anything inferred (both may be
given: a sourced entry with an assumed detail).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from builder.names import slug

# Line counts of the rulebook extractions the catalog cites (shared/seeds).
SEED_LINES = {
    "000_ac601013730960cf.txt": 167,  # Senshiai (last line has no newline)
    "001_dbcd2f61c1014419.txt": 7389,  # Kensei
    "002_55c7e5ab3d1a76a7.txt": 186,  # Senji
    "003_d64fd863b3930085.txt": 155,  # Satsuma Rebellion (last line has no newline)
    "004_80c161daf2b1fabf.txt": 1408,  # HeroCard
}
_REF = re.compile(r"^(?P<file>[0-9]{3}_[0-9a-f]{16}\.txt):(?P<a>[0-9]+)(?:-(?P<b>[0-9]+))?$")


def check_source(value: str) -> str:
    """Validate ``file:line``, ``file:a-b`` or several such refs joined by ``,`` or ``;``."""
    refs = [r.strip() for r in re.split(r"[;,]", value) if r.strip()]
    if not refs:
        raise ValueError("empty source; write FILE:LINE such as 001_dbcd2f61c1014419.txt:5962")
    for ref in refs:
        m = _REF.match(ref)
        if not m:
            raise ValueError(
                f"source '{ref}' is not FILE:LINE or FILE:FIRST-LAST (e.g. 001_dbcd2f61c1014419.txt:5962-5967)"
            )
        total = SEED_LINES.get(m["file"])
        if total is None:
            raise ValueError(f"source file '{m['file']}' is not one of the rulebooks: " + ", ".join(SEED_LINES))
        a = int(m["a"])
        b = int(m["b"] or a)
        if not (1 <= a <= b <= total):
            raise ValueError(f"source lines {a}-{b} are outside {m['file']} (1-{total})")
    return value


class Strict(BaseModel):
    """Unknown keys are rejected everywhere."""

    model_config = ConfigDict(extra="forbid", frozen=False, validate_default=False, defer_build=True)


class MaySource(Strict):
    """May cite the rulebook (``source``) or say what was assumed."""

    source: str | None = None
    assumed: str | None = None

    @field_validator("source")
    @classmethod
    def _source_ok(cls, v):
        return None if v is None else check_source(v)


class Sourced(MaySource):
    """Must cite the rulebook or say what was assumed."""

    @model_validator(mode="after")
    def _has_provenance(self):
        if not self.source and not self.assumed:
            raise ValueError("needs 'source: FILE:LINE' (what the rulebook says) or 'assumed: why' (what was inferred)")
        return self


class Entry(Sourced):
    """A named catalog entry (card, troop, ability, family, ...)."""

    id: str | None = None
    name: str
    aliases: list[str] = []
    notes: str | None = None
    art: str | None = None  # printed art: an image path relative to the pack (optional)
    focus: str | None = None  # which part of the art to keep when it is cropped to its box

    @field_validator("focus")
    @classmethod
    def _focus_ok(cls, v):
        if v is not None:
            from builder.catalog.focus import parse_focus  # noqa: PLC0415 - the focus syntax only when an entry has one; `daimyo check` loads no parser for it

            parse_focus(v)
        return v

    @model_validator(mode="after")
    def _default_id(self):
        if not self.id:
            self.id = slug(self.name)
        return self


class Alternative(MaySource):
    value: Any
    reading: str


class HouseRule(Sourced):
    """A contradiction or open point turned into a named parameter (FORMATS.md 1.6)."""

    id: str
    title: str
    description: str
    kind: Literal["choice", "int", "number", "bool"] = "choice"
    default: Any
    reading: str  # what the default reading is and why
    alternatives: list[Alternative] = []
    min: float | None = None
    max: float | None = None

    @field_validator("id")
    @classmethod
    def _id_ok(cls, v):
        if not re.fullmatch(r"[a-z][a-z0-9_]*", v):
            raise ValueError("house rule ids are snake_case (e.g. cavalry_max_percent)")
        return v

    def allowed(self) -> list[Any]:
        return [self.default] + [a.value for a in self.alternatives]

    def source_for(self, value: Any) -> str | None:
        """The rulebook lines that give ``value``: the house rule's own for its default, an
        alternative's for that alternative, None for a value the players agreed on their own."""
        if value == self.default:
            return self.source
        for a in self.alternatives:
            if a.value == value:
                return a.source
        return None

    def coerce(self, value: Any) -> Any:
        """Return the agreed value or raise ValueError with a message a user can act on."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ValueError(f"'{self.id}' takes true or false, not {value!r}")
        if self.kind in ("int", "number"):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"'{self.id}' takes a number, not {value!r}")
            if self.kind == "int" and not float(value).is_integer():
                raise ValueError(f"'{self.id}' takes a whole number, not {value!r}")
            if self.min is not None and value < self.min:
                raise ValueError(f"'{self.id}' must be at least {self.min:g}, not {value}")
            if self.max is not None and value > self.max:
                raise ValueError(f"'{self.id}' must be at most {self.max:g}, not {value}")
            return int(value) if self.kind == "int" else value
        allowed = self.allowed()
        if value in allowed:
            return value
        raise ValueError(f"'{self.id}' takes one of {', '.join(repr(a) for a in allowed)}, not {value!r}")


class BaseCatalog(Strict):
    """The root of one system's catalog: the merge of ``catalog/<system>/*.yaml``."""

    system: str | None = None
    title: str | None = None
    house_rules: list[HouseRule] = []
