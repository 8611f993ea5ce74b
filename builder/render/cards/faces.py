"""Card faces and backs: the frame, art, fields and back of each card drawn once as a PDF
form and placed for every copy (:class:`CardSheetWriter`)."""

from __future__ import annotations

from typing import TYPE_CHECKING


from builder.errors import UsageError
from builder.render import fonts
from builder.render.layout import (
    Rect,
    card_matrix,
    pt,
    scale_box,
)
from builder.render.cards.art import PreparedImage, art_box
from builder.render.cards.template import Box, CardFace, CardTemplate, LayoutSpec, _overlap, field_text

if TYPE_CHECKING:
    from builder.render.cards.sheet import SheetOptions

MIN_CARD_PT = 6.0     # smallest card text on a poker card (scaled down with smaller cards)


# -- colours -----------------------------------------------------------------------------


def _rgb(hexstr: str | None, default=(0, 0, 0)) -> tuple[float, float, float]:
    if not hexstr:
        return default
    s = hexstr.lstrip("#")
    if len(s) == 3:
        s = "".join(ch * 2 for ch in s)
    try:
        return tuple(int(s[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
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

    # boxes in card points (origin bottom-left of the card)
    def box_pt(self, box: Box) -> tuple[float, float, float, float]:
        x, y, w, h = scale_box(box, self.tpl.size, self.opts.card)
        return pt(x), pt(y), pt(w), pt(h)

    # -- forms ------------------------------------------------------------------
    def frame_form(self, layout: str) -> str:
        name = f"frame_{layout}"
        if name in self.forms:
            return name
        spec = self.tpl.layouts[layout].frame
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
            for bx in spec.bands:
                x, y, w, h = self.box_pt(bx)
                c.roundRect(x, y, w, h, pt(1.0), stroke=0, fill=1)
        else:
            c.setStrokeColorRGB(0.55, 0.55, 0.55)
            c.setLineWidth(pt(0.15))
            for bx in spec.bands:
                x, y, w, h = self.box_pt(bx)
                c.roundRect(x, y, w, h, pt(1.0), stroke=1, fill=0)
        c.setStrokeColorRGB(*(color if not self.opts.ink_saver else (0.35, 0.35, 0.35)))
        c.setLineWidth(pt(spec.line if not self.opts.ink_saver else 0.25))
        inset = spec.border * min(self.sx, self.sy)
        c.roundRect(pt(inset), pt(inset), pt(cw - 2 * inset), pt(ch - 2 * inset), pt(spec.radius), stroke=1, fill=0)
        c.setLineWidth(pt(0.2))
        for rb in spec.rules:
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
        c.roundRect(pt(inset + 1.2), pt(inset + 1.2), pt(cw - 2 * inset - 2.4), pt(ch - 2 * inset - 2.4),
                    pt(2.0), stroke=1, fill=0)
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
        from builder.render.pdfbase import draw_text_box

        draw_text_box(c, spec.title, (cx - w / 2, pt(ch * 0.24), w, pt(9)), fonts.BOLD, 12 * self.fscale,
                      6, align="center", valign="middle", wrap=False, what=f"back '{key}' title",
                      warn=self.job.warn)
        if spec.subtitle:
            draw_text_box(c, spec.subtitle, (cx - w / 2, pt(ch * 0.24 - 6), w, pt(5)), fonts.REGULAR,
                          7 * self.fscale, 5, align="center", valign="middle", wrap=False,
                          what=f"back '{key}' subtitle", warn=self.job.warn)
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
            from builder.render.rladapter import draw_jpeg_unit

            if not draw_jpeg_unit(c, f"img{img.key}", img.source):
                raise UsageError("cannot embed a JPEG image", "re-save the image as a baseline JPEG or PNG")
        else:
            c.drawImage(img.source, 0, 0, 1, 1, mask=img.mask)
        c.endForm()
        self.forms.add(name)
        return name

    # -- placing ------------------------------------------------------------------
    def _enter(self, trim: Rect, rotated: bool, turn180: bool, clip: Rect | None = None) -> None:
        c = self.c
        c.saveState()
        if clip is not None:     # shared gutters: a card's bleed stops where its neighbour's starts
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
        frame = self.frame_form(face.layout)
        art = None
        if face.art is not None and self.tpl.layouts[face.layout].art is not None and not self.opts.ink_saver:
            art = face.image or images.get(face.art)
            if art is not None:
                self.image_form(art)
        c.beginForm(name, lowerx=pt(-b) - 1, lowery=pt(-b) - 1, upperx=pt(cw + b) + 1, uppery=pt(ch + b) + 1)
        c.saveState()
        c.doForm(frame)
        self._draw_face_content(face, art)
        c.restoreState()
        c.endForm()
        self.forms.add(name)
        return name

    def _draw_face_content(self, face: CardFace, img: "PreparedImage | None") -> None:
        c = self.c
        layout = self.tpl.layouts[face.layout]
        c.saveState()
        if img is not None:   # cropped to the box's proportions: it fills the box
            x, y, w, h = (pt(v) for v in art_box(self.tpl, face.layout, self.opts))
            c.saveState()
            c.translate(x, y)
            c.scale(w, h)
            c.doForm(self.image_form(img))
            c.restoreState()
        grown = self._grown_boxes(face, layout) if img is None and layout.art is not None else {}
        for idx, spec in enumerate(layout.fields):
            text = field_text(spec, face.entry, self.catalog)
            if not text:
                continue
            x, y, w, h = self.box_pt(grown.get(idx, spec.box))
            if spec.fill and not self.opts.ink_saver:
                c.setFillColorRGB(*_rgb(spec.fill))
                c.roundRect(x, y, w, h, pt(spec.radius), stroke=0, fill=1)
            elif spec.fill:
                c.setStrokeColorRGB(0.5, 0.5, 0.5)
                c.setLineWidth(0.4)
                c.roundRect(x, y, w, h, pt(spec.radius), stroke=1, fill=0)
            col = (0, 0, 0) if self.opts.ink_saver else _rgb(spec.color, (0.08, 0.08, 0.08))
            c.setFillColorRGB(*col)
            font = fonts.font_name(spec.bold, spec.condensed)
            pad = pt(0.4) if spec.fill else 0
            key = (face.name, spec.field or spec.text or "")

            def warn(msg, key=key):
                if key not in self.reported:
                    self.reported.add(key)
                    self.job.warn(msg)

            from builder.render.pdfbase import draw_text_box

            small = min(1.0, self.fscale)         # smaller cards: the floors shrink with them
            size = max(spec.size * self.fscale, MIN_CARD_PT * small)
            floor = min(size, max(spec.min_size * small, MIN_CARD_PT * small))
            wrap = spec.wrap
            if not wrap and fonts.fit_text(fonts.printable(text, font), w - 2 * pad, h, font, size, floor,
                                           wrap=False).overflow:
                wrap = True    # a long name takes two lines rather than being cut
            draw_text_box(c, text, (x + pad, y, w - 2 * pad, h), font, size, floor, align=spec.align,
                          valign=spec.valign, wrap=wrap,
                          what=f"card '{face.name}', field '{spec.field or 'text'}'", warn=warn)
        c.restoreState()

    def draw_number(self, trim: Rect, rotated: bool, deck: str, number: str) -> None:
        """The deck's name and the card's number in the deck ("12/50") in small print along
        the card's bottom edge, inside the frame."""
        c = self.c
        cw, _ = self.opts.card
        small = min(1.0, self.fscale)
        size = MIN_CARD_PT * small
        inset = 2.0 * self.fscale + 0.9
        self._enter(trim, rotated, False)
        c.setFillColorRGB(0.35, 0.35, 0.35)
        num_w = fonts.string_width(number, fonts.CONDENSED, size)
        c.setFont(fonts.CONDENSED, size)
        c.drawRightString(pt(cw - inset - 1.0), pt(inset), number)
        room = pt(cw - 2 * inset - 2.0) - num_w - pt(2)
        label = fonts.fit_text(fonts.printable(deck, fonts.CONDENSED), room, size * 1.3, fonts.CONDENSED, size,
                               size, wrap=False)
        if label.lines:
            c.drawString(pt(inset + 1.0), pt(inset), label.lines[0])
        c.restoreState()

    def _grown_boxes(self, face: CardFace, layout: LayoutSpec) -> dict[int, Box]:
        """Boxes of fields that may use the empty art box (the card has no art): the field
        with the most text among those that do not fit at their own size gets the art box
        joined to its own box when nothing lies between them, or else the art box alone
        when that is larger. {field index: template box}."""
        ax, ay, aw, ah = layout.art
        best = None
        for idx, spec in enumerate(layout.fields):
            if not spec.wrap or spec.fill or spec.bold:     # rules text, not a labelled value
                continue
            text = field_text(spec, face.entry, self.catalog)
            if not text:
                continue
            x, y, w, h = self.box_pt(spec.box)
            font = fonts.font_name(spec.bold, spec.condensed)
            size = spec.size * self.fscale
            if not fonts.fit_text(fonts.printable(text, font), w, h, font, size, size).overflow:
                continue
            if best is None or len(text) > best[1]:
                best = (idx, len(text))
        if best is None:
            return {}
        idx = best[0]
        fx, fy, fw, fh = layout.fields[idx].box
        if fy >= ay + ah - 0.5 and fx < ax + aw and ax < fx + fw:   # below the art box
            x0, x1 = max(ax, fx), min(ax + aw, fx + fw)
            between = (x0, ay + ah, x1 - x0, fy - (ay + ah))
            others = [f.box for i, f in enumerate(layout.fields) if i != idx
                      and field_text(f, face.entry, self.catalog)] + list(layout.frame.bands)
            if not any(_overlap(between, o) for o in others):
                return {idx: (x0, ay, x1 - x0, fy + fh - ay)}
        if aw * ah > fw * fh:
            return {idx: (ax, ay, aw, ah)}
        return {}

    def draw_back(self, key: str, trim: Rect, rotated: bool, turn180: bool, clip: Rect | None = None) -> None:
        self._enter(trim, rotated, turn180, clip)
        self.c.doForm(self.back_form(key))
        self.c.restoreState()
