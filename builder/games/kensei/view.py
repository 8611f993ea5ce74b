"""How the builder shows a Kensei list (``gs.view``) and the catalog beside it (``gs.browse``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.systems.view import BrowsePart, ViewPart

if TYPE_CHECKING:
    from collections.abc import Mapping

    from builder.catalog.loader import Catalog
    from builder.systems.parts import ListData, Row, Summary, Tally


class KenseiView(ViewPart):
    """How the builder shows a Kensei list."""

    list_title = "Army"
    cost_unit = "AP"
    count_words = ("model", "models")
    entry_words = ("unit", "units")

    def composition(self, summary: Mapping[str, Any]) -> list[tuple[str, object]]:
        keys = (
            "units",
            "leaders",
            "models",
            "melee_percent",
            "ranged_percent",
            "firearms_percent",
            "cavalry_percent",
            "skirmishers_percent",
            "creatures_percent",
        )
        return [(k.replace("_percent", " %").replace("_", " "), summary[k]) for k in keys if k in summary]

    def tally(self, summary: Summary) -> Tally:
        return {"total": summary.get("points", 0), "limit": summary.get("limit", 0), "unit": "AP", "more": ""}

    def builder_settings(self, data: ListData, catalog: Catalog) -> list[Row]:
        leaders = []
        for t in data.get("troops") or []:
            n = t.get("troop") if isinstance(t, dict) else t
            tr = catalog.find("troops", str(n)) if n else None
            if tr is not None and getattr(tr, "leader", False) and (tr.name, tr.name) not in leaders:
                leaders.append((tr.name, tr.name))
        return [
            {"key": "points", "label": "Battle size (AP)", "value": data.get("points", ""), "type": "number"},
            {
                "key": "clan",
                "label": "Clan",
                "value": data.get("clan", ""),
                "choices": [(e.id, e.name) for e in catalog.entries("clans")],
            },
            {
                "key": "commander",
                "label": "Commander",
                "value": data.get("commander", "hatamoto"),
                "choices": [(e.id, e.name) for e in catalog.entries("commander_levels")],
            },
            {
                "key": "occult",
                "label": "Occult rules",
                "value": str(bool(data.get("occult"))).lower(),
                "choices": [("false", "no"), ("true", "yes")],
            },
            {
                "key": "general",
                "label": "General",
                "value": data.get("general", ""),
                "choices": [("", "(the list's hero)")] + leaders,
            },
        ]


class KenseiBrowse(BrowsePart):
    """The catalog beside a Kensei list in the builder."""

    sections = ("troops",)
    type_field = "troop_type"

    def option_extra(self, data: ListData, entry: Any) -> dict[str, object]:
        clans = list(getattr(entry, "clans", []) or [])
        return {
            "unit_cost": getattr(entry, "cost", None),
            "clans": clans,
            "own_clan": str(data.get("clan", "")).lower() in clans,
        }

    def option_rank(self, row: Mapping[str, Any]) -> tuple[object, ...]:
        """The list's own clan first, then troops any clan may take, then the rest."""
        clans = row.get("clans") or []
        return (0 if row.get("own_clan") else 1 if ("any" in clans or not clans) else 2, not row["can"], row["name"])
