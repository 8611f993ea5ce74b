"""The PDF base every printed document uses. The only module that creates reportlab canvases.

Two ways to write a PDF:

1. Absolute drawing (card sheets, test sheets)::

       from builder.kit.pdfbase import PdfJob
       with PdfJob(out_path, paper=(210, 297), title="Deck", duplex="long", force=False) as job:
           c = job.canvas                 # a reportlab Canvas, units = points, origin bottom-left
           job.ruler(10, 8)               # 50 mm scale bar at (10 mm, 8 mm)
           job.footer(["daimyo check: legal"])
           job.new_page()
           ...
       job.path                           # the written file (atomic write on leaving the block)

   Leaving the block writes the file atomically (``yamlio.atomic_write``); an existing
   file is refused unless ``force``. When the block raises, nothing is written.

2. Flowing documents (rosters, setup sheets, player aids) with platypus::

       from builder.kit.pdfbase import build_story
       path = build_story(out_path, story, paper=(210, 297), title="Roster",
                          footer_lines=footer_lines(result, share), force=False)

   ``build_story`` builds a ``BaseDocTemplate`` with one frame inside the margins and
   draws the footer and the 50 mm ruler on every page.

Common to both: ``invariant=1`` (same input, byte-identical PDF), no ASCII85, page
compression on, PDF 1.7 header with the viewer preferences ``/PrintScaling /None`` and
``/Duplex`` (``DuplexFlipLongEdge``/``DuplexFlipShortEdge`` for duplex jobs, ``Simplex``
otherwise), the bundled fonts registered (``fonts.REGULAR``/``BOLD``/``CONDENSED``), and
a progress bar on stderr when stderr is a terminal and the job has more than
``PROGRESS_MIN_PAGES`` pages.

Helpers: :func:`footer_lines` (the ``daimyo check`` result and the share code as
footer text), :func:`validation_lines`, :func:`draw_text_box`
(fit, never overflow, warn), :func:`warn` (one ``daimyo: warning:`` line on stderr).
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import segno
from reportlab import rl_config
from reportlab.graphics import shapes
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

from builder import state, yamlio
from builder.i18n import N_, _, ngettext
from builder.kit import fonts
from builder.kit.layout import MIN_MARGIN, pt
from builder.kit.rladapter import append_operators, held_pages_canvas_class, run_before_save
from builder.paths import display_path
from builder.yamlio import refuse_output

PROGRESS_MIN_PAGES = 5
FOOTER_SIZE = 6.5  # pt
RULER_LENGTH = 50.0  # mm
RULER_LABEL = N_("{length:g} mm: print at 100 % (actual size)")  # translated where drawn: ruler_text

_DUPLEX = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", None: "Simplex"}


def _configure() -> None:
    rl_config.useA85 = 0  # binary streams: smaller and much faster
    rl_config.invariant = 1
    fonts.register_fonts()
    # a chart (reportlab.graphics drawing) starts from these defaults: its opening text state
    # would otherwise name Helvetica, a font no PDF of ours embeds

    shapes.STATE_DEFAULTS["fontName"] = fonts.REGULAR


def warn(message: str, stream=None) -> None:
    """One warning line on stderr: ``daimyo: warning: MESSAGE``; inside :func:`collect_warnings`
    the message goes to its list instead (a server shows it on the page)."""
    sink = _WARNINGS.get()
    if sink is not None and stream is None:
        if message not in sink:
            sink.append(message)
        return
    (stream or sys.stderr).write(f"daimyo: warning: {message}\n")


_WARNINGS: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("daimyo_print_warnings", default=None)


@contextlib.contextmanager
def collect_warnings():
    """The warnings of the printing done in this block, in a list (each once), not on stderr."""
    sink: list[str] = []
    token = _WARNINGS.set(sink)
    try:
        yield sink
    finally:
        _WARNINGS.reset(token)


def make_canvas(
    target,
    paper: tuple[float, float],
    title: str = "",
    author: str | None = None,
    subject: str | None = None,
    duplex: str | None = None,
    number_pages: bool = False,
):
    """A reportlab Canvas with the project's settings writing into ``target`` (file or BytesIO).

    Used by :class:`PdfJob` and :func:`build_story`; other modules do not create canvases.
    With ``number_pages`` the pages are kept until the document is saved, so that
    :func:`draw_footer`'s page number can read "page N of M".
    """
    _configure()

    cls = _numbered_canvas_class() if number_pages else Canvas
    c = cls(
        target,
        pagesize=(pt(paper[0]), pt(paper[1])),
        invariant=1,
        pageCompression=1,
        initialFontName=fonts.REGULAR,
        initialFontSize=9,
        pdfVersion=(1, 7),
    )
    _decorate(c, title, author, subject, duplex)
    extra = _APPENDIX.get()
    if extra is not None:  # pages asked for with appendix(): drawn when the document is saved
        run_before_save(c, lambda: extra(c, paper))
    return c


_APPENDIX: contextvars.ContextVar[Callable | None] = contextvars.ContextVar("daimyo_pdf_appendix", default=None)


@contextlib.contextmanager
def appendix(draw: Callable):
    """Every PDF made in this block ends with the pages ``draw(canvas, paper)`` adds (each ended with
    ``canvas.showPage()``), e.g. the statistics pages of ``daimyo print --stats``."""
    prev = _APPENDIX.get()
    if prev is not None:  # an appendix inside another: its pages first, then the outer one's

        def both(c, paper, inner=draw, outer=prev):
            inner(c, paper)
            outer(c, paper)

        draw = both
    token = _APPENDIX.set(draw)
    try:
        yield
    finally:
        _APPENDIX.reset(token)


def _stamp_page_number(c, n: int, total: int) -> None:
    if c.page_number_at:
        x, y, size = c.page_number_at
        c.saveState()
        c.setFillColorRGB(0.15, 0.15, 0.15)
        c.setFont(fonts.REGULAR, size)
        c.drawRightString(x, y, page_label(n, total))
        c.restoreState()


_NUMBERED = None  # a Canvas class to use instead (tests compare with holding every page as drawn)


def _numbered_canvas_class():
    """A Canvas that holds its pages back until ``save`` to print "page N of M" on each."""
    if _NUMBERED is not None:
        return _NUMBERED

    return held_pages_canvas_class(_stamp_page_number)


def page_label(n: int, total: int | None = None) -> str:
    """``page 2 of 3`` (or ``page 2`` when the total is not known)."""
    return _("page {n} of {total}").format(n=n, total=total) if total else _("page {n}").format(n=n)


def _decorate(c, title, author, subject, duplex) -> None:
    c.setTitle(title or "daimyo")
    c.setAuthor(author or "daimyo")
    c.setCreator("daimyo")
    c.setProducer("daimyo (reportlab)")
    if subject:
        c.setSubject(subject)
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", _DUPLEX.get(duplex, "Simplex"))


class Progress:
    """A one-line progress bar on stderr, only when stderr is a terminal and the job is long."""

    def __init__(self, total: int, label: str = "printing", stream=None):
        self.stream = stream or sys.stderr
        self.total = total
        self.label = label
        self.done = 0
        try:
            tty = self.stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        self.active = bool(tty and total > PROGRESS_MIN_PAGES)

    def step(self, n: int = 1) -> None:
        self.done += n
        if not self.active:
            return
        width = 30
        filled = int(width * min(self.done, self.total) / max(1, self.total))
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {min(self.done, self.total)}/{self.total} pages"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.active:
            self.stream.write("\n")
            self.stream.flush()


class PdfJob:
    """One PDF drawn on an absolute canvas; written atomically when the job ends.

    Attributes: ``canvas`` (reportlab Canvas), ``paper`` (w, h mm), ``page`` (1-based
    number of the page being drawn), ``path`` (output path), ``warnings`` (messages
    already written to stderr).
    """

    def __init__(
        self,
        out_path,
        paper: tuple[float, float],
        title: str = "",
        author: str | None = None,
        subject: str | None = None,
        duplex: str | None = None,
        force: bool = False,
        total_pages: int | None = None,
        label: str = "printing",
    ):
        self.path = Path(out_path)
        refuse_output(out_path, force)
        self.force = force
        self.paper = paper
        self.buffer = io.BytesIO()
        self.canvas = make_canvas(self.buffer, paper, title, author, subject, duplex)
        self.page = 1
        self.warnings: list[str] = []
        self.progress = Progress(total_pages or 0, label)
        self._closed = False

    # -- pages ----------------------------------------------------------------
    def new_page(self) -> None:
        """Finish the current page and start the next."""
        self.canvas.showPage()
        self.page += 1
        self.progress.step()

    def finish(self) -> Path:
        """End the last page, save, write the file atomically. Returns the path."""
        if self._closed:
            return self.path
        self.canvas.showPage()
        self.progress.step()
        self.canvas.save()
        self.progress.close()
        yamlio.atomic_write(self.path, self.buffer.getvalue(), force=self.force)
        self._closed = True
        return self.path

    def __enter__(self) -> PdfJob:
        return self

    def __exit__(self, exc_type, exc, tb) -> Literal[False]:
        if exc_type is None:
            self.finish()
        else:
            self.progress.close()
        return False

    # -- chrome ---------------------------------------------------------------
    def warn(self, message: str) -> None:
        """Report a problem once per job (stderr)."""
        if message not in self.warnings:
            self.warnings.append(message)
            warn(message)

    def ruler(self, x: float, y: float) -> None:
        """50 mm scale bar with its bottom-left corner at (x, y) mm."""
        draw_ruler(self.canvas, x, y)

    def footer(self, lines: list[str], y: float = 2.5 + 0.0, margin: float = MIN_MARGIN) -> None:
        """Footer text lines from the bottom margin up (fitted to the page width)."""
        draw_footer(self.canvas, self.paper, lines, margin=margin, warn=self.warn)


# -- chrome drawing -------------------------------------------------------------------


def draw_ruler(
    c, x: float, y: float, length: float = RULER_LENGTH, label_below: bool = False, label: bool = True
) -> None:
    """A ``length`` mm bar with mm ticks (long every 10 mm) and the label to print at 100 %
    (right of the bar, or under its start with ``label_below``).

    Takes 4 mm of height above ``y`` plus a 2 mm label row.
    """
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    c.line(pt(x), pt(y), pt(x + length), pt(y))
    for i in range(int(length) + 1):
        h = 3.0 if i % 10 == 0 else (2.0 if i % 5 == 0 else 1.2)
        c.line(pt(x + i), pt(y), pt(x + i), pt(y + h))
    c.setFont(fonts.REGULAR, 5.5)
    c.setFillColorRGB(0, 0, 0)
    if not label:
        pass
    elif label_below:
        c.drawString(pt(x), pt(y - 2.6), ruler_text(length))
    else:
        c.drawString(pt(x + length + 1.5), pt(y + 0.3), ruler_text(length))
    c.restoreState()


def draw_marks(c, segments, ink_saver: bool = False, grey: bool = False) -> None:
    c.saveState()
    if grey:  # full-length cut lines run over the cards: thin and grey
        c.setStrokeColorRGB(0.55, 0.55, 0.55)
        c.setLineWidth(pt(0.1))
    else:
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(pt(0.15))
    for s in segments:
        c.line(pt(s.x0), pt(s.y0), pt(s.x1), pt(s.y1))
    c.restoreState()


def ruler_text(length: float = RULER_LENGTH) -> str:
    """A ruler's label in the current language."""
    return _(RULER_LABEL).format(length=length)


def ruler_label_width(length: float = RULER_LENGTH) -> float:
    """Width (mm) of a ruler's label."""
    return fonts.string_width(ruler_text(length), fonts.REGULAR, 5.5) / pt(1)


FOOTER_BASE = 6.0  # mm from the page's bottom edge to the last footer line (printers leave ~4 mm blank)
SHARE_PREFIX = N_("share code: ")


def share_prefix() -> str:
    """``share code: `` in the current language."""
    return _(SHARE_PREFIX)


class SharedCode(str):
    """A share code with what its printed QR code carries: a link that opens the list when a
    viewer is configured (``qr``), else the code itself. Passed wherever a share code goes."""

    qr: str = ""

    @classmethod
    def of(cls, code: str, qr: str | None = None) -> SharedCode:
        shared = cls(code)
        shared.qr = qr or code
        return shared


def qr_text(code: str) -> str:
    """What the QR code of a printed share code carries (see :class:`SharedCode`)."""
    return getattr(code, "qr", "") or str(code)


def is_link(text: str) -> bool:
    return text.startswith(("http://", "https://"))


class ShareLine(str):
    """A footer line holding the list's share code. Drawn in full: wrapped onto a second
    line in smaller type rather than cut (a cut code is useless); when even that does not
    fit, ``fallback`` (how to get the code) is printed instead."""

    code: str = ""
    fallback: str = ""

    @classmethod
    def make(cls, code: str, list_name: str | None = None) -> ShareLine:
        line = cls(share_prefix() + code)
        line.code = code
        line.fallback = _("share code: run daimyo export {list} --to code").format(list=list_name or "LIST")
        return line


@dataclass
class FooterRow:
    """One drawn footer line: text, font size, and indent (points) from the left edge."""

    text: str
    size: float
    indent: float = 0.0


def footer_rows(
    text: str,
    width: float,
    size: float = FOOTER_SIZE,
    min_size: float = 4.5,
    font: str = fonts.CONDENSED,
    max_share_lines: int = 2,
) -> list[FooterRow]:
    """The rows a footer line takes in ``width`` points.

    An ordinary line is one row, shrunk down to ``min_size`` and cut with an ellipsis as a
    last resort. A :class:`ShareLine` is never cut: one row if it fits, else up to
    ``max_share_lines`` rows (the code continues under its first character), else its
    fallback text.
    """
    text_p = fonts.printable(str(text), font)
    if isinstance(text, ShareLine) and text.code:
        s = size
        while s >= min_size - 1e-9:
            if fonts.string_width(text_p, font, s) <= width:
                return [FooterRow(text_p, s)]
            s = round(s - 0.5, 3)
        indent = fonts.string_width(share_prefix(), font, min(size, 5.0))
        s = min(size, 5.0)
        while s >= min_size - 1e-9:
            indent = fonts.string_width(share_prefix(), font, s)
            rows = _split_code(text.code, font, s, width - indent, max_share_lines)
            if rows is not None:
                out = [FooterRow(share_prefix() + rows[0], s)]
                out.extend(FooterRow(r, s, indent) for r in rows[1:])
                return out
            s = round(s - 0.5, 3)
        text_p = text.fallback or text_p
    fit = fonts.fit_text(text_p, width, size * 1.3, font, size, min_size, wrap=False)
    return [FooterRow(fit.lines[0] if fit.lines else "", fit.size)]


def _split_code(code: str, font: str, size: float, width: float, max_lines: int) -> list[str] | None:
    """``code`` cut into at most ``max_lines`` pieces no wider than ``width`` points, or None."""
    rows, cur = [], ""
    for ch in code:
        if cur and fonts.string_width(cur + ch, font, size) > width:
            rows.append(cur)
            cur = ""
            if len(rows) >= max_lines:
                return None
        cur += ch
    rows.append(cur)
    return rows if len(rows) <= max_lines else None


def draw_footer(
    c,
    paper: tuple[float, float],
    lines: list[str],
    margin: float = MIN_MARGIN,
    size: float = FOOTER_SIZE,
    warn: Callable[[str], None] | None = None,
    right: str = "",
    base: float = FOOTER_BASE,
    max_share_lines: int = 3,
) -> float:
    """Footer lines from ``base`` mm above the bottom edge upwards; returns the height used (mm).

    Each line is shrunk to fit the width (down to 4.5 pt) and cut with an ellipsis if
    still too long, except the share code (:class:`ShareLine`), which wraps onto up to
    ``max_share_lines`` lines (the bottom band of 18 mm holds five footer lines). ``right``
    (e.g. ``page 2``) goes at the right of the first line; on a canvas made with
    ``number_pages`` it becomes ``page 2 of 3``.
    """
    width = pt(paper[0] - 2 * margin)
    lines = [x for x in lines if x]
    right_w = fonts.string_width(right + " of 999", fonts.REGULAR, size) + 6 if right else 0
    rows: list[FooterRow] = []
    for i, text in enumerate(lines):
        rows.extend(footer_rows(text, width - (right_w if i == 0 else 0), size, max_share_lines=max_share_lines))
    c.saveState()
    c.setFillColorRGB(0.15, 0.15, 0.15)
    y = pt(base)
    first_y = y
    # bottom line first: draw in reverse so the first line is on top
    for row in reversed(rows):
        c.setFont(fonts.CONDENSED, row.size)
        c.drawString(pt(margin) + row.indent, y, row.text)
        first_y = y
        y += max(row.size, 4.0) * 1.25
    if right:
        if hasattr(c, "page_number_at"):
            c.page_number_at = (pt(paper[0] - margin), first_y, size)
        else:
            c.setFont(fonts.REGULAR, size)
            c.drawRightString(pt(paper[0] - margin), first_y, right)
    c.restoreState()
    return base + (y - pt(base)) / pt(1)


def footer_height(
    paper: tuple[float, float],
    lines: list[str],
    margin: float = MIN_MARGIN,
    size: float = FOOTER_SIZE,
    right: str = "",
    base: float = FOOTER_BASE,
    max_share_lines: int = 3,
) -> float:
    """Height (mm from the bottom edge) that :func:`draw_footer` takes with these arguments."""
    width = pt(paper[0] - 2 * margin)
    lines = [x for x in lines if x]
    right_w = fonts.string_width(right + " of 999", fonts.REGULAR, size) + 6 if right else 0
    used = 0.0
    for i, text in enumerate(lines):
        for row in footer_rows(text, width - (right_w if i == 0 else 0), size, max_share_lines=max_share_lines):
            used += max(row.size, 4.0) * 1.25
    return base + used / pt(1)


def ruler_fits(paper: tuple[float, float], right: float = 12.0) -> bool:
    """Whether the 50 mm ruler and its label fit across the paper (5 mm from each edge)."""
    label_w = fonts.string_width(RULER_LABEL.format(length=RULER_LENGTH), fonts.REGULAR, 5.5) / pt(1)
    return paper[0] - right - label_w - 1.5 - RULER_LENGTH >= MIN_MARGIN


def draw_page_ruler(c, paper: tuple[float, float], right: float = 12.0, top: float = 7.0) -> None:
    """The 50 mm ruler at the top of a document page, its label ending ``right`` mm from the
    right edge, the ticks' tops ``top`` mm below the top edge (inside any printer's margin).
    Left out on paper too narrow for it (the page then says nothing about scale)."""
    if not ruler_fits(paper, right):
        return
    label_w = fonts.string_width(RULER_LABEL.format(length=RULER_LENGTH), fonts.REGULAR, 5.5) / pt(1)
    draw_ruler(c, paper[0] - right - label_w - 1.5 - RULER_LENGTH, paper[1] - top - 3.0)


SMALL_PAPER_MM = 148.0  # a side shorter than this (A6, index cards): narrower margins


def page_margins(paper: tuple[float, float]) -> tuple[float, float, float, float]:
    """(left, right, top, bottom) mm of a flowing document on ``paper``: 12/12/12/18 mm, with
    6 mm sides on small paper (still outside every printer's unprintable band of about 4.2 mm).
    The bottom grows to hold the footer lines (see :func:`build_story`)."""
    if min(paper) < SMALL_PAPER_MM:
        side = 6.0
        return side, side, 12.0 if ruler_fits(paper, side) else 7.0, 18.0
    return 12.0, 12.0, 12.0, 18.0


def frame_size(paper: tuple[float, float], footer: Iterable[str] = (), margins=None) -> tuple[float, float]:
    """(width, height) mm of the body of a flowing document on ``paper`` with these footer lines."""
    left, right, top, bottom = margins or page_margins(paper)
    flines = [x for x in footer if x]
    share = share_of(flines)
    qr = qr_size(qr_text(share.code)) if share is not None and _qr_fits(paper, qr_text(share.code)) else 0.0
    if qr:
        bottom = max(bottom, QR_EDGE + qr + 1.0)
    fw = paper[0] - (qr + 2.0 if qr else 0.0)
    bottom = max(bottom, footer_height((fw, paper[1]), flines, margin=left, right="page 99"))
    return paper[0] - left - right, paper[1] - top - bottom


def _qr_fits(paper: tuple[float, float], code: str) -> bool:
    """The QR code goes on pages where it leaves room: not on paper under 3 codes high or wide."""
    return qr_size(code) * 3 <= min(paper)


def draw_text_box(
    c,
    text: str,
    box: tuple[float, float, float, float],
    font: str = fonts.REGULAR,
    size: float = 9.0,
    min_size: float = 5.0,
    align: str = "left",
    valign: str = "top",
    wrap: bool = True,
    leading: float = 1.18,
    what: str = "",
    warn: Callable[[str], None] | None = None,
) -> fonts.Fit:
    """Draw ``text`` fitted into ``box`` = (x, y, w, h) in **points** (bottom-left corner).

    Shrinks down to ``min_size``; when it still does not fit, draws the lines that fit
    (ending in an ellipsis) and calls ``warn`` with a message naming ``what``.
    Characters the font lacks are drawn as '?' (check them first with
    ``fonts.check_glyphs`` to report them properly). Returns the Fit.
    """
    x, y, w, h = box
    text = fonts.printable("" if text is None else str(text), font)
    fit = fonts.fit_text(text, w, h, font, size, min_size, leading=leading, wrap=wrap)
    if fit.overflow and warn:
        warn(
            _("{what} does not fit its box even at {size} pt; cut after '{tail}' ({n} line(s) dropped)").format(
                what=what or _("text"), size=f"{fit.size:g}", tail=_tail(fit.lines), n=len(fit.dropped)
            )
        )
    elif fit.shrunk and warn and fit.size < size - 1.99:
        pass  # small shrinks are normal and silent
    if not fit.lines:
        return fit
    block = fit.height
    ascent = fit.size * 0.76
    if valign == "middle":
        top = y + (h + block) / 2
    elif valign == "bottom":
        top = y + block
    else:
        top = y + h
    c.setFont(font, fit.size)
    cy = top - (fit.leading - fit.size) / 2 - ascent
    for line in fit.lines:
        if align == "center":
            c.drawCentredString(x + w / 2, cy, line)
        elif align == "right":
            c.drawRightString(x + w, cy, line)
        else:
            c.drawString(x, cy, line)
        cy -= fit.leading
    return fit


def _tail(lines: list[str]) -> str:
    last = lines[-1] if lines else ""
    return last[-24:]


# -- flowing documents -------------------------------------------------------------


def build_story(
    out_path,
    story: list,
    paper: tuple[float, float],
    title: str = "",
    author: str | None = None,
    subject: str | None = None,
    footer_lines: Iterable[str] = (),
    margins: tuple[float, float, float, float] | None = None,
    ruler: bool = True,
    force: bool = False,
    page_numbers: bool = True,
    on_page: Callable | None = None,
    duplex: str | None = None,
    _to_buffer: bool = False,
) -> Path:
    """Build a platypus story into ``out_path`` atomically; returns the path.

    ``margins`` = (left, right, top, bottom) mm, default 12/12/12/18 (the bottom band
    holds the footer lines and the 50 mm ruler). ``on_page(canvas, doc)`` is called on
    every page after the footer is drawn. An existing file is refused unless ``force``.
    """
    _configure()

    path = out_path if _to_buffer else Path(out_path)  # _to_buffer: a BytesIO (a layout pass)
    if not _to_buffer:
        refuse_output(out_path, force)
    left, right, top, bottom = margins or page_margins(paper)
    flines = [x for x in footer_lines if x]
    share = share_of(flines)
    qr = qr_size(qr_text(share.code)) if share is not None and _qr_fits(paper, qr_text(share.code)) else 0.0
    if qr:  # the QR code of the share code (or its link) sits at the bottom right of every page
        bottom = max(bottom, QR_EDGE + qr + 1.0)
    # the footer lines (the share code wraps on narrow paper) stay below the body
    bottom = max(
        bottom,
        footer_height(
            (paper[0] - (qr + 2.0 if qr else 0.0), paper[1]),
            flines,
            margin=left,
            right="page 99" if page_numbers else "",
        ),
    )
    buf = io.BytesIO()

    def maker(target, **kw):
        kw.pop("invariant", None)
        c = make_canvas(target, paper, title, author, subject, duplex, number_pages=page_numbers)
        return c

    def decorate(canv, doc):
        if qr and share is not None:
            draw_qr(canv, qr_text(share.code), paper[0] - right - qr, QR_EDGE, qr)
        draw_footer(
            canv,
            (paper[0] - (qr + 2.0 if qr else 0.0), paper[1]),
            flines,
            margin=left,
            right=page_label(canv.getPageNumber()) if page_numbers else "",
        )
        if ruler:
            draw_page_ruler(canv, paper, right=right)
        if on_page:
            on_page(canv, doc)

    doc = BaseDocTemplate(
        buf,
        pagesize=(pt(paper[0]), pt(paper[1])),
        title=title or "daimyo",
        author=author or "daimyo",
        invariant=1,
        leftMargin=pt(left),
        rightMargin=pt(right),
        topMargin=pt(top),
        bottomMargin=pt(bottom),
    )
    frame = Frame(
        pt(left),
        pt(bottom),
        pt(paper[0] - left - right),
        pt(paper[1] - top - bottom),
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
        id="body",
    )
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=decorate)])
    doc.build(story, canvasmaker=maker)
    if _to_buffer:
        out_path.write(buf.getvalue())
        return out_path
    yamlio.atomic_write(path, buf.getvalue(), force=force)
    return path


# -- validation result and share code for footers -----------------------------------


def validation_lines(result, limit: int = 3) -> list[str]:
    """Footer text for a ``builder.findings.CheckResult``.

    ``daimyo check: legal`` or ``daimyo check: ILLEGAL (2 errors, 1 warning): CODE message; ...``
    with at most ``limit`` findings spelt out (errors first).
    """
    if result is None:
        return []
    counts = result.counts()
    errs, warns = counts.get("error", 0), counts.get("warning", 0)
    if result.legal:
        head = _("daimyo check: legal")
        if warns:
            head += " (" + ngettext("{n} warning", "{n} warnings", warns).format(n=warns) + ")"
    else:
        head = _("daimyo check: ILLEGAL ({errors}, {warnings})").format(
            errors=ngettext("{n} error", "{n} errors", errs).format(n=errs),
            warnings=ngettext("{n} warning", "{n} warnings", warns).format(n=warns),
        )
    shown = [f for f in result.findings if f.severity in ("error", "warning")][:limit]
    if not shown:
        return [head]
    more = len([f for f in result.findings if f.severity in ("error", "warning")]) - len(shown)
    detail = "; ".join(f"{f.code}: {f.message}" for f in shown) + (
        "; " + _("and {n} more").format(n=more) if more > 0 else ""
    )
    return [head + ": " + detail]


def list_display_name(doc) -> str | None:
    """The list file as a user would type it (relative to the current folder when inside it)."""
    f = getattr(doc, "file", None)
    if not f or str(f).startswith("<"):
        return None

    return display_path(f)


def footer_lines(
    result=None, share_code: str | None = None, extra: Iterable[str | None] = (), list_name: str | None = None
) -> list[str]:
    """Footer lines: the validation result, the share code (a :class:`ShareLine`, drawn in
    full or replaced by how to get it: ``daimyo export LIST --to code`` with ``list_name``),
    then ``extra`` lines."""
    out = list(validation_lines(result))
    if share_code:
        out.append(ShareLine.make(share_code, list_name))
    out.extend(x for x in extra if x)
    return out


# -- QR codes ---------------------------------------------------------------------------

QR_MODULE = 0.4  # mm: a module reads from paper by phone and from a 150 dpi scan
QR_EDGE = 5.0  # mm from the page's bottom edge to the QR code (printers leave ~4.2 mm blank)
QR_BORDER = 4  # modules of quiet zone drawn (white) around the symbol, as ISO/IEC 18004 asks


@state.memo("pdf.qr_codes", bound=256, lifetime=state.VALUE, doc="the QR symbol of a share code")
def qr_matrix(code: str):
    """The QR symbol of ``code`` (segno, error correction L, no micro codes): rows of booleans."""
    q = segno.make(code, error="l", micro=False, boost_error=False)
    return tuple(tuple(bool(v) for v in row) for row in q.matrix)


def qr_size(code: str, module: float = QR_MODULE) -> float:
    """Printed width (mm) of the QR code of ``code`` with its quiet zone."""
    return (len(qr_matrix(code)) + 2 * QR_BORDER) * module


def draw_qr(c, code: str, x: float, y: float, size: float) -> None:
    """The QR code of ``code`` in the square (x, y, size) mm, quiet zone included (white)."""
    m = qr_matrix(code)
    n = len(m) + 2 * QR_BORDER
    mod = pt(size) / n
    c.saveState()
    c.setFillColorRGB(1, 1, 1)
    c.rect(pt(x), pt(y), pt(size), pt(size), stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    # one path of run-length rectangles, written as PDF operators directly (thousands of
    # modules: reportlab's path objects format each number in Python, 10 times slower)
    ops = []
    x0 = pt(x)
    for r, row in enumerate(m):
        yy = pt(y) + (n - QR_BORDER - r - 1) * mod
        col = 0
        while col < len(row):
            if row[col]:
                start = col
                while col < len(row) and row[col]:
                    col += 1
                ops.append(f"{x0 + (QR_BORDER + start) * mod:.3f} {yy:.3f} {(col - start) * mod:.3f} {mod:.3f} re")
            else:
                col += 1
    if ops:
        append_operators(c, " ".join(ops) + " f")
    c.restoreState()


def share_of(lines) -> ShareLine | None:
    return next((x for x in lines if isinstance(x, ShareLine)), None)
