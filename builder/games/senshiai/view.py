"""How the builder shows a Senshiai list (``gs.view``) and the catalog beside it (``gs.browse``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.i18n import L_
from builder.systems.cards import CardBrowse
from builder.systems.view import ViewPart

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import ListData, Row, Summary, Tally


class SenshiaiView(ViewPart):
    """How the builder shows a Senshiai list."""

    def tally(self, summary: Summary) -> Tally:
        size = summary.get("size")
        return {
            "total": summary.get("cards"),
            "limit": size if size is not None else summary.get("max_cards"),
            "unit": "cards",
            "more": "",
        }

    def builder_settings(self, data: ListData, catalog: Catalog) -> list[Row]:
        return [
            {
                "key": "size",
                "label": "Agreed deck size",
                "value": data.get("size", ""),
                "type": "number",
                "placeholder": "any",
            }
        ]


class SenshiaiBrowse(CardBrowse):
    """The catalog beside a Senshiai list in the builder."""

    def cost_text(self, entry: Any, cost: Any) -> str:
        """The cost as printed on the card: N (none) or a Roman numeral."""
        label = getattr(entry, "cost_label", None)
        if cost is None or not label:
            return super().cost_text(entry, cost)
        return L_("cost {n}", n=label)

    def entry_facts(self, entry: Any) -> str:
        """The paths and the Power (attack/defence/health) printed on the card."""
        if entry is None:
            return ""
        paths = ", ".join(str(x) for x in (getattr(entry, "paths", None) or []))
        power = getattr(entry, "power", None)
        return " · ".join(x for x in (paths, f"power {power}" if power is not None else "") if x)
