"""The finding codes of a system: what each means, how severe it can be, where the rulebook says so.

Each rules module declares the codes its Python checks emit with ``codes(prefix, table)``;
codes of the catalog's declarative restrictions are registered from the restrictions
themselves (``from_restrictions``). ``gs.catalog.finding_codes(catalog)`` joins both, and
the tests check that every registered code is emitted by some test list and that every
emitted code is registered.
"""

from __future__ import annotations

from dataclasses import dataclass

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class FindingCode:
    """One finding code. ``severity`` is the most severe it is given (a rule that cannot be
    told for want of data says so with a milder one); ``source`` the rulebook lines (FILE:LINES)."""

    code: str
    severity: str
    meaning: str
    source: str = ""

    def __post_init__(self):
        if self.severity not in SEVERITIES:
            raise ValueError(f"bad severity {self.severity!r} for {self.code}")

    def allows(self, severity: str) -> bool:
        """Whether a finding of this code may have ``severity`` (no more severe than registered)."""
        return SEVERITIES.index(severity) >= SEVERITIES.index(self.severity)

    def section(self) -> str:
        """Where the rulebook says so, as a player reads it (rulebook title, section, line)."""
        if not self.source:
            return ""
        from builder.rulebooks import format_source

        return format_source(self.source)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "meaning": self.meaning,
            "source": self.source or None,
            "section": self.section() or None,
        }


def codes(prefix: str, table: dict) -> dict[str, FindingCode]:
    """``{prefix.name: FindingCode}`` from ``{name: (severity, meaning, source)}`` (source optional)."""
    out = {}
    for name, spec in table.items():
        severity, meaning, *rest = spec
        code = f"{prefix}.{name}"
        out[code] = FindingCode(code, severity, meaning, rest[0] if rest else "")
    return out


def from_restrictions(prefix: str, restrictions) -> dict[str, FindingCode]:
    """The codes of a catalog's declarative restrictions (the first of each code names it), and
    the engine's warning for a profile field a restriction needs but the catalog lacks."""
    out: dict[str, FindingCode] = {}
    for r in restrictions or ():
        code = f"{prefix}.{r.code}"
        old = out.get(code)
        if old is None:
            out[code] = FindingCode(code, r.severity, (r.name or r.label or r.code).strip(), r.source or "")
        elif SEVERITIES.index(r.severity) < SEVERITIES.index(old.severity):
            out[code] = FindingCode(code, r.severity, old.meaning, old.source)
    if out:
        code = f"{prefix}.profile-incomplete"
        out[code] = FindingCode(
            code,
            "error",
            "a profile lacks a field a restriction needs (named; give it "
            "in a pack): an error when it could change the verdict",
        )
    return out


def registry(table) -> dict[str, FindingCode]:
    """A rules module's ``FINDING_CODES`` as FindingCodes (a plain ``{code: meaning}`` is an error code)."""
    out = {}
    for code, spec in dict(table or {}).items():
        if isinstance(spec, FindingCode):
            out[code] = spec
        elif isinstance(spec, str):
            out[code] = FindingCode(code, "error", spec)
        else:
            severity, meaning, *rest = spec
            out[code] = FindingCode(code, severity, meaning, rest[0] if rest else "")
    return out
