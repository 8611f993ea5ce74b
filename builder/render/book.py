"""The organiser's book: every list of an event in one PDF.

``daimyo print lists/*.yaml --book -o event.pdf`` prints a contents page (each player's
file, system, list name, total, ``daimyo check`` verdict and page), then each list from a
new page: the verdict and findings, the list as forum text, its share code with the QR
code of it (scan it to import the list) and its **fingerprint**
(``builder.share.fingerprint``, docs/fingerprint.md): the canonical list and the content
hashes of the packs it is checked with. Two lists with the same content have the same
fingerprint whatever their layout or comments; change one card, one model, one option, or a
card's value in a pack the list uses, and the fingerprint changes, so a list cannot be altered
unnoticed after it was handed in (every face shows the same value: ``daimyo check --format
csv`` for the organiser's spreadsheet, the event's pages and export, ``daimyo show``).
"""

from __future__ import annotations

import contextvars
import csv
import io
from pathlib import Path

from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table, TableStyle

from builder.check import check_doc, load_checked
from builder.errors import DaimyoError, UsageError, command_line, one_line, option
from builder.kit import fonts
from builder.kit.blocks import Markup, Styles, esc, table
from builder.kit.layout import paper_size, pt
from builder.kit.pdfbase import build_story, draw_qr, qr_size, validation_lines, warn
from builder.lists.document import load_list
from builder.names import quoted
from builder.share.api import export_doc
from builder.share.code import share_code_of
from builder.share.fingerprint import fingerprint, fingerprint_of_result
from builder.systems import get


def _short_hash(value) -> str:
    """A pack's content hash as the book prints it: the first 12 hex digits, without a
    ``sha256:`` prefix (the same pack gives the same digits from any source)."""
    return str(value or "").split(":", 1)[-1][:12]


def pack_info(doc) -> list[dict]:
    """The packs a list is checked with, as the book names them: {name, version, hash} (the
    first 12 hex digits of the SHA-256 of the pack's content), in the list's order."""
    return [
        {"name": p["name"], "version": str(p.get("version") or ""), "hash": _short_hash(p.get("hash"))}
        for p in check_doc(doc).packs
    ]


def total_of(system: str, summary: dict) -> str:
    """What a list adds up to, as an organiser reads it (its ``GameSystem.total``)."""
    return get(system).printing.total(summary or {})


def verdict_of(result) -> str:
    if result is None:
        return ""
    counts = result.counts()
    errs, warns = counts.get("error", 0), counts.get("warning", 0)
    head = "legal" if result.legal else "ILLEGAL"
    bits = []
    if errs:
        bits.append(f"{errs} error{'s' * (errs != 1)}")
    if warns:
        bits.append(f"{warns} warning{'s' * (warns != 1)}")
    return head + (f" ({', '.join(bits)})" if bits else "")


# True while a book is laid out once to measure where its lists start (set for the thread or task
# laying it out: a server prints books on several threads)
_LAYOUT_PASS: contextvars.ContextVar[bool] = contextvars.ContextVar("layout_pass", default=False)


class _QR:
    """A platypus flowable: the QR code of a share code (size in mm)."""

    def __new__(cls, code: str, size_mm: float):
        class QR(Flowable):
            def __init__(self):
                super().__init__()
                self.width = self.height = pt(size_mm)
                self.hAlign = "RIGHT"

            def draw(self):
                if not _LAYOUT_PASS.get():  # the first pass only measures where lists start
                    draw_qr(self.canv, code, 0, 0, size_mm)

        return QR()


def render_book(list_files, out_path, force: bool = False, paper="a4") -> Path:
    """Write the book of ``list_files`` to ``out_path``. An unreadable list is an error
    naming it (exit 2): a book must hold every list handed in."""
    files = [str(f) for f in list_files]
    if not files:
        raise UsageError("no lists given", command_line(f"daimyo print lists/*.yaml {option('book')} -o event.pdf"))
    size = paper_size(paper) if isinstance(paper, str) else tuple(paper)
    st = Styles(9.0)
    width = size[0] - 24.0
    entries = []
    for f in files:
        try:
            doc, _catalog, _lst, result = load_checked(f)
        except DaimyoError:
            raise
        code = share_code_of(doc)
        try:
            text = export_doc(dict(doc.data), "text", result.summary if result else None)
        except DaimyoError:
            text = ""
        packs = [
            {"name": p["name"], "version": str(p.get("version") or ""), "hash": _short_hash(p.get("hash"))}
            for p in (result.packs if result else ())
        ]
        shown = "; ".join(
            f"{p['name']}" + (f" {p['version']}" if p["version"] else "") + f" ({p['hash']})" for p in packs
        )
        # the forum text names the packs by file; the book by name, version and content hash
        text = "\n".join(
            (f"Packs: {shown}" if line.startswith("Packs:") and shown else line) for line in text.splitlines()
        )
        entries.append(
            {
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
                "verdict": verdict_of(result),
            }
        )
    glyphs = fonts.check_glyphs([(f"list '{e['file']}'", "name", e["doc"].name or "") for e in entries])

    for p in glyphs:
        warn(p.message())
    # contents: the page of each list is known once the lists before it are laid out; lists
    # start on a new page, so the page numbers come from a first pass
    starts: list[int] = []

    def lists_story() -> list:
        """Fresh flowables for each layout pass (platypus changes the ones it lays out)."""
        story_lists: list = []
        for i, e in enumerate(entries):
            story_lists.extend(_list_flowables(i, e))
        return story_lists

    def _list_flowables(i, e) -> list:
        story_lists: list = []
        story_lists.append(PageBreak())
        doc = e["doc"]
        title = f"{i + 1}. {e['name']}"
        story_lists.append(_Marker(starts, f"list{i + 1}", title))
        story_lists.append(Paragraph(esc(title), st.title))
        story_lists.append(
            Paragraph(
                esc(
                    f"{one_line(e['file'])} \u2014 {doc.system}"
                    + (f" \u2014 {e['total']}" if e["total"] else "")
                    + (f" \u2014 by {doc.author}" if doc.author else "")
                ),
                st.subtitle,
            )
        )
        # filled in by hand at the event
        fields = Table(
            [["Player", "", "Table", "", "Round", "", "Checked by", ""]],
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
        block = []
        if e["code"]:
            qr = max(qr_size(e["code"], 0.3), 22.0)
            left = [
                Paragraph("<b>Share code</b> (scan the QR code or type it: <i>daimyo import CODE</i>)", st.body),
                Paragraph(esc(e["code"]), st.small),
                Spacer(1, pt(2)),
                Paragraph(f"<b>Fingerprint</b> {esc(e['fp'])}", st.body),
                Paragraph("SHA-256 of the canonical list and of its packs: any change to either changes it", st.small),
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
            block.append(Paragraph(f"<b>Fingerprint</b> {esc(e['fp'])}", st.body))
        story_lists.append(KeepTogether(block))
        story_lists.append(Spacer(1, pt(3)))
        for line in (e["text"] or "").splitlines():
            story_lists.append(Paragraph(esc(line) if line.strip() else "&nbsp;", st.body))
        return story_lists

    def contents(pages: list[int] | None) -> list:
        rows = []
        for i, e in enumerate(entries):
            rows.append(
                [
                    str(i + 1),
                    one_line(e["file"]),
                    e["doc"].system,
                    Markup(f'<a href="#list{i + 1}" color="#1f4e8c">{esc(e["name"])}</a>'),
                    e["total"],
                    e["verdict"],
                    str(pages[i]) if pages and i < len(pages) else "",
                ]
            )
        fail = [i for i, e in enumerate(entries) if e["result"] is not None and not e["result"].legal]
        out = [
            Paragraph("Lists of the event", st.title),
            Paragraph(
                esc(f"{len(entries)} lists; each starts on a new page with its share code, QR code and fingerprint"),
                st.subtitle,
            ),
            table(
                rows,
                [w * width / 186.0 for w in (7, 44, 17, 46, 28, 30, 14)],
                st,
                header=["#", "File", "System", "List", "Total", "Verdict", "Page"],
                fail_rows=fail,
                align_right=[0, 6],
            ),
        ]
        return out

    # first pass: where each list starts (the contents may take several pages itself)
    scratch = io.BytesIO()
    starts.clear()
    measuring = _LAYOUT_PASS.set(True)
    try:
        build_story(
            scratch,
            contents(None) + lists_story(),
            size,
            title="Lists of the event",
            force=True,
            ruler=False,
            _to_buffer=True,
        )
    finally:
        _LAYOUT_PASS.reset(measuring)
    first = list(starts)
    starts.clear()
    return build_story(
        out_path,
        contents(first) + lists_story(),
        size,
        title="Lists of the event",
        subject="organiser's book",
        force=force,
        ruler=False,
    )


class _Marker:
    """A zero-size flowable that records the page it lands on, and makes it a named destination
    with a bookmark (the PDF's outline) titled ``title``."""

    def __new__(cls, sink: list, key: str = "", title: str = ""):
        class Marker(Flowable):
            def wrap(self, aw, ah):
                return 0, 0

            def draw(self):
                sink.append(self.canv.getPageNumber())
                if key:
                    self.canv.bookmarkPage(key)
                    self.canv.addOutlineEntry(title, key, level=0)

        return Marker()


def results_csv(results) -> str:
    """``daimyo check --format csv``: one row per list for an organiser's spreadsheet: file,
    system, name, legal, verdict, errors, warnings, total, fingerprint (as printed in the
    organiser's book) and share code."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        ["file", "system", "name", "legal", "verdict", "errors", "warnings", "total", "fingerprint", "share_code"]
    )
    for r in results:
        counts = r.counts()
        fp = fingerprint_of_result(r)  # empty for a list read from elsewhere (stdin)
        try:
            code = share_code_of(load_list(r.file)) or ""
        except Exception:  # a list read from elsewhere (stdin): no file to read again
            code = ""
        w.writerow(
            [
                spreadsheet_cell(v)
                for v in (
                    Path(r.file).name,
                    r.system,
                    r.name or "",
                    "yes" if r.legal else "no",
                    verdict_of(r),
                    counts.get("error", 0),
                    counts.get("warning", 0),
                    total_of(r.system, r.summary),
                    fp,
                    code,
                )
            ]
        )
    return out.getvalue()


def spreadsheet_cell(value):
    """A CSV cell a spreadsheet shows as text: a text starting with ``=``, ``+``, ``-``, ``@``, a
    tab or a carriage return (a formula to a spreadsheet) gets a leading ``'``, as OWASP
    recommends against formula injection; numbers stay numbers."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
