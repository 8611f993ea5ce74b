"""YAML reading with a line and column for every value.

``parse_yaml`` composes the node graph (fast, no round-trip objects) and turns it
into plain Python data plus a ``Positions`` map from value paths (tuples of keys
and indexes) to 1-based line and column. Errors become diagnostics, never
tracebacks. Comment-preserving edits use ``builder.lists.edit`` instead.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from builder.errors import DaimyoError, Diagnostic

Path_ = tuple  # a value path: ("troops", 3, "models")


class Positions:
    """Where each value of a document was written."""

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

    def diag(self, path: tuple, message: str, code: str | None = None, hint: str | None = None,
             severity: str = "error", prefer_key: bool = False) -> Diagnostic:
        line, col = self.at(path, prefer_key)
        return Diagnostic(self.file, line, col, message, code=code, severity=severity, hint=hint)

    def shifted(self, prefix: tuple, other: "Positions", other_prefix: tuple = ()) -> None:
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


def _yaml():
    from ruamel.yaml import YAML

    y = YAML(typ="safe", pure=False)  # the C parser (ruamel.yaml.clib) when installed
    return y


def _mark_diag(file: str, exc, code: str | None) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    msg = f"YAML syntax: {problem}" + (f" ({context})" if context else "")
    return Diagnostic(file, line, col, msg, code=code,
                      hint="check indentation, colons and quotes on this line or the one before")


def _unmarked_diag(file: str, text: str, exc, code: str | None) -> Diagnostic:
    """One line for an error without a mark: the reader's position (a character index) becomes
    a line and column; the message is its first line."""
    position = getattr(exc, "position", None)
    reason = getattr(exc, "reason", None)
    char = getattr(exc, "character", None)
    if isinstance(char, str) and len(char) == 1:
        char = ord(char)
    if isinstance(char, int) and 0 <= char <= 0x10FFFF and chr(char) in text:
        position = text.index(chr(char))  # the reader stops at the first one (the C reader counts bytes)
    line, col = 1, 1
    if isinstance(position, int) and 0 <= position <= len(text):
        before = text[:position]
        line = before.count("\n") + 1
        col = position - (before.rfind("\n") + 1) + 1
    if reason and isinstance(char, int):
        msg = f"YAML: unacceptable character #x{char:04x}: {reason}"
        hint = "remove the character or save the file as plain text"
    else:
        msg = "YAML: " + (str(exc).strip().splitlines() or ["unreadable document"])[0]
        hint = None
    return Diagnostic(file, line, col, msg, code=code, hint=hint)


MAX_DEPTH = 1000  # levels of brackets, of indentation, of "- - -": far beyond any list or catalog


def too_deep(text: str) -> bool:
    """Whether ``text`` may nest deeper than MAX_DEPTH (the C composer would overflow its stack
    on a few ten thousand levels). Cheap: the bracket scan runs only when there are that many."""
    import re

    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth = 0
        for m in re.finditer(r"[\[\]{}]", text):
            depth = depth + 1 if m.group() in "[{" else max(0, depth - 1)
            if depth > MAX_DEPTH:
                return True
    return bool(re.search(r"^[ \t]{%d}" % MAX_DEPTH, text, re.M)
                or re.search(r"(?:[-?][ \t]+){%d}" % MAX_DEPTH, text))


def too_deep_diag(file: str, code: str | None = None) -> Diagnostic:
    return Diagnostic(file, 1, 1, f"values nested more than {MAX_DEPTH} levels deep", code=code,
                      hint="a list or catalog needs a few levels")


class _Budget:
    """How many values building may still make: aliases (``*a``) that expand to far more values
    than the document has characters (an alias bomb) are refused instead of filling memory."""

    def __init__(self, text: str):
        self.left = 2 * len(text) + 1000


def parse_yaml(text: str, file: str = "<string>", code: str | None = None) -> tuple[Any, Positions]:
    """Parse one YAML document into plain data and positions; raise DaimyoError on syntax errors."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    y = _yaml()
    pos = Positions(file)
    if too_deep(text):
        raise DaimyoError(too_deep_diag(file, code))
    try:
        node = y.compose(text)
    except MarkedYAMLError as exc:
        raise DaimyoError(_mark_diag(file, exc, code)) from None
    except YAMLError as exc:  # a control character (reader error) or another unmarked error
        raise DaimyoError(_unmarked_diag(file, text, exc, code)) from None
    if node is None:
        return None, pos
    constructor = y.constructor
    try:
        data = _build(node, (), pos, constructor, file, code, _Budget(text))
    except DaimyoError:
        raise
    except RecursionError:
        raise DaimyoError(Diagnostic(file, 1, 1, "values nested too deeply", code=code,
                                     hint="a list or catalog needs a few levels")) from None
    except Exception as exc:  # constructor errors (bad timestamps, ...)
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise DaimyoError(Diagnostic(file, line, col, f"YAML value: {exc}".splitlines()[0], code=code)) from None
    return data, pos


def _build(node, path: tuple, pos: Positions, constructor, file: str, code: str | None, budget: _Budget):
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    budget.left -= 1
    if budget.left < 0:
        raise DaimyoError(Diagnostic(file, node.start_mark.line + 1, node.start_mark.column + 1,
                                     "aliases expand to far more values than the document holds", code=code,
                                     hint="write the values out instead of repeating *aliases"))
    pos.value[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, ScalarNode):
        value = constructor.construct_object(node, deep=True)
        return value
    if isinstance(node, SequenceNode):
        return [_build(child, path + (i,), pos, constructor, file, code, budget)
                for i, child in enumerate(node.value)]
    if isinstance(node, MappingNode):
        out: dict = {}
        for knode, vnode in node.value:
            if knode.tag == "tag:yaml.org,2002:merge":
                raise DaimyoError(Diagnostic(file, knode.start_mark.line + 1, knode.start_mark.column + 1,
                                             "merge keys (<<) are not supported", code=code))
            if not isinstance(knode, ScalarNode):
                raise DaimyoError(Diagnostic(file, knode.start_mark.line + 1, knode.start_mark.column + 1,
                                             "a mapping key must be a plain value", code=code))
            key = constructor.construct_object(knode, deep=True)
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                key = str(key)
            if key in out:
                raise DaimyoError(Diagnostic(file, knode.start_mark.line + 1, knode.start_mark.column + 1,
                                             f"duplicate key '{key}'", code=code,
                                             hint="each key may appear once in a mapping"))
            kp = path + (key,)
            pos.key[kp] = (knode.start_mark.line + 1, knode.start_mark.column + 1)
            out[key] = _build(vnode, kp, pos, constructor, file, code, budget)
        return out
    raise DaimyoError(Diagnostic(file, node.start_mark.line + 1, node.start_mark.column + 1,  # pragma: no cover
                                 "unsupported YAML node", code=code))


def read_text(path: str | os.PathLike, code: str | None = None, display: str | None = None) -> str:
    """Read a UTF-8 file; a missing or unreadable file is a diagnostic."""
    p = Path(path)
    name = display or str(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DaimyoError(Diagnostic(name, 0, 0, "file not found", code=code,
                                     hint="check the path")) from None
    except IsADirectoryError:
        raise DaimyoError(Diagnostic(name, 0, 0, "is a folder, not a file", code=code)) from None
    except UnicodeDecodeError as exc:
        before = exc.object[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise DaimyoError(Diagnostic(name, line, col, "not UTF-8 text", code=code,
                                     hint="save the file as UTF-8")) from None
    except OSError as exc:
        raise DaimyoError(Diagnostic(name, 0, 0, f"cannot read: {exc.strerror}", code=code)) from None


def load_yaml(path: str | os.PathLike, code: str | None = None) -> tuple[Any, Positions]:
    return parse_yaml(read_text(path, code), str(path), code)


def atomic_write(path: str | os.PathLike, data: bytes | str, force: bool = True) -> None:
    """Write a file atomically (temp file in the same folder, then rename).

    With ``force=False`` an existing file is refused (UsageError-style DaimyoError).
    """
    p = Path(path)
    try:
        found, folder, regular = p.exists(), p.is_dir(), p.is_file()
    except (OSError, ValueError):  # a name the system cannot look up: the writing below says why
        found = folder = regular = False
    if folder:
        raise DaimyoError(Diagnostic(str(p), 0, 0, "is a folder, not a file", hint="give a file name"))
    if found and not regular:  # a device or a pipe would be replaced by the rename, not written to
        raise DaimyoError(Diagnostic(str(p), 0, 0, "is not a regular file; not replaced",
                                     hint="give the name of a file"))
    if not force and found:
        raise DaimyoError(Diagnostic(str(p), 0, 0, "file exists; not overwritten",
                                     hint="pass --force to replace it"))
    if isinstance(data, str):
        data = data.encode("utf-8")
    parent = p.parent if str(p.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=parent)
    except (OSError, ValueError) as exc:  # the folder is a file or not writable, the name too long, ...
        if isinstance(exc, (FileExistsError, NotADirectoryError)):
            reason = "a part of the folder path is a file"
        else:
            reason = getattr(exc, "strerror", None) or str(exc)
        raise DaimyoError(Diagnostic(str(p), 0, 0, f"cannot write: {reason}",
                                     hint="check the folder of the output file")) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if found:
            try:
                os.chmod(tmp, p.stat().st_mode & 0o777)
            except OSError:
                pass
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):  # a full disk, a quota, a name the rename refuses
            raise DaimyoError(Diagnostic(str(p), 0, 0, f"cannot write: {exc.strerror or exc}")) from None
        raise
