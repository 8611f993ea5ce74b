"""The plain data the card modules share: the sheet's options and a prepared image (kept
here, below ``art``, ``faces``, ``geometry`` and ``sheet``, so that none of them imports another
only for a type)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class SheetOptions:
    paper: tuple[float, float] = (210.0, 297.0)
    card: tuple[float, float] = (63.5, 88.9)
    bleed: float = 0.0
    marks: bool = True
    backs: bool = True
    duplex: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False
    layout: str = "duplex"  # duplex | fold | separate
    gutter: float | None = None  # mm between neighbouring trims (None: each card its own bleed)
    cut_lines: bool = False  # full-length cut lines across the sheet besides the marks
    scale: tuple[float, float] = (1.0, 1.0)  # printer scale correction (x, y)
    safe: float = 0.0  # mm: the frame no closer to the trim (a print service's safe zone)
    cut_machine: str | None = None  # silhouette | cricut: print-and-cut sheets (builder.render.cutmachine)


@dataclass
class PreparedImage:
    key: str
    source: Any  # JPEG bytes (embedded as they are) or an ImageReader (PNG with alpha)
    width_px: int
    height_px: int
    mask: Any = None
    dpi: float = 300.0  # the resolution the source prints at in its box

    @property
    def is_jpeg(self) -> bool:
        return isinstance(self.source, (bytes, bytearray))
