"""Senshiai's text form (``gs.text``): how a list of the game is written for forums and chats."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from builder.kit.textform import CARDS_FACET
from builder.systems.text import TextPart

if TYPE_CHECKING:
    from builder.systems.parts import ListData, Summary


class SenshiaiText(TextPart):
    """The text form of a list of the game."""

    example = "write e.g. 'My deck - Senshiai - 50/50 cards'"

    def header(self, doc: ListData, summary: Summary) -> list[str]:
        n = sum(doc.get("cards", {}).values())
        return [f"{n}/{doc['size']} cards" if "size" in doc else f"{n} cards"]

    def read_facet(self, p: Any, seg: str) -> bool:
        m = CARDS_FACET.match(seg)
        if m:
            if m.group(1):
                p.doc["size"] = int(m.group(2))
            return True
        m = re.match(r"^size\s+([0-9]{1,30})$", seg, re.I)
        if m:
            p.doc["size"] = int(m.group(1))
            return True
        return False
