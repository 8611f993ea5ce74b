"""``ListEditor``: the edit session of one list, used by the library, the command line and the web.

The session holds the list's text, its parsed document and its check result. An edit is a typed
operation (``builder.lists.ops``: add, remove, copies, set, house rule, part; a game's own in
``builder/games/<id>/edits.py``: a Kensei unit's models, standard, leader, duplicate). Each
runs on a tree of the list and is written back into the text in one way: in place
(``builder.lists.splice``: only the lines that change, comments and layout kept), or, when a
change does not fit in place, through a round-trip tree of the whole text. The new text is
read once and checked once; a text that no longer reads as a list of its system is refused and
the session stays as it was. Each edit also records in the list the packs it is checked with
(``checked_with``), so every face of the session (command line, web page, JSON API) writes the
same. The text before goes on the undo stack. ``save`` writes
atomically and refuses when the file changed on disk since it was read (another program,
another editor): ``ListChangedError``.

The command line (``daimyo add/remove/set/edit/why/options``) and the web builder both use it::

    ed = ListEditor.open("army.yaml")
    change = ed.add("Samurai Yari", models=5)
    change.notes            # ["added 5 Samurai Yari"]
    change.comparison.breaks  # rules the addition breaks (empty: none)
    ed.apply(Models(index=0, value=6))   # builder.games.kensei.edits
    ed.undo()
    ed.save()
"""

from __future__ import annotations

import copy
import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError, Diagnostic, ListChangedError, NothingToUndo
from builder.i18n import L_
from builder.kit.edit import dump_roundtrip, load_roundtrip
from builder.lists import check as list_check
from builder.lists import document as list_document
from builder.lists import splice
from builder.lists.compare import compare
from builder.lists.new import NewListRequest, start
from builder.lists.ops import Add, HouseRule, Part, Remove, Set
from builder.lists.options import options
from builder.lists.packchanges import recorded_packs, recording_notes
from builder.systems import get
from builder.yamlio import atomic_write, read_for_edit

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX (Windows): no file locks; the content checks still guard
    fcntl = None  # type: ignore[assignment]

Edit = Callable[[Any], tuple[list[str], tuple | None]]  # an edit of a list's tree: (notes, where it went)

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.findings import CheckResult
    from builder.lists.compare import Comparison
    from builder.lists.document import ListDoc
    from builder.systems.base import GameSystem


class Change:
    """The result of one edit: what was done (``notes``, lines for a person), the check
    before and after, and their comparison (what the edit adds, fixes or breaks; worked out
    when first asked for)."""

    def __init__(self, notes: list[str], before: CheckResult, after: CheckResult, target: tuple | None = None) -> None:
        self.notes = notes
        self.before = before
        self.after = after
        self.target = target
        self._comparison: Comparison | None = None

    @property
    def comparison(self) -> Comparison:
        if self._comparison is None:
            self._comparison = compare(self.before, self.after, self.target)
        return self._comparison

    @property
    def breaks(self) -> list:
        """Findings (as ``check`` prints them) of the rules this edit broke or made worse."""
        return [b.finding for b in self.comparison.breaks]


@dataclass
class _State:
    text: str
    doc: Any = None
    result: Any = None
    extra: dict = field(default_factory=dict)


HISTORY = 50  # edits kept for undo
RECENT = 4  # states left by the last edits kept read and checked, for an undo or redo soon after


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def version_of(text: str) -> str:
    """A short name of a list's ``text`` (``ListEditor.version``; what ``write_list`` expects):
    equal texts have equal versions."""
    return _digest(text.encode("utf-8"))


@dataclass
class History:
    """The undo and redo history of an edit session (``ListEditor.history``): the texts before
    each edit, the last one last (``undo``), and the texts undone, the last undone last
    (``redo``); at most ``HISTORY`` edits are kept. A history goes with the text it was made
    on: a new session of that same text can carry it on (``ed.history = old.history``), and the
    web server's several processes share it through the workspace
    (``builder.web.editing.SharedHistory``)."""

    undo: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)

    @property
    def can_undo(self) -> bool:
        return bool(self.undo)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo)

    def record(self, before: str) -> None:
        """An edit was made from the text ``before``: it can be undone, and nothing is left to redo."""
        self.undo.append(before)
        del self.undo[:-HISTORY]
        self.redo.clear()

    def back(self, current: str) -> str:
        """Undo from the text ``current``: the text before the last edit (``current`` can be redone)."""
        if not self.undo:
            raise NothingToUndo(L_("nothing to undo"))
        text = self.undo.pop()
        self.redo.append(current)
        return text

    def forward(self, current: str) -> str:
        """Redo from the text ``current``: the text the edit last undone made (``current`` can be undone)."""
        if not self.redo:
            raise NothingToUndo(L_("nothing to redo"))
        text = self.redo.pop()
        self.undo.append(current)
        return text


class ListEditor:
    """An open list document that can be changed, checked, undone and saved.

    Make one with :meth:`open` (a file), :meth:`from_text` (text, e.g. from a browser) or
    :meth:`new` (a fresh list of a system). Edits (:meth:`add`, :meth:`remove`, :meth:`set`)
    raise a ``DaimyoError`` and leave the list as it was when they cannot be done.
    ``version`` names the current text (it changes with every edit, undo and redo);
    :meth:`changed_on_disk` tells whether the file differs from what was last read or saved.
    ``history`` holds what :meth:`undo` and :meth:`redo` go back and forth to (a ``History``).
    """

    import_notes: list[str]  # set by ``builder.api.import_``: what the import left out

    def __init__(
        self,
        text: str,
        file: str = "<list>",
        base_dir: str | os.PathLike | None = None,
        path: str | os.PathLike | None = None,
        extra_packs: Iterable[str | os.PathLike] = (),
    ) -> None:
        self.path = Path(path) if path is not None else None
        self.file = file
        self.base_dir = Path(base_dir) if base_dir is not None else (self.path.parent if self.path else Path("."))
        self.extra_packs = [str(p) for p in extra_packs]
        self.history = History()
        self._disk: str | None = None
        self._catalog: Catalog | None = None
        self._recent: dict[str, _State] = {}  # see ``_keep``
        self._state = self._read(text)

    # -- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike, extra_packs: Iterable[str | os.PathLike] = ()) -> ListEditor:
        """The list file at ``path``; ``ListError`` if it does not read as a list."""
        text = read_for_edit(path, display=str(path))  # an input it may write back
        ed = cls(text, file=str(path), path=path, extra_packs=extra_packs)
        ed._disk = _digest(text.encode("utf-8"))
        return ed

    @classmethod
    def from_text(
        cls,
        text: str,
        file: str = "<list>",
        base_dir: str | os.PathLike | None = None,
        extra_packs: Iterable[str | os.PathLike] = (),
    ) -> ListEditor:
        """A list given as text (not tied to a file until :meth:`save` names one)."""
        return cls(text, file=file, base_dir=base_dir, extra_packs=extra_packs)

    @classmethod
    def new(
        cls,
        system: str,
        path: str | os.PathLike | None = None,
        pack_files: Sequence[str] | None = None,
        **options: Any,
    ) -> tuple[ListEditor, list[str]]:
        """A new list of ``system`` (``options``: the game's own options by key, as the game
        declares them, e.g. ``clan="buke"``; ``name``; ``packs`` as written in the list); returns
        the editor and notes for a person. Nothing is written until :meth:`save`. The list is
        made by ``builder.lists.new.start``, as ``daimyo new`` and the web builder make theirs."""
        folder = Path(path).resolve().parent if path is not None else Path(".").resolve()
        name, packs = options.pop("name", None), list(options.pop("packs", None) or [])
        new = start(NewListRequest(system, options, name, packs, pack_files, folder))
        file = str(path) if path is not None else "<list>"
        return cls(new.text, file=file, base_dir=folder, path=path), new.notes

    # -- state --------------------------------------------------------------------------------

    def _read(self, text: str) -> _State:
        """The state of ``text``: read once and checked once (the check reads the list as its
        game does: wrong shapes raise ``ListError``)."""
        doc = list_document.parse_list(text, self.file, base_dir=self.base_dir)
        if self._catalog is None:
            self._catalog = load_catalog(doc.system, list(doc.packs) + self.extra_packs)
        return _State(text, doc, list_check.check_doc(doc, catalog=self._catalog))

    @classmethod
    def known(
        cls,
        text: str,
        doc: ListDoc,
        catalog: Catalog,
        result: CheckResult,
        file: str = "<list>",
        base_dir: str | os.PathLike | None = None,
    ) -> ListEditor:
        """A session on ``text`` already read (``doc``) and checked (``result``) with ``catalog``:
        nothing is read again."""
        ed = object.__new__(cls)
        ed.path, ed.file = None, file
        ed.base_dir = Path(base_dir) if base_dir is not None else Path(".")
        ed.extra_packs = []
        ed.history, ed._disk = History(), None
        ed._recent = {}
        ed._catalog = catalog
        ed._state = _State(text, doc, result)
        return ed

    @property
    def text(self) -> str:
        """The list as it is now (YAML, comments kept)."""
        return self._state.text

    @property
    def doc(self) -> ListDoc:
        """The parsed list document (plain data and positions)."""
        return self._state.doc

    @property
    def data(self) -> dict:
        """The list's plain data (a copy: change the list through the editor)."""
        return copy.deepcopy(self._state.doc.data)

    @property
    def system(self) -> str:
        return self._state.doc.system

    @property
    def catalog(self) -> Catalog | None:
        """The catalog of the list's system with the list's packs."""
        return self._catalog

    @property
    def version(self) -> str:
        """A short name of the current text; equal texts have equal versions."""
        return version_of(self.text)

    @property
    def can_undo(self) -> bool:
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        return self.history.can_redo

    def check(self) -> CheckResult:
        """The check result of the list as it is now (``CheckResult``)."""
        if self._state.result is None:  # pragma: no cover - every state is checked when read
            self._state.result = list_check.check_doc(self._state.doc, catalog=self._catalog)
        return self._state.result

    # -- editing ------------------------------------------------------------------------------

    def _tree(self) -> Any:
        return load_roundtrip(self.text, self.file)

    def apply(self, op: Any) -> Change:
        """Make the change ``op`` says (an operation of ``builder.lists.ops`` or of the game's
        ``edits``); a change that cannot be made raises a ``DaimyoError`` and leaves the list as
        it was."""
        return self._apply(lambda tree: op.apply(tree, self._catalog, self.game))

    def _apply(self, edit: Edit) -> Change:
        """Run ``edit(tree) -> (notes, target)`` and keep the new text: written in place when the
        change fits there, else through a round-trip tree of the whole text."""
        edit = self._recording(edit)
        before = self.check()
        spliced = self._spliced(edit)
        if spliced is None:
            tree = self._tree()
            notes, target = edit(tree)
            text = dump_roundtrip(tree)
            state = self._state if text == self.text else self._read(text)
        else:
            state, notes, target = spliced
        if state.text != self.text:
            self.history.record(self.text)
            self._keep(self._state)
            self._state = state
        return Change(list(notes), before, self.check(), target)

    def _recording(self, edit: Edit) -> Edit:
        """``edit`` followed by the recording, in the same change, of the packs the list is
        checked with (``checked_with``: name, version and content hash of each installed pack, see
        ``builder.lists.packchanges.recorded_packs``). Every face of the session (the command
        line, the web page, the JSON API) records the same thing with each edit, so a later
        check can tell when a pack changed under the list. A recorded pack that differs here
        now is said in the change's notes."""

        def run(tree: Any) -> tuple[list[str], tuple | None]:
            notes, target = edit(tree)
            new = recorded_packs(tree, self.base_dir, self.system)
            if new is not None:
                notes = [*notes, *recording_notes(tree.get("checked_with"), new)]
                tree["checked_with"] = new
            return notes, target

        return run

    def _spliced(self, edit: Edit) -> tuple[_State, list[str], tuple | None] | None:
        """``edit`` run on a plain tree of the list and written into the text as small changes
        (``builder.lists.splice``); ``(state, notes, target)``, or None to take the round-trip path."""
        if len(self.text) < splice.MIN_CHARS:
            return None
        tree = splice.build_tree(self._state.doc.data)
        notes, target = edit(tree)  # an edit that cannot be done raises here as on the other path
        new = splice.plain(tree)
        text = splice.splice_edit(self.text, self._state.doc, tree, new)
        if text is None:
            return None
        if text == self.text:  # nothing changed
            return self._state, notes, target
        try:
            state = self._read(text)
        except DaimyoError:
            return None
        if not splice.same(state.doc.data, new):
            return None
        return state, notes, target

    @property
    def game(self) -> GameSystem:
        """The list's ``GameSystem``."""
        return get(self.system)

    def add(
        self,
        name: str,
        count: int | None = None,
        *,
        models: int | None = None,
        led_by: str | None = None,
        standard: bool = False,
        variant: bool = False,
        player: str | None = None,
        check_side: bool = True,
        options: Mapping[str, Any] | None = None,
    ) -> Change:
        """Add ``count`` copies of a card (card games), a unit of ``models`` models of a troop
        (Kensei; default 3 for a unit, 1 for a single model), or a family, samurai card or
        province (Senji; ``player`` names whose, ``count`` the units on a province).
        ``variant`` turns a published Satsuma deck into a variant deck first (``check_side=False``
        lets a card of the other side in, to ask what that would break). ``options``: the options
        of the game's own add by key (a plug-in game's). The change's ``breaks`` name the rules
        it breaks."""
        return self.apply(
            Add(
                name,
                count,
                models=models,
                led_by=led_by,
                standard=standard,
                variant=variant,
                player=player,
                check_side=check_side,
                options=dict(options or {}),
            )
        )

    def remove(self, name: str, count: int | None = 1, *, variant: bool = False) -> Change:
        """Take ``count`` copies of a card off the list (None: every copy), the last unit of a
        Kensei troop, or a Senji player, samurai card or province."""
        return self.apply(Remove(name, count, variant=variant))

    def set(self, key: str, value: str) -> Change:
        """Change a setting (Kensei commander, points, clan, occult, general; Senshiai size;
        HeroCard hero, max_hero_points; Satsuma side; name, author, notes of any list)."""
        return self.apply(Set(key, value))

    def house_rule(self, key: str, value: object = None) -> Change:
        """Agree house rule ``key`` at ``value`` (None or 'default': back to the rulebook's reading)."""
        return self.apply(HouseRule(key, value))

    def set_part(self, where: tuple, field: str, value: object) -> Change:
        """Change ``field`` of the part of an entry at ``where`` (Senji: a player's family, samurai
        card or province)."""
        return self.apply(Part(tuple(where), field, value))

    def undo(self) -> str:
        """Go back one edit; returns the text now current."""
        text = self.history.back(self.text)
        self._state = self._again(text)
        return text

    def redo(self) -> str:
        """Do again the edit last undone; returns the text now current."""
        text = self.history.forward(self.text)
        self._state = self._again(text)
        return text

    def _keep(self, state: _State) -> None:
        """Keep ``state`` (left by an edit, an undo or a redo) read and checked: going back to its
        text soon after takes it as it is instead of reading and checking that text again. At
        most ``RECENT`` states, the oldest going first."""
        recent = self._recent
        recent.pop(state.text, None)
        recent[state.text] = state
        while len(recent) > RECENT:
            del recent[next(iter(recent))]

    def _again(self, text: str) -> _State:
        """The state of ``text``, an earlier text of this list (undo, redo); the current one is kept."""
        state = self._recent.pop(text, None)
        self._keep(self._state)
        return state if state is not None else self._read(text)

    # -- questions ------------------------------------------------------------------------------

    def why(
        self, name: str, count: int | None = None, *, models: int | None = None, player: str | None = None
    ) -> Comparison:
        """Could ``name`` be added? The comparison of the check before and after adding it
        (``.ok``, ``.breaks``, ``.fixes``, ``.still``), with ``.notes``, ``.target`` and ``.data``
        (the list with it); the list itself is not changed."""
        gs = self.game
        trial = self.copy()
        change = trial.add(
            name, count, models=models, player=player, check_side=False, variant="variant" in gs.editing.add_options
        )
        result = change.comparison
        result.notes = change.notes
        result.target = change.target
        result.data = trial._state.doc.data
        return result

    def options(self, **filters: Any) -> list[Any]:
        """Every entry that could be added now; see :func:`builder.lists.options.options`."""
        return options(self, **filters)

    def copy(self) -> ListEditor:
        """An independent editor on the same text (no history; same file and catalog)."""
        other = object.__new__(ListEditor)
        other.__dict__.update(self.__dict__)
        other.history, other._recent = History(), {}
        other._state = _State(self._state.text, self._state.doc, self._state.result)
        return other

    # -- saving ---------------------------------------------------------------------------------

    def changed_on_disk(self) -> bool:
        """Whether the file differs from the text last read or saved (a missing file counts)."""
        if self.path is None or self._disk is None:
            return False
        try:
            data = self.path.read_bytes()
        except OSError:
            return True
        return _digest(data) != self._disk

    def save(self, path: str | os.PathLike | None = None, *, force: bool = False) -> None:
        """Write the list atomically (to its own file, or to ``path``).

        Its own file is refused (``ListChangedError``) when it changed on disk since it was read;
        another file that exists is refused unless ``force``. The check and the write happen
        under a lock on the folder, so two editors saving at once never lose a change unnoticed.
        """
        own = path is None or (self.path is not None and Path(path).resolve() == self.path.resolve())
        target = self.path if path is None else Path(path)
        if target is None:
            raise DaimyoError(Diagnostic(self.file, 0, 0, L_("this list has no file yet; give a path to save it to")))
        expected = self._disk if own and not force else None
        self._record_packs()
        write_list(target, self.text, expected, force=own or force)
        if own or self.path is None:
            self.path = target
            self._disk = _digest(self.text.encode("utf-8"))

    def _record_packs(self) -> None:
        """Record in the list (``checked_with``) the name, version and content hash of each pack
        it is checked with, so that a later check can tell when a pack changed under it."""
        doc = self._state.doc
        new = recorded_packs(doc.data, self.base_dir, doc.system)
        if new is None:
            return
        tree = self._tree()
        tree["checked_with"] = new
        self._state = self._read(dump_roundtrip(tree))


def write_list(path: str | os.PathLike, text: str, expected: str | None = None, *, force: bool = True) -> None:
    """Write a list's ``text`` to ``path`` atomically: the text goes to a temporary file beside
    it and is flushed to disk first; then, under a lock on the folder (the one every saving
    editor takes), the file is checked and replaced. With ``expected`` (the digest of the text
    the change was made from, see ``ListEditor.version``) a file that no longer holds that text
    (or is gone) is refused with ``ListChangedError`` and left as it is."""
    target = Path(path)
    refuse_read_only(target)

    @contextmanager
    def unchanged() -> Iterator[None]:
        with folder_lock(target):
            if expected is not None:
                try:
                    now = _digest(target.read_bytes())
                except OSError:
                    now = None
                if now != expected:
                    raise ListChangedError(
                        Diagnostic(
                            str(target),
                            0,
                            0,
                            L_("changed on disk since it was read; not overwritten"),
                            hint=L_("open it again and repeat the change"),
                        )
                    )
            yield

    atomic_write(target, text, force=force, guard=unchanged)


def refuse_read_only(path: Path) -> None:
    """A list file marked read-only (no write permission for its owner, or none for this user)
    is not replaced by an edit: the replacing rename would ignore the mark."""
    try:
        st = os.stat(path)
    except OSError:
        return  # not there (yet): the writing says what is wrong
    if stat.S_ISREG(st.st_mode) and (not st.st_mode & stat.S_IWUSR or not os.access(path, os.W_OK)):
        raise DaimyoError(
            Diagnostic(
                str(path),
                0,
                0,
                L_("is read-only; not changed"),
                hint=L_("make it writable first (chmod u+w {path})", path=path),
            )
        )


class folder_lock:
    """An exclusive lock on the folder of ``path`` while a list is compared and replaced."""

    def __init__(self, path: Path):
        self.folder = Path(path).parent if str(Path(path).parent) else Path(".")
        self.fd: int | None = None

    def __enter__(self) -> folder_lock:
        try:
            if fcntl is None:
                raise OSError  # no file locks here: taken as a file system without them
            self.fd = os.open(self.folder, os.O_RDONLY)
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except OSError:  # no locks here: the comparison alone still guards
            if self.fd is not None:
                os.close(self.fd)
            self.fd = None
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock
        return False


def edit_file(
    path: str | os.PathLike, change: Callable[[ListEditor], Change], attempts: int = 20
) -> tuple[ListEditor, Change]:
    """Open ``path``, apply ``change(editor) -> Change`` and save; when the file changed on disk
    meanwhile, read it again and repeat, so no other edit is lost."""
    for _ in range(attempts - 1):
        ed = ListEditor.open(path)
        result = change(ed)
        try:
            ed.save()
            return ed, result
        except ListChangedError:
            continue
    ed = ListEditor.open(path)
    result = change(ed)
    ed.save()
    return ed, result


__all__ = [
    "HISTORY",
    "Change",
    "History",
    "ListChangedError",
    "ListEditor",
    "NothingToUndo",
    "edit_file",
    "folder_lock",
    "refuse_read_only",
    "version_of",
    "write_list",
]
