"""Where art is cropped when it fills its box (``focus:`` in a pack). Pure, no imports of
reportlab or Pillow: the catalog validates ``focus`` values with it."""

from __future__ import annotations

import re

_WORDS = {
    "top": (None, 0.0),
    "bottom": (None, 1.0),
    "left": (0.0, None),
    "right": (1.0, None),
    "center": (None, None),
    "centre": (None, None),
    "middle": (None, None),
}


def parse_focus(value) -> tuple[float, float]:
    """``focus`` -> (fx, fy): the point of the image (fractions from its top-left corner)
    kept in view when the image is cropped to fill its box.

    Words: ``center``, ``top``, ``bottom``, ``left``, ``right`` and pairs such as ``top left``;
    or two fractions ``X,Y`` (``0.5,0.2``: centred, near the top); or percentages ``50%,20%``.
    Raises ValueError with what is accepted.
    """
    if value is None:
        return (0.5, 0.5)
    text = str(value).strip().lower()
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(%?)\s*[, ]\s*(\d+(?:\.\d+)?)(%?)", text)
    if m:
        x = float(m.group(1)) / (100 if m.group(2) else 1)
        y = float(m.group(3)) / (100 if m.group(4) else 1)
        if 0 <= x <= 1 and 0 <= y <= 1:
            return (x, y)
    else:
        words = text.replace("-", " ").split()
        if words and len(words) <= 2 and all(w in _WORDS for w in words):
            fx = fy = 0.5
            for w in words:
                wx, wy = _WORDS[w]
                fx = wx if wx is not None else fx
                fy = wy if wy is not None else fy
            return (fx, fy)
    raise ValueError(
        f"focus '{value}' is not understood: use center, top, bottom, left, right "
        "(or 'top left'), or X,Y fractions from the top-left such as 0.5,0.2"
    )


def cover_crop(
    img_w: int, img_h: int, box_w: float, box_h: float, focus: tuple[float, float] = (0.5, 0.5)
) -> tuple[int, int, int, int]:
    """The crop (left, top, right, bottom) in pixels of an image ``img_w`` x ``img_h`` that
    fills a box of aspect ``box_w`` : ``box_h`` completely, keeping the focus point as close
    to the crop's centre as the image allows."""
    target = box_w / box_h
    if img_w / img_h > target:  # too wide: cut the sides
        cw, ch = max(1, round(img_h * target)), img_h
    else:  # too tall: cut top and bottom
        cw, ch = img_w, max(1, round(img_w / target))
    fx, fy = focus
    left = min(max(0, round(fx * img_w - cw / 2)), img_w - cw)
    top = min(max(0, round(fy * img_h - ch / 2)), img_h - ch)
    return left, top, left + cw, top + ch
