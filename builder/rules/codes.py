"""The finding codes of a system: what each means, how severe it can be, where the rulebook says
so. They are defined in ``builder.findings`` (the registry of games reports them without the
rules engine); the names are kept here for the games' rules modules."""

from __future__ import annotations

from builder.findings import SEVERITIES, FindingCode, codes, from_restrictions, registry

__all__ = ["SEVERITIES", "FindingCode", "codes", "from_restrictions", "registry"]
