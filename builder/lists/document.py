"""The common part of every list document (FORMATS.md section 1)."""

from __future__ import annotations

import re as _re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from builder import state
from builder.catalog.packfiles import not_found_hint, resolve_recorded
from builder.errors import DaimyoError, Diagnostic, ListError
from builder.i18n import L_
from builder.kit.fields import COMMON_KEYS
from builder.limits import MAX_VALUES, number_problem, too_many_values_message, values_over
from builder.lists.schema import keys
from builder.names import did_you_mean
from builder.systems import ids, is_system
from builder.yamlio import Positions, parse_yaml, read_text
from builder.yamlpos import too_deep, too_deep_diag


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
    # (data, catalog, the list as the game's rules read it) from the last check of this document
    loaded: tuple | None = field(default=None, repr=False, compare=False)

    def diag(self, path: tuple, message: str, hint: str | None = None) -> Diagnostic:
        return self.positions.diag(path, message, hint=hint)

    def fail(self, path: tuple, message: str, hint: str | None = None) -> NoReturn:
        raise ListError(self.diag(path, message, hint))

    def at(self, path: tuple) -> tuple[int, int]:
        return self.positions.at(path)

    def body(self) -> dict:
        """The system-specific keys."""
        return {k: v for k, v in self.data.items() if k not in COMMON_KEYS}


def load_list(path: str | Path, display: str | None = None) -> ListDoc:
    name = display or str(path)
    p = path if isinstance(path, Path) else Path(path)
    text = read_text(p, display=name)
    return parse_list(text, name, base_dir=p.parent)


def parse_list(text: str, file: str = "<list>", base_dir: Path | None = None, parsed: tuple | None = None) -> ListDoc:
    """The list document in ``text``; ``parsed``: the (data, positions) this very text was
    already read as (by :func:`parse_plain`, or ``parse_yaml`` where that gives None): it
    is not read again."""
    if parsed is None:
        if too_deep(text):  # every reader below is recursive
            raise ListError(too_deep_diag(file))
        parsed = _parse_simple(text, file)
    if parsed is _TOO_MANY or (parsed is None and text.count("\n") > 4 * MAX_VALUES):
        raise ListError(Diagnostic(file, 1, 1, too_many_values_message(), hint=L_("split it into several lists")))
    if parsed is not None:
        data, pos = parsed
    else:
        try:
            data, pos = parse_yaml(text, file)
        except DaimyoError as exc:
            raise ListError(exc.diagnostics) from None
    if values_over(data):
        raise ListError(Diagnostic(file, 1, 1, too_many_values_message(), hint=L_("split it into several lists")))
    if data is None:
        raise ListError(
            Diagnostic(
                file,
                1,
                1,
                L_("empty document; a list needs at least 'system:'"),
                hint=L_("start with 'system: kensei' (or senshiai, herocard, senji, satsuma)"),
            )
        )
    if not isinstance(data, dict):
        raise ListError(pos.diag((), L_("a list document must be a mapping of keys such as 'system:'")))
    if looks_like_pack(data):
        raise ListError(
            Diagnostic(
                file,
                1,
                1,
                L_("this is a pack, not a list; did you mean 'daimyo pack check {file}'?", file=file),
                hint=L_(
                    "a pack adds catalog entries; a list names cards or troops and may use packs with 'packs: [NAME]'"
                ),
            )
        )
    SYSTEMS = ids()
    diags = []
    system = data.get("system")
    if "system" not in data:
        diags.append(
            pos.diag((), L_("missing required key 'system'"), hint=L_("one of {values}", values=", ".join(SYSTEMS)))
        )
    elif not isinstance(system, str) or system.strip().lower() not in SYSTEMS:
        hint = did_you_mean(str(system), SYSTEMS) or ("one of " + ", ".join(SYSTEMS))
        diags.append(pos.diag(("system",), L_("unknown system '{system}'", system=system), hint=hint))
    else:
        system = system.strip().lower()
    for key in ("name", "author", "notes"):
        if key in data and data[key] is not None and not isinstance(data[key], (str, int, float)):
            diags.append(pos.diag((key,), L_("'{key}' must be text", key=key)))
    packs = data.get("packs") or []
    if isinstance(packs, str):
        packs = [packs]
    if not isinstance(packs, list) or not all(isinstance(p, str) for p in packs):
        diags.append(pos.diag(("packs",), L_("'packs' must be a list of file paths")))
        packs = []
    base = base_dir if base_dir is not None else Path(".")
    resolved = []
    for i, p in enumerate(packs):
        found = resolve_recorded(p, data, base, system if isinstance(system, str) else None)
        if found is None:
            pp = Path(p)
            diags.append(pos.diag(("packs", i), L_("pack file '{p}' not found", p=p), hint=not_found_hint(p, base)))
            resolved.append(str(pp if pp.is_absolute() else base / pp))
            continue
        resolved.append(str(found))
    hr = data.get("house_rules") or {}
    if not isinstance(hr, dict):
        diags.append(
            pos.diag(
                ("house_rules",),
                L_("'house_rules' must be a mapping of rule ids to values"),
                hint=L_("e.g. house_rules: {cavalry_max_percent: 50}"),
            )
        )
        hr = {}
    if diags or not isinstance(system, str):  # a missing or unknown system is in diags
        raise ListError(diags)

    def text_or_none(k: str) -> str | None:
        v = data.get(k)
        return None if v is None else str(v)

    return ListDoc(
        file=file,
        data=data,
        positions=pos,
        system=system,
        name=text_or_none("name"),
        author=text_or_none("author"),
        notes=text_or_none("notes"),
        packs=resolved,
        house_rules=hr,
        base_dir=base,
    )


# -- a fast reader for the usual shape of a list file ------------------------------------------
#
# Most list files are block mappings and block sequences of one-line plain or simply quoted
# scalars. ``_parse_simple`` reads exactly that subset and gives the same data and the same
# positions as ``parse_yaml`` (YAML 1.2 scalar types), several times faster. Anything else
# (flow collections, anchors, tags, block or multi-line scalars, escapes, tabs, unusual keys,
# numbers other than plain ints and decimals, duplicate keys, syntax errors) makes it return
# None and the full YAML reader takes over, errors included.

_KEY_LINE = _re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +|$)")
_INT = _re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT = _re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+")
# what the YAML reader refuses, and the characters it reads as line breaks or a byte-order mark:
# every code point but \x0A, \x20-\x7E, \xA0-\u2027, \u202A-\uD7FF, \uE000-\uFEFE, \uFF00-\uFFFD
# and \U00010000-\U0010FFFF (written as the few ranges left out, which compile in a fraction of
# the time the negated class takes; a test compares the two on every code point)
_NON_PRINTABLE = _re.compile("[\\x00-\\x09\\x0B-\\x1F\\x7F-\\x9F\\u2028\\u2029\\uD800-\\uDFFF\\uFEFF\\uFFFE\\uFFFF]")
_SPECIAL = {
    "true": True,
    "True": True,
    "TRUE": True,
    "false": False,
    "False": False,
    "FALSE": False,
    "null": None,
    "Null": None,
    "NULL": None,
    "~": None,
}
_PLAIN_START_BAD = set("-?:,[]{}#&*!|>%@`<=+.0123456789")


_TOO_MANY = object()  # more lines than a list may hold values


class _NotSimple(Exception):
    """The text is outside the subset ``_parse_simple`` reads."""


def parse_plain(text: str, file: str = "<list>") -> tuple[Any, Positions] | None:
    """(data, positions) of a document in the plain subset of YAML that lists are written in
    (block mappings and lists of plain or quoted scalars, comments), read without the YAML
    library; None for anything else (or a document too deep or too long for it), which the
    YAML library then reads. The values and positions are those ``parse_yaml`` gives."""
    if too_deep(text):
        return None
    parsed = _parse_simple(text, file)
    return None if parsed is None or parsed is _TOO_MANY else parsed


def _parse_simple(text: str, file: str) -> Any:
    if "\t" in text or "\r" in text or _NON_PRINTABLE.search(text):
        return None
    lines = []  # [line number (1-based), indent, content without indent]
    for n, raw in enumerate(text.split("\n"), 1):
        content = raw.lstrip(" ")
        if not content or content[0] == "#":
            continue
        lines.append([n, len(raw) - len(content), content.rstrip(" ")])
    if not lines or lines[0][1] != 0:
        return None
    if len(lines) > MAX_VALUES:  # each line of this subset holds a value at least: refused unread
        return _TOO_MANY
    pos = Positions(file)
    try:
        reader = _SimpleReader(lines, pos)
        data = reader.mapping(0, ())
        if reader.i != len(lines):
            return None
    except _NotSimple:
        return None
    return data, pos


class _SimpleReader:
    __slots__ = ("i", "kpos", "lines", "n", "vpos")

    def __init__(self, lines: list, pos: Positions):
        self.lines = lines
        self.vpos = pos.value
        self.kpos = pos.key
        self.i = 0
        self.n = len(lines)

    def mapping(self, indent: int, path: tuple) -> dict:
        lines, total, vpos, kpos = self.lines, self.n, self.vpos, self.kpos
        key_line = _key_line
        out: dict = {}
        i = self.i
        if i < total:
            vpos[path] = (lines[i][0], indent + 1)
        while i < total:
            n, ind, content = lines[i]
            if ind != indent:
                if ind < indent:
                    break
                raise _NotSimple
            m = key_line(content)
            if m is None:
                raise _NotSimple
            key, end = m
            if key in out:
                raise _NotSimple
            kp = path + (key,)
            kpos[kp] = (n, ind + 1)
            i += 1
            nxt = lines[i][1] if i < total else -1
            if end < len(content) and content[end] != "#":
                out[key] = _scalar(content[end:], n, ind + end, kp, vpos)
                if nxt > indent:
                    raise _NotSimple  # a continued scalar or a syntax error
                continue
            if nxt > indent:
                self.i = i
                if lines[i][2][0] == "-":
                    out[key] = self.sequence(nxt, kp)
                else:
                    out[key] = self.mapping(nxt, kp)
                i = self.i
            elif nxt == indent and lines[i][2][:2] in ("- ", "-"):
                self.i = i
                out[key] = self.sequence(indent, kp)
                i = self.i
            else:
                vpos[kp] = (n, ind + len(key) + 2)
                out[key] = None
        self.i = i
        return out

    def sequence(self, indent: int, path: tuple) -> list:
        lines, total, vpos = self.lines, self.n, self.vpos
        out: list = []
        while self.i < total:
            line = lines[self.i]
            n, ind, content = line
            if ind != indent or content[:2] != "- ":
                if ind > indent or (ind == indent and content == "-"):
                    raise _NotSimple
                break
            if not out:
                vpos[path] = (n, ind + 1)
            rest = content[2:]
            sub = rest.lstrip(" ")
            col = ind + 2 + len(rest) - len(sub)  # 0-based column of the item
            ip = path + (len(out),)
            if not sub or sub[0] == "#" or sub[0] == "-":
                raise _NotSimple
            if _key_line(sub) is not None:
                line[1], line[2] = col, sub  # the item's first key starts a mapping at its column
                out.append(self.mapping(col, ip))
            else:
                self.i += 1
                out.append(_scalar(sub, n, col, ip, vpos))
                if self.i < total and lines[self.i][1] > indent:
                    raise _NotSimple
        return out


def _key_line(content: str) -> Any:
    """``(key, end of 'key: ')`` when the line starts with a plain key, else None (remembered)."""
    try:
        return _KEYS_SEEN[content]
    except KeyError:
        pass
    m = _KEY_LINE.match(content)
    hit = None if m is None or m.group(1) in _SPECIAL else (m.group(1), m.end())
    if len(_KEYS_SEEN) >= _SEEN_MAX:
        _KEYS_SEEN.clear()
    _KEYS_SEEN[content] = hit
    return hit


_SEEN_MAX = 50001  # lines, values
_KEYS_SEEN: dict[str, tuple | None] = state.cache(
    "lists.key_lines", bound=_SEEN_MAX, lifetime=state.VALUE, doc="the key a list line starts with, by the line"
)
_SCALARS_SEEN: dict[str, Any] = state.cache(
    "lists.scalars", bound=_SEEN_MAX, lifetime=state.VALUE, doc="the value of a plain scalar, by its text"
)
_NOT_SIMPLE = object()
_EMPTY_LIST = object()
_EMPTY_MAP = object()


def _scalar(text: str, n: int, col: int, path: tuple, vpos: dict) -> Any:
    """One scalar on one line; ``col`` is its 0-based column (values remembered by text)."""
    vpos[path] = (n, col + 1)
    hit = _SCALARS_SEEN.get(text, _SCALARS_SEEN)
    if hit is _SCALARS_SEEN:
        try:
            hit = _scalar_value(text)
            if hit == [] and type(hit) is list:
                hit = _EMPTY_LIST
            elif hit == {} and type(hit) is dict:
                hit = _EMPTY_MAP
        except _NotSimple:
            hit = _NOT_SIMPLE
        if len(_SCALARS_SEEN) >= _SEEN_MAX:
            _SCALARS_SEEN.clear()
        _SCALARS_SEEN[text] = hit
    if hit is _NOT_SIMPLE:
        raise _NotSimple
    if hit is _EMPTY_LIST:
        return []
    if hit is _EMPTY_MAP:
        return {}
    return hit


def _scalar_value(text: str) -> Any:
    c = text[0]
    if c not in _PLAIN_START_BAD and c not in "'\"[{":
        k = text.find(" #")
        if k >= 0:
            text = text[:k].rstrip(" ")
        if ": " in text or text[-1] == ":":
            raise _NotSimple
        return _SPECIAL.get(text, text) if text in _SPECIAL else text
    value: list | dict | str | int | float | None
    if c in "[{":
        if text[1:2] != ("]" if c == "[" else "}"):
            raise _NotSimple
        value, tail = ([] if c == "[" else {}), text[2:]
    elif c == "'":
        j = 1
        parts = []
        while True:
            k = text.find("'", j)
            if k < 0:
                raise _NotSimple
            parts.append(text[j:k])
            if text[k + 1 : k + 2] == "'":
                parts.append("'")
                j = k + 2
                continue
            break
        value = "".join(parts)
        tail = text[k + 1 :]
    elif c == '"':
        k = text.find('"', 1)
        if k < 0 or "\\" in text[:k]:
            raise _NotSimple
        value = text[1:k]
        tail = text[k + 1 :]
    else:
        k = text.find(" #")
        if k >= 0:
            text = text[:k].rstrip(" ")
        if ": " in text or text.endswith(":"):
            raise _NotSimple
        if text in _SPECIAL:
            return _SPECIAL[text]
        if _INT.fullmatch(text):
            value = int(text) if len(text) <= 30 else None
        elif _FLOAT.fullmatch(text):
            value = float(text)
        else:
            raise _NotSimple
        if value is None or number_problem(value):  # the full reader says where and why
            raise _NotSimple
        return value
    if tail and not (tail[0] == " " and tail.lstrip(" ")[:1] == "#"):
        raise _NotSimple
    return value


_PACK_ONLY_KEYS = ("pack", "version", "licence", "license", "url", "example", "description")


def looks_like_pack(data: object) -> bool:
    """True when a document read as a list is a pack: pack-level keys such as ``version:``, or a
    section that is a list of named entries where a list has no such key."""
    if not isinstance(data, dict):
        return False
    system = data.get("system")
    if not isinstance(system, str):
        return False
    s = system.strip().lower()
    if not is_system(s):
        return False
    list_keys = set(keys(s))
    if any(k in data for k in _PACK_ONLY_KEYS if k not in list_keys):
        return True
    for k, v in data.items():
        if k in list_keys or not isinstance(v, list) or not v:
            continue
        if all(isinstance(x, dict) and "name" in x for x in v):
            return True
    # a section the list knows, written as entries (a Senshiai deck's cards are a mapping)
    for k in ("cards",):
        v = data.get(k)
        if isinstance(v, list) and v and all(isinstance(x, dict) and "name" in x for x in v):
            return True
    return False
