"""Installed packs: every version kept side by side, the one in use, where each came from.

In the user packs folder (``builder.catalog.packfiles.install_dir``):

* ``NAME.yaml`` is the version in use (what lists and ``--pack NAME`` find);
* ``.versions/NAME/VERSION-HASH.yaml`` keeps every version installed, so that
  ``daimyo pack install NAME@VERSION`` brings an earlier one back without the network and
  ``daimyo check`` can say what a newer version changes for a list;
* ``.art/NAME/`` and ``.versions/NAME/.art/VERSION-HASH/`` hold the art of the pack beside them
  (``builder.catalog.packart``), each written as a temporary folder renamed into place;
* ``.installed.json`` records each stored version: name, game, version, content hash, the
  SHA-256 of its bytes, its source (registry file address, URL or file) and when.

Every file is written atomically, the stored version and its record before the file in use is
replaced, and under a lock on the folder: a process killed at any moment leaves the version in
use either the old one or the new one, whole.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from builder import yamlio
from builder.catalog.packart import ART_DIR
from builder.catalog.packfiles import (
    PACK_SUFFIXES,
    RECORDS,
    VERSIONS,
    Installed,
    find_kept,
    find_kept_by_hash,
    install_dir,
    kept_records,
    name_key,
    pack_files,
    read_header,
)
from builder.catalog.packid import PackId, pack_id, read_pack, short_hash
from builder.errors import DaimyoError, Diagnostic, UsageError
from builder.i18n import L_
from builder.yamlio import may_replace

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX (Windows): no file locks; the content checks still guard
    fcntl = None  # type: ignore[assignment]


def folder() -> Path:
    return install_dir()


def file_name(name: str) -> str:
    """The file name (without ``.yaml``) a pack named ``name`` is installed under."""
    text = re.sub(r"[^\w.-]+", "-", name.strip().lower(), flags=re.UNICODE).strip("-.")
    return text[:80] or "pack"


def active_paths(name: str) -> list[Path]:
    """The files of the packs folder that are pack ``name`` in use, whatever the spelling of the
    name (``name_key``: case, spaces, hyphens): by file name or by the ``name:`` inside. One,
    unless a file was copied in by hand or an older daimyo left one per spelling."""
    key = name_key(name)
    out = []
    try:
        files = sorted(
            p for p in folder().iterdir() if p.suffix.lower() in PACK_SUFFIXES and not p.name.startswith(".")
        )
    except (OSError, ValueError):
        return []
    for p in files:
        try:
            if not p.is_file():
                continue
            if name_key(p.name) == key or name_key(read_header(p).name or "") == key:
                out.append(p)
        except (OSError, ValueError, DaimyoError):
            continue
    return out


def active_path(name: str) -> Path:
    """The file pack ``name`` is in use as: the one there already (a new version whose name is
    spelt otherwise replaces it), else ``file_name(name).yaml``."""
    mine = folder() / f"{file_name(name)}.yaml"
    there = active_paths(name)
    return mine if mine in there or not there else there[0]


def records() -> list[Installed]:
    """Every stored version recorded (an unreadable record file counts as none)."""
    return kept_records()


def _write_records(items: list[Installed]) -> None:
    body = (
        json.dumps({"daimyo_installed": 1, "versions": [asdict(r) for r in items]}, indent=2, ensure_ascii=False) + "\n"
    )
    yamlio.atomic_write(folder() / RECORDS, body, force=True)


class locked:
    """An exclusive lock on the packs folder while it is changed (installs one after another)."""

    def __enter__(self):
        self.fd = None
        f = folder()
        try:
            f.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DaimyoError(
                Diagnostic(
                    str(f),
                    0,
                    0,
                    L_("cannot create the packs folder: {strerror}", strerror=exc.strerror),
                    hint=L_("set DAIMYO_PACKS to a folder you can write"),
                )
            ) from None
        try:
            if fcntl is None:
                raise OSError  # no file locks here: taken as a file system without them
            self.fd = os.open(f, os.O_RDONLY)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except OSError:
            if self.fd is not None:
                os.close(self.fd)
            self.fd = None
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)
        return False


def in_use(name: str) -> tuple[Installed | None, Path]:
    """The record of the version of ``name`` in use (None when the file in use is not a stored
    version: made or copied by hand) and the file in use."""
    path = active_path(name)
    if not path.is_file():
        return None, path
    try:
        h = pack_id(path).hash
    except DaimyoError:
        return None, path
    for r in records():
        if r.hash == h and name_key(r.name) == name_key(name):
            return r, path
    return None, path


def find(name: str, version: str | None = None, content: str | None = None) -> Installed | None:
    """A stored version of ``name`` (``builder.catalog.packfiles.find_kept``)."""
    return find_kept(name, version, content)


def find_by_hash(content: str) -> Installed | None:
    return find_kept_by_hash(content)


def stored_data(r: Installed) -> dict:
    return read_pack(folder() / r.file)[0]


def put_folder(files: dict[str, bytes], target: Path) -> None:
    """Write ``files`` ({relative path: bytes}) as the folder ``target``: into a temporary folder
    beside it, renamed into place whole (the folder there before, if any, replaced). No files:
    ``target`` is removed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=target.parent))
    try:
        for rel, data in files.items():
            if not _inside(rel):
                raise UsageError(f"art '{rel[:200]}' leads outside the pack's folder; nothing installed")
            f = tmp / rel
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_bytes(data)
            with open(f, "rb") as fh:
                os.fsync(fh.fileno())
        old = None
        if target.exists():
            old = target.with_name(f".old-{target.name}-{os.getpid()}")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(target, old)
        if files:
            os.replace(tmp, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _inside(rel: str) -> bool:
    parts = rel.replace("\\", "/").split("/")
    return bool(rel) and not rel.startswith("/") and ":" not in rel and all(p not in ("", ".", "..") for p in parts)


def art_of(pack: Path) -> Path:
    """The folder the art of a stored or in-use pack file is kept in (``.art/<stem>`` beside it)."""
    return pack.parent / ART_DIR / pack.stem


def read_art(pack: Path) -> dict[str, bytes]:
    """The files kept as the art of ``pack`` ({relative path: bytes})."""
    root = art_of(pack)
    if not root.is_dir():
        return {}
    return {f.relative_to(root).as_posix(): f.read_bytes() for f in sorted(root.rglob("*")) if f.is_file()}


def store(
    data: bytes,
    ident,
    game: str,
    sha256: str,
    source: str,
    origin: str | None = None,
    art: dict[str, bytes] | None = None,
) -> Installed:
    """Keep ``data`` (a checked pack) and its ``art`` as a stored version and record it (call
    under ``locked``); the art is in place before the pack file is."""
    rel = f"{VERSIONS}/{file_name(ident.name)}/{file_name(ident.version or 'none')}-{short_hash(ident.hash)}.yaml"
    target = folder() / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    if art or art_of(target).exists():
        put_folder(art or {}, art_of(target))
    if not target.is_file() or target.read_bytes() != data:
        yamlio.atomic_write(target, data, force=True)
    rec = Installed(
        name=ident.name,
        game=game,
        version=ident.version,
        hash=ident.hash,
        sha256=sha256,
        source=source,
        file=rel,
        installed=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        origin=origin,
    )
    items = [r for r in records() if r.file != rel]
    items.append(rec)
    _write_records(items)
    return rec


def activate(r: Installed) -> Path:
    """Make the stored version ``r`` the one in use (atomically; call under ``locked``)."""
    target = active_path(r.name)
    kept = folder() / r.file
    data = kept.read_bytes()
    if target.exists():
        may_replace(target)
    art = read_art(kept)
    if art or art_of(target).exists():
        put_folder(art, art_of(target))
    yamlio.atomic_write(target, data, force=True)
    for other in active_paths(r.name):  # another spelling left in use by an older install: not any more
        if other != target and _recorded(other):
            other.unlink(missing_ok=True)
    return target


def _recorded(path: Path) -> bool:
    """True when ``path`` holds a stored version (not a pack made or copied by hand)."""
    try:
        h = pack_id(path).hash
    except DaimyoError:
        return False
    return any(r.hash == h for r in records())


def remove(name: str, version: str | None = None) -> list[str]:
    """Remove a pack (or one stored version of it) from the packs folder; lines for people."""
    out = []
    with locked():
        current, path = in_use(name)
        keep, gone = [], []
        for r in records():
            if name_key(r.name) == name_key(name) and (version is None or r.version == version):
                gone.append(r)
            else:
                keep.append(r)
        if version is not None and not gone:
            raise UsageError(
                L_("pack '{name}' version {version} is not installed", name=name, version=version),
                L_("'daimyo pack list' shows what is"),
            )
        if version is None or (current is not None and current.version == version):
            every = active_paths(name) if version is None else []  # every spelling, by hand too: asked by name
            for p in every or [path]:
                if p.is_file():
                    p.unlink()
                    shutil.rmtree(art_of(p), ignore_errors=True)
                    out.append(f"removed {p}")
        if not gone and not out:
            raise UsageError(
                L_("pack '{name}' is not installed in {folder}", name=name, folder=folder()),
                L_("'daimyo pack list' shows the packs found"),
            )
        for r in gone:
            try:
                (folder() / r.file).unlink()
            except OSError:
                pass
            shutil.rmtree(art_of(folder() / r.file), ignore_errors=True)
            out.append(f"removed {r.label()} ({r.source})")
        _write_records(keep)
    return out


def installed_in_use() -> list[tuple[Installed | None, Path, PackId]]:
    """Each pack file in use in the packs folder: (its record or None, path, PackId)."""
    out: list[tuple[Installed | None, Path, PackId]] = []
    for p in pack_files(folder()):
        try:
            ident = pack_id(p)
        except DaimyoError:
            continue
        rec = next((r for r in records() if r.hash == ident.hash), None)
        out.append((rec, p, ident))
    return out
