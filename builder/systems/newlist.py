"""``NewListPart``: how a new list of a game starts (``gs.new_list``), for ``daimyo new``, the
library's ``ListEditor.new`` and the web builder's new-list form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# ``builder.systems.parts``'s ``ListData`` and ``Options`` written out: the contracts may name
# what this module declares, so it does not import them


class NewListPart:
    """The ``NewList`` part with its defaults: a list with its name and packs, no option of its own."""

    options: frozenset = frozenset()  # the options of its own a new list takes (``daimyo new --clan``)
    example: str = ""  # a name for a new list, shown as an example in the new-list form

    def __init__(self, game: Any):
        self.game = game

    def fields(self, catalog: Any) -> list[dict[str, Any]]:
        """The fields a builder's new-list form asks for (``options``): ``key``, ``label``,
        ``value`` (the default) and ``choices`` (value, label), with a ``prompt`` when the user must
        choose (no default), or a ``type`` with ``min``/``max``."""
        return []

    def make(self, catalog: Any, options: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The data of a new list and notes for a person (``options`` as ``daimyo new`` takes)."""
        data: dict = {"system": self.game.id}
        if options.get("name"):
            data["name"] = options["name"]
        if options.get("packs"):
            data["packs"] = list(options["packs"])
        notes = self.body(data, catalog, options)
        return data, notes

    def body(self, data: dict[str, Any], catalog: Any, options: Mapping[str, Any]) -> list[str]:
        """Fill in the game's own keys of a new list's ``data``; notes for a person."""
        return []
