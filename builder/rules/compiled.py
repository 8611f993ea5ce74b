"""The compiled ruleset: everything checks derive from one loaded catalog, kept in one place.

Checking many lists against one catalog repeats the same work: compiling the restrictions'
selectors, deciding which restrictions are active for a clan and its house rules,
evaluating their bounds, matching the same profiles, reading the same profile facts and
finding the same names. ``ruleset(catalog)`` returns the ``Ruleset`` of a catalog,
memoised on the catalog's fingerprint (its files and packs, with their sizes and times);
what depends on the house rules or on a list's facts is remembered inside it under those
values. A catalog is never changed once loaded, so nothing here goes stale: a changed
catalog file is a new fingerprint and a new ruleset.
"""

from __future__ import annotations

import itertools
from typing import Any

from builder import state

MEMO_CAP = 50000  # entries of one memo before it is emptied (a batch of very varied lists)
KEEP = 8  # rulesets kept (catalogs with different packs)


class Ruleset:
    """What checks remember about one catalog.

    ``rules``: per restriction id, what the engine compiled from it; ``active``: the active
    restrictions per (list facts, house rules); ``rows``: selector matches per (profile facts,
    list facts, house rules); ``keys``: numbers for whole contexts; ``tables``: named memos of
    the rules modules (names found, profile facts, entry points).
    """

    __slots__ = ("active", "catalog", "fingerprint", "keys", "rows", "rules", "serial", "tables")

    def __init__(self, catalog, fingerprint):
        self.catalog = catalog
        self.fingerprint = fingerprint
        self.serial = next(_SERIALS)
        self.rules: dict[Any, Any] = {}
        self.active: dict[tuple, Any] = {}
        self.rows: dict[tuple, dict] = {}
        self.keys: dict[tuple, int] = {}
        self.tables: dict[str, dict] = {}

    def table(self, name: str) -> dict:
        """The named memo (created empty); emptied when it grows past ``MEMO_CAP``."""
        t = self.tables.get(name)
        if t is None or len(t) > MEMO_CAP:
            t = self.tables[name] = {}
        return t

    def intern(self, key: tuple) -> int:
        """A number for ``key``, never given to another key of this ruleset."""
        n = self.keys.get(key)
        if n is None:
            if len(self.keys) > MEMO_CAP:
                self.keys.clear()
                self.rows.clear()  # rows are keyed by these numbers
                self.active.clear()
            n = self.keys[key] = next(_SERIALS)
        return n


_SERIALS = itertools.count(1)
_RULESETS: dict[tuple, Ruleset] = state.cache(
    "rules.rulesets", bound=KEEP, lifetime=state.CATALOG, doc="compiled rulesets, by game and catalog fingerprint"
)
_LAST: list = [None]
state.register(
    "rules.last_ruleset",
    bound=1,
    lifetime=state.CATALOG,
    doc="the ruleset asked for last (checking one catalog's lists one after another)",
    size=lambda: int(_LAST[0] is not None),
    clear=lambda: _LAST.__setitem__(0, None),
)


def ruleset(catalog) -> Ruleset:
    """The ruleset of ``catalog`` (None: a ruleset of its own, for one evaluation)."""
    last = _LAST[0]
    if last is not None and last.catalog is catalog:
        return last
    if catalog is None:
        return Ruleset(None, None)
    fingerprint = getattr(catalog, "fingerprint", None)
    key = (getattr(catalog, "system", None), fingerprint)
    hit = _RULESETS.get(key) if fingerprint else None
    if hit is None or hit.catalog is not catalog:
        # the same files loaded again are another catalog object: its entries are other objects
        hit = Ruleset(catalog, fingerprint)
        if fingerprint:
            if len(_RULESETS) >= KEEP:
                _RULESETS.pop(next(iter(_RULESETS)))
            _RULESETS[key] = hit
    _LAST[0] = hit
    return hit
