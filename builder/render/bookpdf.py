"""The organiser's book as a PDF (``daimyo print lists/*.yaml --book``); what it prints of each
list (verdict, total, packs) is in :mod:`builder.render.book`, which the command line's
``check --format csv`` loads without the printing stack."""

from __future__ import annotations

import contextvars
import io
from dataclasses import dataclass
from pathlib import Path

from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table, TableStyle

from builder.check import load_checked
from builder.errors import DaimyoError, UsageError, command_line, one_line, option
from builder.i18n import _
from builder.kit import fonts
from builder.kit.blocks import Markup, Styles, esc, table
from builder.kit.layout import paper_size, pt
from builder.kit.pdfbase import build_story, draw_qr, qr_size, validation_lines, warn
from builder.names import quoted
from builder.render.book import printed_verdict, short_hash, total_of
from builder.share.api import export_doc
from builder.share.code import share_code_of
from builder.share.fingerprint import fingerprint

# True while a book is laid out once to measure where its lists start (set for the thread or task
# laying it out: a server prints books on several threads)
_LAYOUT_PASS: contextvars.ContextVar[bool] = contextvars.ContextVar("layout_pass", default=False)


class _QR(Flowable):
    """A platypus flowable: the QR code of a share code (size in mm)."""

    def __init__(self, code: str, size_mm: float):
        super().__init__()
        self.code, self.size_mm = code, size_mm
        self.width = self.height = pt(size_mm)
        self.hAlign = "RIGHT"

    def draw(self):
        if not _LAYOUT_PASS.get():  # the first pass only measures where lists start
            draw_qr(self.canv, self.code, 0, 0, self.size_mm)


def render_book(list_files, out_path, force: bool = False, paper="a4", title: str | None = None, players=None) -> Path:
    """Write the book of ``list_files`` to ``out_path``, titled ``title`` (an event's name), each
    list's player of ``players`` on its page and in the contents. An unreadable list is an error
    naming it (exit 2): a book must hold every list handed in."""
    book_title = one_line(title) if title else _("Lists of the event")
    who = [one_line(str(p)) for p in players] if players is not None else None
    files = [str(f) for f in list_files]
    if not files:
        raise UsageError(_("no lists given"), command_line(f"daimyo print lists/*.yaml {option('book')} -o event.pdf"))
    size = paper_size(paper) if isinstance(paper, str) else tuple(paper)
    entries = [_book_entry(f) for f in files]
    glyphs = fonts.check_glyphs([(f"list '{e['file']}'", "name", e["doc"].name or "") for e in entries])

    for p in glyphs:
        warn(p.message())
    # contents: the page of each list is known once the lists before it are laid out; lists
    # start on a new page, so the page numbers come from a first pass
    book = _Book(book_title, who, entries, Styles(9.0), size[0] - 24.0, [])

    # first pass: where each list starts (the contents may take several pages itself)
    scratch = io.BytesIO()
    book.starts.clear()
    measuring = _LAYOUT_PASS.set(True)
    try:
        build_story(
            scratch,
            _contents(book, None) + _lists_story(book),
            size,
            title=book_title,
            force=True,
            ruler=False,
            _to_buffer=True,
        )
    finally:
        _LAYOUT_PASS.reset(measuring)
    first = list(book.starts)
    book.starts.clear()
    return build_story(
        out_path,
        _contents(book, first) + _lists_story(book),
        size,
        title=book_title,
        subject="organiser's book",
        force=force,
        ruler=False,
    )


def _book_entry(f: str) -> dict:
    """What the book prints of the list in file ``f``: its name, check, packs, share code, forum
    text, fingerprint, total and verdict."""
    doc, _catalog, _lst, result = load_checked(f)
    code = share_code_of(doc)
    try:
        text = export_doc(dict(doc.data), "text", result.summary if result else None)
    except DaimyoError:
        text = ""
    packs = [
        {"name": p["name"], "version": str(p.get("version") or ""), "hash": short_hash(p.get("hash"))}
        for p in (result.packs if result else ())
    ]
    shown = "; ".join(f"{p['name']}" + (f" {p['version']}" if p["version"] else "") + f" ({p['hash']})" for p in packs)
    # the forum text names the packs by file; the book by name, version and content hash
    text = "\n".join((f"Packs: {shown}" if line.startswith("Packs:") and shown else line) for line in text.splitlines())
    return {
        "file": Path(f).name,
        # the list's name quoted (a name cannot end early or break the line), else its file's
        "name": quoted(doc.name) if doc.name else one_line(Path(f).stem),
        "doc": doc,
        "result": result,
        "packs": packs,
        "code": code,
        "text": text,
        "fp": fingerprint(doc.data, result.packs if result else ()),
        "total": total_of(doc.system, result.summary if result else {}),
        "verdict": printed_verdict(result),
    }


@dataclass
class _Book:
    """A book being laid out: its title, the players (None: no names given), each list's entry
    (``_book_entry``), the styles, the width of its text in mm, and the page each list starts on
    (filled as the lists are laid out)."""

    title: str
    who: list[str] | None
    entries: list[dict]
    st: Styles
    width: float
    starts: list[int]


def _lists_story(book: _Book) -> list:
    """Fresh flowables for each layout pass (platypus changes the ones it lays out)."""
    story_lists: list = []
    for i, e in enumerate(book.entries):
        story_lists.extend(_list_flowables(book, i, e))
    return story_lists


def _list_flowables(book: _Book, i: int, e: dict) -> list:
    """The pages of list ``i``: its heading, the fields filled in by hand, its check, its share
    code and fingerprint, and its forum text."""
    st, width, who = book.st, book.width, book.who
    story_lists: list = []
    story_lists.append(PageBreak())
    doc = e["doc"]
    title = f"{i + 1}. {e['name']}"
    story_lists.append(_Marker(book.starts, f"list{i + 1}", title))
    story_lists.append(Paragraph(esc(title), st.title))
    story_lists.append(
        Paragraph(
            esc(
                f"{one_line(e['file'])} \u2014 {doc.system}"
                + (f" \u2014 {e['total']}" if e["total"] else "")
                + (" \u2014 " + _("by {author}").format(author=doc.author) if doc.author else "")
            ),
            st.subtitle,
        )
    )
    # filled in by hand at the event
    fields = Table(
        [[_("Player"), who[i] if who else "", _("Table"), "", _("Round"), "", _("Checked by"), ""]],
        colWidths=[pt(w * width / 186.0) for w in (13, 52, 11, 16, 12, 16, 19, 47)],
        rowHeights=[pt(8)],
        hAlign="LEFT",
    )

    fields.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), fonts.BOLD, 8),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                ("LINEBELOW", (1, 0), (1, 0), 0.6, (0, 0, 0)),
                ("LINEBELOW", (3, 0), (3, 0), 0.6, (0, 0, 0)),
                ("LINEBELOW", (5, 0), (5, 0), 0.6, (0, 0, 0)),
                ("LINEBELOW", (7, 0), (7, 0), 0.6, (0, 0, 0)),
            ]
        )
    )
    story_lists.append(fields)
    story_lists.append(Spacer(1, pt(2)))
    for line in validation_lines(e["result"], limit=20):
        story_lists.append(Paragraph(esc(line), st.body))
    story_lists.append(Spacer(1, pt(2)))
    story_lists.append(KeepTogether(_share_block(book, e)))
    story_lists.append(Spacer(1, pt(3)))
    for line in (e["text"] or "").splitlines():
        story_lists.append(Paragraph(esc(line) if line.strip() else "&nbsp;", st.body))
    return story_lists


def _share_block(book: _Book, e: dict) -> list:
    """The share code beside its QR code, and the fingerprint (the fingerprint alone without a code)."""
    st, width = book.st, book.width
    block = []
    if e["code"]:
        qr = max(qr_size(e["code"], 0.3), 22.0)
        left = [
            Paragraph(_("<b>Share code</b> (scan the QR code or type it: <i>daimyo import CODE</i>)"), st.body),
            Paragraph(esc(e["code"]), st.small),
            Spacer(1, pt(2)),
            Paragraph(_("<b>Fingerprint</b> {fingerprint}").format(fingerprint=esc(e["fp"])), st.body),
            Paragraph(
                esc(_("SHA-256 of the canonical list and of its packs: any change to either changes it")), st.small
            ),
        ]
        t = Table([[left, _QR(e["code"], qr)]], colWidths=[pt(width - qr - 4), pt(qr + 4)], hAlign="LEFT")

        t.setStyle(
            TableStyle(
                [
                    ("FONT", (0, 0), (-1, -1), fonts.REGULAR),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        block.append(t)
    else:
        block.append(Paragraph(_("<b>Fingerprint</b> {fingerprint}").format(fingerprint=esc(e["fp"])), st.body))
    return block


def _contents(book: _Book, pages: list[int] | None) -> list:
    """The contents: the book's title, and a row per list with the page it starts on (none yet
    in the first pass)."""
    st, width, who, entries = book.st, book.width, book.who, book.entries
    rows = []
    for i, e in enumerate(entries):
        rows.append(
            [
                str(i + 1),
                who[i] if who else one_line(e["file"]),
                e["doc"].system,
                Markup(f'<a href="#list{i + 1}" color="#1f4e8c">{esc(e["name"])}</a>'),
                e["total"],
                e["verdict"],
                str(pages[i]) if pages and i < len(pages) else "",
            ]
        )
    fail = [i for i, e in enumerate(entries) if e["result"] is not None and not e["result"].legal]
    out = [
        Paragraph(esc(book.title), st.title),
        Paragraph(
            esc(
                _("{n} lists; each starts on a new page with its share code, QR code and fingerprint").format(
                    n=len(entries)
                )
            ),
            st.subtitle,
        ),
        table(
            rows,
            [w * width / 186.0 for w in (7, 44, 17, 46, 28, 30, 14)],
            st,
            header=[
                "#",
                _("Player") if who else _("File"),
                _("System"),
                _("List"),
                _("Total"),
                _("Verdict"),
                _("Page"),
            ],
            fail_rows=fail,
            align_right=[0, 6],
        ),
    ]
    return out


class _Marker(Flowable):
    """A zero-size flowable that records the page it lands on, and makes it a named destination
    with a bookmark (the PDF's outline) titled ``title``."""

    def __init__(self, sink: list, key: str = "", title: str = ""):
        super().__init__()
        self.sink, self.key, self.title = sink, key, title

    def wrap(self, aw, ah):
        return 0, 0

    def draw(self):
        self.sink.append(self.canv.getPageNumber())
        if self.key:
            self.canv.bookmarkPage(self.key)
            self.canv.addOutlineEntry(self.title, self.key, level=0)
