"""The flowing-document toolkit: one block API for player aids, rosters, setup sheets and
the organiser's book.

Builds platypus flowables with the bundled fonts (:class:`Styles`, :func:`para`,
:func:`table`, :func:`stacked`, :func:`bullets`, :func:`keep`, ...) and lays them out
on pages (:class:`PageSpec`, :func:`build_pdf`) whose canvas comes from ``pdfbase``
(viewer hints, ruler, footer with the validation result). Player aids
(:mod:`builder.render.aids`), rosters (:mod:`builder.games.kensei.roster`), setup sheets
(:mod:`builder.games.senji.setup_sheet`) and the book (:mod:`builder.render.bookpdf`) all
print through it.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from pypdf import PdfReader
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from builder import yamlio
from builder.i18n import N_, _, ngettext
from builder.kit import fonts, pdfbase
from builder.kit.layout import paper_size
from builder.kit.pdfbase import frame_size, page_margins
from builder.kit.rladapter import adopt_state, kept_flowables, share_frame
from builder.rulebooks import format_source, humanize
from builder.yamlio import refuse_output

MM = 72.0 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 12.0
FOOTER_MM = 18.0  # bottom band reserved for the footer (validation, share code, ruler)
HEADER_MM = 0.0

GREY = "#555555"
RULE = "#999999"
ZEBRA = "#f0f0f0"
HEAD_BG = "#d8d8d8"
FAIL_BG = "#f6d2d2"


# -- styles ----------------------------------------------------------------------------


def _fonts():
    fonts.register_fonts()
    return fonts


@dataclass
class Styles:
    base: float = 8.5

    def __post_init__(self):
        f = _fonts()
        b = self.base

        # allowWidows=0 (and reportlab's allowOrphans=0): a paragraph split across pages keeps
        # at least two of its lines on each side
        def mk(name, **kw):
            return ParagraphStyle(
                name,
                fontName=kw.pop("font", f.REGULAR),
                bulletFontName=f.REGULAR,
                alignment=TA_LEFT,
                splitLongWords=1,
                allowWidows=0,
                allowOrphans=0,
                **kw,
            )

        self.title = mk("title", font=f.BOLD, fontSize=b + 7, leading=(b + 7) * 1.2, spaceAfter=2)
        self.subtitle = mk("subtitle", fontSize=b, leading=b * 1.25, textColor=GREY, spaceAfter=4)
        self.h1 = mk(
            "h1", font=f.BOLD, fontSize=b + 3, leading=(b + 3) * 1.2, spaceBefore=6, spaceAfter=3, keepWithNext=1
        )
        self.h2 = mk(
            "h2", font=f.BOLD, fontSize=b + 1, leading=(b + 1) * 1.2, spaceBefore=4, spaceAfter=2, keepWithNext=1
        )
        self.body = mk("body", fontSize=b, leading=b * 1.25, spaceAfter=2)
        self.bullet = mk("bullet", fontSize=b, leading=b * 1.22, leftIndent=9, bulletIndent=1, spaceAfter=1)
        self.cell = mk("cell", fontSize=b - 0.5, leading=(b - 0.5) * 1.2)
        self.cellb = mk("cellb", font=f.BOLD, fontSize=b - 0.5, leading=(b - 0.5) * 1.2)
        self.small = mk("small", font=f.CONDENSED, fontSize=b - 2, leading=(b - 2) * 1.2, textColor=GREY)
        self.source = mk(
            "source",
            font=f.CONDENSED,
            fontSize=max(5.5, b - 2.5),
            leading=max(5.5, b - 2.5) * 1.2,
            textColor=GREY,
            spaceAfter=3,
        )


def esc(text: Any) -> str:
    """Text for a Paragraph: XML-escaped, newlines kept, characters the font lacks replaced."""
    s = "" if text is None else str(text)
    s = fonts.printable(s)
    s = escape(s).replace("\n", "<br/>")
    # Markdown code spans (`daimyo rules kensei`): set in the condensed face, without backticks
    return _CODE_SPAN.sub(lambda m: f'<font name="{fonts.CONDENSED}" color="#1f3a60">{m.group(1)}</font>', s)


_CODE_SPAN = re.compile(r"`([^`<>]+)`")


def para(text: Any, style, markup: bool = False):
    text = humanize(str(text), bare=False)  # rulebook references as a player reads them
    return Paragraph(text if markup else esc(text), style)


_SOURCES: contextvars.ContextVar[bool] = contextvars.ContextVar("daimyo_print_sources", default=True)


@contextlib.contextmanager
def sources_shown(on: bool):
    """Within the block, :func:`source_line` prints the rulebook sections things come from
    (``on``) or nothing; documents also leave out their source columns (:func:`sources_on`)."""
    token = _SOURCES.set(bool(on))
    try:
        yield
    finally:
        _SOURCES.reset(token)


def sources_on() -> bool:
    """Whether the document being built prints its sources."""
    return _SOURCES.get()


def source_line(src: str | None, st: Styles, prefix: str | None = None):
    if not src or not _SOURCES.get():
        return None
    prefix = _("Source: ") if prefix is None else prefix
    return para(prefix + str(src), st.source)  # para writes the references as players read them


class Markup(str):
    """A table cell written in Paragraph markup (``<b>``, ``<br/>``, ``<font>``), made into a
    Paragraph only when its row is laid out (a long table keeps only a page of them)."""


def _cell(c, style, memo: dict | None = None):
    if hasattr(c, "wrap"):
        return c
    if memo is not None:
        # the same text in the same style is one Paragraph, wrapped once per width: a long
        # table repeats its names, numbers and ability lists on every page
        key = (c, isinstance(c, Markup), style.name)
        p = memo.get(key)
        if p is None:
            if len(memo) >= CELL_MEMO:
                memo.clear()
            p = memo[key] = _MemoParagraph(para(str(c), style, markup=isinstance(c, Markup)))
        return p
    if isinstance(c, Markup):
        return para(str(c), style, markup=True)
    return para(c, style)


CELL_MEMO = 2000  # paragraphs a long table keeps for reuse


class _MemoParagraph(Paragraph):
    """A Paragraph that remembers its last wrap (a shared cell is wrapped once per width)."""

    def __init__(self, p):  # adopt a parsed paragraph's state without parsing again
        adopt_state(self, p)
        self._memo = None

    def wrap(self, aw, ah):
        if self._memo is not None and self._memo[0] == aw:
            return self._memo[1]
        out = Paragraph.wrap(self, aw, ah)
        self._memo = (aw, out)
        return out

    def split(self, aw, ah):  # a table row never splits; a shared cell must not either
        return []


def table(
    rows: list[list[Any]],
    widths_mm: list[float],
    st: Styles,
    header: list[str] | None = None,
    zebra: bool = True,
    bold_first: bool = False,
    fail_rows: Iterable[int] = (),
    total_rows: Iterable[int] = (),
    align_right: Iterable[int] = (),
    repeat: bool = True,
):
    """A table whose cells wrap (never overflow); a row never splits across pages.

    ``rows`` are lists of strings, :class:`Markup` strings or flowables; ``widths_mm`` the
    column widths. ``fail_rows``/``total_rows`` index the data rows (0 = first row after the
    header). A table of more than ``LONG_TABLE_CHUNK`` rows is laid out a page at a time
    (:func:`long_table`), so its cost grows with its rows, not with rows times pages.
    """
    head = [para(h, st.cellb) for h in header] if header else None
    off = 1 if header else 0
    base = [
        ("FONT", (0, 0), (-1, -1), _fonts().REGULAR),  # platypus sets a cell font even for paragraphs
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD[0]),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD[1]),
        ("TOPPADDING", (0, 0), (-1, -1), CELL_PAD[2]),
        ("BOTTOMPADDING", (0, 0), (-1, -1), CELL_PAD[3]),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, RULE),
    ]
    for c in align_right:
        base.append(("ALIGN", (c, 0), (c, -1), "RIGHT"))
    head_cmds = [("BACKGROUND", (0, 0), (-1, 0), HEAD_BG), ("LINEBELOW", (0, 0), (-1, 0), 0.6, "#333333")]
    fails, totals = set(fail_rows), set(total_rows)

    def row_cmds(r: int, at: int) -> list:
        """Style commands of data row ``r`` placed at table row ``at``."""
        out: list[tuple] = []
        if zebra and r % 2 == 1:
            out.append(("BACKGROUND", (0, at), (-1, at), ZEBRA))
        if r in fails:
            out.append(("BACKGROUND", (0, at), (-1, at), FAIL_BG))
        if r in totals:
            out.append(("LINEABOVE", (0, at), (-1, at), 0.8, "#333333"))
        return out

    memo: dict | None = {} if len(rows) > LONG_TABLE_CHUNK else None

    def cells(r: int) -> list:
        return [_cell(c, st.cellb if (bold_first and i == 0) else st.cell, memo) for i, c in enumerate(rows[r])]

    if _COMPACT.get() and len(widths_mm) > 1:
        return stacked(rows, header, st, bold_first=bold_first, fail_rows=fails)
    widths_mm = squeeze(widths_mm)
    widths = [w * MM for w in widths_mm]
    if len(rows) > LONG_TABLE_CHUNK:
        return long_table(
            len(rows), cells, widths, head if repeat else None, base, head_cmds, row_cmds, first_head=head
        )
    data = ([head] if head else []) + [cells(r) for r in range(len(rows))]
    cmds = list(base) + (head_cmds if head else [])
    for r in range(len(rows)):
        cmds += row_cmds(r, r + off)
    t = Table(data, colWidths=widths, repeatRows=(1 if header and repeat else 0), hAlign="LEFT", splitByRow=1)
    t.setStyle(TableStyle(cmds))
    return t


def squeeze(widths_mm: list[float], floor_mm: float = 8.0) -> list[float]:
    """Column widths that keep their sum, with none narrower than ``floor_mm`` (or the average):
    a table whose last column is "the rest of the width" gets none on narrow paper."""
    total = sum(widths_mm)
    floor = min(floor_mm, total / max(1, len(widths_mm)))
    if min(widths_mm) >= min(floor, 3.0):  # narrow by design (a number column) is fine
        return list(widths_mm)
    raised = [max(w, floor) for w in widths_mm]
    fixed = sum(floor for w in widths_mm if w <= floor)
    flexible = sum(w for w in raised if w > floor)
    k = (total - fixed) / flexible if flexible else 1.0
    return [floor if w <= floor else w * k for w in raised]


def stacked(
    rows: list[list[Any]], header: list[str] | None, st: Styles, bold_first: bool = False, fail_rows: Iterable[int] = ()
):
    """A table as stacked rows, for paper too small for its columns: each row is its first
    cell (bold) followed by "Header: value" lines, with a rule between rows. The rows are
    paragraphs, so a long row continues on the next page like any text."""
    fails = set(fail_rows)
    first = ParagraphStyle("stack-first", parent=st.cellb, spaceBefore=2.5, borderPadding=(1.5, 0, 0, 0))
    rest = ParagraphStyle("stack-rest", parent=st.cell, leftIndent=6)
    bad_first = ParagraphStyle("stack-first-bad", parent=first, backColor=FAIL_BG)
    bad_rest = ParagraphStyle("stack-rest-bad", parent=rest, backColor=FAIL_BG)
    names = [esc(h) for h in header] if header else []

    def text(c) -> str:
        if isinstance(c, Markup):
            return str(c)
        if hasattr(c, "frags") and hasattr(c, "text"):
            return c.text
        if hasattr(c, "wrap"):
            return ""
        return esc(humanize_text(str(c)))

    def make(r: int) -> list:
        row = rows[r]
        sf, sr = (bad_first, bad_rest) if r in fails else (first, rest)
        out: list = []
        for i, c in enumerate(row):
            t = text(c)
            if not t.strip() or (t == DASH_TEXT and i > 0):
                continue
            label = names[i] if i < len(names) and names[i].strip() else ""
            if not out:
                body = (
                    f"{label}: " if label and not bold_first and label != "#" else ("#" if label == "#" else "")
                ) + t
                out.append(Paragraph(body, sf))
            else:
                out.append(Paragraph((f"<b>{label}:</b> " if label else "") + t, sr))
        return out

    return _Seq(make, len(rows))


def _lines_of(f) -> int:
    """Lines a wrapped flowable takes (a paragraph's lines; 1 for anything else)."""
    bl = getattr(f, "blPara", None)
    lines = getattr(bl, "lines", None)
    return max(1, len(lines)) if lines is not None else 1


MIN_SPLIT_LINES = 2  # a block split across pages keeps at least this many lines on each side
KEEP_BLOCK_LINES = 6  # a stacked row of no more lines than this is never split


class _Block(Flowable):
    """A stacked table row (a few paragraphs) that stays on one page, or is split between its
    paragraphs (or inside one, by the paragraph's own widow control) with at least
    ``MIN_SPLIT_LINES`` lines on each side. ``glued`` paragraphs at its end (a source note)
    are never cut off from the lines before them."""

    def __init__(self, flows: list, glued: int = 0):
        super().__init__()
        self.flows, self.glued = list(flows), glued

    def _measure(self, aw):
        hs = []
        for f in self.flows:
            h = f.wrap(aw, 0x7FFFFFFF)[1]
            hs.append((f.getSpaceBefore(), h, f.getSpaceAfter(), _lines_of(f)))
        return hs

    def wrap(self, aw, ah):
        hs = self._measure(aw)
        self.width = aw
        self.height = sum(b + h + a for b, h, a, _ in hs)
        return aw, self.height

    def split(self, aw, ah):
        hs = self._measure(aw)
        # the lines of the block itself (a glued source note does not count as company)
        total = sum(n for *_, n in hs[: len(hs) - self.glued])
        if sum(b + h + a for b, h, a, _ in hs) <= ah:
            return [self]
        frame = getattr(self, "_frame", None)
        at_top = frame is not None and getattr(frame, "_atTop", False)
        if total <= KEEP_BLOCK_LINES and not at_top:
            return []  # a short row reads as one: the whole of it goes on the next page
        last_cut = len(self.flows) - 1 - self.glued  # cut after flow i, i < last_cut + 1
        used, lines_before, fits = 0.0, 0, []
        for i, (b, h, a, n) in enumerate(hs):
            if used + b + h > ah + 1e-6:
                break
            used += b + h + a
            lines_before += n
            fits.append((i, lines_before))
        # between paragraphs, as late as possible
        for i, before in reversed(fits):
            if i < last_cut and before >= MIN_SPLIT_LINES and total - before >= MIN_SPLIT_LINES:
                return [_Block(self.flows[: i + 1]), _Block(self.flows[i + 1 :], self.glued)]
        # inside the first paragraph that does not fit (its own split keeps two lines a side)
        k = len(fits)
        if k <= last_cut:
            f = self.flows[k]
            parts = f.split(aw, ah - used - hs[k][0]) if hasattr(f, "split") else []
            if len(parts) == 2:
                parts[0].wrap(aw, 0x7FFFFFFF)
                before = (fits[-1][1] if fits else 0) + _lines_of(parts[0])
                if before >= MIN_SPLIT_LINES and total - before >= MIN_SPLIT_LINES:
                    return [_Block(self.flows[:k] + [parts[0]]), _Block([parts[1]] + self.flows[k + 1 :], self.glued)]
        if at_top:
            # taller than a whole page and no cut keeps two lines a side: its paragraphs are
            # laid out one by one, as any text that fills pages
            return list(self.flows)
        return []  # the whole block goes on the next page

    def draw(self):
        y = self.height
        for f in self.flows:
            y -= f.getSpaceBefore()
            _w, h = f.wrap(self.width, 0x7FFFFFFF)
            y -= h
            f.drawOn(self.canv, 0, y)
            y -= f.getSpaceAfter()


DASH_TEXT = "\u2014"


def humanize_text(text: str) -> str:
    return humanize(text, bare=False)


class _Seq(Flowable):
    """A run of paragraphs made a row at a time, that the frame may split anywhere."""

    def __init__(self, make, n: int, start: int = 0, tail: list | None = None):
        super().__init__()
        self.make, self.n, self.start = make, n, start
        self.tail = list(tail or [])  # flowables kept with the last row (a source note)
        self._flows: list | None = None

    def _all(self):
        if self._flows is None:
            self._flows = []
            for r in range(self.start, min(self.n, self.start + SEQ_BATCH)):
                if r == self.n - 1 and self.tail:
                    self._flows.append(_Block(self.make(r) + self.tail, glued=len(self.tail)))
                else:
                    self._flows.append(_Block(self.make(r)))
            if self.n <= self.start and self.tail:
                self._flows.append(_Block(self.tail))
        return self._flows

    def wrap(self, aw, ah):
        if self.n - self.start > SEQ_BATCH:  # more than a batch: always handed on in parts
            return aw, ah + 1.0
        h = 0.0
        for f in self._all():
            h += f.wrap(aw, ah)[1] + f.getSpaceBefore() + f.getSpaceAfter()
        self.width, self.height = aw, h
        return aw, h

    def split(self, aw, ah):
        # the frame must take the first part as it is: a part that fits, or nothing
        out = list(self._all())
        if self.n - self.start > SEQ_BATCH:
            out.append(_Seq(self.make, self.n, self.start + SEQ_BATCH, self.tail))
        if not out:
            return []
        head = out[0]
        if head.wrap(aw, ah)[1] + head.getSpaceBefore() <= ah:
            return out

        share_frame(self, head)
        parts = head.split(aw, ah)
        return (parts + out[1:]) if parts else []

    def draw(self):
        y = self.height
        for f in self._all():
            y -= f.getSpaceBefore()
            _w, h = f.wrap(self.width, y)
            y -= h
            f.drawOn(self.canv, 0, y)
            y -= f.getSpaceAfter()


SEQ_BATCH = 30  # rows of a stacked table made at a time


CELL_PAD = (2.5, 2.5, 1.2, 1.8)  # pt: left, right, top, bottom padding of a table cell
LONG_TABLE_CHUNK = 40  # rows: a longer table is laid out a page at a time


def long_table(
    n: int,
    cells: Callable[[int], list],
    widths: list[float],
    head: list | None,
    base_cmds: list,
    head_cmds: list,
    row_cmds: Callable[[int, int], list],
    first_head: list | None = None,
):
    """A table of ``n`` rows laid out a page at a time.

    platypus splits a long ``Table`` by measuring all the rows left after each page break,
    which makes a table of N rows spanning P pages cost N x P. This flowable measures each
    row once (``cells(r)`` makes the row's flowables when it is needed, so only about a page
    of them is alive at a time) and hands the frame one ordinary ``Table`` per page, with the
    header (``head``) repeated and each row's style (``row_cmds(r, at)``) kept.
    """
    return _LongTable(_Rows(n, cells, widths, head, base_cmds, head_cmds, row_cmds, first_head), 0)


class _Rows:
    """The shared state of a long table: row heights measured so far and the rows made."""

    def __init__(self, n, cells, widths, head, base_cmds, head_cmds, row_cmds, first_head):
        self.n, self.cells, self.widths, self.head = n, cells, widths, head
        self.first_head = first_head
        self.base_cmds, self.head_cmds, self.row_cmds = base_cmds, head_cmds, row_cmds
        self.heights: list[float] = []
        self.made: dict[int, list] = {}
        self.head_h: dict[bool, float] = {}

    def _row_height(self, row: list) -> float:
        h = 0.0
        for v, w in zip(row, self.widths, strict=False):
            aw = w - CELL_PAD[0] - CELL_PAD[1]
            t = 0.0
            for f in v if isinstance(v, (list, tuple)) else [v]:
                t += f.wrap(aw, 0x7FFFFFFF)[1] + f.getSpaceBefore() + f.getSpaceAfter()
            h = max(h, t)
        return h + CELL_PAD[2] + CELL_PAD[3]

    def header_height(self, first: bool) -> float:
        head = self.first_head if first else self.head
        if head is None:
            return 0.0
        if first not in self.head_h:
            self.head_h[first] = self._row_height(head)
        return self.head_h[first]

    def height(self, r: int) -> float:
        while len(self.heights) <= r:
            i = len(self.heights)
            row = self.cells(i)
            self.made[i] = row
            self.heights.append(self._row_height(row))
        return self.heights[r]

    def fit(self, start: int, avail: float) -> tuple[int, float]:
        """Rows from ``start`` that fit in ``avail`` points (header included), and their height."""
        used = self.header_height(start == 0)
        end = start
        while end < self.n:
            h = self.height(end)
            if used + h > avail + 1e-6:
                break
            used += h
            end += 1
        return end, used

    def chunk(self, start: int, end: int):
        head = self.first_head if start == 0 else self.head
        off = 1 if head is not None else 0
        data = [head] if head is not None else []
        hs = [self.header_height(start == 0)] if head is not None else []
        cmds = list(self.base_cmds) + (list(self.head_cmds) if head is not None else [])
        for r in range(start, end):
            data.append(self.made.pop(r, None) or self.cells(r))
            hs.append(self.height(r))
            cmds += self.row_cmds(r, r - start + off)
        t = Table(data, colWidths=self.widths, rowHeights=hs, hAlign="LEFT")
        t.setStyle(TableStyle(cmds))
        return t


class _LongTable(Flowable):
    """Rows ``start``.. of a long table (see :func:`long_table`)."""

    def __init__(self, rows: _Rows, start: int):
        super().__init__()
        self.rows, self.start = rows, start
        self.hAlign = "LEFT"
        self._table: Any = None  # the reportlab Table of the rows that fit, once wrapped

    def wrap(self, aw, ah):
        end, used = self.rows.fit(self.start, ah)
        self.width = sum(self.rows.widths)
        if end < self.rows.n:  # does not all fit: the frame splits it
            self._table = None
            return self.width, max(ah, used) + 1.0
        self._table = self.rows.chunk(self.start, end)
        self.height = self._table.wrap(aw, ah)[1]
        return self.width, self.height

    def split(self, aw, ah):
        end, _ = self.rows.fit(self.start, ah)
        if end == self.start:
            return []
        return [self.rows.chunk(self.start, end), _LongTable(self.rows, end)]

    def draw(self):
        self._table.drawOn(self.canv, 0, 0)


def bullets(items: Iterable[Any], st: Styles):
    return [Paragraph(esc(i), st.bullet, bulletText="\u2022") for i in items]


def keep(*flows):
    """The flowables on one page when they fit; when they do not (a stacked table on small
    paper), what follows a stacked table (its source note) stays with the table's last row."""
    kept = [f for f in flows if f is not None]
    seqs = [i for i, f in enumerate(kept) if isinstance(f, _Seq)]
    if seqs and seqs[-1] < len(kept) - 1:
        seq = kept[seqs[-1]]
        seq.tail = seq.tail + kept[seqs[-1] + 1 :]
        seq._flows = None
        kept = kept[: seqs[-1] + 1]
    return KeepTogether(kept)


# -- page building --------------------------------------------------------------------


@dataclass
class PageSpec:
    """Everything printed around the flowing content."""

    title: str
    kind: str  # "roster", "setup sheet", "player aid"
    system: str
    result: Any = None  # CheckResult (footer: legal or the findings)
    share_code: str | None = None
    footer_note: str | None = None  # e.g. the rulebook file of an aid
    paper: Any = "a4"  # (w, h) mm or a paper name
    columns: int = 1
    author: str | None = None
    list_file: str | None = None  # the list as the user names it (for "daimyo export LIST --to code")


def paper_mm(paper) -> tuple[float, float]:
    """Paper (w, h) in mm from a tuple or a name (a4, letter, WxH)."""
    if isinstance(paper, (tuple, list)) and len(paper) == 2:
        return float(paper[0]), float(paper[1])

    return paper_size(paper or "a4")


def frame_width_mm(paper="a4", columns: int = 1, gap_mm: float = 6.0) -> float:
    size = paper_mm(paper)
    left, right, _, _ = page_margins(size)
    inner = size[0] - left - right
    return (inner - gap_mm * (columns - 1)) / columns


# -- small paper ----------------------------------------------------------------------------

COMPACT_WIDTH_MM = 110.0  # a body narrower than this prints tables as stacked rows
COMPACT_HEIGHT_MM = 60.0  # ... and so does a body lower than this (a row must fit a page)
MIN_SCALE = 0.8  # type shrinks with the paper's width down to this factor

_COMPACT: contextvars.ContextVar[bool] = contextvars.ContextVar("daimyo_compact_tables", default=False)


@contextlib.contextmanager
def compact_tables(on: bool):
    """Within the block, :func:`table` prints every table as stacked rows (each row a few
    paragraphs that may continue on the next page): for paper too small for columns."""
    token = _COMPACT.set(bool(on))
    try:
        yield
    finally:
        _COMPACT.reset(token)


def tables_compact() -> bool:
    """Whether :func:`table` prints tables as stacked rows here (inside ``compact_tables(True)``)."""
    return _COMPACT.get()


def spec_footer(spec: PageSpec) -> list:
    """The footer lines of a document described by ``spec``."""
    return pdfbase.footer_lines(
        spec.result,
        spec.share_code,
        extra=[spec.footer_note, f"{_(spec.kind)}: {spec.title}"],
        list_name=spec.list_file,
    )


def small_paper_layout(paper, nominal: float, footer: Sequence[str] = (), columns: int = 1) -> tuple[float, bool]:
    """(font size, compact) for a flowing document on ``paper``: the type shrinks with a body
    narrower than A4's (down to ``MIN_SCALE``), and a body too narrow or too low for table
    columns prints its tables as stacked rows."""
    w, h = frame_size(paper_mm(paper), list(footer))
    col = (w - 6.0 * (columns - 1)) / max(1, columns)
    scale = max(MIN_SCALE, min(1.0, col / 186.0 if columns == 1 else col / 90.0))
    return round(nominal * scale, 2), (
        (col < COMPACT_WIDTH_MM and columns == 1) or col < COMPACT_WIDTH_MM / 2 or h < COMPACT_HEIGHT_MM
    )


def result_lines(result) -> list[str]:
    """The validation result as printed at the end of a document (legal, or each finding)."""
    if result is None:
        return []
    c = result.counts()
    counts = _("{errors}, {warnings}").format(
        errors=ngettext("{n} error", "{n} errors", c["error"]).format(n=c["error"]),
        warnings=ngettext("{n} warning", "{n} warnings", c["warning"]).format(n=c["warning"]),
    )
    head = (_("daimyo check: legal") if result.legal else _("daimyo check: NOT LEGAL")) + f" ({counts})"
    out = [head]
    for f in result.findings:
        if f.severity == "info":
            continue
        out.append(
            f"{severity_word(f.severity)} {f.code}: {f.message}"
            + (f" ({format_source(f.source, inline=True)})" if f.source else "")
        )
    return out


SEVERITIES = {"error": N_("error"), "warning": N_("warning"), "info": N_("info")}


def severity_word(severity: str) -> str:
    """A finding's severity as printed (``error``, ``warning``, ``info``) in the current language."""
    return _(SEVERITIES[severity]) if severity in SEVERITIES else severity


def validation_block(result, st: Styles, width: float):
    """The full validation result printed at the end of a document: the verdict, then one
    compact row per finding (severity, rule, message with its source line). Notes (info)
    print in small type. Short results are kept together; a long one may split, but its
    heading always comes with the verdict and the first rows."""
    head = para(_("Validation (daimyo check)"), st.h1)
    lines = result_lines(result)
    if not lines:
        return [keep(head, para(_("not checked"), st.body))]
    verdict = para(lines[0], st.cellb)
    findings = list(getattr(result, "findings", []))
    if not findings:
        return [keep(head, verdict, Spacer(1, 2 * MM))]
    rows, fails = [], []
    for f in findings:
        text = f.message + (f" ({format_source(f.source, inline=True)})" if f.source else "")
        style = st.small if f.severity == "info" else st.cell
        rows.append([para(severity_word(f.severity), style), para(f.code, style), para(text, style)])
        if f.severity == "error":
            fails.append(len(rows) - 1)
    t = table(rows, [17, 42, width - 17 - 42], st, header=[_("Severity"), _("Rule"), _("Finding")], fail_rows=fails)
    if len(rows) <= 8:
        return [keep(head, verdict, t, Spacer(1, 2 * MM))]
    return [CondPageBreak(35 * MM), keep(head, verdict), t, Spacer(1, 2 * MM)]


LONG_TABLE_ROWS = 8  # a table longer than this may start on one page and go on on the next
HEADING_ROOM_MM = 40.0  # room a heading needs below it to start such a table on this page


def join_headings(story: list) -> list:
    """Keep each heading with what follows it.

    platypus' ``keepWithNext`` does not join a heading to a following ``KeepTogether``,
    so headings (paragraphs whose style says keepWithNext) are moved inside it. A heading
    followed by a long table (more than ``LONG_TABLE_ROWS`` rows, which may split with its
    header repeated) is not glued to the whole table, which would push all of it to the
    next page and leave the rest of this one empty: it only needs room for its first rows
    (``CondPageBreak``).
    """
    out: list = []
    pending: list = []
    for f in story:
        style = getattr(f, "style", None)
        if style is not None and getattr(style, "keepWithNext", False) and hasattr(f, "frags"):
            pending.append(f)
            continue
        if pending:
            if (
                (isinstance(f, Table) and len(getattr(f, "_cellvalues", ())) > LONG_TABLE_ROWS)
                or isinstance(f, _LongTable)
                or (isinstance(f, _Seq) and f.n > LONG_TABLE_ROWS // 2)
            ):
                out.append(CondPageBreak(HEADING_ROOM_MM * MM))
                for h in pending:
                    h.keepWithNext = 0
                    out.append(h)
                out.append(f)
                pending = []
                continue
            if isinstance(f, KeepTogether):
                f = KeepTogether(pending + kept_flowables(f))
            else:
                out.append(KeepTogether(pending + [f]))
                pending = []
                continue
            pending = []
        out.append(f)
    out.extend(pending)
    return out


def glue_source_notes(story: list) -> list:
    """Keep each source note (a paragraph in the ``source`` style) with what it is the source
    of, the flowable before it: with the last row of a stacked table (never alone at the top
    of the next page), inside the block before it, or together with a paragraph."""
    out: list = []
    for f in story:
        is_note = isinstance(f, Paragraph) and getattr(getattr(f, "style", None), "name", "") == "source"
        if not is_note or not out:
            out.append(f)
            continue
        prev = out[-1]
        if isinstance(prev, KeepTogether):
            out[-1] = keep(*kept_flowables(prev), f)
        elif isinstance(prev, (Paragraph, _Seq)):
            out[-1] = keep(prev, f)
        else:
            out.append(f)
    return out


def build_pdf(out_path, story: list, spec: PageSpec, force: bool = False) -> Path:
    """Lay ``story`` out on pages (pdfbase canvas, footer and ruler) and write it atomically.

    One column: ``pdfbase.build_story``. Several columns (player aids): the same page
    chrome (``pdfbase.make_canvas``, ``draw_footer``, ``draw_ruler``) on a template with
    one frame per column.
    """
    paper = paper_mm(spec.paper)
    given, story = (
        story,
        join_headings(glue_source_notes([f for f in story if f is not None])),
    )  # a source line left out is None
    # laying out consumes the story: the caller's list lets go of each flowable once it is on a
    # page (a long table or a long finding is not kept whole, with its layout, to the end)
    given.clear()

    for problem in fonts.check_glyphs([(_("the list"), "name", spec.title or "")]):
        pdfbase.warn(problem.message())
    lines = spec_footer(spec)
    subject = f"{spec.system} {spec.kind}"
    if max(1, spec.columns) == 1:
        return pdfbase.build_story(
            out_path,
            story,
            paper,
            title=spec.title,
            author=spec.author,
            subject=subject,
            footer_lines=lines,
            force=force,
        )
    return _build_columns(out_path, story, spec, paper, lines, subject, force)


def _build_columns(out_path, story, spec: PageSpec, paper, lines, subject, force) -> Path:
    out = Path(out_path)
    refuse_output(out_path, force)
    pw, ph = paper[0] * MM, paper[1] * MM
    left, _, top, bottom_mm = pdfbase.page_margins(paper)
    m = left * MM
    bottom = max(bottom_mm, pdfbase.footer_height(paper, lines, margin=left, right="page 99")) * MM
    gap = 6 * MM
    cols = spec.columns
    fw = (pw - 2 * m - gap * (cols - 1)) / cols
    fh = ph - top * MM - bottom
    frames = [
        Frame(
            m + i * (fw + gap),
            bottom,
            fw,
            fh,
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
            id=f"col{i}",
        )
        for i in range(cols)
    ]

    def maker(target, **kw):
        return pdfbase.make_canvas(target, paper, spec.title, spec.author, subject, None, number_pages=True)

    def decorate(canv, doc):
        pdfbase.draw_footer(canv, paper, lines, margin=left, right=pdfbase.page_label(canv.getPageNumber()))
        pdfbase.draw_page_ruler(canv, paper, right=left)

    buf = io.BytesIO()
    doc = BaseDocTemplate(
        buf,
        pagesize=(pw, ph),
        title=spec.title,
        author=spec.author or "daimyo",
        invariant=1,
        leftMargin=m,
        rightMargin=m,
        topMargin=top * MM,
        bottomMargin=bottom,
    )
    doc.addPageTemplates([PageTemplate(id="cols", frames=frames, onPage=decorate)])
    doc.build(story, canvasmaker=maker)
    yamlio.atomic_write(out, buf.getvalue(), force=force)
    return out


def page_count(path) -> int:
    return len(PdfReader(str(path)).pages)
