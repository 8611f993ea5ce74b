"""Where a pack named in a list or on the command line is found: the catalog loader merges the
packs it is given by name or path, and every command that names a pack finds it here.

A pack reference is either a path (``packs/my-cards.yaml``, relative to the list's folder,
or to the current folder on the command line) or a name (``my-cards``, or the name the
pack declares with ``name:``). The places searched, in order; the first hit wins:

1. the path as written, when that file exists;
2. the list's own folder: ``<list folder>/NAME.yaml`` and ``<list folder>/packs/NAME.yaml``
   (file names only);
3. the workspace: ``packs/`` in the current folder;
4. the user packs folder: ``DAIMYO_PACKS`` (several folders separated by the system's path
   separator) or else the platform's config folder (``$XDG_CONFIG_HOME/daimyo/packs``,
   ``~/.config/daimyo/packs``; ``%APPDATA%\\daimyo\\packs`` on Windows;
   ``~/Library/Application Support/daimyo/packs`` on macOS);
5. the example packs bundled with daimyo.

In the folders of 3-5 a pack is found by its file name (without ``.yaml``) or by the name it
declares (``name:``, or the older ``pack:``), matched without regard to case, spaces or
hyphens. When several packs for different systems carry the name, the one for the list's
system is taken. ``resolve_pack`` is the one function every command uses.

``NAME@VERSION`` names a version kept in the user packs folder (``.versions/``), found through
the record of installed versions (``.installed.json``) that ``builder.packs.store`` writes.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from builder import state
from builder.paths import display_path, examples_dir, is_file

PACK_SUFFIXES = (".yaml", ".yml", ".json")

WHERE_LABELS = {
    "path": "path as written",
    "list": "list's folder",
    "workspace": "workspace packs/",
    "user": "user packs folder",
    "bundled": "bundled example packs",
}


def user_pack_dirs() -> list[Path]:
    """The user packs folder(s): ``DAIMYO_PACKS`` or the platform's config folder."""
    env = os.environ.get("DAIMYO_PACKS")
    if env:
        return [Path(p).expanduser() for p in env.split(os.pathsep) if p.strip()]
    return [config_dir() / "packs"]


def config_dir() -> Path:
    """The platform's configuration folder for daimyo."""
    if sys.platform.startswith("win"):
        base = os.environ.get("APPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Roaming")
        return Path(base) / "daimyo"
    if sys.platform == "darwin":
        return Path(os.path.expanduser("~")) / "Library" / "Application Support" / "daimyo"
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "daimyo"


def install_dir() -> Path:
    """Where ``daimyo pack install`` copies packs: the first user packs folder."""
    return user_pack_dirs()[0]


def bundled_dir() -> Path:
    return examples_dir() / "packs"


_WORKSPACE: contextvars.ContextVar[Path | None] = contextvars.ContextVar("daimyo_workspace", default=None)


@contextlib.contextmanager
def in_workspace(folder: str | os.PathLike):
    """Within it, the workspace of step 3 is ``folder`` rather than the current folder (the web
    builder serves a folder it was not started in)."""
    token = _WORKSPACE.set(Path(folder))
    try:
        yield
    finally:
        _WORKSPACE.reset(token)


def workspace_dir() -> Path:
    """The workspace whose ``packs/`` folder is searched: the current folder, unless set."""
    return _WORKSPACE.get() or Path(".")


def search_dirs(base_dir: Path | None = None) -> list[tuple[str, Path]]:
    """The folders searched for a pack named without a path, in order: (where, folder)."""
    out: list[tuple[str, Path]] = []
    if base_dir is not None:
        out.append(("list", Path(base_dir)))
        out.append(("list", Path(base_dir) / "packs"))
    ws = _WORKSPACE.get()
    out.append(("workspace", ws / "packs" if ws is not None else Path("packs")))
    out.extend(("user", d) for d in user_pack_dirs())
    out.append(("bundled", bundled_dir()))
    seen, unique = set(), []
    for where, d in out:
        try:
            key = os.path.normcase(os.path.abspath(d))
        except (OSError, ValueError):
            continue
        if key not in seen:
            seen.add(key)
            unique.append((where, d))
    return unique


def name_key(name: str) -> str:
    """Case, spaces, underscores, hyphens and a ``.yaml`` ending do not matter in pack names."""
    text = str(name).strip()
    for suf in PACK_SUFFIXES:
        if text.lower().endswith(suf):
            text = text[: -len(suf)]
            break
    return re.sub(r"[\s_\-\u2010\u2011\u2013]+", "", text.lower())


def is_name(ref: str) -> bool:
    """True when ``ref`` names a pack rather than giving a path (no folder in it)."""
    return "/" not in ref and "\\" not in ref and ref not in ("", ".", "..")


@dataclass
class Header:
    """What the top of a pack file says about it (read without a YAML parser)."""

    name: str | None = None
    system: str | None = None
    version: str | None = None
    _named: bool = field(default=False, repr=False, compare=False)  # ``name:`` was read (it beats ``pack:``)


_TOP_KEY = re.compile(r"^(name|pack|system|version)[ \t]*:[ \t]*(.*?)[ \t]*$", re.M)
_HEADERS_MAX = 2001
_HEADERS: dict[tuple, Header] = state.cache(
    "packs.headers", bound=_HEADERS_MAX, lifetime=state.FILE, doc="pack file headers, by path and identity on disk"
)


def read_header(path: Path) -> Header:
    """The top-level ``name``/``pack``, ``system`` and ``version`` of a pack file (cheap, cached)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return Header()
    key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
    hit = _HEADERS.get(key)
    if hit is not None:
        return hit
    h = Header()
    try:
        with open(path, "rb") as fh:
            text = fh.read(65536).decode("utf-8", "replace")
    except OSError:
        text = ""
    if text.lstrip().startswith("{"):  # a JSON pack
        for k in ("name", "pack", "system", "version"):
            m = re.search(rf'"{k}"\s*:\s*"([^"]*)"', text)
            if m:
                _set(h, k, m.group(1))
    else:
        for m in _TOP_KEY.finditer(text):
            _set(h, m.group(1), _plain(m.group(2)))
    if len(_HEADERS) >= _HEADERS_MAX:
        _HEADERS.clear()
    _HEADERS[key] = h
    return h


def _set(h: Header, key: str, value: str | None) -> None:
    if not value:
        return
    if key == "name":  # ``name:`` is the pack's name; the older ``pack:`` counts when it is absent
        if not h._named:
            h.name, h._named = value, True
    elif key == "pack":
        if h.name is None:
            h.name = value
    elif key == "system":
        if h.system is None:
            h.system = value.strip().lower()
    elif key == "version":
        if h.version is None:
            h.version = value


def _plain(text: str) -> str | None:
    if text.startswith(("'", '"')):
        q = text[0]
        end = text.find(q, 1)
        return text[1:end] if end > 0 else None
    k = text.find(" #")
    if k >= 0:
        text = text[:k]
    text = text.strip()
    return text or None


def pack_files(folder: Path) -> list[Path]:
    """The pack files directly in ``folder`` (sorted; none when it does not exist)."""
    return [p for p, _ in _folder_index(folder)]


# folder -> (folder mtime, when read, [(file, name key of the file name)]); a folder is listed
# again when it changes, and at least every few seconds (a long-running process sees edits)
_FOLDERS_MAX = 201
_FOLDERS: dict[str, tuple] = state.cache(
    "packs.folders",
    bound=_FOLDERS_MAX,
    lifetime=state.FILE,
    doc="the pack files of a folder, while its modification time is the same and for a few seconds at most",
)
_FOLDER_TTL = 2.0


def _folder_index(folder: Path) -> list[tuple[Path, str]]:
    try:
        key = os.path.abspath(folder)
        stamp = os.stat(folder).st_mtime_ns
    except (OSError, ValueError):
        return []
    now = time.monotonic()
    hit = _FOLDERS.get(key)
    if hit is not None and hit[0] == stamp and now - hit[1] < _FOLDER_TTL:
        return hit[2]
    try:
        files = sorted(
            p
            for p in Path(folder).iterdir()
            if p.suffix.lower() in PACK_SUFFIXES and not p.name.startswith(".") and p.is_file()
        )
    except (OSError, ValueError):
        files = []
    items = [(p, name_key(p.name)) for p in files]
    if len(_FOLDERS) >= _FOLDERS_MAX:
        _FOLDERS.clear()
    _FOLDERS[key] = (stamp, now, items)
    return items


def _header_cached(path: Path) -> Header:
    """``read_header`` without a stat when the file was read in the last few seconds."""
    key = str(path)
    hit = _RECENT.get(key)
    now = time.monotonic()
    if hit is not None and now - hit[0] < _FOLDER_TTL:
        return hit[1]
    h = read_header(path)
    if len(_RECENT) >= _RECENT_MAX:
        _RECENT.clear()
    _RECENT[key] = (now, h)
    return h


_RECENT_MAX = 5001
_RECENT: dict[str, tuple] = state.cache(
    "packs.recent_headers",
    bound=_RECENT_MAX,
    lifetime=state.FILE,
    doc="pack headers read in the last few seconds, by path",
)


@dataclass
class Found:
    """One pack file found in the search folders."""

    path: Path
    where: str  # path, list, workspace, user, bundled
    folder: Path
    header: Header

    @property
    def where_label(self) -> str:
        return WHERE_LABELS[self.where]


def candidates(
    ref: str, base_dir: Path | None = None, system: str | None = None, names_only: bool = False, first: bool = False
) -> list[Found]:
    """Every pack ``ref`` could mean, best first (the first one is what ``resolve_pack`` takes).

    ``names_only``: ignore the path as written and the list's folder; look ``ref``'s name up
    in the packs folders only (for lists that arrive from elsewhere, such as share codes).
    ``first``: stop at the first folder that holds a pack that wins (what ``resolve_pack`` needs).
    """
    ref = str(ref)
    out: list[Found] = []
    if not names_only:
        p = Path(ref).expanduser()
        full = p if p.is_absolute() or base_dir is None else Path(base_dir) / p
        if is_file(full):
            out.append(Found(full, "path", full.parent, read_header(full)))
            if first:
                return out
    name = Path(ref.replace("\\", "/")).name if not is_name(ref) else ref
    key = name_key(name)
    if not key:
        return out
    for where, folder in search_dirs(None if names_only else base_dir):
        for f, file_key in _folder_index(folder):
            by_file = file_key == key
            if where == "list" and not by_file:
                continue  # the list's folder holds lists too: file names only
            h = _header_cached(f)
            if by_file or (h.name is not None and name_key(h.name) == key):
                if not any(os.path.samefile(f, o.path) for o in out if o.path.exists()):
                    out.append(Found(f, where, folder, h))
        if first and any(c.header.system in (None, system) or not system for c in out):
            break  # the rest of the folders cannot win
    if not out and "@" in name:  # NAME@VERSION: a version kept in the user packs folder
        out.extend(_kept_version(name, system))
    if system:
        # same place order, but a pack of another system never wins over one of this system
        out.sort(key=lambda c: 0 if c.header.system in (None, system) else 1)
    return out


def _kept_version(ref: str, system: str | None) -> list[Found]:
    """``NAME@VERSION``: that version of an installed pack, kept side by side with the one in use,
    so that a list can stay on the version it was made with."""
    name, version = split_ref(ref)
    if version is None:
        return []
    r = find_kept(name, version)
    if r is None or (system and r.game != system):
        return []
    path = install_dir() / r.file
    return [Found(path, "user", path.parent, read_header(path))]


# -- the versions kept in the user packs folder ----------------------------------------------------

VERSIONS = ".versions"  # every version installed: .versions/NAME/VERSION-HASH.yaml
RECORDS = ".installed.json"  # what each stored version is and where it came from


@dataclass
class Installed:
    """The record of one stored version of an installed pack."""

    name: str
    game: str
    version: str | None
    hash: str  # the content hash (sha256:...), as lists record it
    sha256: str  # of the file's bytes
    source: str
    file: str  # the stored copy, relative to the packs folder
    installed: str = ""
    origin: str | None = None  # the registry's index, or the folder of the address or file it came from

    def label(self) -> str:
        return self.name + (f" {self.version}" if self.version else "")


def kept_records() -> list[Installed]:
    """Every stored version recorded (an unreadable record file counts as none)."""
    path = install_dir() / RECORDS
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return [
            Installed(**cast("dict[str, Any]", {k: r.get(k) for k in Installed.__dataclass_fields__}))
            for r in data.get("versions", [])
            if isinstance(r, dict)
            and isinstance(r.get("name"), str)
            and isinstance(r.get("hash"), str)
            and _kept_file(r.get("file"))
        ]
    except (OSError, ValueError, TypeError, AttributeError):
        return []


def _kept_file(file) -> bool:
    """True for a record's ``file`` that names a file inside ``.versions/`` (a record file edited
    by hand or by another program can name no file elsewhere to read, replace or remove)."""
    if not isinstance(file, str):
        return False
    parts = file.replace("\\", "/").split("/")
    return len(parts) == 3 and parts[0] == VERSIONS and all(p not in ("", ".", "..") for p in parts) and ":" not in file


def find_kept(name: str, version: str | None = None, content: str | None = None) -> Installed | None:
    """A stored version of ``name``: by version, or by content hash (a prefix such as the
    ``sha256:`` + 16 digits lists record is enough); the newest stored when neither is given."""
    hits = [r for r in kept_records() if name_key(r.name) == name_key(name) and (install_dir() / r.file).is_file()]
    if content:
        hits = [r for r in hits if r.hash.startswith(content) or content.startswith(r.hash)]
    if version is not None:
        hits = [r for r in hits if r.version == version]
    return max(hits, key=lambda r: (version_key(r.version), r.installed or "")) if hits else None


def find_kept_by_hash(content: str) -> Installed | None:
    """The stored version (of any name) whose content hash starts with ``content``, the last recorded."""
    hits = [r for r in kept_records() if r.hash.startswith(content) and (install_dir() / r.file).is_file()]
    return hits[-1] if hits else None


def resolve_pack(
    ref: str, base_dir: Path | None = None, system: str | None = None, names_only: bool = False
) -> Path | None:
    """The pack file ``ref`` means (see the module's search order), or None."""
    try:
        found = candidates(ref, base_dir, system, names_only, first=True)
    except (OSError, ValueError):
        return None
    return found[0].path if found else None


def resolve_recorded(
    ref: str, data: dict, base_dir: Path | None = None, system: str | None = None, names_only: bool = False
) -> Path | None:
    """``resolve_pack``, then, for a list that records the packs it was checked with
    (``checked_with``), the pack by the name recorded for ``ref`` (a list received from another
    machine names its packs as the sender's files; the packs folders know them by name)."""
    found = resolve_pack(ref, base_dir, system, names_only)
    if found is not None:
        return found
    for e in (data.get("checked_with") if isinstance(data, dict) else None) or []:
        if isinstance(e, dict) and e.get("pack") == ref and isinstance(e.get("name"), str) and e["name"] != ref:
            return resolve_pack(e["name"], base_dir, system, names_only=True)
    return None


def not_found_hint(ref: str, base_dir: Path | None = None) -> str:
    """How to make ``ref`` findable (the same words wherever the packs folders are)."""
    where = f"the list's folder ({base_dir})" if base_dir is not None else "the current folder"
    return (
        f"not a path relative to {where} nor the name of a pack in the packs folders; "
        "'daimyo pack list' shows the packs found and where"
    )


def version_key(text: str | None) -> tuple:
    """A sort key for versions written as text: numbers compare as numbers (``1.10`` after
    ``1.9``), other text as text; a missing version sorts first."""
    if text is None:
        return ()
    parts = []
    for bit in re.findall(r"\d+|[^\d.\-_+ ]+", str(text).strip().lower()):
        parts.append((1, int(bit), "") if bit.isdigit() else (0, 0, bit))
    return tuple(parts)


def split_ref(ref: str) -> tuple[str, str | None]:
    """``NAME@VERSION`` -> (NAME, VERSION); ``NAME`` -> (NAME, None)."""
    if "@" in ref:
        name, _, version = ref.rpartition("@")
        if name.strip() and version.strip():
            return name.strip(), version.strip()
    return ref.strip(), None


def shown(path) -> str:
    """A pack's path for people: bundled packs by their name, not an installation path."""
    try:
        if Path(path).resolve().parent == bundled_dir().resolve():
            return f"(bundled) {Path(path).name}"
    except (OSError, RuntimeError):  # RuntimeError: a symbolic link loop (Python < 3.13)
        pass
    return display_path(path)
