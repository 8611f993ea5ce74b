"""Comment-preserving edits of list documents (ruamel.yaml round trip).

Every edit reads the file, refuses it when it does not parse as a list document
(the file is left untouched), changes the round-trip tree in place so that the
user's comments, key order and quoting survive, and writes atomically.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from builder.errors import ListError, UsageError
from builder.names import normalize


def _rt():
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.indent(mapping=2, sequence=4, offset=2)
    y.width = 4096
    return y


def load_roundtrip(path: str | Path):
    """The round-trip tree of a list file and its text; raises ListError if it is not a list."""
    from builder.lists.document import parse_list
    from builder.yamlio import read_text

    text = read_text(path, display=str(path))
    try:
        doc = parse_list(text, str(path), base_dir=Path(path).parent)
    except ListError:
        raise
    y = _rt()
    data = y.load(text)
    return doc, data, text


def dump_roundtrip(data) -> str:
    buf = io.StringIO()
    _rt().dump(data, buf)
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


def add_troop(data, name: str, models: int | None = None, led_by: str | None = None,
              standard: bool = False) -> int:
    """Append a troop entry to the round-trip tree; returns its index."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

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
        from builder.names import did_you_mean

        hint = did_you_mean(name, [x for x in listed if isinstance(x, str)])
        raise UsageError(f"no troop '{name}' in the list", hint or None)
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
