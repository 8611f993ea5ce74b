"""One row of a list's limits: what the list holds against what a rule allows.

Each rules module's ``limits(lst, catalog, rules)`` returns these rows, measured as its
``check`` measures them; ``daimyo stats`` shows them with the room left.
"""

from __future__ import annotations


def limit(label: str, kind: str, value, bound, unit: str, source: str | None = None, group=None) -> dict:
    """``kind``: max (value <= bound) or min (value >= bound); ``room`` is what is left to spare."""
    room = (bound - value) if kind == "max" else (value - bound)
    ok = value <= bound if kind == "max" else value >= bound
    return {
        "label": label,
        "kind": kind,
        "group": group,
        "value": value,
        "bound": bound,
        "room": room,
        "ok": ok,
        "unit": unit,
        "source": source,
    }
