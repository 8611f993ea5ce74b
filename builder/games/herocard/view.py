"""How the builder shows a HeroCard list (``gs.view``) and the catalog beside it (``gs.browse``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.i18n import L_, Ln_
from builder.systems.cards import CardBrowse
from builder.systems.view import ViewPart, fmt

if TYPE_CHECKING:
    from collections.abc import Iterable

    from builder.catalog.loader import Catalog
    from builder.findings import Finding
    from builder.systems.parts import ListData, Row, Summary, Tally


class HeroCardView(ViewPart):
    """How the builder shows a HeroCard list."""

    list_title = "Hero"
    fixed_keys = ("attributes",)  # the hero's attribute cards come with the hero

    def tally(self, summary: Summary) -> Tally:
        n = summary.get("action_cards", 0)
        # "1 action cards" in English as before; another language chooses its form by the count
        more = Ln_("{n} action cards", "{n} action cards", n if isinstance(n, int) else 2, n=fmt(n))
        return {
            "total": summary.get("hero_points"),
            "limit": summary.get("max_hero_points"),
            "unit": "hero points",
            "more": more,
        }

    def left_text(self, tally: Tally, findings: Iterable[Finding]) -> str:
        """The hero points left, unless the action deck is short of its minimum: then what it
        still needs (action cards never spend hero points, so "0 hero points left" says nothing
        about a deck that cannot be played yet)."""
        for f in findings:
            short = f.code == "herocard.deck-min" and isinstance(f.value, int) and isinstance(f.bound, int)
            if short and f.value < f.bound:
                n = f.bound - f.value
                return Ln_("{n} action card to add", "{n} action cards to add", n)
        return super().left_text(tally, findings)

    def builder_settings(self, data: ListData, catalog: Catalog) -> list[Row]:
        return [
            {
                "key": "hero",
                "label": "Hero",
                "value": data.get("hero", ""),
                "choices": [(e.name, e.name) for e in catalog.entries("heroes")],
            },
            {
                "key": "max_hero_points",
                "label": "Hero point limit",
                "value": data.get("max_hero_points", ""),
                "type": "number",
            },
        ]


class HeroCardBrowse(CardBrowse):
    """The catalog beside a HeroCard list in the builder."""

    type_field = "kind"
    type_label = L_("Kind")

    def cost_text(self, entry: Any, cost: Any) -> str:
        """An attribute card's hero points; an action card's printed cost."""
        points = getattr(entry, "hero_points", None)
        if points is not None:
            return L_("{points} hero points", points=fmt(points))
        return super().cost_text(entry, getattr(entry, "cost", None) if entry is not None else cost)

    def entry_type(self, entry: Any) -> str:
        if entry is None:
            return ""
        kind = getattr(entry, "kind", None)
        if kind:
            return str(kind)
        attr = getattr(entry, "attribute", None)
        return f"attribute: {attr}" if attr else ""
