"""The game systems: one ``GameSystem`` object per game, and the registry that finds them.

Everything that differs between games lives here, one module per game (the python-chess
variant pattern: a base class with hooks, one subclass per game, a registry with lookup by
id and alias). The rest of daimyo asks the registry::

    from builder.systems import find_system

    gs = find_system("Satsuma Rebellion")     # by id, name or alias
    gs.id, gs.title, gs.entries               # "satsuma", ..., ("cards",)
    data, notes = gs.new(catalog, {"side": "samurai"})

A new game is one module defining a ``GameSystem`` subclass, registered with ``register``,
plus its catalog folder (``catalog_dir``), its catalog model and its rules module.
Modules of the built-in games are imported only when a system is first asked for.
"""

from __future__ import annotations

import importlib
from types import ModuleType

BUILT_IN_IDS = ("senshiai", "kensei", "herocard", "senji", "satsuma")
"""The built-in games, in the order daimyo lists them (a share code numbers them in this order)."""
SYSTEMS = BUILT_IN_IDS

_BUILT_IN = {s: f"builder.games.{s}.system" for s in SYSTEMS}
_LOADED: dict = {}


def register(system) -> None:
    """Add a game (a ``GameSystem`` instance) to the registry; its id must be new."""
    if system.id in _LOADED or (system.id in _BUILT_IN and _BUILT_IN[system.id] != type(system).__module__):
        from builder.errors import UsageError

        raise UsageError(f"a game system '{system.id}' is registered already")
    _LOADED[system.id] = system


def unregister(system_id: str) -> None:
    """Take a registered (not built-in) game out of the registry again."""
    if system_id not in _BUILT_IN:
        _LOADED.pop(system_id, None)


def ids() -> tuple[str, ...]:
    """The ids of every registered system, the built-in ones first."""
    return tuple(SYSTEMS) + tuple(k for k in _LOADED if k not in _BUILT_IN)


def get(system_id: str):
    """The system with exactly this id (no aliases); ``KeyError`` when there is none."""
    hit = _LOADED.get(system_id)
    if hit is None:
        module = _BUILT_IN[system_id]  # KeyError: unknown
        hit = _LOADED[system_id] = importlib.import_module(module).SYSTEM
    return hit


def _key(name: str) -> str:
    from builder.names import loose

    return loose(name)


def find_system(name: str):
    """The ``GameSystem`` called ``name``: its id, name or an alias (case, spaces and hyphens
    ignored). Raises ``UnknownSystem`` (a ``UsageError``) naming the systems when there is none."""
    text = str(name)
    if text in _LOADED or text in _BUILT_IN:
        return get(text)
    want = _key(text)
    for sid in ids():
        s = get(sid)
        if want in {_key(s.id), _key(s.name), *(_key(a) for a in s.aliases)}:
            return s
    from builder.errors import UnknownSystem
    from builder.names import did_you_mean

    raise UnknownSystem(f"unknown system '{name}'", did_you_mean(text, ids()) or "one of " + ", ".join(ids()))


def list_systems() -> list:
    """Every registered system, in the order daimyo lists them."""
    return [get(s) for s in ids()]


def is_system(name: str) -> bool:
    return name in _BUILT_IN or name in _LOADED


def catalog_module(system: str) -> ModuleType:
    """The catalog module of ``system`` (an unregistered id: ``builder.games.<id>.catalog``)."""
    if not is_system(system):
        return importlib.import_module(f"builder.games.{system}.catalog")
    return get(system).catalog_module()


def __getattr__(name: str):
    if name == "GameSystem":
        from builder.systems.base import GameSystem

        return GameSystem
    raise AttributeError(name)
