"""Player aids.

A player aid is data: ``templates/aids/<system>.yaml`` lists *blocks* (headings,
text, bullet lists, tables, and ``generated`` blocks filled from the catalog), each
with the rulebook lines it comes from. :func:`render_aid` turns them into a one or
two page PDF in two columns, with the block toolkit of :mod:`builder.kit.blocks`
(whose public names are also importable from here).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from reportlab.platypus import CondPageBreak, FrameBreak, PageBreak, Spacer

from builder import rulebooks
from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError, UsageError, option
from builder.i18n import N_, _
from builder.kit.aid import AidContext, Generator, registry
from builder.kit.blocks import (  # noqa: F401  (the toolkit, also importable from here)
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
from builder.names import did_you_mean
from builder.paths import templates_dir
from builder.systems import find_system, get, ids, is_system
from builder.yamlio import load_yaml

# -- player aids ----------------------------------------------------------------------


def words(text: Any) -> Any:
    """A template's printed words in the current language (``scripts/i18n.py`` extracts them
    from ``templates/aids/*.yaml`` into the print catalog); anything else as it is."""
    if isinstance(text, str) and any(ch.isalpha() for ch in text):
        return _(text)
    return text


def _templates_dir() -> Path:
    return templates_dir() / "aids"


def load_aid_template(system: str) -> tuple[dict, Any, str]:
    """The aid template of ``system``: (data, positions, file)."""
    path = (get(system).printing.aid_template if is_system(system) else None) or _templates_dir() / f"{system}.yaml"
    if not path.is_file():
        raise UsageError(
            _("no player aid template for '{system}' ({path})").format(system=system, path=path),
            hint="templates/aids/<system>.yaml",
        )
    data, pos = load_yaml(path)
    if not isinstance(data, dict) or not isinstance(data.get("blocks"), list):
        raise DaimyoError(pos.diag((), _("an aid template is a mapping with a 'blocks:' list")))
    return data, pos, str(path)


BLOCK_KEYS = {
    "heading",
    "subheading",
    "text",
    "bullets",
    "table",
    "generated",
    "source",
    "keep",
    "note",
    "break",
    "when_players",
    # parameters of generated blocks
    "side",
    "sizes",
    "fallback",
    "columns",
}


GENERATORS: dict[str, Generator] = {}  # the generated blocks every game may use


generator = registry(GENERATORS)


def _game_blocks(system: str) -> dict[str, Generator]:
    """The generated blocks of the game ``system`` (its ``aid_blocks``), by name."""
    return find_system(system).printing.aid_blocks()


def _block_flows(block: dict, ctx: AidContext, pos, path: tuple) -> list:
    """Flowables of one template block (a table plus its source stay together)."""
    st = ctx.st
    unknown = set(block) - BLOCK_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise DaimyoError(
            pos.diag(
                path + (key,),
                _("unknown aid block key '{key}'").format(key=key),
                hint=_("one of {choices}").format(choices=", ".join(sorted(BLOCK_KEYS))),
            )
        )
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
        return [CondPageBreak(30 * MM), para(words(block["heading"]), st.h1)]
    if "subheading" in block:
        flows.append(para(words(block["subheading"]), st.h2))
    if "text" in block:
        flows.append(para(words(block["text"]), st.body))
    if "bullets" in block:
        flows.extend(bullets([words(b) for b in block["bullets"]], st))
    if "table" in block:
        t = block["table"]
        cols = [words(c) for c in t["columns"]] if isinstance(t.get("columns"), list) else t.get("columns")
        widths = t.get("widths") or [100 / len(cols or t["rows"][0])] * len(cols or t["rows"][0])
        total = sum(widths)
        wmm = [ctx.width_mm * w / total for w in widths]
        rows = [[("" if c is None else words(c)) for c in r] for r in t.get("rows", [])]
        flows.append(table(rows, wmm, st, header=cols, bold_first=t.get("bold_first", False)))
    if "generated" in block:
        name = block["generated"]
        known = {**GENERATORS, **_game_blocks(ctx.system)}
        fn = known.get(name)
        if fn is None:
            raise DaimyoError(
                pos.diag(
                    path + ("generated",),
                    _("unknown generated block '{name}'").format(name=name),
                    hint=_("one of {choices}").format(choices=", ".join(sorted(known))),
                )
            )
        flows.extend(fn(block, ctx))
    if "note" in block:
        flows.append(para(words(block["note"]), st.small))
    s = source_line(src, st)
    if s is not None:
        flows.append(s)
    flows.append(Spacer(1, 1.5 * MM))
    if block.get("keep", True) and len(flows) > 1:
        return [keep(*flows)]
    return flows


def render_aid(
    system: str,
    out_path,
    *,
    paper=(210.0, 297.0),
    force: bool = False,
    players: int | None = None,
    packs=(),
    sources: bool = False,
    **options,
) -> Path:
    """Write the player aid of ``system`` (one or two pages) to ``out_path``."""
    system = (system or "").strip().lower()
    if not is_system(system):
        raise UsageError(
            _("unknown system '{system}'").format(system=system),
            hint=did_you_mean(system, ids()) or _("one of {choices}").format(choices=", ".join(ids())),
        )
    data, pos, tfile = load_aid_template(system)
    allowed = data.get("players")
    if players is not None:
        if not allowed:
            raise UsageError(
                _("{option} does not apply to the {system} player aid").format(option=option("players"), system=system),
                hint=_("only the senji aid has a setup per player count"),
            )
        lo, hi = allowed
        try:
            players = int(players)
        except (TypeError, ValueError):
            raise UsageError(
                _("{option} must be a number, not '{players}'").format(option=option("players"), players=players)
            ) from None
        if not (lo <= players <= hi):
            raise UsageError(
                _("{option} {players} is out of range for {system}").format(
                    option=option("players"), players=players, system=system
                ),
                hint=_("{system} is played by {lo} to {hi} players").format(system=system, lo=lo, hi=hi),
            )
    catalog = load_catalog(system, list(packs or []))
    cols = int(data.get("columns", 2))
    # small paper: one column when two would be narrower than AID_MIN_COLUMN_MM
    while cols > 1 and frame_width_mm(paper, cols) < AID_MIN_COLUMN_MM:
        cols -= 1
    width = frame_width_mm(paper, cols)
    title = words(data["title"]) if "title" in data else _("{system} player aid").format(system=system)
    title = title.replace("{players}", _("{n} players").format(n=players) if players else _("all player counts"))
    note = words(data["footer"]) if data.get("footer") else _rulebook_note(data.get("rulebook"))
    spec = PageSpec(title=title, kind=N_("player aid"), system=system, footer_note=note, paper=paper, columns=cols)
    base = float(data.get("font_size", 8.0))
    small, compact = small_paper_layout(paper, base, spec_footer(spec), columns=cols)
    base = min(base, small)

    def build(size: float, target, overwrite: bool) -> Path:
        st = Styles(base=size)
        ctx = AidContext(system, catalog, players, st, width, tfile)
        story: list = [para(title, st.title)]
        if data.get("subtitle"):
            story.append(para(words(str(data["subtitle"])), st.subtitle))
        with compact_tables(compact), sources_shown(sources):
            for i, block in enumerate(data["blocks"]):
                if not isinstance(block, dict):
                    raise DaimyoError(
                        pos.diag(("blocks", i), _("an aid block is a mapping (heading:, text:, table: ...)"))
                    )
                story.extend(_block_flows(block, ctx, pos, ("blocks", i)))
        return build_pdf(target, story, spec, force=overwrite)

    path = build(base, out_path, force)
    pages = _pages(path)
    if pages > 1:
        # a few lines spilling onto a page of their own (Letter is 18 mm shorter than A4):
        # a slightly smaller type keeps the aid on the pages it was designed for

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


AID_MIN_COLUMN_MM = 70.0  # a column of an aid is at least this wide (else fewer columns)
AID_SHRINK = (0.25, 0.5)  # pt: how much smaller an aid's type may get to save a page


def _pages(path) -> int:
    """Pages of a PDF written by reportlab (its object dictionaries are not compressed)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", Path(path).read_bytes()))


def _rulebook_note(file: str | None) -> str:
    """The footer's "Kensei rulebook (2nd edition, free rules)" for an aid's rulebook file."""
    book = rulebooks.registry().get(str(file or ""))
    if book is None:
        return _("rulebook") if file else ""
    return f"{rulebooks.named(book.title)} ({rulebooks.named(book.edition)})"
