"""Print layout math in millimetres. Pure: no reportlab, no files.

Coordinates follow PDF: origin at the bottom-left corner of the page, x to the right,
y up, all in millimetres. ``pt(mm)`` converts to PDF points for the drawing code.

* paper and card sizes by name (:func:`paper_size`, :func:`card_size`);
* :func:`plan_sheet`: how many cards fit inside margins of at least 5 mm (cards may be
  turned 90 degrees when that fits more), each card's trim rectangle, its bleed
  rectangle, the cut-mark segments (all outside every card, in the page margin);
* :func:`back_slot`: where a card's back goes on the following page for long-edge
  (mirrored left-right) or short-edge (mirrored top-bottom and turned 180 degrees)
  duplex, plus the printer offset.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

from builder.errors import UsageError, option
from builder.i18n import L_
from builder.kit.printbounds import BLEED, GUTTER, PAGE_MARGIN_MM

# the named sizes and their readers live with the print options' bounds; read from here too
from builder.kit.printbounds import CARDS as CARDS
from builder.kit.printbounds import PAPERS as PAPERS
from builder.kit.printbounds import card_size as card_size
from builder.kit.printbounds import paper_size as paper_size
from builder.kit.printbounds import parse_offset as parse_offset

MM_PER_PT = 25.4 / 72.0
PT_PER_MM = 72.0 / 25.4

MIN_MARGIN = PAGE_MARGIN_MM  # mm, on every side of the page (pnp-howto minimum)
MARK_OFFSET = 1.0  # mm between the bleed edge and the start of a cut mark
MARK_LENGTH = 3.0  # mm, longest cut mark
MARK_MIN_LENGTH = 1.5  # mm, shortest mark still worth drawing
MARK_PAGE_CLEAR = 5.0  # mm kept free at the page edge (common inkjets cannot print the outer ~4.2 mm)
MARK_EDGE_CLEAR = 2.0  # mm: a cut mark may reach this close to the paper edge (shortened, it still
# prints where a printer leaves the edge blank; it shows the cut line)
MARK_SHORTEST = 0.8  # mm: a mark shortened to make room is never shorter than this
MARK_NEAR = 0.3  # mm from the bleed edge to a mark moved in close to make room
EPS = 1e-6


def pt(mm: float) -> float:
    """Millimetres to PDF points."""
    return mm * PT_PER_MM


def mm(points: float) -> float:
    """PDF points to millimetres."""
    return points * MM_PER_PT


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in mm (x, y = bottom-left corner)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        return self.x + self.w

    @property
    def y1(self) -> float:
        return self.y + self.h

    def grow(self, d: float) -> Rect:
        return Rect(self.x - d, self.y - d, self.w + 2 * d, self.h + 2 * d)

    def shift(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def contains_point(self, px: float, py: float, tol: float = EPS) -> bool:
        """Strictly inside (points on the border do not count)."""
        return self.x + tol < px < self.x1 - tol and self.y + tol < py < self.y1 - tol

    def intersects_segment(self, seg: Segment, tol: float = EPS) -> bool:
        """Whether an axis-parallel segment passes through the inside of this rectangle."""
        if abs(seg.y0 - seg.y1) < EPS:  # horizontal
            y = seg.y0
            lo, hi = sorted((seg.x0, seg.x1))
            return self.y + tol < y < self.y1 - tol and lo < self.x1 - tol and hi > self.x + tol
        x = seg.x0
        lo, hi = sorted((seg.y0, seg.y1))
        return self.x + tol < x < self.x1 - tol and lo < self.y1 - tol and hi > self.y + tol

    def inside(self, other: Rect, tol: float = EPS) -> bool:
        return (
            self.x >= other.x - tol
            and self.y >= other.y - tol
            and self.x1 <= other.x1 + tol
            and self.y1 <= other.y1 + tol
        )


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)


@dataclass(frozen=True)
class Slot:
    """One card position on a sheet.

    ``trim`` is the card's cut rectangle as placed on the page (width and height swapped
    when ``rotated``), ``bleed`` the trim grown by the bleed. ``rotated`` means the card's
    face is turned 90 degrees counter-clockwise on the page.
    """

    index: int
    col: int
    row: int  # 0 = top row
    trim: Rect
    bleed: Rect
    rotated: bool = False


@dataclass(frozen=True)
class SheetPlan:
    paper: tuple[float, float]
    card: tuple[float, float]  # nominal card size (w, h) upright
    bleed: float
    cols: int
    rows: int
    rotated: bool
    slots: tuple[Slot, ...]
    marks: tuple[Segment, ...] = field(default=())
    area: Rect = Rect(0, 0, 0, 0)  # bounding box of all bleed rectangles
    outer_bleed: tuple[float, float] = (0.0, 0.0)  # bleed on the grid's outer edges (x, y)

    @property
    def per_page(self) -> int:
        return len(self.slots)

    def pages_for(self, n_cards: int) -> int:
        return max(1, math.ceil(n_cards / self.per_page)) if n_cards else 0


# -- grid -------------------------------------------------------------------------


def _fit(avail: float, cell: float, gap: float) -> int:
    if cell <= 0 or avail + EPS < cell:
        return 0
    return int((avail - cell + EPS) // (cell + gap)) + 1


def plan_sheet(
    paper: tuple[float, float],
    card: tuple[float, float],
    bleed: float = 0.0,
    margin: float = MIN_MARGIN,
    gap: float = 0.0,
    marks: bool = True,
    allow_rotate: bool = True,
    gutter: float | None = None,
) -> SheetPlan:
    """Fit as many cards as possible on the page inside ``margin`` on every side.

    ``gutter`` is the distance between the trims of neighbouring cards. By default
    (None) every card has its own ``bleed`` on every side and cells are ``gap`` mm apart
    (gutter = 2 x bleed + gap). A gutter smaller than twice the bleed shares the bleed
    between neighbours: each card's bleed then reaches half the gutter on the inner
    sides and the full bleed on the outer edges of the grid (``--gutter 0``: cards abut,
    one cut separates two cards). The grid is centred. When turning the cards 90
    degrees fits strictly more, they are turned. Raises UsageError when not one card
    fits or the bleed is unreasonable.
    """
    pw, ph = paper
    cw, ch = card
    bleed = BLEED.check(bleed)  # also nan
    g = 2 * bleed + gap if gutter is None else GUTTER.check(gutter)
    inner = min(bleed, g / 2)  # bleed on the sides that face a neighbour
    aw, ah = pw - 2 * margin, ph - 2 * margin

    shared = gutter is not None and g < 2 * bleed - EPS

    def fit(avail: float, size: float) -> int:
        # shared bleed: the outer bleed gives way (down to none) rather than a row of cards
        room = avail - (0 if shared else 2 * bleed)
        if room + EPS < size:
            return 0
        return int((room - size + EPS) // (size + g)) + 1

    def outer(avail: float, size: float, n: int) -> float:
        return max(0.0, min(bleed, (avail - n * size - (n - 1) * g) / 2))

    best = None
    options = [(False, cw, ch)] + ([(True, ch, cw)] if allow_rotate and abs(cw - ch) > EPS else [])
    for rotated, w, h in options:
        cols, rows = fit(aw, w), fit(ah, h)
        n = cols * rows
        if n and (
            best is None
            or n > best[0]
            or (
                n == best[0]
                and min(outer(aw, w, cols), outer(ah, h, rows))
                > min(outer(aw, best[2], best[4]), outer(ah, best[3], best[5])) + EPS
            )
        ):
            best = (n, rotated, w, h, cols, rows)
    if best is None:
        # say why: the card alone or the bleed
        if _fit(aw, cw, gap) * _fit(ah, ch, gap) or _fit(aw, ch, gap) * _fit(ah, cw, gap):
            raise UsageError(
                L_(
                    "a bleed of {bleed:g} mm does not fit: the card with bleed is larger than the printable area {aw:g}x{ah:g} mm",
                    bleed=bleed,
                    aw=aw,
                    ah=ah,
                ),
                L_("use a smaller {option}", option=option("bleed")),
            )
        raise UsageError(
            L_(
                "a {cw:g}x{ch:g} mm card does not fit on {pw:g}x{ph:g} mm paper inside {margin:g} mm margins",
                cw=cw,
                ch=ch,
                pw=pw,
                ph=ph,
                margin=margin,
            ),
            L_("choose a smaller {option} or larger {option2}", option=option("card"), option2=option("paper")),
        )
    _, rotated, w, h, cols, rows = best
    obx, oby = (outer(aw, w, cols), outer(ah, h, rows)) if shared else (bleed, bleed)
    grid_w = cols * w + (cols - 1) * g + 2 * obx
    grid_h = rows * h + (rows - 1) * g + 2 * oby
    left = (pw - grid_w) / 2
    bottom = (ph - grid_h) / 2
    slots: list[Slot] = []
    for r in range(rows):
        for c in range(cols):
            tx = left + obx + c * (w + g)
            ty = bottom + oby + (rows - 1 - r) * (h + g)
            t = Rect(tx, ty, w, h)
            bl = obx if c == 0 else inner
            br = obx if c == cols - 1 else inner
            bb = oby if r == rows - 1 else inner
            bt = oby if r == 0 else inner
            b = Rect(tx - bl, ty - bb, w + bl + br, h + bb + bt)
            slots.append(Slot(len(slots), c, r, t, b, rotated))
    area = Rect(left, bottom, grid_w, grid_h)
    segs = cut_marks(slots, area, paper) if marks else ()
    return SheetPlan(
        paper=(pw, ph),
        card=(cw, ch),
        bleed=bleed,
        cols=cols,
        rows=rows,
        rotated=rotated,
        slots=tuple(slots),
        marks=tuple(segs),
        area=area,
        outer_bleed=(obx, oby),
    )


def plan_fold(
    paper: tuple[float, float],
    card: tuple[float, float],
    bleed: float = 0.0,
    gutter: float | None = None,
    marks: bool = True,
) -> tuple[SheetPlan, str, Segment]:
    """Gutter-fold sheets: fronts on one half of the page, their backs on the other.

    The page is folded along its middle, horizontally (fronts on the top half, backs
    below) or vertically (fronts on the left), whichever holds more cards (horizontal on
    a tie). Each half keeps ``MIN_MARGIN`` from the page edges and from the fold line.
    Returns (plan of the fronts on the whole page, the duplex mode whose mirror puts
    each back behind its front after folding: "short" for a horizontal fold, "long" for
    a vertical one, and the fold line).
    """
    pw, ph = paper
    choices = []
    for fold, half in (("short", (pw, ph / 2)), ("long", (pw / 2, ph))):
        try:
            p = plan_sheet(half, card, bleed, gutter=gutter, marks=False)
        except UsageError:
            continue
        choices.append((p.per_page, fold, p))
    if not choices:
        raise UsageError(
            L_(
                "a {value:g}x{value2:g} mm card with its back does not fit on one {pw:g}x{ph:g} mm page",
                value=card[0],
                value2=card[1],
                pw=pw,
                ph=ph,
            ),
            L_("use {option} duplex or {option} separate", option=option("layout")),
        )
    choices.sort(key=lambda t: -t[0])
    _, fold, half_plan = choices[0]
    dy = ph / 2 if fold == "short" else 0.0
    slots = tuple(
        Slot(s.index, s.col, s.row, s.trim.shift(0, dy), s.bleed.shift(0, dy), s.rotated) for s in half_plan.slots
    )
    area = half_plan.area.shift(0, dy)
    backs = [back_slot(s, paper, fold)[1] for s in slots]
    bx0, by0 = min(b.x for b in backs), min(b.y for b in backs)
    bx1, by1 = max(b.x1 for b in backs), max(b.y1 for b in backs)
    full = Rect(
        min(area.x, bx0), min(area.y, by0), max(area.x1, bx1) - min(area.x, bx0), max(area.y1, by1) - min(area.y, by0)
    )
    line = Segment(0, ph / 2, pw, ph / 2) if fold == "short" else Segment(pw / 2, 0, pw / 2, ph)
    plan = SheetPlan(
        paper=(pw, ph),
        card=(card[0], card[1]),
        bleed=bleed,
        cols=half_plan.cols,
        rows=half_plan.rows,
        rotated=half_plan.rotated,
        slots=slots,
        area=full,
        outer_bleed=half_plan.outer_bleed,
    )
    if marks:
        fronts = cut_marks(slots, full, paper)
        back_slots = [
            Slot(s.index, s.col, s.row, back_slot(s, paper, fold)[0], b, s.rotated)
            for s, b in zip(slots, backs, strict=False)
        ]
        seen = {(round(m.x0, 4), round(m.y0, 4), round(m.x1, 4), round(m.y1, 4)) for m in fronts}
        more = [
            m
            for m in cut_marks(back_slots, full, paper)
            if (round(m.x0, 4), round(m.y0, 4), round(m.x1, 4), round(m.y1, 4)) not in seen
        ]
        plan = dataclasses.replace(plan, marks=tuple(fronts + more))
    return plan, fold, line


def cut_lines(slots, paper: tuple[float, float]) -> list[Segment]:
    """Full-length cut lines: every distinct trim edge as a line across the page, from
    ``MARK_PAGE_CLEAR`` to ``MARK_PAGE_CLEAR`` (for a ruler and knife or a guillotine)."""
    pw, ph = paper
    xs = sorted({round(v, 4) for s in slots for v in (s.trim.x, s.trim.x1)})
    ys = sorted({round(v, 4) for s in slots for v in (s.trim.y, s.trim.y1)})
    c = MARK_PAGE_CLEAR
    return [Segment(x, c, x, ph - c) for x in xs] + [Segment(c, y, pw - c, y) for y in ys]


def cut_marks(slots, area: Rect, paper: tuple[float, float]) -> list[Segment]:
    """Cut marks: short lines in the page margin continuing every card edge.

    One mark per distinct cut line per side of the grid, starting ``MARK_OFFSET`` mm
    outside the outermost bleed and ending at most ``MARK_LENGTH`` mm further, kept
    ``MARK_PAGE_CLEAR`` mm from the page edge where the margin allows; in a narrow margin the
    mark shortens (to ``MARK_SHORTEST``) and reaches up to ``MARK_EDGE_CLEAR`` mm from the edge
    rather than vanish. No mark touches a card.
    """
    pw, ph = paper
    xs = sorted({round(v, 4) for s in slots for v in (s.trim.x, s.trim.x1)})
    ys = sorted({round(v, 4) for s in slots for v in (s.trim.y, s.trim.y1)})
    segs: list[Segment] = []

    def span(start: float, limit: float, direction: int) -> tuple[float, float] | None:
        """A full mark outside the printer's blank edge; else a shorter one reaching into it
        (down to ``MARK_EDGE_CLEAR``), moved in close to the bleed when it must be."""
        for offset, edge, shortest in (
            (MARK_OFFSET, limit, MARK_MIN_LENGTH),
            (MARK_OFFSET, edge_limit(direction, limit), MARK_MIN_LENGTH),
            (MARK_NEAR, edge_limit(direction, limit), MARK_SHORTEST),
        ):
            a = start + direction * offset
            length = min(MARK_LENGTH, (edge - a) * direction)
            if length >= shortest - 1e-9:
                return a, a + direction * length
        return None

    def edge_limit(direction: int, limit: float) -> float:
        return limit + direction * (MARK_PAGE_CLEAR - MARK_EDGE_CLEAR)

    top = span(area.y1, ph - MARK_PAGE_CLEAR, +1)
    bottom = span(area.y, MARK_PAGE_CLEAR, -1)
    right = span(area.x1, pw - MARK_PAGE_CLEAR, +1)
    left = span(area.x, MARK_PAGE_CLEAR, -1)
    for x in xs:
        for sp in (top, bottom):
            if sp:
                segs.append(Segment(x, sp[0], x, sp[1]))
    for y in ys:
        for sp in (left, right):
            if sp:
                segs.append(Segment(sp[0], y, sp[1], y))
    return segs


# -- duplex -----------------------------------------------------------------------

DUPLEX_MODES = ("long", "short")


def back_slot(
    slot: Slot, paper: tuple[float, float], duplex: str = "long", offset: tuple[float, float] = (0.0, 0.0)
) -> tuple[Rect, Rect, int]:
    """Where the back of ``slot`` goes on the next page: (trim, bleed, extra rotation).

    Long edge (the sheet turns over like a book page): the back page is the front page
    mirrored left-right, so a card's back sits at ``x' = W - x - w``, same ``y``.
    Short edge (the sheet flips top over bottom): ``y' = H - y - h``, same ``x``.

    The back must stand upright behind its front when the cut card is turned over like a
    book page (about the card's own vertical axis). The flip of the sheet mirrors one
    axis of the page: the card's up direction survives a mirror across it and is
    reversed by a mirror along it. An upright card's up is the page's y: kept by a
    long-edge flip, reversed by a short-edge flip. A card turned sideways on the sheet
    has its up along the page's x: reversed by a long-edge flip, kept by a short-edge
    flip. So the back is turned 180 degrees (``extra rotation`` = 180) exactly when the
    flip is short-edge XOR the card lies sideways (:func:`card_matrix` draws it).
    ``offset`` (mm, as measured with ``daimyo print-test``) then shifts every back by
    (+x right, +y up) in the back page's own coordinates.
    """
    if duplex not in DUPLEX_MODES:
        raise UsageError(L_("unknown duplex mode '{duplex}'", duplex=duplex), L_("use long or short"))
    pw, ph = paper
    dx, dy = offset
    t, b = slot.trim, slot.bleed
    turn = 180 if (duplex == "short") != bool(slot.rotated) else 0
    if duplex == "long":
        tr = Rect(pw - t.x - t.w + dx, t.y + dy, t.w, t.h)
        br = Rect(pw - b.x - b.w + dx, b.y + dy, b.w, b.h)
        return tr, br, turn
    tr = Rect(t.x + dx, ph - t.y - t.h + dy, t.w, t.h)
    br = Rect(b.x + dx, ph - b.y - b.h + dy, b.w, b.h)
    return tr, br, turn


def card_matrix(trim: Rect, rotated: bool, turn180: bool) -> tuple[float, float, float, float, float, float]:
    """The affine map (a, b, c, d, e, f) from card coordinates (mm, origin at the upright
    card's bottom-left corner) to page coordinates: ``x' = a x + c y + e``,
    ``y' = b x + d y + f``. A ``rotated`` card is turned 90 degrees counter-clockwise
    (its top points left); ``turn180`` turns it a further half turn inside its trim.
    The drawing code applies exactly this transform."""
    a, b, c, d, e, f = 1.0, 0.0, 0.0, 1.0, trim.x, trim.y

    def then(m2):  # current = current * m2 (m2 applied first to card coordinates)
        nonlocal a, b, c, d, e, f
        a2, b2, c2, d2, e2, f2 = m2
        a, b, c, d, e, f = (
            a * a2 + c * b2,
            b * a2 + d * b2,
            a * c2 + c * d2,
            b * c2 + d * d2,
            a * e2 + c * f2 + e,
            b * e2 + d * f2 + f,
        )

    if turn180:
        then((-1.0, 0.0, 0.0, -1.0, trim.w, trim.h))
    if rotated:
        then((0.0, 1.0, -1.0, 0.0, trim.w, 0.0))
    return a, b, c, d, e, f


def apply(m, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def page_chunks(n: int, per_page: int) -> list[range]:
    """Card indices per page."""
    return [range(i, min(n, i + per_page)) for i in range(0, n, per_page)]


def scale_box(
    box: tuple[float, float, float, float], ref: tuple[float, float], card: tuple[float, float]
) -> tuple[float, float, float, float]:
    """A template box ``(x, y_top, w, h)`` designed for a ``ref`` card, scaled to ``card``.

    Template boxes are measured from the card's top-left corner (as a designer reads a
    card); the result is in card coordinates from the bottom-left corner:
    ``(x, y, w, h)``.
    """
    sx, sy = card[0] / ref[0], card[1] / ref[1]
    x, yt, w, h = box
    return (x * sx, card[1] - (yt + h) * sy, w * sx, h * sy)
