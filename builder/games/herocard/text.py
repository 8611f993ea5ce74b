"""HeroCard's text form (``gs.text``): how a list of the game is written for forums and chats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.kit.textform import HP_FACET, plain_number, q
from builder.systems.text import TextPart

if TYPE_CHECKING:
    from builder.systems.parts import ListData, Summary


class HeroCardText(TextPart):
    """The text form of a list of the game."""

    labels = ("HeroCard: Rise of the Shogun", "Rise of the Shogun", "Hero Card")
    headings = ("deck",)
    example = "write e.g. 'My hero - HeroCard - 28/30 hero points'"

    def header(self, doc: ListData, summary: Summary) -> list[str]:
        used = summary.get("hero_points")
        if "max_hero_points" in doc:
            return [
                f"{plain_number(used)}/{doc['max_hero_points']} hero points"
                if used is not None
                else f"{doc['max_hero_points']} hero points"
            ]
        return [f"{plain_number(used)} hero points used"] if used is not None else []

    def keys(self, doc: ListData) -> list[str]:
        out = []
        if "hero" in doc:
            out.append(f"Hero: {q(doc['hero'])}")
        if "attributes" in doc:
            out.append(
                "Attributes: " + ", ".join(map(q, doc["attributes"])) if doc["attributes"] else "Attributes: none"
            )
        return out

    def read_facet(self, p: Any, seg: str) -> bool:
        m = HP_FACET.match(seg)
        if m:
            p.doc["max_hero_points"] = int(m.group(2))
        return m is not None
