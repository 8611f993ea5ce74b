"""Editing a pack entry by entry (what the web builder's pack editor calls).

An entry arrives as the text of each field, as a person types it in a form (or a spreadsheet
cell: the same conversion, ``builder.packs.sheet``); ``validate_entry`` says, field by field,
what is wrong, by the rules the catalog applies to the whole pack; ``save_entry`` writes the
entry into the pack's YAML with its comments kept, atomically, and refuses a file that changed
since it was read.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from builder import yamlio
from builder.catalog.packid import read_pack
from builder.errors import DaimyoError, Diagnostic, UsageError
from builder.i18n import L_
from builder.kit import edit
from builder.lists.editor import ListChangedError, ListEditor, folder_lock
from builder.names import loose
from builder.packs import sheet as sheets
from builder.packs.fields import entry_fields, sections
from builder.packs.sheet import Row, Sheet, dump_pack, sheet_to_pack, validate_sheet
from builder.packs.template import render_template
from builder.systems import get
from builder.yamlio import may_replace, read_text


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass
class Checked:
    """An entry checked: its data, the problems of each field, and the others."""

    entry: dict
    fields: dict = field(default_factory=dict)  # field -> message
    pack: dict | None = None  # the whole pack with the entry in it (when the entry could be built)
    other: list = field(default_factory=list)  # messages about the entry or the pack

    @property
    def ok(self) -> bool:
        return not self.fields and not self.other


def new_pack(path: str | Path, system: str, name: str) -> None:
    """Write a new pack (the commented template of ``daimyo pack new``); never over a file."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    text = render_template(system, name)
    # the name line plain (tools that read the top of a pack without a YAML parser see the name)
    text = re.sub(r"^(name: .*?)[ \t]+#.*$", r"\1", text, count=1, flags=re.M)
    yamlio.atomic_write(path, text, force=False)


def validate_entry(
    system: str, section: str, cells: dict, data: dict, original: str | None = None, assumed: str | None = None
) -> Checked:
    """Check the entry whose fields are ``cells`` (field -> text; empty text leaves the field
    out) as a member of the pack ``data``, replacing the entry named ``original`` if given.
    ``assumed``: written into an entry that gives neither ``source`` nor ``assumed`` (and is no
    change of a catalog entry), as a spreadsheet's rows get it."""
    if section not in sections(system):
        raise UsageError(
            L_("'{section}' is not a section of a {system} pack", section=section, system=system),
            L_("sections: {values}", values=", ".join(sections(system))),
        )
    names = [f.name for f in entry_fields(system, section)]
    cols = {}
    row_cells = {}
    for i, fname in enumerate(names, start=1):
        text = str(cells.get(fname) or "").strip()
        if text:
            row_cells[fname] = (text, i)
            cols[i] = fname
    label = "<entry>"
    sheet = Sheet(label, rows=[Row(section, 1, dict(row_cells))])
    made, diags, _ = sheet_to_pack(sheet, system, {}, assumed)
    out = Checked({})
    by_col = lambda d: cols.get(d.col)  # noqa: E731
    for d in diags:
        f = by_col(d)
        _add(out, f, d.message.split(": ", 1)[-1] if f else d.message, d.hint)
    entry = (made.get(section) or [{}])[0]
    out.entry = entry
    if out.fields or "name" not in entry:
        if "name" not in entry and "name" not in out.fields:
            out.fields["name"] = "every entry needs a name"
        return out
    whole = {k: (list(v) if isinstance(v, list) else v) for k, v in data.items()}
    entries = [
        e
        for e in whole.get(section) or []
        if not (isinstance(e, dict) and original is not None and _same(e.get("name"), original))
    ]
    if original is None or not _same(original, entry["name"]):
        if any(isinstance(e, dict) and _same(e.get("name"), entry["name"]) for e in entries):
            out.fields["name"] = f"the pack already has an entry '{entry['name']}'"
            return out
    index = len(entries)
    whole[section] = entries + [entry]
    out.pack = whole
    where = {(section, index): (label, sheet.rows[0])}
    try:
        validate_sheet(whole, where, sheet)
    except DaimyoError as exc:
        for d in exc.diagnostics:
            if d.file == label and d.line == 1:
                f = cols.get(d.col) if d.col != 1 or "name" in d.message.split(":", 1)[0] else None
                msg = d.message
                if msg.startswith(f"{section}."):
                    head, _, rest = msg.partition(": ")
                    f = f or head.split(".", 1)[1]
                    msg = rest
                _add(out, f, msg, d.hint)
            elif d.file == label:
                _add(out, None, d.message, d.hint)
            # a problem of another entry is not this entry's: the pack was already checked
    return out


def _add(out: Checked, f: str | None, message: str, hint: str | None) -> None:
    text = message + (f" ({hint})" if hint else "")
    if f:
        out.fields.setdefault(f, text)
    else:
        out.other.append(text)


def _same(a, b) -> bool:
    return isinstance(a, str) and isinstance(b, str) and loose(a) == loose(b)


def save_entry(path: str | Path, section: str, entry: dict, original: str | None, expected: str | None) -> str:
    """Write ``entry`` into the pack at ``path`` (replacing the one named ``original``), its
    comments kept; the new text. Refused when the file is not the text ``expected`` names."""

    def change(tree):
        _put(tree, section, [(entry, original)])

    return _edit(path, change, expected)


def _put(tree, section: str, entries: list[tuple[dict, str | None]]) -> None:
    """Put each ``(entry, original)`` into ``section`` of the pack's round-trip ``tree``: in the
    place of the entry named ``original`` when there is one, else at the end. The entries'
    names are looked up once (a sheet of many rows is linear in its size)."""
    seq = tree.get(section)
    if seq is not None and not isinstance(seq, list):
        raise UsageError(
            L_("the pack's '{section}' is not a list of entries; not changed", section=section),
            L_(
                "write it as a list: one '- name: ...' per entry under '{section}:', or '{section}: []'",
                section=section,
            ),
        )
    if not isinstance(seq, CommentedSeq):
        seq = CommentedSeq()
        tree[section] = seq
    if seq.fa.flow_style():
        seq.fa.set_block_style()
    at: dict[str, int] = {}
    for i, e in enumerate(seq):
        if isinstance(e, dict) and isinstance(e.get("name"), str):
            at.setdefault(loose(e["name"]), i)
    for entry, original in entries:
        item = CommentedMap()
        for k, v in entry.items():
            item[k] = v
        place = at.get(loose(original)) if isinstance(original, str) else None
        if place is not None:
            seq[place] = item
            continue
        seq.append(item)
        if isinstance(entry.get("name"), str):
            at.setdefault(loose(entry["name"]), len(seq) - 1)


def remove_entry(path: str | Path, section: str, name: str, expected: str | None) -> str:
    def change(tree):
        seq = tree.get(section) or []
        for i, e in enumerate(seq):
            if isinstance(e, dict) and _same(e.get("name"), name):
                del seq[i]
                return
        raise UsageError(L_("no entry '{name}' in {section}", name=name, section=section))

    return _edit(path, change, expected)


def _edit(path: str | Path, change, expected: str | None) -> str:
    p = Path(path)
    with folder_lock(p):
        text = read_text(p, "pack.yaml")
        if expected is not None and digest(text) != expected:
            raise ListChangedError(
                Diagnostic(
                    str(p),
                    0,
                    0,
                    L_("changed on disk since it was read; not overwritten"),
                    hint=L_("load it again and repeat the change"),
                )
            )
        y = edit.roundtrip_yaml()
        tree = y.load(text)
        change(tree)
        buf = io.StringIO()
        y.dump(tree, buf)
        new = buf.getvalue()
        may_replace(p)
        yamlio.atomic_write(p, new, force=True)
    return new


def import_into(
    path: str | Path, sheet_path: str | Path, expected: str | None, shown_name: str | None = None
) -> tuple[str, int]:
    """Add or replace the entries of a spreadsheet (``pack import``'s reading and checks) in
    the pack at ``path``; (new text, entries written). Every bad cell refuses the whole sheet;
    the pack is written once, atomically (all the rows or none), its comments kept.
    ``shown_name``: the sheet's name as the player knows it (an upload is read from a
    temporary file), for the ``assumed: from NAME`` of rows that say nothing of their source."""
    data, _ = read_pack(path)
    system = str(data.get("system", "")).strip().lower()
    shown = Path(shown_name or str(sheet_path)).name
    _, sheet_data = sheets.import_sheet(sheet_path, system, None, {"name": data.get("name")}, f"from {shown}")
    rows = [(section, entry) for section in sections(system) for entry in sheet_data.get(section) or []]

    def change(tree):
        for section in sections(system):
            mine = [(e, e.get("name")) for s, e in rows if s == section]
            if mine:
                _put(tree, section, mine)

    if not rows:
        return Path(path).read_text(encoding="utf-8"), 0
    return _edit(path, change, expected), len(rows)


def preview_png(
    pack_path: str | Path, system: str, name: str, dpi: float = 110, *, render_sides: Callable[..., tuple[list, Any]]
) -> bytes | None:
    """The card face of entry ``name`` as it prints (PNG), for a game that prints cards; None
    for a game whose entries are not printed as cards, or an entry a list cannot hold alone.
    ``render_sides`` is ``builder.render.images.render_sides``, given by the caller (printing
    is a library package above the packs)."""
    if get(system).sheet is not None:
        return None

    pack = str(Path(pack_path).resolve())
    try:
        ed, _ = ListEditor.new(system, pack_files=[pack], packs=[pack])
        ed.add(name)
        doc = ed.doc

        lst, _ = get(system).rules.load_list(doc, ed.catalog)
        fronts, _ = render_sides(doc, ed.catalog, lst, dpi=dpi, bleed=0)
    except DaimyoError:
        return None
    face = next((f for f in fronts if _same(f.name, name)), None)
    if face is None:
        return None
    buf = io.BytesIO()
    face.image.save(buf, "PNG")
    return buf.getvalue()


def preview_of(
    pack_path: str | Path, data: dict, name: str, *, render_sides: Callable[..., tuple[list, Any]]
) -> bytes | None:
    """``preview_png`` of a pack not saved yet (``data``), written for the moment beside the
    pack (so that its art is found) under a hidden name, and removed."""
    with unsaved(pack_path, data) as tmp:
        return preview_png(tmp, str(data.get("system", "")).strip().lower(), name, render_sides=render_sides)


@contextlib.contextmanager
def unsaved(pack_path: str | Path, data: dict):
    """The path of pack ``data`` (not saved yet) written for the moment beside ``pack_path``
    under a hidden name (so that its art is found); removed at the end of the block."""
    folder = Path(pack_path).parent
    fd, tmp = tempfile.mkstemp(suffix=".yaml", prefix=".preview-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(dump_pack(data))
        yield tmp
    finally:
        os.unlink(tmp)
