"""Satsuma's text form (``gs.text``): how a list of the game is written for forums and chats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.kit.textform import CARDS_FACET, q, unmask
from builder.systems.text import TextPart

if TYPE_CHECKING:
    from builder.systems.parts import ListData, Summary


class SatsumaText(TextPart):
    """The text form of a list of the game."""

    labels = ("Satsuma",)
    example = "write e.g. 'My deck - Satsuma Rebellion - side samurai'"

    def header(self, doc: ListData, summary: Summary) -> list[str]:
        segs = [f"side {q(doc['side'])}"] if "side" in doc else []
        if "cards" in doc:
            segs.append(f"{sum(n.get('count', 1) if isinstance(n, dict) else n for n in doc['cards'].values())} cards")
        return segs

    def keys(self, doc: ListData) -> list[str]:
        return [f"Deck: {q(doc['deck'])}"] if "deck" in doc else []

    def read_facet(self, p: Any, seg: str) -> bool:
        low = seg.lower()
        if low.startswith("side "):
            p.doc["side"] = unmask(p, seg[5:])
            return True
        if CARDS_FACET.match(seg):
            p.doc.setdefault("cards", {})
            return True
        if p.r.find(p.field("side"), seg)[1] is not None or low in ("samurai", "imperial"):
            p.doc["side"] = seg
            return True
        return False
