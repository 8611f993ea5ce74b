"""How the builder shows a Senji list (``gs.view``) and the catalog beside it (``gs.browse``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.catalog.frozen import kind as model_kind
from builder.i18n import L_
from builder.systems.view import BrowsePart, ViewPart

if TYPE_CHECKING:
    from builder.systems.parts import Summary, Tally


class SenjiView(ViewPart):
    """How the builder shows a Senji list."""

    list_title = "Setup"
    count_words = ("unit", "units")
    entry_words = ("player", "players")

    def tally(self, summary: Summary) -> Tally:
        return {"total": summary.get("players", 0), "limit": None, "unit": "players", "more": ""}


class SenjiBrowse(BrowsePart):
    """The catalog beside a Senji list in the builder."""

    sections = ("families", "samurai", "provinces")
    type_label = L_("Kind")
    priced = False

    def entry_facts(self, entry: Any) -> str:
        """A province's region, the provinces next to it and its seas (as a board pack gives them)."""
        if entry is None:
            return ""
        region = getattr(entry, "region", None)
        adjacent = list(getattr(entry, "adjacent", None) or [])
        seas = list(getattr(entry, "seas", None) or [])
        parts = [str(region)] if region else []
        if adjacent:
            parts.append("next to " + ", ".join(map(str, adjacent)))
        if seas:
            parts.append("seas: " + ", ".join(map(str, seas)))
        return " · ".join(parts)

    def entry_type(self, entry: Any) -> str:
        kind = model_kind(entry).lower() if entry is not None else ""
        return {"family": "family", "samurai": "samurai card", "province": "province"}.get(kind, "")
