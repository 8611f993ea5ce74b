"""Satsuma Rebellion's generated player-aid blocks (``generated:`` in ``templates/aids/satsuma.yaml``), drawn
with the block toolkit of ``builder.kit.aid``."""

from __future__ import annotations

from builder.i18n import _
from builder.kit.aid import AidContext, Generator, column_widths, entries_of, fallback, registry
from builder.kit.blocks import para, table

BLOCKS: dict[str, Generator] = {}
block = registry(BLOCKS)


@block("satsuma_deck")
def _satsuma_deck(block: dict, ctx: AidContext) -> list:
    """One deck as a table grouped by suit: card, options (suit letter and strength)."""
    side = block.get("side", "samurai")
    cards = [c for c in entries_of(ctx.catalog, "cards") if getattr(c, "side", None) == side]
    if not cards:
        return fallback(block, ctx, f"the catalog has no {side} deck")
    suits = {getattr(s, "letter", ""): s.name for s in entries_of(ctx.catalog, "suits")}
    order = {getattr(s, "letter", ""): getattr(s, "number", 99) for s in entries_of(ctx.catalog, "suits")}

    def first_suit(c: object) -> str:
        p = str(getattr(c, "printed", "")).strip()
        return p[:1].upper()

    cards.sort(key=lambda c: (order.get(first_suit(c), 99), c.name))
    rows = []
    for c in cards:
        printed = str(getattr(c, "printed", ""))
        opts = printed.replace(" or ", " / ")
        named = []
        for part in printed.split(" or "):
            part = part.strip()
            named.append(suits.get(part[:1].upper(), "?" if part else "") + " " + part[1:])
        rows.append([c.name, opts, ", ".join(n.strip() for n in named)])
    head = (
        [_(c) for c in block["columns"]] if block.get("columns") else [_("Card"), _("Printed"), _("Suit and strength")]
    )
    return [
        table(rows, column_widths(ctx, 46, 18, 36), ctx.st, header=head),
        para(_("{n} cards").format(n=len(cards)), ctx.st.small),
    ]


@block("satsuma_suits")
def _satsuma_suits(block: dict, ctx: AidContext) -> list:
    suits = sorted(entries_of(ctx.catalog, "suits"), key=lambda s: getattr(s, "number", 0))
    if not suits:
        return fallback(block, ctx, "the catalog has no suits")
    rows = [[getattr(s, "letter", ""), s.name, getattr(s, "notes", None) or ""] for s in suits]
    return [table(rows, column_widths(ctx, 8, 22, 70), ctx.st, header=["", _("Suit"), _("Restriction")])]


@block("satsuma_victory")
def _satsuma_victory(block: dict, ctx: AidContext) -> list:
    model = ctx.catalog.model
    rows = []
    for v in getattr(model, "victory", None) or []:
        lo, hi = getattr(v, "min", None), getattr(v, "max", None)
        if lo is None:
            cond = _("{n} or less").format(n=hi)
        elif hi is None:
            cond = _("{n} or more").format(n=lo)
        elif lo == hi:
            cond = _("exactly {n}").format(n=lo)
        else:
            cond = _("{low} to {high}").format(low=lo, high=hi)
        rows.append([cond, v.result])
    if not rows:
        return fallback(block, ctx, "the catalog has no victory table")
    return [table(rows, column_widths(ctx, 35, 65), ctx.st, header=[_("Imperial casualties"), _("Victory")])]
