"""A Kensei army as statistics see it: points by troop class, type and title."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.games.kensei import rules as core
from builder.i18n import L_, _, tr
from builder.kit.facts import Loaded, num_text, rule_limits, share
from builder.systems.analytics import AnalyticsPart

if TYPE_CHECKING:
    from collections.abc import Mapping


def kensei_facts(ld: Loaded) -> dict:

    names = {c.id.lower(): c.name for c in ld.catalog.model.troop_classes}
    by_class = {names.get(k.lower(), k): v for k, v in core.points_by(ld.lst, ld.catalog, ld.rules, "class").items()}
    limit = ld.lst.points
    points = [
        {"by": "class", "values": _points_rows(by_class, limit)},
        {"by": "type", "values": _points_rows(core.points_by(ld.lst, ld.catalog, ld.rules, "type"), limit)},
        {"by": "title", "values": _points_rows(core.points_by(ld.lst, ld.catalog, ld.rules, "titles"), limit)},
    ]
    return {"points": points, "limits": rule_limits(ld), "battle_size": limit}


def _points_rows(d: dict, limit: Any) -> list[dict]:
    return [{"value": k, "points": v, "share": share(v, limit)} for k, v in sorted(d.items(), key=lambda kv: -kv[1])]


def kensei_lines(st: Mapping[str, Any]) -> list[str]:
    lines = []
    for block in st["points"]:
        lines.append(tr(_points_by(block["by"], st["battle_size"])) + ":")
        width = max((len(str(v["value"])) for v in block["values"]), default=0)
        for v in block["values"]:
            lines.append(f"  {v['value']!s:<{width}}  {num_text(v['points']):>5} {_('AP')}  {100 * v['share']:5.1f}%")
    return lines


def _points_by(by: str, points: Any) -> str:
    """A chart's heading on the printed statistics (a Text: translated where it is printed)."""
    if by == "class":
        return L_("Points by troop class (of {points} AP)", points=points)
    if by == "type":
        return L_("Points by troop type (of {points} AP)", points=points)
    return L_("Points by troop title (of {points} AP)", points=points)


class KenseiAnalytics(AnalyticsPart):
    """Kensei's statistics, odds and sample hands (``gs.analytics``)."""

    def stats_facts(self, loaded: Loaded) -> dict[str, object]:
        return kensei_facts(loaded)

    def stats_lines(self, stats: Mapping[str, Any]) -> list[str]:
        return kensei_lines(stats)

    def stats_charts(self, stats: Mapping[str, Any]) -> list[tuple[str, str, list[object], object]]:
        return [
            (
                _points_by(block["by"], stats["battle_size"]),
                "bars",
                [(str(v["value"]), v["points"]) for v in block["values"]],
                " AP",
            )
            for block in stats["points"]
        ]
