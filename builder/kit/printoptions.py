"""The print options as one typed model, validated once, with the same words on every face.

:class:`PrintOptions` holds every option of ``daimyo print`` (paper, card size, bleed, crop
marks, backs, duplex edge and offset, ink saver, layout, gutter, cut lines, scale correction,
cutting machine, unit cards, rulebook sources, statistics pages, card images' resolution and
print service); :class:`PrinterCorrection` is the part a printer profile keeps (the backs'
offset and the scales). Each field is read with the bounds, defaults and messages of
``builder.kit.printbounds``: the command line and the library (``builder.render.api``), the web
print page and its API (:meth:`PrintOptions.from_form`), printer profiles and the web's
remembered settings all build this model, so a value is refused with one message everywhere.
A refused value raises ``UsageError`` (exit 2 on the command line, HTTP 400 on the web).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from builder.errors import UsageError, option
from builder.i18n import L_, N_
from builder.kit.printbounds import (
    BLEED,
    CARD_SIDE,
    CARDS,
    CUT_MACHINES,
    DEFAULT_BLEED,
    DEFAULT_CARD,
    DEFAULT_DPI,
    DEFAULT_DUPLEX,
    DEFAULT_LAYOUT,
    DEFAULT_PAPER,
    DEFAULT_SCALE,
    DEFAULT_SWITCHES,
    DPI,
    DUPLEX,
    GUTTER,
    LAYOUTS,
    PAPER_SIDE,
    PAPERS,
    SCALE_X,
    SCALE_Y,
    SERVICES,
    card_size,
    choice,
    paper_size,
    parse_offset,
)

#: the web form's checkboxes and their default ("on" or "")
CHECKBOXES = {
    k: "on" if DEFAULT_SWITCHES[k] else ""
    for k in ("marks", "cut_lines", "ink_saver", "unit_cards", "sources", "stats")
}


def _blank(v) -> bool:
    return v is None or (isinstance(v, str) and not v.strip())


def _size(v, named: dict, read, side, word: str):
    if isinstance(v, (tuple, list)):
        if len(v) != 2:
            raise UsageError(L_("a {word} size is a width and a height in mm, not {v!r}", word=word, v=v))
        return (side.check(v[0], f"{word} width"), side.check(v[1], f"{word} height"))
    key = str(v).strip().lower()
    read(key)  # one clear line for an unknown name or a side out of range
    return key


class PrinterCorrection(BaseModel):
    """A printer's correction, measured with ``daimyo print-test``: the backs' offset in mm
    (+x right, +y up as seen on the back page) and the scale across and down the page."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    offset: tuple[float, float] = (0.0, 0.0)
    scale_x: float = 1.0
    scale_y: float = 1.0

    @field_validator("offset", mode="before")
    @classmethod
    def _offset(cls, v):
        return parse_offset(v)

    @field_validator("scale_x", mode="before")
    @classmethod
    def _scale_x(cls, v):
        return DEFAULT_SCALE if _blank(v) else SCALE_X.check(v)

    @field_validator("scale_y", mode="before")
    @classmethod
    def _scale_y(cls, v):
        return DEFAULT_SCALE if _blank(v) else SCALE_Y.check(v)


class PrintOptions(PrinterCorrection):
    """Every print option, checked (see the module docstring). ``paper`` and ``card`` keep the
    name or ``WxH`` given (``paper_mm`` and ``card_mm`` are the sizes); ``gutter`` None is the
    default spacing (each card its own bleed); ``service`` and ``dpi`` are for card images."""

    paper: str | tuple[float, float] = DEFAULT_PAPER
    card: str | tuple[float, float] = DEFAULT_CARD
    bleed: float = DEFAULT_BLEED
    marks: bool = DEFAULT_SWITCHES["marks"]
    backs: bool = DEFAULT_SWITCHES["backs"]
    duplex: str = DEFAULT_DUPLEX
    ink_saver: bool = DEFAULT_SWITCHES["ink_saver"]
    layout: str = DEFAULT_LAYOUT
    gutter: float | None = None
    cut_lines: bool = DEFAULT_SWITCHES["cut_lines"]
    cut_machine: str | None = None
    unit_cards: bool = DEFAULT_SWITCHES["unit_cards"]
    sources: bool = DEFAULT_SWITCHES["sources"]
    stats: bool = DEFAULT_SWITCHES["stats"]
    dpi: float = DEFAULT_DPI
    service: str | None = None

    @field_validator("paper", mode="before")
    @classmethod
    def _paper(cls, v):
        return DEFAULT_PAPER if _blank(v) else _size(v, PAPERS, paper_size, PAPER_SIDE, "paper")

    @field_validator("card", mode="before")
    @classmethod
    def _card(cls, v):
        return DEFAULT_CARD if _blank(v) else _size(v, CARDS, card_size, CARD_SIDE, "card")

    @field_validator("bleed", mode="before")
    @classmethod
    def _bleed(cls, v):
        return DEFAULT_BLEED if _blank(v) else BLEED.check(v)

    @field_validator("gutter", mode="before")
    @classmethod
    def _gutter(cls, v):
        return None if _blank(v) else GUTTER.check(v)

    @field_validator("dpi", mode="before")
    @classmethod
    def _dpi(cls, v):
        return DEFAULT_DPI if _blank(v) else DPI.check(v)

    @field_validator("duplex", mode="before")
    @classmethod
    def _duplex(cls, v):
        return DEFAULT_DUPLEX if v is None else choice(v, DUPLEX, N_("duplex mode"))

    @field_validator("layout", mode="before")
    @classmethod
    def _layout(cls, v):
        return DEFAULT_LAYOUT if _blank(v) else choice(v, LAYOUTS, N_("layout"))

    @field_validator("service", mode="before")
    @classmethod
    def _service(cls, v):
        return None if _blank(v) else choice(v, SERVICES, N_("print service"))

    @field_validator("cut_machine", mode="before")
    @classmethod
    def _cut_machine(cls, v):
        return None if _blank(v) else choice(v, CUT_MACHINES, N_("cutting machine"))

    @model_validator(mode="after")
    def _together(self):
        if self.cut_machine is not None and self.layout == "fold":
            raise UsageError(
                L_("{option} cuts one side of the sheet", option=option("cut-machine")),
                L_("use {option} duplex or separate (or print the backs apart)", option=option("layout")),
            )
        return self

    @classmethod
    def of(cls, **values) -> PrintOptions:
        """The options given by keyword (None: the default), checked; ``UsageError`` for the first
        value refused, an unknown option included."""
        unknown = set(values) - set(cls.model_fields)
        if unknown:
            raise UsageError(L_("unknown print option(s): {value}", value=", ".join(sorted(unknown))))
        return cls(**{k: v for k, v in values.items() if v is not None})

    @property
    def paper_mm(self) -> tuple[float, float]:
        return paper_size(self.paper) if isinstance(self.paper, str) else self.paper

    @property
    def card_mm(self) -> tuple[float, float]:
        return card_size(self.card) if isinstance(self.card, str) else self.card

    def sheet(self) -> dict[str, Any]:
        """The keyword arguments of a card sheet (``builder.render.api.render_list``)."""
        return {
            "paper": self.paper,
            "card": self.card,
            "bleed": self.bleed,
            "marks": self.marks,
            "backs": self.backs,
            "duplex": self.duplex,
            "offset": self.offset,
            "ink_saver": self.ink_saver,
            "layout": self.layout,
            "gutter": self.gutter,
            "cut_lines": self.cut_lines,
            "scale_x": self.scale_x,
            "scale_y": self.scale_y,
            "cut_machine": self.cut_machine,
        }

    @classmethod
    def from_form(
        cls, params, cards: bool = True, units: bool = False, printer: PrinterCorrection | None = None
    ) -> PrintOptions:
        """The options of the web print page's form (or its API's query): ``paper`` and ``card``
        a name or ``custom`` with ``KEY_w`` and ``KEY_h`` in mm; ``duplex`` long, short or empty
        (no backs, unless the layout prints them); ``offset_x``, ``offset_y``; checkboxes "on".
        A form sends ``sent=1``: then a checkbox left out is off (else its default applies).
        ``cards``: a deck of cards (else a roster or setup sheet, which takes the paper,
        ``unit_cards`` when ``units``, ``sources`` and ``stats``). ``printer``: a saved printer's
        correction, standing for the form's offset and scales."""
        sent = _on(params.get("sent"))

        def box(name: str) -> bool:
            return _on(params.get(name, "" if sent else CHECKBOXES[name]))

        def get(name: str) -> str:
            return str(params.get(name) or "").strip()

        values: dict[str, Any] = {"paper": _chosen(params, "paper"), "stats": box("stats")}
        if cards:
            values["card"] = _chosen(params, "card")
            values["bleed"] = get("bleed")
            values["layout"] = get("layout")
            values["gutter"] = get("gutter")
            values["scale_x"] = get("scale_x")
            values["scale_y"] = get("scale_y")
            values["offset"] = (get("offset_x") or "0", get("offset_y") or "0")
            values["dpi"] = get("dpi")
            values["service"] = get("service")
            if "duplex" in params:
                duplex = get("duplex")
                if duplex:
                    values["duplex"] = duplex
                else:  # none: fronts only, unless the layout prints the backs (fold, separate)
                    values["backs"] = (get("layout") or DEFAULT_LAYOUT) != "duplex"
            for name in ("cut_lines", "marks", "ink_saver"):
                values[name] = box(name)
            if printer is not None:
                values.update(offset=printer.offset, scale_x=printer.scale_x, scale_y=printer.scale_y)
        else:
            if units:
                values["unit_cards"] = box("unit_cards")
            values["sources"] = box("sources")
        return cls(**values)

    def render_options(self, cards: bool = True, units: bool = False) -> dict[str, Any]:
        """What ``builder.render.api.render_list`` takes of these options: a card sheet's
        (``cards``), or a roster's or setup sheet's paper, ``unit_cards`` (``units``) and
        ``sources``; and ``stats`` when asked for."""
        if cards:
            out = self.sheet()
        else:
            out = {"paper": self.paper, "sources": self.sources}
            if units:
                out["unit_cards"] = self.unit_cards
        if self.stats:
            out["stats"] = True
        return out


def _on(v) -> bool:
    return str(v or "").lower() in ("1", "on", "true", "yes")


def _chosen(params, key: str) -> str:
    """A paper or card size of the form: a name, ``WxH``, or ``custom`` with ``KEY_w`` and
    ``KEY_h`` in mm (each side checked as the command line's ``WxH`` is)."""
    value = str(params.get(key) or "").strip().lower()
    if value != "custom":
        return value
    what = "paper" if key == "paper" else "card"
    w, h = (str(params.get(f"{key}_{s}") or "").strip() for s in ("w", "h"))
    if not w or not h:
        raise UsageError(
            L_("a custom {what} needs its width and height in mm", what=what), L_("such as 105 and 148 (A6)")
        )
    return f"{w}x{h}"  # checked as the command line's WxH is, in the same words


def form_defaults() -> dict[str, str]:
    """The web print form's values before anything is chosen: every option's default, and a
    custom size's starting width and height (the default paper's and card's)."""
    pw, ph = PAPERS[DEFAULT_PAPER]
    cw, ch = CARDS[DEFAULT_CARD]
    return {
        "paper": DEFAULT_PAPER,
        "card": DEFAULT_CARD,
        "bleed": f"{DEFAULT_BLEED:g}",
        "duplex": DEFAULT_DUPLEX if DEFAULT_SWITCHES["backs"] else "",
        "layout": DEFAULT_LAYOUT,
        "paper_w": f"{pw:g}",
        "paper_h": f"{ph:g}",
        "card_w": f"{cw:g}",
        "card_h": f"{ch:g}",
        **CHECKBOXES,
    }
