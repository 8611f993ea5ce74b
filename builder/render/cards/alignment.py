"""The duplex alignment test sheet (``daimyo print-test``): crosshair targets on the front,
graduated scales on the back, 100 mm rulers for the scale correction."""

from __future__ import annotations

from pathlib import Path

from builder.errors import UsageError
from builder.i18n import N_, _
from builder.kit import fonts
from builder.kit.layout import (
    pt,
)
from builder.kit.pdfbase import PdfJob, draw_ruler, draw_text_box, ruler_label_width

# -- duplex alignment test sheet ------------------------------------------------------------


TEST_POINTS = ((0.5, 0.5), (0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8))
SCALE_HALF = 6.0  # mm each side of zero on the back scales
TICK_STEP = 0.5
TARGET_ARM = 12.0  # mm: each crosshair line reaches this far from its target's centre
TEXT_LEFT = 15.0  # mm: the title and instructions start here (the vertical ruler is left of it)
TEXT_TOP = 22.0  # mm from the top edge to the first instruction line's baseline
TEXT_SIZE = 8.0  # pt
MARK_CLEAR = 2.0  # mm between the instructions and the nearest crosshair line
LOW_TARGET_MIN = 31.0  # mm: the lowest targets (and their back scales) stay above the bottom ruler


def _test_instructions(duplex: str) -> list[str]:
    return [
        f"Print both pages on one sheet, duplex, flip on the {duplex} edge, at 100 % (actual size, no fit-to-page).",
        "Hold the sheet against a window or lamp and look at the BACK side (page 2).",
        "Each crosshair of this page shows through on a scale of the back page. Read where its",
        "vertical line crosses the horizontal scale (X) and where its horizontal line crosses the",
        "vertical scale (Y), in mm. Then print with:  daimyo print LIST --offset X,Y",
        f"(and --duplex {duplex}). Check the rulers: the bars must measure exactly 100 mm.",
        "A printer that stretches or shrinks: measure the bar across the page (W mm) and the one",
        "down the left edge (H mm), then print with  --scale-x 100/W  --scale-y 100/H  (e.g. 1.004).",
    ]


# the instructions as messages, a paragraph each (English prints them in the lines above)
_TEST_PARAGRAPHS = (
    N_("Print both pages on one sheet, duplex, flip on the {duplex} edge, at 100 % (actual size, no fit-to-page)."),
    N_("Hold the sheet against a window or lamp and look at the BACK side (page 2)."),
    N_(
        "Each crosshair of this page shows through on a scale of the back page. Read where its vertical line "
        "crosses the horizontal scale (X) and where its horizontal line crosses the vertical scale (Y), in mm. "
        "Then print with:  daimyo print LIST --offset X,Y (and --duplex {duplex}). Check the rulers: the bars "
        "must measure exactly 100 mm."
    ),
    N_(
        "A printer that stretches or shrinks: measure the bar across the page (W mm) and the one down the left "
        "edge (H mm), then print with  --scale-x 100/W  --scale-y 100/H  (e.g. 1.004)."
    ),
)


def _test_text_lines(paper: tuple[float, float], duplex: str) -> tuple[list[str], float]:
    """The instruction lines as printed on ``paper`` and their leading (pt): one line each
    where the paper is wide enough (A4, Letter), else the text wrapped to the width; in another
    language, each paragraph wrapped to the width."""
    width = pt(paper[0] - 2 * TEXT_LEFT)
    shown = [_(p).format(duplex=duplex) for p in _TEST_PARAGRAPHS]
    if shown != [p.format(duplex=duplex) for p in _TEST_PARAGRAPHS]:
        lines = [line for p in shown for line in fonts.wrap_lines(p, fonts.REGULAR, TEXT_SIZE, width)]
        return lines, TEXT_SIZE * 1.3
    text = _test_instructions(duplex)
    if all(fonts.string_width(t, fonts.REGULAR, TEXT_SIZE) <= width for t in text):
        return text, 11.0
    lead = TEXT_SIZE * 1.3
    return fonts.wrap_lines(" ".join(text), fonts.REGULAR, TEXT_SIZE, width), lead


def target_centres(paper: tuple[float, float], duplex: str = "long") -> list[tuple[float, float]]:
    """Centres (mm from the bottom-left corner) of the front page's crosshair targets: the
    centre of the sheet and four near its corners (a fifth of the way in), the upper ones
    moved down below the instructions and the lower ones up above the bottom ruler where
    the paper is too short for those fractions (A5, small paper)."""
    pw, ph = paper
    lines, lead = _test_text_lines(paper, duplex)
    last_baseline = ph - TEXT_TOP - (len(lines) - 1) * lead / pt(1)
    text_bottom = last_baseline - TEXT_SIZE * 0.3 / pt(1)  # descenders
    top = min(ph * 0.8, text_bottom - MARK_CLEAR - TARGET_ARM)
    low = max(ph * 0.2, LOW_TARGET_MIN)
    mid = (top + low) / 2
    ys = {0.8: top, 0.5: mid, 0.2: low}
    return [(pw * fx, ys[fy]) for fx, fy in TEST_POINTS]


def render_test_sheet(out_path, paper: tuple[float, float], duplex: str = "long", force: bool = False) -> Path:
    """Two pages: crosshair targets on the front, graduated scales on the back.

    Print duplex, hold the sheet against the light and look from the back side: where a
    front crosshair line crosses a back scale is the printer's misalignment; the value
    read on the horizontal scale is X, on the vertical scale Y of ``--offset X,Y``.
    The instructions and labels never touch a target (:func:`target_centres`).
    """
    if duplex not in ("long", "short"):
        raise UsageError(_("unknown duplex mode '{duplex}'").format(duplex=duplex), _("use long or short"))
    pw, ph = paper
    if min(pw, ph) < TEST_SHEET_MIN_MM:
        raise UsageError(
            _("the alignment sheet does not fit on {w}x{h} mm paper: its rulers are 100 mm long").format(
                w=f"{pw:g}", h=f"{ph:g}"
            ),
            _("print it on paper of at least {mm}x{mm} mm (A5 or larger) of the same printer").format(
                mm=f"{TEST_SHEET_MIN_MM:g}"
            ),
        )

    points = target_centres(paper, duplex)
    with PdfJob(
        out_path, paper, title="daimyo duplex alignment test", subject="print-test", duplex=duplex, force=force
    ) as job:
        c = job.canvas
        c.setLineWidth(pt(0.15))
        for x, y in points:
            c.line(pt(x - TARGET_ARM), pt(y), pt(x + TARGET_ARM), pt(y))
            c.line(pt(x), pt(y - TARGET_ARM), pt(x), pt(y + TARGET_ARM))
            c.circle(pt(x), pt(y), pt(3), stroke=1, fill=0)
            c.circle(pt(x), pt(y), pt(5.5), stroke=1, fill=0)
        draw_text_box(
            c,
            _("daimyo duplex alignment test: FRONT"),
            (pt(TEXT_LEFT), pt(ph - 17), pt(pw - 2 * TEXT_LEFT), pt(6)),
            fonts.BOLD,
            11,
            6,
            wrap=False,
        )
        c.setFont(fonts.REGULAR, TEXT_SIZE)
        lines, lead = _test_text_lines(paper, duplex)
        for i, t in enumerate(lines):
            c.drawString(pt(TEXT_LEFT), pt(ph - TEXT_TOP) - i * lead, t)

        room = ruler_label_width(100.0) + 1.5 + 5.0  # the label beside the bar, 5 mm from the edge
        draw_ruler(c, TEXT_LEFT, 12, length=100.0, label_below=pw < TEXT_LEFT + 100 + room)
        c.saveState()  # the same bar down the page, for --scale-y
        c.translate(pt(10), pt(40))
        c.rotate(90)
        draw_ruler(c, 0, 0, length=100.0, label_below=ph < 40 + 100 + room)
        c.restoreState()
        job.new_page()
        c.setLineWidth(pt(0.15))
        draw_text_box(
            c,
            _("daimyo duplex alignment test: BACK (read the scales from this side)"),
            (pt(TEXT_LEFT), pt(ph - 17), pt(pw - 2 * TEXT_LEFT), pt(6)),
            fonts.BOLD,
            11,
            6,
            wrap=False,
        )
        for x0, y0 in points:
            # the mirrored position of the front target on the back page
            if duplex == "long":
                bx, by = pw - x0, y0
            else:
                bx, by = x0, ph - y0
            _scale(c, bx, by)
        draw_ruler(c, pw - 15 - 50 - 78, 12)
    return job.path


TEST_SHEET_MIN_MM = 148.0  # the alignment sheet's 100 mm rulers and targets need A5 or larger

SCALE_GAP = 9.0  # mm from the target centre to each scale's base line


def _scale(c, x: float, y: float) -> None:
    """Two mm scales for the target whose ideal position is (x, y): a horizontal one
    ``SCALE_GAP`` mm below it (read X where the front's vertical line crosses it) and a
    vertical one ``SCALE_GAP`` mm to its left (read Y where the front's horizontal line
    crosses it). 0 is the ideal position, positive to the right and up as seen on this
    side. The two scales do not cross, so no tick or label overlaps another; the
    horizontal scale's labels alternate between two rows to stay legible."""
    n = int(SCALE_HALF / TICK_STEP)
    size = 4.5
    hy = y - SCALE_GAP  # base line of the horizontal scale
    vx = x - SCALE_GAP  # base line of the vertical scale
    c.saveState()
    c.setLineWidth(pt(0.15))
    c.setFont(fonts.CONDENSED, size)
    c.line(pt(x - SCALE_HALF), pt(hy), pt(x + SCALE_HALF), pt(hy))
    c.line(pt(vx), pt(y - SCALE_HALF), pt(vx), pt(y + SCALE_HALF))
    for i in range(-n, n + 1):
        v = i * TICK_STEP
        h = 2.0 if i % 2 == 0 else 1.0
        if i == 0:
            h = 3.0
        c.line(pt(x + v), pt(hy), pt(x + v), pt(hy + h))  # ticks rise towards the target
        c.line(pt(vx), pt(y + v), pt(vx + h), pt(y + v))  # ticks point towards the target
        if i % 4 == 0:
            label = f"{v:+g}" if v else "0"
            row = 0 if (i // 4) % 2 == 0 else 1
            c.drawCentredString(pt(x + v), pt(hy - 2.0 - row * 1.9), label)
            c.drawRightString(pt(vx - 0.8), pt(y + v) - size * 0.35, label)
    c.drawString(pt(x + SCALE_HALF + 1), pt(hy - 0.6), "X mm")
    c.drawCentredString(pt(vx), pt(y + SCALE_HALF + 1.8), "Y mm")
    c.restoreState()
