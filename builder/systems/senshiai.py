"""Senshiai: a deck of cards (Basic Collection), optionally of an agreed size."""

from __future__ import annotations

from builder.systems.base import UNSET, plural, whole
from builder.systems.cards import CardGame


class Senshiai(CardGame):
    id = "senshiai"
    name = "Senshiai"
    title = "Senshiai (card game, Basic Collection)"
    aliases = ("senshiai basic collection",)
    key_order = ("size", "cards")
    set_keys = ("size", "name", "author", "notes")
    anchor_field = "type"
    new_options = frozenset({"size"})

    def new_body(self, data, catalog, options):
        from builder.errors import UsageError

        size = options.get("size")
        if size is not None:
            if size < 1:
                raise UsageError(f"--size must be at least 1, not {size}", "e.g. --size 50")
            data["size"] = size
        data["cards"] = {}
        return []

    def set_own(self, catalog, key, value):
        if value.strip().lower() in UNSET:
            return None, "no agreed deck size now: any size up to the maximum is legal"
        return whole("size", value, "size 50"), None

    def left(self, section, summary, data, entry, catalog):
        from builder.lists.compare import number

        cards = number(summary.get("cards"))
        most = summary.get("size") if summary.get("size") is not None else summary.get("max_cards")
        return (most - cards if cards is not None and number(most) is not None else None), "cards"

    def state_after(self, summary, data, pick, catalog, list_data):
        size = summary.get("size")
        return (f"the deck would have {plural(summary.get('cards'), 'card')}"
                + (f" (agreed size {size})" if size is not None else f" (at most {summary.get('max_cards')})"))


SYSTEM = Senshiai()
