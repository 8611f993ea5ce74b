"""``TextPart``: a game's text form (``gs.text``) with the defaults of a deck of cards.

A game whose lists are written otherwise subclasses it in its own package
(``builder/games/<id>/text.py``) and declares it on its ``GameSystem``: ``text = part(KenseiText)``.
"""

from __future__ import annotations

from typing import Any

from builder.systems.parts import ListData, Summary


def _textform() -> Any:
    """The text form's patterns, compiled on first use: ``daimyo check`` (whose game parts
    import this module) writes and reads no text form."""
    import builder.kit.textform as textform  # noqa: PLC0415 - its patterns cost 2-3 ms to compile; a check reads none

    return textform


class TextPart:
    """How a list of the game is written as text (the ``TextForm`` part): a deck's card lines."""

    labels: tuple[str, ...] = ()  # more names a text header may call the game by
    headings: tuple[str, ...] = ()  # keys whose empty line ('Deck:') heads the entries below it
    infers: bool = True  # a card list without a header may be of this game (its catalog decides)

    def __init__(self, game: Any):
        self.game = game

    @property
    def example(self) -> str:
        return f"write e.g. 'My {self.game.what} - {self.game.name} - 40 cards'"

    @property
    def collection(self) -> str:
        return self.game.entries[0]

    def header(self, doc: ListData, summary: Summary) -> list[str]:
        held = doc.get(self.collection)
        return [f"{sum(held.values())} cards"] if isinstance(held, dict) else []

    def keys(self, doc: ListData) -> list[str]:
        return []

    def entries(self, doc: ListData, resolver: object) -> list[str]:
        held = doc.get(self.collection, {})
        if not isinstance(held, dict):
            return []
        return [
            f"{n.get('count', 1)} {_textform().q(name)} (printed: {n.get('printed')})"
            if isinstance(n, dict)
            else f"{n} {_textform().q(name)}"
            for name, n in held.items()
        ]

    def read_facet(self, p: Any, seg: str) -> bool:
        return bool(_textform().CARDS_FACET.match(seg))

    def read_entry(self, p: Any, line: str, no: int, col: int) -> None:
        p.card_line(line, no, col)

    def infer_line(self, line: str) -> str:
        return line
