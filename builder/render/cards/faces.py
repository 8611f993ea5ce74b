"""Card faces and backs: the frame, art, fields and back of each card drawn once as a PDF
form and placed for every copy (:class:`CardSheetWriter`)."""

from __future__ import annotations

from builder.errors import UsageError
from builder.i18n import _
from builder.kit import fonts
from builder.kit.layout import (
    Rect,
    card_matrix,
    pt,
    scale_box,
)
from builder.kit.pdfbase import draw_text_box
from builder.kit.rladapter import draw_jpeg_unit
from builder.render.cards.art import art_box
from builder.render.cards.base import PreparedImage, SheetOptions
from builder.render.cards.geometry import geometry
from builder.render.cards.symbols import draw_symbol
from builder.render.cards.template import Box, CardFace, CardTemplate, field_text, get_value, suit_name, words

MIN_CARD_PT = 6.0  # smallest card text on a poker card (scaled down with smaller cards)


# -- colours -----------------------------------------------------------------------------


def _rgb(hexstr: str | None, default=(0, 0, 0)) -> tuple[float, float, float]:
    if not hexstr:
        return default
    s = hexstr.lstrip("#")
    if len(s) == 3:
        s = "".join(ch * 2 for ch in s)
    try:
        return tuple(int(s[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        return default


def _lighten(rgb, f: float):
    return tuple(c + (1 - c) * f for c in rgb)


# -- rendering ----------------------------------------------------------------------------


class CardSheetWriter:
    """Draws card faces and backs on a PdfJob (forms are created lazily, once)."""

    def __init__(self, job, tpl: CardTemplate, opts: SheetOptions, catalog=None):
        self.job = job
        self.c = job.canvas
        self.tpl = tpl
        self.opts = opts
        self.catalog = catalog
        self.forms: set[str] = set()
        self.images: dict[str, str] = {}
        self.sx = opts.card[0] / tpl.size[0]
        self.sy = opts.card[1] / tpl.size[1]
        self.fscale = min(self.sx, self.sy)
        self.reported: set[tuple[str, str]] = set()
        self.face_names: dict[int, str] = {}
        # a print service's safe zone deeper than the frame's inset: the face drawn smaller about
        # the card's centre, so that the frame (and all within it) sits inside the safe zone
        border = min(
            spec.frame.border * min(self.sx, self.sy) - spec.frame.line / 2  # the line's outer edge
            for spec in tpl.layouts.values()
        )
        cw, ch = opts.card
        self.inner = (
            1.0
            if opts.safe <= border
            else min((cw - 2 * opts.safe) / (cw - 2 * border), (ch - 2 * opts.safe) / (ch - 2 * border))
        )
        self.small_text: dict[str, float] = {}  # card name -> its smallest text (pt) when under MIN_CARD_PT

    def _note_size(self, card: str, size: float) -> None:
        """Remember text printed under ``MIN_CARD_PT`` (as printed: inside a safe zone it is smaller)."""
        printed = size * self.inner
        if printed < MIN_CARD_PT - 0.05:
            self.small_text[card] = min(printed, self.small_text.get(card, printed))

    def report_small_text(self) -> None:
        """One warning naming the cards whose text prints under ``MIN_CARD_PT``."""
        if not self.small_text:
            return
        names = sorted(self.small_text, key=str.casefold)
        shown = ", ".join(f"'{n}'" for n in names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        cw, ch = self.opts.card
        self.job.warn(
            f"on {cw:g}x{ch:g} mm cards text prints under {MIN_CARD_PT:g} pt (down to "
            f"{min(self.small_text.values()):.1f} pt) on {shown}: a larger card size reads better "
            f"at the table"
        )

    def _inside_safe_zone(self) -> None:
        if self.inner != 1.0:
            cx, cy = pt(self.opts.card[0] / 2), pt(self.opts.card[1] / 2)
            self.c.translate(cx, cy)
            self.c.scale(self.inner, self.inner)
            self.c.translate(-cx, -cy)

    # boxes in card points (origin bottom-left of the card)
    def box_pt(self, box: Box) -> tuple[float, float, float, float]:
        x, y, w, h = scale_box(box, self.tpl.size, self.opts.card)
        return pt(x), pt(y), pt(w), pt(h)

    # -- forms ------------------------------------------------------------------
    def frame_form(self, layout: str, shift: float = 0.0) -> str:
        name = f"frame_{layout}" + (f"_{shift:g}".replace(".", "_") if shift else "")
        if name in self.forms:
            return name
        spec = self.tpl.layouts[layout].frame
        geo = geometry(self.tpl, layout, shift)
        c = self.c
        cw, ch = self.opts.card
        b = self.opts.bleed
        c.beginForm(name, lowerx=pt(-b) - 1, lowery=pt(-b) - 1, upperx=pt(cw + b) + 1, uppery=pt(ch + b) + 1)
        c.saveState()
        color = _rgb(spec.color)
        if not self.opts.ink_saver:
            c.setFillColorRGB(*_rgb(spec.background, (1, 1, 1)))
            c.rect(pt(-b), pt(-b), pt(cw + 2 * b), pt(ch + 2 * b), stroke=0, fill=1)
            band = _rgb(spec.band_color) if spec.band_color else _lighten(color, 0.78)
            c.setFillColorRGB(*band)
            for bx in geo.bands:
                x, y, w, h = self.box_pt(bx)
                c.roundRect(x, y, w, h, pt(1.0), stroke=0, fill=1)
        else:  # the type colour survives as the bands' outline and a hatched edge
            c.setStrokeColorRGB(*color)
            c.setLineWidth(pt(0.3))
            for bx in geo.bands:
                x, y, w, h = self.box_pt(bx)
                c.roundRect(x, y, w, h, pt(1.0), stroke=1, fill=0)
                step = pt(1.2)
                k = x + pt(1.0)
                c.setLineWidth(pt(0.15))
                while k < x + pt(4.0):
                    c.line(k, y + pt(0.3), k + pt(0.6), y + h - pt(0.3))
                    k += step
                c.setLineWidth(pt(0.3))
        c.setStrokeColorRGB(*color)
        c.setLineWidth(pt(spec.line if not self.opts.ink_saver else 0.3))
        inset = spec.border * min(self.sx, self.sy)
        # the rounded-corner guide: inset and radius scale with the card as the art box does
        c.roundRect(
            pt(inset),
            pt(inset),
            pt(cw - 2 * inset),
            pt(ch - 2 * inset),
            pt(spec.radius * min(self.sx, self.sy)),
            stroke=1,
            fill=0,
        )
        c.setLineWidth(pt(0.2))
        for rb in geo.rules:
            x, y, w, h = self.box_pt(rb)
            c.line(x, y + h, x + w, y + h)
        c.restoreState()
        c.endForm()
        self.forms.add(name)
        return name

    def back_form(self, key: str) -> str:
        name = f"back_{key}"
        if name in self.forms:
            return name
        spec = self.tpl.backs[key]
        c = self.c
        cw, ch = self.opts.card
        b = self.opts.bleed
        c.beginForm(name, lowerx=pt(-b) - 1, lowery=pt(-b) - 1, upperx=pt(cw + b) + 1, uppery=pt(ch + b) + 1)
        c.saveState()
        main, accent = _rgb(spec.color), _rgb(spec.accent)
        ink = self.opts.ink_saver
        if not ink:
            c.setFillColorRGB(*main)
            c.rect(pt(-b), pt(-b), pt(cw + 2 * b), pt(ch + 2 * b), stroke=0, fill=1)
        c.setStrokeColorRGB(*(accent if not ink else (0.4, 0.4, 0.4)))
        c.setLineWidth(pt(0.6 if not ink else 0.25))
        inset = 3.0 * self.fscale
        c.roundRect(pt(inset), pt(inset), pt(cw - 2 * inset), pt(ch - 2 * inset), pt(2.5), stroke=1, fill=0)
        c.roundRect(
            pt(inset + 1.2),
            pt(inset + 1.2),
            pt(cw - 2 * inset - 2.4),
            pt(ch - 2 * inset - 2.4),
            pt(2.0),
            stroke=1,
            fill=0,
        )
        # a simple emblem (a diamond around a circle) above the title
        cx, cy = pt(cw / 2), pt(ch * 0.6)
        r = pt(min(cw, ch) * 0.26)
        p = c.beginPath()
        p.moveTo(cx, cy + r)
        p.lineTo(cx + r, cy)
        p.lineTo(cx, cy - r)
        p.lineTo(cx - r, cy)
        p.close()
        c.drawPath(p, stroke=1, fill=0)
        c.circle(cx, cy, r * 0.55, stroke=1, fill=0)
        c.setFillColorRGB(*(accent if not ink else (0.2, 0.2, 0.2)))
        if not ink:
            c.circle(cx, cy, r * 0.2, stroke=0, fill=1)
        w = pt(cw - 2 * inset - 6)

        draw_text_box(
            c,
            words(spec.title),
            (cx - w / 2, pt(ch * 0.24), w, pt(9)),
            fonts.BOLD,
            12 * self.fscale,
            6,
            align="center",
            valign="middle",
            wrap=False,
            what=f"back '{key}' title",
            warn=self.job.warn,
        )
        if spec.subtitle:
            draw_text_box(
                c,
                words(spec.subtitle),
                (cx - w / 2, pt(ch * 0.24 - 6), w, pt(5)),
                fonts.REGULAR,
                7 * self.fscale,
                5,
                align="center",
                valign="middle",
                wrap=False,
                what=f"back '{key}' subtitle",
                warn=self.job.warn,
            )
        c.restoreState()
        c.endForm()
        self.forms.add(name)
        return name

    def image_form(self, img: PreparedImage) -> str:
        name = f"img_{img.key}"
        if name in self.forms:
            return name
        c = self.c
        c.beginForm(name, lowerx=0, lowery=0, upperx=1, uppery=1)
        if img.is_jpeg:
            if not draw_jpeg_unit(c, f"img{img.key}", img.source):
                raise UsageError(_("cannot embed a JPEG image"), _("re-save the image as a baseline JPEG or PNG"))
        else:
            c.drawImage(img.source, 0, 0, 1, 1, mask=img.mask)
        c.endForm()
        self.forms.add(name)
        return name

    # -- placing ------------------------------------------------------------------
    def _enter(self, trim: Rect, rotated: bool, turn180: bool, clip: Rect | None = None) -> None:
        c = self.c
        c.saveState()
        if clip is not None:  # shared gutters: a card's bleed stops where its neighbour's starts
            p = c.beginPath()
            p.rect(pt(clip.x), pt(clip.y), pt(clip.w), pt(clip.h))
            c.clipPath(p, stroke=0, fill=0)
        a, b, cc, d, e, f = card_matrix(trim, rotated, turn180)
        c.transform(a, b, cc, d, pt(e), pt(f))

    def draw_face(self, face: CardFace, trim: Rect, rotated: bool, images: dict, clip: Rect | None = None) -> None:
        """Place a card face; each distinct face is drawn once, as a form, and reused for its copies."""
        c = self.c
        self._enter(trim, rotated, False, clip)
        c.doForm(self.face_form(face, images))
        c.restoreState()

    def face_form(self, face: CardFace, images: dict) -> str:
        name = self.face_names.get(id(face))
        if name is not None:
            return name
        name = f"face_{len(self.face_names) + 1}"
        self.face_names[id(face)] = name
        c = self.c
        cw, ch = self.opts.card
        b = self.opts.bleed
        frame = self.frame_form(face.layout, face.shift)
        art = None
        if face.art is not None and self.tpl.layouts[face.layout].art is not None and not self.opts.ink_saver:
            art = face.image or images.get(face.art)
            if art is not None:
                self.image_form(art)
        c.beginForm(name, lowerx=pt(-b) - 1, lowery=pt(-b) - 1, upperx=pt(cw + b) + 1, uppery=pt(ch + b) + 1)
        c.saveState()
        if self.inner != 1.0 and not self.opts.ink_saver:  # the face tint still reaches into the bleed
            c.setFillColorRGB(*_rgb(self.tpl.layouts[face.layout].frame.background, (1, 1, 1)))
            c.rect(pt(-b), pt(-b), pt(cw + 2 * b), pt(ch + 2 * b), stroke=0, fill=1)
        self._inside_safe_zone()
        c.doForm(frame)
        self._draw_face_content(face, art)
        c.restoreState()
        c.endForm()
        self.forms.add(name)
        return name

    def _draw_face_content(self, face: CardFace, img: PreparedImage | None) -> None:
        c = self.c
        layout = self.tpl.layouts[face.layout]
        texts = [field_text(spec, face.entry, self.catalog) for spec in layout.fields]
        geo = geometry(self.tpl, face.layout, face.shift, texts)
        c.saveState()
        if img is not None and (box := art_box(self.tpl, face.layout, self.opts, face.shift)) is not None:
            # cropped to the box's proportions: it fills the box
            x, y, w, h = (pt(v) for v in box)
            c.saveState()
            c.translate(x, y)
            c.scale(w, h)
            c.doForm(self.image_form(img))
            c.restoreState()
        elif geo.art is not None and layout.emblem:
            self._emblem(face, layout, geo.art)
        for idx, spec in enumerate(layout.fields):
            text = texts[idx]
            if not text:
                continue
            x, y, w, h = self.box_pt(geo.fields[idx])
            if spec.fill and not self.opts.ink_saver:
                c.setFillColorRGB(*_rgb(spec.fill))
                c.roundRect(x, y, w, h, pt(spec.radius), stroke=0, fill=1)
            elif spec.fill:
                c.setStrokeColorRGB(*_rgb(layout.frame.color))
                c.setLineWidth(pt(0.25))
                c.roundRect(x, y, w, h, pt(spec.radius), stroke=1, fill=0)
            col = (0, 0, 0) if self.opts.ink_saver else _rgb(spec.color, (0.08, 0.08, 0.08))
            font = fonts.font_name(spec.bold, spec.condensed)
            pad = pt(0.4) if spec.fill else 0
            key = (face.name, spec.field or spec.text or "")

            def warn(msg, key=key):
                if key not in self.reported:
                    self.reported.add(key)
                    self.job.warn(msg)

            small = min(1.0, self.fscale)  # smaller cards: the floors shrink with them
            size = max(spec.size * self.fscale, MIN_CARD_PT * small)
            floor = min(size, max(spec.min_size * small, MIN_CARD_PT * small))
            c.saveState()
            if spec.rotate:  # the index in the opposite corner, upside down
                c.translate(x + w / 2, y + h / 2)
                c.rotate(180)
                c.translate(-(x + w / 2), -(y + h / 2))
            if spec.caption:
                cap = MIN_CARD_PT * small
                c.setFillColorRGB(*((0.2, 0.2, 0.2) if self.opts.ink_saver else (0.3, 0.3, 0.3)))
                draw_text_box(
                    c,
                    words(spec.caption),
                    (x + pad, y + h - cap * 1.18, w - 2 * pad, cap * 1.18),
                    fonts.CONDENSED,
                    cap,
                    cap,
                    align=spec.align,
                    wrap=False,
                    what=f"card '{face.name}', caption '{spec.caption}'",
                    warn=warn,
                )
                self._note_size(face.name, cap)
                h -= cap * 1.18
                size = min(size, max(floor, h / 1.18))
            c.setFillColorRGB(*col)
            what = f"card '{face.name}', field '{spec.field or 'text'}'"
            if spec.symbols and spec.field:
                self._symbol_field(face, spec, (x + pad, y, w - 2 * pad, h), font, size, floor, col, what, warn)
                self._note_size(face.name, size)
                c.restoreState()
                continue
            wrap = spec.wrap
            if (
                not wrap
                and fonts.fit_text(fonts.printable(text, font), w - 2 * pad, h, font, size, floor, wrap=False).overflow
            ):
                wrap = True  # a long name takes two lines rather than being cut
            fit = draw_text_box(
                c,
                text,
                (x + pad, y, w - 2 * pad, h),
                font,
                size,
                floor,
                align=spec.align,
                valign=spec.valign,
                wrap=wrap,
                what=what,
                warn=warn,
            )
            self._note_size(face.name, fit.size)
            c.restoreState()
        c.restoreState()

    # -- symbols ------------------------------------------------------------------
    def _items(self, spec, value) -> list[tuple[str | None, str]]:
        """(symbol key, text) of each listed value of a symbol field."""
        seq = value if isinstance(value, (list, tuple)) else [value]
        out = []
        for v in seq:
            if spec.as_ in ("options", "option_names"):
                letter, strength = getattr(v, "suit", "?"), getattr(v, "strength", "?")
                if spec.as_ == "options":
                    out.append((letter, f"{letter}{strength}"))
                else:
                    out.append((letter, f"{suit_name(self.catalog, letter) or letter} {strength}"))
            else:
                out.append((str(v), str(v)))
        return out

    def _symbol_field(self, face, spec, box, font, size, floor, col, what, warn) -> None:
        """A list of values, each after its symbol, on one line or one per line (``join``
        with a newline), fitted into ``box`` (points) by shrinking down to ``floor``."""
        c = self.c
        x, y, w, h = box
        items = self._items(spec, get_value(face.entry, spec.field))
        stacked = "\n" in spec.join
        sep = spec.join.split("\n", 1)[1] if stacked else spec.join.replace(",", " ")
        label = fonts.printable(words(spec.label), font)

        def lines_at(s: float):
            rows: list[list] = [[]]
            for i, (key, text) in enumerate(items):
                pre = (sep if i else "") if stacked else ("   " if i else "")
                if stacked and i:
                    rows.append([])
                rows[-1].append((pre, self._symbol_key(key), fonts.printable(text, font)))
            if label:
                rows[0].insert(0, (label, None, ""))
            return rows

        def width(row, s):
            total = 0.0
            for pre, key, text in row:
                total += fonts.string_width(pre + text, font, s) + (s * 1.15 if key else 0.0)
            return total

        s = size
        while True:
            rows = lines_at(s)
            if max(width(r, s) for r in rows) <= w + 1e-6 and len(rows) * s * 1.18 <= h + 1e-6:
                break
            if s - 0.5 < floor - 1e-9:
                warn(f"{what} does not fit its box even at {floor:g} pt; printed smaller than {floor:g} pt")
                while s > 3 and (max(width(r, s) for r in rows) > w or len(rows) * s * 1.18 > h):
                    s -= 0.25
                break
            s = round(s - 0.5, 3)
        lead = s * 1.18
        block = len(rows) * lead
        top = y + (h + block) / 2 if spec.valign == "middle" else (y + block if spec.valign == "bottom" else y + h)
        cy = top - (lead - s) / 2 - s * 0.76
        for row in rows:
            rw = width(row, s)
            cx = x + (w - rw) / 2 if spec.align == "center" else (x + w - rw if spec.align == "right" else x)
            for pre, key, text in row:
                if pre:
                    c.setFillColorRGB(*col)
                    c.setFont(font, s)
                    c.drawString(cx, cy, pre)
                    cx += fonts.string_width(pre, font, s)
                if key:
                    sym = self.tpl.symbols[key]
                    colour = (0, 0, 0) if self.opts.ink_saver else _rgb(sym.color)
                    c.setFillColorRGB(*colour)
                    c.setStrokeColorRGB(*colour)
                    c.setLineWidth(0.5)
                    draw_symbol(c, sym.shape, cx + s * 0.45, cy + s * 0.33, s * 0.9)
                    cx += s * 1.15
                    c.setFillColorRGB(*colour)
                else:
                    c.setFillColorRGB(*col)
                if text:
                    c.setFont(font, s)
                    c.drawString(cx, cy, text)
                    cx += fonts.string_width(text, font, s)
            cy -= lead

    def _symbol_key(self, value) -> str | None:
        """The template's symbol for a value, matched as written or capitalised ("troop": Troop)."""
        if value is None:
            return None
        v = str(value)
        for k in (v, v[:1].upper() + v[1:], v.title()):
            if k in self.tpl.symbols:
                return k
        return None

    def _emblem(self, face, layout, art: Box) -> None:
        """The first symbol of the layout's emblem field, large and pale, in the empty art box."""
        spec = next((f for f in layout.fields if f.field == layout.emblem), None)
        value = get_value(face.entry, layout.emblem)
        if value in (None, [], ""):
            items = []
        elif spec is not None and spec.symbols:
            items = self._items(spec, value)
        else:
            seq = value if isinstance(value, (list, tuple)) else [value]
            items = [(str(v), str(v)) for v in seq]
        key = next((self._symbol_key(k) for k, _ in items if self._symbol_key(k)), None)
        x, y, w, h = self.box_pt(art)
        if key is None or min(w, h) < pt(8):
            return
        sym = self.tpl.symbols[key]
        c = self.c
        c.saveState()
        if self.opts.ink_saver:
            c.setStrokeColorRGB(0.6, 0.6, 0.6)
            c.setLineWidth(pt(0.3))
            draw_symbol(c, sym.shape, x + w / 2, y + h / 2, min(w, h) * 0.6, fill=False)
        else:
            colour = _lighten(_rgb(sym.color), 0.82)
            c.setFillColorRGB(*colour)
            c.setStrokeColorRGB(*colour)
            draw_symbol(c, sym.shape, x + w / 2, y + h / 2, min(w, h) * 0.6)
        c.restoreState()

    def draw_number(self, trim: Rect, rotated: bool, deck: str, number: str, card: str | None = None) -> None:
        """The deck's name and the card's number in the deck ("12/50") in small print along
        the card's bottom edge, inside the frame (``card``: the card's name, for the warning
        about small text)."""
        c = self.c
        cw, _ = self.opts.card
        small = min(1.0, self.fscale)
        size = MIN_CARD_PT * small
        if card is not None:
            self._note_size(card, size)
        inset = 2.0 * self.fscale + 0.9
        self._enter(trim, rotated, False)
        self._inside_safe_zone()
        c.setFillColorRGB(0.35, 0.35, 0.35)
        num_w = fonts.string_width(number, fonts.CONDENSED, size)
        c.setFont(fonts.CONDENSED, size)
        c.drawRightString(pt(cw - inset - 1.0), pt(inset), number)
        room = pt(cw - 2 * inset - 2.0) - num_w - pt(2)
        label = fonts.fit_text(
            fonts.printable(deck, fonts.CONDENSED), room, size * 1.3, fonts.CONDENSED, size, size, wrap=False
        )
        if label.lines:
            c.drawString(pt(inset + 1.0), pt(inset), label.lines[0])
        c.restoreState()

    def draw_back(self, key: str, trim: Rect, rotated: bool, turn180: bool, clip: Rect | None = None) -> None:
        self._enter(trim, rotated, turn180, clip)
        self.c.doForm(self.back_form(key))
        self.c.restoreState()
