"""``AnalyticsPart``: what statistics, odds and sample hands ask of a game (``gs.analytics``).

The defaults suit a game that is not a deck to draw from: no deck view, the rules' own limits
as its statistics. A game overrides them in its own package (``builder/games/<id>/analytics.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from builder.systems.parts import HouseRules

if TYPE_CHECKING:
    from builder.kit.deck import DeckView


class AnalyticsPart:
    """The ``Analytics`` part with its defaults."""

    query_vocabulary: dict[str, tuple[str, ...]] = {}  # odds query field -> values the catalog may hold

    def __init__(self, game: Any):
        self.game = game

    def deck_view(self, lst: Any, catalog: Any, rules: HouseRules) -> DeckView | None:
        """The list as a deck of cards to count and draw from (a ``DeckView``); None: not a deck."""
        return None

    def stats_facts(self, loaded: Any) -> dict[str, object]:
        """What ``daimyo stats`` adds for this game (``loaded``: ``builder.analytics.stats.Loaded``),
        with its ``limits`` rows."""
        return {"limits": self.limits(loaded.lst, loaded.catalog, loaded.rules)}

    def stats_lines(self, stats: Mapping[str, object]) -> list[str]:
        """The text lines of those facts."""
        return []

    def stats_charts(self, stats: Mapping[str, object]) -> list[tuple[str, str, list[object], object]]:
        """The same facts drawn in a PDF: ``(heading, "table", rows with a header row, column
        widths as parts of the width)`` or ``(heading, "bars", (label, value) pairs, unit)``."""
        return []

    def hand_facts(self, loaded: Any, rows: Any) -> dict[str, object]:
        """What a sample opening hand (``rows`` of the deck view) can do."""
        return {}

    def hand_lines(self, hand: Mapping[str, object]) -> list[str]:
        return []

    def query_value(self, field: str, raw: str) -> Any:
        """A short form of an odds query value (a Satsuma suit letter), or None."""
        return None

    def limits(self, lst: Any, catalog: Any, rules: HouseRules) -> list[dict[str, object]]:
        """Every limit of the list with its value, bound and room left, as the check measures it."""
        limits = getattr(self.game.rules, "limits", None)
        return limits(lst, catalog, rules) if limits is not None else []
