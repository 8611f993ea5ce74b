"""YAML reading with a line and column for every value.

``parse_yaml`` composes the node graph (fast, no round-trip objects) and turns it
into plain Python data plus a ``Positions`` map from value paths (tuples of keys
and indexes) to 1-based line and column. Errors become diagnostics, never
tracebacks. Comment-preserving edits use ``builder.kit.edit`` instead.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from builder.errors import DaimyoError, Diagnostic, WouldOverwrite, option
from builder.i18n import L_
from builder.limits import MAX_FILE_BYTES
from builder.yamlpos import Positions

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX (Windows): no file locks; the content checks still guard
    fcntl = None  # type: ignore[assignment]


def _parser() -> ModuleType:
    """``builder.yamlparse``, imported when a text is first parsed (it brings the YAML library)."""
    from builder import yamlparse  # noqa: PLC0415 - the YAML library only when YAML is parsed; `daimyo catalog list` reads the cache without it

    return yamlparse


def parse_yaml(
    text: str, file: str = "<string>", code: str | None = None, max_entries: int | None = None
) -> tuple[Any, Positions]:
    """Parse one YAML document into plain data and positions; raise DaimyoError on syntax errors.
    ``max_entries``: refuse, before building it, a document with more entries (``entries_over``)."""
    result: tuple[Any, Positions] = _parser().parse_yaml(text, file, code, max_entries)
    return result


def entries_over(text: str, limit: int, values: int | None = None) -> bool:
    """Whether the YAML document ``text`` holds more than ``limit`` entries (values directly in
    the collections of its top-level mapping) or, with ``values``, more than that many values in all."""
    return bool(_parser().entries_over(text, limit, values))


def _identity(st) -> tuple:
    return (st.st_dev, st.st_ino)


# While a command runs (``begin_command``): the files it has read (device and inode), never
# replaced by one of its outputs, and the files it reads to write back (edits), locked from
# reading to writing back. A long-running process (the web server, a library user) tracks
# nothing: there the editor's own check of the file on disk guards its saves.
_TRACK = False
_READ: set = set()
_EDITING: dict = {}  # real path -> (the path as given, the locked file descriptor or None)


def begin_command(track: bool = True) -> None:
    """Start (or, with ``track=False``, stop) tracking the reads of one command; forget the
    files read by an earlier command and release its locks."""
    global _TRACK
    _READ.clear()
    for _, fd in list(_EDITING.values()):
        _unlock(fd)
    _EDITING.clear()
    _TRACK = track


def read_bytes(
    path: str | os.PathLike, code: str | None = None, display: str | None = None, limit: int | None = None
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (MAX_FILE_BYTES). A device, a pipe
    or a folder is refused without reading (a FIFO would block, /dev/zero never ends)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    name = display or str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise DaimyoError(Diagnostic(name, 0, 0, L_("file not found"), code=code, hint=L_("check the path"))) from None
    except IsADirectoryError:
        raise DaimyoError(Diagnostic(name, 0, 0, L_("is a folder, not a file"), code=code)) from None
    except (OSError, ValueError) as exc:
        raise DaimyoError(
            Diagnostic(name, 0, 0, L_("cannot read: {value}", value=getattr(exc, "strerror", None) or exc), code=code)
        ) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise DaimyoError(Diagnostic(name, 0, 0, L_("is a folder, not a file"), code=code))
        if not stat.S_ISREG(st.st_mode):
            raise DaimyoError(
                Diagnostic(
                    name,
                    0,
                    0,
                    L_("is not a regular file (a device or a pipe); not read"),
                    code=code,
                    hint=L_("give the name of a file"),
                )
            )
        if st.st_size > limit:
            raise DaimyoError(
                Diagnostic(
                    name,
                    0,
                    0,
                    L_("file too large: {st_size:,} bytes (at most {limit:,})", st_size=st.st_size, limit=limit),
                    code=code,
                    hint=L_("split it into smaller files"),
                )
            )
        chunks, total = [], 0
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:  # pragma: no cover - regular files do not block
                continue
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # the file grew while being read
                raise DaimyoError(
                    Diagnostic(
                        name,
                        0,
                        0,
                        L_("file too large: over {limit:,} bytes", limit=limit),
                        code=code,
                        hint=L_("split it into smaller files"),
                    )
                )
        if _TRACK:
            _READ.add(_identity(st))
        return b"".join(chunks)
    except OSError as exc:
        raise DaimyoError(
            Diagnostic(name, 0, 0, L_("cannot read: {value}", value=exc.strerror or exc), code=code)
        ) from None
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike, code: str | None = None, display: str | None = None) -> str:
    """Read a UTF-8 regular file (size-limited); a missing, unreadable or special file is a
    diagnostic."""
    name = display or str(path)
    data = read_bytes(path, code, display)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = exc.object[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise DaimyoError(
            Diagnostic(name, line, col, L_("not UTF-8 text"), code=code, hint=L_("save the file as UTF-8"))
        ) from None


# -- editing a file in place: a lock, and a check that nothing changed meanwhile --------------

LOCK_WAIT_SECONDS = 30.0


def _unlock(fd) -> None:
    if fd is None:
        return
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError:
        pass
    try:
        os.close(fd)
    except OSError:
        pass


def _lock(path: str, name: str):
    """An exclusive lock on the file now at ``path`` (waiting for another daimyo editing it),
    as a descriptor, or None where the system has no locks."""
    if fcntl is None:  # pragma: no cover - Windows: the unchanged-content check still holds
        return None
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None  # read_bytes below says what is wrong
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise DaimyoError(
                            Diagnostic(
                                name,
                                0,
                                0,
                                L_("another program is editing this file"),
                                hint=L_("try again when it has finished"),
                            )
                        ) from None
                    time.sleep(0.005)
                except OSError:  # a file system without locks
                    os.close(fd)
                    return None
            try:
                same = _identity(os.fstat(fd)) == _identity(os.stat(path))
            except OSError:
                same = False
            if same:
                return fd
            # the file was replaced while waiting (an edit finished): lock the new one
        except BaseException:
            _unlock(fd)
            raise
        _unlock(fd)


def read_for_edit(path: str | os.PathLike, code: str | None = None, display: str | None = None) -> str:
    """Read a file that this command will write back (``daimyo add``, ``set``, an editor).

    It may be written back although it is an input, and during a command it stays locked until
    it is written back (or the command ends): two edits of one file run one after the other, the
    second reading what the first wrote, so neither is lost."""
    target = os.path.realpath(path)  # a symbolic link: the file it points to is edited
    name = display or str(path)
    held = _EDITING.get(target)
    if held is not None and held[1] is not None:
        fd = held[1]  # this process holds the lock already (an edit read the file again)
    else:
        fd = _lock(target, name) if _TRACK else None
    try:
        text = read_text(target, code, name)
    except BaseException:
        if held is None or held[1] != fd:
            _unlock(fd)
        raise
    _EDITING[target] = (str(path), fd)
    return text


def may_replace(path: str | os.PathLike) -> None:
    """Declare that this command replaces ``path`` on purpose although it read it (a pack
    installed again over its older version)."""
    real = os.path.realpath(path)
    _EDITING.setdefault(real, (str(path), None))


def load_yaml(
    path: str | os.PathLike, code: str | None = None, max_entries: int | None = None
) -> tuple[Any, Positions]:
    return parse_yaml(read_text(path, code), str(path), code, max_entries=max_entries)


def _refuse(p, message: str, hint: str | None = None):
    raise DaimyoError(Diagnostic(str(p), 0, 0, message, hint=hint))


def refuse_folder_name(path) -> None:
    """An output named 'newdir/' names a folder even when it does not exist yet: refused (no
    --force can help)."""
    if isinstance(path, str) and path.endswith(("/", os.sep)):
        _refuse(
            path,
            "names a folder (it ends with '/'), not a file",
            f"give a file name, such as {path.rstrip('/' + os.sep) or '.'}/NAME",
        )


def refuse_output(path, force: bool = False) -> None:
    """Before an output is made (a PDF takes a while): a name ending in '/' or an existing folder
    is refused as a folder (no --force can help, so none is suggested); an existing file is
    refused without ``force``."""
    refuse_folder_name(path)
    try:
        folder = os.path.isdir(path)
        there = os.path.lexists(path)
    except (OSError, ValueError):
        return  # a name the system cannot look up: the writing says why
    if folder:
        _refuse(path, "is a folder, not a file", "give a file name")
    if there and not force:
        raise WouldOverwrite(path)


def atomic_write(
    path: str | os.PathLike, data: bytes | str, force: bool = True, guard=None, mode: int | None = None
) -> None:
    """Write a file atomically (temp file in the same folder, then rename).

    ``guard``, when given, is a context manager factory entered around the rename alone (after
    the new text is written and flushed to disk): a caller's lock and last check, which may
    raise to leave the file as it is (the temporary file is removed).

    * ``force=False``: an existing file (or a symbolic link, even a dangling one) is refused,
      and so is a file that appears while writing (the new file is linked in exclusively);
    * a symbolic link to a file writes that file (the link stays);
    * ``mode``: the file's permissions (``0o600`` for a file holding secrets), set before it
      takes its name, also when it replaces a file; without it a new file is 0644 and a replaced
      one keeps its own;
    * a folder, a device or a pipe is refused even with ``force``;
    * a file this command is reading as input is never replaced, even with ``force``, unless it
      was read with ``read_for_edit`` (its lock is released once it is written back).
    """
    refuse_folder_name(path)
    p = Path(path)
    if "\x00" in str(p):  # no file can have this name: the system refuses it before any writing
        _refuse(p, "a file name cannot hold a NUL character", "give another file name")
    try:
        link = p.is_symlink()
    except (OSError, ValueError):
        link = False
    if link and not force:
        _refuse(p, "is a symbolic link; not overwritten", f"pass {option('force')} to write the file it points to")
    target = Path(os.path.realpath(p)) if link else p
    try:
        st = os.stat(target)
    except (OSError, ValueError):  # missing, or a name the system cannot look up: the writing says why
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        _refuse(p, "is a folder, not a file", "give a file name")
    if st is not None and not stat.S_ISREG(st.st_mode):  # the rename would replace a device or a pipe
        _refuse(p, "is not a regular file; not replaced", "give the name of a file")
    if not force and st is not None:
        _refuse(p, "file exists; not overwritten", f"pass {option('force')} to replace it")
    editing = _EDITING.get(os.path.realpath(target))
    if st is not None and editing is None and _identity(st) in _READ:
        _refuse(
            p,
            f"is an input of this command; not overwritten, even with {option('force')}",
            "write the output to another file",
        )
    if isinstance(data, str):
        data = data.encode("utf-8")
    parent = target.parent if str(target.parent) else Path(".")
    made = _missing_folders(parent)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    except (OSError, ValueError) as exc:  # the folder is a file or not writable, the name too long, ...
        _remove_folders(made)  # the folders made for it go again
        if isinstance(exc, (FileExistsError, NotADirectoryError)):
            reason = "a part of the folder path is a file"
        else:
            reason = getattr(exc, "strerror", None) or str(exc)
        raise DaimyoError(
            Diagnostic(
                str(p),
                0,
                0,
                L_("cannot write: {reason}", reason=reason),
                hint=L_("check the folder of the output file"),
            )
        ) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        elif st is not None:
            try:
                os.chmod(tmp, st.st_mode & 0o777)
            except OSError:
                pass
        else:
            os.chmod(tmp, 0o644)
        with guard() if guard is not None else contextlib.nullcontext():
            if force or st is not None:
                os.replace(tmp, target)
            else:
                _create_exclusive(tmp, target, p)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        _remove_folders(made)
        if isinstance(exc, OSError):  # a full disk, a quota, a name the rename refuses
            raise DaimyoError(
                Diagnostic(str(p), 0, 0, L_("cannot write: {value}", value=exc.strerror or exc))
            ) from None
        raise
    if editing is not None and editing[1] is not None:  # written back: the lock is released
        _unlock(editing[1])
        _EDITING[os.path.realpath(target)] = (editing[0], None)


def _missing_folders(folder: Path) -> list[Path]:
    """The folders of ``folder``'s path that do not exist yet, deepest first."""
    out = []
    p = folder
    try:
        while str(p) not in ("", ".") and not os.path.lexists(p):
            out.append(p)
            if p.parent == p:
                break
            p = p.parent
    except (OSError, ValueError):
        return []
    return out


def _remove_folders(folders: list[Path]) -> None:
    """Remove the folders an output made, deepest first, when they are still empty."""
    for d in folders:
        try:
            os.rmdir(d)
        except OSError:
            return


def _create_exclusive(tmp: str, target: Path, shown: Path) -> None:
    """Move ``tmp`` to ``target`` only if ``target`` does not exist at that moment."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        _refuse(
            shown, "file exists (it appeared while writing); not overwritten", f"pass {option('force')} to replace it"
        )
    except OSError:  # a file system without hard links: the best that remains
        if os.path.lexists(target):
            _refuse(
                shown,
                "file exists (it appeared while writing); not overwritten",
                f"pass {option('force')} to replace it",
            )
        os.replace(tmp, target)
        return
    os.unlink(tmp)
