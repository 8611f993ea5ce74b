"""Print-and-cut sheets for home cutting machines (``daimyo print --cut-machine``).

Each machine has an area where its optical sensor and blade can work; the cards go inside it
and the cut contour (one rounded rectangle per card, the card's corner radius) is written
beside the PDF as SVG and DXF, in millimetres from the page's top-left corner (the origin
the machines' programs use for a page-sized document).

* ``silhouette`` -- Silhouette Studio's print-and-cut registration marks (Type 1, the
  defaults for the CAMEO and Portrait): a 5 mm filled square at the top-left, L-shaped marks
  at the top-right and bottom-left, legs 20 mm long and 0.5 mm thick, each mark 10 mm in
  from the paper edges (so on A4 the marks' corners are 190 x 277 mm apart, the figures
  the inkscape-silhouette project documents for the same marks). The cards, bleed included,
  keep 2 mm inside the rectangle the marks span and 2 mm from every mark.
* ``cricut`` -- Cricut Design Space prints its own sensor frame around a Print Then Cut
  image, and an image may be at most 6.75 x 9.25 in (171.45 x 234.95 mm) on Letter or A4
  (Cricut's published Print Then Cut limit): the cards fill an area of that size centred on
  the page, drawn as a thin grey outline, and no marks of ours are printed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from builder import yamlio
from builder.errors import UsageError, option
from builder.i18n import _
from builder.kit.layout import Rect, SheetPlan, Slot, plan_sheet, pt

SILHOUETTE_INSET = 10.0  # mm from the paper edges to the marks' outer edges
SILHOUETTE_SQUARE = 5.0  # mm, the filled square at the top-left
SILHOUETTE_LENGTH = 20.0  # mm, each leg of an L mark
SILHOUETTE_THICKNESS = 0.5  # mm, the marks' line width
SILHOUETTE_CLEAR = 2.0  # mm between the marks and the nearest card (bleed included)
CRICUT_AREA = (171.45, 234.95)  # mm: 6.75 x 9.25 in

STANDARD_RADIUS = 3.175  # mm (1/8 in): the usual die-cut corner of a playing card


@dataclass(frozen=True)
class CutMachine:
    name: str
    label: str


MACHINES = {
    "silhouette": CutMachine("silhouette", "Silhouette (Studio print and cut)"),
    "cricut": CutMachine("cricut", "Cricut (Design Space Print Then Cut)"),
}


def machine(name: str | None) -> CutMachine | None:
    """The machine called ``name`` (None for none; UsageError for an unknown one)."""
    if name is None:
        return None
    key = str(name).strip().lower()
    if key not in MACHINES:
        raise UsageError(
            _("unknown cutting machine '{name}'").format(name=name),
            _("use {option} silhouette or cricut").format(option=option("cut-machine")),
        )
    return MACHINES[key]


def corner_radius(card: tuple[float, float]) -> float:
    """The card's corner radius (mm): 1/8 in for cards at least as wide as bridge cards,
    in proportion for narrower ones (mini: 2.2 mm)."""
    w = min(card)
    return round(STANDARD_RADIUS if w >= 57.15 else STANDARD_RADIUS * w / 63.5, 3)


def cut_area(m: CutMachine, paper: tuple[float, float]) -> Rect:
    """Where the cards may go on the page (mm, bottom-left origin)."""
    pw, ph = paper
    if m.name == "silhouette":
        d = SILHOUETTE_INSET + SILHOUETTE_THICKNESS + SILHOUETTE_CLEAR
        if m.name == "silhouette" and (pw < 2 * d + 10 or ph < 2 * d + 10):
            raise UsageError(
                _("{w}x{h} mm paper leaves no room inside the registration marks").format(w=f"{pw:g}", h=f"{ph:g}"),
                _("use {option} a4 or letter").format(option=option("paper")),
            )
        return Rect(d, d, pw - 2 * d, ph - 2 * d)
    aw, ah = min(CRICUT_AREA[0], pw - 10), min(CRICUT_AREA[1], ph - 10)
    return Rect((pw - aw) / 2, (ph - ah) / 2, aw, ah)


def _covers(slots, m: CutMachine, paper) -> bool:
    """Whether a card (bleed included) comes within ``SILHOUETTE_CLEAR`` of a registration mark."""
    for _kind, mark in registration_marks(m, paper):
        keep = mark.grow(SILHOUETTE_CLEAR)
        if any(
            s.bleed.x < keep.x1 and keep.x < s.bleed.x1 and s.bleed.y < keep.y1 and keep.y < s.bleed.y1 for s in slots
        ):
            return True
    return False


def plan_machine_sheet(m: CutMachine, paper, card, bleed: float = 0.0, gutter: float | None = None) -> SheetPlan:
    """The grid of cards inside the machine's area (no cut marks: the machine cuts). When the
    grid would reach a Silhouette mark in a corner, the rows keep below (or above) that mark:
    of the grids that stay clear, the one holding most cards."""
    a = cut_area(m, paper)
    corner = SILHOUETTE_LENGTH + SILHOUETTE_CLEAR - (a.y - SILHOUETTE_INSET)  # mm below an L mark's corner zone
    square = SILHOUETTE_SQUARE + SILHOUETTE_CLEAR - (a.y - SILHOUETTE_INSET)
    cuts = (
        [(0.0, 0.0)]
        if m.name != "silhouette"
        else [(top, bottom) for top in (0.0, square, corner) for bottom in (0.0, corner)]
    )
    best = None
    for top, bottom in cuts:
        box = Rect(a.x, a.y + bottom, a.w, a.h - top - bottom)
        try:
            inner = plan_sheet((box.w, box.h), card, bleed, margin=0.0, marks=False, gutter=gutter)
        except UsageError:
            continue
        slots = tuple(
            Slot(s.index, s.col, s.row, s.trim.shift(box.x, box.y), s.bleed.shift(box.x, box.y), s.rotated)
            for s in inner.slots
        )
        if _covers(slots, m, paper):
            continue
        if best is None or len(slots) > len(best[1]):
            best = (inner, slots, box)
    if best is None:
        raise UsageError(
            _(
                "a {w}x{h} mm card does not fit inside the {machine} cutting area "
                "({area_w}x{area_h} mm, clear of its marks)"
            ).format(w=f"{card[0]:g}", h=f"{card[1]:g}", machine=m.name, area_w=f"{a.w:g}", area_h=f"{a.h:g}"),
            _("choose a smaller {card} or larger {paper}").format(card=option("card"), paper=option("paper")),
        )
    inner, slots, box = best
    return SheetPlan(
        paper=tuple(paper),
        card=tuple(card),
        bleed=bleed,
        cols=inner.cols,
        rows=inner.rows,
        rotated=inner.rotated,
        slots=slots,
        marks=(),
        area=inner.area.shift(box.x, box.y),
        outer_bleed=inner.outer_bleed,
    )


def registration_marks(m: CutMachine, paper) -> list[tuple[str, Rect]]:
    """The marks to print: ("fill", rect) for filled shapes (the L marks as two bars each)."""
    if m.name != "silhouette":
        return []
    pw, ph = paper
    i, t, n, s = SILHOUETTE_INSET, SILHOUETTE_THICKNESS, SILHOUETTE_LENGTH, SILHOUETTE_SQUARE
    return [
        ("fill", Rect(i, ph - i - s, s, s)),  # square, top-left
        ("fill", Rect(pw - i - n, ph - i - t, n, t)),  # top-right L: across
        ("fill", Rect(pw - i - t, ph - i - n, t, n)),  #              down
        ("fill", Rect(i, i, n, t)),  # bottom-left L: across
        ("fill", Rect(i, i, t, n)),
    ]  #                up


def draw_machine_page(c, m: CutMachine, paper) -> None:
    """The registration marks (Silhouette) or the outline of the image area (Cricut)."""
    c.saveState()
    if m.name == "silhouette":
        c.setFillColorRGB(0, 0, 0)
        for _, r in registration_marks(m, paper):
            c.rect(pt(r.x), pt(r.y), pt(r.w), pt(r.h), stroke=0, fill=1)
    else:
        a = cut_area(m, paper)
        c.setStrokeColorRGB(0.75, 0.75, 0.75)
        c.setLineWidth(0.3)
        c.rect(pt(a.x), pt(a.y), pt(a.w), pt(a.h), stroke=1, fill=0)
    c.restoreState()


# -- contour files ----------------------------------------------------------------------------


def contours(plan: SheetPlan, count: int | None = None) -> list[Rect]:
    """The trim rectangle of every card of a sheet (of its first ``count`` positions, on a
    sheet not filled), in mm from the page's TOP-left corner."""
    ph = plan.paper[1]
    slots = plan.slots if count is None else plan.slots[:count]
    return [Rect(s.trim.x, ph - s.trim.y1, s.trim.w, s.trim.h) for s in slots]


def _n(v: float) -> str:
    return f"{v:.3f}".rstrip("0").rstrip(".")


def contour_svg(plan: SheetPlan, count: int | None = None) -> str:
    """The cut lines as an SVG document the size of the page (1 user unit = 1 mm)."""
    pw, ph = plan.paper
    r = corner_radius(plan.card)
    rows = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(pw)}mm" height="{_n(ph)}mm" '
        f'viewBox="0 0 {_n(pw)} {_n(ph)}">',
        '  <g id="cut" fill="none" stroke="#ff0000" stroke-width="0.1">',
    ]
    for i, c in enumerate(contours(plan, count), 1):
        rows.append(
            f'    <rect id="card-{i}" x="{_n(c.x)}" y="{_n(c.y)}" width="{_n(c.w)}" height="{_n(c.h)}" '
            f'rx="{_n(r)}" ry="{_n(r)}"/>'
        )
    rows += ["  </g>", "</svg>", ""]
    return "\n".join(rows)


def contour_dxf(plan: SheetPlan, count: int | None = None) -> str:
    """The cut lines as a DXF (R12 entities, millimetres): per card four lines and four
    quarter-circle arcs. DXF's y runs up from the page's bottom edge: a point (x, y) of the
    SVG is (x, page height - y) here, the PDF's own coordinates."""
    ph = plan.paper[1]
    r = corner_radius(plan.card)
    out = ["0", "SECTION", "2", "HEADER", "9", "$INSUNITS", "70", "4", "0", "ENDSEC", "0", "SECTION", "2", "ENTITIES"]

    def line(x0, y0, x1, y1):
        out.extend(["0", "LINE", "8", "CUT", "10", _n(x0), "20", _n(y0), "11", _n(x1), "21", _n(y1)])

    def arc(cx, cy, a0, a1):
        out.extend(["0", "ARC", "8", "CUT", "10", _n(cx), "20", _n(cy), "40", _n(r), "50", _n(a0), "51", _n(a1)])

    for c in contours(plan, count):
        x0, x1 = c.x, c.x + c.w
        y0, y1 = ph - c.y - c.h, ph - c.y  # DXF: y up
        line(x0 + r, y0, x1 - r, y0)
        line(x1, y0 + r, x1, y1 - r)
        line(x1 - r, y1, x0 + r, y1)
        line(x0, y1 - r, x0, y0 + r)
        arc(x1 - r, y0 + r, 270, 360)
        arc(x1 - r, y1 - r, 0, 90)
        arc(x0 + r, y1 - r, 90, 180)
        arc(x0 + r, y0 + r, 180, 270)
    out += ["0", "ENDSEC", "0", "EOF", ""]
    return "\n".join(out)


def write_contours(plan: SheetPlan, pdf_path, force: bool = False, sheets: list[int] | None = None) -> list:
    """Write ``NAME.cut.svg`` and ``NAME.cut.dxf`` beside the PDF (the cut lines of a full
    sheet); returns their paths. ``sheets``: the number of cards on each sheet. When the last
    sheet is not full, its own cut lines go to ``NAME.last.cut.svg`` and ``.dxf`` (the blade
    cuts no empty position); a single sheet not full gets only its cards' lines."""
    base = Path(pdf_path)
    counts = sheets or [plan.per_page]
    full = None if len(counts) > 1 or counts[0] >= plan.per_page else counts[0]
    jobs = [
        (base.with_suffix(".cut.svg"), contour_svg(plan, full)),
        (base.with_suffix(".cut.dxf"), contour_dxf(plan, full)),
    ]
    if len(counts) > 1 and counts[-1] < plan.per_page:
        jobs += [
            (base.with_suffix(".last.cut.svg"), contour_svg(plan, counts[-1])),
            (base.with_suffix(".last.cut.dxf"), contour_dxf(plan, counts[-1])),
        ]
    for p, text in jobs:
        yamlio.atomic_write(p, text, force=force)
    return [p for p, _ in jobs]
