"""A Senji setup as statistics see it: each player's provinces, units, samurai and fortresses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from builder.i18n import L_, _, ngettext
from builder.kit.facts import Loaded, rule_limits
from builder.systems.analytics import AnalyticsPart

if TYPE_CHECKING:
    from collections.abc import Mapping

    from builder.kit.facts import Loaded


def senji_facts(ld: Loaded) -> dict:
    players = []
    for p in ld.lst.players:
        players.append(
            {
                "name": p.name,
                "family": p.family_entry.name if p.family_entry is not None else p.family,
                "provinces": len(p.provinces),
                "units": sum(pp.units for pp in p.provinces),
                "samurai": sum(1 for pp in p.provinces if pp.samurai),
                "fortresses": sum(pp.fortresses for pp in p.provinces),
            }
        )
    return {"players": players, "limits": rule_limits(ld)}


def senji_lines(st: Mapping[str, Any]) -> list[str]:
    lines = [_("Players:")]
    for p in st["players"]:
        # the counts are "1 provinces" in English as before; another language chooses its forms
        facts = ", ".join(
            (
                ngettext("{n} provinces", "{n} provinces", p["provinces"]).format(n=p["provinces"]),
                ngettext("{n} units", "{n} units", p["units"]).format(n=p["units"]),
                ngettext("{n} samurai", "{n} samurai", p["samurai"]).format(n=p["samurai"]),
                ngettext("{n} fortresses", "{n} fortresses", p["fortresses"]).format(n=p["fortresses"]),
            )
        )
        lines.append(f"  {p['name']} ({p['family']}): {facts}")
    return lines


class SenjiAnalytics(AnalyticsPart):
    """Senji's statistics, odds and sample hands (``gs.analytics``)."""

    def stats_facts(self, loaded: Loaded) -> dict[str, object]:
        return senji_facts(loaded)

    def stats_lines(self, stats: Mapping[str, Any]) -> list[str]:
        return senji_lines(stats)

    def stats_charts(self, stats: Mapping[str, Any]) -> list[tuple[str, str, list[object], object]]:
        rows: list[object] = [  # Texts: translated where printed
            [L_("player"), L_("family"), L_("provinces"), L_("units"), L_("samurai"), L_("fortresses")]
        ]
        rows += [
            [p["name"], p["family"], p["provinces"], p["units"], p["samurai"], p["fortresses"]]
            for p in stats["players"]
        ]
        return [(L_("Players"), "table", rows, (0.24, 0.2, 0.14, 0.14, 0.14, 0.14))]
