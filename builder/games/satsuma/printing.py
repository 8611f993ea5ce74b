"""What Satsuma's printed documents ask of the game (``gs.printing``): totals, aid blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.games.satsuma.rules import constant
from builder.i18n import N_
from builder.systems.printing import PrintingPart, counter, round_counter

if TYPE_CHECKING:
    from builder.findings import Summary
    from builder.systems.parts import AidBlocks, Row


class SatsumaPrinting(PrintingPart):
    """What Satsuma's printed documents ask of the game (``gs.printing``)."""

    score_name = N_("casualties inflicted")  # the casualty markers a side inflicted when the game ended

    def counters(self, catalog: Any, summary: Summary) -> list[Row]:
        """The hand, and the imperial casualty markers up to the game's end (9)."""
        end = constant(catalog, "end_casualties", 9)
        return [
            round_counter(),
            counter(
                "casualties",
                N_("Imperial casualties"),
                most=end,
                alert=end,
                note=N_("The game ends at {end} imperial casualties"),
                values={"end": end},
            ),
        ]

    def aid_blocks(self) -> AidBlocks:
        from builder.games.satsuma.aid import BLOCKS  # noqa: PLC0415 - the block toolkit (reportlab) only when printing; a game's printing part is made without it

        return BLOCKS
