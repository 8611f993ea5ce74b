"""YAML reading with a line and column for every value.

``parse_yaml`` composes the node graph (fast, no round-trip objects) and turns it
into plain Python data plus a ``Positions`` map from value paths (tuples of keys
and indexes) to 1-based line and column. Errors become diagnostics, never
tracebacks. Comment-preserving edits use ``builder.kit.edit`` instead.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

from builder import limits
from builder.errors import DaimyoError, Diagnostic, WouldOverwrite, option
from builder.i18n import L_
from builder.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_PACK_VALUES, long_integer_problem, number_problem

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX (Windows): no file locks; the content checks still guard
    fcntl = None  # type: ignore[assignment]

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


def _yaml():
    from ruamel.yaml import YAML  # noqa: PLC0415 - the YAML library only when YAML is parsed; `daimyo catalog list` reads the cache without it

    y = YAML(typ="safe", pure=False)  # the C parser (ruamel.yaml.clib) when installed
    return y


# The reader of ``parse_yaml`` (``builder.yamlload``, imported when first needed); False when the
# C parser is not installed (then ``_yaml`` is used as it is).
_LOADER: Any = None
_PLAIN_TAG: Any = None  # the tag of a value the resolver reads as text (one shared object)
# The safe constructor's function for each number, boolean, null or date the resolver finds, by
# the identity of its tag (kept here, so the identity is never another object's): called
# directly, as ``construct_object`` would (these values are immutable: its memo of the values
# already made changes nothing), with whether the value is an integer.
_CONSTRUCT: dict[int, tuple[Any, bool, Any]] = {}
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"


def _loader_class() -> Any:
    global _LOADER, _PLAIN_TAG
    if _LOADER is not None:
        return _LOADER

    from builder import yamlload  # noqa: PLC0415 - the YAML library only when YAML is parsed; `daimyo catalog list` reads the cache without it

    _PLAIN_TAG = yamlload.PLAIN_TAG
    _CONSTRUCT.update(yamlload.CONSTRUCT)
    _LOADER = yamlload.LOADER
    return _LOADER


def _tab_diag(file: str, text: str, line: int, code: str | None) -> Diagnostic | None:
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


def _mark_diag(file: str, exc, code: str | None, text: str | None = None) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    if text is not None and mark is not None:
        tab = _tab_diag(file, text, line, code)
        if tab is not None:
            return tab
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    msg = (
        L_("YAML syntax: {problem} ({context})", problem=problem, context=context)
        if context
        else L_("YAML syntax: {problem}", problem=problem)
    )
    return Diagnostic(
        file, line, col, msg, code=code, hint=L_("check indentation, colons and quotes on this line or the one before")
    )


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


class _Budget:
    """How many values building may still make: aliases (``*a``) that expand to far more values
    than the document has characters (an alias bomb) are refused instead of filling memory."""

    def __init__(self, text: str):
        self.left = 2 * len(text) + 1000


def entries_over(text: str, limit: int, values: int | None = None) -> bool:
    """Whether the YAML document ``text`` holds more than ``limit`` entries (values directly in
    the collections of its top-level mapping: a pack's cards, troops, ...) or, with ``values``,
    more than that many values in all. Counted from the parser's events, one at a time, before
    anything is built; a text that does not parse is left for the parser to report."""
    least = min(limit, values) if values is not None else limit
    if len(text) < 2 * least:  # each entry or value takes two characters at least ("a," in a flow list)
        return False
    from ruamel.yaml import events  # noqa: PLC0415 - the YAML library only when YAML is parsed; `daimyo catalog list` reads the cache without it
    from ruamel.yaml.error import YAMLError  # noqa: PLC0415 - the YAML library only when YAML is parsed; `daimyo catalog list` reads the cache without it

    loader_class = _loader_class()
    if not loader_class:  # pragma: no cover - without the C parser
        return False
    loader = loader_class(text)
    depth = count = total = 0
    most = values if values is not None else len(text)
    try:
        while loader.check_event():
            ev = loader.get_event()
            if isinstance(ev, events.CollectionStartEvent):
                depth += 1
                count += depth == 3
                total += 1
            elif isinstance(ev, events.CollectionEndEvent):
                depth -= 1
            elif isinstance(ev, (events.ScalarEvent, events.AliasEvent)):
                count += depth == 2
                total += 1
            if count > limit or total > most:
                return True
    except YAMLError:
        return False
    finally:
        loader.dispose()
    return False


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


def parse_yaml(
    text: str, file: str = "<string>", code: str | None = None, max_entries: int | None = None
) -> tuple[Any, Positions]:
    """Parse one YAML document into plain data and positions; raise DaimyoError on syntax errors.
    ``max_entries``: refuse, before building it, a document with more entries (``entries_over``)."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError  # noqa: PLC0415 - the YAML library only when YAML is parsed; `daimyo catalog list` reads the cache without it

    loader_class = _loader_class()
    pos = Positions(file)
    if too_deep(text):
        raise DaimyoError(too_deep_diag(file, code))
    if max_entries is not None:
        if entries_over(text, max_entries, MAX_PACK_VALUES):
            raise DaimyoError(too_many_entries_diag(file, code))
    try:
        if loader_class:
            loader = loader_class(text)
            try:
                node = loader.get_single_node()
            finally:
                loader.dispose()
            constructor = loader
        else:  # pragma: no cover - without the C parser
            y = _yaml()
            node = y.compose(text)
            constructor = y.constructor
    except MarkedYAMLError as exc:
        raise DaimyoError(_mark_diag(file, exc, code, text)) from None
    except YAMLError as exc:  # a control character (reader error) or another unmarked error
        raise DaimyoError(_unmarked_diag(file, text, exc, code)) from None
    if node is None:
        return None, pos
    try:
        data = _builder(pos, constructor, file, code, _Budget(text))(node, ())
    except DaimyoError:
        raise
    except RecursionError:
        raise DaimyoError(
            Diagnostic(
                file, 1, 1, L_("values nested too deeply"), code=code, hint=L_("a list or catalog needs a few levels")
            )
        ) from None
    except Exception as exc:  # constructor errors (bad timestamps, ...)
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise DaimyoError(Diagnostic(file, line, col, f"YAML value: {exc}".splitlines()[0], code=code)) from None
    return data, pos


def _scalar(node, constructor, file: str, code: str | None):
    """One scalar's value; a number outside the documented range is an error at its place
    (thousands of digits are refused before Python is asked to convert them)."""
    ctag = node.ctag
    if ctag is _PLAIN_TAG:  # text, as the resolver found it: the value as written
        return node.value

    direct = _CONSTRUCT.get(id(ctag))
    if direct is not None:  # a number, boolean, null or date the resolver found
        why = direct[1] and long_integer_problem(node.value)
        if not why:
            value = direct[2](constructor, node)
            why = number_problem(value)
    else:
        tag = node.tag
        if tag == _STR:  # text tagged so (!!str): what the constructor gives is the value as written
            return node.value
        why = tag.endswith(":int") and long_integer_problem(node.value)
        if not why:
            value = constructor.construct_object(node, deep=True)
            why = number_problem(value)
    if why:
        raise DaimyoError(Diagnostic(file, node.start_mark.line + 1, node.start_mark.column + 1, why, code=code))
    return value


def _builder(pos: Positions, constructor, file: str, code: str | None, budget: _Budget):
    """The function turning a node (and its path) into plain data, noting every value's and
    key's position in ``pos``."""
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode  # noqa: PLC0415 - the YAML library only when YAML is parsed; `daimyo catalog list` reads the cache without it

    values, keys, plain = pos.value, pos.key, _PLAIN_TAG

    def build(node, path: tuple):
        budget.left -= 1
        mark = node.start_mark
        if budget.left < 0:
            raise DaimyoError(
                Diagnostic(
                    file,
                    mark.line + 1,
                    mark.column + 1,
                    L_("aliases expand to far more values than the document holds"),
                    code=code,
                    hint=L_("write the values out instead of repeating *aliases"),
                )
            )
        values[path] = (mark.line + 1, mark.column + 1)
        if isinstance(node, ScalarNode):
            return _scalar(node, constructor, file, code)
        if isinstance(node, SequenceNode):
            return [build(child, path + (i,)) for i, child in enumerate(node.value)]
        if isinstance(node, MappingNode):
            out: dict = {}
            for knode, vnode in node.value:
                kmark = knode.start_mark
                if knode.ctag is not plain and knode.tag == _MERGE:
                    raise DaimyoError(
                        Diagnostic(
                            file, kmark.line + 1, kmark.column + 1, L_("merge keys (<<) are not supported"), code=code
                        )
                    )
                if not isinstance(knode, ScalarNode):
                    raise DaimyoError(
                        Diagnostic(
                            file, kmark.line + 1, kmark.column + 1, L_("a mapping key must be a plain value"), code=code
                        )
                    )
                key = _scalar(knode, constructor, file, code)
                if not isinstance(key, (str, int, float, bool)) and key is not None:
                    key = str(key)
                if key in out:
                    raise DaimyoError(
                        Diagnostic(
                            file,
                            kmark.line + 1,
                            kmark.column + 1,
                            L_("duplicate key '{key}'", key=key),
                            code=code,
                            hint=L_("each key may appear once in a mapping"),
                        )
                    )
                kp = path + (key,)
                keys[kp] = (kmark.line + 1, kmark.column + 1)
                out[key] = build(vnode, kp)
            return out
        raise DaimyoError(
            Diagnostic(
                file,
                mark.line + 1,
                mark.column + 1,  # pragma: no cover
                L_("unsupported YAML node"),
                code=code,
            )
        )

    return build


def _identity(st) -> tuple:
    return (st.st_dev, st.st_ino)


# While a command runs (``begin_command``): the files it has read (device and inode), never
# replaced by one of its outputs, and the files it reads to write back (edits), locked from
# reading to writing back. A long-running process (the web server, a library user) tracks
# nothing: there the editor's own check of the file on disk guards its saves.
_TRACK = False
_READ: set = set()
_EDITING: dict = {}  # real path -> (the path as given, the locked file descriptor or None)


def begin_command(track: bool = True) -> None:
    """Start (or, with ``track=False``, stop) tracking the reads of one command; forget the
    files read by an earlier command and release its locks."""
    global _TRACK
    _READ.clear()
    for _, fd in list(_EDITING.values()):
        _unlock(fd)
    _EDITING.clear()
    _TRACK = track


def read_bytes(
    path: str | os.PathLike, code: str | None = None, display: str | None = None, limit: int | None = None
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (MAX_FILE_BYTES). A device, a pipe
    or a folder is refused without reading (a FIFO would block, /dev/zero never ends)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    name = display or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise DaimyoError(Diagnostic(name, 0, 0, L_("file not found"), code=code, hint=L_("check the path"))) from None
    except IsADirectoryError:
        raise DaimyoError(Diagnostic(name, 0, 0, L_("is a folder, not a file"), code=code)) from None
    except (OSError, ValueError) as exc:
        raise DaimyoError(
            Diagnostic(name, 0, 0, L_("cannot read: {value}", value=getattr(exc, "strerror", None) or exc), code=code)
        ) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise DaimyoError(Diagnostic(name, 0, 0, L_("is a folder, not a file"), code=code))
        if not stat.S_ISREG(st.st_mode):
            raise DaimyoError(
                Diagnostic(
                    name,
                    0,
                    0,
                    L_("is not a regular file (a device or a pipe); not read"),
                    code=code,
                    hint=L_("give the name of a file"),
                )
            )
        if st.st_size > limit:
            raise DaimyoError(
                Diagnostic(
                    name,
                    0,
                    0,
                    L_("file too large: {st_size:,} bytes (at most {limit:,})", st_size=st.st_size, limit=limit),
                    code=code,
                    hint=L_("split it into smaller files"),
                )
            )
        chunks, total = [], 0
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:  # pragma: no cover - regular files do not block
                continue
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # the file grew while being read
                raise DaimyoError(
                    Diagnostic(
                        name,
                        0,
                        0,
                        L_("file too large: over {limit:,} bytes", limit=limit),
                        code=code,
                        hint=L_("split it into smaller files"),
                    )
                )
        if _TRACK:
            _READ.add(_identity(st))
        return b"".join(chunks)
    except OSError as exc:
        raise DaimyoError(
            Diagnostic(name, 0, 0, L_("cannot read: {value}", value=exc.strerror or exc), code=code)
        ) from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike, code: str | None = None, display: str | None = None) -> str:
    """Read a UTF-8 regular file (size-limited); a missing, unreadable or special file is a
    diagnostic."""
    name = display or str(path)
    data = read_bytes(path, code, display)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = exc.object[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise DaimyoError(
            Diagnostic(name, line, col, L_("not UTF-8 text"), code=code, hint=L_("save the file as UTF-8"))
        ) from None


# -- editing a file in place: a lock, and a check that nothing changed meanwhile --------------

LOCK_WAIT_SECONDS = 30.0


def _unlock(fd) -> None:
    if fd is None:
        return
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        pass
    try:
        os.close(fd)
    except OSError:
        pass


def _lock(path: str, name: str):
    """An exclusive lock on the file now at ``path`` (waiting for another daimyo editing it),
    as a descriptor, or None where the system has no locks."""
    if fcntl is None:  # pragma: no cover - Windows: the unchanged-content check still holds
        return None
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None  # read_bytes below says what is wrong
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise DaimyoError(
                            Diagnostic(
                                name,
                                0,
                                0,
                                L_("another program is editing this file"),
                                hint=L_("try again when it has finished"),
                            )
                        ) from None
                    time.sleep(0.005)
                except OSError:  # a file system without locks
                    os.close(fd)
                    return None
            try:
                same = _identity(os.fstat(fd)) == _identity(os.stat(path))
            except OSError:
                same = False
            if same:
                return fd
            # the file was replaced while waiting (an edit finished): lock the new one
        except BaseException:
            _unlock(fd)
            raise
        _unlock(fd)


def read_for_edit(path: str | os.PathLike, code: str | None = None, display: str | None = None) -> str:
    """Read a file that this command will write back (``daimyo add``, ``set``, an editor).

    It may be written back although it is an input, and during a command it stays locked until
    it is written back (or the command ends): two edits of one file run one after the other, the
    second reading what the first wrote, so neither is lost."""
    target = os.path.realpath(path)  # a symbolic link: the file it points to is edited
    name = display or str(path)
    held = _EDITING.get(target)
    if held is not None and held[1] is not None:
        fd = held[1]  # this process holds the lock already (an edit read the file again)
    else:
        fd = _lock(target, name) if _TRACK else None
    try:
        text = read_text(target, code, name)
    except BaseException:
        if held is None or held[1] != fd:
            _unlock(fd)
        raise
    _EDITING[target] = (str(path), fd)
    return text


def may_replace(path: str | os.PathLike) -> None:
    """Declare that this command replaces ``path`` on purpose although it read it (a pack
    installed again over its older version)."""
    real = os.path.realpath(path)
    _EDITING.setdefault(real, (str(path), None))


def load_yaml(
    path: str | os.PathLike, code: str | None = None, max_entries: int | None = None
) -> tuple[Any, Positions]:
    return parse_yaml(read_text(path, code), str(path), code, max_entries=max_entries)


def _refuse(p, message: str, hint: str | None = None):
    raise DaimyoError(Diagnostic(str(p), 0, 0, message, hint=hint))


def refuse_folder_name(path) -> None:
    """An output named 'newdir/' names a folder even when it does not exist yet: refused (no
    --force can help)."""
    if isinstance(path, str) and path.endswith(("/", os.sep)):
        _refuse(
            path,
            "names a folder (it ends with '/'), not a file",
            f"give a file name, such as {path.rstrip('/' + os.sep) or '.'}/NAME",
        )


def refuse_output(path, force: bool = False) -> None:
    """Before an output is made (a PDF takes a while): a name ending in '/' or an existing folder
    is refused as a folder (no --force can help, so none is suggested); an existing file is
    refused without ``force``."""
    refuse_folder_name(path)
    try:
        folder = os.path.isdir(path)
        there = os.path.lexists(path)
    except (OSError, ValueError):
        return  # a name the system cannot look up: the writing says why
    if folder:
        _refuse(path, "is a folder, not a file", "give a file name")
    if there and not force:
        raise WouldOverwrite(path)


def atomic_write(
    path: str | os.PathLike, data: bytes | str, force: bool = True, guard=None, mode: int | None = None
) -> None:
    """Write a file atomically (temp file in the same folder, then rename).

    ``guard``, when given, is a context manager factory entered around the rename alone (after
    the new text is written and flushed to disk): a caller's lock and last check, which may
    raise to leave the file as it is (the temporary file is removed).

    * ``force=False``: an existing file (or a symbolic link, even a dangling one) is refused,
      and so is a file that appears while writing (the new file is linked in exclusively);
    * a symbolic link to a file writes that file (the link stays);
    * ``mode``: the file's permissions (``0o600`` for a file holding secrets), set before it
      takes its name, also when it replaces a file; without it a new file is 0644 and a replaced
      one keeps its own;
    * a folder, a device or a pipe is refused even with ``force``;
    * a file this command is reading as input is never replaced, even with ``force``, unless it
      was read with ``read_for_edit`` (its lock is released once it is written back).
    """
    refuse_folder_name(path)
    p = Path(path)
    if "\x00" in str(p):  # no file can have this name: the system refuses it before any writing
        _refuse(p, "a file name cannot hold a NUL character", "give another file name")
    try:
        link = p.is_symlink()
    except (OSError, ValueError):
        link = False
    if link and not force:
        _refuse(p, "is a symbolic link; not overwritten", f"pass {option('force')} to write the file it points to")
    target = Path(os.path.realpath(p)) if link else p
    try:
        st = os.stat(target)
    except (OSError, ValueError):  # missing, or a name the system cannot look up: the writing says why
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        _refuse(p, "is a folder, not a file", "give a file name")
    if st is not None and not stat.S_ISREG(st.st_mode):  # the rename would replace a device or a pipe
        _refuse(p, "is not a regular file; not replaced", "give the name of a file")
    if not force and st is not None:
        _refuse(p, "file exists; not overwritten", f"pass {option('force')} to replace it")
    editing = _EDITING.get(os.path.realpath(target))
    if st is not None and editing is None and _identity(st) in _READ:
        _refuse(
            p,
            f"is an input of this command; not overwritten, even with {option('force')}",
            "write the output to another file",
        )
    if isinstance(data, str):
        data = data.encode("utf-8")
    parent = target.parent if str(target.parent) else Path(".")
    made = _missing_folders(parent)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    except (OSError, ValueError) as exc:  # the folder is a file or not writable, the name too long, ...
        _remove_folders(made)  # the folders made for it go again
        if isinstance(exc, (FileExistsError, NotADirectoryError)):
            reason = "a part of the folder path is a file"
        else:
            reason = getattr(exc, "strerror", None) or str(exc)
        raise DaimyoError(
            Diagnostic(
                str(p),
                0,
                0,
                L_("cannot write: {reason}", reason=reason),
                hint=L_("check the folder of the output file"),
            )
        ) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        elif st is not None:
            try:
                os.chmod(tmp, st.st_mode & 0o777)
            except OSError:
                pass
        else:
            os.chmod(tmp, 0o644)
        with guard() if guard is not None else contextlib.nullcontext():
            if force or st is not None:
                os.replace(tmp, target)
            else:
                _create_exclusive(tmp, target, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        _remove_folders(made)
        if isinstance(exc, OSError):  # a full disk, a quota, a name the rename refuses
            raise DaimyoError(
                Diagnostic(str(p), 0, 0, L_("cannot write: {value}", value=exc.strerror or exc))
            ) from None
        raise
    if editing is not None and editing[1] is not None:  # written back: the lock is released
        _unlock(editing[1])
        _EDITING[os.path.realpath(target)] = (editing[0], None)


def _missing_folders(folder: Path) -> list[Path]:
    """The folders of ``folder``'s path that do not exist yet, deepest first."""
    out = []
    p = folder
    try:
        while str(p) not in ("", ".") and not os.path.lexists(p):
            out.append(p)
            if p.parent == p:
                break
            p = p.parent
    except (OSError, ValueError):
        return []
    return out


def _remove_folders(folders: list[Path]) -> None:
    """Remove the folders an output made, deepest first, when they are still empty."""
    for d in folders:
        try:
            os.rmdir(d)
        except OSError:
            return


def _create_exclusive(tmp: str, target: Path, shown: Path) -> None:
    """Move ``tmp`` to ``target`` only if ``target`` does not exist at that moment."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        _refuse(
            shown, "file exists (it appeared while writing); not overwritten", f"pass {option('force')} to replace it"
        )
    except OSError:  # a file system without hard links: the best that remains
        if os.path.lexists(target):
            _refuse(
                shown,
                "file exists (it appeared while writing); not overwritten",
                f"pass {option('force')} to replace it",
            )
        os.replace(tmp, target)
        return
    os.unlink(tmp)
