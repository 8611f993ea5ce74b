"""Senji's generated player-aid blocks (``generated:`` in ``templates/aids/senji.yaml``), drawn
with the block toolkit of ``builder.kit.aid``."""

from __future__ import annotations

from builder.catalog.overlay import display_name
from builder.games.senji.rules import setup_table
from builder.i18n import _
from builder.kit.aid import AidContext, Generator, column_widths, registry
from builder.kit.blocks import source_line, table

BLOCKS: dict[str, Generator] = {}
block = registry(BLOCKS)


def _names(ctx: AidContext, section: str, keys: list) -> str:
    return ", ".join(display_name(ctx.catalog, section, k) for k in keys)


@block("senji_setup")
def _senji_setup(block: dict, ctx: AidContext) -> list:
    """The setup of the chosen player count, or of every count (families excluded, neutral provinces)."""

    if ctx.players:
        info = setup_table(ctx.catalog, ctx.players)
        rows = [
            [_("Players"), str(ctx.players)],
            [_("Families in play"), _names(ctx, "families", info["in_play"]) or "\u2014"],
            [_("Families excluded"), _names(ctx, "families", info["excluded"]) or _("none")],
            [_("Neutral provinces"), _names(ctx, "provinces", info["neutral"]) or _("none")],
        ]
        return [
            table(rows, column_widths(ctx, 32, 68), ctx.st, bold_first=True, zebra=False),
            source_line(info["source"], ctx.st),
        ]
    rows, srcs = [], []
    for n in range(6, 2, -1):
        info = setup_table(ctx.catalog, n)
        rows.append(
            [
                str(n),
                _names(ctx, "families", info["excluded"]) or _("none"),
                _names(ctx, "provinces", info["neutral"]) or _("none"),
            ]
        )
        srcs.append(info["source"])
    return [
        table(
            rows,
            column_widths(ctx, 16, 42, 42),
            ctx.st,
            header=[_("Players"), _("Families excluded"), _("Neutral provinces")],
        ),
        source_line("; ".join(dict.fromkeys(srcs)), ctx.st),
    ]
