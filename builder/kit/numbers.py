"""Numbers as people write them, the one formatter every face and game uses."""

from __future__ import annotations

from fractions import Fraction


def number_text(v: object, short: bool = False) -> str:
    """A number as people write it: ``25``, not ``25.0``. With ``short``, a fraction in at most
    six significant digits (``0.3``, not ``0.30000000000000004``). Anything else as ``str`` writes
    it."""
    if isinstance(v, float):
        if v.is_integer():
            return str(int(v))
        if short:
            return f"{v:g}"
    return str(v)


def plural(n: object, word: str) -> str:
    """A count and its word, with an ``s`` unless the count is one: ``1 card``, ``3 cards``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def plain_value(v: object, digits: int = 2) -> object:
    """A number as JSON or a page holds it: an integer when it is whole (``25`` for ``25.0`` or
    ``Fraction(50, 2)``), otherwise a float rounded to ``digits`` places; any other value as it is."""
    t = type(v)
    if t is int or t is str or t is bool or v is None:  # most values: no check against Fraction's ABC
        return v
    if isinstance(v, Fraction):
        v = float(v)
    if isinstance(v, float):
        return int(v) if v.is_integer() else round(v, digits)
    return v


def number(v):
    """``v`` when it is a number (not a bool), else None."""
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
