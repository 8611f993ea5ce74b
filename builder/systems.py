"""The registry of game systems.

Each system ``S`` provides, by convention:

* ``builder.catalog.S``: ``CATALOG_MODEL`` (a ``BaseCatalog`` subclass) and
  optionally ``cross_check(catalog) -> list[Diagnostic]`` for references the
  pydantic model cannot see (uses ``catalog.diag(section, index, field, msg)``).
* ``builder.rules.S``: the pure rules core and the checks:
  ``load_list(doc, catalog) -> (lst, findings)``, ``check(lst, catalog, rules) ->
  list[Finding]``, ``summary(lst, catalog, rules) -> dict``.

Modules are imported only when a command needs them.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from builder import SYSTEMS

TITLES = {
    "senshiai": "Senshiai (card game, Basic Collection)",
    "kensei": "Kensei (miniature wargame, 2nd edition)",
    "herocard": "HeroCard: Rise of the Shogun (card duel)",
    "senji": "Senji (board game, 3-6 players)",
    "satsuma": "Satsuma Rebellion (2-player card game)",
}


def catalog_module(system: str) -> ModuleType:
    return importlib.import_module(f"builder.catalog.{system}")


def rules_module(system: str) -> ModuleType:
    return importlib.import_module(f"builder.rules.{system}")


def is_system(name: str) -> bool:
    return name in SYSTEMS
