"""Edits of a big list as small changes of its text, in time linear in the list's size.

Reading a whole list into a comment-keeping (round-trip) tree and writing it out again
costs about 0.4 ms per entry: 40 s for a list of 100,000 entries. An edit changes a line or
two, so the edit session runs the edit on a plain tree instead, compares the data
before and after, and writes each difference into the text where it belongs:

* a changed number or word replaces that value on its line;
* an entry appended to a block sequence goes after the sequence's last item (with the
  indentation of its items); a new key of a block mapping goes after the key before it;
* a deleted entry loses its lines; the comment lines below it stay where they were (a key
  whose lines carry a comment goes through the round-trip tree, which keeps the comment).

Everything else the text keeps as written (comments, indentation, quoting). The new text is
read back and must give exactly the data of the edit; when it does not, or when a difference
has no such place (a flow collection, a value that changes its kind, a multi-line value),
``splice_edit`` returns None and the editor takes the round-trip path.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from builder.kit.edit import roundtrip_yaml

if TYPE_CHECKING:
    from builder.lists.document import ListDoc
    from builder.yamlio import Positions

# Lists shorter than this go through the round-trip tree; every list is changed in place first
# (0), and tests set it high to compare the two paths.
MIN_CHARS = 0


class _Unsupported(Exception):
    """A difference the text cannot take as a small change."""


def build_tree(data: Any) -> Any:
    """A round-trip tree (``CommentedMap``/``CommentedSeq``, no comments) holding a copy of
    plain ``data``; edit functions written for round-trip trees run on it."""

    def conv(v: object) -> Any:
        if type(v) is dict:
            return CommentedMap((k, conv(x)) for k, x in v.items())
        if type(v) is list:
            return CommentedSeq([conv(x) for x in v])
        return v

    return conv(data)


_PLAIN = frozenset({str, int, float, bool, type(None)})


def plain(v: object) -> Any:
    """Plain Python data of a (round-trip) tree: dict, list, str, int, float, bool, None."""
    if type(v) in _PLAIN:  # already plain (most values)
        return v
    if isinstance(v, dict):
        return {plain(k): plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, bool) or v is None:
        return bool(v) if v is not None else None
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return float(v)
    if isinstance(v, str):
        return str(v)
    return v


def same(a: Any, b: Any) -> bool:
    """Equal data of equal types (``True`` is not ``1``, ``1`` is not ``1.0``), keys in order."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if type(x) is dict:
            if len(x) != len(y) or list(x) != list(y):
                return False
            stack.extend(zip(x.values(), y.values(), strict=False))
        elif type(x) is list:
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=False))
        elif x != y:
            return False
    return True


# -- differences --------------------------------------------------------------------------------


def _diff(old: Any, new: Any, raw: Any, path: tuple, out: list) -> None:
    """Differences of ``old`` and ``new`` (plain data); ``raw`` is ``new`` as the edit left it
    (round-trip objects, whose flow style new text keeps). Mappings and sequences of the same
    length are compared entry by entry (each value once: time linear in the list's size)."""
    if type(old) is dict and type(new) is dict:
        old_keys = [k for k in old if k in new]
        new_keys = [k for k in new if k in old]
        if old_keys != new_keys:
            raise _Unsupported("keys moved")
        for k in old:
            if k not in new:
                out.append(("delete_key", path, k))
        prev = None  # the key of the new mapping before each added key
        for k in new:
            if k in old:
                _diff(old[k], new[k], raw[k], path + (k,), out)
            else:
                if prev is None:
                    raise _Unsupported("a key before the first")
                out.append(("insert_key", path, prev, k, raw[k]))
            prev = k
        return
    if type(old) is list and type(new) is list:
        n, m = len(old), len(new)
        if m > n and same(old, new[:n]):
            if n == 0:
                raise _Unsupported("append to an empty sequence")
            out.append(("append", path, list(raw)[n:]))
            return
        if m < n:
            i = 0
            while i < m and same(old[i], new[i]):
                i += 1
            k = n - m
            if same(old[i + k :], new[i:]):
                for j in range(i + k - 1, i - 1, -1):
                    out.append(("delete_item", path, j))
                return
            raise _Unsupported("items changed and removed")
        if m == n:
            for i, (x, y, r) in enumerate(zip(old, new, raw, strict=False)):
                _diff(x, y, r, path + (i,), out)
            return
        raise _Unsupported("items changed and added")
    if same(old, new):
        return
    if isinstance(old, (dict, list)) or isinstance(new, (dict, list)):
        raise _Unsupported("a value changes its kind")
    out.append(("replace", path, raw))


# -- the text -----------------------------------------------------------------------------------


def _fragment(value: object) -> list[str]:
    """Lines of ``value`` written as YAML by the round-trip writer (as the slow path would)."""
    buf = io.StringIO()
    roundtrip_yaml().dump(value, buf)
    lines = buf.getvalue().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _wrap(value: Any) -> Any:
    """A round-trip mapping or sequence around edited values (kept as they are)."""
    if isinstance(value, dict):
        m = CommentedMap()
        for k, v in value.items():
            m[k] = v if isinstance(v, (CommentedMap, CommentedSeq)) else build_tree(v)
        return m
    return CommentedSeq([v if isinstance(v, (CommentedMap, CommentedSeq)) else build_tree(v) for v in value])


def _reindent(lines: list[str], indent: int) -> list[str]:
    strip = min((len(s) - len(s.lstrip(" ")) for s in lines if s.strip()), default=0)
    return [" " * indent + s[strip:] if s.strip() else s for s in lines]


def _content(line: str) -> bool:
    s = line.lstrip(" ")
    return bool(s) and s[0] != "#"


_COMMENT = re.compile(r"(^|\s)#")


class _Text:
    def __init__(self, text: str, positions: Positions) -> None:
        self.lines = text.split("\n")
        self.pos = positions
        self.ops: list = []  # (line index, column or -1, kind, payload)

    def indent(self, i: int) -> int:
        s = self.lines[i]
        return len(s) - len(s.lstrip(" "))

    def block_end(self, start: int, indent: int, stop: int | None = None, key: bool = False) -> int:
        """Index of the last content line of the entry starting on line ``start`` whose
        lines are indented more than ``indent`` (a following sibling starts at ``stop``; the
        items of a key's block sequence may stand at the key's own indentation)."""
        last = start
        i = start + 1
        end = len(self.lines) if stop is None else stop
        while i < end:
            s = self.lines[i]
            if _content(s):
                if stop is None:
                    ind = self.indent(i)
                    if ind < indent or (ind == indent and not (key and s[ind : ind + 2] in ("- ", "-"))):
                        break
                last = i
            i += 1
        return last

    def _key_line(self, path: tuple) -> tuple[int, int]:
        at = self.pos.key.get(path)
        if at is None:
            raise _Unsupported("no position")
        return at[0] - 1, at[1] - 1

    def _is_block(self, path: tuple) -> None:
        """Refuse a value inside a collection written in flow style (``[a, b]``, ``{a: 1}``)."""
        for j in range(1, len(path) + 1):
            at = self.pos.value.get(path[:j])
            if at is None:
                raise _Unsupported("no position")
            line = self.lines[at[0] - 1]
            if line[at[1] - 1 : at[1]] in ("[", "{"):
                raise _Unsupported("flow style")

    def _item_start(self, path: tuple) -> tuple[int, int]:
        """Line index and column of the ``-`` of a sequence item."""
        at = self.pos.value.get(path)
        if at is None:
            raise _Unsupported("no position")
        i, col = at[0] - 1, at[1] - 1
        before = self.lines[i][:col].rstrip(" ")
        if not before.endswith("-") or before[:-1].strip(" -"):
            raise _Unsupported("item not on its '-' line")
        return i, len(before) - 1

    def _entry_lines(self, mapping: dict, path: tuple, key: object) -> tuple[int, int, int]:
        """(first, last content line, column of the key) of ``key``'s entry in ``mapping``."""
        first, col = self._key_line(path + (key,))
        keys = list(mapping)
        j = keys.index(key)
        stop = self._key_line(path + (keys[j + 1],))[0] if j + 1 < len(keys) else None
        return first, self.block_end(first, col, stop, key=True), col

    def _item_lines(self, seq: list, path: tuple, i: int) -> tuple[int, int, int]:
        first, col = self._item_start(path + (i,))
        stop = self._item_start(path + (i + 1,))[0] if i + 1 < len(seq) else None
        return first, self.block_end(first, col, stop), col

    def plan(self, old: dict, diffs: list) -> None:
        inserted: dict = {}
        for d in diffs:
            kind, path = d[0], d[1]
            parent = _get(old, path)
            if path:
                self._is_block(path)
            if kind == "replace":
                self._replace(path, d[2])
            elif kind == "delete_key":
                first, last, _ = self._entry_lines(parent, path, d[2])
                if any(_COMMENT.search(self.lines[j]) for j in range(first, last + 1)):
                    raise _Unsupported("a comment on a key's lines")  # the round-trip tree keeps it
                self.ops.append((first, -1, "delete", last))
            elif kind == "delete_item":
                first, last, _ = self._item_lines(parent, path, d[2])
                self.ops.append((first, -1, "delete", last))
            elif kind == "insert_key":
                prev, key, value = d[2], d[3], d[4]
                if prev in parent:
                    first, last, col = self._entry_lines(parent, path, prev)
                    lines = _reindent(_fragment(_wrap({key: value})), col)
                    self.ops.append((last + 1, -1, "insert", lines))
                    inserted[path + (key,)] = (lines, col)
                else:  # right after another new key
                    lines, col = inserted[path + (prev,)]
                    lines.extend(_reindent(_fragment(_wrap({key: value})), col))
                    inserted[path + (key,)] = (lines, col)
            elif kind == "append":
                first, last, col = self._item_lines(parent, path, len(parent) - 1)
                lines = _reindent(_fragment(_wrap(list(d[2]))), col)
                self.ops.append((last + 1, -1, "insert", lines))

    def _replace(self, path: tuple, value: object) -> None:
        at = self.pos.value.get(path)
        if at is None or not path:
            raise _Unsupported("no position")
        i, col = at[0] - 1, at[1] - 1
        line = self.lines[i]
        end = _scalar_end(line, col)
        if type(value) is int:  # written as the round-trip writer writes it, without running it
            text = str(value)
        elif type(value) is bool:
            text = "true" if value else "false"
        else:
            frag = _fragment(_wrap({"k": value}))
            if len(frag) != 1 or not frag[0].startswith("k:"):
                raise _Unsupported("a value of several lines")
            text = frag[0][2:].lstrip(" ")
        if end == col:  # an empty value ('key:')
            if not text:
                return
            if line[:col].rstrip(" ").endswith(":"):
                start = len(line[:col].rstrip(" "))
                self.ops.append((i, start, "replace", (col, " " + text)))
                return
            raise _Unsupported("an empty value not after its key")
        self.ops.append((i, col, "replace", (end, text)))

    def apply(self) -> str:
        ops = sorted(self.ops, key=lambda o: (o[0], o[1]), reverse=True)
        lines = self.lines
        last_line, last_col = None, None
        for line, col, kind, payload in ops:
            if kind == "replace":
                end, text = payload
                if last_line == line and last_col is not None and end > last_col:
                    raise _Unsupported("overlapping changes")
                s = lines[line]
                lines[line] = s[:col] + text + s[end:]
                last_line, last_col = line, col
            elif kind == "delete":
                if last_line is not None and last_line <= payload:
                    raise _Unsupported("overlapping changes")
                del lines[line : payload + 1]
                last_line, last_col = line, None
            elif kind == "insert":
                lines[line:line] = payload
                last_line, last_col = line, None
        return "\n".join(lines)


def _get(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


def _scalar_end(line: str, col: int) -> int:
    """Column just past the one-line scalar that starts at ``col``."""
    c = line[col : col + 1]
    if c == "'":
        j = col + 1
        while True:
            k = line.find("'", j)
            if k < 0:
                raise _Unsupported("quoted value goes on below")
            if line[k + 1 : k + 2] == "'":
                j = k + 2
                continue
            return k + 1
    if c == '"':
        j = col + 1
        while True:
            k = line.find('"', j)
            if k < 0:
                raise _Unsupported("quoted value goes on below")
            if line[k - 1] == "\\":
                n = 0
                while line[k - 1 - n] == "\\":
                    n += 1
                if n % 2:
                    j = k + 1
                    continue
            return k + 1
    if c in ("|", ">", "[", "{", "&", "*", "!"):
        raise _Unsupported("not a plain one-line value")
    k = line.find(" #", col)
    end = len(line) if k < 0 else k
    return len(line[:end].rstrip(" "))


def splice_edit(text: str, doc: ListDoc, tree: Any, new: object = None) -> str | None:
    """The text of ``doc`` (read from ``text``) changed as ``tree`` (the edited data) says, with
    every other line kept; None when the change does not fit in place (see the module).
    ``new``: ``plain(tree)``, when the caller has it already."""
    try:
        diffs: list = []
        _diff(doc.data, plain(tree) if new is None else new, tree, (), diffs)
        if not diffs:
            return text
        t = _Text(text, doc.positions)
        t.plan(doc.data, diffs)
        return t.apply()
    except (_Unsupported, KeyError, IndexError, ValueError, TypeError):
        return None
