"""Checking, listing and installing packs (the library behind ``daimyo pack check|list|install``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from builder import SYSTEMS, yamlio
from builder.catalog.loader import build_catalog, catalog_files, load_catalog
from builder.catalog.packart import art_diagnostics, art_folder, art_refs
from builder.catalog.packfiles import WHERE_LABELS, install_dir, name_key, pack_files, search_dirs, shown
from builder.catalog.packid import PackId, read_pack, short_hash
from builder.errors import CatalogError, DaimyoError, Diagnostic, UsageError, option
from builder.i18n import L_
from builder.names import did_you_mean
from builder.packs import store
from builder.packs.fields import sections
from builder.packs.store import file_name
from builder.paths import display_path
from builder.yamlio import may_replace, read_text


@dataclass
class PackReport:
    ident: PackId
    system: str
    added: dict  # section -> count
    changed: dict  # section -> count

    def line(self, shown: str) -> str:
        parts = []
        for section in sorted(set(self.added) | set(self.changed)):
            a, c = self.added.get(section, 0), self.changed.get(section, 0)
            bits = [f"{a} added"] if a else []
            bits += [f"{c} changed"] if c else []
            parts.append(f"{section} {', '.join(bits)}")
        what = "; ".join(parts) or "no entries"
        version = f" version {self.ident.version}" if self.ident.version else ""
        return f"{shown}: ok, {self.system} pack '{self.ident.name}'{version} ({short_hash(self.ident.hash)}): {what}"

    def to_json(self, shown: str) -> dict:
        return {
            "file": shown,
            "system": self.system,
            **self.ident.to_json(),
            "added": self.added,
            "changed": self.changed,
        }


def check_pack(path: str | Path, parsed: tuple | None = None) -> PackReport:
    """Validate one pack with its system's catalog; CatalogError lists every problem.
    ``parsed`` = (data, positions): the pack already read (``path`` then only names it)."""
    data, pos = parsed if parsed is not None else read_pack(path)
    system = data.get("system")
    if not isinstance(system, str) or system.strip().lower() not in SYSTEMS:
        raise CatalogError(
            pos.diag(
                ("system",) if "system" in data else (),
                L_("pack names no known system ({system!r})", system=system)
                if "system" in data
                else L_("pack has no 'system:' key"),
                code="pack.system",
                hint=did_you_mean(str(system), SYSTEMS)
                or L_("add 'system:' with one of {values}", values=", ".join(SYSTEMS)),
            )
        )
    system = system.strip().lower()
    if parsed is not None:
        cat = build_catalog(system, catalog_files(system), parsed=((str(path), data, pos),))
    else:
        cat = load_catalog(system, [str(path)], use_cache=False)
    local = "://" not in str(path) and Path(path).is_file()
    if local and art_refs(data):
        problems = art_diagnostics(data, art_folder(path), display_path(path), pos)
        if problems:
            raise CatalogError(problems)
    base = load_catalog(system)
    added: dict[str, int] = {}
    changed: dict[str, int] = {}
    for section in sections(system):
        for item in data.get(section) or []:
            if not isinstance(item, dict):
                continue
            key = item.get("id") or item.get("name")
            hit = base.find_record(section, key) if isinstance(key, str) else None
            if hit is None and isinstance(item.get("name"), str):
                hit = base.find_record(section, item["name"])
            bucket = changed if hit is not None else added
            bucket[section] = bucket.get(section, 0) + 1
    del cat
    return PackReport(PackId.of(data, path), system, added, changed)


# -- the packs found -----------------------------------------------------------------------


@dataclass
class Listed:
    ident: PackId | None
    path: Path
    where: str
    error: str | None = None
    shadowed_by: Path | None = None


def list_packs(system: str | None = None, base_dir: Path | None = None) -> list[Listed]:
    """Every pack in the search folders, in search order; a later pack with the same name (and
    system) as an earlier one is shadowed by it."""
    out: list[Listed] = []
    winners: dict[tuple, Path] = {}
    for where, folder in search_dirs(base_dir):
        if where == "list":
            continue
        for f in pack_files(folder):
            try:
                data, _ = read_pack(f)
                ident = PackId.of(data, f)
                err = None
            except DaimyoError as exc:
                ident, err = None, exc.lines()[0]
            if ident is not None and system and ident.system != system:
                continue
            item = Listed(ident, f, where, err)
            if ident is not None:
                for key in {(name_key(ident.name), ident.system), (name_key(f.name), ident.system)}:
                    if key in winners and item.shadowed_by is None:
                        item.shadowed_by = winners[key]
                for key in {(name_key(ident.name), ident.system), (name_key(f.name), ident.system)}:
                    winners.setdefault(key, f)
            out.append(item)
    return out


# -- installing ----------------------------------------------------------------------------


def install_pack(
    path: str | Path, force: bool = False, dry_run: bool = False, art: dict[str, bytes] | None = None
) -> tuple[Path, str]:
    """Copy a valid pack into the user packs folder as ``<name>.yaml`` (``art``: its images, put
    beside it in ``.art/<name>/``); (target, what happened).

    An installed pack of the same name and the same content is left alone; one with other
    content is replaced only with ``force``.
    """
    report = check_pack(path)
    ident = report.ident
    folder = install_dir()
    target = folder / f"{_file_name(ident.name)}.yaml"
    text = read_text(path, "pack.yaml")
    old = None
    if target.is_file():
        try:
            old = PackId.of(read_pack(target)[0], target)
        except DaimyoError:
            old = None
    if old is not None and old.hash == ident.hash:
        return target, "already installed (same content)"
    if target.exists() and not force:
        what = f"version {old.version or '(none)'}" if old is not None else "a file"
        raise UsageError(
            f"{target} holds {what} of pack '{ident.name}'"
            + (" with other content" if old is not None and old.version == ident.version else ""),
            L_("pass {option} to replace it", option=option("force")),
        )
    if dry_run:  # checked and allowed: what would happen
        return target, "installed" if old is None else f"replaced version {old.version or '(none)'}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DaimyoError(
            Diagnostic(
                str(folder),
                0,
                0,
                L_("cannot create the packs folder: {strerror}", strerror=exc.strerror),
                hint=L_("set DAIMYO_PACKS to a folder you can write"),
            )
        ) from None

    may_replace(target)  # its old version was read above, to be named
    if art or store.art_of(target).exists():
        store.put_folder(art or {}, store.art_of(target))
    yamlio.atomic_write(target, text, force=True)
    if old is None:
        return target, "installed"
    return target, f"replaced version {old.version or '(none)'}"


def _file_name(name: str) -> str:
    return file_name(name)


__all__ = ["PackReport", "check_pack", "install_pack", "list_packs"]


def packs_json(items) -> list[dict]:
    """``daimyo pack list --format json``: each pack found, where, its identity and whether it wins."""
    return [
        {
            "file": shown(i.path),
            "where": i.where,
            **(i.ident.to_json() if i.ident else {}),
            "system": i.ident.system if i.ident else None,
            "wins": i.ident is not None and i.shadowed_by is None,
            **({"error": i.error} if i.error else {}),
            **({"shadowed_by": shown(i.shadowed_by)} if i.shadowed_by else {}),
        }
        for i in items
    ]


def format_pack_list(items) -> list[str]:
    """The lines of ``daimyo pack list``: the search order, then the packs found in each place."""
    lines = ["search order (first wins): the path as written, the list's folder, then:"]
    for n, (where, folder) in enumerate((w, d) for w, d in search_dirs(None)):
        label = "bundled with daimyo" if where == "bundled" else str(folder)
        lines.append(f"  {n + 1}. {WHERE_LABELS[where]}: {label}")
    if not items:
        lines.append("no packs found")
    current = None
    for i in items:
        if i.where != current:
            current = i.where
            lines.append(f"{WHERE_LABELS[i.where]}:")
        if i.ident is None:
            lines.append(f"  {shown(i.path)}: unreadable: {i.error}")
            continue
        state = f"shadowed by {shown(i.shadowed_by)}" if i.shadowed_by else "wins"
        lines.append(f"  {i.ident.label()} [{i.ident.system}] {short_hash(i.ident.hash)}  {shown(i.path)}  ({state})")
        if i.where == "user":
            lines.extend(_installed_lines(i.ident))
    return lines


def _installed_lines(ident) -> list[str]:
    """Where an installed pack came from and the other versions kept beside it."""
    recs = [r for r in store.records() if name_key(r.name) == name_key(ident.name)]
    lines = [f"      from {r.source}" for r in recs if r.hash == ident.hash][:1]
    kept = [r.version or "(no version)" for r in recs if r.hash != ident.hash]
    if kept:
        lines.append(
            f"      also kept: {', '.join(kept)} ('daimyo pack install \"{ident.name}@VERSION\"' puts one back)"
        )
    return lines
