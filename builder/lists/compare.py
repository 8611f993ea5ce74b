"""What a change to a list does to its check: one comparison for every game system.

``compare(before, after, target)`` takes the check results of a list before and after a
change (an addition, a removal, a new setting) and says which rules the change breaks or
makes worse, which broken rules it fixes, which stay broken, and how the summary's numbers
move. ``daimyo why``, the editing commands and ``options`` all read the same answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from builder.findings import CheckResult, Finding
from builder.i18n import L_, Lj_
from builder.kit.edit import number
from builder.kit.numbers import number_text


@dataclass
class Broken:
    """A rule the change breaks (``before`` is None) or makes worse (``before``: as it was)."""

    finding: Finding
    before: Finding | None = None


@dataclass
class Comparison:
    """The check before and after a change, and what the change does.

    ``breaks``: errors the change causes or makes worse (each with the finding before, if the
    rule was already broken); ``still``: errors that stay without getting worse; ``fixes``: codes
    of rules broken before and kept after; ``adds``: the change of every number of the summary
    (``{"points": 25, "units": 1}``); ``ok`` is True when nothing breaks.
    """

    before: CheckResult
    after: CheckResult
    breaks: list[Broken] = field(default_factory=list)
    still: list[Finding] = field(default_factory=list)
    fixes: list[str] = field(default_factory=list)
    adds: dict = field(default_factory=dict)
    warns: list[Finding] = field(default_factory=list)  # warnings the change brings (or has at its place)
    # set by ``ListEditor.why`` only (a trial addition): what adding did, where it went, the list with it
    notes: list[str] = field(init=False, repr=False, compare=False)
    target: tuple | None = field(init=False, repr=False, compare=False)
    data: dict[str, Any] = field(init=False, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not self.breaks

    def to_json(self) -> dict:
        return {
            "ok": self.ok,
            "adds": self.adds,
            "fixes": list(self.fixes),
            "breaks": [
                dict(b.finding.to_json(), **({"before": b.before.to_json()} if b.before else {})) for b in self.breaks
            ],
            "still": [f.to_json() for f in self.still],
            "warns": [f.to_json() for f in self.warns],
            "legal_before": self.before.legal,
            "legal_after": self.after.legal,
        }


# "(over by N)" belongs to rules that count or add up (points, cards, units, models, copies),
# never to clan or occult rules nor to a card's cost against a score
_COUNTED = re.compile(r"-(max|min|size|count)$")
_NOT_COUNTED = re.compile(
    r"spiritual|onmyouji|komuso|shikigami|realm|clan|living|common|cost-exceeds|"
    r"kuroi-te|hattori|otokodate|sohei|kuge|buke"
)


def gap(f: Finding) -> str:
    """ " (over by N)" for a maximum, " (short by N)" for a minimum of a count or points rule,
    "" otherwise."""
    code = f.code or ""
    if not _COUNTED.search(code) or _NOT_COUNTED.search(code):
        return ""
    v, b = number(f.value), number(f.bound)
    if v is None or b is None or v == b:
        return ""
    n = number_text(abs(v - b))
    return Lj_("", (" ", L_("(over by {n})", n=n) if v > b else L_("(short by {n})", n=n)))


def is_not_worse(f: Finding, was: Finding) -> bool:
    """The same rule was broken before and the new value is no further from its bound."""
    v, b, w = number(f.value), number(f.bound), number(was.value)
    if v is None or b is None or w is None:
        return f.message == was.message
    if v < b:  # a minimum: only getting closer counts
        return v >= w
    return v <= w


def _within(loc: tuple | None, target: tuple | None) -> bool:
    return loc is not None and target is not None and tuple(loc[: len(target)]) == tuple(target)


def _place(loc: object) -> object:
    """A finding's place as a dictionary key (lists become tuples)."""
    if isinstance(loc, list):
        return tuple(_place(x) for x in loc)
    if isinstance(loc, tuple):
        return tuple(_place(x) for x in loc)
    try:
        hash(loc)
    except TypeError:
        return repr(loc)
    return loc


def compare(before: CheckResult, after: CheckResult, target: tuple | None = None) -> Comparison:
    """What the change from ``before`` to ``after`` does.

    ``target`` is where the change was written (``("troops", 5)``, ``("cards", "Warriors")``):
    an error there is the change's own, even when the same rule was broken before.
    """

    def key(f: Finding) -> tuple[Any, ...]:
        return (f.code, f.message)

    old = {key(f) for f in before.findings}
    old_errors = [f for f in before.findings if f.severity == "error"]
    # the first error before of each code, and of each code and place: looked up, not searched
    # (a list of thousands of errors would make this the square of their number)
    first_of_code: dict = {}
    first_at: dict = {}
    for g in old_errors:
        first_of_code.setdefault(g.code, g)
        first_at.setdefault((g.code, _place(g.loc)), g)
    out = Comparison(before, after)
    for f in after.findings:
        if f.severity != "error":
            continue
        same_place = first_at.get((f.code, _place(f.loc)))
        if _within(f.loc, target):
            out.breaks.append(Broken(f, same_place if same_place is not None and key(same_place) != key(f) else None))
            continue
        if key(f) in old:
            out.still.append(f)
            continue
        was = same_place or first_of_code.get(f.code)
        if was is not None and is_not_worse(f, was):
            out.still.append(f)
        else:
            out.breaks.append(Broken(f, was))
    old_warnings = {f.code for f in before.findings if f.severity == "warning"}
    out.warns = [
        f for f in after.findings if f.severity == "warning" and (_within(f.loc, target) or f.code not in old_warnings)
    ]
    out.breaks.sort(key=lambda b: not _within(b.finding.loc, target))  # the change's own place first
    out.fixes = sorted({f.code for f in old_errors} - {f.code for f in after.findings if f.severity == "error"})
    for k, v in after.summary.items():
        a, b = number(v), number(before.summary.get(k))
        if a is not None and b is not None and a != b:
            out.adds[k] = a - b
    return out


__all__ = ["Broken", "Comparison", "compare", "gap", "is_not_worse"]
