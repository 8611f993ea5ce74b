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

PAPERS = (("a4", "A4"), ("letter", "US Letter"))
CARDS = (("poker", "Poker 63.5 x 88.9 mm"), ("bridge", "Bridge 57 x 89 mm"), ("mini", "Mini 44 x 63 mm"),
         ("tarot", "Tarot 70 x 120 mm"))
BLEEDS = (("0", "none"), ("1.5", "narrow 1.5 mm"), ("3", "wide 3 mm"))
DUPLEX = (("", "none: fronts only"), ("long", "duplex printer, flip on the long edge"),
          ("short", "duplex printer, flip on the short edge"))
LAYOUTS = (("duplex", "each page of backs after its fronts"), ("fold", "fold: front and back side by side"),
           ("separate", "all fronts, then all backs"))
MAX_PAGES_PREVIEW = 12
_PDFIUM = threading.Lock()  # pdfium is not thread-safe: one page at a time in the whole process


def options_from(params, system: str) -> dict:
    """Render options from query parameters; anything else is refused."""
    from builder.systems import get

    prints = get(system).prints  # cards, roster or setup
    opts: dict = {}
    paper = str(params.get("paper") or "a4").lower()
    if paper not in dict(PAPERS):
        raise UsageError(f"unknown paper '{paper}'", "a4 or letter")
    opts["paper"] = paper
    if prints == "cards":
        card = str(params.get("card") or "poker").lower()
        if card not in dict(CARDS):
            raise UsageError(f"unknown card size '{card}'", "poker, bridge, mini or tarot")
        opts["card"] = card
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
        opts["cut_lines"] = _on(params.get("cut_lines"))
        opts["marks"] = _on(params.get("marks", "on"))
        opts["ink_saver"] = _on(params.get("ink_saver"))
    elif prints == "roster":
        opts["unit_cards"] = _on(params.get("unit_cards"))
    return opts


def _number(text: str, what: str, low: float, high: float, example: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise UsageError(f"{what} must be a number, not '{text}'", example or None) from None
    if not low <= v <= high:
        raise UsageError(f"{what} must be between {low:g} and {high:g}, not {v:g}", example or None)
    return v


def _on(v) -> bool:
    return str(v or "").lower() in ("1", "on", "true", "yes")


def render_pdf(path: Path, opts: dict) -> bytes:
    from builder.render.api import render_list

    with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp:
        out = Path(tmp) / "list.pdf"
        render_list(str(path), str(out), force=True, **opts)
        return out.read_bytes()


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
        img.save(buf, "PNG", optimize=True)
        return buf.getvalue()
    if how == "pdftoppm":
        with tempfile.TemporaryDirectory(prefix="daimyo-web-") as tmp:
            src = Path(tmp) / "in.pdf"
            src.write_bytes(pdf)
            subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile",
                            str(src), str(Path(tmp) / "out")], check=True, capture_output=True, timeout=60)
            return (Path(tmp) / "out.png").read_bytes()
    raise UsageError("page previews need pypdfium2 or poppler's pdftoppm; download the PDF instead")
