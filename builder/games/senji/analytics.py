"""A Senji setup as statistics see it: each player's provinces, units, samurai and fortresses."""

from __future__ import annotations

from builder.kit.facts import Loaded, rule_limits


def senji_facts(ld: Loaded) -> dict:
    players = []
    for p in ld.lst.players:
        players.append({"name": p.name, "family": p.family_entry.name if p.family_entry is not None else p.family,
                        "provinces": len(p.provinces), "units": sum(pp.units for pp in p.provinces),
                        "samurai": sum(1 for pp in p.provinces if pp.samurai),
                        "fortresses": sum(pp.fortresses for pp in p.provinces)})
    return {"players": players, "limits": rule_limits(ld)}


def senji_lines(st: dict) -> list[str]:
    lines = ["Players:"]
    for p in st["players"]:
        lines.append(f"  {p['name']} ({p['family']}): {p['provinces']} provinces, {p['units']} units, "
                     f"{p['samurai']} samurai, {p['fortresses']} fortresses")
    return lines
