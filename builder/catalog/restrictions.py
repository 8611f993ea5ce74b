"""Declarative army-building restrictions: data evaluated by ``builder.rules.engine``.

A restriction says *what is counted* (``count``: models, units, points or
profiles), *of which troops* (``of``: a selector over profile facts such as
class, type, weapon, title, clan, flags), *how it is grouped* (``for_each``:
the whole list, each entry, or each value of a fact such as ``troop``), the
*bound* (``min``/``max``/``exactly``: a number, a percentage of the battle size,
"N per M points" with rounding, a table by battle size, or a house-rule
parameter), *when it applies* (``when``/``unless`` over list facts and house
rules; ``replaces`` for clan rules that override general ones), and how it is
reported (``severity``, ``label``, ``message`` template, ``source``).

Example::

    - name: Ranged troops at most half the battle size
      id: ranged-max
      label: ranged troops
      count: points
      of: {leader: false, ranged: true}
      max: {percent: {param: ranged_max_percent}}
      source: 001_dbcd2f61c1014419.txt:5962-5967

Selectors (``of``, ``when``, ``unless``) are mappings; every key must hold:

* ``fact: value`` -- equal (names compared without case/hyphen variants); when
  the fact is a set (weapons, titles), the value must be in it;
* ``fact: [a, b]`` -- any of the values;
* ``fact: {min: 3, max: 5}`` -- a numeric range;
* ``fact: $clan`` -- a value of the list's context (its clan, battle size, ...);
* ``any: [sel, ...]``, ``all: [sel, ...]``, ``not: sel`` -- combinations;
* in ``when``/``unless`` only: ``house_rule: {id: value}``.
"""

from __future__ import annotations

import re
from collections.abc import Set
from typing import Any, Literal, TypeGuard

from pydantic import field_validator, model_validator

from builder.catalog.base import Entry, Strict
from builder.catalog.frozen import kind

COMBINATORS = ("any", "all", "not")
MEASURES = ("models", "units", "points", "profiles")


class Param(Strict):
    """A house-rule parameter used as a number (``{param: cavalry_max_percent}``)."""

    param: str
    default: float | None = None


Num = int | float | Param


class TableRow(Strict):
    """One row of a table by battle size: applies when ``min <= base <= max``."""

    min: float | None = None
    max: float | None = None
    value: Num


class BoundExpr(Strict):
    """How a bound is computed: at most one of ``value``, ``percent``, ``per``, ``table``;
    none of them means the base itself (``max: {of: limit}`` = the battle size).

    * ``value`` -- a fixed number (or ``{param: id}``);
    * ``percent`` -- that percentage of the base (``of``, default the battle size);
    * ``per`` -- ``times`` for every ``per`` of the base, rounded (``round``: up,
      down or none), plus ``offset``;
    * ``table`` -- the row whose ``min``/``max`` contain the base.

    ``at_least``/``at_most`` clamp the result.
    """

    value: Num | None = None
    percent: Num | None = None
    per: Num | None = None
    times: Num = 1
    round: Literal["up", "down", "none"] = "up"
    offset: Num = 0
    table: list[TableRow] | None = None
    of: str = "limit"
    at_least: Num | None = None
    at_most: Num | None = None

    @model_validator(mode="after")
    def _one_kind(self):
        kinds = [k for k in ("value", "percent", "per", "table") if getattr(self, k) is not None]
        if len(kinds) > 1:
            raise ValueError(f"a bound takes one of 'value', 'percent', 'per' or 'table', not {', '.join(kinds)}")
        if self.table is not None and not self.table:
            raise ValueError("'table' needs at least one row")
        return self


Bound = int | float | Param | BoundExpr


def check_selector(sel: Any, where: str = "of", context: bool = False) -> None:
    """Raise ValueError when a selector is not a well-formed mapping."""
    if not isinstance(sel, dict):
        raise ValueError(f"'{where}' must be a mapping of fact: value (got {sel!r})")
    for key, val in sel.items():
        if not isinstance(key, str):
            raise ValueError(f"'{where}': keys are fact names, not {key!r}")
        if key in ("any", "all"):
            if not isinstance(val, list) or not val:
                raise ValueError(f"'{where}.{key}' must be a non-empty list of selectors")
            for i, sub in enumerate(val):
                check_selector(sub, f"{where}.{key}[{i}]", context)
        elif key == "not":
            check_selector(val, f"{where}.not", context)
        elif key == "house_rule":
            if not context:
                raise ValueError(f"'{where}': 'house_rule' is allowed in 'when'/'unless' only")
            if not isinstance(val, dict) or not val:
                raise ValueError(f"'{where}.house_rule' must map house-rule ids to values")
        elif isinstance(val, dict):
            extra = set(val) - {"min", "max"}
            if extra or not val:
                raise ValueError(
                    f"'{where}.{key}': a range is {{min: N, max: N}}, not {sorted(map(str, extra)) or 'empty'}"
                )
        elif isinstance(val, list):
            for v in val:
                if isinstance(v, (dict, list)):
                    raise ValueError(f"'{where}.{key}': list items must be plain values")


def selector_facts(sel: dict) -> set[str]:
    """Every fact name a selector reads (for cross-checks against a system's vocabulary)."""
    out: set[str] = set()
    for key, val in sel.items():
        if key in ("any", "all"):
            for sub in val:
                out |= selector_facts(sub)
        elif key == "not":
            out |= selector_facts(val)
        elif key != "house_rule":
            out.add(key)
    return out


def selector_refs(sel: dict) -> set[str]:
    """Context references (``$clan``) used as values in a selector."""
    out: set[str] = set()
    for key, val in sel.items():
        if key in ("any", "all"):
            for sub in val:
                out |= selector_refs(sub)
        elif key == "not":
            out |= selector_refs(val)
        else:
            for v in val if isinstance(val, list) else [val]:
                if isinstance(v, str) and v.startswith("$"):
                    out.add(v[1:])
    return out


class Restriction(Entry):
    """One army-building rule as data (see the module docstring)."""

    id: str | None = None
    code: str | None = None  # finding code suffix; defaults to id (a clan variant may share a code)
    label: str  # what is counted, as it reads in a message: "ranged troops"
    noun: str | None = None  # the counted thing for units/profiles ("leaders"); default per measure
    count: Literal["models", "units", "points", "profiles"] = "units"
    of: dict[str, Any] = {}
    for_each: str = "list"  # list | entry | <fact> (group by that fact, e.g. troop)
    plus: list[str] = []  # context values added to the count (e.g. commander_cost)
    min: Bound | None = None
    max: Bound | None = None
    exactly: Bound | None = None
    when: dict[str, Any] = {}
    unless: dict[str, Any] = {}
    replaces: list[str] = []
    severity: Literal["error", "warning", "info"] = "error"
    message: str | None = None  # template: {label} {value} {value_text} {op} {bound} {bound_text} {base} {item} ...
    hint: str | None = None
    at: list[str | int] | None = None  # where a list-wide finding points when no entry is to blame

    @field_validator("id", "code")
    @classmethod
    def _kebab(cls, v):
        if v is not None and not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", v):
            raise ValueError(f"'{v}' must be kebab-case (e.g. ranged-max)")
        return v

    @field_validator("of")
    @classmethod
    def _of_ok(cls, v):
        check_selector(v, "of")
        return v

    @field_validator("when")
    @classmethod
    def _when_ok(cls, v):
        check_selector(v, "when", context=True)
        return v

    @field_validator("unless")
    @classmethod
    def _unless_ok(cls, v):
        check_selector(v, "unless", context=True)
        return v

    @model_validator(mode="after")
    def _has_bound(self):
        if self.min is None and self.max is None and self.exactly is None:
            raise ValueError("a restriction needs 'min', 'max' or 'exactly'")
        if self.exactly is not None and (self.min is not None or self.max is not None):
            raise ValueError("'exactly' excludes 'min' and 'max'")
        if not self.code:
            self.code = self.id
        return self

    def params(self) -> set[str]:
        """House-rule ids this restriction reads."""
        out: set[str] = set()

        def walk(x):
            if kind(x) == "Param":
                out.add(x.param)
            elif kind(x) == "BoundExpr":
                for f in ("value", "percent", "per", "times", "offset", "at_least", "at_most"):
                    walk(getattr(x, f))
                for row in x.table or []:
                    walk(row.value)

        for b in (self.min, self.max, self.exactly):
            walk(b)
        for sel in (self.when, self.unless):
            hr = sel.get("house_rule")
            if isinstance(hr, dict):
                out |= set(hr)
        return out


def _is_bound_expr(bound: object) -> TypeGuard[BoundExpr]:
    """A ``BoundExpr``, validated or frozen (``builder.catalog.frozen``)."""
    return kind(bound) == "BoundExpr"


def check_restrictions(
    restrictions: list[Restriction], facts: Set[str], context: Set[str], values: Set[str], house_rules: Set[str]
) -> list[tuple[int, str, str]]:
    """Problems a pydantic model cannot see: ``(index, field, message)`` for each.

    ``facts`` is the system's fact vocabulary for troops, ``context`` its list facts,
    ``values`` its numeric context values (bases and ``plus``), ``house_rules`` the
    catalog's parameter ids.
    """
    out = []
    ids = {r.id for r in restrictions}
    for i, r in enumerate(restrictions):
        for f in sorted(selector_facts(r.of) - facts):
            out.append((i, "of", f"unknown fact '{f}' in 'of' (known: {', '.join(sorted(facts))})"))
        for sel_name in ("when", "unless"):
            sel = getattr(r, sel_name)
            for f in sorted(selector_facts(sel) - context):
                out.append(
                    (i, sel_name, f"unknown list fact '{f}' in '{sel_name}' (known: {', '.join(sorted(context))})")
                )
        for ref in sorted(selector_refs(r.of) - context):
            out.append((i, "of", f"unknown context reference '${ref}'"))
        if r.for_each not in ("list", "entry") and r.for_each not in facts:
            out.append((i, "for_each", f"'for_each: {r.for_each}' is not list, entry or a fact"))
        for p in sorted(r.params() - house_rules):
            out.append((i, "max", f"unknown house rule '{p}'"))
        for v in r.plus:
            if v not in values:
                out.append((i, "plus", f"unknown context value '{v}' (known: {', '.join(sorted(values))})"))
        for b in (r.min, r.max, r.exactly):
            if _is_bound_expr(b) and b.of not in values:
                out.append((i, "of", f"unknown base '{b.of}' (known: {', '.join(sorted(values))})"))
        for rep in r.replaces:
            if rep not in ids:
                out.append((i, "replaces", f"'replaces: {rep}' names no restriction"))
    return out
