"""Kensei's generated player-aid blocks (``generated:`` in ``templates/aids/kensei.yaml``), drawn
with the block toolkit of ``builder.kit.aid``."""

from __future__ import annotations

from typing import Any

from builder.catalog.overlay import display_name
from builder.games.kensei.rules import hand_size
from builder.i18n import N_, _
from builder.kit.aid import AidContext, Generator, column_widths, entries_of, fallback, registry
from builder.kit.blocks import para, source_line, table

BLOCKS: dict[str, Generator] = {}
block = registry(BLOCKS)

LIMIT_LABELS = {
    "melee_infantry_warriors": N_("Melee infantry warriors"),
    "ranged": N_("Ranged weapons"),
    "firearms": N_("Firearms"),
    "cavalry": N_("Cavalry"),
    "skirmishers": N_("Skirmishers"),
    "creatures": N_("Purchased creatures"),
}


def _limit_label(category: str, default: str | None = None) -> str:
    return _(LIMIT_LABELS[category]) if category in LIMIT_LABELS else (default or category)


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
        rows.append(
            [
                display_name(ctx.catalog, "battle_sizes", s),
                _("up to {points}").format(points=s.max_ap),
                str(hand_size(ctx.catalog, s.max_ap)[0] or "\u2014"),
            ]
        )
    return [
        table(
            rows,
            column_widths(ctx, 40, 30, 30),
            ctx.st,
            header=[_("Battle size"), _("Army points"), _("Command hand")],
        )
    ]


@block("kensei_leaders_units")
def _kensei_leaders_units(block: dict, ctx: AidContext) -> list:
    ab = _kensei_ab(ctx)
    if ab is None:
        return fallback(block, ctx, "the catalog has no leader and unit table")
    rows_t = ab.leaders_and_units.table
    head = [_("Army points")] + [str(r.ap) for r in rows_t]
    rows = [
        [_("Leaders min/max")] + [f"{r.leaders_min}/{r.leaders_max}" for r in rows_t],
        [_("Units min/max")] + [f"{r.units_min}/{r.units_max}" for r in rows_t],
    ]
    us = ab.unit_size
    mx = us.max
    sizes = _(
        "Models per unit: at least {min}; at most {infantry} infantry, {skirmishers} skirmishers, {other} other units."
    ).format(
        min=us.min, infantry=mx.get("infantry", "?"), skirmishers=mx.get("skirmisher", "?"), other=mx.get("other", "?")
    )
    pl = ab.profile_limits
    elite = "; ".join(
        f"{e.get('from_ap', 0)}" + (f"-{e['to_ap']}" if e.get("to_ap") is not None else "+") + f" AP: {e['max']}"
        for e in pl.elite
    )
    profiles = _(
        "At most {units} units of the same profile; elite profiles: {elite}. "
        "Unique, legendary and leader profiles: {models} model."
    ).format(units=pl.max_units_per_profile, elite=elite, models=pl.unique_max_models)
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
        label = _limit_label(lim.category, lim.category.replace("_", " "))
        cells = [
            label,
            (_("min {percent}%") if lim.kind == "min" else _("max {percent}%")).format(percent=f"{lim.percent:g}"),
        ]
        for s in sizes:
            cells.append(f"{s * lim.percent / 100:g}")
        rows.append(cells)
    for ov in ab.clan_overrides:
        if ov.rule == "limit" and ov.percent is not None:
            lim = ab.limit(ov.limit)
            clan = display_name(ctx.catalog, "clans", ov.clan)
            label = f"{clan[:1].upper() + clan[1:]}: {_limit_label(lim.category) if lim else ov.limit}"
            rows.append(
                [label, _("max {percent}%").format(percent=f"{ov.percent:g}")]
                + [f"{s * ov.percent / 100:g}" for s in sizes]
            )
    head = [_("Troops"), _("Limit")] + [_("{points} AP").format(points=s) for s in sizes]
    out = [table(rows, column_widths(ctx, 38, 17, *([15] * len(sizes))), ctx.st, header=head, bold_first=True)]
    hr = [lim for lim in ab.limits if lim.house_rule]
    if hr:
        out.append(
            para(
                _("House rules may change: {limits} \u2014 see `daimyo rules kensei`.").format(
                    limits=", ".join(f"{_limit_label(lim.category)} ({lim.house_rule})" for lim in hr)
                ),
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
        rows.append(
            [display_name(ctx.catalog, "commander_levels", lv), f"{lv.cost}", f"+{lv.strategy_bonus}", extra, scen]
        )
    return [
        table(
            rows,
            column_widths(ctx, 26, 14, 20, 22, 18),
            ctx.st,
            header=[_("Level"), _("AP"), _("Strategy roll"), _("Extra cards"), _("Scenery")],
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
    rows.append([_("total"), str(total), ""])
    return [
        table(
            rows,
            column_widths(ctx, 30, 30, 40),
            ctx.st,
            header=[_("Value"), _("Cards"), _("Normal deck suit")],
            total_rows=[len(rows) - 1],
        )
    ]
