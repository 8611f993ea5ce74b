"""What Senshiai's printed documents ask of the game (``gs.printing``): totals, aid blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builder.games.senshiai.catalog import parse_ability
from builder.systems.printing import PrintingPart

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import Ability, AidBlocks


class SenshiaiPrinting(PrintingPart):
    """What Senshiai's printed documents ask of the game (``gs.printing``)."""

    def aid_blocks(self) -> AidBlocks:
        from builder.games.senshiai.aid import BLOCKS  # noqa: PLC0415 - the block toolkit (reportlab) only when printing; a game's printing part is made without it

        return BLOCKS

    def ability(self, catalog: Catalog, written: str) -> Ability | None:
        try:
            return parse_ability(str(written), catalog.entries("abilities")).ability
        except Exception:  # not an ability as a card writes it: the name before a colon, if any
            return super().ability(catalog, written)
