"""What a process keeps between calls, in one place: every cache daimyo holds in memory.

Each cache is registered here with a name, a bound (the most entries it keeps; ``None`` for a
cache keyed by something finite by construction, such as the game ids or the code's model
classes, named in ``lifetime``) and its lifetime (how long an entry stays true). The module that
uses a cache still holds it as a plain ``dict`` (or a ``functools`` cache), so a look-up costs
what it always cost; this module only knows them, so that

* ``clear_all()`` empties every cache (a test that wants a cold process, a long-running process
  that wants its memory back);
* ``entries()`` lists them with their size now (the benchmarks print it; the tests check that
  every cache is registered and bounded).

A module adds one with ``cache(...)`` (a dict) or the ``memo(...)`` decorator (a function's
results), never with a bare module-level dict: ``tests/test_state.py`` counts those.

Lifetimes, the words used here:

``PROCESS``
    true while the process runs: it depends on the code or on the files installed with it.
``FILE``
    true while a file keeps its identity (size and modification time, or inode), checked on use.
``CATALOG``
    true for one catalog (keyed by its fingerprint or its object): a new catalog gets new entries.
``VALUE``
    a pure function of its key (a text and what is made of it): never stale, kept to save work.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

PROCESS = "process"
FILE = "file"
CATALOG = "catalog"
VALUE = "value"
LIFETIMES = (PROCESS, FILE, CATALOG, VALUE)

F = TypeVar("F", bound=Callable[..., Any])


class Entry:
    """One registered cache: its name, bound, lifetime, what it is for, and how to read its
    size and empty it."""

    __slots__ = ("bound", "clear", "doc", "lifetime", "name", "size")

    def __init__(
        self, name: str, bound: int | None, lifetime: str, doc: str, size: Callable[[], int], clear: Callable[[], None]
    ) -> None:
        self.name, self.bound, self.lifetime, self.doc = name, bound, lifetime, doc
        self.size, self.clear = size, clear

    def __repr__(self) -> str:
        return f"<cache {self.name}: {self.size()} of {self.bound or 'finite'}, per {self.lifetime}>"


_REGISTRY: dict[str, Entry] = {}


def _add(entry: Entry) -> None:
    if entry.lifetime not in LIFETIMES:
        raise ValueError(f"cache {entry.name}: lifetime {entry.lifetime!r} is not one of {', '.join(LIFETIMES)}")
    if entry.bound is not None and entry.bound < 1:
        raise ValueError(f"cache {entry.name}: bound {entry.bound} is not a positive number of entries")
    old = _REGISTRY.get(entry.name)
    if old is not None and old.doc != entry.doc:
        raise ValueError(f"cache {entry.name} is registered twice")
    _REGISTRY[entry.name] = entry  # a module imported again (a test reloading it) replaces its own


def cache(name: str, *, bound: int | None, lifetime: str, doc: str) -> dict[Any, Any]:
    """A new empty dict registered as the cache ``name``. The module that uses it keeps it within
    ``bound`` entries itself (a constant of the module, given here too), the way that suits
    its use (dropping the oldest entry, or all of them)."""
    kept: dict[Any, Any] = {}
    _add(Entry(name, bound, lifetime, doc, kept.__len__, kept.clear))
    return kept


def memo(name: str, *, bound: int | None, lifetime: str, doc: str, typed: bool = False) -> Callable[[F], F]:
    """A decorator: ``functools.lru_cache(maxsize=bound)`` (``functools.cache`` for no bound),
    registered as the cache ``name``."""

    def wrap(fn: F) -> F:
        kept: Any = functools.lru_cache(maxsize=bound, typed=typed)(fn)
        _add(Entry(name, bound, lifetime, doc, lambda: kept.cache_info().currsize, kept.cache_clear))
        return cast("F", kept)

    return wrap


def register(
    name: str, *, bound: int | None, lifetime: str, doc: str, size: Callable[[], int], clear: Callable[[], None]
) -> None:
    """Register a cache that is not a plain dict (a one-entry slot, a cache with a lock), by how
    to read its size and how to empty it."""
    _add(Entry(name, bound, lifetime, doc, size, clear))


def entries() -> list[Entry]:
    """Every registered cache, by name (the caches of modules not imported yet are not here)."""
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def stats() -> dict[str, int]:
    """The number of entries each cache holds now, by name."""
    return {e.name: e.size() for e in entries()}


def clear_all() -> None:
    """Empty every registered cache: the process then answers as a fresh one would."""
    for e in list(_REGISTRY.values()):
        e.clear()
