"""Kensei's own edit operations (the changes of one unit of the list, named by its place), and the
game's edit parts (``gs.settings``, ``gs.editing``): the edit toolkit (ruamel.yaml) loads with them.

A Kensei list is a sequence of units (``troops:``), each a troop with its models, an optional
Hata-Jurushi and an optional unit leader. The operations below change one of them; the edit
session (``builder.lists.editor.ListEditor.apply``) runs them on the list's tree and writes the
result into the text. Each is a typed value (what the command line and the web builder build
from their arguments) with ``apply(tree, catalog, game) -> (notes, target)``.

``from_form`` reads one of them from the words of a form or a JSON body (``op`` and its fields),
or gives None for an operation that is not a unit's.
"""

from __future__ import annotations

import copy
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ruamel.yaml.comments import CommentedMap

from builder.errors import UnknownEntry, UsageError, option
from builder.games.kensei.rules import default_models
from builder.i18n import L_, Ln_
from builder.kit.edit import add_troop, delete_key, remove_troop, set_key
from builder.limits import whole_between
from builder.names import did_you_mean, normalize
from builder.systems.editing import EditingPart
from builder.systems.settings import SettingsPart

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import ListData, Where


MAX_MODELS = 100_000  # the most models the builder writes for one unit


def _troops(tree: Any) -> list:
    troops = tree.get("troops")
    if not isinstance(troops, list):
        raise UsageError(L_("the list has no troops"))
    return troops


def _unit(tree: Any, index: int) -> tuple[list, int]:
    troops = _troops(tree)
    if not 0 <= index < len(troops):
        n = len(troops)
        raise UsageError(
            Ln_(
                "no unit {value} in the list: it has {n} unit",
                "no unit {value} in the list: it has {n} units",
                n,
                value=index + 1,
            ),
            L_("units count from 1; an index in the JSON API counts from 0") if troops else L_("add a troop first"),
        )
    return troops, index


def _as_map(troops: list, i: int) -> Any:
    """Unit ``i`` as a mapping (a unit written as a bare troop name becomes ``troop: NAME``)."""
    t = troops[i]
    if isinstance(t, dict):
        return t
    m = CommentedMap()
    m["troop"] = t
    troops[i] = m
    return m


def _name(unit: object) -> Any:
    return unit.get("troop") if isinstance(unit, dict) else unit


@dataclass(frozen=True)
class Models:
    """Set a unit's models to ``value``, or change them by ``delta``."""

    index: int
    value: int | None = None
    delta: int | None = None

    def apply(self, tree: Any, catalog: Catalog, game: Any) -> tuple[list[str], tuple | None]:
        troops, i = _unit(tree, self.index)
        m = _as_map(troops, i)
        have = m.get("models", 1) or 1
        n = int(have) + self.delta if self.delta is not None else self.value
        if n is None or n < 1:
            raise UsageError(L_("a unit has at least 1 model; use remove to take it off the list"))
        if n > MAX_MODELS:
            raise UsageError(L_("models must be between 1 and {MAX_MODELS}, not {n}", MAX_MODELS=MAX_MODELS, n=n))
        if n == 1 and "models" in m:
            del m["models"]
        elif n != 1:
            if "models" in m:
                m["models"] = n
            else:
                m.insert(1, "models", n)
        return [Ln_("{troop}: {n} model", "{troop}: {n} models", n, troop=m.get("troop"))], ("troops", i)


@dataclass(frozen=True)
class Duplicate:
    """One more unit like unit ``index``, right below it (its comments stay with the original)."""

    index: int

    def apply(self, tree: Any, catalog: Catalog, game: Any) -> tuple[list[str], tuple | None]:
        troops, i = _unit(tree, self.index)
        twin = copy.deepcopy(troops[i])
        if isinstance(twin, dict) and hasattr(twin, "ca"):
            twin.ca.items.clear()
        troops.insert(i + 1, twin)
        return [L_("added another {name}", name=_name(twin))], ("troops", i + 1)


@dataclass(frozen=True)
class Standard:
    """Give unit ``index`` a Hata-Jurushi (``on``) or take it away."""

    index: int
    on: bool

    def apply(self, tree: Any, catalog: Catalog, game: Any) -> tuple[list[str], tuple | None]:
        troops, i = _unit(tree, self.index)
        m = _as_map(troops, i)
        if self.on:
            m["standard"] = True
        elif "standard" in m:
            del m["standard"]
        if self.on:
            return [L_("{troop}: carries Hata-Jurushi", troop=m.get("troop"))], ("troops", i)
        return [L_("{troop}: no Hata-Jurushi", troop=m.get("troop"))], ("troops", i)


@dataclass(frozen=True)
class Leader:
    """Deploy a leader of the list as unit ``index``'s unit leader (``name``), or none (None)."""

    index: int
    name: str | None

    def apply(self, tree: Any, catalog: Catalog, game: Any) -> tuple[list[str], tuple | None]:
        troops, i = _unit(tree, self.index)
        m = _as_map(troops, i)
        if not self.name:
            if "led_by" in m:
                del m["led_by"]
            return [L_("{troop}: no unit leader", troop=m.get("troop"))], ("troops", i)
        leader = game.troop(catalog, self.name)
        m["led_by"] = leader.name
        return [L_("{troop}: led by {leader}", troop=m.get("troop"), leader=leader.name)], ("troops", i)


@dataclass(frozen=True)
class RemoveUnit:
    """Take unit ``index`` off the list; a ``general:`` naming its troop alone goes with it."""

    index: int

    def apply(self, tree: Any, catalog: Catalog, game: Any) -> tuple[list[str], tuple | None]:
        troops, i = _unit(tree, self.index)
        gone = troops[i]
        del troops[i]
        general = tree.get("general")
        if general and not any(
            isinstance(_name(t), str) and normalize(_name(t)) == normalize(str(general)) for t in troops
        ):
            del tree["general"]
        return [L_("removed {name}", name=_name(gone))], None


OPERATIONS = (Models, Duplicate, Standard, Leader, RemoveUnit)

ON = ("1", "true", "on", "yes")


def from_form(form: dict) -> Any:
    """The unit operation a form or JSON body names (``op``: models, duplicate, troop with
    ``field`` standard or led_by, or remove with an ``index``), or None for any other."""
    kind = str(form.get("op", ""))
    given = form.get("index") not in (None, "")
    if kind == "remove" and not given:
        return None
    if kind not in ("models", "duplicate", "troop", "remove"):
        return None
    if not given:
        raise UsageError(L_("say which unit to change ({kind} takes an index, counted from 0)", kind=kind))
    index = whole_between(form.get("index"), "unit index", 0, 10**9)
    if kind == "remove":
        return RemoveUnit(index)
    if kind == "duplicate":
        return Duplicate(index)
    if kind == "models":
        delta = form.get("delta")
        if delta not in (None, ""):
            return Models(index, delta=whole_between(delta, "delta", -1000, 1000))
        return Models(index, value=whole_between(form.get("value"), "models", 1, MAX_MODELS))
    field = str(form.get("field"))
    if field == "standard":
        return Standard(index, str(form.get("value")).lower() in ON)
    if field == "led_by":
        return Leader(index, str(form.get("value") or "").strip() or None)
    raise UsageError(L_("unknown unit setting '{field}'", field=field), L_("standard or led_by"))


# -- the game's edit parts (``gs.settings``, ``gs.editing``), made from the game when first asked for

SET_KEYS = ("commander", "points", "clan", "occult", "general", "name")


def _one_of(catalog: Catalog, section: str) -> str:
    return "one of " + ", ".join(e.id for e in catalog.entries(section))


class KenseiSettings(SettingsPart):
    """What ``set`` may change in a Kensei list (``gs.settings``)."""

    keys = SET_KEYS

    def value(self, catalog: Catalog, key: str, value: str) -> tuple[object, str | None]:
        if key not in SET_KEYS:
            raise UsageError(
                L_("cannot set '{key}'", key=key),
                did_you_mean(key, SET_KEYS) or L_("one of {values}", values=", ".join(SET_KEYS)),
            )
        if key == "commander":
            lvl = catalog.find("commander_levels", value)
            if lvl is None:
                raise UnknownEntry(
                    L_("unknown commander level '{value}'", value=value),
                    catalog.did_you_mean("commander_levels", value) or _one_of(catalog, "commander_levels"),
                )
            return lvl.id, None
        if key == "clan":
            c = catalog.find("clans", value)
            if c is None:
                raise UnknownEntry(
                    L_("unknown clan '{value}'", value=value),
                    catalog.did_you_mean("clans", value) or _one_of(catalog, "clans"),
                )
            return c.id, None
        if key == "points":
            try:
                n = int(value)
            except ValueError:
                raise UsageError(L_("points must be a whole number, not '{value}'", value=value), "e.g. 400") from None
            if n <= 0:
                raise UsageError(L_("points must be positive, not {n}", n=n))
            return n, None
        if key == "occult":
            v = value.strip().lower()
            if v in ("true", "yes", "on", "1"):
                return True, None
            if v in ("false", "no", "off", "0"):
                return False, None
            raise UsageError(L_("occult takes true or false, not '{value}'", value=value))
        if key == "general":
            if not value.strip():
                return None, None  # no general named: the list's hero leads
            return self.game.troop(catalog, value).name, None
        return value, None

    def apply(self, data: ListData, catalog: Catalog, key: str, value: str) -> tuple[list[str], Where]:

        v, _ = self.value(catalog, key, value)
        if v is None:
            if key in data:
                delete_key(data, key)
            return [L_("removed {key}", key=key)], (key,)
        set_key(data, key, v)
        return [L_("set {key} = {value}", key=key, value=str(v).lower() if isinstance(v, bool) else v)], (key,)


class KenseiEditing(EditingPart):
    """How add and remove change an army: a unit of a troop (its models, leader and standard),
    the last unit of a troop taken off; the game's own edits change a unit by its place."""

    add_options = frozenset({"models", "led_by", "standard"})
    remove_options = frozenset()

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        # this module's operations: a unit's models, standard, leader; duplicate and remove a unit
        self.edits = sys.modules[__name__]

    def option_refusal(self, verb: str, opt: str) -> str:
        if verb == "remove":
            return f"{option('count')} and {option('all')} apply to card lists; 'remove' takes one kensei troop entry"
        if opt == "count":
            return f"{option('count')} applies to card lists; a kensei unit's size is {option('models')}"
        return super().option_refusal(verb, opt)

    def add(
        self,
        data: ListData,
        catalog: Catalog,
        name: str,
        count: int | None = None,
        *,
        models: int | None = None,
        led_by: str | None = None,
        standard: bool = False,
        **options: Any,
    ) -> tuple[list[str], Where | None]:

        t = self.game.troop(catalog, name)
        n = models if models is not None else default_models(catalog, t)
        if n < 1:
            raise UsageError(L_("{option} must be at least 1, not {n}", option=option("models"), n=n))
        if led_by is not None:
            self.game.troop(catalog, led_by)
        i = add_troop(data, t.name, n, led_by, standard)
        return [L_("added {n} {name}", n=n, name=t.name) if n > 1 else L_("added {name}", name=t.name)], ("troops", i)

    def remove(self, data: ListData, catalog: Catalog, name: str, count: int | None = 1, **options: Any) -> list[str]:

        removed = remove_troop(data, name, catalog)
        return [L_("removed {name}", name=removed.get("troop") if isinstance(removed, dict) else removed)]
