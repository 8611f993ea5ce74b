"""Print from the web builder: options from a form, the PDF, page previews as PNG images.

Previews are drawn with pypdfium2 when it is installed, else with poppler's ``pdftoppm``;
without either the print page says so and offers the PDF alone.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
import shutil
import subprocess
import tempfile
import threading
import zipfile
from collections import OrderedDict
from pathlib import Path, PurePosixPath, PureWindowsPath

import pypdfium2 as pdfium

from builder.errors import UsageError
from builder.i18n import N_, _
from builder.kit import printbounds
from builder.kit.pdfbase import collect_warnings
from builder.kit.printoptions import PrinterCorrection, PrintOptions
from builder.lists.document import load_list
from builder.render.api import render_aid, render_list, render_test_sheet
from builder.render.charts import stats_appendix
from builder.render.images import export_tts, render_images
from builder.render.printers import get_profile, list_profiles
from builder.systems import get

# the form's choices: (value, label); the labels marked here, shown translated (``|tr``)
PAPERS = (("a4", N_("A4")), ("letter", N_("US Letter")), ("custom", N_("Custom size (mm)")))
CARDS = (
    ("poker", N_("Poker 63.5 x 88.9 mm")),
    ("bridge", N_("Bridge 57 x 89 mm")),
    ("mini", N_("Mini 44 x 63 mm")),
    ("tarot", N_("Tarot 70 x 120 mm")),
    ("custom", N_("Custom size (mm)")),
)
BLEEDS = (("0", N_("none")), ("1.5", N_("narrow 1.5 mm")), ("3", N_("wide 3 mm")))
DUPLEX = (
    ("", N_("none: fronts only")),
    ("long", N_("duplex printer, flip on the long edge")),
    ("short", N_("duplex printer, flip on the short edge")),
)
LAYOUTS = (
    ("duplex", N_("each page of backs after its fronts")),
    ("fold", N_("fold: front and back side by side")),
    ("separate", N_("all fronts, then all backs")),
)
SERVICES = (
    ("", N_("none: 300 dpi")),
    ("mpc", "MakePlayingCards"),
    ("dtc", "DriveThruCards"),
    ("tgc", "The Game Crafter"),
)
MAX_PAGES_PREVIEW = 12
BOUNDS = printbounds.BOUNDS  # the form's number inputs take their min, max and step from the print options
# the form's fields, each a short text: what a page may send and what is remembered
FIELDS = (
    "paper",
    "paper_w",
    "paper_h",
    "card",
    "card_w",
    "card_h",
    "bleed",
    "duplex",
    "layout",
    "gutter",
    "scale_x",
    "scale_y",
    "offset_x",
    "offset_y",
    "marks",
    "cut_lines",
    "ink_saver",
    "unit_cards",
    "sources",
    "stats",
    "dpi",
    "service",
    "tts_base",
)
_PDFIUM = threading.Lock()  # pdfium is not thread-safe: one page at a time in the whole process


def checked(params, system: str):
    """The print options of the form (or the API's query), checked by the print options' model
    (``builder.kit.printoptions.PrintOptions.from_form``; UsageError, HTTP 400, with the words of
    the command line); a saved printer profile (``printer``) stands for the form's correction."""

    gs = get(system)
    name = str(params.get("printer") or "").strip()
    printer = printer_correction(name) if name else None
    return PrintOptions.from_form(params, cards=gs.sheet is None, units=gs.units is not None, printer=printer)


def options_from(params, system: str) -> dict:
    """Render options from query parameters (see :func:`checked`), as ``render_list`` takes
    them: a card sheet's, or a roster's or setup sheet's paper, unit cards and sources; and
    ``stats``."""

    gs = get(system)
    return checked(params, system).render_options(cards=gs.sheet is None, units=gs.units is not None)


def chosen_size(params, key: str = "paper") -> str:
    """A paper or card size of the form: a name, or ``custom`` with ``KEY_w`` and ``KEY_h`` in mm,
    checked by the print options' model."""

    o = PrintOptions.from_form(params, cards=key == "card")
    size = o.paper if key == "paper" else o.card
    return size if isinstance(size, str) else "{:g}x{:g}".format(*size)


class Printed:
    """A list's PDF and what printing it said: the warnings of the drawing, and the verdict."""

    def __init__(self, pdf: bytes, warnings: list[str], legal: bool, errors: int):
        self.pdf, self.warnings, self.legal, self.errors = pdf, warnings, legal, errors


def render_pdf(path: Path, opts: dict) -> Printed:
    """The PDF of the list at ``path`` with the options of :func:`options_from`, and what the
    command line would say on stderr while printing it."""

    opts = dict(opts)
    results: list = []
    pages: contextlib.AbstractContextManager = contextlib.nullcontext()
    if opts.pop("stats", False):
        pages = stats_appendix(str(path), opts.get("paper") or "a4")
    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp, collect_warnings() as said, pages:
        out = Path(tmp) / "list.pdf"
        render_list(str(path), str(out), force=True, on_result=results.append, **opts)
        pdf = out.read_bytes()
    res = results[0] if results else None
    return Printed(pdf, list(said), res is None or res.legal, res.counts()["error"] if res is not None else 0)


def image_options(params) -> dict:
    """The options of 'daimyo print --to images' from the form, each checked before drawing (no
    bleed given: the print shop's)."""

    o = PrintOptions.from_form(params, cards=True)
    return {
        "card": o.card,
        "bleed": o.bleed or None,
        "dpi": o.dpi,
        "ink_saver": _on(params.get("ink_saver")),
        "shop": o.service,
    }


def _on(v) -> bool:
    return str(v or "").lower() in ("1", "on", "true", "yes")


def render_images_zip(path: Path, params) -> tuple[bytes, list[str]]:
    """The card images of 'daimyo print LIST --to images DIR' (with the form's card size, bleed,
    ink saver, resolution and print service), as a zip; and the warnings said while drawing."""

    if get(load_list(str(path)).system).sheet is not None:
        raise UsageError(_("only card games print as card images"), _("print a Senshiai, HeroCard or Satsuma list"))
    opts = image_options(params)
    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp, collect_warnings() as said:
        out = Path(tmp) / "images"
        render_images(str(path), str(out), force=True, **opts)
        return _zip(out, Path(path).stem + "-images"), list(said)


def render_tts_zip(path: Path, params) -> bytes:
    """The Tabletop Simulator deck of 'daimyo export LIST --to tts DIR' as a zip. The saved
    object names its images by address: ``tts_base`` is the web address the folder will be
    uploaded to, or the folder on the player's computer it will be unzipped into."""

    where = str(params.get("tts_base") or "").strip()
    if not where:
        raise UsageError(
            _("Tabletop Simulator loads a deck's images from an address"),
            _(
                "give the web address you will upload the folder to (https://...) or the folder "
                "you will unzip it into (such as C:\\Users\\me\\Decks\\my-deck)"
            ),
        )
    placeholder = "https://images.invalid/"
    if where.startswith(("http://", "https://")):
        base, local = where, None
    else:
        base, local = placeholder, _folder_uri(where)
    card = chosen_size(params, "card")
    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp:
        out = Path(tmp) / "tts"
        saved = export_tts(str(path), str(out), force=True, card=card, base_url=base)
        if local is not None:  # the images' addresses in the folder it is unzipped into
            saved.write_text(saved.read_text(encoding="utf-8").replace(placeholder, local), encoding="utf-8")
        return _zip(out, Path(path).stem + "-tts")


def _folder_uri(folder: str) -> str:

    win = PureWindowsPath(folder)
    if win.drive and win.is_absolute():
        return win.as_uri().rstrip("/") + "/"
    posix = PurePosixPath(folder)
    if posix.is_absolute():
        return posix.as_uri().rstrip("/") + "/"
    raise UsageError(
        _("'{folder}' is neither a web address nor a full folder path").format(folder=folder),
        _("such as https://example.org/decks/my-deck/ or /home/me/decks/my-deck"),
    )


def _zip(folder: Path, top: str) -> bytes:

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                z.write(f, f"{top}/{f.relative_to(folder).as_posix()}")
    return buf.getvalue()


def render_test_pdf(paper: str, duplex: str) -> bytes:
    """The duplex alignment sheet of 'daimyo print-test' (its options checked as print checks them)."""

    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp:
        out = Path(tmp) / "test.pdf"
        render_test_sheet(str(out), paper=paper, duplex=duplex, force=True)
        return out.read_bytes()


def printer_profiles() -> list[str]:
    """The names of the printer profiles saved with 'daimyo printer save'."""

    return [p.name for p in list_profiles()]


def printer_correction(name: str):
    """The correction a saved printer profile holds (the backs' offset and the scales), as the
    print options' model takes it."""

    p = get_profile(name)
    return PrinterCorrection(offset=p.offset, scale_x=p.scale_x, scale_y=p.scale_y)


def render_aid_pdf(system: str, paper: str = "a4") -> bytes:

    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp:
        out = Path(tmp) / "aid.pdf"
        render_aid(system, str(out), force=True, paper=paper)
        return out.read_bytes()


class PdfCache:
    """The last few PDFs, keyed by list version and options, so previews do not re-render."""

    def __init__(self, size: int = 8):
        self._d: OrderedDict = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def get(self, key, make):
        with self._lock:
            if key in self._d:
                self._d.move_to_end(key)
                return self._d[key]
        value = make()
        with self._lock:
            self._d[key] = value
            while len(self._d) > self._size:
                self._d.popitem(last=False)
        return value


def previewer() -> str | None:

    if importlib.util.find_spec("pypdfium2") is not None:
        return "pdfium"
    if shutil.which("pdftoppm"):
        return "pdftoppm"
    return None


def page_count(pdf: bytes) -> int:

    return max(1, len(re.findall(rb"/Type\s*/Page[^s]", pdf)))


def preview_png(pdf: bytes, page: int, dpi: int = 80) -> bytes:
    """Page ``page`` (1-based) of the PDF as a PNG image."""
    how = previewer()
    if how == "pdfium":
        with _PDFIUM:
            doc = pdfium.PdfDocument(pdf)
            try:
                if not 1 <= page <= len(doc):
                    raise UsageError(_("no page {page}").format(page=page))
                img = doc[page - 1].render(scale=dpi / 72).to_pil()
            finally:
                doc.close()
        buf = io.BytesIO()
        # zlib level 3: a fifth of the time of an optimized PNG (the drawing is a small part of a
        # preview's cost; the encoding was most of it), a file of the same size or smaller
        img.save(buf, "PNG", compress_level=3)
        return buf.getvalue()
    if how == "pdftoppm":
        with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp:
            src = Path(tmp) / "in.pdf"
            src.write_bytes(pdf)
            subprocess.run(
                [
                    "pdftoppm",
                    "-png",
                    "-r",
                    str(dpi),
                    "-f",
                    str(page),
                    "-l",
                    str(page),
                    "-singlefile",
                    str(src),
                    str(Path(tmp) / "out"),
                ],
                check=True,
                capture_output=True,
                timeout=60,
            )
            return (Path(tmp) / "out.png").read_bytes()
    raise UsageError(_("page previews need pypdfium2 or poppler's pdftoppm; download the PDF instead"))
