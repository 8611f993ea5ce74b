"""Senshiai: a deck of cards (Basic Collection), optionally of an agreed size."""

from __future__ import annotations

from builder.games.senshiai.packs import SenshiaiPacks
from builder.systems.base import UNSET, plural, whole
from builder.systems.cards import CardGame, CardQuestions
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.parts import part
from builder.systems.settings import SettingsPart


class SenshiaiQuestions(CardQuestions):
    """What adding an entry to a Senshiai list would do (``gs.questions``)."""

    def left(self, section, summary, data, entry, catalog):
        from builder.kit.edit import number

        cards = number(summary.get("cards"))
        most = summary.get("size") if summary.get("size") is not None else summary.get("max_cards")
        return (most - cards if cards is not None and number(most) is not None else None), "cards"

    def _state_after(self, summary, data, pick, catalog, list_data):
        size = summary.get("size")
        return f"the deck would have {plural(summary.get('cards'), 'card')}" + (
            f" (agreed size {size})" if size is not None else f" (at most {summary.get('max_cards')})"
        )


class SenshiaiNewList(NewListPart):
    """How a new Senshiai list starts (``gs.new_list``): its options and the fields of the new-list form."""

    options = frozenset({"size"})
    example = "Northern host"

    def declare(self, catalog):
        return [
            NewOption(
                "size",
                "Agreed deck size (optional)",
                "number",
                help="the agreed deck size (the deck must have exactly this many cards)",
                min=1,
            )
        ]

    def body(self, data, catalog, options):
        size = options.get("size")
        if size is not None:
            data["size"] = size
        data["cards"] = {}
        return []


class SenshiaiSettings(SettingsPart):
    """What ``set`` may change in a Senshiai list (``gs.settings``)."""

    keys = ("size", "name", "author", "notes")

    def own(self, catalog, key, value):
        if value.strip().lower() in UNSET:
            return None, "no agreed deck size now: any size up to the maximum is legal"
        return whole("size", value, "size 50"), None


class Senshiai(CardGame):
    id = "senshiai"
    name = "Senshiai"
    title = "Senshiai (card game, Basic Collection)"
    aliases = ("senshiai basic collection",)
    anchor_field = "type"

    # -- the parts it changes (``builder.systems.parts``) ------------------------------------------
    text = part(".text:SenshiaiText")
    analytics = part(".analytics:SenshiaiAnalytics")
    settings = part(SenshiaiSettings)
    new_list = part(SenshiaiNewList)
    questions = part(SenshiaiQuestions)
    view = part(".view:SenshiaiView")
    browse = part(".view:SenshiaiBrowse")
    printing = part(".printing:SenshiaiPrinting")
    packs = part(SenshiaiPacks)


SYSTEM = Senshiai()
