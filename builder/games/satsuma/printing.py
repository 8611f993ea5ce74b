"""What Satsuma's printed documents ask of the game (``gs.printing``): totals, aid blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builder.i18n import N_
from builder.systems.printing import PrintingPart

if TYPE_CHECKING:
    from builder.systems.parts import AidBlocks


class SatsumaPrinting(PrintingPart):
    """What Satsuma's printed documents ask of the game (``gs.printing``)."""

    score_name = N_("casualties inflicted")  # the casualty markers a side inflicted when the game ended

    def aid_blocks(self) -> AidBlocks:
        from builder.games.satsuma.aid import BLOCKS  # the block toolkit (reportlab): loaded when printing

        return BLOCKS
