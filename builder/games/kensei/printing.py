"""What Kensei's printed documents ask of the game (``gs.printing``): totals, aid blocks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from builder.games.kensei.rules import ROUT_PERCENT, rout_threshold
from builder.i18n import N_
from builder.systems.printing import PrintingPart, counter, round_counter

if TYPE_CHECKING:
    from builder.systems.parts import AidBlocks, Row, Summary


class KenseiPrinting(PrintingPart):
    """What Kensei's printed documents ask of the game (``gs.printing``)."""

    score_name = N_("victory points")  # the victory points of the scenario played

    def total(self, summary: Summary) -> str:
        return f"{summary['points']}/{summary.get('limit', '?')} AP" if "points" in summary else super().total(summary)

    def counters(self, catalog: Any, summary: Summary) -> list[Row]:
        """The round, the army points lost against the rout threshold (75% of the troops' points),
        the victory points, and each unit's wounds and casualties (models lost)."""
        given = summary.get("troops", summary.get("points", 0))
        troops = given if isinstance(given, int) and not isinstance(given, bool) else 0
        rout = rout_threshold(troops, ROUT_PERCENT)
        at = math.ceil(rout)
        return [
            round_counter(),
            counter(
                "lost",
                N_("AP lost"),
                most=troops or None,
                alert=at,
                note=N_("The army routs at {at} AP lost ({share} of {troops} AP of troops)"),
                values={"at": at, "share": f"{ROUT_PERCENT}%", "troops": troops},
            ),
            counter("points", N_("Victory points")),
            counter("wounds", N_("Wounds"), per="entry"),
            counter("casualties", N_("Casualties"), per="entry", most=-1),  # -1: up to the entry's models
        ]

    def aid_blocks(self) -> AidBlocks:
        from builder.games.kensei.aid import BLOCKS  # noqa: PLC0415 - the block toolkit (reportlab) only when printing; a game's printing part is made without it

        return BLOCKS
