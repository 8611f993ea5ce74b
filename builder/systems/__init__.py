"""The registry of games: one ``GameSystem`` object per game, found by id, name or alias.

A game is registered by an entry point of the ``daimyo.games`` group, the way pytest finds its
plugins. daimyo's own five games are registered so in its ``pyproject.toml``::

    [project.entry-points."daimyo.games"]
    kensei = "builder.games.kensei.system:SYSTEM"

and a game in another package registers the same way in that package's metadata (the value
names a ``GameSystem`` instance, or a callable returning one). Nothing is imported until a game
is asked for; the rest of daimyo asks the registry and never imports a game's package::

    from builder.systems import find_system

    gs = find_system("Satsuma Rebellion")     # by id, name or alias
    gs.id, gs.title, gs.entries               # "satsuma", ..., ("cards",)
    data, notes = gs.new_list.make(catalog, {"side": "samurai"})

``register(system)`` is what loading an entry point does; a test (whose games are not
installed) calls it directly.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import zlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from builder.errors import UnknownSystem, UsageError
from builder.i18n import L_
from builder.names import did_you_mean, loose
from builder.paths import cache_dir
from builder.yamlio import atomic_write

if TYPE_CHECKING:
    from pathlib import Path

    from builder.systems.base import GameSystem

ENTRY_POINTS = "daimyo.games"
"""The entry point group games register in."""

BUILT_IN_IDS = ("senshiai", "kensei", "herocard", "senji", "satsuma")
"""daimyo's own games, in the order it lists them (a share code numbers them in this order)."""
SYSTEMS = BUILT_IN_IDS

_LOADED: dict = {}  # id -> GameSystem, loaded or registered
_FOUND: dict | None = None  # id -> entry point (not loaded yet), once the metadata was read


class _Entry:
    """An entry point of the ``daimyo.games`` group: ``name`` (the game's id) and ``value``
    (``module:attribute``), loaded when the game is first asked for."""

    def __init__(self, name: str, value: str):
        self.name, self.value = name, value

    def load(self) -> Any:
        module, _, attr = self.value.partition(":")
        hit: Any = importlib.import_module(module.strip())
        for part in attr.strip().split(".") if attr.strip() else ():
            hit = getattr(hit, part)
        return hit


def _scan() -> dict[str, str]:
    """``{name: value}`` of every ``daimyo.games`` entry point. Reading the metadata of every
    installed package takes longer than a whole check, so the answer is kept in the cache folder
    while the folders on ``sys.path`` are unchanged (installing or removing a package changes
    its folder)."""
    use_cache = os.environ.get("DAIMYO_NO_CACHE") != "1"
    stamps = []
    for folder in sys.path:
        try:
            stamps.append(f"{folder}:{os.stat(folder or '.').st_mtime_ns}")
        except OSError:
            stamps.append(f"{folder}:-")
    key = "\n".join(stamps)
    # One answer per environment (its interpreter and path): two virtual environments, or the
    # command run from two folders, keep their own instead of replacing each other's.
    # (a checksum names the file: two environments sharing one by chance only read the metadata
    # more often, as the key inside decides; hashlib would cost more than the read it saves)
    where = "\n".join([sys.prefix, os.getcwd(), *sys.path])
    memo = cache_dir() / f"games-{zlib.crc32(where.encode()):08x}.json"
    if use_cache:
        try:
            kept = json.loads(memo.read_text(encoding="utf-8"))
            if kept.get("key") == key and isinstance(kept.get("games"), dict):
                return kept["games"]
        except (OSError, ValueError, AttributeError):
            pass  # no answer kept, or an unreadable one: read the metadata
    from importlib.metadata import entry_points  # noqa: PLC0415 - the installed packages are read only when the cached scan is stale

    games = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINTS)}
    if use_cache:
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(memo, json.dumps({"key": key, "games": games}))
            _prune(memo.parent, keep=_KEPT_ANSWERS)
        except OSError:
            pass  # a read-only cache folder only costs time
    return games


_KEPT_ANSWERS = 16  # environments whose answer is kept; the least recently written go first


def _prune(folder: Path, keep: int) -> None:
    """Keep the ``keep`` most recently written answers of ``_scan`` in ``folder``."""
    answers = []
    for path in folder.glob("games-*.json"):
        try:
            answers.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue  # removed by another process meanwhile
    for _, path in sorted(answers, reverse=True)[keep:]:
        try:
            os.unlink(path)
        except OSError:
            pass  # removed by another process meanwhile


def _entry_points() -> dict[str, _Entry]:
    global _FOUND
    if _FOUND is None:
        found: dict[str, _Entry] = {name: _Entry(name, value) for name, value in _scan().items()}
        for sid in BUILT_IN_IDS:  # a source tree that is not installed has no metadata
            found.setdefault(sid, _Entry(sid, f"builder.games.{sid}.system:SYSTEM"))
        _FOUND = found
    return _FOUND


def refresh() -> None:
    """Read the entry points again (a package installed since they were read); the games
    registered with ``register`` stay."""
    global _FOUND
    found = _entry_points()
    for sid in list(_LOADED):
        if sid in found:
            del _LOADED[sid]
    _FOUND = None


def register(system: GameSystem) -> None:
    """Add a game (a ``GameSystem`` instance) to the registry; its id must be new."""
    if not getattr(system, "id", ""):
        raise UsageError(L_("a game system needs an id: {system!r}", system=system))
    if system.id in _LOADED or system.id in _entry_points():
        raise UsageError(L_("a game system '{id}' is registered already", id=system.id))
    _LOADED[system.id] = system


def unregister(system_id: str) -> None:
    """Take a game registered with ``register`` out of the registry again (not an entry point's)."""
    if system_id not in _entry_points():
        _LOADED.pop(system_id, None)


def ids() -> tuple[str, ...]:
    """The ids of every registered game: daimyo's own first, then those of entry points, then
    those registered with ``register``."""
    found = _entry_points()
    others = sorted(k for k in found if k not in BUILT_IN_IDS)
    return BUILT_IN_IDS + tuple(others) + tuple(k for k in _LOADED if k not in found)


def get(system_id: str) -> GameSystem:
    """The game with exactly this id (no aliases); ``KeyError`` when there is none."""
    hit = _LOADED.get(system_id)
    if hit is None:
        ep = _entry_points()[system_id]  # KeyError: unknown
        hit = ep.load()
        if isinstance(hit, type) or (callable(hit) and not hasattr(hit, "id")):
            hit = hit()  # a class or a factory
        if getattr(hit, "id", None) != system_id:
            raise UsageError(
                L_(
                    "the entry point '{system_id}' of {ENTRY_POINTS} ({value}) gives a game whose id is {getattr!r}",
                    system_id=system_id,
                    ENTRY_POINTS=ENTRY_POINTS,
                    value=ep.value,
                    getattr=getattr(hit, "id", None),
                ),
                L_("the entry point's name is the game's id"),
            )
        _LOADED[system_id] = hit
    return hit


def _key(name: str) -> str:
    return loose(name)


def find_system(name: str) -> GameSystem:
    """The ``GameSystem`` called ``name``: its id, name or an alias (case, spaces and hyphens
    ignored). Raises ``UnknownSystem`` (a ``UsageError``) naming the systems when there is none."""
    text = str(name)
    if is_system(text):
        return get(text)
    want = _key(text)
    for sid in ids():
        s = get(sid)
        if want in {_key(s.id), _key(s.name), *(_key(a) for a in s.aliases)}:
            return s
    raise UnknownSystem(
        L_("unknown system '{name}'", name=name),
        did_you_mean(text, ids()) or L_("one of {values}", values=", ".join(ids())),
    )


def list_systems() -> list[GameSystem]:
    """Every registered system, in the order daimyo lists them."""
    return [get(s) for s in ids()]


def is_system(name: str) -> bool:
    return name in _LOADED or name in _entry_points()


def catalog_module(system: str) -> ModuleType:
    """The module of ``system``'s catalog model (``CATALOG_MODEL``); ``KeyError`` for an unknown id."""
    return get(system).catalog.module()


def catalog_folder(system: str) -> Path:
    """The folder of ``system``'s catalog files, as the game says (``gs.catalog.folder``);
    ``KeyError`` for an unknown id."""
    return get(system).catalog.folder


def __getattr__(name: str) -> type[GameSystem]:
    if name == "GameSystem":
        from builder.systems.base import GameSystem  # noqa: PLC0415 - systems.base imports every part of a game; `import builder.systems` stays light

        return GameSystem
    raise AttributeError(name)
