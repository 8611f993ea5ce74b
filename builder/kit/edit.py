"""Comment-preserving edits of list documents (ruamel.yaml round trip).

Every edit reads the file, refuses it when it does not parse as a list document
(the file is left untouched), changes the round-trip tree in place so that the
user's comments, key order and quoting survive, and writes atomically.
"""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark, MarkedYAMLError, YAMLError
from ruamel.yaml.tokens import CommentToken

from builder.errors import Diagnostic, ListError, UsageError
from builder.i18n import L_
from builder.kit.numbers import number
from builder.names import did_you_mean, normalize


def roundtrip_yaml():
    """A ruamel reader and writer that keeps comments and quotes, writing as a list is laid out."""
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.indent(mapping=2, sequence=4, offset=2)
    y.width = 4096
    return y


def load_roundtrip(text: str, file: str = "<list>"):
    """The comment-keeping tree of a list's text. The fast reader of 'check' accepts a few
    layouts the round-trip reader does not (a tab after a value or before a colon, a U+0085 or
    a byte-order mark at the start of a line): such a text is one located line (ListError),
    never a traceback."""
    try:
        return roundtrip_yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        at = getattr(mark, "index", None)
        if not isinstance(at, int) or not 0 <= at <= len(text):
            at = 0
        line = text.count("\n", 0, at) + 1  # lines as an editor shows them (U+0085 breaks none)
        start = text.rfind("\n", 0, at) + 1
        col = at - start + 1
        end = text.find("\n", start)
        row = text[start : end if end >= 0 else len(text)]
        odd = next((c for c in row if c in "\t\ufeff\x85\u2028\u2029"), None)
        what = {
            "\t": "a tab",
            "\ufeff": "a byte-order mark (U+FEFF)",
            "\x85": "a U+0085 line break",
            "\u2028": "a U+2028 line separator",
            "\u2029": "a U+2029 paragraph separator",
        }.get(odd or "")
        problem = (exc.problem or "unreadable").split("\n")[0]
        msg = f"the editor cannot change this file: {problem}" + (f" ({what} on this line)" if what else "")
        hint = (
            f"replace {what} with spaces or remove it, then run the command again"
            if what
            else "check indentation, colons and quotes on this line"
        )
        raise ListError(Diagnostic(file, line, col, msg, hint=hint)) from None
    except YAMLError as exc:
        raise ListError(
            Diagnostic(
                file,
                1,
                1,
                L_("the editor cannot change this file: {value}", value=str(exc).splitlines()[0]),
                hint=L_("save it as plain text and run the command again"),
            )
        ) from None


def dump_roundtrip(data) -> str:
    buf = io.StringIO()
    roundtrip_yaml().dump(data, buf)
    return buf.getvalue()


def find_troop_index(troops, name: str, catalog=None) -> int | None:
    """Index of the last list entry whose troop is ``name`` (catalog aliases and spelling ignored)."""
    want = normalize(name)
    target = catalog.find("troops", name) if catalog is not None else None
    hit = None
    for i, t in enumerate(troops or []):
        written = t.get("troop") if isinstance(t, dict) else t
        if not isinstance(written, str):
            continue
        if normalize(written) == want:
            hit = i
        elif target is not None:
            other = catalog.find("troops", written)
            if other is not None and other.id == target.id:
                hit = i
    return hit


def add_troop(data, name: str, models: int | None = None, led_by: str | None = None, standard: bool = False) -> int:
    """Append a troop entry to the round-trip tree; returns its index."""
    troops = data.get("troops")
    if troops is None or not isinstance(troops, list):
        troops = CommentedSeq()
        data["troops"] = troops
    entry = CommentedMap()
    entry["troop"] = name
    if models is not None and models != 1:
        entry["models"] = models
    if led_by:
        entry["led_by"] = led_by
    if standard:
        entry["standard"] = True
    troops.append(entry)
    return len(troops) - 1


def remove_troop(data, name: str, catalog=None) -> dict[str, Any]:
    troops = data.get("troops")
    idx = find_troop_index(troops, name, catalog)
    if idx is None:
        listed = [t.get("troop") if isinstance(t, dict) else t for t in (troops or [])]

        hint = did_you_mean(name, [x for x in listed if isinstance(x, str)])
        raise UsageError(L_("no troop '{name}' in the list", name=name), hint or None)
    removed = troops[idx]
    del troops[idx]
    return removed


def set_key(data, key: str, value) -> None:
    """Set a top-level key, keeping its place (new keys go before ``troops``)."""
    if key in data:
        data[key] = value
        return
    keys = list(data.keys())
    pos = keys.index("troops") if "troops" in keys else len(keys)
    data.insert(pos, key, value)


# -- mappings of counts (deck lists) -------------------------------------------------------------
#
# A comment line between two entries belongs to the entry it stands above, but ruamel.yaml keeps
# it with the entry before it (as the end of that entry's line). The helpers below move such
# heading lines so that deleting or inserting an entry leaves every heading above the entry it
# introduces.


def _split_comment(value: str) -> tuple[str, str]:
    """(the end of the entry's own line, the comment lines that follow it)."""
    i = value.find("\n")
    if i < 0:
        return value, ""
    return value[: i + 1], value[i + 1 :]


def _tail(cmap, key):
    """The comment token that follows ``key``'s value, or None."""
    item = cmap.ca.items.get(key)
    if not item or len(item) < 3:
        return None
    return item[2]


def _set_tail(cmap, key, token) -> None:
    item = cmap.ca.items.get(key)
    if item is None:
        if token is None:
            return
        item = [None, None, None, None]
        cmap.ca.items[key] = item
    while len(item) < 3:
        item.append(None)
    item[2] = token
    if not any(item):
        del cmap.ca.items[key]


def _token(text: str):
    return CommentToken(text, CommentMark(0), None)


def _is_roundtrip(mapping) -> bool:
    return hasattr(mapping, "ca") and hasattr(mapping, "insert")


def delete_key(mapping, key) -> None:
    """Delete ``key``; the comment lines below it stay where they were (above the next entry)."""
    if not _is_roundtrip(mapping):
        del mapping[key]
        return
    keys = list(mapping.keys())
    i = keys.index(key)
    tok = _tail(mapping, key)
    rest = _split_comment(tok.value)[1] if tok is not None else ""
    del mapping[key]
    mapping.ca.items.pop(key, None)
    if not rest.strip():
        return
    if i > 0:
        prev = keys[i - 1]
        ptok = _tail(mapping, prev)
        if ptok is not None:
            ptok.value = ptok.value + rest
        else:
            _set_tail(mapping, prev, _token("\n" + rest))
    else:
        if mapping.ca.comment is None:
            mapping.ca.comment = [None, []]
        while len(mapping.ca.comment) < 2:
            mapping.ca.comment.append(None)
        if mapping.ca.comment[1] is None:
            mapping.ca.comment[1] = []
        mapping.ca.comment[1].append(_token(rest))


def insert_key_after(mapping, after, key, value) -> None:
    """Insert ``key: value`` right after ``after`` (None: at the end).

    The comment lines below ``after`` (a heading of the next group, or the end of the file)
    move below the new entry, so the new entry joins ``after``'s group.
    """
    keys = list(mapping.keys())
    if after is None and keys:
        after = keys[-1]
    if not _is_roundtrip(mapping) or after is None:
        mapping[key] = value
        return
    pos = keys.index(after) + 1
    tok = _tail(mapping, after)
    mapping.insert(pos, key, value)
    if tok is None:
        return
    eol, rest = _split_comment(tok.value)
    if not rest:
        return
    if eol.strip():
        tok.value = eol
    else:
        _set_tail(mapping, after, None)
    _set_tail(mapping, key, _token("\n" + rest))


def keys_naming(mapping, same) -> list:
    """The keys of ``mapping`` for which ``same(key)`` holds, in file order."""
    return [k for k in (mapping or {}) if isinstance(k, str) and same(k)]


def add_copies(mapping, key, count: int) -> int:
    """Add ``count`` copies to an existing line; returns the new count of that line."""
    value = mapping[key]
    if isinstance(value, dict):  # a custom card {printed: F5, count: 1}
        value["count"] = int(value.get("count", 1)) + count
        return value["count"]
    mapping[key] = int(value) + count
    return mapping[key]


def remove_copies(mapping, key, count: int) -> int:
    """Take ``count`` copies off a line; the line goes at 0. Returns what is left on the line."""
    value = mapping[key]
    have = int(value.get("count", 1)) if isinstance(value, dict) else int(value)
    left = have - count
    if left <= 0:
        delete_key(mapping, key)
        return 0
    if isinstance(value, dict):
        value["count"] = left
    else:
        mapping[key] = left
    return left


def replace_key(mapping, old, new, value) -> None:
    """Put ``new: value`` where ``old`` was (its line comments kept)."""
    keys = list(mapping.keys())
    i = keys.index(old)
    if not _is_roundtrip(mapping):
        items = list(mapping.items())
        items[i] = (new, value)
        mapping.clear()
        mapping.update(items)
        return
    tok = _tail(mapping, old)
    del mapping[old]
    mapping.ca.items.pop(old, None)
    mapping.insert(i, new, value)
    if tok is not None:
        _set_tail(mapping, new, tok)


def set_key_ordered(data, key: str, value, order) -> None:
    """Set a top-level key, keeping its place; a new key goes where ``order`` puts it."""
    if key in data:
        data[key] = value
        return
    order = list(order)
    later = order[order.index(key) + 1 :] if key in order else []
    keys = list(data.keys())
    pos = next((i for i, k in enumerate(keys) if k in later), len(keys))
    if _is_roundtrip(data):
        if pos == 0:
            data.insert(0, key, value)
        else:
            insert_key_after(data, keys[pos - 1], key, value)
    else:
        items = list(data.items())
        items.insert(pos, (key, value))
        data.clear()
        data.update(items)


__all__ = [
    "add_copies",
    "add_troop",
    "delete_key",
    "dump_roundtrip",
    "find_troop_index",
    "insert_key_after",
    "keys_naming",
    "load_roundtrip",
    "number",
    "remove_copies",
    "remove_troop",
    "replace_key",
    "roundtrip_yaml",
    "set_key",
    "set_key_ordered",
]
