"""The print options' names, defaults and bounds: the one table every face reads.

``builder.kit.printoptions.PrintOptions`` (the typed model the library validates print options
with) is built from it; the command line's defaults and help, the web print page's inputs
(their ``min``, ``max`` and ``step``), printer profiles and the remembered web settings read it
too, so that a value is refused with the same words wherever it is given. Pure: no pydantic, no
reportlab (the command line's help imports it).

Why each bound is what it is:

* bleed 0-6 mm: print shops ask for 1/8 in (3.175 mm) and book printers for up to 5 mm; more
  is paper lost from every card's neighbours without anything a cutter needs.
* gutter 0-50 mm between neighbouring cards: 0 shares the bleed; more than 50 mm leaves no
  second card on A4.
* scale correction 0.9-1.1 (the documented bounds of ``--scale-x``/``--scale-y``): a printer
  that is more than 10 % off is set to fit the page, which is fixed in its dialog, not here.
* duplex offset up to 20 mm either way (documented): the alignment sheet's scales read 20 mm.
* paper sides 50-2,000 mm (``builder.limits``, documented); a card side from 10 mm (a smaller
  card has no room for its text) to 1,990 mm (the largest that fits the largest paper inside
  its 5 mm margins).
* card images 72-600 dpi: print services ask for 300; 600 suits a photo printer, and a deck at
  1,200 dpi is gigabytes of PNG.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from builder.errors import UsageError
from builder.i18n import L_, N_, Text
from builder.limits import MAX_PAPER_MM, MIN_PAPER_MM

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}

CARDS: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (69.85, 120.65),  # 2.75 x 4.75 in
    "mini": (44.0, 67.0),
}

PAGE_MARGIN_MM = 5.0  # mm on every side of a card sheet (pnp-howto minimum)


@dataclass(frozen=True)
class Bound:
    """A number a print option takes: ``what`` names it in a message, ``low`` to ``high`` (both
    allowed), ``step`` the web form's step, ``unit`` written after the bounds, ``hint`` what a
    good value is."""

    what: str
    low: float
    high: float
    step: float
    unit: str = " mm"
    hint: str = ""

    def check(self, value, what: str | None = None) -> float:
        """``value`` (a number, or the text a user wrote) as a float within the bounds; a
        ``UsageError`` with the one message of every face otherwise."""
        name = what or self.what
        if isinstance(value, bool):
            value = str(value)
        text = f"{value:g}" if isinstance(value, (int, float)) else str(value).strip()
        try:
            v = float(text)
        except ValueError:
            raise UsageError(
                L_("{name} must be a number, not '{text}'", name=name, text=text), self.hint or None
            ) from None
        if not (math.isfinite(v) and self.low <= v <= self.high):
            raise UsageError(
                L_(
                    "{name} must be between {low:g} and {high:g}{unit}, not {text}",
                    name=name,
                    low=self.low,
                    high=self.high,
                    unit=self.unit,
                    text=text,
                ),
                self.hint or None,
            )
        return v


BLEED = Bound("bleed", 0.0, 6.0, 0.5, hint="3 mm is usual")
GUTTER = Bound("gutter", 0.0, 50.0, 0.5, hint="mm between neighbouring cards, such as 0 or 3")
SCALE_X = Bound(
    "scale across the page",
    0.9,
    1.1,
    0.001,
    unit="",
    hint="50 divided by the mm your printed 50 mm ruler measures, such as 1.01",
)
SCALE_Y = Bound(
    "scale down the page",
    0.9,
    1.1,
    0.001,
    unit="",
    hint="50 divided by the mm your printed 50 mm ruler measures, such as 1.01",
)
OFFSET_X = Bound(
    "backs offset across", -20.0, 20.0, 0.1, hint="the mm read on the alignment sheet's back, such as 0.5 or -1"
)
OFFSET_Y = Bound(
    "backs offset up", -20.0, 20.0, 0.1, hint="the mm read on the alignment sheet's back, such as 0.5 or -1"
)
PAPER_SIDE = Bound("paper side", MIN_PAPER_MM, MAX_PAPER_MM, 0.1, hint="such as 105x148 (A6)")
CARD_SIDE = Bound("card side", 10.0, MAX_PAPER_MM - 2 * PAGE_MARGIN_MM, 0.1, hint="such as 63.5x88.9 (poker)")
DPI = Bound("resolution", 72.0, 600.0, 1.0, unit=" dpi", hint="300 is what print shops ask for")

#: each bounded option by the name the web form and the model give it
BOUNDS: dict[str, Bound] = {
    "bleed": BLEED,
    "gutter": GUTTER,
    "scale_x": SCALE_X,
    "scale_y": SCALE_Y,
    "offset_x": OFFSET_X,
    "offset_y": OFFSET_Y,
    "paper_w": PAPER_SIDE,
    "paper_h": PAPER_SIDE,
    "card_w": CARD_SIDE,
    "card_h": CARD_SIDE,
    "dpi": DPI,
}

DUPLEX = ("long", "short")
LAYOUTS = ("duplex", "fold", "separate")
SERVICES = ("mpc", "dtc", "tgc")

CUT_MACHINES = ("silhouette", "cricut")

# every print option's default, on every face
DEFAULT_PAPER = "a4"
DEFAULT_CARD = "poker"
DEFAULT_BLEED = 0.0
DEFAULT_DUPLEX = "long"
DEFAULT_LAYOUT = "duplex"
DEFAULT_SCALE = 1.0
DEFAULT_DPI = 300.0
DEFAULT_SWITCHES = {  # on (True) or off
    "marks": True,
    "backs": True,
    "ink_saver": False,
    "cut_lines": False,
    "unit_cards": False,
    "sources": True,
    "stats": False,
}
DEFAULTS: dict[str, object] = {
    "paper": DEFAULT_PAPER,
    "card": DEFAULT_CARD,
    "bleed": DEFAULT_BLEED,
    "duplex": DEFAULT_DUPLEX,
    "offset": (0.0, 0.0),
    "layout": DEFAULT_LAYOUT,
    "gutter": None,
    "scale_x": DEFAULT_SCALE,
    "scale_y": DEFAULT_SCALE,
    "cut_machine": None,
    "dpi": DEFAULT_DPI,
    "service": None,
    **DEFAULT_SWITCHES,
}


def choice(value, choices: tuple[str, ...], what: str) -> str:
    # ``what`` is a message (``N_``): translated where the error is shown
    """``value`` as one of ``choices`` (any case); ``unknown WHAT 'value' (use a, b or c)``."""
    key = str(value).strip().lower()
    if key in choices:
        return key
    listed = L_("{some} or {last}", some=", ".join(choices[:-1]), last=choices[-1]) if len(choices) > 1 else choices[0]
    raise UsageError(L_("unknown {what} '{value}'", what=Text(what), value=value), L_("use {listed}", listed=listed))


_SIZE = re.compile(r"([^x×]+?)\s*[x×]\s*([^x×]+?)\s*(?:mm)?")


def _size(name, named: dict, side: Bound, what: str, hint: str) -> tuple[float, float]:
    key = str(name).strip().lower()
    if key in named:
        return named[key]
    m = _SIZE.fullmatch(key)
    if m is None:
        raise UsageError(L_("unknown {what} '{name}'", what=Text(what), name=name), hint)
    word = "paper" if what == "paper" else "card"
    shown = str(name).strip()
    return side.check(m.group(1), f"{word} '{shown}' width"), side.check(m.group(2), f"{word} '{shown}' height")


SIZE_WORDS = (N_("paper"), N_("card size"))  # the ``what`` of an unknown size, translated where shown


def paper_size(name) -> tuple[float, float]:
    """Paper (w, h) in mm for ``a4``, ``letter`` or ``WxH`` in millimetres (portrait)."""
    return _size(name, PAPERS, PAPER_SIDE, "paper", L_("use a4, letter or WxH in millimetres such as 210x297"))


def card_size(name) -> tuple[float, float]:
    """Card (w, h) in mm for ``poker``, ``bridge``, ``tarot``, ``mini`` or ``WxH`` (mm)."""
    return _size(
        name,
        CARDS,
        CARD_SIDE,
        "card size",
        L_("use poker, bridge, tarot, mini or WxH in millimetres such as 63.5x88.9"),
    )


def parse_offset(text) -> tuple[float, float]:
    """``"X,Y"`` in mm (either may be negative; +x right, +y up on the back page) -> (x, y)."""
    if text is None or str(text).strip() == "":
        return (0.0, 0.0)
    if isinstance(text, (tuple, list)):
        if len(text) != 2:
            raise UsageError(L_("bad offset '{text}'", text=text), L_("give X,Y in millimetres, such as 0.5,-1"))
        x, y = text
        return OFFSET_X.check(x), OFFSET_Y.check(y)
    parts = re.split(r"[,;]", str(text))
    if len(parts) != 2:
        raise UsageError(L_("bad offset '{text}'", text=text), L_("give X,Y in millimetres, such as 0.5,-1"))
    return OFFSET_X.check(parts[0]), OFFSET_Y.check(parts[1])


# the most a QR code holds (version 40, error correction L, bytes): the printed share code's QR
# (builder.kit.pdfbase) and the share code's check that a code fits one (builder.share.code)
QR_MAX_BYTES = 2953
