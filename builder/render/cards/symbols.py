"""Vector symbols for card values (Senshiai paths, Satsuma suits): drawn as paths, so they
print sharp at any size and read without colour (each value has its own shape)."""

from __future__ import annotations

import math

SHAPES = (
    "circle",
    "triangle",
    "square",
    "diamond",
    "drop",
    "star",
    "shield",
    "cross",
    "ring",
    "hexagon",
    "arrow",
    "wave",
)


def _poly(c, pts, fill: bool, stroke: bool) -> None:
    p = c.beginPath()
    p.moveTo(*pts[0])
    for q in pts[1:]:
        p.lineTo(*q)
    p.close()
    c.drawPath(p, stroke=int(stroke), fill=int(fill))


def draw_symbol(c, shape: str, cx: float, cy: float, size: float, fill: bool = True) -> None:
    """``shape`` centred on (cx, cy), ``size`` points across, in the current fill and stroke
    colours; ``fill=False`` draws its outline only (ink saver, pale emblems)."""
    r = size / 2
    stroke = not fill
    if shape == "circle":
        c.circle(cx, cy, r * 0.92, stroke=int(stroke), fill=int(fill))
    elif shape == "ring":
        c.saveState()
        c.setLineWidth(max(0.4, size * 0.16))
        c.circle(cx, cy, r * 0.78, stroke=1, fill=0)
        c.restoreState()
    elif shape == "triangle":
        _poly(c, [(cx, cy + r), (cx + r * 0.95, cy - r * 0.8), (cx - r * 0.95, cy - r * 0.8)], fill, stroke)
    elif shape == "square":
        s = r * 0.82
        _poly(c, [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)], fill, stroke)
    elif shape == "diamond":
        _poly(c, [(cx, cy + r), (cx + r * 0.8, cy), (cx, cy - r), (cx - r * 0.8, cy)], fill, stroke)
    elif shape == "hexagon":
        _poly(
            c, [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in (math.pi / 3 * k for k in range(6))], fill, stroke
        )
    elif shape == "star":
        pts = []
        for k in range(10):
            a = math.pi / 2 + k * math.pi / 5
            rr = r if k % 2 == 0 else r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a) - r * 0.08))
        _poly(c, pts, fill, stroke)
    elif shape == "shield":
        p = c.beginPath()
        p.moveTo(cx - r * 0.8, cy + r * 0.85)
        p.lineTo(cx + r * 0.8, cy + r * 0.85)
        p.curveTo(cx + r * 0.8, cy - r * 0.2, cx + r * 0.4, cy - r * 0.7, cx, cy - r)
        p.curveTo(cx - r * 0.4, cy - r * 0.7, cx - r * 0.8, cy - r * 0.2, cx - r * 0.8, cy + r * 0.85)
        p.close()
        c.drawPath(p, stroke=int(stroke), fill=int(fill))
    elif shape == "cross":
        t = r * 0.32
        _poly(
            c,
            [
                (cx - t, cy + r),
                (cx + t, cy + r),
                (cx + t, cy + t),
                (cx + r, cy + t),
                (cx + r, cy - t),
                (cx + t, cy - t),
                (cx + t, cy - r),
                (cx - t, cy - r),
                (cx - t, cy - t),
                (cx - r, cy - t),
                (cx - r, cy + t),
                (cx - t, cy + t),
            ],
            fill,
            stroke,
        )
    elif shape == "arrow":
        t = r * 0.3
        _poly(
            c,
            [
                (cx - r, cy + t),
                (cx + r * 0.1, cy + t),
                (cx + r * 0.1, cy + r * 0.8),
                (cx + r, cy),
                (cx + r * 0.1, cy - r * 0.8),
                (cx + r * 0.1, cy - t),
                (cx - r, cy - t),
            ],
            fill,
            stroke,
        )
    elif shape == "drop":
        p = c.beginPath()
        p.moveTo(cx, cy + r)
        p.curveTo(cx + r * 0.2, cy + r * 0.5, cx + r * 0.8, cy + r * 0.05, cx + r * 0.8, cy - r * 0.3)
        p.curveTo(cx + r * 0.8, cy - r * 0.8, cx + r * 0.35, cy - r, cx, cy - r)
        p.curveTo(cx - r * 0.35, cy - r, cx - r * 0.8, cy - r * 0.8, cx - r * 0.8, cy - r * 0.3)
        p.curveTo(cx - r * 0.8, cy + r * 0.05, cx - r * 0.2, cy + r * 0.5, cx, cy + r)
        p.close()
        c.drawPath(p, stroke=int(stroke), fill=int(fill))
    elif shape == "wave":
        c.saveState()
        c.setLineWidth(max(0.4, size * 0.14))
        c.setLineCap(1)
        for dy in (r * 0.45, -r * 0.15):
            p = c.beginPath()
            p.moveTo(cx - r, cy + dy)
            p.curveTo(cx - r * 0.5, cy + dy + r * 0.45, cx - r * 0.1, cy + dy - r * 0.45, cx + r * 0.3, cy + dy)
            p.curveTo(cx + r * 0.55, cy + dy + r * 0.3, cx + r * 0.8, cy + dy + r * 0.2, cx + r, cy + dy)
            c.drawPath(p, stroke=1, fill=0)
        c.restoreState()
    else:
        raise ValueError(f"unknown symbol shape '{shape}'")
