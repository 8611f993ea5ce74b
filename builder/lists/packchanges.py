"""A list and the packs it uses: what a new version of a pack changes (entries added, removed and
changed, field by field) and which entries of a list that uses the pack are concerned; the lists
in a folder that use a pack; the packs a list records it was checked with (``checked_with``) and
what differs here from what it recorded."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder import state
from builder.catalog.packfiles import (
    bundled_dir,
    candidates,
    find_kept,
    find_kept_by_hash,
    install_dir,
    kept_records,
    resolve_pack,
    user_pack_dirs,
)
from builder.catalog.packid import pack_id, read_pack
from builder.errors import DaimyoError
from builder.lists.document import looks_like_pack
from builder.names import loose
from builder.paths import display_path
from builder.yamlio import parse_yaml, read_text

if TYPE_CHECKING:
    from pathlib import Path

    from builder.catalog.packid import PackId
    from builder.lists.document import ListDoc

# fields that say where an entry comes from rather than what it is
_QUIET = ("source", "assumed")


@dataclass
class EntryChange:
    section: str
    name: str
    kind: str  # added, removed, changed
    fields: dict = field(default_factory=dict)  # field -> (old, new)

    def text(self) -> str:
        if self.kind != "changed":
            return f"{self.name} {self.kind}"
        bits = [f"{k} {_show(a)} -> {_show(b)}" for k, (a, b) in self.fields.items()]
        return f"{self.name}: " + ", ".join(bits)


def _show(v: object) -> str:
    if v is None:
        return "(none)"
    if isinstance(v, (list, dict)):
        text = json.dumps(v, ensure_ascii=False)
    else:
        text = str(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _entries(data: dict) -> dict:
    out = {}
    for section, items in data.items():
        if not isinstance(items, list):
            continue
        for item in items:
            if isinstance(item, dict) and isinstance(item.get("name"), str):
                out[(section, loose(item["name"]))] = item
    return out


def pack_changes(old: dict, new: dict) -> list[EntryChange]:
    """Entry by entry, what ``new`` changes from ``old`` (two packs' data)."""
    a, b = _entries(old), _entries(new)
    out = []
    for key in list(a) + [k for k in b if k not in a]:
        section = key[0]
        if key not in b:
            out.append(EntryChange(section, a[key]["name"], "removed"))
        elif key not in a:
            out.append(EntryChange(section, b[key]["name"], "added"))
        else:
            diff = {
                k: (a[key].get(k), b[key].get(k))
                for k in dict.fromkeys([*a[key], *b[key]])
                if k not in _QUIET and a[key].get(k) != b[key].get(k)
            }
            if diff:
                out.append(EntryChange(section, b[key]["name"], "changed", diff))
    return out


def summary(changes: list[EntryChange]) -> str:
    counts = {k: sum(1 for c in changes if c.kind == k) for k in ("added", "removed", "changed")}
    return ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "no entry changes"


def names_in(data: Any) -> set[str]:
    """Every name a list document mentions (keys and text values), loosely compared."""
    out = set()

    def walk(v: object) -> None:
        if isinstance(v, dict):
            for k, x in v.items():
                if isinstance(k, str):
                    out.add(loose(k))
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            out.add(loose(v))

    walk({k: v for k, v in data.items() if k not in ("packs", "checked_with", "name", "notes", "author")})
    return out


def for_list(changes: list[EntryChange], list_data: dict) -> list[EntryChange]:
    """The changes that concern entries this list uses."""
    used = names_in(list_data)
    return [c for c in changes if c.kind != "added" and loose(c.name) in used]


# -- lists that use a pack ------------------------------------------------------------------------

LIST_DEPTH = 3
MAX_LISTS = 2000


def lists_in(paths: list[str]) -> list[Path]:
    """The list files among ``paths`` (files, and folders searched 3 deep, at most 2,000 files)."""

    out: list[Path] = []
    for given in paths:
        p = Path(given)
        if p.is_file():
            out.append(p)
            continue
        if not p.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(p):
            depth = len(Path(dirpath).relative_to(p).parts)
            dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "packs" and depth < LIST_DEPTH)
            for f in sorted(filenames):
                if f.lower().endswith((".yaml", ".yml", ".json")) and not f.startswith("."):
                    out.append(Path(dirpath) / f)
                    if len(out) >= MAX_LISTS:
                        return out
    return out


def lists_using(pack_path: Path, paths: list[str]) -> list[tuple[Path, dict]]:
    """The lists among ``paths`` whose packs include the file ``pack_path``: (file, data)."""

    out = []
    for f in lists_in(paths):
        try:
            data, _ = parse_yaml(read_text(f), str(f))
        except DaimyoError:
            continue
        if not isinstance(data, dict) or not isinstance(data.get("system"), str) or looks_like_pack(data):
            continue
        for ref in data.get("packs") or []:
            if not isinstance(ref, str):
                continue
            found = resolve_pack(ref, f.parent, data["system"])
            try:
                if found is not None and os.path.samefile(found, pack_path):
                    out.append((f, data))
                    break
            except OSError:
                continue
    return out


# -- a list and the packs it recorded ------------------------------------------------------------

HASH_DIGITS = 16  # of the content hash a list records


def short_hash(h: str | None) -> str:
    """A content hash as a list records it: ``sha256:`` and its first 16 digits."""
    return "sha256:" + (h or "").split(":", 1)[-1][:HASH_DIGITS]


_IDENTS_KEPT = 64
_IDENTS: dict[tuple, PackId] = state.cache(
    "lists.pack_ids",
    bound=_IDENTS_KEPT,
    lifetime=state.FILE,
    doc="a pack's identity, by its path and identity on disk (see ``_pack_id``)",
)


def _pack_id(path: Path) -> PackId:
    """``pack_id(path)``, kept while the file keeps its identity (device, inode, size, time of
    change): an edit session records the packs with every edit, and reads each pack once."""

    try:
        st = os.stat(path)
        key: tuple | None = (os.path.realpath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    except OSError:
        key = None
    if key is not None and key in _IDENTS:
        return _IDENTS[key]
    ident = pack_id(path)
    if key is not None:
        _IDENTS[key] = ident
        while len(_IDENTS) > _IDENTS_KEPT:
            del _IDENTS[next(iter(_IDENTS))]
    return ident


def checked_with(doc: dict, base_dir: Path, system: str | None = None) -> list[dict]:
    """One ``checked_with`` entry per pack of the list that is found here."""
    out = []
    for ref in doc.get("packs") or []:
        path = resolve_pack(ref, base_dir, system or doc.get("system"))
        if path is None:
            continue
        try:
            ident = _pack_id(path)
        except DaimyoError:
            continue
        entry = {"pack": ref, "name": ident.name}
        if ident.version:
            entry["version"] = ident.version
        entry["hash"] = short_hash(ident.hash)
        out.append(entry)
    return out


def list_drift(doc: ListDoc) -> list[str]:
    """For a list that records the packs it was checked with (``checked_with``): one line per pack
    that differs here, with what that changes for the list's entries and how to bring the
    recorded version back."""
    data = doc.data
    recorded = {str(e.get("pack")): e for e in data.get("checked_with") or [] if isinstance(e, dict)}
    out = []
    for ref in data.get("packs") or []:
        rec = recorded.get(str(ref))
        if not rec or not isinstance(rec.get("hash"), str):
            continue
        path = resolve_pack(str(ref), doc.base_dir, doc.system)
        if path is None:
            continue
        try:
            ident = pack_id(path)
        except DaimyoError:
            continue
        if ident.hash.startswith(rec["hash"]):
            continue
        name = rec.get("name") or ref
        was = f"'{name}'" + (f" version {rec['version']}" if rec.get("version") else "")
        now = f"version {ident.version}" if ident.version else "other content"
        hidden = _shadowed(str(ref), doc, rec["hash"])
        if hidden is not None:  # the recorded pack is here, behind another of the same name
            try:
                changes = pack_changes(read_pack(hidden)[0], read_pack(path)[0])
            except DaimyoError:
                changes = []
            mine = for_list(changes, data)
            what = "; ".join(c.text() for c in mine) if mine else "none of this list's entries changed"
            out.append(
                f"pack {was} recorded by this list is {_where(hidden)}, and {_where(path)} takes its place "
                f"({now}): {what}"
            )
            continue
        old = find_kept(str(name), content=rec["hash"]) or find_kept_by_hash(rec["hash"])
        head = f"pack {was} recorded by this list differs here ({now})"
        again = (
            f"'daimyo pack install \"{name}@{rec['version']}\"' brings it back"
            if rec.get("version")
            else "install the version it was made with to bring it back"
        )
        if old is None:
            out.append(f"{head}; what changed is not known here (that version is not installed); {again}")
            continue
        try:
            changes = pack_changes(read_pack(install_dir() / old.file)[0], read_pack(path)[0])
        except DaimyoError:
            continue
        mine = for_list(changes, data)
        what = "; ".join(c.text() for c in mine) if mine else "none of this list's entries changed"
        out.append(f"{head}: {what}; {again}")
    return out


def _shadowed(ref: str, doc: ListDoc, content: str) -> Path | None:
    """The pack file ``ref`` could mean, other than the one it resolves to, whose content is the
    one a list recorded (``content``: a hash prefix), or None."""
    try:
        found = candidates(ref, doc.base_dir, doc.system)
    except (OSError, ValueError):
        return None
    for c in found[1:]:
        try:
            if pack_id(c.path).hash.startswith(content):
                return c.path
        except DaimyoError:
            continue
    return None


def _where(path: str | os.PathLike) -> str:
    """A pack file for people: the bundled pack by its name, an installed one with its source."""
    p = Path(path)
    try:
        if p.resolve().parent == bundled_dir().resolve():
            return f"the pack bundled with daimyo ({p.name})"
        if p.resolve().parent == install_dir().resolve():
            h = pack_id(p).hash
            src = next((r.origin or r.source for r in kept_records() if r.hash == h), None)
            return f"the installed {display_path(p)}" + (f" from {src}" if src else "")
    except (OSError, RuntimeError, DaimyoError):
        pass
    return display_path(p)


def recorded_packs(data: dict, base_dir: Path, system: str | None) -> list | None:
    """The ``checked_with`` a list with packs should record now, or None when what it records is
    already right. Recorded: the packs it already records, and every pack found in the user packs
    folder (installed packs, which ``daimyo pack update`` may replace under the list); a pack
    file of the list's own folder or a bundled one is not added."""

    refs = [r for r in data.get("packs") or [] if isinstance(r, str)]
    if not refs:
        return None
    old = data.get("checked_with")
    before = {e.get("pack"): e for e in old or [] if isinstance(e, dict)}
    users = [os.path.realpath(d) for d in user_pack_dirs()]

    def installed(ref: str) -> bool:
        path = resolve_pack(ref, base_dir, system)
        return path is not None and os.path.dirname(os.path.realpath(path)) in users

    wanted = [r for r in refs if r in before or installed(r)]
    if not wanted:
        return None
    found = {e["pack"]: e for e in checked_with({"packs": wanted, "system": system}, base_dir, system)}
    new = [found.get(r) or before[r] for r in wanted if r in found or r in before]
    return None if new == old or not new else new


def recording_notes(old: Any, new: list) -> list[str]:
    """What recording ``new`` (a ``checked_with``) over ``old`` changes, for a person: one line per
    pack the list recorded that is another version (or other content) here now."""
    before = {str(e.get("pack")): e for e in old or [] if isinstance(e, dict)}
    out = []
    for e in new:
        was = before.get(str(e.get("pack")))
        if not was or was.get("hash") == e.get("hash"):
            continue
        if was.get("version") != e.get("version") and e.get("version"):
            what = f"version {e['version']}" + (f" (was version {was['version']})" if was.get("version") else "")
        else:
            what = "its content as it is here now (it changed since the list recorded it)"
        out.append(f"now checked with pack '{e.get('name') or e.get('pack')}' {what}")
    return out
