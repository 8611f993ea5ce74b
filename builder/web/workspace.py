"""The workspace: the folder ``daimyo serve`` shows, and the only place it reads or writes.

Every path a request names goes through :meth:`Workspace.resolve`, which refuses ``..``,
absolute paths, hidden folders (``.trash``), names that are not list files, and anything
that, once symbolic links are followed, leaves the folder. Packs named by a list are held
to the same rule before the list is loaded.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from builder.errors import DaimyoError, UsageError

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

    def to_json(self) -> dict:
        return {"path": self.path, "system": self.system, "name": self.name, "total": self.total,
                "verdict": self.verdict, "errors": self.errors, "warnings": self.warnings,
                "problem": self.problem}


def total_text(system: str, summary: dict) -> str:
    """The one-line total a person reads: ``380 / 400 AP``, ``46 cards``..."""
    from builder.systems import get

    return get(system).total_text(summary or {})



class Workspace:
    def __init__(self, root: str | os.PathLike):
        self.root = Path(root).resolve()
        if not self.root.is_dir():
            raise UsageError(f"{root}: not a folder", "give the folder that holds your list files")
        self._cache: dict[str, tuple[tuple, ListInfo]] = {}
        self._lock = threading.Lock()

    # -- paths -----------------------------------------------------------------------------

    def clean(self, rel: str) -> str:
        """A request's list path, checked as text: relative, no ``..``, no hidden part, a list suffix."""
        if not isinstance(rel, str) or not rel.strip():
            raise Refused("no list file named")
        if len(rel) > 512:
            raise Refused("file name too long")
        if _BAD_CHARS.search(rel):
            raise Refused("a file name may not hold control characters or any of \\ : * ? \" < > |")
        p = PurePosixPath(rel)
        if p.is_absolute() or rel.startswith("~"):
            raise Refused("absolute paths are not served; name a file inside the workspace", 403)
        parts = p.parts
        if any(part == ".." for part in parts):
            raise Refused("'..' is not allowed: only files inside the workspace are served", 403)
        if any(part.startswith(".") for part in parts):
            raise Refused("hidden files and folders (such as .trash) are not served", 403)
        if p.suffix.lower() not in LIST_SUFFIXES:
            raise Refused(f"'{rel}' is not a list file", hint="list files end in .yaml, .yml or .json")
        return str(p)

    def resolve(self, rel: str, must_exist: bool = True) -> Path:
        """The real path of a list inside the workspace; Refused otherwise."""
        rel = self.clean(rel)
        path = self.root / rel
        try:
            real = path.resolve()
        except (OSError, RuntimeError):
            raise Refused(f"'{rel}' cannot be opened", 404) from None
        if not self.inside(real):
            raise Refused(f"'{rel}' leads outside the workspace (a symbolic link); not served", 403)
        if must_exist and not real.is_file():
            raise Refused(f"no list '{rel}' in the workspace", 404)
        return path

    def inside(self, real: Path) -> bool:
        try:
            real.relative_to(self.root)
        except ValueError:
            return False
        return True

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def check_packs(self, path: Path, text: str | None = None, doc=None) -> None:
        """Refuse a list whose ``packs:`` name files outside the workspace (``doc``: the list
        already parsed, when it is)."""
        from builder.lists.document import parse_list
        from builder.yamlio import read_text

        if doc is None:
            if text is None:
                text = read_text(path, display=self.rel(path))
            try:
                doc = parse_list(text, self.rel(path), base_dir=path.parent)
            except DaimyoError:
                return  # the loader reports what is wrong; nothing is read from a pack
        for p in doc.packs:
            try:
                real = Path(p).resolve()
            except (OSError, RuntimeError):
                continue
            if not self.inside(real):
                raise Refused(f"the list names a pack outside the workspace ({Path(p).name}); not loaded", 403,
                              hint="copy the pack into the workspace folder and name it by a relative path")

    # -- listing ---------------------------------------------------------------------------

    def files(self) -> list[Path]:
        out: list[Path] = []
        root_depth = len(self.root.parts)
        for dirpath, dirnames, filenames in os.walk(self.root, followlinks=False):
            d = Path(dirpath)
            dirnames[:] = sorted(n for n in dirnames if not n.startswith(".") and n != "__pycache__"
                                 and len(d.parts) - root_depth < MAX_DEPTH)
            for name in sorted(filenames):
                if name.startswith(".") or Path(name).suffix.lower() not in LIST_SUFFIXES:
                    continue
                p = d / name
                try:
                    if not self.inside(p.resolve()):
                        continue
                except OSError:
                    continue
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
        from builder.check import check_doc
        from builder.lists.document import parse_list
        from builder.yamlio import read_text

        try:
            text = read_text(path, display=rel)
        except DaimyoError as exc:
            return ListInfo(rel, problem=_first_line(exc))
        head = text[:4000]
        if rel.split("/")[0] == "packs" or _PACK_KEYS.search(head) or not re.search(r"[\"']?system[\"']?\s*:", head):
            return None  # a pack file (in packs/, or with a pack's own keys), or a YAML file that is no list
        try:
            doc = parse_list(text, rel, base_dir=path.parent)
        except DaimyoError as exc:
            return ListInfo(rel, problem=_first_line(exc))
        info = ListInfo(rel, system=doc.system, name=doc.name, packs=tuple(self._own(doc.packs)))
        try:
            self.check_packs(path, text)
            res = check_doc(doc)
        except DaimyoError as exc:
            info.problem = _first_line(exc)
            return info
        except Exception as exc:  # noqa: BLE001 - one bad file must not break the page
            info.problem = f"cannot be checked: {type(exc).__name__}"
            return info
        from builder.web.guide import counts_shown

        info.errors, info.warnings = counts_shown(res, doc)
        info.verdict = "illegal" if info.errors else ("warnings" if info.warnings else "legal")
        info.total = total_text(doc.system, res.summary)
        return info

    def packs(self) -> list[dict]:
        """The pack files of the workspace: ``path``, ``system`` and ``name`` (from the pack's own
        keys), for the new-list form to offer."""
        out = []
        for p in self.files():
            rel = self.rel(p)
            try:
                head = p.read_text(encoding="utf-8", errors="replace")[:4000]
            except OSError:
                continue
            if not (rel.split("/")[0] == "packs" or _PACK_KEYS.search(head)):
                continue
            system = re.search(r"^[\"']?system[\"']?\s*:\s*[\"']?([\w-]+)", head, re.M)
            if system is None or self.info(p) is not None:  # no system, or a list after all
                continue
            name = re.search(r"^[\"']?name[\"']?\s*:\s*(.+?)\s*$", head, re.M)
            title = name.group(1).strip("\"'") if name else Path(rel).stem
            out.append({"path": rel, "system": system.group(1).lower(), "name": title})
        return out

    def _own(self, packs) -> list[str]:
        """Those of ``packs`` (resolved paths) inside the workspace, relative to it."""
        out = []
        for pk in packs:
            try:
                real = Path(pk).resolve()
            except (OSError, RuntimeError):
                continue
            if self.inside(real):
                out.append(real.relative_to(self.root).as_posix())
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
            raise Refused("give the new file a name", hint="e.g. my-army.yaml")
        if PurePosixPath(name).suffix.lower() not in LIST_SUFFIXES:
            stem = re.sub(r"[^\w\-. ]+", "", name, flags=re.UNICODE).strip().replace(" ", "-")
            if not stem:
                raise Refused(f"'{wanted}' is no usable file name", hint="e.g. my-army.yaml")
            name = stem + ".yaml"
        return self.clean(name)

    def create(self, rel: str, text: str, replace: bool = False) -> Path:
        from builder.yamlio import atomic_write

        path = self.resolve(rel, must_exist=False)
        if path.exists() and not replace:
            raise Refused(f"'{self.clean(rel)}' already exists; not overwritten", 409,
                          hint="choose another name")
        path.parent.mkdir(parents=True, exist_ok=True)
        if not self.inside(path.parent.resolve()):
            raise Refused("that folder leads outside the workspace", 403)
        atomic_write(str(path), text, force=True)
        return path

    def duplicate(self, rel: str, new_rel: str | None = None) -> str:
        src = self.resolve(rel)
        text = src.read_text(encoding="utf-8")
        if new_rel:
            target = self.new_name(new_rel)
        else:
            stem, suffix = src.stem, src.suffix
            parent = PurePosixPath(self.clean(rel)).parent
            n = 2
            while True:
                cand = str(parent / f"{stem}-copy{'' if n == 2 else '-' + str(n - 1)}{suffix}")
                if not (self.root / cand).exists():
                    break
                n += 1
            target = self.clean(cand)
        self.create(target, text)
        return target

    def rename(self, rel: str, new_rel: str) -> str:
        src = self.resolve(rel)
        target = self.new_name(new_rel)
        dst = self.resolve(target, must_exist=False)
        if dst.exists():
            raise Refused(f"'{target}' already exists; not overwritten", 409, hint="choose another name")
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dst)
        return target

    def delete(self, rel: str) -> str:
        """Move a list to ``.trash/`` (recoverable); returns where it went."""
        src = self.resolve(rel)
        trash = self.root / ".trash"
        trash.mkdir(exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        flat = self.clean(rel).replace("/", "__")
        dst = trash / f"{Path(flat).stem}.{stamp}{Path(flat).suffix}"
        n = 1
        while dst.exists():
            dst = trash / f"{Path(flat).stem}.{stamp}-{n}{Path(flat).suffix}"
            n += 1
        os.replace(src, dst)
        return dst.relative_to(self.root).as_posix()


def _first_line(exc: DaimyoError) -> str:
    lines = exc.lines()
    return lines[0] if lines else str(exc)
