"""Print from the web builder: options from a form, the PDF, page previews as PNG images.

Previews are drawn with pypdfium2 when it is installed, else with poppler's ``pdftoppm``;
without either the print page says so and offers the PDF alone.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

from builder.errors import UsageError

PAPERS = (("a4", "A4"), ("letter", "US Letter"), ("custom", "Custom size (mm)"))
CARDS = (
    ("poker", "Poker 63.5 x 88.9 mm"),
    ("bridge", "Bridge 57 x 89 mm"),
    ("mini", "Mini 44 x 63 mm"),
    ("tarot", "Tarot 70 x 120 mm"),
    ("custom", "Custom size (mm)"),
)
BLEEDS = (("0", "none"), ("1.5", "narrow 1.5 mm"), ("3", "wide 3 mm"))
DUPLEX = (
    ("", "none: fronts only"),
    ("long", "duplex printer, flip on the long edge"),
    ("short", "duplex printer, flip on the short edge"),
)
LAYOUTS = (
    ("duplex", "each page of backs after its fronts"),
    ("fold", "fold: front and back side by side"),
    ("separate", "all fronts, then all backs"),
)
SERVICES = (("", "none: 300 dpi"), ("mpc", "MakePlayingCards"), ("dtc", "DriveThruCards"), ("tgc", "The Game Crafter"))
MAX_PAGES_PREVIEW = 12
MIN_DPI, MAX_DPI = 72, 600  # card images from the web: a 600 dpi deck is already hundreds of MB
OFFSET_MM = 20  # the largest duplex offset (as 'daimyo print --offset')
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
CHECKBOXES = {"marks": "on", "cut_lines": "", "ink_saver": "", "unit_cards": "", "sources": "on", "stats": ""}
_PDFIUM = threading.Lock()  # pdfium is not thread-safe: one page at a time in the whole process


def options_from(params, system: str) -> dict:
    """Render options from query parameters; anything else is refused. A form sends ``sent=1``:
    then a checkbox left out is off (else its default applies)."""
    from builder.systems import get

    cards = get(system).sheet is None  # a deck of cards (else a roster or setup sheet)
    sent = _on(params.get("sent"))

    def box(name: str) -> bool:
        return _on(params.get(name, "" if sent else CHECKBOXES[name]))

    opts: dict = {"paper": chosen_size(params, "paper", "a4", PAPERS)}
    if cards:
        opts["card"] = chosen_size(params, "card", "poker", CARDS)
        try:
            bleed = float(params.get("bleed") or 0)
        except ValueError:
            raise UsageError("bleed must be a number of millimetres") from None
        if not 0 <= bleed <= 6:
            raise UsageError("bleed must be between 0 and 6 mm")
        opts["bleed"] = bleed
        duplex = str(params.get("duplex") or "")
        if duplex not in dict(DUPLEX):
            raise UsageError(f"unknown duplex '{duplex}'", "long or short")
        layout = str(params.get("layout") or "duplex").lower()
        if layout not in dict(LAYOUTS):
            raise UsageError(f"unknown layout '{layout}'", "duplex, fold or separate")
        opts["backs"] = bool(duplex) or layout != "duplex"  # fold and separate print the backs
        if opts["backs"]:
            opts["duplex"] = duplex or "long"
        if layout != "duplex":
            opts["layout"] = layout
        gutter = str(params.get("gutter") or "").strip()
        if gutter:
            opts["gutter"] = _number(gutter, "gutter", 0, 50, "mm between neighbouring cards, such as 0 or 3")
        for axis in ("x", "y"):
            v = str(params.get(f"scale_{axis}") or "").strip()
            if v and _number(v, f"scale {axis}", 0.8, 1.2, "a factor such as 1.01") != 1.0:
                opts[f"scale_{axis}"] = _number(v, f"scale {axis}", 0.8, 1.2, "")
        off = tuple(
            _number(
                str(params.get(f"offset_{a}") or "").strip() or "0",
                f"offset {a}",
                -OFFSET_MM,
                OFFSET_MM,
                "mm read on the alignment sheet's back, such as 0.5 or -1",
            )
            for a in ("x", "y")
        )
        if off != (0.0, 0.0):
            opts["offset"] = off
        opts["cut_lines"] = box("cut_lines")
        opts["marks"] = box("marks")
        opts["ink_saver"] = box("ink_saver")
    else:
        if get(system).units is not None:  # an army's roster may add its unit cards
            opts["unit_cards"] = box("unit_cards")
        opts["sources"] = box("sources")
    if box("stats"):
        opts["stats"] = True
    printer = str(params.get("printer") or "").strip()
    if printer:  # a saved printer's paper, scale and offset stand for the form's
        opts.update({k: v for k, v in printer_profile(printer).items() if k in opts or cards})
    return opts


def chosen_size(params, key: str, default: str, choices) -> str:
    """A paper or card size: one of ``choices``, or ``custom`` with ``KEY_w`` and ``KEY_h`` in mm
    (checked as 'daimyo print --paper WxH' checks it)."""
    from builder.kit.layout import card_size, paper_size

    what = "paper" if key == "paper" else "card size"
    value = str(params.get(key) or default).lower()
    if value not in dict(choices):
        raise UsageError(f"unknown {what} '{value}'", ", ".join(v for v, _ in choices))
    if value != "custom":
        return value
    w, h = (str(params.get(f"{key}_{s}") or "").strip() for s in ("w", "h"))
    if not w or not h:
        raise UsageError(f"a custom {what} needs its width and height in mm", "such as 105 and 148 (A6)")
    wh = f"{_number(w, f'{what} width', 0, 10000, ''):g}x{_number(h, f'{what} height', 0, 10000, ''):g}"
    (paper_size if key == "paper" else card_size)(wh)
    return wh


def _number(text: str, what: str, low: float, high: float, example: str) -> float:
    import math

    try:
        v = float(text)
    except ValueError:
        raise UsageError(f"{what} must be a number, not '{text}'", example or None) from None
    if not math.isfinite(v) or not low <= v <= high:
        raise UsageError(f"{what} must be between {low:g} and {high:g}, not {text}", example or None)
    return v


def _on(v) -> bool:
    return str(v or "").lower() in ("1", "on", "true", "yes")


class Printed:
    """A list's PDF and what printing it said: the warnings of the drawing, and the verdict."""

    def __init__(self, pdf: bytes, warnings: list[str], legal: bool, errors: int):
        self.pdf, self.warnings, self.legal, self.errors = pdf, warnings, legal, errors


def render_pdf(path: Path, opts: dict) -> Printed:
    """The PDF of the list at ``path`` with the options of :func:`options_from`, and what the
    command line would say on stderr while printing it."""
    import contextlib

    from builder.kit.pdfbase import collect_warnings
    from builder.render.api import render_list

    opts = dict(opts)
    results: list = []
    pages: contextlib.AbstractContextManager = contextlib.nullcontext()
    if opts.pop("stats", False):
        from builder.render.charts import stats_appendix

        pages = stats_appendix(str(path), opts.get("paper") or "a4")
    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp, collect_warnings() as said, pages:
        out = Path(tmp) / "list.pdf"
        render_list(str(path), str(out), force=True, on_result=results.append, **opts)
        pdf = out.read_bytes()
    res = results[0] if results else None
    return Printed(pdf, list(said), res is None or res.legal, res.counts()["error"] if res is not None else 0)


def image_options(params) -> dict:
    """The options of 'daimyo print --to images' from the form, each checked before drawing."""
    card = chosen_size(params, "card", "poker", CARDS)
    bleed_text = str(params.get("bleed") or "").strip()
    bleed = _number(bleed_text, "bleed", 0, 6, "") if bleed_text else None
    dpi = _number(
        str(params.get("dpi") or "300").strip(), "resolution", MIN_DPI, MAX_DPI, "300 (what print shops ask for)"
    )
    service = str(params.get("service") or "").lower() or None
    if service is not None and service not in dict(SERVICES):
        raise UsageError(f"unknown print service '{service}'", "mpc, dtc or tgc")
    return {
        "card": card,
        "bleed": bleed or None,
        "dpi": dpi,
        "ink_saver": _on(params.get("ink_saver")),
        "shop": service,
    }


def render_images_zip(path: Path, params) -> tuple[bytes, list[str]]:
    """The card images of 'daimyo print LIST --to images DIR' (with the form's card size, bleed,
    ink saver, resolution and print service), as a zip; and the warnings said while drawing."""
    from builder.kit.pdfbase import collect_warnings
    from builder.lists.document import load_list
    from builder.render.images import render_images
    from builder.systems import get

    if get(load_list(str(path)).system).sheet is not None:
        raise UsageError("only card games print as card images", "print a Senshiai, HeroCard or Satsuma list")
    opts = image_options(params)
    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp, collect_warnings() as said:
        out = Path(tmp) / "images"
        render_images(str(path), str(out), force=True, **opts)
        return _zip(out, Path(path).stem + "-images"), list(said)


def render_tts_zip(path: Path, params) -> bytes:
    """The Tabletop Simulator deck of 'daimyo export LIST --to tts DIR' as a zip. The saved
    object names its images by address: ``tts_base`` is the web address the folder will be
    uploaded to, or the folder on the player's computer it will be unzipped into."""
    from builder.render.images import export_tts

    where = str(params.get("tts_base") or "").strip()
    if not where:
        raise UsageError(
            "Tabletop Simulator loads a deck's images from an address",
            "give the web address you will upload the folder to (https://...) or the folder "
            "you will unzip it into (such as C:\\Users\\me\\Decks\\my-deck)",
        )
    placeholder = "https://images.invalid/"
    if where.startswith(("http://", "https://")):
        base, local = where, None
    else:
        base, local = placeholder, _folder_uri(where)
    card = chosen_size(params, "card", "poker", CARDS)
    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp:
        out = Path(tmp) / "tts"
        saved = export_tts(str(path), str(out), force=True, card=card, base_url=base)
        if local is not None:  # the images' addresses in the folder it is unzipped into
            saved.write_text(saved.read_text(encoding="utf-8").replace(placeholder, local), encoding="utf-8")
        return _zip(out, Path(path).stem + "-tts")


def _folder_uri(folder: str) -> str:
    from pathlib import PurePosixPath, PureWindowsPath

    win = PureWindowsPath(folder)
    if win.drive and win.is_absolute():
        return win.as_uri().rstrip("/") + "/"
    posix = PurePosixPath(folder)
    if posix.is_absolute():
        return posix.as_uri().rstrip("/") + "/"
    raise UsageError(
        f"'{folder}' is neither a web address nor a full folder path",
        "such as https://example.org/decks/my-deck/ or /home/me/decks/my-deck",
    )


def _zip(folder: Path, top: str) -> bytes:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                z.write(f, f"{top}/{f.relative_to(folder).as_posix()}")
    return buf.getvalue()


def render_test_pdf(paper: str, duplex: str) -> bytes:
    """The duplex alignment sheet of 'daimyo print-test'."""
    from builder.render.api import render_test_sheet

    if duplex not in ("long", "short"):
        raise UsageError(f"unknown duplex '{duplex}'", "long or short")
    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp:
        out = Path(tmp) / "test.pdf"
        render_test_sheet(str(out), paper=paper, duplex=duplex, force=True)
        return out.read_bytes()


def printer_profiles() -> list[str]:
    """The names of the printer profiles saved with 'daimyo printer save'."""
    from builder.render.printers import list_profiles

    return [p.name for p in list_profiles()]


def printer_profile(name: str) -> dict:
    """The print options a saved printer profile sets: the backs' offset and the scales."""
    from builder.render.printers import get_profile

    p = get_profile(name)
    return {"offset": tuple(p.offset), "scale_x": p.scale_x, "scale_y": p.scale_y}


def render_aid_pdf(system: str, paper: str = "a4") -> bytes:
    from builder.render.api import render_aid

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
    import importlib.util

    if importlib.util.find_spec("pypdfium2") is not None:
        return "pdfium"
    if shutil.which("pdftoppm"):
        return "pdftoppm"
    return None


def page_count(pdf: bytes) -> int:
    import re

    return max(1, len(re.findall(rb"/Type\s*/Page[^s]", pdf)))


def preview_png(pdf: bytes, page: int, dpi: int = 80) -> bytes:
    """Page ``page`` (1-based) of the PDF as a PNG image."""
    how = previewer()
    if how == "pdfium":
        import pypdfium2 as pdfium

        with _PDFIUM:
            doc = pdfium.PdfDocument(pdf)
            try:
                if not 1 <= page <= len(doc):
                    raise UsageError(f"no page {page}")
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
    raise UsageError("page previews need pypdfium2 or poppler's pdftoppm; download the PDF instead")
