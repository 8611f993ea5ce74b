"""Statistics as charts, drawn with reportlab's own graphics (``reportlab.graphics``).

``render_stats(stats, out_path, paper="a4", force=False)`` writes the statistics of
``builder.analytics.stats.list_stats`` as a PDF of its own (``daimyo stats LIST -o``);
``stats_appendix(list_file, paper)`` is a context manager under which every PDF made
gets the same pages at its end (``daimyo print LIST --stats``).
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import cast
from xml.sax.saxutils import escape

from reportlab.graphics.charts.barcharts import HorizontalBarChart
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Frame, KeepTogether, Paragraph, Spacer, Table, TableStyle

from builder.analytics.stats import list_stats
from builder.i18n import _, ngettext, tr
from builder.kit import fonts
from builder.kit.layout import paper_size, pt
from builder.kit.numbers import number_text
from builder.kit.pdfbase import appendix, build_story
from builder.kit.rladapter import frame_room
from builder.systems import get

INK = (0.15, 0.15, 0.15)
BAR = (0.33, 0.45, 0.62)
LIGHT = (0.86, 0.88, 0.91)
BROKEN = (0.78, 0.18, 0.15)
MAX_BARS = 30
LABEL_CHARS = 34


def _styles():
    base = ParagraphStyle("body", fontName=fonts.REGULAR, fontSize=8.5, leading=11, textColor=INK)
    return {
        "title": ParagraphStyle("title", parent=base, fontName=fonts.BOLD, fontSize=15, leading=19, spaceAfter=2),
        "sub": ParagraphStyle("sub", parent=base, fontSize=9, leading=12, spaceAfter=6),
        "h": ParagraphStyle(
            "h", parent=base, fontName=fonts.BOLD, fontSize=10.5, leading=14, spaceBefore=8, spaceAfter=3
        ),
        "body": base,
    }


def _esc(text) -> str:
    return escape(fonts.printable(str(text)))


def _label(text) -> str:
    text = fonts.printable(str(text))
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + fonts.ELLIPSIS


def bar_chart(pairs: list[tuple[str, float]], width: float, unit: str = "", colour=BAR):
    """A horizontal bar chart (a ``Drawing``) of ``(label, value)``, at most MAX_BARS bars."""
    if len(pairs) > MAX_BARS:
        rest = sum(v for _, v in pairs[MAX_BARS - 1 :])
        pairs = pairs[: MAX_BARS - 1] + [(_("{n} more").format(n=len(pairs) - MAX_BARS + 1), rest)]
    row = 11.0
    label_w = min(150.0, max(fonts.string_width(_label(k), fonts.REGULAR, 7.5) for k, _ in pairs) + 8)
    pairs = [(_fit(k, label_w - 6, 7.5), v) for k, v in pairs]
    h = row * len(pairs) + 18
    d = Drawing(width, h)
    c = HorizontalBarChart()
    c.x, c.y = label_w, 14
    c.width, c.height = width - label_w - 34, row * len(pairs)
    c.data = [[v for _, v in reversed(pairs)]]
    c.categoryAxis.categoryNames = [_label(k) for k, _ in reversed(pairs)]
    c.categoryAxis.labels.fontName = fonts.REGULAR
    c.categoryAxis.labels.fontSize = 7.5
    c.categoryAxis.labels.boxAnchor = "e"
    c.categoryAxis.labels.dx = -3
    c.categoryAxis.strokeColor = Color(*INK)
    top = max([v for _, v in pairs] + [1])
    c.valueAxis.valueMin = 0
    c.valueAxis.valueMax = top * 1.08
    c.valueAxis.labels.fontName = fonts.REGULAR
    c.valueAxis.labels.fontSize = 7
    c.valueAxis.strokeColor = Color(*INK)
    c.valueAxis.visibleGrid = True
    c.valueAxis.gridStrokeColor = Color(*LIGHT)
    c.bars[0].fillColor = Color(*colour)
    c.bars[0].strokeColor = None
    c.barLabelFormat = "%g" + unit
    c.barLabels.fontName = fonts.REGULAR
    c.barLabels.fontSize = 7
    c.barLabels.boxAnchor = "w"
    c.barLabels.dx = 3
    c.barSpacing = 1
    c.groupSpacing = 2.5
    d.add(c)
    return d


def limits_chart(rows: list[dict], width: float):
    """One bar per limit: the value against its bound (a maximum's bar fills up to the bound; a minimum's
    must reach the mark); broken limits in red."""
    row = 12.0
    label_w = min(210.0, width * 0.45)
    bar_w = width - label_w - 70
    d = Drawing(width, row * len(rows) + 4)
    for i, r in enumerate(rows):
        y = d.height - (i + 1) * row
        what = _(str(r["label"])) + (f" [{r['group']}]" if r.get("group") else "")  # a rule's words, translated
        d.add(
            String(
                label_w - 4,
                y + 3,
                _fit(what, label_w - 8, 7.5),
                fontName=fonts.REGULAR,
                fontSize=7.5,
                textAnchor="end",
                fillColor=Color(*INK),
            )
        )
        value, bound = float(r["value"]), float(r["bound"])
        scale = max(value, bound, 1e-9)
        d.add(Rect(label_w, y + 1.5, bar_w, row - 4, fillColor=Color(*LIGHT), strokeColor=None))
        fill = BAR if r["ok"] else BROKEN
        d.add(
            Rect(label_w, y + 1.5, bar_w * max(0.0, value) / scale, row - 4, fillColor=Color(*fill), strokeColor=None)
        )
        bx = label_w + bar_w * max(0.0, bound) / scale
        d.add(Line(bx, y, bx, y + row - 1, strokeColor=Color(*INK), strokeWidth=1.2))
        rel = "<=" if r["kind"] == "max" else (">=" if r["kind"] == "min" else "=")
        note = f"{number_text(r['value'], short=True)} {rel} {number_text(r['bound'], short=True)}" + (
            "" if r["ok"] else "  " + _("broken")
        )
        d.add(
            String(
                label_w + bar_w + 4,
                y + 3,
                note,
                fontName=fonts.REGULAR,
                fontSize=7,
                fillColor=Color(*(INK if r["ok"] else BROKEN)),
            )
        )
    return d


def _fit(text: str, width: float, size: float) -> str:
    """``text`` cut (with an ellipsis) to ``width`` points."""
    text = fonts.printable(str(text))
    if fonts.string_width(text, fonts.REGULAR, size) <= width:
        return text
    while text and fonts.string_width(text + fonts.ELLIPSIS, fonts.REGULAR, size) > width:
        text = text[:-1]
    return text + fonts.ELLIPSIS


def _table(rows: list[list[str]], widths: list[float], header: bool = True):
    data = [[c if hasattr(c, "wrap") else fonts.printable(str(c)) for c in r] for r in rows]
    t = Table(data, colWidths=widths, repeatRows=1 if header else 0)
    style = [
        ("FONTNAME", (0, 0), (-1, -1), fonts.REGULAR),
        ("FONTSIZE", (0, 0), (-1, -1), 7.5),
        ("TEXTCOLOR", (0, 0), (-1, -1), Color(*INK)),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, Color(*INK)),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    if header:
        style.append(("FONTNAME", (0, 0), (-1, 0), fonts.BOLD))
    t.setStyle(TableStyle(style))
    return t


def _file_name(st: dict) -> str:
    """The list's file name without its folder: a printout names no path of the computer it was made on."""
    return Path(str(st["file"])).name


def stats_flowables(st: dict, width_mm: float) -> list:
    """The statistics as platypus flowables for a frame ``width_mm`` wide (sections kept together)."""
    return [KeepTogether(sec) if len(sec) > 1 else sec[0] for sec in stats_sections(st, width_mm)]


def stats_sections(st: dict, width_mm: float) -> list[list]:
    """The statistics as sections, each a list of flowables to keep on one page."""
    s = _styles()
    width = pt(width_mm)
    title = st.get("name") or _file_name(st)
    verdict = (
        _("legal")
        if st["legal"]
        else _("ILLEGAL ({errors})").format(
            errors=ngettext("{n} error", "{n} errors", st["errors"]).format(n=st["errors"])
        )
    )
    size = ", " + _("{n} cards").format(n=st["cards"]) if "cards" in st else ""
    out = [
        [
            Paragraph(_("Statistics: {title}").format(title=_esc(title)), s["title"]),
            Paragraph(f"{_esc(_file_name(st))}: {_esc(st['system'])}{size}, {verdict}", s["sub"]),
        ]
    ]

    def section(heading: str, body) -> None:
        out.append([Paragraph(_esc(heading), s["h"]), body])

    for block in st.get("counts", ()):
        pairs = [(str(v["value"]), v["cards"]) for v in block["values"] if v["cards"]]
        if pairs:
            # the field's name is one of the games' words (``FieldSpec.title``), translated here
            section(_("{title} (cards)").format(title=_(str(block["title"]))), bar_chart(pairs, width))

    for heading, kind, data, shape in get(st["system"]).analytics.stats_charts(st):
        heading = tr(heading)  # a game's heading and table words are Texts, translated here
        if kind == "table":  # data: rows (a header first), shape: column widths as parts of the width
            rows = [[tr(c) for c in row] for row in cast("list[list[str]]", data)]
            section(heading, _table(rows, [width * f for f in cast("list[float]", shape)]))
        elif data:  # bars: (label, value) pairs, shape: the unit after each value
            section(heading, bar_chart(cast("list[tuple[str, float]]", data), width, cast(str, shape)))
    limits = st.get("limits") or []
    for i in range(0, len(limits), 40):
        section(
            _("Limits: value against bound") + (" " + _("(continued)") if i else ""),
            limits_chart(limits[i : i + 40], width),
        )
    if st.get("odds"):
        rows = [[_("query"), _("probability"), _("matching"), _("expected")]]
        for o in st["odds"]:
            p = o["probability"]
            rows.append(
                [
                    Paragraph(_esc(o["shown"]), s["body"]),
                    f"{p:.4f} ({100 * p:.2f}%)",
                    _("{matching} of {deck}").format(matching=o["matching"], deck=o["deck"]),
                    f"{o['expected']:.2f}",
                ]
            )
        section(_("Draw odds (exact, hypergeometric)"), _table(rows, [width * f for f in (0.5, 0.2, 0.16, 0.14)]))
    for note in st.get("notes", ()):
        out.append([Spacer(1, 4), Paragraph(_esc(note), s["body"])])
    return out


def render_stats(st: dict, out_path, paper: str = "a4", force: bool = False):
    """Write the statistics as a PDF; returns the path."""
    size = paper_size(paper)
    story = stats_flowables(st, size[0] - 24)
    title = _("Statistics: {title}").format(title=st.get("name") or _file_name(st))
    return build_story(
        out_path,
        story,
        size,
        title=title,
        subject=f"{st['system']} list statistics",
        footer_lines=[f"daimyo stats {_file_name(st)}"],
        force=force,
    )


def draw_pages(canvas, paper: tuple[float, float], sections: list[list]) -> None:
    """Draw ``sections`` on new pages of ``canvas`` (12 mm margins): a section that does not fit in
    what is left of a page starts the next one. Each page is ended with ``showPage``."""

    def frame():
        return Frame(
            pt(12),
            pt(12),
            pt(paper[0] - 24),
            pt(paper[1] - 24),
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )

    f, used = frame(), False
    width, height = pt(paper[0] - 24), pt(paper[1] - 24)
    for sec in sections:
        need = sum(x.wrap(width, height)[1] + x.getSpaceBefore() + x.getSpaceAfter() for x in sec)
        if used and need > frame_room(f):
            canvas.showPage()
            f, used = frame(), False
        for x in sec:
            if not f.add(x, canvas):
                if used:
                    canvas.showPage()
                    f = frame()
                if not f.add(x, canvas):  # taller than a page: left out rather than looping
                    continue
            used = True
    canvas.showPage()


@contextmanager
def stats_appendix(list_file, paper: str = "a4", packs=()):
    """Every PDF made in this block ends with the statistics pages of ``list_file``."""
    st = list_stats(list_file, (), packs)
    paper_size(paper)  # a bad paper is one line before anything is drawn

    def draw(canvas, page):
        draw_pages(canvas, page, stats_sections(st, page[0] - 24))

    with appendix(draw):
        yield st
