"""The workspace: the folder ``daimyo serve`` shows, and the only place it reads or writes.

Every path a request names goes through :meth:`Workspace.resolve`, which refuses ``..``,
absolute paths, hidden folders (``.trash``), names that are not list files, and anything
that, once symbolic links are followed, leaves the folder. Packs named by a list are held
to the same rule before the list is loaded.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from builder.catalog.packfiles import (
    bundled_dir,
    in_workspace,
    name_key,
    pack_files,
    read_header,
    resolve_pack,
    search_dirs,
    user_pack_dirs,
)
from builder.check import check_doc
from builder.errors import DaimyoError, UsageError
from builder.findings import Summary
from builder.i18n import _
from builder.lists.collection import used_by
from builder.lists.document import parse_list, parse_plain
from builder.paths import within
from builder.systems import get
from builder.web.guide import counts_shown
from builder.yamlio import atomic_write, parse_yaml, read_bytes, read_text

LIST_SUFFIXES = (".yaml", ".yml", ".json")
MAX_DEPTH = 3  # folders below the workspace that are scanned for lists
MAX_LISTS = 2000
_PACK_KEYS = re.compile(r"^[\"']?(pack|version|example|description)[\"']?\s*:", re.M)
_BAD_CHARS = re.compile(r"[\x00-\x1f\x7f\\:*?\"<>|]")


class Refused(DaimyoError):
    """A request the server will not carry out (path outside the workspace, bad name...)."""

    def __init__(self, message: str, status: int = 400, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.hint = hint


@dataclass
class ListInfo:
    path: str  # relative to the workspace, with forward slashes
    system: str | None = None
    name: str | None = None
    total: str = ""
    verdict: str = "unreadable"  # legal, warnings, illegal, unreadable
    errors: int = 0
    warnings: int = 0
    problem: str | None = None  # why it cannot be read
    mtime: float = 0.0
    packs: tuple[str, ...] = ()  # the workspace's pack files it uses (relative to the workspace)
    # what it uses of each catalog entry, keyed (section, normalized name): the builder's
    # "used across the workspace" (builder.lists.collection.used_by)
    used: dict[tuple[str, str], int] | None = None

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "system": self.system,
            "name": self.name,
            "total": self.total,
            "verdict": self.verdict,
            "errors": self.errors,
            "warnings": self.warnings,
            "problem": self.problem,
        }


def total_text(system: str, summary: Summary | None) -> str:
    """The one-line total a person reads: ``380 / 400 AP``, ``46 cards``..."""

    return get(system).view.total_text(summary or {})


class Workspace:
    def __init__(self, root: str | os.PathLike):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise UsageError(
                _("{root}: not a folder").format(root=root), _("give the folder that holds your list files")
            )
        self._cache: dict[str, tuple[tuple, ListInfo | None]] = {}
        self._lock = threading.Lock()

    # -- paths -----------------------------------------------------------------------------

    def clean(self, rel: str) -> str:
        """A request's list path, checked as text: relative, no ``..``, no hidden part, a list suffix."""
        if not isinstance(rel, str) or not rel.strip():
            raise Refused(_("no list file named"))
        if len(rel) > 512:
            raise Refused(_("file name too long"))
        if _BAD_CHARS.search(rel):
            raise Refused(_('a file name may not hold control characters or any of \\ : * ? " < > |'))
        p = PurePosixPath(rel)
        if p.is_absolute() or rel.startswith("~"):
            raise Refused(_("absolute paths are not served; name a file inside the workspace"), 403)
        parts = p.parts
        if any(part == ".." for part in parts):
            raise Refused(_("'..' is not allowed: only files inside the workspace are served"), 403)
        if any(part.startswith(".") for part in parts):
            raise Refused(_("hidden files and folders (such as .trash) are not served"), 403)
        if p.suffix.lower() not in LIST_SUFFIXES:
            raise Refused(
                _("'{rel}' is not a list file").format(rel=rel), hint=_("list files end in .yaml, .yml or .json")
            )
        return str(p)

    def resolve(self, rel: str, must_exist: bool = True) -> Path:
        """The real path of a list inside the workspace; Refused otherwise."""

        rel = self.clean(rel)
        path = self.root / rel
        try:
            path.resolve()
        except (OSError, RuntimeError):
            raise Refused(_("'{rel}' cannot be opened").format(rel=rel), 404) from None
        real = within(self.root, rel)
        if real is None:
            raise Refused(_("'{rel}' leads outside the workspace (a symbolic link); not served").format(rel=rel), 403)
        if must_exist and not real.is_file():
            raise Refused(_("no list '{rel}' in the workspace").format(rel=rel), 404)
        return path

    def within(self, path: str | os.PathLike, what: str = "that path") -> Path:
        """The real path of ``path`` (relative to the workspace, or a path inside it), every
        symbolic link followed at any depth; Refused (403) when it resolves outside the workspace.
        Every file the server reads or writes goes through here (``builder.paths.within``)."""

        real = within(self.root, path)
        if real is None:
            try:
                (self.root / path).resolve()
            except (OSError, RuntimeError, ValueError):
                raise Refused(
                    _("{what} cannot be looked up (a symbolic link that leads back to itself?); not served").format(
                        what=what
                    ),
                    400,
                    hint=_("remove the link, or make it a folder"),
                ) from None
            raise Refused(
                _("{what} leads outside the workspace (a symbolic link); not served").format(what=what),
                403,
                hint=_("keep the file or folder itself inside the workspace folder, not a link to it"),
            )
        return real

    def inside(self, real: Path) -> bool:
        try:
            real.relative_to(self.root)
        except ValueError:
            return False
        return True

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def check_packs(self, path: Path, text: str | None = None, doc=None) -> None:
        """Refuse a list that spells out a path to a pack outside the workspace (``doc``: the
        list already parsed, when it is). A pack named by its name is found by the documented
        search order (the list's folder, the workspace's ``packs/``, the user packs folder, the
        bundled packs), as the command line finds it; the path a list writes is never followed
        out of the workspace: it is looked at (not read) before the list is loaded."""
        if doc is not None:
            refs = doc.data.get("packs")
        else:
            if text is None:
                text = read_text(path, display=self.rel(path))
            refs = _pack_refs(text, self.rel(path))
        if isinstance(refs, str):
            refs = [refs]
        for ref in refs if isinstance(refs, list) else []:
            if isinstance(ref, str) and ref.strip():
                self._check_ref(path.parent, ref)
        for found in doc.packs if doc is not None else []:
            self._check_found(found)

    def _check_ref(self, base: Path, ref: str) -> None:
        p = Path(ref.replace("\\", "/"))
        try:
            p = p.expanduser()
            full = p if p.is_absolute() else base / p
            there = os.path.lexists(full)
            real = full.resolve() if there else None
        except (OSError, RuntimeError, ValueError):
            return
        if real is not None and not self.inside(real):
            raise Refused(
                _("the list names a pack by a path outside the workspace ({name}); not loaded").format(name=p.name),
                403,
                hint=_("name the pack by its name (packs: [NAME]) or copy it into the workspace's packs folder"),
            )

    def _check_found(self, found: str) -> None:
        """A pack the search order found: inside the workspace, or in the user or bundled packs."""
        try:
            real = Path(found).resolve()
        except (OSError, RuntimeError):
            return
        if self.inside(real) or any(_under(real, d) for d in _pack_folders()):
            return
        raise Refused(
            _("the list names a pack outside the workspace ({name}); not loaded").format(name=real.name),
            403,
            hint=_("name the pack by its name (packs: [NAME]) or copy it into the workspace's packs folder"),
        )

    def pack_ref(self, file: Path, list_rel: str, system: str) -> str:
        """How a new list ``list_rel`` names the pack ``file``: by its name (the file name without
        ``.yaml``, else the name it declares) when the search order finds that very file from the
        list's folder, as the command line writes it; else by its path relative to the list."""

        here = (self.root / list_rel).parent
        names = [Path(file).stem]
        declared = read_header(Path(file)).name
        if declared:
            names.append(declared)
        with self.packs_here():
            for name in names:
                hit = resolve_pack(name, here, system)
                try:
                    if hit is not None and os.path.samefile(hit, file):
                        return name
                except OSError:
                    continue
        return Path(os.path.relpath(file, here)).as_posix()

    def packs_here(self):
        """The pack search order with this workspace's ``packs/`` folder as step 3."""

        return in_workspace(self.root)

    # -- listing ---------------------------------------------------------------------------

    def files(self) -> list[Path]:

        out: list[Path] = []
        root_depth = len(self.root.parts)
        for dirpath, dirnames, filenames in os.walk(self.root, followlinks=False):
            d = Path(dirpath)
            dirnames[:] = sorted(
                n
                for n in dirnames
                if not n.startswith(".") and n != "__pycache__" and len(d.parts) - root_depth < MAX_DEPTH
            )
            for name in sorted(filenames):
                if name.startswith(".") or Path(name).suffix.lower() not in LIST_SUFFIXES:
                    continue
                p = d / name
                if within(self.root, p) is None:
                    continue  # a link out of the workspace (or a name that cannot be looked up)
                out.append(p)
                if len(out) >= MAX_LISTS:
                    return out
        return out

    def info(self, path: Path) -> ListInfo | None:
        """What the workspace page shows of one file (None: not a list, e.g. a pack)."""
        rel = self.rel(path)
        try:
            st = path.stat()
        except OSError:
            return None
        key = (st.st_size, st.st_mtime_ns)
        with self._lock:
            hit = self._cache.get(rel)
        if hit is not None and hit[0] == key:
            return hit[1]
        info = self._read_info(path, rel)
        if info is not None:
            info.mtime = st.st_mtime
        with self._lock:
            self._cache[rel] = (key, info)
        return info

    def _read_info(self, path: Path, rel: str) -> ListInfo | None:

        try:
            text = read_text(path, display=rel)
        except DaimyoError as exc:
            return ListInfo(rel, problem=_first_line(exc))
        head = text[:4000]
        if rel.split("/")[0] == "packs" or _PACK_KEYS.search(head) or not re.search(r"[\"']?system[\"']?\s*:", head):
            return None  # a pack file (in packs/, or with a pack's own keys), or a YAML file that is no list
        try:
            self.check_packs(path, text)  # before anything a list names is looked at
            with self.packs_here():
                doc = parse_list(text, rel, base_dir=path.parent)
        except DaimyoError as exc:
            return ListInfo(rel, problem=_first_line(exc))
        info = ListInfo(rel, system=doc.system, name=doc.name, packs=tuple(self._own(doc.packs)))
        try:
            self.check_packs(path, text, doc)
            with self.packs_here():
                res = check_doc(doc)
        except DaimyoError as exc:
            info.problem = _first_line(exc)
            return info
        except Exception as exc:
            info.problem = f"cannot be checked: {type(exc).__name__}"
            return info

        try:
            info.used = {k: u.count for k, u in used_by(doc, doc.loaded[1]).items()} if doc.loaded else {}
        except DaimyoError:
            info.used = {}
        info.errors, info.warnings = counts_shown(res, doc)
        info.verdict = "illegal" if info.errors else ("warnings" if info.warnings else "legal")
        info.total = total_text(doc.system, res.summary)
        return info

    def packs(self) -> list[dict]:
        """The packs a new list may use, for the new-list form: the pack files of the workspace
        (``path``: relative to it), then the user's and the bundled packs that no pack before
        them shadows (``path``: ``@user/FILE``, ``@bundled/FILE``); each with ``system``,
        ``name`` (from the pack's own keys) and ``file`` (its real path)."""

        out = []
        for p in self.files():
            rel = self.rel(p)
            try:
                head = _head(p)
            except DaimyoError:
                continue  # a pipe, a device, a file over the size limit: never read
            if not (rel.split("/")[0] == "packs" or _PACK_KEYS.search(head)):
                continue
            system = re.search(r"^[\"']?system[\"']?\s*:\s*[\"']?([\w-]+)", head, re.M)
            if system is None or self.info(p) is not None:  # no system, or a list after all
                continue
            name = re.search(r"^[\"']?name[\"']?\s*:\s*(.+?)\s*$", head, re.M)
            title = name.group(1).strip("\"'") if name else Path(rel).stem
            out.append({"path": rel, "system": system.group(1).lower(), "name": title, "file": str(p.resolve())})
        taken = {(name_key(Path(o["path"]).name), o["system"]) for o in out} | {
            (name_key(o["name"]), o["system"]) for o in out
        }
        with self.packs_here():
            folders = [(w, d) for w, d in search_dirs(None) if w in ("user", "bundled")]
        for where, folder in folders:
            for f in pack_files(folder):
                try:
                    h = read_header(f)
                except (OSError, DaimyoError):
                    continue
                if not h.system:
                    continue
                sys_id = h.system.lower()
                keys = {(name_key(f.name), sys_id)} | ({(name_key(h.name), sys_id)} if h.name else set())
                if keys & taken:
                    continue  # shadowed by a pack found before it
                taken |= keys
                out.append(
                    {"path": f"@{where}/{f.name}", "system": sys_id, "name": h.name or f.stem, "file": str(f.resolve())}
                )
        return out

    def _own(self, packs) -> list[str]:
        """The real paths of ``packs`` (the paths a list's packs resolved to)."""
        out = []
        for pk in packs:
            try:
                out.append(str(Path(pk).resolve()))
            except (OSError, RuntimeError):
                continue
        return out

    def used(self, system: str) -> dict[tuple[str, str], int]:
        """What the lists of ``system`` in the workspace use together of each catalog entry, keyed
        (section, normalized name)."""
        out: dict[tuple[str, str], int] = {}
        for info in self.lists():
            if info.system != system or not info.used:
                continue
            for k, n in info.used.items():
                out[k] = out.get(k, 0) + n
        return out

    def lists(self) -> list[ListInfo]:
        out = []
        for p in self.files():
            i = self.info(p)
            if i is not None:
                out.append(i)
        return out

    # -- file operations -------------------------------------------------------------------

    def new_name(self, wanted: str) -> str:
        """A list file name from what a person typed: ``My army`` -> ``my-army.yaml``."""
        name = (wanted or "").strip()
        if not name:
            raise Refused(_("give the new file a name"), hint=_("e.g. my-army.yaml"))
        if PurePosixPath(name).suffix.lower() not in LIST_SUFFIXES:
            stem = re.sub(r"[^\w\-. ]+", "", name, flags=re.UNICODE).strip().replace(" ", "-")
            if not stem:
                raise Refused(_("'{wanted}' is no usable file name").format(wanted=wanted), hint=_("e.g. my-army.yaml"))
            name = stem + ".yaml"
        return self.clean(name)

    def create(self, rel: str, text: str, replace: bool = False) -> Path:
        """Write a new list file. Without ``replace`` the file is created exclusively: of two
        requests for one name exactly one succeeds, the other is refused (409)."""

        path = self.resolve(rel, must_exist=False)
        exists = Refused(
            _("'{file}' already exists; not overwritten").format(file=self.clean(rel)),
            409,
            hint=_("choose another name"),
        )
        if os.path.lexists(path) and not replace:
            raise exists
        self.make_folder(path.parent)
        try:
            atomic_write(str(path), text, force=replace)
        except DaimyoError:
            if not replace and os.path.lexists(path):
                raise exists from None  # it appeared meanwhile: linked in exclusively, so refused
            raise
        return path

    def create_free(self, names: list[str], text: str) -> str:
        """Create the first of ``names`` that is free (exclusively: a name taken meanwhile is
        skipped, never replaced); returns it."""
        for rel in names:
            try:
                self.create(rel, text)
            except Refused as exc:
                if exc.status == 409:
                    continue
                raise
            return rel
        raise Refused(_("no free file name left for the copy"), 409, hint=_("choose a name"))

    def make_folder(self, folder: Path) -> None:
        """Make the folders of a new list: at most MAX_DEPTH below the workspace (deeper ones
        would not be shown), never outside it."""
        try:
            depth = len(folder.relative_to(self.root).parts)
        except ValueError:
            raise Refused(_("that folder leads outside the workspace"), 403) from None
        if depth > MAX_DEPTH:
            raise Refused(
                _("lists are kept at most {n} folders deep in the workspace").format(n=MAX_DEPTH),
                400,
                hint=_("choose a shorter path"),
            )
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise Refused(_("cannot make the folder: {reason}").format(reason=exc.strerror or exc), 409) from None
        if not self.inside(folder.resolve()):
            raise Refused(_("that folder leads outside the workspace"), 403)

    def duplicate(self, rel: str, new_rel: str | None = None) -> str:

        src = self.resolve(rel)
        text = read_text(src, display=self.clean(rel))
        if new_rel:
            target = self.new_name(new_rel)
            self.create(target, text)
            return target
        stem, suffix = src.stem, src.suffix
        parent = PurePosixPath(self.clean(rel)).parent
        return self.create_free(
            [
                self.clean(str(parent / f"{stem}-copy{'' if n == 2 else '-' + str(n - 1)}{suffix}"))
                for n in range(2, 2 + MAX_LISTS)
            ],
            text,
        )

    def rename(self, rel: str, new_rel: str) -> str:
        src = self.resolve(rel)
        target = self.new_name(new_rel)
        dst = self.resolve(target, must_exist=False)
        taken = Refused(
            _("'{target}' already exists; not overwritten").format(target=target), 409, hint=_("choose another name")
        )
        if os.path.lexists(dst):
            raise taken
        self.make_folder(dst.parent)
        try:
            moved = move_noreplace(src, dst)
        except FileNotFoundError:
            raise Refused(_("no list '{file}' in the workspace").format(file=self.clean(rel)), 404) from None
        except OSError as exc:
            raise Refused(_("cannot rename: {reason}").format(reason=exc.strerror or exc), 409) from None
        if not moved:
            raise taken
        return target

    def delete(self, rel: str) -> str:
        """Move a list to ``.trash/`` (recoverable); returns where it went."""
        src = self.resolve(rel)
        trash = self.within(".trash", "the workspace's .trash folder")
        trash.mkdir(exist_ok=True)
        trash = self.within(".trash", "the workspace's .trash folder")  # a link put there meanwhile
        stamp = time.strftime("%Y%m%d-%H%M%S")
        flat = self.clean(rel).replace("/", "__")
        for n in range(MAX_LISTS * 10):
            dst = trash / f"{Path(flat).stem}.{stamp}{'-' + str(n) if n else ''}{Path(flat).suffix}"
            try:
                moved = move_noreplace(src, dst)  # a trash name taken meanwhile is never replaced
            except FileNotFoundError:
                raise Refused(_("no list '{file}' in the workspace").format(file=self.clean(rel)), 404) from None
            if moved:
                return f".trash/{dst.name}"
        raise Refused(_("the workspace's .trash folder is full for this name"), 409, hint=_("empty .trash"))


def _pack_refs(text: str, file: str) -> list:
    """The ``packs:`` a list's text names, read without looking any of them up ([] when the
    text is no list: the loader says why)."""

    if "packs" not in text:
        return []
    try:
        parsed = parse_plain(text, file) or parse_yaml(text, file)
    except DaimyoError:
        return []
    data = parsed[0]
    refs = data.get("packs") if isinstance(data, dict) else None
    return [refs] if isinstance(refs, str) else refs if isinstance(refs, list) else []


def _pack_folders() -> list[Path]:

    out = []
    for d in [*user_pack_dirs(), bundled_dir()]:
        try:
            out.append(Path(d).resolve())
        except (OSError, RuntimeError):
            continue
    return out


def _under(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def _head(path: Path) -> str:
    """The first 4,000 characters of a file, read as every file of the server is (a regular
    file within the size limit, else DaimyoError)."""

    return read_bytes(path).decode("utf-8", errors="replace")[:4000]


_RENAME_NOREPLACE = 1


def _renameat2():

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_RENAMEAT2 = _renameat2() if os.name == "posix" else None


def move_noreplace(src: Path, dst: Path) -> bool:
    """Move ``src`` to ``dst`` unless ``dst`` exists at that moment (False then): the system's
    rename-without-replace where there is one, else a hard link (exclusive) and an unlink."""

    if _RENAMEAT2 is not None:
        at_fdcwd = -100
        if _RENAMEAT2(at_fdcwd, os.fsencode(src), at_fdcwd, os.fsencode(dst), _RENAME_NOREPLACE) == 0:
            return True
        err = ctypes.get_errno()
        if err == errno.EEXIST:
            return False
        if err not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
            raise OSError(err, os.strerror(err), str(src))
    try:
        os.link(src, dst, follow_symlinks=False)
    except FileExistsError:
        return False
    os.unlink(src)
    return True


def _first_line(exc: DaimyoError) -> str:
    lines = exc.lines()
    return lines[0] if lines else str(exc)
