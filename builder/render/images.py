"""Card images: one PNG per card face and per back for print shops, and Tabletop
Simulator decks.

Both draw every distinct card exactly as the PDF sheets do (the same template, forms and
art, :class:`builder.render.cards.CardSheetWriter`), one card per page of an in-memory
PDF, and rasterise the pages with PDFium (``pypdfium2``), so a card image and a printed
card are the same drawing.

Print-shop presets (``--to images``): the card's trim size plus a bleed of 1/8 in
(3.175 mm) on every side at 300 dpi (DriveThruCards' and The Game Crafter's poker
templates: 2.5 x 3.5 in + 1/8 in bleed = 825 x 1125 px). ``--service`` names the shop:
``mpc`` MakePlayingCards (36 px bleed: 822 x 1122 px for poker), ``dtc`` DriveThruCards
and ``tgc`` The Game Crafter (825 x 1125 px), each with its safe zone (the frame drawn 1/8
in inside the trim) and an order file (:data:`SERVICES`). Pixel sizes at the defaults:

=========  ================  ==============
card       trim (mm)         image (px)
=========  ================  ==============
poker      63.5 x 88.9       825 x 1125
bridge     57.15 x 88.9      750 x 1125
tarot      69.85 x 120.65    900 x 1500
mini       44 x 67           595 x 866
=========  ================  ==============

Tabletop Simulator (``export --to tts``): deck sheets of at most 10 x 7 cells, the last
cell holding the "hidden" card (what other players see of a card in someone's hand, here
the back), and a saved object (``ObjectStates`` holding one ``DeckCustom``; its
``CustomDeck`` names each sheet's ``FaceURL``/``BackURL`` as ``file://`` URLs with
``NumWidth``/``NumHeight``). A card's ``CardID`` is ``deck number x 100 + cell``.
"""

from __future__ import annotations

import io
import json
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse
from xml.sax.saxutils import escape

from builder import yamlio
from builder.check import load_checked
from builder.errors import UsageError, WouldOverwrite, option
from builder.i18n import N_, _
from builder.kit import fonts
from builder.kit.layout import Rect, card_size, pt
from builder.kit.pdfbase import make_canvas, warn
from builder.kit.printbounds import DPI, choice
from builder.kit.printbounds import SERVICES as NAMES
from builder.names import slug
from builder.paths import exists
from builder.render.cards import CardSheetWriter, list_cards, load_template, prepare_faces, sheet_options
from builder.render.cards.template import description, is_starting
from builder.safeout import CsvRows, spreadsheet_cell
from builder.systems import get

if TYPE_CHECKING:
    from PIL.Image import Image

SHOP_BLEED = 3.175  # mm: 1/8 in, what US print shops ask for
SHOP_DPI = 300


@dataclass(frozen=True)
class Service:
    """A print service's published card image specification: its bleed and safe zone in pixels
    at its resolution, and the order file written beside the images."""

    key: str
    name: str
    bleed_px: float  # on every side, at ``dpi``
    safe_px: float  # from the trim line inwards: nothing that matters outside it
    dpi: int = 300
    order: str = "csv"  # csv | mpc-autofill

    @property
    def bleed_mm(self) -> float:
        return self.bleed_px / self.dpi * 25.4

    @property
    def safe_mm(self) -> float:
        return self.safe_px / self.dpi * 25.4


# poker (2.5 x 3.5 in): MakePlayingCards 822 x 1122 px (36 px bleed), DriveThruCards and The
# Game Crafter 825 x 1125 px (1/8 in bleed); each asks for the frame and text 1/8 in inside the trim
SERVICES = {
    "mpc": Service("mpc", "MakePlayingCards", bleed_px=36, safe_px=37.5, order="mpc-autofill"),
    "dtc": Service("dtc", "DriveThruCards", bleed_px=37.5, safe_px=37.5),
    "tgc": Service("tgc", "The Game Crafter", bleed_px=37.5, safe_px=37.5),
}
# MakePlayingCards prices an order by the smallest of these quantities that holds it
MPC_BRACKETS = (18, 36, 55, 72, 90, 108, 126, 144, 162, 180, 198, 216, 234, 396, 504, 612)


def service(key: str | None) -> Service | None:
    """The print service called ``key`` (None for none), checked as every face checks it."""
    if key is None:
        return None

    return SERVICES[choice(key, NAMES, "print service")]


def mpc_bracket(n: int) -> int | None:
    """The MakePlayingCards quantity bracket of an order of ``n`` cards (None past the largest)."""
    return next((b for b in MPC_BRACKETS if b >= n), None)


TTS_DPI = 200  # a poker card is 500 x 700 px in a Tabletop Simulator sheet
TTS_COLS, TTS_ROWS = 10, 7
TTS_MAX_SHEET_CARDS = TTS_COLS * TTS_ROWS - 1
TTS_MAX_PX = 4096  # Tabletop Simulator's largest sheet side


@dataclass
class CardImage:
    """One rendered card side: the image and how many copies the deck holds."""

    name: str
    side: str  # front | back
    count: int
    image: Image | None  # None until rasterized (``_rasterize``)
    back: str = ""  # the back key (fronts)
    numbers: str = ""  # the card's numbers in the deck, as printed on it ("12/50", "4-6/50")
    text: str = ""  # what the card says (fronts)
    starting: bool = False  # a card a player starts with, not shuffled into the deck

    @property
    def pixels(self) -> Image:
        """The rendered image (once rasterized)."""
        if self.image is None:
            raise ValueError(f"card '{self.name}' ({self.side}) has not been rasterized")
        return self.image


class _Job:
    """What CardSheetWriter needs of a PdfJob: a canvas and a warn function."""

    def __init__(self, canvas):
        self.canvas = canvas
        self.warnings: list[str] = []

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)
            warn(message)


def _px(mm_: float, dpi: float) -> int:
    return round(mm_ / 25.4 * dpi)


def render_sides(
    doc,
    catalog,
    lst,
    card="poker",
    bleed: float = SHOP_BLEED,
    dpi: float = SHOP_DPI,
    ink_saver: bool = False,
    sink=None,
    numbers: bool = False,
    safe: float = 0.0,
) -> tuple[list[CardImage], list[CardImage]]:
    """Every distinct card face and every back the deck uses, as images of exactly
    ``round((trim + 2 x bleed) / 25.4 x dpi)`` pixels. Returns (fronts, backs).
    ``sink(card_image)``, when given, receives each image as soon as it is drawn (so that
    saving can overlap drawing). ``numbers``: each face carries what a printed sheet's face
    carries, the deck's name and the card's numbers in the deck (the copies of a face are
    numbered one after the other as on the sheets: a face printed 3 times as cards 4 to 6
    of 50 reads "4-6/50")."""
    opts = sheet_options(card=card, bleed=bleed, ink_saver=ink_saver)
    opts.safe = safe
    tpl = load_template(doc.system)
    faces, warnings, images, art_warnings = prepare_faces(doc, catalog, lst, tpl, opts)
    (wpx, hpx), page, trim = _page_for(opts.card, opts.bleed, dpi)
    buf = io.BytesIO()
    c = make_canvas(buf, page, title=f"{doc.name or doc.system} card images")
    job = _Job(c)
    for w in warnings + art_warnings:
        job.warn(w)
    items = [(f"card '{f.name}'", "name", f.name) for f in faces]
    for p in fonts.check_glyphs(items, fonts.REGULAR):
        job.warn(p.message())
    writer = CardSheetWriter(job, tpl, opts, catalog)
    back_keys = list(dict.fromkeys(f.back for f in faces))
    total = sum(f.count for f in faces)
    deck = doc.name or (Path(doc.file).stem if getattr(doc, "file", None) else doc.system)
    labels, first = [], 1
    for f in faces:
        last = first + f.count - 1
        labels.append(f"{first}/{total}" if f.count == 1 else f"{first}-{last}/{total}")
        first = last + 1
    for f, label in zip(faces, labels, strict=True):
        writer.draw_face(f, trim, False, images)
        if numbers:
            writer.draw_number(trim, False, deck, label, card=f.name)
        c.showPage()
    writer.report_small_text()
    for key in back_keys:
        writer.draw_back(key, trim, False, False)
        c.showPage()
    c.save()
    counts = {k: sum(f.count for f in faces if f.back == k) for k in back_keys}

    sides = [
        CardImage(f.name, "front", f.count, None, f.back, label, description(tpl, f, catalog), is_starting(tpl, f))
        for f, label in zip(faces, labels, strict=False)
    ] + [CardImage(k, "back", counts[k], None) for k in back_keys]
    _rasterize(buf.getvalue(), sides, dpi, (wpx, hpx), sink)
    return sides[: len(faces)], sides[len(faces) :]


def _page_for(card: tuple[float, float], bleed: float, dpi: float) -> tuple[tuple[int, int], tuple[float, float], Rect]:
    """The pixel size of a card image, the page (mm) that renders to it, and the trim on that page."""
    cw, ch = card
    wpx, hpx = _px(cw + 2 * bleed, dpi), _px(ch + 2 * bleed, dpi)
    # exactly the pixel size at ``dpi``: a hair under it, so that PDFium's rounding up gives
    # wpx x hpx and no image needs cropping (a copy of every image)
    page = ((wpx - 0.02) / dpi * 25.4, (hpx - 0.02) / dpi * 25.4)
    return (wpx, hpx), page, Rect((page[0] - cw) / 2, (page[1] - ch) / 2, cw, ch)


def _rasterize(pdf_bytes: bytes, sides: list[CardImage], dpi: float, size: tuple[int, int], sink=None) -> None:
    """Page i of the PDF becomes ``sides[i].image`` (RGB, exactly ``size`` pixels)."""
    import pypdfium2 as pdfium  # noqa: PLC0415 - PDFium only when cards are rasterised (tests/test_architecture.py)

    pdf = pdfium.PdfDocument(pdf_bytes)
    try:
        for i, side in enumerate(sides):
            bitmap = pdf[i].render(scale=dpi / 72.0, rev_byteorder=True)  # RGB: no conversion
            im = bitmap.to_pil()
            if im.mode != "RGB":
                im = im.convert("RGB")
            if im.size != size:  # PDFium rounds the page size up by a pixel at most
                im = im.crop((0, 0, *size))
            side.image = im
            if sink is not None:
                sink(side)
    finally:
        pdf.close()


UNIT_BACK = "unit card"


def render_unit_sides(
    doc, catalog, lst, card="poker", bleed: float = SHOP_BLEED, dpi: float = SHOP_DPI, sink=None
) -> tuple[list[CardImage], list[CardImage]]:
    """A Kensei roster's unit cards (one per troop profile, as ``print --unit-cards`` prints
    them) as images of the same pixel sizes as :func:`render_sides`, and their one back
    (the game's name and the list's)."""
    part = get(doc.system).unit_cards
    if part is None:
        raise UsageError(_("{system} lists have no unit cards").format(system=doc.system))
    if card not in part.sizes:
        raise UsageError(
            _("unit cards print at a sleeve size: {sizes}, not '{card}'").format(
                sizes=", ".join(part.sizes), card=card
            ),
            _("use {option} {size} (the default) or another of them").format(option=option("card"), size=part.sizes[0]),
        )
    data = part.data(lst, catalog)
    if not data:
        raise UsageError(_("the list has no troops to print unit cards of"), _("add troops to the list first"))
    size, page, trim = _page_for(card_size(card), bleed, dpi)
    buf = io.BytesIO()
    c = make_canvas(buf, page, title=f"{doc.name or doc.system} unit cards")
    warnings: list[str] = []
    for d in data:
        c.saveState()
        c.translate(pt(trim.x), pt(trim.y))
        part.draw(c, d, trim.w, trim.h, 0.0, warnings, marks=False)
        c.restoreState()
        c.showPage()
    # the back: dark, the game's name and the list's, centred
    c.setFillColorRGB(0.16, 0.16, 0.2)
    c.rect(0, 0, pt(page[0]), pt(page[1]), stroke=0, fill=1)
    c.setFillColorRGB(0.95, 0.92, 0.85)
    c.setFont(fonts.BOLD, 16)
    c.drawCentredString(pt(page[0] / 2), pt(page[1] / 2 + 2), fonts.printable(str(doc.system).upper(), fonts.BOLD))
    c.setFont(fonts.REGULAR, 8)
    c.drawCentredString(pt(page[0] / 2), pt(page[1] / 2 - 6), fonts.printable(doc.name or "unit cards", fonts.REGULAR))
    c.showPage()
    c.save()

    def text(d: dict) -> str:
        stats = ", ".join(f"{label} {v if v is not None else '-'}" for label, v, _ in d["stats"])
        abilities = "\n".join(f"{n}: {t}" if t else n for n, _, t in d["abilities"])
        return "\n".join(x for x in (" · ".join(d["facts"]), stats, abilities) if x)

    sides = [CardImage(d["name"], "front", 1, None, UNIT_BACK, "", text(d)) for d in data] + [
        CardImage(UNIT_BACK, "back", len(data), None)
    ]
    _rasterize(buf.getvalue(), sides, dpi, size, sink)
    return sides[:-1], sides[-1:]


def _sides_of(doc, catalog, lst, **kw) -> tuple[list[CardImage], list[CardImage]]:
    """The card images of a card game's deck, or of a roster's unit cards."""
    gs = get(doc.system)
    if gs.sheet is None:  # a deck of cards
        return render_sides(doc, catalog, lst, **kw)
    if gs.unit_cards is not None:  # an army: its unit cards
        kw = {k: v for k, v in kw.items() if k in ("card", "bleed", "dpi", "sink")}
        return render_unit_sides(doc, catalog, lst, **kw)
    raise UsageError(
        _("{system} lists have no cards to print as images").format(system=doc.system),
        _("use daimyo print LIST -o FILE.pdf for a roster or setup sheet"),
    )


def _prepare_dir(out_dir, names: list[str], force: bool) -> Path:
    d = Path(out_dir)
    if exists(d) and not d.is_dir():
        raise UsageError(
            _("{path}: not a folder").format(path=d), _("give a folder for the images (it is created when missing)")
        )
    taken = [n for n in names if exists(d / n)]
    if taken and not force:
        raise WouldOverwrite(d / taken[0])
    d.mkdir(parents=True, exist_ok=True)
    return d


def _save_png(im, path: Path, dpi: float = SHOP_DPI) -> None:
    out = io.BytesIO()
    im.save(out, "PNG", compress_level=1, dpi=(dpi, dpi))
    yamlio.atomic_write(path, out.getvalue(), force=True)


def _prints_cards(system: str) -> bool:
    """Whether a list of the game prints as cards: a deck, or an army's unit cards (a setup sheet does not)."""
    gs = get(system)
    return gs.sheet is None or gs.unit_cards is not None


def _unit_cards(doc, lst, catalog) -> list[dict]:
    part = get(doc.system).unit_cards
    return [] if part is None else part.data(lst, catalog)


def list_cards_named(doc, catalog, lst) -> list[str]:
    """The names of the distinct cards of a list, in print order."""
    return [f.name for f in list_cards(doc, catalog, lst)[0]]


def _stem(i: int, name: str) -> str:
    return f"{i:03d}-{slug(name) or 'card'}"


def render_images(
    list_path,
    out_dir,
    force: bool = False,
    card="poker",
    bleed: float | None = None,
    dpi: float = SHOP_DPI,
    ink_saver: bool = False,
    shop: str | None = None,
) -> Path:
    """``daimyo print LIST --to images DIR``: one PNG per distinct card face and per back,
    and ``manifest.csv`` (file, card, side, count, width_px, height_px, back_file, numbers:
    one row per file; a face's count is how many to print of it, a back's the number of
    faces it goes behind). The PNGs say their true resolution.

    ``shop`` (``mpc``, ``dtc``, ``tgc``): that service's published bleed, its safe zone (the
    card's frame drawn no closer to the trim) and its order file: ``order.xml`` for
    MakePlayingCards in the format MPC Autofill reads (the quantity bracket named), else
    ``order.csv`` (file, quantity, back file). Returns DIR."""
    dpi = DPI.check(dpi)  # the bounds every face gives card images

    doc, catalog, lst, _checked = load_checked(list_path)
    if not _prints_cards(doc.system):
        raise UsageError(
            _("{system} lists have no cards to print as images").format(system=doc.system),
            _("use daimyo print LIST -o FILE.pdf for a roster or setup sheet"),
        )
    svc = service(shop)
    if svc is not None:
        bleed = svc.bleed_mm if bleed is None else bleed
    faces = (
        list_cards_named(doc, catalog, lst)
        if get(doc.system).sheet is None
        else [d["name"] for d in _unit_cards(doc, lst, catalog)]
    )
    order_file = [] if svc is None else ["order.xml" if svc.order == "mpc-autofill" else "order.csv"]
    d = _prepare_dir(
        out_dir, [f"{_stem(i + 1, n)}.png" for i, n in enumerate(faces)] + ["manifest.csv"] + order_file, force
    )
    names: dict[int, str] = {}
    n_front = n_back = 0
    pending = []
    with ThreadPoolExecutor(max_workers=2) as pool:  # zlib works outside the GIL: saving overlaps drawing

        def sink(side: CardImage) -> None:
            nonlocal n_front, n_back
            if side.side == "front":
                n_front += 1
                name = f"{_stem(n_front, side.name)}.png"
            else:
                n_back += 1
                name = f"back-{_stem(n_back, side.name)}.png"
                if exists(d / name) and not force:
                    raise WouldOverwrite(d / name)
            names[id(side)] = name
            pending.append(pool.submit(_save_png, side.pixels, d / name, dpi))

        fronts, backs = _sides_of(
            doc,
            catalog,
            lst,
            card=card,
            bleed=SHOP_BLEED if bleed is None else bleed,
            dpi=dpi,
            ink_saver=ink_saver,
            sink=sink,
            numbers=True,
            safe=svc.safe_mm if svc else 0.0,
        )
        for fut in pending:
            fut.result()
    files = [(names[id(f)], f) for f in fronts + backs]
    rows = io.StringIO()
    w = CsvRows(rows)
    w.writerow(["file", "card", "side", "count", "width_px", "height_px", "back_file", "numbers"])
    back_file = {b.name: n for n, b in files if b.side == "back"}
    for n, f in files:
        w.writerow(
            [
                spreadsheet_cell(n),
                spreadsheet_cell(f.name),
                f.side,
                f.count,
                f.pixels.size[0],
                f.pixels.size[1],
                back_file.get(f.back, "") if f.side == "front" else "",
                f.numbers,
            ]
        )

    yamlio.atomic_write(d / "manifest.csv", rows.getvalue(), force=True)
    if svc is not None:
        yamlio.atomic_write(d / order_file[0], _order(svc, files, doc), force=True)
    return d


def _order(svc: Service, files: list, doc) -> str:
    """The order file of a print service: MPC Autofill's XML (slots numbered over every copy,
    the quantity bracket named) or a CSV of file, quantity and back file."""
    fronts = [(n, f) for n, f in files if f.side == "front"]
    backs = [n for n, f in files if f.side == "back"]
    total = sum(f.count for _, f in fronts)
    if svc.order == "mpc-autofill":
        bracket = mpc_bracket(total)
        if bracket is None:
            raise UsageError(
                _("{n} cards is more than one MakePlayingCards order holds ({most})").format(
                    n=total, most=MPC_BRACKETS[-1]
                ),
                _("split the deck into two orders"),
            )
        out = [
            "<order>",
            "  <details>",
            f"    <quantity>{total}</quantity>",
            f"    <bracket>{bracket}</bracket>",
            "    <stock>(S30) Standard Smooth</stock>",
            "    <foil>false</foil>",
            "  </details>",
            "  <fronts>",
        ]
        slot = 0
        for n, f in fronts:
            slots = ",".join(str(i) for i in range(slot, slot + f.count))
            slot += f.count
            out += [
                "    <card>",
                f"      <id>{escape(n)}</id>",
                f"      <slots>{slots}</slots>",
                f"      <name>{escape(n)}</name>",
                f"      <query>{escape(f.name.lower())}</query>",
                "    </card>",
            ]
        out += ["  </fronts>", f"  <cardback>{escape(backs[0]) if backs else ''}</cardback>", "</order>", ""]
        return "\n".join(out)
    rows = io.StringIO()
    w = CsvRows(rows)
    w.writerow(["file", "quantity", "back_file"])
    back_of = {f.name: n for n, f in files if f.side == "back"}
    for n, f in fronts:
        w.writerow([spreadsheet_cell(n), f.count, spreadsheet_cell(back_of.get(f.back, ""))])
    return rows.getvalue()


# -- Tabletop Simulator -------------------------------------------------------------------


def _limits(cw: int, ch: int) -> tuple[int, int]:
    """The most columns and rows of ``cw`` x ``ch`` px cards within Tabletop Simulator's limits
    (10 x 7 cells, sides of at most 4,096 px)."""
    return max(2, min(TTS_COLS, TTS_MAX_PX // cw)), max(2, min(TTS_ROWS, TTS_MAX_PX // ch))


def _grid(n_faces: int, max_cols: int = TTS_COLS, max_rows: int = TTS_ROWS) -> tuple[int, int]:
    """Columns and rows of a sheet holding ``n_faces`` faces and the hidden card."""
    slots = n_faces + 1
    cols = max(2, min(max_cols, slots))
    rows = max(2, min(max_rows, math.ceil(slots / cols)))
    return cols, rows


_URL_BLANKS = {" ": N_("space"), "\t": N_("tab"), "\n": N_("line break"), "\r": N_("line break")}


def _check_base_url(url: str | None) -> str | None:
    """The address a Tabletop Simulator deck loads its images from, ending in '/': an http or
    https address with a host and no blank or control character (UsageError otherwise)."""
    if url is None:
        return None

    blank = next((c for c in url if c.isspace() or not c.isprintable()), None)
    if blank is not None:
        what = _URL_BLANKS.get(blank, N_("control character"))
        raise UsageError(
            _("bad {option} '{url}': a web address holds no {what}").format(
                option=option("base-url"), url=url, what=_(what)
            ),
            _("write a space as %20, e.g. https://example.org/my%20decks/"),
        )
    u = urlparse(url)
    if u.scheme.lower() not in ("http", "https"):
        raise UsageError(
            _("bad {option} '{url}': the address must start with http:// or https://").format(
                option=option("base-url"), url=url
            ),
            _("give the web address the folder is uploaded to, e.g. https://example.org/decks/"),
        )
    if not u.netloc:
        raise UsageError(
            _("bad {option} '{url}': the address names no host").format(option=option("base-url"), url=url),
            _("give the web address the folder is uploaded to, e.g. https://example.org/decks/"),
        )
    return url if url.endswith("/") else url + "/"


def _transform(y: float = 1.0) -> dict:
    return {
        "posX": 0.0,
        "posY": y,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def export_tts(list_path, out_dir, force: bool = False, card="poker", base_url: str | None = None) -> Path:
    """``daimyo export LIST --to tts DIR``: deck sheets (JPEG, at most 4,096 px a side), the
    back image, and ``<deck>.json``, a Tabletop Simulator saved object: the deck, and each card
    a player starts with (a Capital, attribute cards) as an object of its own beside it; every
    card's description is its text. The JSON names the images as ``file://`` paths, or with
    ``base_url`` at that address (upload the folder there so that other players load them).
    Returns the JSON's path."""
    from PIL import Image  # noqa: PLC0415 - the PIL module; the module's name Image is the image type

    base = _check_base_url(base_url)
    doc, catalog, lst, _checked = load_checked(list_path)
    if not _prints_cards(doc.system):
        raise UsageError(
            _("{system} lists have no card deck for Tabletop Simulator").format(system=doc.system),
            _("export a Senshiai, HeroCard or Satsuma list, or a Kensei list's unit cards"),
        )
    fronts, backs = _sides_of(doc, catalog, lst, card=card, bleed=0.0, dpi=TTS_DPI)
    name = doc.name or Path(doc.file).stem
    stem = slug(name) or "deck"
    # one run of sheets per back design; each sheet at most 69 faces + the hidden card
    cw, ch = fronts[0].pixels.size if fronts else backs[0].pixels.size
    max_cols, max_rows = _limits(cw, ch)
    per_sheet = max_cols * max_rows - 1
    sheets: list[tuple[str, list[CardImage]]] = []
    for b in backs:
        group = [f for f in fronts if f.back == b.name]
        for i in range(0, len(group), per_sheet):
            sheets.append((b.name, group[i : i + per_sheet]))
    back_files = {b.name: f"{stem}-back-{slug(b.name) or 'default'}.jpg" for b in backs}
    sheet_files = [f"{stem}-sheet-{i + 1}.jpg" for i in range(len(sheets))]
    d = _prepare_dir(out_dir, sheet_files + list(back_files.values()) + [f"{stem}.json"], force)

    def url(file: str) -> str:
        return base + file if base else (d / file).resolve().as_uri()

    def jpeg(im) -> bytes:
        out = io.BytesIO()
        im.save(out, "JPEG", quality=90)
        return out.getvalue()

    for b in backs:
        yamlio.atomic_write(d / back_files[b.name], jpeg(b.pixels), force=True)
    custom: dict[str, dict] = {}
    contained: list[dict] = []
    deck_ids: list[int] = []
    starting: list[dict] = []
    for si, (back, faces) in enumerate(sheets):
        cols, rows = _grid(len(faces), max_cols, max_rows)
        sheet = Image.new("RGB", (cols * cw, rows * ch), (255, 255, 255))
        for i, f in enumerate(faces):
            sheet.paste(f.pixels, ((i % cols) * cw, (i // cols) * ch))
        hidden = cols * rows - 1
        back_img = next(b.pixels for b in backs if b.name == back)
        sheet.paste(back_img, ((hidden % cols) * cw, (hidden // cols) * ch))
        yamlio.atomic_write(d / sheet_files[si], jpeg(sheet), force=True)
        key = str(si + 1)
        entry = {
            "FaceURL": url(sheet_files[si]),
            "BackURL": url(back_files[back]),
            "NumWidth": cols,
            "NumHeight": rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
        custom[key] = entry
        for i, f in enumerate(faces):
            card_id = (si + 1) * 100 + i
            for _copy in range(f.count):
                obj = {
                    "Name": "Card",
                    "Nickname": f.name,
                    "Description": f.text,
                    "CardID": card_id,
                    "Transform": _transform(),
                    "CustomDeck": {key: entry},
                    "Hands": True,
                    "SidewaysCard": False,
                }
                if f.starting:  # laid out face up in a row beside the deck
                    obj["Transform"] = {**_transform(), "posX": 3.0 + 2.5 * len(starting), "rotZ": 0.0}
                    starting.append(obj)
                else:
                    deck_ids.append(card_id)
                    contained.append(obj)
    states = []
    if contained:
        states.append(
            {
                "Name": "DeckCustom",
                "Nickname": name,
                "Description": f"{doc.system} deck, {len(deck_ids)} cards",
                "Transform": _transform(),
                "Hands": False,
                "SidewaysCard": False,
                "DeckIDs": deck_ids,
                "CustomDeck": custom,
                "ContainedObjects": contained,
            }
        )
    states.extend(starting)
    saved: dict[str, object] = {
        "SaveName": name,
        "GameMode": "",
        "Date": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": states,
        "TabStates": {},
        "VersionNumber": "",
    }
    out = d / f"{stem}.json"
    yamlio.atomic_write(out, json.dumps(saved, indent=2, ensure_ascii=False) + "\n", force=True)
    return out
