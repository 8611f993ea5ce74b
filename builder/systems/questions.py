"""``QuestionsPart``: what adding an entry would do (``gs.questions``), for ``daimyo options``
and ``daimyo why`` (``builder.lists.options``, ``builder.commands.edit``).

The defaults try an entry with the game's own ``add``; a game changes them in its package.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from builder.systems.parts import Cost, Entry, ListData, Summary, Where


class QuestionsPart:
    """The ``Questions`` part with its defaults: nothing to offer, a card's printed cost."""

    def __init__(self, game: Any):
        self.game = game

    def candidates(self, catalog: Any) -> Iterable[tuple[str, Entry, str | None, Cost | None]]:
        """``(section, entry, kind, printed cost)`` of every entry a list may gain."""
        return iter(())

    def trial(self, data: ListData, catalog: Any, section: str, entry: Any) -> tuple[ListData, Where | None, int]:
        """A copy of the plain ``data`` with ``entry`` added (``data`` untouched), where it went and
        how many were added (models or copies)."""
        trial = {k: (copy.deepcopy(v) if isinstance(v, (dict, list)) else v) for k, v in data.items()}
        _notes, target = self.game.editing.add(
            trial, catalog, entry.name, None, variant=True, check_side=False, trial=True
        )
        return trial, target, 1

    def cost(self, before: Summary, after: Summary, entry: object, printed: Cost | None) -> Cost | None:
        """What adding ``entry`` costs (the printed cost of a card by default)."""
        return printed

    def left(
        self, section: str, summary: Summary, data: ListData, entry: object, catalog: Any
    ) -> tuple[Cost | None, str | None]:
        """What is left after an addition, and its unit (None, None: no limit)."""
        return None, None

    def describe_addition(
        self, comparison: object, data: ListData, catalog: Any, name: str, count: int | None, list_data: ListData
    ) -> tuple[str, str, str | None]:
        """``(what was added, the state after, a note)`` for the lines of ``daimyo why``."""
        return name, "", None
