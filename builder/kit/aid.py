"""What a game's generated player-aid blocks are made with (``gs.aid_blocks()``): the context a
block is drawn in, the table a game keeps its blocks in, and helpers for columns, catalog
sections and a template's fallback table. ``builder.render.aids`` draws the aid from them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from builder.kit.blocks import Styles, para, table


@dataclass
class AidContext:
    system: str
    catalog: Any
    players: int | None
    st: Styles
    width_mm: float
    template_file: str
    warnings: list[str] = field(default_factory=list)


Generator = Callable[[dict, AidContext], list]


def registry(table: dict[str, Generator]):
    """A decorator adding a generated block to ``table`` under a name: ``@block("name")``. A game
    keeps its own blocks in its own table (its ``aid_blocks``)."""

    def generator(name: str):
        def deco(fn):
            table[name] = fn
            return fn

        return deco

    return generator


def entries_of(catalog, section: str) -> list:
    try:
        return list(catalog.entries(section))
    except Exception:  # a section the catalog does not have (yet)
        return []


def column_widths(ctx: AidContext, *parts: float) -> list[float]:
    total = sum(parts)
    return [ctx.width_mm * p / total for p in parts]


def fallback(block: dict, ctx: AidContext, why: str) -> list:
    t = block.get("fallback")
    if t:
        cols = t.get("columns")
        widths = t.get("widths") or [1] * len(cols or t["rows"][0])
        return [table(t["rows"], column_widths(ctx, *widths), ctx.st, header=cols)]
    ctx.warnings.append(why)
    return [para(why, ctx.st.small)]
