"""How the builder shows a Satsuma list (``gs.view``) and the catalog beside it (``gs.browse``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from builder.i18n import L_, Text
from builder.systems.cards import CardBrowse
from builder.systems.view import ViewPart

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import ListData, Row

SUITS = {
    "F": "force",
    "R": "reserves",
    "L": "leader",
    "A": "attack",
    "D": "defense",
    "M": "morale",
    "W": "weapons",
    "E": "escape",
}  # a card's suit by the first letter of its printed code


class SatsumaView(ViewPart):
    """How the builder shows a Satsuma list."""

    def builder_settings(self, data: ListData, catalog: Catalog) -> list[Row]:
        return [
            {
                "key": "side",
                "label": "Side",
                "value": data.get("side", ""),
                "choices": [("samurai", "Samurai"), ("imperial", "Imperial")],
            }
        ]


class SatsumaBrowse(CardBrowse):
    """The catalog beside a Satsuma list in the builder."""

    type_field = "suit"
    type_label = L_("Suit")
    priced = False  # a Satsuma card has a printed value, not a cost

    def entry_facts(self, entry: Any) -> str:
        """The card's strength (its suit is its type): ``F7`` -> ``strength 7``; a card of two
        options names both: ``W5 or M6`` -> ``weapons 5 or morale 6``."""
        printed = str(getattr(entry, "printed", None) or "") if entry is not None else ""
        options = re.findall(r"\b([A-Za-z])\s*(\d+)\b", printed)
        if not options or any(s.upper() not in SUITS for s, _ in options):
            return printed
        if len(options) == 1:
            return L_("strength {n}", n=options[0][1])
        # a Text, translated where it is shown (a suit is one of the games' words)
        shown = [L_("{suit} {n}", suit=Text(SUITS[s.upper()]), n=n) for s, n in options]
        text = shown[0]
        for more in shown[1:]:
            text = L_("{first} or {second}", first=text, second=more)
        return text

    def entry_type(self, entry: Any) -> str:
        """A card's suit, from its printed code (``F5``: force)."""
        printed = getattr(entry, "printed", None) if entry is not None else None
        return SUITS.get(str(printed)[:1].upper(), "") if printed else ""

    def offers(self, data: ListData, entry: Any) -> bool:
        return getattr(entry, "side", None) == str(data.get("side", "")).lower()
