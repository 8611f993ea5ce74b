"""``PrintingPart``: what the printed documents ask of a game (``gs.printing``, read by ``builder.render``).

A game that prints a document instead of cards has the ``sheet`` part besides
(``builder.systems.parts.SheetPrinter``); this part holds what every game answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builder.i18n import N_
from builder.systems.parts import Ability, AidBlocks, Summary


class PrintingPart:
    """The ``Printing`` part with its defaults: a deck's cards, the installation's templates."""

    card_template: Path | None = None  # None: templates/cards/<id>.yaml of the installation
    aid_template: Path | None = None  # the player aid; None: templates/aids/<id>.yaml of the installation
    # what one game's own score is called (an event's results and pairings sheets), marked for
    # translation and translated where it is shown
    score_name: str = N_("score")

    def __init__(self, game: Any):
        self.game = game

    @property
    def printed_keys(self) -> tuple[str, ...]:
        """The list keys whose cards a card sheet prints, in order (a game without a ``sheet``)."""
        return self.game.entries

    def total(self, summary: Summary) -> str:
        """What a list adds up to, as a tournament organiser reads it (from its check summary)."""
        return f"{summary['cards']} cards" if "cards" in summary else ""

    def aid_blocks(self) -> AidBlocks:
        """The game's own generated player-aid blocks, by name (none by default)."""
        return {}

    def ability(self, catalog: Any, written: str) -> Ability | None:
        """The catalog ability a card's ability text names (``Recruit: 2`` names Recruit); None."""
        return catalog.find("abilities", str(written).split(":")[0].strip())
