"""Editing a list file from the web builder: the HTTP side of the library's edit session.

Each change reads the file, checks that it is still the version the page showed (a file
changed on disk since is refused with a clear message, never silently overwritten), and hands
the operation to the list's edit session (``builder.lists.editor.ListEditor``: typed
operations, the text changed in place, read and checked once), then writes atomically. The
server keeps one session per list: its undo and redo apply only to the very text this server
last wrote, so they never erase a change made elsewhere (an editor, the command line,
another server) meanwhile.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from builder.errors import DaimyoError, ListError
from builder.web.workspace import Refused


def version_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Conflict(Refused):
    def __init__(self, rel: str):
        super().__init__(f"'{rel}' was changed on disk since this page was loaded; your change was not saved",
                         409, hint="reload the page to see the file as it is now, then make the change again")


@dataclass
class Outcome:
    version: str
    notes: list[str]
    result: Any = None  # the check result of the list as saved (CheckResult), when known
    text: str | None = None  # the list's text as saved
    known: tuple | None = None  # (doc, catalog, check result) of ``text``: nothing to read or check again


class Editor:
    """Changes list files of a workspace: one lock and one edit session per file."""

    def __init__(self, workspace):
        self.ws = workspace
        self._guard = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}
        self._sessions: dict[str, Any] = {}  # rel -> ListEditor of the text this server last read or wrote

    def lock(self, rel: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(rel, threading.RLock())

    def forget(self, rel: str) -> None:
        with self._guard:
            self._sessions.pop(rel, None)

    def session(self, rel: str, text: str):
        """The session of ``rel`` when it holds ``text`` with the catalog the list's packs give
        now (packs unchanged); None otherwise."""
        from builder.catalog.loader import load_catalog

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
        from builder.lists.editor import ListEditor

        lock = self.lock(rel)
        if not lock.acquire(blocking=False):  # a change of this list is being made: its session wins
            return
        try:
            fresh = ListEditor.known(text, doc, catalog, result, file=rel, base_dir=Path(doc.base_dir or "."))
            old = self._sessions.get(rel)
            if old is not None and old.text == text:
                fresh._undo, fresh._redo = old._undo, old._redo
            self._sessions[rel] = fresh
        finally:
            lock.release()

    def read(self, rel: str) -> tuple[Path, str]:
        from builder.yamlio import read_text

        path = self.ws.resolve(rel)
        text = read_text(path, display=self.ws.clean(rel))
        return path, text

    def read_at(self, rel: str, version: str | None) -> tuple[Path, str]:
        """``read``, refusing a file whose text is no longer the ``version`` the page holds."""
        path, text = self.read(rel)
        if version and version != version_of(text):
            raise Conflict(rel)
        return path, text

    def _open(self, rel: str, path: Path, text: str):
        """The session of ``rel`` on ``text`` (read and checked once when this server does not
        hold it yet)."""
        from builder.lists.editor import ListEditor

        s = self.session(rel, text)
        if s is None:
            self.ws.check_packs(path, text)
            s = ListEditor(text, file=rel, base_dir=path.parent)
            old = self._sessions.get(rel)
            if old is not None and old.text == text:
                s._undo, s._redo = old._undo, old._redo
            self._sessions[rel] = s
        else:
            self.ws.check_packs(path, text, s.doc)
        return s

    # -- changes -----------------------------------------------------------------------------

    def apply(self, rel: str, op: dict, version: str | None) -> Outcome:
        """Make one change (``op``: the words of a form or JSON body, see
        ``builder.lists.ops.from_form``) and save it."""
        from builder.lists.ops import from_form

        rel = self.ws.clean(rel)
        with self.lock(rel):
            path, text = self.read_at(rel, version)
            if path.suffix.lower() == ".json":
                raise Refused("a JSON list is edited in a text editor; the builder edits YAML lists",
                              hint="import it to make a YAML copy")
            s = self._open(rel, path, text)
            change = s.apply(from_form(op, s.game))
            if s.text != text:
                self._write(rel, path, s.text, text)
            return Outcome(version_of(s.text), change.notes, s.check(), s.text, (s.doc, s.catalog, s.check()))

    def step(self, rel: str, back: bool, version: str | None) -> Outcome:
        """Undo (``back``) or redo the last change."""
        rel = self.ws.clean(rel)
        with self.lock(rel):
            path, text = self.read_at(rel, version)
            word = "undo" if back else "redo"
            s = self._sessions.get(rel)
            if s is None or not (s.can_undo if back else s.can_redo):
                raise Refused(f"nothing to {word}", 409)
            if s.text != text:  # the file holds a change this server did not make
                self.forget(rel)
                raise Refused(f"'{rel}' was changed outside the builder since its last change here; "
                              f"{word} would erase that change, so nothing was done", 409,
                              hint="make the change you want by hand; the history starts again from here")
            target = s.undo() if back else s.redo()
            self._write(rel, path, target, text)
            return Outcome(version_of(target), ["undone" if back else "redone"], s.check(), target,
                           (s.doc, s.catalog, s.check()))

    def can(self, rel: str, version: str | None = None) -> tuple[bool, bool]:
        """Whether undo and redo are offered (``version``: of the file as it is now; a file
        changed elsewhere offers neither)."""
        s = self._sessions.get(self.ws.clean(rel))
        if s is None or (version is not None and version_of(s.text) != version):
            return False, False
        return s.can_undo, s.can_redo

    def _write(self, rel: str, path: Path, text: str, expected: str) -> None:
        """Save with the library's writer (``write_list``: atomic, flushed to disk before the folder
        lock is taken); a file that no longer holds ``expected`` is refused as a ``Conflict`` (and
        the session, which holds the refused text, is dropped)."""
        from builder.errors import ListChangedError
        from builder.lists.editor import _digest, write_list

        try:
            write_list(path, text, _digest(expected.encode("utf-8")))
        except ListChangedError:
            self.forget(rel)
            raise Conflict(rel) from None
        except DaimyoError:
            self.forget(rel)
            raise


__all__ = ["Conflict", "DaimyoError", "Editor", "ListError", "Outcome", "version_of"]
