"""Kensei's army as units of models (the ``Units`` part, ``gs.units``): each unit's troop, models,
cost, Hata-Jurushi, unit leader and whether it is the army's general, for the builder and the
list comparison."""

from __future__ import annotations

from typing import Any

from builder.games.kensei.rules import entry_points, load_list
from builder.names import fold
from builder.systems.parts import HouseRules, UnitRow


def _fold(text: str) -> str:
    return fold(text)  # accents and case ignored, as the builder's search


class KenseiUnits:
    """The units of a Kensei army (``troops:``), as the builder shows them one by one."""

    standard_word = "Hata-Jurushi"
    leader_word = "unit leader"

    def __init__(self, game: Any):
        self.game = game

    def unit_rows(self, doc: Any, catalog: Any, rules: HouseRules) -> list[UnitRow]:

        hit = getattr(doc, "loaded", None)  # read by the check of this very data already
        lst = hit[2] if hit is not None and hit[0] is doc.data and hit[1] is catalog else load_list(doc, catalog)[0]
        costs = [(e, *entry_points(e, rules)) for e in lst.entries]
        data = doc.data
        general = data.get("general")
        out: list[UnitRow] = []
        for i, t in enumerate(data.get("troops") or []):
            written = t.get("troop") if isinstance(t, dict) else t
            e, cost, known = costs[i] if i < len(costs) else (None, 0, False)
            troop = getattr(e, "troop", None)
            out.append(
                {
                    "key": str(written),
                    "name": getattr(troop, "name", None) or str(written),
                    "id": getattr(troop, "id", None),
                    "entry": troop,
                    "models": int(t.get("models", 1) or 1) if isinstance(t, dict) else 1,
                    "cost": cost if known else None,
                    "led_by": t.get("led_by") if isinstance(t, dict) else None,
                    "standard": bool(t.get("standard")) if isinstance(t, dict) else False,
                    "leader": bool(getattr(troop, "leader", False)),
                    "general": bool(troop is not None and general and _fold(str(general)) == _fold(troop.name)),
                    "cls": getattr(troop, "troop_class", None) or "",
                }
            )
        return out
