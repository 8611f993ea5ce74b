"""The game systems daimyo knows, and how to find one by id or alias.

``find_system("Satsuma Rebellion")`` -> the ``GameSystem`` with id ``satsuma``. A system names
its catalog and rules modules (``builder.catalog.<id>``, ``builder.rules.<id>``), which are
imported only when asked for.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from builder import SYSTEMS

TITLES = {
    "senshiai": "Senshiai (card game, Basic Collection)",
    "kensei": "Kensei (miniature wargame, 2nd edition)",
    "herocard": "HeroCard: Rise of the Shogun (card duel)",
    "senji": "Senji (board game, 3-6 players)",
    "satsuma": "Satsuma Rebellion (2-player card game)",
}


@dataclass(frozen=True)
class GameSystem:
    """One game: its id, how people name it, and what a list of it holds.

    ``entries``: the list keys that hold what ``add`` adds; ``kind``: ``army`` (points and
    troops), ``deck`` (copies of cards) or ``setup`` (players of a board game).
    """

    id: str
    name: str
    title: str
    aliases: tuple[str, ...] = ()
    entries: tuple[str, ...] = ()
    kind: str = "deck"

    def catalog_module(self) -> ModuleType:
        return importlib.import_module(f"builder.catalog.{self.id}")

    def rules_module(self) -> ModuleType:
        return importlib.import_module(f"builder.rules.{self.id}")

    def load_catalog(self, packs=()):
        """The catalog of this system with ``packs`` (file paths) applied."""
        from builder.catalog.loader import load_catalog

        return load_catalog(self.id, list(packs))

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "title": self.title, "aliases": list(self.aliases),
                "entries": list(self.entries), "kind": self.kind}


REGISTRY: dict[str, GameSystem] = {s.id: s for s in (
    GameSystem("senshiai", "Senshiai", TITLES["senshiai"], ("senshiai basic collection",), ("cards",)),
    GameSystem("kensei", "Kensei", TITLES["kensei"], ("kensei 2nd edition", "kensei 2e"), ("troops",), "army"),
    GameSystem("herocard", "HeroCard", TITLES["herocard"], ("hero card", "herocard rise of the shogun",
                                                             "rise of the shogun"), ("deck", "attributes")),
    GameSystem("senji", "Senji", TITLES["senji"], (), ("players",), "setup"),
    GameSystem("satsuma", "Satsuma Rebellion", TITLES["satsuma"], ("satsuma rebellion",), ("cards",)),
)}


def _key(name: str) -> str:
    from builder.names import loose

    return loose(name)


def find_system(name: str) -> GameSystem:
    """The system called ``name``: its id, name or an alias (case, spaces and hyphens ignored).

    Raises ``UsageError`` naming the systems when there is none.
    """
    want = _key(str(name))
    for s in REGISTRY.values():
        if want in {_key(s.id), _key(s.name), *(_key(a) for a in s.aliases)}:
            return s
    from builder.errors import UsageError
    from builder.names import did_you_mean

    raise UsageError(f"unknown system '{name}'", did_you_mean(str(name), SYSTEMS) or "one of " + ", ".join(SYSTEMS))


def list_systems() -> list[GameSystem]:
    """Every system, in the order daimyo lists them."""
    return list(REGISTRY.values())


def catalog_module(system: str) -> ModuleType:
    return importlib.import_module(f"builder.catalog.{system}")


def rules_module(system: str) -> ModuleType:
    return importlib.import_module(f"builder.rules.{system}")


def is_system(name: str) -> bool:
    return name in SYSTEMS
