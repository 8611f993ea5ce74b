"""What adding an entry to a Kensei list would do (the ``Questions`` part, ``gs.questions``):
``daimyo options`` and ``daimyo why``. Made from the game when first asked for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from builder.games.kensei.rules import default_models
from builder.i18n import L_
from builder.kit.numbers import number
from builder.systems.base import fmt
from builder.systems.questions import QuestionsPart

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import Cost, Entry, ListData, Summary, Where


class KenseiQuestions(QuestionsPart):
    """What adding an entry to a Kensei list would do (``gs.questions``)."""

    def candidates(self, catalog: Catalog) -> Iterator[tuple[str, Entry, str | None, Cost | None]]:
        for t in catalog.entries("troops"):
            yield "troops", t, t.troop_type, None

    def trial(self, data: ListData, catalog: Catalog, section: str, entry: Any) -> tuple[ListData, Where | None, int]:
        n = default_models(catalog, entry)
        troops = data.get("troops")
        troops = list(troops) if isinstance(troops, list) else []
        troops.append({"troop": entry.name, "models": n} if n != 1 else {"troop": entry.name})
        return {**data, "troops": troops}, ("troops", len(troops) - 1), n

    def cost(self, before: Summary, after: Summary, entry: Any, printed: Cost | None) -> Cost | None:
        if entry.cost is None and entry.purchase is None:  # the catalog has no cost for it
            return None
        a, b = number(after.get("troops")), number(before.get("troops"))
        return a - b if a is not None and b is not None else None

    def left(
        self, section: str, summary: Summary, data: ListData, entry: object, catalog: Catalog
    ) -> tuple[Cost | None, str | None]:
        p, lim = number(summary.get("points")), number(summary.get("limit"))
        return (lim - p if p is not None and lim is not None else None), "AP"

    def describe_addition(
        self, comparison: Any, data: ListData, catalog: Catalog, name: str, count: int | None, list_data: ListData
    ) -> tuple[str, str, str | None]:
        entry = data["troops"][comparison.target[1]]
        n = entry.get("models", 1)
        after = comparison.after.summary
        what = L_("{n} {name} ({points} AP)", n=n, name=entry["troop"], points=fmt(comparison.adds.get("troops", 0)))
        return what, L_("points would be {n}/{most} AP", n=fmt(after.get("points")), most=fmt(after.get("limit"))), None
