"""Card sheets: pages of card faces with cut marks, their backs (duplex, fold or separate),
the page chrome (sheet label, 50 mm ruler, check result) and the list page.

Pages: fronts, then (with backs) the backs on the following page, each back at the
mirrored position of its card (``layout.back_slot``). Frames and backs are form
XObjects drawn once per document; each distinct image is embedded once.
Entry point: :func:`render_cards` (called by ``api.render_list``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from builder.catalog.packart import art_folder
from builder.errors import UsageError
from builder.i18n import N_, _
from builder.kit import fonts
from builder.kit.layout import (
    MARK_EDGE_CLEAR,
    MARK_LENGTH,
    MARK_OFFSET,
    MARK_PAGE_CLEAR,
    back_slot,
    cut_lines,
    cut_marks,
    page_chunks,
    plan_fold,
    plan_sheet,
    pt,
)
from builder.kit.pdfbase import (
    RULER_LENGTH,
    PdfJob,
    ShareLine,
    draw_marks,
    draw_qr,
    draw_ruler,
    draw_text_box,
    footer_lines,
    footer_rows,
    is_link,
    list_display_name,
    qr_size,
    qr_text,
    refuse_output,
    ruler_label_width,
    share_prefix,
    validation_lines,
)
from builder.kit.printbounds import LAYOUTS as PRINT_LAYOUTS
from builder.kit.printbounds import SCALE_X, SCALE_Y
from builder.kit.printoptions import PrintOptions
from builder.paths import within
from builder.render.cards.art import find_art, prepare_images
from builder.render.cards.base import SheetOptions
from builder.render.cards.faces import CardSheetWriter
from builder.render.cards.geometry import plan_faces
from builder.render.cards.template import (
    CardTemplate,
    choose_back,
    choose_layout,
    field_text,
    list_cards,
    load_template,
)
from builder.render.cutmachine import (
    SILHOUETTE_INSET,
    cut_area,
    draw_machine_page,
    machine,
    plan_machine_sheet,
    write_contours,
)

if TYPE_CHECKING:
    from builder.render.cutmachine import CutMachine

# -- rendering ----------------------------------------------------------------------------


LAYOUTS = PRINT_LAYOUTS


def scale_value(v, axis: str) -> float:
    """A scale correction across (``x``) or down (``y``) the page, checked as every face checks it."""
    return (SCALE_X if axis == "x" else SCALE_Y).check(v)


def sheet_options(
    paper="a4",
    card="poker",
    bleed=0.0,
    marks=True,
    backs=True,
    duplex="long",
    offset=(0.0, 0.0),
    ink_saver=False,
    layout="duplex",
    gutter=None,
    cut_lines=False,
    scale_x=1.0,
    scale_y=1.0,
    cut_machine=None,
) -> SheetOptions:
    """Validate the user's print options with the print options' model
    (``builder.kit.printoptions.PrintOptions``; UsageError, exit 2, for anything wrong)."""
    o = PrintOptions(
        paper=paper,
        card=card,
        bleed=bleed or 0.0,
        marks=bool(marks),
        backs=bool(backs),
        duplex=duplex,
        offset=offset,
        ink_saver=bool(ink_saver),
        layout=layout,
        gutter=gutter,
        cut_lines=bool(cut_lines),
        scale_x=scale_x,
        scale_y=scale_y,
        cut_machine=cut_machine,
    )

    m = machine(o.cut_machine)
    return SheetOptions(
        o.paper_mm,
        o.card_mm,
        o.bleed,
        o.marks and m is None,
        o.backs,
        o.duplex,
        o.offset,
        o.ink_saver,
        o.layout,
        o.gutter,
        o.cut_lines and m is None,
        (o.scale_x, o.scale_y),
        cut_machine=m.name if m else None,
    )


# -- page chrome placement ----------------------------------------------------------------


@dataclass
class Band:
    side: str  # bottom | top | left | right
    depth: float  # usable depth (mm) between the page-edge clearance and the marks
    start: float  # distance of the usable region from the page edge (mm)


EDGE_CLEAR = MARK_PAGE_CLEAR + 0.5  # mm: nothing (descenders included) is printed closer to the paper edge


def free_bands(plan, marks: bool) -> list[Band]:
    pw, ph = plan.paper
    a = plan.area
    used = MARK_OFFSET + MARK_LENGTH + 0.5 if marks else 1.0
    gaps = {"bottom": a.y, "top": ph - a.y1, "left": a.x, "right": pw - a.x1}
    return [Band(side, g - used - EDGE_CLEAR, EDGE_CLEAR) for side, g in gaps.items()]


RULER_BLOCK = 50.0 + 45.0  # mm along the band: the bar and its label


CHROME_SIZE = 5.0  # pt, footer text on card sheets
CHROME_MIN = 4.5
CHROME_LEAD = 1.2


def _band_length(plan, band: Band) -> float:
    """Usable text length (points) along a band: the page side less 8 mm at each end."""
    pw, ph = plan.paper
    return pt((pw if band.side in ("bottom", "top") else ph) - 16)


def _rows(text: str, length: float) -> list:
    return footer_rows(text, length, CHROME_SIZE, CHROME_MIN, fonts.CONDENSED)


def _rows_depth(rows) -> float:
    return sum(r.size * CHROME_LEAD for r in rows) / 72 * 25.4 + 0.3


def draw_chrome(
    job,
    plan,
    lines: list[str],
    info: str,
    marks: bool,
    ruler: bool = True,
    last_resort: bool = False,
    edges: tuple[list[float], list[float]] | None = None,
) -> list:
    """Footer lines, the 50 mm ruler and an info line beside it, in the free page margins.

    Items are stacked into the margin bands outside the cut marks: the footer lines
    together in the first band deep enough (bottom, top, left, right) or else each line
    on its own, the ruler block in the deepest band left. The share code is never cut: it
    wraps onto a second line in smaller type, and a wrapped code stays in one band. In a
    side band the text is turned to read upwards. Returns the items that found no room
    (draw them on the back page). With ``last_resort`` a share code that finds no room is
    replaced by how to get it (``daimyo export LIST --to code``). When no band is deep enough
    for the ruler and ``edges`` (the x and y of every card edge, see :func:`ruler_in_strip`)
    are given, the ruler goes in the strip beside the cards between two cut marks.
    """
    order = {"bottom": 0, "top": 1, "left": 2, "right": 3}
    bands = sorted(free_bands(plan, marks), key=lambda b: order[b.side])
    used = {b.side: 0.0 for b in bands}

    def room(b: Band) -> float:
        return b.depth - used[b.side]

    def place(texts: list[str]) -> bool:
        """All of ``texts`` in the first band deep enough; False when none is."""
        for b in bands:
            rows = [r for t in texts for r in _rows(t, _band_length(plan, b))]
            need = _rows_depth(rows)
            if room(b) >= need:
                _band_text(job.canvas, plan.paper, b, rows, used[b.side])
                used[b.side] += need + 0.6
                return True
        return False

    left_over: list = []
    lines = [t for t in lines if t]
    if lines and not place(lines):
        rest = [t for t in lines if not place([t])]
        if rest and last_resort:
            rest = [t for t in rest if not (isinstance(t, ShareLine) and t.fallback and place([t.fallback]))]
        if rest:
            left_over.append(("lines", rest))
    if ruler:
        # a band long enough for the 50 mm bar (5 mm from the paper's edges), the roomiest
        long_enough = [
            b for b in bands if (plan.paper[0] if b.side in ("bottom", "top") else plan.paper[1]) >= 8.0 + 50.0 + 5.0
        ]
        band = max(long_enough or bands, key=room)
        if long_enough and room(band) >= 3.6:
            _ruler_in(job.canvas, plan.paper, band, used[band.side], info, 5.5)
            used[band.side] += 4.2
        elif edges is not None and ruler_in_strip(job.canvas, plan, edges, used):
            if info and not place([info]):
                left_over.append(("lines", [info]))
        else:
            left_over.append(("ruler", info))
            if info and not place([info]):  # the label goes on without its ruler
                left_over.append(("lines", [info]))
    elif info and not place([info]):
        left_over.append(("lines", [info]))
    return left_over


RULER_DEPTH = 3.3  # mm across the ruler: its longest ticks and the bar's line
RULER_CARD_CLEAR = 0.8  # mm between the ruler and the cards' bleed
RULER_MARK_CLEAR = 0.8  # mm between the ruler's end ticks and a cut mark


def card_edges(rects) -> tuple[list[float], list[float]]:
    """The x of every vertical and the y of every horizontal edge of ``rects`` (trims and
    bleeds): where a cut mark or a cut line may run."""
    xs = sorted({round(v, 4) for r in rects for v in (r.x, r.x1)})
    ys = sorted({round(v, 4) for r in rects for v in (r.y, r.y1)})
    return xs, ys


def strip_place(
    plan, edges: tuple[list[float], list[float]], used: dict | None = None, label_width: float = 0.0
) -> tuple[str, float, float] | None:
    """Where the 50 mm ruler fits in the strip between the cards and the paper edge when no
    margin band holds it: (side, start along the side, distance of the bar from the cards'
    area), or None. The ruler keeps ``RULER_CARD_CLEAR`` from the cards, ``MARK_EDGE_CLEAR``
    from the paper edge (``EDGE_CLEAR`` plus what the band already holds when it holds
    text), and lies between two neighbouring card edges (where no cut mark runs), with its
    label when ``label_width`` mm more fits there."""
    pw, ph = plan.paper
    a = plan.area
    gaps = {"bottom": a.y, "top": ph - a.y1, "left": a.x, "right": pw - a.x1}
    spans = {
        "bottom": (a.x, a.x1, edges[0]),
        "top": (a.x, a.x1, edges[0]),
        "left": (a.y, a.y1, edges[1]),
        "right": (a.y, a.y1, edges[1]),
    }
    for side in ("bottom", "top", "left", "right"):
        floor = EDGE_CLEAR + used[side] + 0.3 if used and used.get(side) else MARK_EDGE_CLEAR
        if gaps[side] - RULER_CARD_CLEAR - RULER_DEPTH < floor - 1e-9:
            continue
        lo, hi, cuts = spans[side]
        stops = sorted({lo, hi, *[v for v in cuts if lo < v < hi]})
        longest = max(itertools.pairwise(stops), key=lambda p: p[1] - p[0], default=None)
        if longest is None:
            continue
        room = longest[1] - longest[0] - 2 * RULER_MARK_CLEAR
        if room + 1e-9 < RULER_LENGTH:
            continue
        with_label = room >= RULER_LENGTH + 1.5 + label_width
        return side, longest[0] + RULER_MARK_CLEAR, 1.0 if with_label else 0.0
    return None


def ruler_in_strip(c, plan, edges, used: dict | None = None) -> bool:
    """Draw the 50 mm ruler where :func:`strip_place` finds room; False when it finds none."""
    where = strip_place(plan, edges, used, ruler_label_width())
    if where is None:
        return False
    side, start, label = where
    a = plan.area
    c.saveState()
    # the bar's line nearest the cards for top and right, the ticks' ends nearest for bottom and left
    if side == "bottom":
        draw_ruler(c, start, a.y - RULER_CARD_CLEAR - RULER_DEPTH, label=bool(label))
    elif side == "top":
        draw_ruler(c, start, a.y1 + RULER_CARD_CLEAR, label=bool(label))
    else:
        # turned to read upwards: local y runs to the left of the page
        x = a.x - RULER_CARD_CLEAR if side == "left" else a.x1 + RULER_CARD_CLEAR + RULER_DEPTH
        c.translate(pt(x), 0)
        c.rotate(90)
        draw_ruler(c, start, 0, label=bool(label))
    c.restoreState()
    return True


def _ruler_in(c, paper, band: Band, offset: float, info: str, size: float) -> None:
    pw, ph = paper
    c.saveState()
    along = pw if band.side in ("bottom", "top") else ph
    label = along >= 8.0 + 50.0 + 1.5 + ruler_label_width() + 5.0  # else the bar alone (small paper)
    if band.side in ("bottom", "top"):
        y = band.start + offset if band.side == "bottom" else ph - band.start - offset - 3.5
        draw_ruler(c, 8.0, y, label=label)
        _line_at(c, 8.0 + RULER_BLOCK, y + 0.3, pw - 16 - RULER_BLOCK, info, size)
    else:
        # turned to read upwards: local y runs to the left of the page
        x = (band.start + offset + 3.5) if band.side == "left" else (pw - band.start - offset)
        c.translate(pt(x), 0)
        c.rotate(90)
        draw_ruler(c, 8.0, 0, label=label)
        _line_at(c, 8.0 + RULER_BLOCK, 0.3, ph - 16 - RULER_BLOCK, info, size)
    c.restoreState()


def _line_at(c, x: float, y: float, width: float, text: str, size: float) -> None:
    if not text or width <= 5:
        return
    fit = fonts.fit_text(
        fonts.printable(text, fonts.CONDENSED), pt(width), size * 1.3, fonts.CONDENSED, size, 4.0, wrap=False
    )
    c.setFillColorRGB(0.15, 0.15, 0.15)
    c.setFont(fonts.CONDENSED, fit.size)
    c.drawString(pt(x), pt(y), fit.lines[0] if fit.lines else "")


def _band_text(c, paper, band: Band, rows: list, offset: float = 0.0) -> None:
    """Footer rows (``pdfbase.FooterRow``) in a margin band, in reading order from the top
    (from the left of a side band, where the text is turned to read upwards)."""
    pw, ph = paper
    c.saveState()
    c.setFillColorRGB(0.15, 0.15, 0.15)
    depth = sum(r.size * CHROME_LEAD for r in rows)
    if band.side == "bottom":
        x0, y0 = pt(8), pt(band.start + offset)
    elif band.side == "top":
        x0, y0 = pt(8), pt(ph - band.start - offset) - depth
    else:
        edge = band.start + offset + depth / 72 * 25.4 if band.side == "left" else pw - band.start - offset
        c.translate(pt(edge), 0)
        c.rotate(90)
        # local x runs up the page, local y runs to the left: row i sits further left
        x0, y0 = pt(8), 0.0
    y = y0
    for row in reversed(rows):
        c.setFont(fonts.CONDENSED, row.size)
        c.drawString(x0 + row.indent, y + 0.25 * row.size, row.text)
        y += row.size * CHROME_LEAD
    c.restoreState()


MAX_PRINTED_CARDS = 10_000  # about 1,100 sheets of poker cards: far beyond any deck of the five games


def prepare_faces(doc, catalog, lst, tpl: CardTemplate, opts: SheetOptions):
    """The distinct cards of a list, each with its layout, back and prepared art:
    (faces, warnings, images, art warnings)."""
    faces, warnings = list_cards(doc, catalog, lst)
    total_cards = sum(f.count for f in faces)
    if total_cards > MAX_PRINTED_CARDS:
        raise UsageError(
            _("the list holds {n} cards; one PDF prints at most {most}").format(n=total_cards, most=MAX_PRINTED_CARDS),
            _("check the card counts"),
        )

    base_dirs = [Path(doc.base_dir)] + [Path(p).parent for p in doc.packs]
    search = []
    for d in base_dirs:
        art = within(d, "art")  # an art folder that is a link out of its folder is not searched
        if art is not None and art.is_dir() and art not in search:
            search.append(art)
    art_warnings: list[str] = []
    folders = _pack_folders(catalog)
    for f in faces:
        f.layout = choose_layout(tpl, f.entry)
        f.back = choose_back(tpl, f.entry)
        ident = f.entry.get("id") if isinstance(f.entry, dict) else getattr(f.entry, "id", None)
        f.art = find_art(f, tpl, search, folders.get(ident, Path(doc.base_dir)), art_warnings.append)
    plan_faces(faces, tpl, opts.card, catalog)
    images = prepare_images(faces, tpl, opts, warn=art_warnings.append)
    return faces, warnings, images, art_warnings


def _pack_folders(catalog) -> dict:
    """Entry id -> the folder of the pack that gives the entry (the folder its ``art`` is read
    from; an entry of no pack reads it from the list's folder)."""
    return {key: art_folder(file) for (_section, key), file in (getattr(catalog, "from_pack", None) or {}).items()}


def render_cards(
    doc,
    catalog,
    lst,
    result,
    out_path,
    force: bool = False,
    share_code: str | None = None,
    template: CardTemplate | None = None,
    **options,
) -> Path:
    """Card sheets of a Senshiai, HeroCard or Satsuma list. Returns the written path."""
    opts = sheet_options(**options)
    tpl = template or load_template(doc.system)
    plan, fold_mode, fold_line = _sheet_plan(opts, out_path, force)
    faces, warnings, images, art_warnings = prepare_faces(doc, catalog, lst, tpl, opts)
    footer = footer_lines(result, share_code, list_name=list_display_name(doc))
    title = _("{name} ({system} cards)").format(name=doc.name or Path(doc.file).stem, system=doc.system)
    problems = _glyph_problems(faces, tpl, catalog, footer, title)
    copies = [f for f in faces for _ in range(f.count)]
    chunks = page_chunks(len(copies), plan.per_page) or [range(0)]
    n_sheets = len(chunks)
    backs = opts.backs
    if opts.layout == "fold":
        sheet_pages = n_sheets
    else:
        sheet_pages = n_sheets * (2 if backs else 1)
    total_pages = sheet_pages + 1  # and the list page
    size = f"{opts.card[0]:g}x{opts.card[1]:g} mm" + (
        ", " + _("bleed {bleed} mm").format(bleed=f"{opts.bleed:g}") if opts.bleed else ""
    )

    # one short line on every sheet (it fits a narrow margin); the findings in full, the share
    # code and its QR code on the list page
    verdict = validation_lines(result, limit=0)
    if share_code:
        verdict.append(_("share code and its QR code: page {page}").format(page=total_pages))
    elif verdict and len(footer) > 1:
        verdict.append(_("details: page {page}").format(page=total_pages))
    verdict = ["; ".join(verdict)] if verdict else []
    duplex_pdf = opts.duplex if backs and opts.layout == "duplex" else None
    with PdfJob(
        out_path,
        opts.paper,
        title=title,
        author=doc.author,
        subject=f"{doc.system} card sheets",
        duplex=duplex_pdf,
        force=force,
        total_pages=total_pages,
    ) as job:
        for w in warnings:
            job.warn(w)
        for p in problems:
            job.warn(p.message())
        for w in art_warnings:
            job.warn(w)
        if opts.bleed and plan.outer_bleed != (opts.bleed, opts.bleed) and opts.gutter is not None:
            job.warn(
                f"the bleed on the outer edges of the sheet is {plan.outer_bleed[0]:.2g} mm at the sides "
                f"and {plan.outer_bleed[1]:.2g} mm at the top and bottom to fit {plan.per_page} cards"
            )
        writer = CardSheetWriter(job, tpl, opts, catalog)
        sheet = _SheetDrawer(job, writer, plan, opts, images, fold_mode, fold_line)
        sheet.deck_label, sheet.total = (doc.name or Path(doc.file).stem), len(copies)
        _draw_sheets(job, sheet, opts, _SheetRun(title, size, copies, chunks, verdict))
        writer.report_small_text()
        job.new_page()
        draw_list_page(job, opts, doc, faces, footer, share_code, title, total_pages)
    if opts.cut_machine:
        write_contours(plan, job.path, force=force, sheets=[len(ch) for ch in chunks])
    return job.path


def _sheet_plan(opts: SheetOptions, out_path, force: bool) -> tuple[Any, Any, Any]:
    """Where the cards go on a sheet (the plan), and with ``--layout fold`` the fold's direction
    and line; for a cut machine, the cut files beside the PDF are refused first when they exist."""
    if opts.layout == "fold":
        return plan_fold(opts.paper, opts.card, opts.bleed, opts.gutter, marks=opts.marks)
    if opts.cut_machine:
        plan = plan_machine_sheet(
            cast("CutMachine", machine(opts.cut_machine)), opts.paper, opts.card, opts.bleed, opts.gutter
        )

        for contour in (Path(out_path).with_suffix(".cut.svg"), Path(out_path).with_suffix(".cut.dxf")):
            refuse_output(contour, force)
        return plan, None, None
    return plan_sheet(opts.paper, opts.card, opts.bleed, marks=opts.marks, gutter=opts.gutter), None, None


@dataclass
class _SheetRun:
    """What every sheet page of a deck says and holds: the title, the card size, every copy of
    every card in order, the copies of each sheet and the verdict's line."""

    title: str
    size: str
    copies: list
    chunks: list
    verdict: list[str]


def _draw_sheets(job, sheet: _SheetDrawer, opts: SheetOptions, run: _SheetRun) -> None:
    """The sheet pages: each sheet's fronts (with ``--layout fold`` the backs beside them), its
    backs on the next page (``duplex``) or every back after every front (``separate``)."""
    title, size, copies, chunks, verdict = run.title, run.size, run.copies, run.chunks, run.verdict
    n_sheets = len(chunks)
    backs = opts.backs

    def page_cards(pi):
        return [copies[i] for i in chunks[pi]]

    hint_separate = _(
        "print pages 1-{last} (fronts), put the printed stack back in the tray turned over "
        "on its {edge} edge, then print pages {first_back}-{last_back} (backs)"
    ).format(last=n_sheets, edge=_edge(opts.duplex), first_back=n_sheets + 1, last_back=2 * n_sheets)
    for pi in range(n_sheets):
        if pi:
            job.new_page()
        cards = page_cards(pi)
        if opts.layout == "fold":
            label = _("{title}: sheet {n} of {total}, {cards} cards, {size}; ").format(
                title=title, n=pi + 1, total=n_sheets, cards=len(copies), size=size
            ) + (_("fold along the dashed line, glue, then cut") if backs else _("fronts only"))
            sheet.fronts(cards, backs_too=backs, start=chunks[pi].start)
        else:
            how = (
                "; " + _("print duplex, flip on the {edge} edge").format(edge=_edge(opts.duplex))
                if backs and opts.layout == "duplex"
                else ""
            )
            label = (
                _("{title}: sheet {n} of {total}, fronts, {cards} cards, {size}").format(
                    title=title, n=pi + 1, total=n_sheets, cards=len(copies), size=size
                )
                + how
            )
            sheet.fronts(cards, start=chunks[pi].start)
        hint = [hint_separate[:1].upper() + hint_separate[1:]] if backs and opts.layout == "separate" else []
        sheet.chrome([label] + hint + verdict, marks=opts.marks)
        if backs and opts.layout == "duplex":
            job.new_page()
            sheet.backs(cards)
            sheet.chrome(
                [
                    _("{title}: sheet {n} of {total}, backs (this side of the sheet)").format(
                        title=title, n=pi + 1, total=n_sheets
                    )
                ],
                marks=False,
                fronts=False,
            )
    if backs and opts.layout == "separate":
        for pi in range(n_sheets):
            job.new_page()
            sheet.backs(page_cards(pi))
            sheet.chrome(
                [
                    _(
                        "{title}: backs of sheet {n} of {total} (page {n}); page {back} goes on the back of page {n}"
                    ).format(title=title, n=pi + 1, total=n_sheets, back=n_sheets + pi + 1)
                ],
                marks=False,
                fronts=False,
            )


def _glyph_problems(faces: Any, tpl: Any, catalog: Any, footer: list[str], title: str) -> Any:
    """Glyph coverage of everything a card sheet prints, found before drawing."""
    items = []
    for f in faces:
        for spec in tpl.layouts[f.layout].fields:
            t = field_text(spec, f.entry, catalog)
            if t:
                items.append((f"card '{f.name}'", spec.field or "text", t))
    for key, b in tpl.backs.items():
        items.append((f"back '{key}'", "title", b.title + b.subtitle))
    items.extend(("footer", "footer", x) for x in footer)
    items.append((_("the list"), "name", title))
    return fonts.check_glyphs(items, fonts.REGULAR)


EDGES = {"long": N_("long"), "short": N_("short")}


def _edge(edge: str | None) -> str:
    """A duplex flip edge (``long``, ``short``) as printed."""
    return _(EDGES[edge]) if edge in EDGES else str(edge)


class _SheetDrawer:
    """Draws the cards and chrome of one sheet page, inside the printer's scale correction."""

    def __init__(self, job, writer, plan, opts, images, fold_mode, fold_line):
        self.job, self.writer, self.plan, self.opts, self.images = job, writer, plan, opts, images
        self.fold_mode, self.fold_line = fold_mode, fold_line
        self.back_mode = fold_mode or opts.duplex
        self.own_bleed = opts.gutter is None or opts.gutter >= 2 * opts.bleed
        self.deck_label: str | None = None  # the deck's name, printed small with the card's number
        self.total = 0

    def _scaled(self):
        c = self.job.canvas
        sx, sy = self.opts.scale
        pw, ph = self.opts.paper
        c.saveState()
        if (sx, sy) != (1.0, 1.0):  # about the page centre: the margins stay even
            c.translate(pt(pw / 2), pt(ph / 2))
            c.scale(sx, sy)
            c.translate(-pt(pw / 2), -pt(ph / 2))

    def fronts(self, cards, backs_too: bool = False, start: int = 0) -> None:
        c = self.job.canvas
        self._scaled()
        for i, (slot, face) in enumerate(zip(self.plan.slots, cards, strict=False)):
            self.writer.draw_face(
                face, slot.trim, slot.rotated, self.images, clip=None if self.own_bleed else slot.bleed
            )
            if self.deck_label is not None:
                self.writer.draw_number(
                    slot.trim, slot.rotated, self.deck_label, f"{start + i + 1}/{self.total}", card=face.name
                )
        if backs_too:
            self._backs(cards, offset=(0.0, 0.0))
            ln = self.fold_line
            c.saveState()
            c.setDash(pt(2), pt(1.5))
            c.setLineWidth(pt(0.2))
            c.setStrokeColorRGB(0.35, 0.35, 0.35)
            # across the cards only: the margins beside them hold the sheet label and the ruler
            a = self.plan.area
            if ln.x0 == ln.x1:
                c.line(pt(ln.x0), pt(a.y), pt(ln.x0), pt(a.y1))
            else:
                c.line(pt(a.x), pt(ln.y0), pt(a.x1), pt(ln.y0))
            c.restoreState()

        used = self.plan.slots[: len(cards)]
        if self.opts.marks:
            # a part-filled last sheet: no marks for the rows and columns left empty
            if len(used) == len(self.plan.slots):
                draw_marks(c, self.plan.marks)
            else:
                draw_marks(c, cut_marks(used, self.plan.area, self.opts.paper))
        if self.opts.cut_lines:
            draw_marks(c, cut_lines(used, self.opts.paper), grey=True)
        c.restoreState()

    def _backs(self, cards, offset) -> None:
        for slot, face in zip(self.plan.slots, cards, strict=False):
            trim, bleed, turn = back_slot(slot, self.opts.paper, self.back_mode, offset)
            self.writer.draw_back(face.back, trim, slot.rotated, turn == 180, clip=None if self.own_bleed else bleed)

    def backs(self, cards) -> None:
        self._scaled()
        self._backs(cards, self.opts.offset)
        self.job.canvas.restoreState()

    def edges(self) -> tuple[list[float], list[float]]:
        """Every card edge on a page of fronts (and of their backs on a fold sheet, and the fold)."""
        rects = [r for s in self.plan.slots for r in (s.trim, s.bleed)]
        if self.fold_mode:
            for s in self.plan.slots:
                trim, bleed, _ = back_slot(s, self.opts.paper, self.fold_mode)
                rects += [trim, bleed]
        xs, ys = card_edges(rects)
        if self.fold_line is not None:
            (xs if self.fold_line.x0 == self.fold_line.x1 else ys).append(
                round(self.fold_line.x0 if self.fold_line.x0 == self.fold_line.x1 else self.fold_line.y0, 4)
            )
        return sorted(xs), sorted(ys)

    def _machine_chrome(self) -> None:
        """A print-and-cut sheet: the machine's registration marks (or image area) and the ruler,
        nothing else near the marks, whose surroundings the machine's sensor reads."""
        m = cast("CutMachine", machine(self.opts.cut_machine))
        c = self.job.canvas
        draw_machine_page(c, m, self.opts.paper)
        if m.name == "silhouette":  # centred between the bottom marks and the paper edge
            pw = self.opts.paper[0]
            draw_ruler(c, pw / 2 - 25.0, SILHOUETTE_INSET - RULER_CARD_CLEAR - RULER_DEPTH)
        else:  # below the image area
            a = cut_area(m, self.opts.paper)
            draw_ruler(c, a.x, max(MARK_EDGE_CLEAR + 0.5, a.y - 6.0))

    def chrome(self, lines, marks: bool, fronts: bool = True) -> None:
        """The sheet label beside the 50 mm ruler (or alone), the other lines in another band.
        On a page of fronts the ruler goes between the cut marks when no band holds it.
        What finds no room is on the list page (verdict, share code, ruler) or warned about."""
        self._scaled()
        if self.opts.cut_machine:
            if fronts:
                self._machine_chrome()
            self.job.canvas.restoreState()
            return
        info, rest_lines = lines[0], list(lines[1:])
        rest = draw_chrome(
            self.job, self.plan, rest_lines, info, marks, ruler=True, edges=self.edges() if fronts else None
        )
        self.job.canvas.restoreState()
        missing = [t for kind, p in rest if kind == "lines" for t in p]
        if info in missing:
            self.job.warn("the page margins leave no room for the sheet labels (the list page has the details)")
        if any(t != info for t in missing):
            self.job.warn("the page margins leave no room for the check result (it is on the list page)")


def draw_list_page(job, opts, doc, faces, footer, share_code, title, total_pages) -> None:
    """The last page: the deck list with counts, the check result, the share code and its QR
    code (scan it to import the list), the ruler."""
    c = job.canvas
    pw, ph = opts.paper
    m = 15.0
    y = ph - m
    c.setFillColorRGB(0.1, 0.1, 0.1)
    c.setFont(fonts.BOLD, 14)
    c.drawString(pt(m), pt(y - 5), fonts.printable(title, fonts.BOLD))
    y -= 10
    c.setFont(fonts.REGULAR, 8)
    n = sum(f.count for f in faces)
    c.drawString(
        pt(m),
        pt(y - 3),
        _("{n} cards, {different} different; page {page} of {total}").format(
            n=n, different=len(faces), page=total_pages, total=total_pages
        ),
    )
    y -= 8
    for line in footer:
        if isinstance(line, ShareLine):
            continue
        fit = draw_text_box(c, line, (pt(m), pt(y - 8), pt(pw - 2 * m), pt(8)), fonts.REGULAR, 8, 6)
        y -= max(4.0, fit.height / pt(1)) + 1
    qr = 0.0
    if share_code:
        scanned = qr_text(share_code)
        qr = min(60.0, max(qr_size(scanned, 0.4), 25.0))
        draw_qr(c, scanned, pw - m - qr, y - qr - 2, qr)
        c.setFont(fonts.REGULAR, 7)
        c.drawRightString(
            pt(pw - m),
            pt(y - qr - 6),
            _("scan to open the list") if is_link(scanned) else _("scan to import: daimyo import CODE"),
        )
        box_w = pw - 2 * m - qr - 6
        draw_text_box(
            c,
            share_prefix() + share_code,
            (pt(m), pt(y - qr - 2), pt(box_w), pt(qr)),
            fonts.CONDENSED,
            7,
            5,
            wrap=True,
            what=_("share code"),
            warn=job.warn,
        )
        y -= qr + 10
    c.setFont(fonts.BOLD, 9)
    c.drawString(pt(m), pt(y - 4), _("Cards"))
    y -= 8
    rows = [f"{f.count} x {f.name}" for f in faces]
    per_col = max(1, int((y - m - 10) // 4.2))
    cols = max(1, -(-len(rows) // per_col))
    col_w = (pw - 2 * m) / max(cols, 2 if len(rows) > 12 else 1)
    c.setFont(fonts.REGULAR, 8)
    for i, r in enumerate(rows):
        col, row = divmod(i, per_col)
        c.drawString(pt(m + col * col_w), pt(y - 3 - row * 4.2), fonts.printable(r, fonts.REGULAR))
    draw_ruler(c, m, 6.0)
