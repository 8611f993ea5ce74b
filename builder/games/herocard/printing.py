"""What HeroCard's printed documents ask of the game (``gs.printing``): totals, aid blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builder.systems.printing import PrintingPart

if TYPE_CHECKING:
    from builder.systems.parts import Summary


class HeroCardPrinting(PrintingPart):
    """What HeroCard's printed documents ask of the game (``gs.printing``)."""

    printed_keys = ("attributes", "deck")

    def total(self, summary: Summary) -> str:
        if "hero_points" in summary:
            return (
                f"{summary['hero_points']}/{summary.get('max_hero_points', '?')} HP, "
                f"{summary.get('action_cards', '?')} action cards"
            )
        return super().total(summary)
