"""Senji's generated player-aid blocks (``generated:`` in ``templates/aids/senji.yaml``), drawn
with the block toolkit of ``builder.kit.aid``."""

from __future__ import annotations

from builder.games.senji.rules import setup_table
from builder.kit.aid import AidContext, Generator, column_widths, registry
from builder.kit.blocks import source_line, table

BLOCKS: dict[str, Generator] = {}
block = registry(BLOCKS)


@block("senji_setup")
def _senji_setup(block: dict, ctx: AidContext) -> list:
    """The setup of the chosen player count, or of every count (families excluded, neutral provinces)."""

    if ctx.players:
        info = setup_table(ctx.catalog, ctx.players)
        rows = [
            ["Players", str(ctx.players)],
            ["Families in play", ", ".join(info["in_play"]) or "\u2014"],
            ["Families excluded", ", ".join(info["excluded"]) or "none"],
            ["Neutral provinces", ", ".join(info["neutral"]) or "none"],
        ]
        return [
            table(rows, column_widths(ctx, 32, 68), ctx.st, bold_first=True, zebra=False),
            source_line(info["source"], ctx.st),
        ]
    rows, srcs = [], []
    for n in range(6, 2, -1):
        info = setup_table(ctx.catalog, n)
        rows.append([str(n), ", ".join(info["excluded"]) or "none", ", ".join(info["neutral"]) or "none"])
        srcs.append(info["source"])
    return [
        table(
            rows, column_widths(ctx, 16, 42, 42), ctx.st, header=["Players", "Families excluded", "Neutral provinces"]
        ),
        source_line("; ".join(dict.fromkeys(srcs)), ctx.st),
    ]
