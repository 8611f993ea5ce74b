"""Senshiai: a deck of cards (Basic Collection), optionally of an agreed size."""

from __future__ import annotations

from builder.errors import UsageError, option
from builder.games.senshiai.packs import SenshiaiPacks
from builder.games.senshiai.printing import SenshiaiPrinting
from builder.games.senshiai.text import SenshiaiText
from builder.systems.base import UNSET, plural, whole
from builder.systems.cards import CardGame
from builder.systems.parts import part


def _analytics(game):
    from builder.games.senshiai.analytics import SenshiaiAnalytics  # the analytics toolkit: loaded when asked

    return SenshiaiAnalytics(game)


class Senshiai(CardGame):
    id = "senshiai"
    name = "Senshiai"
    title = "Senshiai (card game, Basic Collection)"
    aliases = ("senshiai basic collection",)
    set_keys = ("size", "name", "author", "notes")
    anchor_field = "type"
    new_options = frozenset({"size"})
    name_example = "Northern host"

    def entry_facts(self, entry):
        """The paths and the Power (attack/defence/health) printed on the card."""
        if entry is None:
            return ""
        paths = ", ".join(str(x) for x in (getattr(entry, "paths", None) or []))
        power = getattr(entry, "power", None)
        return " · ".join(x for x in (paths, f"power {power}" if power is not None else "") if x)

    def cost_text(self, entry, cost):
        """The cost as printed on the card: N (none) or a Roman numeral."""
        label = getattr(entry, "cost_label", None)
        if cost is None or not label:
            return super().cost_text(entry, cost)
        return f"cost {label}"

    # -- packs: the sections a template documents first, what each entry field means --------------
    def tally(self, summary):
        size = summary.get("size")
        return {"total": summary.get("cards"), "limit": size if size is not None else summary.get("max_cards"),
                "unit": "cards", "more": ""}

    def new_fields(self, catalog):
        return [{"key": "size", "label": "Agreed deck size (optional)", "value": "", "type": "number", "min": 1}]

    def builder_settings(self, data, catalog):
        return [{"key": "size", "label": "Agreed deck size", "value": data.get("size", ""), "type": "number",
                 "placeholder": "any"}]

    def new_body(self, data, catalog, options):
        size = options.get("size")
        if size is not None:
            if size < 1:
                raise UsageError(f"{option('size')} must be at least 1, not {size}", f"e.g. {option('size')} 50")
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

    text = part(SenshiaiText)  # the text form: ``text.py``
    analytics = part(_analytics)  # statistics, odds, sample hands: ``analytics.py``
    printing = part(SenshiaiPrinting)  # what the printed documents ask: ``printing.py``
    packs = part(SenshiaiPacks)  # the pack template's sections and fields: ``packs.py``


SYSTEM = Senshiai()
