"""The common part of every list document (FORMATS.md section 1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder import SYSTEMS
from builder.errors import Diagnostic, ListError
from builder.names import did_you_mean
from builder.yamlio import Positions, parse_yaml, read_text

COMMON_KEYS = ("system", "name", "author", "notes", "packs", "house_rules")


@dataclass
class ListDoc:
    """A parsed list document: plain data, where each value was written, common keys."""

    file: str
    data: dict
    positions: Positions
    system: str
    name: str | None = None
    author: str | None = None
    notes: str | None = None
    packs: list[str] = field(default_factory=list)  # resolved paths
    house_rules: dict = field(default_factory=dict)
    base_dir: Path = field(default_factory=Path)

    def diag(self, path: tuple, message: str, hint: str | None = None) -> Diagnostic:
        return self.positions.diag(path, message, hint=hint)

    def fail(self, path: tuple, message: str, hint: str | None = None):
        raise ListError(self.diag(path, message, hint))

    def at(self, path: tuple) -> tuple[int, int]:
        return self.positions.at(path)

    def body(self) -> dict:
        """The system-specific keys."""
        return {k: v for k, v in self.data.items() if k not in COMMON_KEYS}


def load_list(path: str | Path, display: str | None = None) -> ListDoc:
    name = display or str(path)
    text = read_text(path, display=name)
    return parse_list(text, name, base_dir=Path(path).parent)


def parse_list(text: str, file: str = "<list>", base_dir: Path | None = None) -> ListDoc:
    from builder.errors import DaimyoError

    try:
        data, pos = parse_yaml(text, file)
    except DaimyoError as exc:
        raise ListError(exc.diagnostics) from None
    if data is None:
        raise ListError(Diagnostic(file, 1, 1, "empty document; a list needs at least 'system:'",
                                   hint="start with 'system: kensei' (or senshiai, herocard, senji, satsuma)"))
    if not isinstance(data, dict):
        raise ListError(pos.diag((), "a list document must be a mapping of keys such as 'system:'"))
    diags = []
    system = data.get("system")
    if "system" not in data:
        diags.append(pos.diag((), "missing required key 'system'",
                              hint="one of " + ", ".join(SYSTEMS)))
    elif not isinstance(system, str) or system.strip().lower() not in SYSTEMS:
        hint = did_you_mean(str(system), SYSTEMS) or ("one of " + ", ".join(SYSTEMS))
        diags.append(pos.diag(("system",), f"unknown system '{system}'", hint=hint))
    else:
        system = system.strip().lower()
    for key in ("name", "author", "notes"):
        if key in data and data[key] is not None and not isinstance(data[key], (str, int, float)):
            diags.append(pos.diag((key,), f"'{key}' must be text"))
    packs = data.get("packs") or []
    if isinstance(packs, str):
        packs = [packs]
    if not isinstance(packs, list) or not all(isinstance(p, str) for p in packs):
        diags.append(pos.diag(("packs",), "'packs' must be a list of file paths"))
        packs = []
    base = base_dir if base_dir is not None else Path(".")
    resolved = []
    for i, p in enumerate(packs):
        pp = Path(p)
        if not pp.is_absolute():
            pp = base / pp
        if not pp.is_file():
            diags.append(pos.diag(("packs", i), f"pack file '{p}' not found",
                                  hint=f"paths are relative to the list's folder ({base})"))
        resolved.append(str(pp))
    hr = data.get("house_rules") or {}
    if not isinstance(hr, dict):
        diags.append(pos.diag(("house_rules",), "'house_rules' must be a mapping of rule ids to values",
                              hint="e.g. house_rules: {cavalry_max_percent: 50}"))
        hr = {}
    if diags:
        raise ListError(diags)

    def text_or_none(k):
        v = data.get(k)
        return None if v is None else str(v)

    return ListDoc(file=file, data=data, positions=pos, system=system, name=text_or_none("name"),
                   author=text_or_none("author"), notes=text_or_none("notes"), packs=resolved,
                   house_rules=hr, base_dir=base)
