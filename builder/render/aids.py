"""Player aids.

A player aid is data: ``templates/aids/<system>.yaml`` lists *blocks* (headings,
text, bullet lists, tables, and ``generated`` blocks filled from the catalog), each
with the rulebook lines it comes from. :func:`render_aid` turns them into a one or
two page PDF in two columns, with the block toolkit of :mod:`builder.render.blocks`
(whose public names are also importable from here).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder.errors import DaimyoError, UsageError, option
from builder.render.blocks import (  # noqa: F401  (the toolkit, also importable from here)
    CELL_MEMO,
    CELL_PAD,
    COMPACT_HEIGHT_MM,
    COMPACT_WIDTH_MM,
    DASH_TEXT,
    FAIL_BG,
    FOOTER_MM,
    GREY,
    HEAD_BG,
    HEADER_MM,
    HEADING_ROOM_MM,
    KEEP_BLOCK_LINES,
    LONG_TABLE_CHUNK,
    LONG_TABLE_ROWS,
    MARGIN_MM,
    MIN_SCALE,
    MIN_SPLIT_LINES,
    MM,
    PAPERS,
    RULE,
    SEQ_BATCH,
    ZEBRA,
    Markup,
    PageSpec,
    Styles,
    build_pdf,
    bullets,
    compact_tables,
    esc,
    frame_width_mm,
    glue_source_notes,
    humanize_text,
    join_headings,
    keep,
    long_table,
    page_count,
    paper_mm,
    para,
    result_lines,
    small_paper_layout,
    source_line,
    sources_on,
    sources_shown,
    spec_footer,
    squeeze,
    stacked,
    table,
)

# -- player aids ----------------------------------------------------------------------

def _templates_dir() -> Path:
    from builder.paths import templates_dir

    return templates_dir() / "aids"


def load_aid_template(system: str) -> tuple[dict, Any, str]:
    """The aid template of ``system``: (data, positions, file)."""
    from builder.systems import get, is_system
    from builder.yamlio import load_yaml

    path = (get(system).aid_template if is_system(system) else None) or _templates_dir() / f"{system}.yaml"
    if not path.is_file():
        raise UsageError(f"no player aid template for '{system}' ({path})",
                         hint="templates/aids/<system>.yaml")
    data, pos = load_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("blocks"), list):
        raise DaimyoError(pos.diag((), "an aid template is a mapping with a 'blocks:' list"))
    return data, pos, str(path)


BLOCK_KEYS = {"heading", "subheading", "text", "bullets", "table", "generated", "source", "keep",
              "note", "break", "when_players",
              # parameters of generated blocks
              "side", "sizes", "fallback", "columns"}


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
GENERATORS: dict[str, Generator] = {}


def generator(name: str):
    def deco(fn):
        GENERATORS[name] = fn
        return fn

    return deco


def _block_flows(block: dict, ctx: AidContext, pos, path: tuple) -> list:
    """Flowables of one template block (a table plus its source stay together)."""
    from reportlab.platypus import CondPageBreak, FrameBreak, PageBreak, Spacer

    st = ctx.st
    unknown = set(block) - BLOCK_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise DaimyoError(pos.diag(path + (key,), f"unknown aid block key '{key}'",
                                   hint="one of " + ", ".join(sorted(BLOCK_KEYS))))
    if "when_players" in block:
        want = block["when_players"]
        want = want if isinstance(want, list) else [want]
        if ctx.players not in want:
            return []
    flows: list = []
    src = block.get("source")
    if "break" in block:
        return [FrameBreak() if block["break"] == "column" else PageBreak()]
    if "heading" in block:
        return [CondPageBreak(30 * MM), para(block["heading"], st.h1)]
    if "subheading" in block:
        flows.append(para(block["subheading"], st.h2))
    if "text" in block:
        flows.append(para(block["text"], st.body))
    if "bullets" in block:
        flows.extend(bullets(block["bullets"], st))
    if "table" in block:
        t = block["table"]
        cols = t.get("columns")
        widths = t.get("widths") or [100 / len(cols or t["rows"][0])] * len(cols or t["rows"][0])
        total = sum(widths)
        wmm = [ctx.width_mm * w / total for w in widths]
        rows = [[("" if c is None else c) for c in r] for r in t.get("rows", [])]
        flows.append(table(rows, wmm, st, header=cols, bold_first=t.get("bold_first", False)))
    if "generated" in block:
        name = block["generated"]
        fn = GENERATORS.get(name)
        if fn is None:
            raise DaimyoError(pos.diag(path + ("generated",), f"unknown generated block '{name}'",
                                       hint="one of " + ", ".join(sorted(GENERATORS))))
        flows.extend(fn(block, ctx))
    if "note" in block:
        flows.append(para(block["note"], st.small))
    s = source_line(src, st)
    if s is not None:
        flows.append(s)
    flows.append(Spacer(1, 1.5 * MM))
    if block.get("keep", True) and len(flows) > 1:
        return [keep(*flows)]
    return flows


def render_aid(system: str, out_path, *, paper=(210.0, 297.0), force: bool = False,
               players: int | None = None, packs=(), sources: bool = False, **options) -> Path:
    """Write the player aid of ``system`` (one or two pages) to ``out_path``."""
    from builder.catalog.loader import load_catalog
    from builder.names import did_you_mean
    from builder.systems import ids, is_system

    system = (system or "").strip().lower()
    if not is_system(system):
        raise UsageError(f"unknown system '{system}'", hint=did_you_mean(system, ids()) or
                         "one of " + ", ".join(ids()))
    data, pos, tfile = load_aid_template(system)
    allowed = data.get("players")
    if players is not None:
        if not allowed:
            raise UsageError(f"{option('players')} does not apply to the {system} player aid",
                             hint="only the senji aid has a setup per player count")
        lo, hi = allowed
        try:
            players = int(players)
        except (TypeError, ValueError):
            raise UsageError(f"{option('players')} must be a number, not '{players}'") from None
        if not (lo <= players <= hi):
            raise UsageError(f"{option('players')} {players} is out of range for {system}",
                             hint=f"{system} is played by {lo} to {hi} players")
    catalog = load_catalog(system, list(packs or []))
    cols = int(data.get("columns", 2))
    # small paper: one column when two would be narrower than AID_MIN_COLUMN_MM
    while cols > 1 and frame_width_mm(paper, cols) < AID_MIN_COLUMN_MM:
        cols -= 1
    width = frame_width_mm(paper, cols)
    title = data.get("title", f"{system} player aid")
    title = title.replace("{players}", f"{players} players" if players else "all player counts")
    note = data.get("footer") or _rulebook_note(data.get("rulebook"))
    spec = PageSpec(title=title, kind="player aid", system=system, footer_note=note, paper=paper,
                    columns=cols)
    base = float(data.get("font_size", 8.0))
    small, compact = small_paper_layout(paper, base, spec_footer(spec), columns=cols)
    base = min(base, small)

    def build(size: float, target, overwrite: bool) -> Path:
        st = Styles(base=size)
        ctx = AidContext(system, catalog, players, st, width, tfile)
        story: list = [para(title, st.title)]
        if data.get("subtitle"):
            story.append(para(str(data["subtitle"]), st.subtitle))
        with compact_tables(compact), sources_shown(sources):
            for i, block in enumerate(data["blocks"]):
                if not isinstance(block, dict):
                    raise DaimyoError(pos.diag(("blocks", i),
                                               "an aid block is a mapping (heading:, text:, table: ...)"))
                story.extend(_block_flows(block, ctx, pos, ("blocks", i)))
        return build_pdf(target, story, spec, force=overwrite)

    path = build(base, out_path, force)
    pages = _pages(path)
    if pages > 1:
        # a few lines spilling onto a page of their own (Letter is 18 mm shorter than A4):
        # a slightly smaller type keeps the aid on the pages it was designed for
        import os

        trial = Path(path).with_name(f".{Path(path).name}.fit.pdf")
        for shrink in AID_SHRINK:
            try:
                build(base - shrink, trial, True)
                if _pages(trial) < pages:
                    os.replace(trial, path)
                    break
            finally:
                if trial.exists():
                    trial.unlink()
    return Path(path)


AID_MIN_COLUMN_MM = 70.0   # a column of an aid is at least this wide (else fewer columns)
AID_SHRINK = (0.25, 0.5)   # pt: how much smaller an aid's type may get to save a page


def _pages(path) -> int:
    """Pages of a PDF written by reportlab (its object dictionaries are not compressed)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", Path(path).read_bytes()))


def _rulebook_note(file: str | None) -> str:
    """The footer's "Kensei rulebook (2nd edition, free rules)" for an aid's rulebook file."""
    from builder.rulebooks import registry

    book = registry().get(str(file or ""))
    if book is None:
        return "rulebook" if file else ""
    return f"{book.title} ({book.edition})"


# -- generated blocks ---------------------------------------------------------------------

def _entries(catalog, section: str) -> list:
    try:
        return list(catalog.entries(section))
    except Exception:  # a section the catalog does not have (yet)
        return []


def _w(ctx: AidContext, *parts: float) -> list[float]:
    total = sum(parts)
    return [ctx.width_mm * p / total for p in parts]


def _fallback(block: dict, ctx: AidContext, why: str) -> list:
    t = block.get("fallback")
    if t:
        cols = t.get("columns")
        widths = t.get("widths") or [1] * len(cols or t["rows"][0])
        return [table(t["rows"], _w(ctx, *widths), ctx.st, header=cols)]
    ctx.warnings.append(why)
    return [para(why, ctx.st.small)]


@generator("satsuma_deck")
def _satsuma_deck(block: dict, ctx: AidContext) -> list:
    """One deck as a table grouped by suit: card, options (suit letter and strength)."""
    side = block.get("side", "samurai")
    cards = [c for c in _entries(ctx.catalog, "cards") if getattr(c, "side", None) == side]
    if not cards:
        return _fallback(block, ctx, f"the catalog has no {side} deck")
    suits = {getattr(s, "letter", ""): s.name for s in _entries(ctx.catalog, "suits")}
    order = {getattr(s, "letter", ""): getattr(s, "number", 99) for s in _entries(ctx.catalog, "suits")}

    def first_suit(c):
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
    head = block.get("columns") or ["Card", "Printed", "Suit and strength"]
    return [table(rows, _w(ctx, 46, 18, 36), ctx.st, header=head),
            para(f"{len(cards)} cards", ctx.st.small)]


@generator("satsuma_suits")
def _satsuma_suits(block: dict, ctx: AidContext) -> list:
    suits = sorted(_entries(ctx.catalog, "suits"), key=lambda s: getattr(s, "number", 0))
    if not suits:
        return _fallback(block, ctx, "the catalog has no suits")
    rows = [[getattr(s, "letter", ""), s.name, getattr(s, "notes", None) or ""] for s in suits]
    return [table(rows, _w(ctx, 8, 22, 70), ctx.st, header=["", "Suit", "Restriction"])]


@generator("satsuma_victory")
def _satsuma_victory(block: dict, ctx: AidContext) -> list:
    model = ctx.catalog.model
    rows = []
    for v in getattr(model, "victory", None) or []:
        lo, hi = getattr(v, "min", None), getattr(v, "max", None)
        if lo is None:
            cond = f"{hi} or less"
        elif hi is None:
            cond = f"{lo} or more"
        elif lo == hi:
            cond = f"exactly {lo}"
        else:
            cond = f"{lo} to {hi}"
        rows.append([cond, v.result])
    if not rows:
        return _fallback(block, ctx, "the catalog has no victory table")
    return [table(rows, _w(ctx, 35, 65), ctx.st, header=["Imperial casualties", "Victory"])]


@generator("senshiai_abilities")
def _senshiai_abilities(block: dict, ctx: AidContext) -> list:
    abil = _entries(ctx.catalog, "abilities")
    if not abil:
        return _fallback(block, ctx, "the catalog has no ability list")
    rows = []
    for a in sorted(abil, key=lambda a: a.name.casefold()):
        text = getattr(a, "summary", None) or getattr(a, "text", None) or getattr(a, "description", "") or ""
        rows.append([getattr(a, "template", None) or a.name, text])
    return [table(rows, _w(ctx, 30, 70), ctx.st, header=["Ability", "What it does"], bold_first=True)]


def _kensei_ab(ctx):
    return getattr(ctx.catalog.model, "army_building", None)


@generator("kensei_battle_sizes")
def _kensei_sizes(block: dict, ctx: AidContext) -> list:
    from builder.games.kensei.rules import hand_size

    sizes = sorted(_entries(ctx.catalog, "battle_sizes"), key=lambda s: s.max_ap)
    ab = _kensei_ab(ctx)
    if not sizes or ab is None:
        return _fallback(block, ctx, "the catalog has no battle sizes")
    rows = []
    for s in sizes:
        rows.append([s.name, f"up to {s.max_ap}", str(hand_size(ctx.catalog, s.max_ap)[0] or "\u2014")])
    return [table(rows, _w(ctx, 40, 30, 30), ctx.st, header=["Battle size", "Army points", "Command hand"])]


@generator("kensei_leaders_units")
def _kensei_leaders_units(block: dict, ctx: AidContext) -> list:
    ab = _kensei_ab(ctx)
    if ab is None:
        return _fallback(block, ctx, "the catalog has no leader and unit table")
    rows_t = ab.leaders_and_units.table
    head = ["Army points"] + [str(r.ap) for r in rows_t]
    rows = [["Leaders min/max"] + [f"{r.leaders_min}/{r.leaders_max}" for r in rows_t],
            ["Units min/max"] + [f"{r.units_min}/{r.units_max}" for r in rows_t]]
    us = ab.unit_size
    mx = us.max
    sizes = (f"Models per unit: at least {us.min}; at most {mx.get('infantry', '?')} infantry, "
             f"{mx.get('skirmisher', '?')} skirmishers, {mx.get('other', '?')} other units.")
    pl = ab.profile_limits
    elite = "; ".join(
        f"{e.get('from_ap', 0)}" + (f"-{e['to_ap']}" if e.get("to_ap") is not None else "+") + f" AP: {e['max']}"
        for e in pl.elite)
    profiles = (f"At most {pl.max_units_per_profile} units of the same profile; elite profiles: {elite}. "
                f"Unique, legendary and leader profiles: {pl.unique_max_models} model.")
    return [table(rows, _w(ctx, 28, *([14.4] * len(rows_t))), ctx.st, header=head, bold_first=True),
            para(sizes, ctx.st.body), para(profiles, ctx.st.body),
            source_line(f"{ab.leaders_and_units.source}; {us.source}; {pl.source}", ctx.st)]


LIMIT_LABELS = {
    "melee_infantry_warriors": "Melee infantry warriors",
    "ranged": "Ranged weapons",
    "firearms": "Firearms",
    "cavalry": "Cavalry",
    "skirmishers": "Skirmishers",
    "creatures": "Purchased creatures",
}


@generator("kensei_percent_limits")
def _kensei_percent(block: dict, ctx: AidContext) -> list:
    ab = _kensei_ab(ctx)
    if ab is None:
        return _fallback(block, ctx, "the catalog has no percentage limits")
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
    out = [table(rows, _w(ctx, 38, 17, *([15] * len(sizes))), ctx.st, header=head, bold_first=True)]
    hr = [lim for lim in ab.limits if lim.house_rule]
    if hr:
        out.append(para("House rules may change: " + ", ".join(
            f"{LIMIT_LABELS.get(lim.category, lim.category)} ({lim.house_rule})" for lim in hr)
            + " \u2014 see `daimyo rules kensei`.", ctx.st.small))
    out.append(para(ab.leaders_exempt.text.strip(), ctx.st.small))
    srcs = "; ".join(dict.fromkeys(lim.source for lim in ab.limits))
    out.append(source_line(srcs + "; " + ab.leaders_exempt.source, ctx.st))
    return out


@generator("kensei_commander_levels")
def _kensei_levels(block: dict, ctx: AidContext) -> list:
    levels = sorted(_entries(ctx.catalog, "commander_levels"), key=lambda c: c.cost)
    if not levels:
        return _fallback(block, ctx, "the catalog has no commander levels")
    rows = []
    for lv in levels:
        extra = f"+{lv.extra_command_cards}" if lv.extra_command_cards else "0"
        scen = "\u2014" if lv.scenery_elements is None else str(lv.scenery_elements)
        rows.append([lv.name, f"{lv.cost}", f"+{lv.strategy_bonus}", extra, scen])
    return [table(rows, _w(ctx, 26, 14, 20, 22, 18), ctx.st,
                  header=["Level", "AP", "Strategy roll", "Extra cards", "Scenery"], bold_first=True),
            source_line("; ".join(lv.source for lv in levels), ctx.st)]


@generator("kensei_command_deck")
def _kensei_deck(block: dict, ctx: AidContext) -> list:
    cards = sorted(_entries(ctx.catalog, "command_cards"), key=lambda c: c.value)
    if not cards:
        return _fallback(block, ctx, "the catalog has no command deck")
    rows = [[str(c.value), str(c.count), getattr(c, "suit", None) or ""] for c in cards]
    total = sum(c.count for c in cards)
    rows.append(["total", str(total), ""])
    return [table(rows, _w(ctx, 30, 30, 40), ctx.st, header=["Value", "Cards", "Normal deck suit"],
                  total_rows=[len(rows) - 1])]


@generator("senji_setup")
def _senji_setup(block: dict, ctx: AidContext) -> list:
    """The setup of the chosen player count, or of every count (families excluded, neutral provinces)."""
    from builder.games.senji.rules import setup_table

    if ctx.players:
        info = setup_table(ctx.catalog, ctx.players)
        rows = [["Players", str(ctx.players)],
                ["Families in play", ", ".join(info["in_play"]) or "\u2014"],
                ["Families excluded", ", ".join(info["excluded"]) or "none"],
                ["Neutral provinces", ", ".join(info["neutral"]) or "none"]]
        return [table(rows, _w(ctx, 32, 68), ctx.st, bold_first=True, zebra=False),
                source_line(info["source"], ctx.st)]
    rows, srcs = [], []
    for n in range(6, 2, -1):
        info = setup_table(ctx.catalog, n)
        rows.append([str(n), ", ".join(info["excluded"]) or "none", ", ".join(info["neutral"]) or "none"])
        srcs.append(info["source"])
    return [table(rows, _w(ctx, 16, 42, 42), ctx.st, header=["Players", "Families excluded", "Neutral provinces"]),
            source_line("; ".join(dict.fromkeys(srcs)), ctx.st)]
