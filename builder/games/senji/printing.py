"""What Senji's printed documents ask of the game (``gs.printing``): totals, aid blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.games.senji.rules import constants
from builder.i18n import N_
from builder.systems.printing import PrintingPart, counter, round_counter

if TYPE_CHECKING:
    from builder.systems.parts import AidBlocks, Row, Summary


class SenjiPrinting(PrintingPart):
    """What Senji's printed documents ask of the game (``gs.printing``)."""

    def total(self, summary: Summary) -> str:
        return f"{summary['players']} players" if "players" in summary else super().total(summary)

    def counters(self, catalog: Any, summary: Summary) -> list[Row]:
        """The round, and each player's honour up to the goal that ends the game (60)."""
        goal = int(constants(catalog)["honor_goal"])
        return [
            round_counter(),
            counter(
                "honour",
                N_("Honour"),
                per="entry",
                alert=goal,
                note=N_("The game ends when a player reaches {goal} honour"),
                values={"goal": goal},
            ),
        ]

    def aid_blocks(self) -> AidBlocks:
        from builder.games.senji.aid import BLOCKS  # noqa: PLC0415 - the block toolkit (reportlab) only when printing; a game's printing part is made without it

        return BLOCKS
