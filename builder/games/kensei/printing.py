"""What Kensei's printed documents ask of the game (``gs.printing``): totals, aid blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builder.i18n import N_
from builder.systems.printing import PrintingPart

if TYPE_CHECKING:
    from builder.systems.parts import AidBlocks, Summary


class KenseiPrinting(PrintingPart):
    """What Kensei's printed documents ask of the game (``gs.printing``)."""

    score_name = N_("victory points")  # the victory points of the scenario played

    def total(self, summary: Summary) -> str:
        return f"{summary['points']}/{summary.get('limit', '?')} AP" if "points" in summary else super().total(summary)

    def aid_blocks(self) -> AidBlocks:
        from builder.games.kensei.aid import BLOCKS  # the block toolkit (reportlab): loaded when printing

        return BLOCKS
