"""Where each box of a card face goes at the printed size, after the rules text has taken
the room it needs.

A layout's rules text (the field marked ``flow: true``) first takes the boxes directly
above it that print nothing on this card (an empty ability line); when that is not
enough at its own type size, the art box yields: it gets shorter from the bottom and
everything between the art and the rules text moves up with it, keeping at least
``art_min`` mm of art (all of the box when no card of the layout has art). The shift is
the largest any card of the layout needs, so every card of a deck keeps each kind of
text in one place. Only then does the rules text shrink.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.kit import fonts
from builder.kit.layout import pt, scale_box
from builder.render.cards.template import Box, CardFace, CardTemplate, LayoutSpec, field_text

LEADING = 1.18  # as pdfbase.draw_text_box


@dataclass(frozen=True)
class FaceGeometry:
    """The boxes of a layout (template mm from the top-left, reference size) after the shift."""

    art: Box | None
    fields: tuple[Box, ...]
    bands: tuple[Box, ...]
    rules: tuple[Box, ...]
    shift: float = 0.0
    grown: dict = field(default_factory=dict)  # field index -> box taken over empty boxes above


def _flow_index(layout: LayoutSpec) -> int | None:
    return next((i for i, f in enumerate(layout.fields) if f.flow), None)


def _free_above(layout: LayoutSpec, idx: int, texts: list) -> Box:
    """The flow field's box joined with the boxes directly above it that print nothing."""
    x, y, w, h = layout.fields[idx].box
    top = y
    while True:
        above = [
            f.box
            for i, f in enumerate(layout.fields)
            if i != idx
            and not texts[i]
            and abs(f.box[1] + f.box[3] - top) <= 2.5
            and f.box[0] <= x + 0.5
            and f.box[0] + f.box[2] >= x + w - 0.5
        ]
        if not above:
            break
        top = min(b[1] for b in above)
    return (x, top, w, y + h - top)


def needed_height(text: str, spec, tpl: CardTemplate, card: tuple[float, float]) -> float:
    """mm the text needs at its own size in the width of its box at the printed card size."""
    font = fonts.font_name(spec.bold, spec.condensed)
    fscale = min(card[0] / tpl.size[0], card[1] / tpl.size[1])
    small = min(1.0, fscale)
    size = max(spec.size * fscale, 6.0 * small)
    _, _, w, _ = scale_box(spec.box, tpl.size, card)
    lines = fonts.wrap_lines(fonts.printable(text, font), font, size, pt(w))
    sy = card[1] / tpl.size[1]
    return len(lines) * size * LEADING / pt(1) / sy  # back in template mm


def layout_shift(tpl: CardTemplate, layout_name: str, faces: list[CardFace], card, catalog=None) -> float:
    """How far (template mm) the art of ``layout_name`` yields so that the longest rules text
    of ``faces`` fits at its own size."""
    layout = tpl.layouts[layout_name]
    idx = _flow_index(layout)
    if idx is None or layout.art is None:
        return 0.0
    spec = layout.fields[idx]
    need = 0.0
    any_art = False
    for f in faces:
        if f.layout != layout_name:
            continue
        any_art = any_art or f.art is not None
        texts = [field_text(s, f.entry, catalog) for s in layout.fields]
        text = texts[idx]
        if not text:
            continue
        room = _free_above(layout, idx, texts)[3]
        need = max(need, needed_height(text, spec, tpl, card) - room)
    most = layout.art[3] - (layout.art_min if any_art else 0.0)
    return round(max(0.0, min(need, most)), 3)


def plan_faces(faces: list[CardFace], tpl: CardTemplate, card, catalog=None) -> None:
    """Set ``face.shift`` of every face: the shift of its layout in this deck."""
    shifts = {name: layout_shift(tpl, name, faces, card, catalog) for name in {f.layout for f in faces}}
    for f in faces:
        f.shift = shifts.get(f.layout, 0.0)


def geometry(tpl: CardTemplate, layout_name: str, shift: float, texts: list | None = None) -> FaceGeometry:
    """The boxes of a layout with its art shortened by ``shift`` mm and what lies between the art
    and the rules text moved up as much; with ``texts`` (what each field prints on a card),
    the rules text's box also takes the empty boxes above it."""
    layout = tpl.layouts[layout_name]
    idx = _flow_index(layout)
    boxes = [f.box for f in layout.fields]
    bands, rules = list(layout.frame.bands), list(layout.frame.rules)
    art = layout.art
    grown = {}
    if idx is not None and art is not None and shift > 0:
        ax, ay, aw, ah = art
        low, high = ay + ah - 0.5, layout.fields[idx].box[1]

        def up(b: Box) -> Box:
            return (b[0], b[1] - shift, b[2], b[3]) if low <= b[1] < high else b

        boxes = [up(b) for b in boxes]
        bands = [up(b) for b in bands]
        rules = [up(b) for b in rules]
        x, y, w, h = layout.fields[idx].box
        boxes[idx] = (x, y - shift, w, h + shift)
        art = (ax, ay, aw, ah - shift)
    if idx is not None and texts is not None:
        moved = LayoutSpec(
            frame=layout.frame,
            art=art,
            fields=[f.model_copy(update={"box": b}) for f, b in zip(layout.fields, boxes, strict=False)],
        )
        big = _free_above(moved, idx, texts)
        if big != boxes[idx]:
            grown[idx] = big
            boxes[idx] = big
    return FaceGeometry(art, tuple(boxes), tuple(bands), tuple(rules), shift, grown)
