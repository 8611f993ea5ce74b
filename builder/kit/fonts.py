"""Bundled fonts, glyph coverage and text fitting.

Every printed string goes through this module:

* :func:`register_fonts` registers the bundled DejaVu fonts with reportlab once per
  process (names :data:`REGULAR`, :data:`BOLD`, :data:`CONDENSED`); call it before
  drawing (``pdfbase.PdfJob`` does it for you). Each draws the characters it lacks (kana,
  kanji) with the bundled IPAex Gothic (:data:`CJK`, IPA Font License, see
  ``fonts/LICENSE-IPAexGothic.txt``), loaded the first time such a character is drawn or
  measured and embedded, as a subset, only in a PDF that prints one: a PDF of Latin text is
  the same bytes as with the DejaVu fonts alone.
* :func:`missing_glyphs` / :func:`check_glyphs` find characters neither font can draw.
  reportlab draws such characters as blanks without a word, so callers check every
  string *before* rendering and report each problem with the card (or unit), the
  field and the characters.
* :func:`fit_text` wraps text into a box, shrinking the size in 0.5 pt steps down to a
  minimum; the result says whether the text still overflows (then the lines that fit
  are kept, the last one ending in an ellipsis) so the caller can warn. Text is never
  drawn outside its box.

Sizes are in points (1 pt = 1/72 in = 0.3528 mm); box widths and heights given to
:func:`fit_text` are in points too (``layout.pt(mm)`` converts).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont

from builder import state
from builder.kit.rladapter import FallbackTTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
CONDENSED = "DejaVuSansCondensed"

FONT_FILES = {
    REGULAR: "DejaVuSans.ttf",
    BOLD: "DejaVuSans-Bold.ttf",
    CONDENSED: "DejaVuSansCondensed.ttf",
}

CJK = "IPAexGothic"  # the fallback for the characters the DejaVu fonts lack (kana, kanji)
CJK_FILE = "ipaexg.ttf"

ELLIPSIS = "\u2026"
REPLACEMENT = "?"  # drawn instead of a character the font lacks (after it was reported)


@state.memo("fonts.registered", bound=1, lifetime=state.PROCESS, doc="the bundled fonts registered with reportlab")
def register_fonts() -> None:
    """Register the bundled fonts with reportlab (idempotent).

    Also registers a family so that ``<b>`` works in platypus Paragraphs with
    ``fontName=REGULAR``.
    """
    for name, file in FONT_FILES.items():
        pdfmetrics.registerFont(FallbackTTFont(name, str(FONT_DIR / file), cjk_font))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=REGULAR, boldItalic=BOLD)


@state.memo("fonts.cjk", bound=1, lifetime=state.PROCESS, doc="the bundled CJK font, loaded when first needed")
def cjk_font() -> TTFont:
    """IPAex Gothic, registered with reportlab (the fallback of every bundled font)."""
    font = TTFont(CJK, str(FONT_DIR / CJK_FILE))
    pdfmetrics.registerFont(font)
    return font


def font_name(bold: bool = False, condensed: bool = False) -> str:
    """The registered font for a style (condensed has no bold cut: bold wins)."""
    if bold:
        return BOLD
    return CONDENSED if condensed else REGULAR


@state.memo("fonts.charmaps", bound=None, lifetime=state.PROCESS, doc="the characters a bundled font draws, by font")
def _charmap(font: str) -> frozenset[int]:
    register_fonts()

    face = pdfmetrics.getFont(font).face
    return frozenset(face.charToGlyph.keys())


def _ignorable(ch: str) -> bool:
    # line breaks, tabs and zero-width format characters are layout, not glyphs
    return ch in "\n\r\t" or unicodedata.category(ch) in ("Cc", "Cf")


@state.memo("fonts.cjk_charmap", bound=1, lifetime=state.PROCESS, doc="the characters the CJK fallback font draws")
def _cjk_charmap() -> frozenset[int]:
    return frozenset(cjk_font().face.charToGlyph.keys())


def missing_glyphs(text: str, font: str = REGULAR) -> str:
    """The distinct characters of ``text`` that neither ``font`` nor its CJK fallback can
    draw, in order of appearance."""
    if not text:
        return ""
    cmap = _charmap(font)
    out: list[str] = []
    for ch in str(text):
        if ord(ch) not in cmap and not _ignorable(ch) and ch not in out and ord(ch) not in _cjk_charmap():
            out.append(ch)
    return "".join(out)


def describe_chars(chars: str) -> str:
    """``'漢' (U+6F22), '🐉' (U+1F409)``"""
    return ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars)


@dataclass(frozen=True)
class GlyphProblem:
    """A printed string with characters the font lacks."""

    where: str  # e.g. "card 'Warriors'" or "unit 3 'Samurai Yari'"
    field: str  # e.g. "name", "abilities"
    missing: str  # the characters
    font: str = REGULAR

    def message(self) -> str:
        return (
            f"{self.where}, field '{self.field}': characters missing from font {self.font}: "
            f"{describe_chars(self.missing)} (they would print as '{REPLACEMENT}'; "
            f"use other characters or a pack with a transliterated name)"
        )


def check_glyphs(items: Iterable[tuple[str, str, str]], font: str = REGULAR) -> list[GlyphProblem]:
    """Check ``(where, field, text)`` triples; one problem per string with missing characters."""
    problems = []
    for where, fld, text in items:
        miss = missing_glyphs(text, font)
        if miss:
            problems.append(GlyphProblem(where, fld, miss, font))
    return problems


def printable(text: str, font: str = REGULAR) -> str:
    """``text`` with characters the font lacks replaced by ``?`` (after they were reported)."""
    miss = missing_glyphs(text, font)
    if not miss:
        return text
    return "".join(REPLACEMENT if ch in miss else ch for ch in text)


def string_width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points."""
    register_fonts()

    return stringWidth(text, font, size)


def wrap_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap into lines no wider than ``width`` points.

    Explicit newlines are kept. A single word wider than the box is split by
    characters so nothing sticks out.
    """
    lines: list[str] = []
    for para in str(text).split("\n"):
        words = para.split()
        if not words:
            lines.append("")
            continue
        cur = ""
        for w in words:
            cand = f"{cur} {w}" if cur else w
            if string_width(cand, font, size) <= width:
                cur = cand
                continue
            if cur:
                lines.append(cur)
            # the word alone
            if string_width(w, font, size) <= width:
                cur = w
                continue
            piece = ""
            for ch in w:
                if string_width(piece + ch, font, size) <= width or not piece:
                    piece += ch
                else:
                    lines.append(piece)
                    piece = ch
            cur = piece
        lines.append(cur)
    return lines


@dataclass
class Fit:
    """Result of :func:`fit_text`: the lines to draw at ``size`` with ``leading``."""

    lines: list[str]
    size: float
    leading: float
    overflow: bool = False  # True: even at the minimum size the text did not fit (truncated)
    shrunk: bool = False  # True: the size was reduced below the requested one
    requested: float = 0.0
    dropped: list[str] = field(default_factory=list)  # lines that did not fit

    @property
    def height(self) -> float:
        return self.leading * len(self.lines)


def fit_text(
    text: str,
    width: float,
    height: float,
    font: str = REGULAR,
    size: float = 9.0,
    min_size: float = 5.0,
    leading: float = 1.18,
    wrap: bool = True,
    step: float = 0.5,
) -> Fit:
    """Fit ``text`` into a ``width`` x ``height`` point box.

    Tries ``size``, then smaller sizes in ``step`` decrements down to ``min_size``.
    With ``wrap=False`` the text is one line (explicit newlines still break).
    When it does not fit at ``min_size`` the lines that fit are returned, the last one
    shortened to end in an ellipsis, and ``overflow`` is True.
    """
    text = "" if text is None else str(text)
    s = float(size)
    min_size = min(float(min_size), s)
    while True:
        lead = s * leading
        lines = wrap_lines(text, font, s, width) if wrap else text.split("\n")
        widest = max((string_width(line, font, s) for line in lines), default=0.0)
        if widest <= width + 1e-6 and lead * len(lines) <= height + 1e-6:
            return Fit(lines, s, lead, overflow=False, shrunk=s < size, requested=size)
        if s - step < min_size - 1e-9:
            break
        s = round(s - step, 3)
    # overflow at the minimum size: keep what fits, end with an ellipsis
    s = min_size
    lead = s * leading
    lines = wrap_lines(text, font, s, width) if wrap else text.split("\n")
    room = max(1, int((height + 1e-6) // lead)) if lead <= height + 1e-6 else 0
    kept = lines[:room]
    dropped = lines[room:]
    kept = [
        _clip(line, font, s, width, force_ellipsis=(i == len(kept) - 1 and bool(dropped)))
        for i, line in enumerate(kept)
    ]
    return Fit(kept, s, lead, overflow=True, shrunk=True, requested=size, dropped=dropped)


def _clip(line: str, font: str, size: float, width: float, force_ellipsis: bool = False) -> str:
    if not force_ellipsis and string_width(line, font, size) <= width:
        return line
    # the longest prefix that fits with the ellipsis (widths grow with the prefix: binary search,
    # so that a line of 100,000 characters costs a few measurements, not 100,000)
    lo, hi = 0, len(line)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if string_width(line[:mid] + ELLIPSIS, font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    base = line[:lo]
    return (base.rstrip() + ELLIPSIS) if string_width(ELLIPSIS, font, size) <= width else ""
