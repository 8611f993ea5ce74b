"""What a list still needs, as counters: a new list reads "leaders 0/1", "Capital 0/1",
"action cards 0/20" instead of a wall of red boxes.

An error whose counted value is short of its bound (too few leaders, cards, provinces) becomes
a counter; every other finding stays as it is. A printing note the player cannot act on (the
published Satsuma deck's Bodyguard, printed with a suit that is none of the eight) is shown as
information, and the header reads the list as clean when nothing else is found.
"""

from __future__ import annotations

import re

from builder.i18n import N_, _
from builder.systems import get

# the name of what a shortfall counts, by finding code (else the code's last part)
LABELS = {
    "senji.samurai-card": N_("samurai card"),
    "senji.samurai-placement": N_("samurai placed"),
    "senji.starting-provinces": N_("provinces"),
    "senji.starting-units": N_("units"),
    "kensei.general-missing": N_("general"),
    "kensei.leaders-min": N_("leaders"),
    "kensei.units-min": N_("units"),
    "kensei.melee-min": N_("melee AP"),
    "senshiai.capital-count": N_("Capital"),
    "herocard.deck-min": N_("action cards"),
}
# warnings about what the published deck prints, that no change of the list can answer
PRINTING_NOTES = {"satsuma.unknown-suit"}


def _number(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def label(code: str) -> str:
    if code in LABELS:
        return _(LABELS[code])
    last = code.rsplit(".", 1)[-1]
    return re.sub(r"-(min|count|size)$", "", last).replace("-", " ")


def shortfall(f: dict) -> bool:
    v, b = _number(f.get("value")), _number(f.get("bound"))
    return f.get("severity") == "error" and v is not None and b is not None and v < b


def counter(f: dict) -> dict:
    return {
        "label": label(f["code"]),
        "have": f["value"],
        "need": f["bound"],
        "code": f["code"],
        "message": f["message"],
        "source": f.get("source", ""),
    }


def split(findings: list[dict], published: bool) -> tuple[list[dict], list[dict]]:
    """(counters of what is still needed, the other findings)."""
    needs, rest = [], []
    for f in findings:
        if shortfall(f):
            needs.append(counter(f))
            continue
        if published and f["code"] in PRINTING_NOTES and f["severity"] == "warning":
            f = dict(f, severity="info", note=_("printing note"))
        rest.append(f)
    return needs, rest


def guide(view: dict) -> dict:
    """The view with shortfalls as counters (``needs`` of the list and of each entry) and the
    header's counts and verdict as the page shows them."""
    published = bool(view.get("standard_deck"))
    view["needs"], view["general_findings"] = split(view["general_findings"], published)
    total_needs = len(view["needs"])
    errors = warnings = 0
    for e in view["entries"]:
        e["needs"], e["findings"] = split(e["findings"], published)
        total_needs += len(e["needs"])
    for f in view["general_findings"] + [f for e in view["entries"] for f in e["findings"]]:
        errors += f["severity"] == "error"
        warnings += f["severity"] == "warning"
    h = dict(view["header"])
    h["needs"] = total_needs
    h["counts"] = dict(h["counts"], error=errors + total_needs, warning=warnings)
    h["verdict"] = "illegal" if errors + total_needs else ("warnings" if warnings else "legal")
    view["header"] = h
    return view


def counts_shown(res, doc) -> tuple[int, int]:
    """(errors, warnings) of a checked list as the pages count them (printing notes of a
    published deck are information)."""

    published = get(doc.system).editing.published(doc.data)
    c = res.counts()
    notes = sum(1 for f in res.findings if published and f.code in PRINTING_NOTES and f.severity == "warning")
    return c["error"], c["warning"] - notes
