"""What a game's statistics are computed from and written with (its ``Analytics`` part): the
list as ``daimyo stats`` loaded and checked it (``Loaded``, made by ``builder.analytics.stats.load``),
the rules' limits of it, a share of a total and a number as text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from builder.kit.deck import DeckView

if TYPE_CHECKING:
    from builder.findings import CheckResult


@dataclass
class Loaded:
    doc: Any
    catalog: Any
    lst: Any  # the list as its game's rules read it
    rules: dict
    result: CheckResult
    view: DeckView | None
    game: Any = None  # the list's game (its ``GameSystem``)


def rule_limits(ld: Loaded) -> list[dict]:
    """The rules' own limits of the list (``gs.analytics.limits``)."""
    return ld.game.analytics.limits(ld.lst, ld.catalog, ld.rules)


def share(n, total) -> float:
    return n / total if total else 0.0


def num_text(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)
