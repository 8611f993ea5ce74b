"""``CardGame``: the editing shared by the deck games (Senshiai, HeroCard, Satsuma Rebellion).

A deck is a mapping of card names to copies; ``add`` and ``remove`` change copies, deck-builder
style, write new cards with the catalog's spelling after the last card of their type, and keep
the comment lines above the card they introduce.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from builder.i18n import L_, Ln_
from builder.systems.base import GameCatalog, GameList, GameSystem, Pick
from builder.systems.deckcounts import copies, mapping_of
from builder.systems.parts import Cost, Entry, ListData, Summary, Where, part
from builder.systems.questions import QuestionsPart
from builder.systems.view import BrowsePart

if TYPE_CHECKING:
    from builder.systems.cardediting import CardEditing


class CardBrowse(BrowsePart):
    """The catalog beside a deck: the sections its cards are looked up in."""

    @property
    def sections(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(dict.fromkeys(s for s, _ in self.game.sections))


class CardQuestions(QuestionsPart):
    """What adding a card to a deck would do: each card of the game's sections, tried with one
    copy more."""

    def candidates(self, catalog: Any) -> Iterator[tuple[str, Entry, str | None, Cost | None]]:
        for section, _ in self.game.sections:
            for c in catalog.entries(section):
                yield section, c, self.game.kind_of(section, c), getattr(c, "cost", None)

    def trial(self, data: ListData, catalog: Any, section: str, entry: Any) -> tuple[ListData, Where | None, int]:
        trial = dict(data)
        for key in self.game.entries + ("deck",):
            if isinstance(trial.get(key), (dict, list)):
                trial[key] = copy.deepcopy(trial[key])
        field = dict(self.game.sections)[section]
        pick = Pick(section, entry, entry.name, field)
        _notes, where = self.game.editing.add(trial, catalog, pick, 1, variant=True, check_side=False)
        return trial, where, 1

    def describe_addition(
        self, comparison: Any, data: ListData, catalog: Any, name: str, count: int | None, list_data: ListData
    ) -> tuple[str, str, str | None]:
        pick = self.game.editing.resolve(catalog, name, list_data)
        return (
            L_("{n} {name}", n=count or 1, name=pick.name),
            self._state_after(comparison.after.summary, data, pick, catalog, list_data),
            None,
        )

    def _state_after(self, summary: Summary, data: ListData, pick: Pick, catalog: Any, list_data: ListData) -> str:

        return deck_would_have(summary.get("cards"))


def deck_would_have(n: Any) -> str:
    """``the deck would have 47 cards`` (``?`` for a count not known)."""
    if not isinstance(n, int):
        return L_("the deck would have {n} cards", n=n)
    return Ln_("the deck would have {n} card", "the deck would have {n} cards", n)


class CardGame(GameSystem[GameList, GameCatalog]):
    """A game whose lists are decks of cards."""

    kind = "deck"
    what = "deck"
    noun = "card"
    sections: tuple[tuple[str, str], ...] = (("cards", "cards"),)  # (catalog section, list key) in lookup order
    anchor_field: str | None = None  # the card field new cards are grouped by (type, kind)
    deck_word = "deck"  # where copies go, in messages
    browse = part(CardBrowse)  # the catalog beside a deck: its card sections
    questions = part(CardQuestions)  # what adding a card would do
    editing: part[CardEditing] = part(
        "builder.systems.cardediting:CardEditing"
    )  # how add and remove change copies of a card

    @property
    def entries(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(dict.fromkeys(f for _, f in self.sections))

    def kind_of(self, section: str, entry: object) -> str | None:
        return getattr(entry, self.anchor_field, None) if self.anchor_field else None


__all__ = ["CardGame", "copies", "mapping_of"]
