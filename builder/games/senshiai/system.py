"""Senshiai: a deck of cards (Basic Collection), optionally of an agreed size."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builder.games.senshiai.packs import SenshiaiPacks
from builder.i18n import L_
from builder.kit.numbers import number
from builder.systems.base import UNSET, plural, whole
from builder.systems.cards import CardGame, CardQuestions
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.parts import part
from builder.systems.settings import SettingsPart

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.games.senshiai.analytics import SenshiaiAnalytics
    from builder.games.senshiai.printing import SenshiaiPrinting
    from builder.games.senshiai.rules import Deck  # noqa: F401 - named as a string in the class's base
    from builder.games.senshiai.text import SenshiaiText
    from builder.games.senshiai.view import SenshiaiBrowse, SenshiaiView
    from builder.systems.base import Pick
    from builder.systems.parts import Cost, ListData, Options, Summary


class SenshiaiQuestions(CardQuestions):
    """What adding an entry to a Senshiai list would do (``gs.questions``)."""

    def left(
        self, section: str, summary: Summary, data: ListData, entry: object, catalog: Catalog
    ) -> tuple[Cost | None, str | None]:
        cards = number(summary.get("cards"))
        most = summary.get("size") if summary.get("size") is not None else summary.get("max_cards")
        return (most - cards if cards is not None and number(most) is not None else None), "cards"

    def _state_after(self, summary: Summary, data: ListData, pick: Pick, catalog: Catalog, list_data: ListData) -> str:
        size = summary.get("size")
        return f"the deck would have {plural(summary.get('cards'), 'card')}" + (
            f" (agreed size {size})" if size is not None else f" (at most {summary.get('max_cards')})"
        )


class SenshiaiNewList(NewListPart):
    """How a new Senshiai list starts (``gs.new_list``): its options and the fields of the new-list form."""

    options = frozenset({"size"})
    example = "Northern host"

    def declare(self, catalog: Catalog) -> list[NewOption]:
        return [
            NewOption(
                "size",
                L_("Agreed deck size (optional)"),
                "number",
                help=L_("the agreed deck size (the deck must have exactly this many cards)"),
                min=1,
            )
        ]

    def body(self, data: ListData, catalog: Catalog, options: Options) -> list[str]:
        size = options.get("size")
        if size is not None:
            data["size"] = size
        data["cards"] = {}
        return []


class SenshiaiSettings(SettingsPart):
    """What ``set`` may change in a Senshiai list (``gs.settings``)."""

    keys = ("size", "name", "author", "notes")

    def own(self, catalog: Catalog, key: str, value: str) -> tuple[object, str | None]:
        if value.strip().lower() in UNSET:
            return None, "no agreed deck size now: any size up to the maximum is legal"
        return whole("size", value, "size 50"), None


class Senshiai(CardGame["Deck", "Catalog"]):
    id = "senshiai"
    name = "Senshiai"
    title = "Senshiai (card game, Basic Collection)"
    aliases = ("senshiai basic collection",)
    anchor_field = "type"

    # -- the parts it changes (``builder.systems.parts``) ------------------------------------------
    text: part[SenshiaiText] = part(".text:SenshiaiText")
    analytics: part[SenshiaiAnalytics] = part(".analytics:SenshiaiAnalytics")
    settings = part(SenshiaiSettings)
    new_list = part(SenshiaiNewList)
    questions = part(SenshiaiQuestions)
    view: part[SenshiaiView] = part(".view:SenshiaiView")
    browse: part[SenshiaiBrowse] = part(".view:SenshiaiBrowse")
    printing: part[SenshiaiPrinting] = part(".printing:SenshiaiPrinting")
    packs = part(SenshiaiPacks)


SYSTEM = Senshiai()
