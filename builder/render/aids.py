"""Player aids, and the flowing-document toolkit shared with rosters and setup sheets.

A player aid is data: ``templates/aids/<system>.yaml`` lists *blocks* (headings,
text, bullet lists, tables, and ``generated`` blocks filled from the catalog), each
with the rulebook lines it comes from. :func:`render_aid` turns them into a one or
two page PDF in two columns.

The toolkit part (:class:`Doc`, :func:`table`, :func:`para`, ...) builds platypus
flowables with the bundled fonts; :func:`build_pdf` lays them out on pages whose
canvas comes from ``pdfbase`` (viewer hints, ruler, footer with the validation
result), so rosters (:mod:`builder.render.roster`) and setup sheets
(:mod:`builder.render.setup_sheet`) print the same way.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable
from xml.sax.saxutils import escape

from builder.errors import DaimyoError, Diagnostic, UsageError, option
from builder.yamlio import refuse_output

MM = 72.0 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 12.0
FOOTER_MM = 18.0   # bottom band reserved for the footer (validation, share code, ruler)
HEADER_MM = 0.0

GREY = "#555555"
RULE = "#999999"
ZEBRA = "#f0f0f0"
HEAD_BG = "#d8d8d8"
FAIL_BG = "#f6d2d2"


# -- styles ----------------------------------------------------------------------------

def _fonts():
    from builder.render import fonts

    fonts.register_fonts()
    return fonts


@dataclass
class Styles:
    base: float = 8.5

    def __post_init__(self):
        from reportlab.lib.enums import TA_LEFT
        from reportlab.lib.styles import ParagraphStyle

        f = _fonts()
        b = self.base
        # allowWidows=0 (and reportlab's allowOrphans=0): a paragraph split across pages keeps
        # at least two of its lines on each side
        mk = lambda name, **kw: ParagraphStyle(name, fontName=kw.pop("font", f.REGULAR),  # noqa: E731
                                               bulletFontName=f.REGULAR, alignment=TA_LEFT, splitLongWords=1,
                                               allowWidows=0, allowOrphans=0, **kw)
        self.title = mk("title", font=f.BOLD, fontSize=b + 7, leading=(b + 7) * 1.2, spaceAfter=2)
        self.subtitle = mk("subtitle", fontSize=b, leading=b * 1.25, textColor=GREY, spaceAfter=4)
        self.h1 = mk("h1", font=f.BOLD, fontSize=b + 3, leading=(b + 3) * 1.2, spaceBefore=6,
                     spaceAfter=3, keepWithNext=1)
        self.h2 = mk("h2", font=f.BOLD, fontSize=b + 1, leading=(b + 1) * 1.2, spaceBefore=4,
                     spaceAfter=2, keepWithNext=1)
        self.body = mk("body", fontSize=b, leading=b * 1.25, spaceAfter=2)
        self.bullet = mk("bullet", fontSize=b, leading=b * 1.22, leftIndent=9, bulletIndent=1,
                         spaceAfter=1)
        self.cell = mk("cell", fontSize=b - 0.5, leading=(b - 0.5) * 1.2)
        self.cellb = mk("cellb", font=f.BOLD, fontSize=b - 0.5, leading=(b - 0.5) * 1.2)
        self.small = mk("small", font=f.CONDENSED, fontSize=b - 2, leading=(b - 2) * 1.2,
                        textColor=GREY)
        self.source = mk("source", font=f.CONDENSED, fontSize=max(5.5, b - 2.5),
                         leading=max(5.5, b - 2.5) * 1.2, textColor=GREY, spaceAfter=3)


def esc(text: Any) -> str:
    """Text for a Paragraph: XML-escaped, newlines kept, characters the font lacks replaced."""
    from builder.render import fonts

    s = "" if text is None else str(text)
    s = fonts.printable(s)
    s = escape(s).replace("\n", "<br/>")
    # Markdown code spans (`daimyo rules kensei`): set in the condensed face, without backticks
    return _CODE_SPAN.sub(lambda m: f'<font name="{fonts.CONDENSED}" color="#1f3a60">{m.group(1)}</font>', s)


_CODE_SPAN = re.compile(r"`([^`<>]+)`")


def para(text: Any, style, markup: bool = False):
    from reportlab.platypus import Paragraph

    from builder.rulebooks import humanize

    text = humanize(str(text), bare=False)  # rulebook references as a player reads them
    return Paragraph(text if markup else esc(text), style)


_SOURCES: "contextvars.ContextVar[bool]" = contextvars.ContextVar("daimyo_print_sources", default=True)


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


def source_line(src: str | None, st: Styles, prefix: str = "Source: "):
    if not src or not _SOURCES.get():
        return None
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
            p = memo[key] = _memo_para_class()(para(str(c), style, markup=isinstance(c, Markup)))
        return p
    if isinstance(c, Markup):
        return para(str(c), style, markup=True)
    return para(c, style)


CELL_MEMO = 2000   # paragraphs a long table keeps for reuse


_MEMO_PARA = None


def _memo_para_class():
    """A Paragraph that remembers its last wrap (a shared cell is wrapped once per width)."""
    global _MEMO_PARA
    if _MEMO_PARA is None:
        from reportlab.platypus import Paragraph

        class MemoParagraph(Paragraph):
            def __init__(self, p):   # adopt a parsed paragraph's state without parsing again
                self.__dict__.update(p.__dict__)
                self._memo = None

            def wrap(self, aw, ah):
                if self._memo is not None and self._memo[0] == aw:
                    return self._memo[1]
                out = Paragraph.wrap(self, aw, ah)
                self._memo = (aw, out)
                return out

            def split(self, aw, ah):   # a table row never splits; a shared cell must not either
                return []

        _MEMO_PARA = MemoParagraph
    return _MEMO_PARA


def table(rows: list[list[Any]], widths_mm: list[float], st: Styles, header: list[str] | None = None,
          zebra: bool = True, bold_first: bool = False, fail_rows: Iterable[int] = (),
          total_rows: Iterable[int] = (), align_right: Iterable[int] = (), repeat: bool = True):
    """A table whose cells wrap (never overflow); a row never splits across pages.

    ``rows`` are lists of strings, :class:`Markup` strings or flowables; ``widths_mm`` the
    column widths. ``fail_rows``/``total_rows`` index the data rows (0 = first row after the
    header). A table of more than ``LONG_TABLE_CHUNK`` rows is laid out a page at a time
    (:func:`long_table`), so its cost grows with its rows, not with rows times pages.
    """
    from reportlab.platypus import Table, TableStyle

    head = [para(h, st.cellb) for h in header] if header else None
    off = 1 if header else 0
    base = [
        ("FONT", (0, 0), (-1, -1), _fonts().REGULAR),   # platypus sets a cell font even for paragraphs
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
        out = []
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
        return long_table(len(rows), cells, widths, head if repeat else None, base, head_cmds, row_cmds,
                          first_head=head)
    data = ([head] if head else []) + [cells(r) for r in range(len(rows))]
    cmds = list(base) + (head_cmds if head else [])
    for r in range(len(rows)):
        cmds += row_cmds(r, r + off)
    t = Table(data, colWidths=widths, repeatRows=(1 if header and repeat else 0),
              hAlign="LEFT", splitByRow=1)
    t.setStyle(TableStyle(cmds))
    return t


def squeeze(widths_mm: list[float], floor_mm: float = 8.0) -> list[float]:
    """Column widths that keep their sum, with none narrower than ``floor_mm`` (or the average):
    a table whose last column is "the rest of the width" gets none on narrow paper."""
    total = sum(widths_mm)
    floor = min(floor_mm, total / max(1, len(widths_mm)))
    if min(widths_mm) >= min(floor, 3.0):   # narrow by design (a number column) is fine
        return list(widths_mm)
    raised = [max(w, floor) for w in widths_mm]
    fixed = sum(floor for w in widths_mm if w <= floor)
    flexible = sum(w for w in raised if w > floor)
    k = (total - fixed) / flexible if flexible else 1.0
    return [floor if w <= floor else w * k for w in raised]


def stacked(rows: list[list[Any]], header: list[str] | None, st: Styles, bold_first: bool = False,
            fail_rows: Iterable[int] = ()):
    """A table as stacked rows, for paper too small for its columns: each row is its first
    cell (bold) followed by "Header: value" lines, with a rule between rows. The rows are
    paragraphs, so a long row continues on the next page like any text."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

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
        out = []
        for i, c in enumerate(row):
            t = text(c)
            if not t.strip() or t == DASH_TEXT and i > 0:
                continue
            label = names[i] if i < len(names) and names[i].strip() else ""
            if not out:
                body = (f"{label}: " if label and not bold_first and label != "#" else
                        ("#" if label == "#" else "")) + t
                out.append(Paragraph(body, sf))
            else:
                out.append(Paragraph((f"<b>{label}:</b> " if label else "") + t, sr))
        return out

    return _seq_class()(make, len(rows))


def _lines_of(f) -> int:
    """Lines a wrapped flowable takes (a paragraph's lines; 1 for anything else)."""
    bl = getattr(f, "blPara", None)
    lines = getattr(bl, "lines", None)
    return max(1, len(lines)) if lines is not None else 1


MIN_SPLIT_LINES = 2   # a block split across pages keeps at least this many lines on each side
KEEP_BLOCK_LINES = 6  # a stacked row of no more lines than this is never split


_BLOCK = None


def _block_class():
    """A stacked table row (a few paragraphs) that stays on one page, or is split between its
    paragraphs (or inside one, by the paragraph's own widow control) with at least
    ``MIN_SPLIT_LINES`` lines on each side. ``glued`` paragraphs at its end (a source note)
    are never cut off from the lines before them."""
    global _BLOCK
    if _BLOCK is not None:
        return _BLOCK
    from reportlab.platypus import Flowable

    class Block(Flowable):
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
            total = sum(n for *_, n in hs[:len(hs) - self.glued])
            if sum(b + h + a for b, h, a, _ in hs) <= ah:
                return [self]
            frame = getattr(self, "_frame", None)
            at_top = frame is not None and getattr(frame, "_atTop", 0)
            if total <= KEEP_BLOCK_LINES and not at_top:
                return []    # a short row reads as one: the whole of it goes on the next page
            last_cut = len(self.flows) - 1 - self.glued    # cut after flow i, i < last_cut + 1
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
                    return [Block(self.flows[:i + 1]), Block(self.flows[i + 1:], self.glued)]
            # inside the first paragraph that does not fit (its own split keeps two lines a side)
            k = len(fits)
            if k <= last_cut:
                f = self.flows[k]
                parts = f.split(aw, ah - used - hs[k][0]) if hasattr(f, "split") else []
                if len(parts) == 2:
                    parts[0].wrap(aw, 0x7FFFFFFF)
                    before = (fits[-1][1] if fits else 0) + _lines_of(parts[0])
                    if before >= MIN_SPLIT_LINES and total - before >= MIN_SPLIT_LINES:
                        return [Block(self.flows[:k] + [parts[0]]),
                                Block([parts[1]] + self.flows[k + 1:], self.glued)]
            if at_top:
                # taller than a whole page and no cut keeps two lines a side: its paragraphs are
                # laid out one by one, as any text that fills pages
                return list(self.flows)
            return []    # the whole block goes on the next page

        def draw(self):
            y = self.height
            for f in self.flows:
                y -= f.getSpaceBefore()
                _w, h = f.wrap(self.width, 0x7FFFFFFF)
                y -= h
                f.drawOn(self.canv, 0, y)
                y -= f.getSpaceAfter()

    _BLOCK = Block
    return Block


DASH_TEXT = "\u2014"


def humanize_text(text: str) -> str:
    from builder.rulebooks import humanize

    return humanize(text, bare=False)


_SEQ = None


def _seq_class():
    """A run of paragraphs made a row at a time, that the frame may split anywhere."""
    global _SEQ
    if _SEQ is not None:
        return _SEQ
    from reportlab.platypus import Flowable

    class Seq(Flowable):
        def __init__(self, make, n: int, start: int = 0, tail: list | None = None):
            super().__init__()
            self.make, self.n, self.start = make, n, start
            self.tail = list(tail or [])    # flowables kept with the last row (a source note)
            self._flows = None

        def _all(self):
            if self._flows is None:
                block = _block_class()
                self._flows = []
                for r in range(self.start, min(self.n, self.start + SEQ_BATCH)):
                    if r == self.n - 1 and self.tail:
                        self._flows.append(block(self.make(r) + self.tail, glued=len(self.tail)))
                    else:
                        self._flows.append(block(self.make(r)))
                if self.n <= self.start and self.tail:
                    self._flows.append(block(self.tail))
            return self._flows

        def wrap(self, aw, ah):
            if self.n - self.start > SEQ_BATCH:     # more than a batch: always handed on in parts
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
                out.append(Seq(self.make, self.n, self.start + SEQ_BATCH, self.tail))
            if not out:
                return []
            head = out[0]
            if head.wrap(aw, ah)[1] + head.getSpaceBefore() <= ah:
                return out
            head._frame = getattr(self, "_frame", None)
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

    _SEQ = Seq
    return Seq


SEQ_BATCH = 30   # rows of a stacked table made at a time


CELL_PAD = (2.5, 2.5, 1.2, 1.8)   # pt: left, right, top, bottom padding of a table cell
LONG_TABLE_CHUNK = 40             # rows: a longer table is laid out a page at a time


def long_table(n: int, cells: Callable[[int], list], widths: list[float], head: list | None,
               base_cmds: list, head_cmds: list, row_cmds: Callable[[int, int], list], first_head: list | None = None):
    """A table of ``n`` rows laid out a page at a time.

    platypus splits a long ``Table`` by measuring all the rows left after each page break,
    which makes a table of N rows spanning P pages cost N x P. This flowable measures each
    row once (``cells(r)`` makes the row's flowables when it is needed, so only about a page
    of them is alive at a time) and hands the frame one ordinary ``Table`` per page, with the
    header (``head``) repeated and each row's style (``row_cmds(r, at)``) kept.
    """
    return _long_table_class()(_Rows(n, cells, widths, head, base_cmds, head_cmds, row_cmds, first_head), 0)


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
            for f in (v if isinstance(v, (list, tuple)) else [v]):
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
        from reportlab.platypus import Table, TableStyle

        head = self.first_head if start == 0 else self.head
        off = 1 if head is not None else 0
        data = ([head] if head is not None else [])
        hs = ([self.header_height(start == 0)] if head is not None else [])
        cmds = list(self.base_cmds) + (list(self.head_cmds) if head is not None else [])
        for r in range(start, end):
            data.append(self.made.pop(r, None) or self.cells(r))
            hs.append(self.height(r))
            cmds += self.row_cmds(r, r - start + off)
        t = Table(data, colWidths=self.widths, rowHeights=hs, hAlign="LEFT")
        t.setStyle(TableStyle(cmds))
        return t


_LONG_TABLE = None


def _long_table_class():
    global _LONG_TABLE
    if _LONG_TABLE is not None:
        return _LONG_TABLE
    from reportlab.platypus import Flowable

    class LongTable(Flowable):
        """Rows ``start``.. of a long table (see :func:`long_table`)."""

        def __init__(self, rows: _Rows, start: int):
            super().__init__()
            self.rows, self.start = rows, start
            self.hAlign = "LEFT"
            self._table = None

        def wrap(self, aw, ah):
            end, used = self.rows.fit(self.start, ah)
            self.width = sum(self.rows.widths)
            if end < self.rows.n:          # does not all fit: the frame splits it
                self._table = None
                return self.width, max(ah, used) + 1.0
            self._table = self.rows.chunk(self.start, end)
            self.height = self._table.wrap(aw, ah)[1]
            return self.width, self.height

        def split(self, aw, ah):
            end, _ = self.rows.fit(self.start, ah)
            if end == self.start:
                return []
            return [self.rows.chunk(self.start, end), LongTable(self.rows, end)]

        def draw(self):
            self._table.drawOn(self.canv, 0, 0)

    _LONG_TABLE = LongTable
    return LongTable


def bullets(items: Iterable[Any], st: Styles):
    from reportlab.platypus import Paragraph

    return [Paragraph(esc(i), st.bullet, bulletText="\u2022") for i in items]


def keep(*flows):
    """The flowables on one page when they fit; when they do not (a stacked table on small
    paper), what follows a stacked table (its source note) stays with the table's last row."""
    from reportlab.platypus import KeepTogether

    flows = [f for f in flows if f is not None]
    seqs = [i for i, f in enumerate(flows) if isinstance(f, _seq_class())]
    if seqs and seqs[-1] < len(flows) - 1:
        seq = flows[seqs[-1]]
        seq.tail = seq.tail + flows[seqs[-1] + 1:]
        seq._flows = None
        flows = flows[:seqs[-1] + 1]
    return KeepTogether(flows)


# -- page building --------------------------------------------------------------------

@dataclass
class PageSpec:
    """Everything printed around the flowing content."""

    title: str
    kind: str                       # "roster", "setup sheet", "player aid"
    system: str
    result: Any = None              # CheckResult (footer: legal or the findings)
    share_code: str | None = None
    footer_note: str | None = None  # e.g. the rulebook file of an aid
    paper: Any = "a4"               # (w, h) mm or a paper name
    columns: int = 1
    author: str | None = None
    list_file: str | None = None    # the list as the user names it (for "daimyo export LIST --to code")


def paper_mm(paper) -> tuple[float, float]:
    """Paper (w, h) in mm from a tuple or a name (a4, letter, WxH)."""
    if isinstance(paper, (tuple, list)) and len(paper) == 2:
        return float(paper[0]), float(paper[1])
    from builder.render.layout import paper_size

    return paper_size(paper or "a4")


def frame_width_mm(paper="a4", columns: int = 1, gap_mm: float = 6.0) -> float:
    from builder.render.pdfbase import page_margins

    size = paper_mm(paper)
    left, right, _, _ = page_margins(size)
    inner = size[0] - left - right
    return (inner - gap_mm * (columns - 1)) / columns


# -- small paper ----------------------------------------------------------------------------

COMPACT_WIDTH_MM = 110.0   # a body narrower than this prints tables as stacked rows
COMPACT_HEIGHT_MM = 60.0   # ... and so does a body lower than this (a row must fit a page)
MIN_SCALE = 0.8            # type shrinks with the paper's width down to this factor

_COMPACT: "contextvars.ContextVar[bool]" = contextvars.ContextVar("daimyo_compact_tables", default=False)


@contextlib.contextmanager
def compact_tables(on: bool):
    """Within the block, :func:`table` prints every table as stacked rows (each row a few
    paragraphs that may continue on the next page): for paper too small for columns."""
    token = _COMPACT.set(bool(on))
    try:
        yield
    finally:
        _COMPACT.reset(token)


def spec_footer(spec: "PageSpec") -> list:
    """The footer lines of a document described by ``spec``."""
    from builder.render import pdfbase

    return pdfbase.footer_lines(spec.result, spec.share_code,
                                extra=[spec.footer_note, f"{spec.kind}: {spec.title}"], list_name=spec.list_file)


def small_paper_layout(paper, nominal: float, footer: list[str] = (), columns: int = 1) -> tuple[float, bool]:
    """(font size, compact) for a flowing document on ``paper``: the type shrinks with a body
    narrower than A4's (down to ``MIN_SCALE``), and a body too narrow or too low for table
    columns prints its tables as stacked rows."""
    from builder.render.pdfbase import frame_size

    w, h = frame_size(paper_mm(paper), list(footer))
    col = (w - 6.0 * (columns - 1)) / max(1, columns)
    scale = max(MIN_SCALE, min(1.0, col / 186.0 if columns == 1 else col / 90.0))
    return round(nominal * scale, 2), (col < COMPACT_WIDTH_MM and columns == 1
                                       or col < COMPACT_WIDTH_MM / 2 or h < COMPACT_HEIGHT_MM)


def result_lines(result) -> list[str]:
    """The validation result as printed at the end of a document (legal, or each finding)."""
    if result is None:
        return []
    c = result.counts()
    head = ("legal" if result.legal else "NOT LEGAL") + \
        f" ({c['error']} error{'s' * (c['error'] != 1)}, {c['warning']} warning{'s' * (c['warning'] != 1)})"
    out = [f"daimyo check: {head}"]
    from builder.rulebooks import format_source

    for f in result.findings:
        if f.severity == "info":
            continue
        out.append(f"{f.severity} {f.code}: {f.message}"
                   + (f" ({format_source(f.source, inline=True)})" if f.source else ""))
    return out


LONG_TABLE_ROWS = 8      # a table longer than this may start on one page and go on on the next
HEADING_ROOM_MM = 40.0   # room a heading needs below it to start such a table on this page


def join_headings(story: list) -> list:
    """Keep each heading with what follows it.

    platypus' ``keepWithNext`` does not join a heading to a following ``KeepTogether``,
    so headings (paragraphs whose style says keepWithNext) are moved inside it. A heading
    followed by a long table (more than ``LONG_TABLE_ROWS`` rows, which may split with its
    header repeated) is not glued to the whole table, which would push all of it to the
    next page and leave the rest of this one empty: it only needs room for its first rows
    (``CondPageBreak``).
    """
    from reportlab.platypus import CondPageBreak, KeepTogether, Table

    out: list = []
    pending: list = []
    for f in story:
        style = getattr(f, "style", None)
        if style is not None and getattr(style, "keepWithNext", 0) and hasattr(f, "frags"):
            pending.append(f)
            continue
        if pending:
            if (isinstance(f, Table) and len(getattr(f, "_cellvalues", ())) > LONG_TABLE_ROWS
                    or isinstance(f, _long_table_class())
                    or isinstance(f, _seq_class()) and f.n > LONG_TABLE_ROWS // 2):
                out.append(CondPageBreak(HEADING_ROOM_MM * MM))
                for h in pending:
                    h.keepWithNext = 0
                    out.append(h)
                out.append(f)
                pending = []
                continue
            if isinstance(f, KeepTogether):
                f = KeepTogether(pending + list(f._content))
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
    from reportlab.platypus import KeepTogether, Paragraph

    out: list = []
    for f in story:
        is_note = isinstance(f, Paragraph) and getattr(getattr(f, "style", None), "name", "") == "source"
        if not is_note or not out:
            out.append(f)
            continue
        prev = out[-1]
        if isinstance(prev, KeepTogether):
            out[-1] = keep(*prev._content, f)
        elif isinstance(prev, (Paragraph, _seq_class())):
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
    from builder.render import pdfbase

    paper = paper_mm(spec.paper)
    given, story = story, join_headings(glue_source_notes([f for f in story if f is not None]))  # a source line left out is None
    # laying out consumes the story: the caller's list lets go of each flowable once it is on a
    # page (a long table or a long finding is not kept whole, with its layout, to the end)
    given.clear()
    from builder.render import fonts

    for problem in fonts.check_glyphs([("the list", "name", spec.title or "")]):
        pdfbase.warn(problem.message())
    lines = spec_footer(spec)
    subject = f"{spec.system} {spec.kind}"
    if max(1, spec.columns) == 1:
        return pdfbase.build_story(out_path, story, paper, title=spec.title, author=spec.author,
                                   subject=subject, footer_lines=lines, force=force)
    return _build_columns(out_path, story, spec, paper, lines, subject, force)


def _build_columns(out_path, story, spec: PageSpec, paper, lines, subject, force) -> Path:
    from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

    from builder.render import pdfbase
    from builder.yamlio import atomic_write

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
    frames = [Frame(m + i * (fw + gap), bottom, fw, fh, leftPadding=0, rightPadding=0,
                    topPadding=0, bottomPadding=0, id=f"col{i}") for i in range(cols)]

    def maker(target, **kw):
        return pdfbase.make_canvas(target, paper, spec.title, spec.author, subject, None, number_pages=True)

    def decorate(canv, doc):
        pdfbase.draw_footer(canv, paper, lines, margin=left, right=pdfbase.page_label(canv.getPageNumber()))
        pdfbase.draw_page_ruler(canv, paper, right=left)

    buf = io.BytesIO()
    doc = BaseDocTemplate(buf, pagesize=(pw, ph), title=spec.title, author=spec.author or "daimyo",
                          invariant=1, leftMargin=m, rightMargin=m, topMargin=top * MM, bottomMargin=bottom)
    doc.addPageTemplates([PageTemplate(id="cols", frames=frames, onPage=decorate)])
    doc.build(story, canvasmaker=maker)
    atomic_write(out, buf.getvalue(), force=force)
    return out


def page_count(path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(str(path)).pages)


# -- player aids ----------------------------------------------------------------------

def _templates_dir() -> Path:
    from builder.paths import templates_dir

    return templates_dir() / "aids"


def load_aid_template(system: str) -> tuple[dict, Any, str]:
    """The aid template of ``system``: (data, positions, file)."""
    from builder.yamlio import load_yaml

    from builder.systems import get, is_system

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
    from builder.rules.kensei import hand_size

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
    from builder.rules.senji import setup_table

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
