"""Starting a new list: the one path ``daimyo new``, the web builder's new-list form, the JSON
API (``POST /api/lists``) and ``ListEditor.new`` all take.

A face parses what the user gave into a ``NewListRequest`` (the game, the list's name, its packs
and the game's own options by key, as words or typed values) and calls ``start``; the game's
declaration (``gs.new_list.declare``) reads and checks the options, once, so every face refuses
a wrong value with the same line. The face then writes ``NewList.text`` where it writes files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder.catalog.loader import load_catalog
from builder.errors import UsageError
from builder.i18n import L_
from builder.lists.dump import dump_list_yaml
from builder.systems import find_system


@dataclass(frozen=True)
class NewListRequest:
    """A new list of ``game`` (id, name or alias). ``options``: the game's own options by key
    (``clan``, ``scenario``...); ``packs``: as the list names them; ``pack_files``: the files
    they are (None: the ``packs`` paths, from ``base_dir``). ``as_form``: an option the new-list
    form shows and that is left out or empty takes what the form starts with (the web builder's
    form and its JSON API), and a tick box left out is no."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    name: str | None = None
    packs: Sequence[str] = ()
    pack_files: Sequence[str] | None = None
    base_dir: Path | None = None
    as_form: bool = False


@dataclass(frozen=True)
class NewList:
    """A new list, not written yet: its game, data, YAML text, catalog and notes for a person."""

    game: Any
    data: dict[str, Any]
    text: str
    catalog: Any
    notes: list[str]


def start(request: NewListRequest) -> NewList:
    """The new list ``request`` asks for; a ``UsageError`` in one line for an unknown game or
    option, or a value the game's declaration refuses."""
    gs = find_system(request.game)
    folder = Path(request.base_dir) if request.base_dir is not None else Path(".").resolve()
    packs = list(request.packs)
    files = list(request.pack_files) if request.pack_files is not None else [str((folder / p).resolve()) for p in packs]
    catalog = load_catalog(gs.id, files)
    name = (request.name or "").strip() or None
    given = dict(request.options)
    if request.as_form:
        for o in gs.new_list.declare(catalog):
            value = given.get(o.key)
            if not o.form or (value is not None and not (isinstance(value, str) and not value.strip())):
                continue
            if o.kind == "flag":
                given[o.key] = False
            elif o.field()["value"]:
                given[o.key] = o.field()["value"]
    data, notes = gs.new_list.make(catalog, {**given, "name": name, "packs": packs})
    return NewList(gs, data, dump_list_yaml(data), catalog, notes)


def parse_opts(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` words (``daimyo new --opt``) as a mapping; a word without ``=`` or a key given
    twice is refused in one line."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not eq or not key:
            raise UsageError(L_("an option is KEY=VALUE, not '{pair}'", pair=pair), L_("e.g. scenario=siege"))
        if key in out:
            raise UsageError(L_("option '{key}' is given twice", key=key))
        out[key] = value
    return out


__all__ = ["NewList", "NewListRequest", "parse_opts", "start"]
