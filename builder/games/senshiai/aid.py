"""Senshiai's generated player-aid blocks (``generated:`` in ``templates/aids/senshiai.yaml``), drawn
with the block toolkit of ``builder.kit.aid``."""

from __future__ import annotations

from builder.i18n import _
from builder.kit.aid import AidContext, Generator, column_widths, entries_of, fallback, registry
from builder.kit.blocks import table

BLOCKS: dict[str, Generator] = {}
block = registry(BLOCKS)


@block("senshiai_abilities")
def _senshiai_abilities(block: dict, ctx: AidContext) -> list:
    abil = entries_of(ctx.catalog, "abilities")
    if not abil:
        return fallback(block, ctx, "the catalog has no ability list")
    rows = []
    for a in sorted(abil, key=lambda a: a.name.casefold()):
        text = getattr(a, "summary", None) or getattr(a, "text", None) or getattr(a, "description", "") or ""
        rows.append([getattr(a, "template", None) or a.name, text])
    return [table(rows, column_widths(ctx, 30, 70), ctx.st, header=[_("Ability"), _("What it does")], bold_first=True)]
