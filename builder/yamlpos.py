"""Where each value of a YAML document was written (``Positions``), and the checks and
diagnostics of a YAML text that need no YAML library: its nesting depth, a tab in its
indentation, too many entries. ``builder.yamlio`` and its parser (``builder.yamlparse``) both
use them."""

from __future__ import annotations

import re

from builder import limits
from builder.errors import Diagnostic
from builder.i18n import L_
from builder.limits import MAX_DEPTH, MAX_PACK_VALUES

Path_ = tuple  # a value path: ("troops", 3, "models")


class Positions:
    """Where each value of a document was written."""

    # (sizes of value and key, their positions grouped by entry): set by ``FilePositions.add``
    _by_entry: tuple[tuple[int, int], tuple[dict, dict]]

    def __init__(self, file: str):
        self.file = file
        self.value: dict[tuple, tuple[int, int]] = {}
        self.key: dict[tuple, tuple[int, int]] = {}

    def at(self, path: tuple, prefer_key: bool = False) -> tuple[int, int]:
        """Line and column of ``path``, or of its nearest written ancestor."""
        path = tuple(path)
        while True:
            if prefer_key and path in self.key:
                return self.key[path]
            if path in self.value:
                return self.value[path]
            if path in self.key:
                return self.key[path]
            if not path:
                return (1, 1)
            path = path[:-1]

    def diag(
        self,
        path: tuple,
        message: str,
        code: str | None = None,
        hint: str | None = None,
        severity: str = "error",
        prefer_key: bool = False,
    ) -> Diagnostic:
        line, col = self.at(path, prefer_key)
        return Diagnostic(self.file, line, col, message, code=code, severity=severity, hint=hint)

    def shifted(self, prefix: tuple, other: Positions, other_prefix: tuple = ()) -> None:
        """Copy ``other``'s positions under ``other_prefix`` into this map under ``prefix``."""
        n = len(other_prefix)
        for src, dst in ((other.value, self.value), (other.key, self.key)):
            for p, lc in src.items():
                if p[:n] == other_prefix:
                    dst[prefix + p[n:]] = lc


class FilePositions(Positions):
    """Positions whose entries may come from several files (merged catalogs)."""

    def __init__(self):
        super().__init__("")
        self.files: dict[tuple, str] = {}

    def add(self, prefix: tuple, pos: Positions, sub: tuple = ()) -> None:
        n = len(sub)
        if n >= 2:  # an entry or a field: look in its entry's positions only (a big pack has many)
            index = getattr(pos, "_by_entry", None)
            if index is None or index[0] != (len(pos.value), len(pos.key)):
                groups: tuple[dict, dict] = ({}, {})
                for g, src in zip(groups, (pos.value, pos.key), strict=False):
                    for p, lc in src.items():
                        g.setdefault(p[:2], []).append((p, lc))
                index = ((len(pos.value), len(pos.key)), groups)
                pos._by_entry = index
            for group, dst in zip(index[1], (self.value, self.key), strict=False):
                for p, lc in group.get(sub[:2], ()):
                    if p[:n] == sub:
                        dst[prefix + p[n:]] = lc
        else:
            for src, dst in ((pos.value, self.value), (pos.key, self.key)):
                for p, lc in src.items():
                    if p[:n] == sub:
                        dst[prefix + p[n:]] = lc
        self.files[prefix] = pos.file

    def file_of(self, path: tuple) -> str:
        path = tuple(path)
        while path:
            if path in self.files:
                return self.files[path]
            path = path[:-1]
        return self.files.get((), "")

    def diag(self, path, message, code=None, hint=None, severity="error", prefer_key=False):
        line, col = self.at(path, prefer_key)
        return Diagnostic(self.file_of(path), line, col, message, code=code, severity=severity, hint=hint)


def tab_diag(file: str, text: str, line: int, code: str | None) -> Diagnostic | None:
    """A tab in the indentation of ``line`` (or of the line before): YAML indents with spaces only."""
    lines = text.splitlines()
    for n in (line, line - 1):
        if 1 <= n <= len(lines):
            row = lines[n - 1]
            lead = row[: len(row) - len(row.lstrip(" \t"))]
            if "\t" in lead:
                return Diagnostic(
                    file,
                    n,
                    lead.index("\t") + 1,
                    L_("line {n} is indented with a tab; indent with spaces", n=n),
                    code=code,
                    hint=L_("YAML does not allow tabs for indentation"),
                )
    return None


_INDENTED = None


def nesting_depth_over(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether ``text`` nests deeper than ``limit`` levels, by brackets (flow style) or by
    indentation and ``- ``/``? `` markers (block style). Linear, and cheap for ordinary text:
    the line-by-line scan runs only when a line is indented or marked that deep."""
    if text.count("[") + text.count("{") > limit:
        depth = 0
        for m in re.finditer(r"[\[\]{}]", text):
            depth = depth + 1 if m.group() in "[{" else max(0, depth - 1)
            if depth > limit:
                return True
    third = max(1, limit // 3)  # a line deeper than that is indented or marked a third as far
    if not (re.search(rf"^[ \t]{{{third}}}", text, re.M) or re.search(rf"(?:[-?][ \t]+){{{third}}}", text)):
        return False
    # each line opens at most one level per "- " marker plus one (its mapping or scalar); the
    # lines still open are those of smaller indentation above it
    stack: list[tuple[int, int]] = []  # (indentation, depth up to and including that line)
    marker = re.compile(r"(?:[-?][ \t]+)*")
    for raw in text.split("\n"):
        content = raw.lstrip(" \t")
        if not content or content[0] == "#":
            continue
        indent = len(raw) - len(content)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        lead = marker.match(content)  # it matches every line (maybe empty)
        marks = lead.group() if lead else ""
        depth = (stack[-1][1] if stack else 0) + marks.count("-") + marks.count("?") + 1
        if depth > limit:
            return True
        stack.append((indent, depth))
    return False


def too_deep(text: str) -> bool:
    """Whether ``text`` may nest deeper than MAX_DEPTH (recursive readers would overflow)."""
    return nesting_depth_over(text, MAX_DEPTH)


def too_deep_diag(file: str, code: str | None = None) -> Diagnostic:
    return Diagnostic(
        file,
        1,
        1,
        L_("values nested more than {MAX_DEPTH} levels deep", MAX_DEPTH=MAX_DEPTH),
        code=code,
        hint=L_("a list or catalog needs a few levels"),
    )


def too_many_entries_diag(file: str, code: str | None = None) -> Diagnostic:
    return Diagnostic(
        file,
        1,
        1,
        L_(
            "more than {MAX_PACK_ENTRIES:,} entries or {MAX_PACK_VALUES:,} values (MAX_PACK_ENTRIES); not read",
            MAX_PACK_ENTRIES=limits.MAX_PACK_ENTRIES,
            MAX_PACK_VALUES=MAX_PACK_VALUES,
        ),
        code=code,
        hint=L_(
            "split it into packs of at most {MAX_PACK_ENTRIES:,} entries", MAX_PACK_ENTRIES=limits.MAX_PACK_ENTRIES
        ),
    )
