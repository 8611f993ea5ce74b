"""The toy wargame's own edit operations (``ToyUnits.editing.edits``): a unit's models, a duplicate, a
removal, each naming its unit by its place in ``troops:``. Written for the toy alone, as a game
of another package writes its own: each is a typed value with ``apply(tree, catalog, game) ->
(notes, target)``, and ``from_form`` reads one from the words of a form, a JSON body or the
command line (``daimyo edit models``, ``duplicate``, ``remove-unit``)."""

from __future__ import annotations

import copy
from dataclasses import dataclass

from builder.errors import UsageError
from builder.limits import whole_between

MOST_MODELS = 1000


def _unit(tree, index: int):
    troops = tree.get("troops")
    if not isinstance(troops, list) or not 0 <= index < len(troops):
        have = len(troops) if isinstance(troops, list) else 0
        raise UsageError(f"no unit {index + 1} in the army: it has {have}")
    return troops


@dataclass(frozen=True)
class SetModels:
    """Unit ``index`` gets ``value`` models, or ``delta`` more (fewer when negative)."""

    index: int
    value: int | None = None
    delta: int | None = None

    def apply(self, tree, catalog, game):
        troops = _unit(tree, self.index)
        unit = troops[self.index]
        if not isinstance(unit, dict):  # a unit written as its troop's name alone
            from ruamel.yaml.comments import CommentedMap

            unit = troops[self.index] = CommentedMap([("troop", unit)])
        n = (int(unit.get("models") or 1) + self.delta) if self.delta is not None else self.value
        if n is None or not 1 <= n <= MOST_MODELS:
            raise UsageError(
                f"a unit has at least 1 model and at most {MOST_MODELS}, not {n}",
                "remove-unit takes a unit off the army",
            )
        unit["models"] = n
        return [f"{unit['troop']}: {n} models"], ("troops", self.index)


@dataclass(frozen=True)
class CopyUnit:
    """A second unit like unit ``index``, just after it."""

    index: int

    def apply(self, tree, catalog, game):
        troops = _unit(tree, self.index)
        troops.insert(self.index + 1, copy.deepcopy(troops[self.index]))
        unit = troops[self.index + 1]
        return [f"another {unit['troop'] if isinstance(unit, dict) else unit}"], ("troops", self.index + 1)


@dataclass(frozen=True)
class DropUnit:
    """Unit ``index`` leaves the army."""

    index: int

    def apply(self, tree, catalog, game):
        troops = _unit(tree, self.index)
        unit = troops.pop(self.index)
        return [f"removed {unit['troop'] if isinstance(unit, dict) else unit}"], None


def from_form(form: dict):
    """The operation of ``form`` (``op``: models, duplicate, or remove with an ``index``); None
    for an operation every game has (add, remove by name, set)."""
    op = str(form.get("op", ""))
    if op not in ("models", "duplicate", "remove") or (op == "remove" and form.get("index") in (None, "")):
        return None
    index = whole_between(form.get("index"), "unit index", 0, 10**6)
    if op == "duplicate":
        return CopyUnit(index)
    if op == "remove":
        return DropUnit(index)
    if form.get("delta") not in (None, ""):
        return SetModels(index, delta=whole_between(form.get("delta"), "delta", -MOST_MODELS, MOST_MODELS))
    return SetModels(index, value=whole_between(form.get("value"), "models", 1, MOST_MODELS))
