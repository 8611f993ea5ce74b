"""``PrintingPart``: what the printed documents ask of a game (``gs.printing``, read by ``builder.render``).

A game that prints a document instead of cards has the ``sheet`` part besides
(``builder.systems.parts.SheetPrinter``); this part holds what every game answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from builder.i18n import N_
from builder.systems.parts import Ability, AidBlocks, Row, Summary


def counter(
    key: str,
    label: str,
    start: int = 0,
    least: int = 0,
    most: int | None = None,
    per: str = "list",
    alert: int | None = None,
    note: str = "",
    values: dict[str, object] | None = None,
) -> Row:
    """One counter of the table view (see ``PrintingPart.counters``); ``note`` is English with
    ``{placeholders}`` filled from ``values`` where it is shown, after it is translated."""
    return {
        "key": key,
        "label": label,
        "start": start,
        "min": least,
        "max": most,
        "per": per,
        "alert": alert,
        "note": note,
        "values": dict(values or {}),
    }


def round_counter(most: int | None = None) -> Row:
    """The round (or turn) counter every game's table view has."""
    return counter("round", N_("Round"), start=1, least=1, most=most)


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

    def counters(self, catalog: Any, summary: Summary) -> list[Row]:
        """What players count during a game, for the table view (``daimyo export --to html``):
        ``key``, ``label`` (English; the face translates it), ``start``, ``min``, ``max`` (None: no
        bound), ``per`` (``list``: one counter; ``entry``: one per entry of the list),
        ``alert`` (the value at which the game says something happens, or None), ``note`` and its
        ``values``.
        By default a round counter and the victory points."""
        return [round_counter(), counter("points", N_("Victory points"))]

    def ability(self, catalog: Any, written: str) -> Ability | None:
        """The catalog ability a card's ability text names (``Recruit: 2`` names Recruit); None."""
        return catalog.find("abilities", str(written).split(":")[0].strip())
