"""Editing a list file from the web builder: the HTTP side of the library's edit session.

Each change reads the file, checks that it is still the version the page showed (a file
changed on disk since is refused with a clear message, never silently overwritten), and hands
the operation to the list's edit session (``builder.lists.editor.ListEditor``: typed
operations, the text changed in place, read and checked once), then writes atomically. The
server keeps one session per list: its undo and redo apply only to the very text this server
last wrote, so they never erase a change made elsewhere (an editor, the command line,
another server) meanwhile.

The server also knows which file its session came from: the identity of the file as it last
read or wrote it (device, inode, size and time of change, ``stamp_of``). An edit whose file still
has that identity starts from the session's parsed and checked document without reading the
file again; a file replaced or written since (another process, another server, a person's text
editor) is read and checked afresh. The identity only spares the reading: the save still
compares the file with the text the change was made from, under the folder lock every saving
editor takes, so a change made on disk that kept the identity (the same size written in place
within the file system's clock grain) is refused as a conflict, never overwritten.

Served by several processes (``daimyo serve --workers N``), the undo and redo history of each
list is kept in the workspace's state folder instead (``.daimyo/history/``, see
``SharedHistory``) and each change of a list is made under a lock every process takes, so an
edit answered by one process can be undone through another and no two processes change one
list at once.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError, ListChangedError, ListError
from builder.i18n import _
from builder.lists.editor import HISTORY, History, ListEditor, version_of, write_list
from builder.lists.ops import from_form
from builder.paths import within
from builder.web.workspace import Refused
from builder.yamlio import read_text


class Conflict(Refused):
    def __init__(self, rel: str):
        super().__init__(
            f"'{rel}' was changed on disk since this page was loaded; your change was not saved",
            409,
            hint="reload the page to see the file as it is now, then make the change again",
        )


@dataclass
class Outcome:
    version: str
    notes: list[str]
    result: Any = None  # the check result of the list as saved (CheckResult), when known
    text: str | None = None  # the list's text as saved
    known: tuple | None = None  # (doc, catalog, check result) of ``text``: nothing to read or check again
    steps: tuple[bool, bool] | None = None  # whether undo and redo are offered now (``Editor.can``)
    path: Path | None = None  # the list's file, resolved in the workspace and its packs checked (``known``)


class Editor:
    """Changes list files of a workspace: one lock and one edit session per file."""

    def __init__(self, workspace, shared: bool = False):
        self.ws = workspace
        self._guard = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}
        self._sessions: dict[str, Any] = {}  # rel -> ListEditor of the text this server last read or wrote
        # rel -> (identity of the file, its text) as this server last read or wrote it: see ``current``
        self._stamps: dict[str, tuple[tuple, str]] = {}
        # several server processes: the history and the lock of each list shared through the workspace
        self.shared = SharedHistory(workspace.root) if shared else None

    def lock(self, rel: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(rel, threading.RLock())

    @contextmanager
    def _changing(self, rel: str):
        """Held while ``rel`` is read, changed and saved: this process's lock of the list, and
        with several processes the lock every one of them takes."""
        with self.lock(rel):
            if self.shared is None:
                yield
            else:
                with self.shared.locked(rel):
                    yield

    def forget(self, rel: str) -> None:
        with self._guard:
            self._sessions.pop(rel, None)
            self._stamps.pop(rel, None)
        if self.shared is not None:
            self.shared.drop(rel)

    def _history_in(self, rel: str, s, text: str) -> None:
        """With several processes: give the session ``s`` (holding ``text``, the file as it is)
        the shared history of ``rel``, or none when that history is of another text."""
        if self.shared is not None:
            s.history = self.shared.history(rel, version_of(text))

    def _history_out(self, rel: str, s) -> None:
        if self.shared is not None:
            self.shared.save(rel, version_of(s.text), s.history)

    def session(self, rel: str, text: str):
        """The session of ``rel`` when it holds ``text`` with the catalog the list's packs give
        now (packs unchanged); None otherwise."""

        s = self._sessions.get(rel)
        if s is None or s.text != text:
            return None
        try:
            same = load_catalog(s.system, list(s.doc.packs)) is s.catalog
        except DaimyoError:
            same = False
        return s if same else None

    def known(self, rel: str, text: str):
        """``(doc, catalog, check result)`` of ``text`` when this server holds it already; None
        otherwise. Saves reading and checking a list again right after a change."""
        s = self.session(rel, text)
        return (s.doc, s.catalog, s.check()) if s is not None else None

    def remember(self, rel: str, text: str, doc, catalog, result) -> None:
        """Keep ``text`` (read as ``doc``, checked as ``result``) as the session of ``rel``. The
        history goes on when ``text`` is the text the session holds (the packs changed); a
        text changed elsewhere starts a new one."""
        lock = self.lock(rel)
        if not lock.acquire(blocking=False):  # a change of this list is being made: its session wins
            return
        try:
            fresh = ListEditor.known(text, doc, catalog, result, file=rel, base_dir=Path(doc.base_dir or "."))
            old = self._sessions.get(rel)
            if old is not None and old.text == text:
                fresh.history = old.history
            self._sessions[rel] = fresh
        finally:
            lock.release()

    def read(self, rel: str) -> tuple[Path, str]:

        path = self.ws.resolve(rel)
        text = read_text(path, display=self.ws.clean(rel))
        return path, text

    def read_at(self, rel: str, version: str | None) -> tuple[Path, str]:
        """``read``, refusing a file whose text is no longer the ``version`` the page holds."""
        path, text = self.read(rel)
        if version and version != version_of(text):
            raise Conflict(rel)
        return path, text

    def current(self, rel: str, version: str | None) -> tuple[Path, str]:
        """``read_at`` for a change of ``rel`` (its lock held): when the file still has the
        identity it had when this server last read or wrote it, its text is the session's and
        is not read again; otherwise it is read (and its identity kept for the next change)."""
        path = self.ws.resolve(rel)
        held = self._stamps.get(rel)
        s = self._sessions.get(rel)
        if held is not None and s is not None and held[1] == s.text:
            try:
                same = stamp_of(path) == held[0]
            except OSError:
                same = False
            if same:
                if version and version != version_of(s.text):
                    raise Conflict(rel)
                return path, s.text
        self._stamps.pop(rel, None)
        try:
            stamp = stamp_of(path)  # taken before reading: a file changed meanwhile is read again next time
        except OSError:
            stamp = None
        path, text = self.read_at(rel, version)
        if stamp is not None:
            self._stamps[rel] = (stamp, text)
        return path, text

    def _open(self, rel: str, path: Path, text: str):
        """The session of ``rel`` on ``text`` (read and checked once when this server does not
        hold it yet)."""
        s = self.session(rel, text)
        if s is None:
            self.ws.check_packs(path, text)
            s = ListEditor(text, file=rel, base_dir=path.parent)
            old = self._sessions.get(rel)
            if old is not None and old.text == text:
                s.history = old.history
            self._sessions[rel] = s
        else:
            self.ws.check_packs(path, text, s.doc)
        return s

    # -- changes -----------------------------------------------------------------------------

    def apply(self, rel: str, op: dict, version: str | None) -> Outcome:
        """Make one change (``op``: the words of a form or JSON body, see
        ``builder.lists.ops.from_form``) and save it."""

        rel = self.ws.clean(rel)
        with self._changing(rel):
            path, text = self.current(rel, version)
            if path.suffix.lower() == ".json":
                raise Refused(
                    _("a JSON list is edited in a text editor; the builder edits YAML lists"),
                    hint=_("import it to make a YAML copy"),
                )
            s = self._open(rel, path, text)
            refs = s.doc.data.get("packs")
            self._history_in(rel, s, text)
            change = s.apply(from_form(op, s.game))
            if s.text != text:
                self._write(rel, path, s.text, text)
                self._history_out(rel, s)
                if s.doc.data.get("packs") != refs:  # the change named other packs
                    self.ws.check_packs(path, s.text, s.doc)
            return Outcome(
                version_of(s.text),
                change.notes,
                s.check(),
                s.text,
                (s.doc, s.catalog, s.check()),
                (s.can_undo, s.can_redo),
                path,
            )

    def step(self, rel: str, back: bool, version: str | None) -> Outcome:
        """Undo (``back``) or redo the last change."""
        rel = self.ws.clean(rel)
        with self._changing(rel):
            path, text = self.current(rel, version)
            if self.shared is not None:
                s = self._shared_session(rel, path, text, back)
            else:
                s = self._sessions.get(rel)
            if s is None or not (s.can_undo if back else s.can_redo):
                raise Refused(_("nothing to undo") if back else _("nothing to redo"), 409)
            if s.text != text:  # the file holds a change this server did not make
                self.forget(rel)
                raise Refused(
                    _(
                        "'{rel}' was changed outside the builder since its last change here; {word} would erase that change, so nothing was done"
                    ).format(rel=rel, word=_("undo") if back else _("redo")),
                    409,
                    hint=_("make the change you want by hand; the history starts again from here"),
                )
            target = s.undo() if back else s.redo()
            self._write(rel, path, target, text)
            self._history_out(rel, s)
            self.ws.check_packs(path, target, s.doc)
            return Outcome(
                version_of(target),
                ["undone" if back else "redone"],
                s.check(),
                target,
                (s.doc, s.catalog, s.check()),
                (s.can_undo, s.can_redo),
                path,
            )

    def can(self, rel: str, version: str | None = None) -> tuple[bool, bool]:
        """Whether undo and redo are offered (``version``: of the file as it is now; a file
        changed elsewhere offers neither)."""
        if self.shared is not None:
            h = self.shared.history(self.ws.clean(rel), version)
            return h.can_undo, h.can_redo
        s = self._sessions.get(self.ws.clean(rel))
        if s is None or (version is not None and version_of(s.text) != version):
            return False, False
        return s.can_undo, s.can_redo

    def _shared_session(self, rel: str, path: Path, text: str, back: bool):
        """With several processes: the session of ``rel`` on ``text`` with the shared history,
        None when there is nothing to undo (or redo); a history of another text gives a session
        on that text (refused by ``step`` as changed outside the builder)."""
        if self.shared is None:
            return None
        at, history = self.shared.load(rel)
        if not (history.can_undo if back else history.can_redo):
            return None
        if at != version_of(text):  # the list was changed outside the builder since
            return _Elsewhere(history)
        s = self._open(rel, path, text)
        s.history = history
        return s

    def _write(self, rel: str, path: Path, text: str, expected: str) -> None:
        """Save with the library's writer (``write_list``: atomic, flushed to disk before the folder
        lock is taken); a file that no longer holds ``expected`` is refused as a ``Conflict`` (and
        the session, which holds the refused text, is dropped)."""

        self._stamps.pop(rel, None)
        try:
            write_list(path, text, version_of(expected))
        except ListChangedError:
            self.forget(rel)
            raise Conflict(rel) from None
        except DaimyoError:
            self.forget(rel)
            raise
        try:
            # the file as written (a change made on disk between the rename and this look is
            # taken for this text, and refused as a conflict by the next save, which compares)
            self._stamps[rel] = (stamp_of(path), text)
        except OSError:
            pass


def stamp_of(path: Path) -> tuple:
    """The identity of a file as the system keeps it: device, inode, size, time of the last
    change of its content and of its entry (in nanoseconds). A file replaced (a new inode) or
    written changes it; ``OSError`` when the file cannot be looked at."""
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class _Elsewhere:
    """A shared history whose text is no longer the file's: offers its steps, holds no text."""

    text = None

    def __init__(self, history: History):
        self.can_undo, self.can_redo = history.can_undo, history.can_redo


class SharedHistory:
    """The undo and redo history of each list, kept in the workspace's state folder
    (``.daimyo/history/``, one small JSON file per list: the version of the text it applies to
    and at most ``HISTORY`` texts each way), and a lock per list that every server process
    takes (``fcntl`` locks: POSIX systems). The files are replaced atomically; they are not
    flushed to disk one by one (a history lost in a crash only means nothing to undo)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.dir = self.root / ".daimyo" / "history"
        # rel -> (identity of its history file as this process last wrote or read it, at, undo,
        # redo): a file that still has that identity is not read again
        self._held: dict[str, tuple[tuple, str, list[str], list[str]]] = {}
        self._encoded: dict[str, dict[str, str]] = {}  # rel -> the JSON of each text of its history

    def _base(self, rel: str) -> Path:
        return self.dir / hashlib.sha256(rel.encode("utf-8")).hexdigest()[:32]

    @contextmanager
    def locked(self, rel: str):

        self._made()
        fd = os.open(self._base(rel).with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock

    def load(self, rel: str) -> tuple[str | None, History]:
        """(the version the history applies to, the history); an empty one when there is none or
        it cannot be read. The history is the caller's to change. A history file that still has
        the identity it had when this process last wrote or read it is not read again."""
        file = self._base(rel).with_suffix(".json")

        try:
            if within(self.root, self.dir) is None:
                raise OSError("the history folder leads outside the workspace")
            stamp = stamp_of(file)
        except OSError:
            self._held.pop(rel, None)
            return None, History()
        held = self._held.get(rel)
        if held is not None and held[0] == stamp:
            return held[1], History(list(held[2]), list(held[3]))
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            undo, redo = data["undo"], data["redo"]
            if isinstance(undo, list) and isinstance(redo, list) and all(isinstance(t, str) for t in undo + redo):
                at = str(data["at"])
                self._held[rel] = (stamp, at, list(undo), list(redo))  # the identity taken before the reading
                return at, History(undo, redo)
        except (OSError, ValueError, KeyError, TypeError):
            pass
        self._held.pop(rel, None)
        return None, History()

    def history(self, rel: str, version: str | None) -> History:
        """The history of ``rel`` when it applies to ``version``; an empty one else."""
        at, history = self.load(rel)
        return history if at is not None and at == version else History()

    def save(self, rel: str, version: str, history: History) -> None:
        """Keep ``history`` as the history of ``rel``, applying to ``version``."""
        target = self._base(rel).with_suffix(".json")
        self._made()
        tmp = target.with_name(f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        undo, redo = history.undo[-HISTORY:], history.redo[-HISTORY:]
        self._held.pop(rel, None)
        # each text written out as JSON once: most of them were in the history written last time
        known = self._encoded.get(rel, {})
        enc = {t: known.get(t) or json.dumps(t) for t in undo + redo}
        self._encoded[rel] = enc
        at, back, forth = json.dumps(version), ", ".join(enc[t] for t in undo), ", ".join(enc[t] for t in redo)
        tmp.write_text(f'{{"at": {at}, "undo": [{back}], "redo": [{forth}]}}', encoding="utf-8")  # as json.dumps
        os.replace(tmp, target)
        try:
            # written under the list's lock, which every process takes to write its history
            self._held[rel] = (stamp_of(target), version, list(undo), list(redo))
        except OSError:
            pass

    def _made(self) -> None:
        """The history folder made, inside the workspace (refused when it leads out of it)."""

        for _try in range(2):  # before making it, and after: a link put there meanwhile
            if within(self.root, self.dir) is None:
                raise Refused(
                    _(
                        "the workspace's .daimyo folder leads outside the workspace (a symbolic link); "
                        "no history is kept there"
                    ),
                    403,
                    hint=_("remove the link .daimyo from the workspace folder"),
                )
            self.dir.mkdir(parents=True, exist_ok=True)

    def drop(self, rel: str) -> None:
        self._held.pop(rel, None)
        self._encoded.pop(rel, None)
        try:
            self._base(rel).with_suffix(".json").unlink()
        except OSError:
            pass


__all__ = ["Conflict", "DaimyoError", "Editor", "ListError", "Outcome", "SharedHistory", "stamp_of", "version_of"]
