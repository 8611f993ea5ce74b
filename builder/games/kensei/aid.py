"""Kensei's generated player-aid blocks (``generated:`` in ``templates/aids/kensei.yaml``), drawn
with the block toolkit of ``builder.kit.aid``."""

from __future__ import annotations

from typing import Any

from builder.games.kensei.rules import hand_size
from builder.kit.aid import AidContext, Generator, column_widths, entries_of, fallback, registry
from builder.kit.blocks import para, source_line, table

BLOCKS: dict[str, Generator] = {}
block = registry(BLOCKS)

LIMIT_LABELS = {
    "melee_infantry_warriors": "Melee infantry warriors",
    "ranged": "Ranged weapons",
    "firearms": "Firearms",
    "cavalry": "Cavalry",
    "skirmishers": "Skirmishers",
    "creatures": "Purchased creatures",
}


def _kensei_ab(ctx: Any) -> Any:
    return getattr(ctx.catalog.model, "army_building", None)


@block("kensei_battle_sizes")
def _kensei_sizes(block: dict, ctx: AidContext) -> list:

    sizes = sorted(entries_of(ctx.catalog, "battle_sizes"), key=lambda s: s.max_ap)
    ab = _kensei_ab(ctx)
    if not sizes or ab is None:
        return fallback(block, ctx, "the catalog has no battle sizes")
    rows = []
    for s in sizes:
        rows.append([s.name, f"up to {s.max_ap}", str(hand_size(ctx.catalog, s.max_ap)[0] or "\u2014")])
    return [table(rows, column_widths(ctx, 40, 30, 30), ctx.st, header=["Battle size", "Army points", "Command hand"])]


@block("kensei_leaders_units")
def _kensei_leaders_units(block: dict, ctx: AidContext) -> list:
    ab = _kensei_ab(ctx)
    if ab is None:
        return fallback(block, ctx, "the catalog has no leader and unit table")
    rows_t = ab.leaders_and_units.table
    head = ["Army points"] + [str(r.ap) for r in rows_t]
    rows = [
        ["Leaders min/max"] + [f"{r.leaders_min}/{r.leaders_max}" for r in rows_t],
        ["Units min/max"] + [f"{r.units_min}/{r.units_max}" for r in rows_t],
    ]
    us = ab.unit_size
    mx = us.max
    sizes = (
        f"Models per unit: at least {us.min}; at most {mx.get('infantry', '?')} infantry, "
        f"{mx.get('skirmisher', '?')} skirmishers, {mx.get('other', '?')} other units."
    )
    pl = ab.profile_limits
    elite = "; ".join(
        f"{e.get('from_ap', 0)}" + (f"-{e['to_ap']}" if e.get("to_ap") is not None else "+") + f" AP: {e['max']}"
        for e in pl.elite
    )
    profiles = (
        f"At most {pl.max_units_per_profile} units of the same profile; elite profiles: {elite}. "
        f"Unique, legendary and leader profiles: {pl.unique_max_models} model."
    )
    return [
        table(rows, column_widths(ctx, 28, *([14.4] * len(rows_t))), ctx.st, header=head, bold_first=True),
        para(sizes, ctx.st.body),
        para(profiles, ctx.st.body),
        source_line(f"{ab.leaders_and_units.source}; {us.source}; {pl.source}", ctx.st),
    ]


@block("kensei_percent_limits")
def _kensei_percent(block: dict, ctx: AidContext) -> list:
    ab = _kensei_ab(ctx)
    if ab is None:
        return fallback(block, ctx, "the catalog has no percentage limits")
    sizes = block.get("sizes", [200, 400, 600])
    rows = []
    for lim in ab.limits:
        label = LIMIT_LABELS.get(lim.category, lim.category.replace("_", " "))
        kind = "min" if lim.kind == "min" else "max"
        cells = [label, f"{kind} {lim.percent:g}%"]
        for s in sizes:
            cells.append(f"{s * lim.percent / 100:g}")
        rows.append(cells)
    for ov in ab.clan_overrides:
        if ov.rule == "limit" and ov.percent is not None:
            lim = ab.limit(ov.limit)
            label = f"{ov.clan.capitalize()}: {LIMIT_LABELS.get(lim.category, lim.category) if lim else ov.limit}"
            rows.append([label, f"max {ov.percent:g}%"] + [f"{s * ov.percent / 100:g}" for s in sizes])
    head = ["Troops", "Limit"] + [f"{s} AP" for s in sizes]
    out = [table(rows, column_widths(ctx, 38, 17, *([15] * len(sizes))), ctx.st, header=head, bold_first=True)]
    hr = [lim for lim in ab.limits if lim.house_rule]
    if hr:
        out.append(
            para(
                "House rules may change: "
                + ", ".join(f"{LIMIT_LABELS.get(lim.category, lim.category)} ({lim.house_rule})" for lim in hr)
                + " \u2014 see `daimyo rules kensei`.",
                ctx.st.small,
            )
        )
    out.append(para(ab.leaders_exempt.text.strip(), ctx.st.small))
    srcs = "; ".join(dict.fromkeys(lim.source for lim in ab.limits))
    out.append(source_line(srcs + "; " + ab.leaders_exempt.source, ctx.st))
    return out


@block("kensei_commander_levels")
def _kensei_levels(block: dict, ctx: AidContext) -> list:
    levels = sorted(entries_of(ctx.catalog, "commander_levels"), key=lambda c: c.cost)
    if not levels:
        return fallback(block, ctx, "the catalog has no commander levels")
    rows = []
    for lv in levels:
        extra = f"+{lv.extra_command_cards}" if lv.extra_command_cards else "0"
        scen = "\u2014" if lv.scenery_elements is None else str(lv.scenery_elements)
        rows.append([lv.name, f"{lv.cost}", f"+{lv.strategy_bonus}", extra, scen])
    return [
        table(
            rows,
            column_widths(ctx, 26, 14, 20, 22, 18),
            ctx.st,
            header=["Level", "AP", "Strategy roll", "Extra cards", "Scenery"],
            bold_first=True,
        ),
        source_line("; ".join(lv.source for lv in levels), ctx.st),
    ]


@block("kensei_command_deck")
def _kensei_deck(block: dict, ctx: AidContext) -> list:
    cards = sorted(entries_of(ctx.catalog, "command_cards"), key=lambda c: c.value)
    if not cards:
        return fallback(block, ctx, "the catalog has no command deck")
    rows = [[str(c.value), str(c.count), getattr(c, "suit", None) or ""] for c in cards]
    total = sum(c.count for c in cards)
    rows.append(["total", str(total), ""])
    return [
        table(
            rows,
            column_widths(ctx, 30, 30, 40),
            ctx.st,
            header=["Value", "Cards", "Normal deck suit"],
            total_rows=[len(rows) - 1],
        )
    ]
