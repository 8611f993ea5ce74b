"""The web editor's session state: an edit of a list whose file still has the identity it had when
the server last read or wrote it starts from the session's parsed and checked document (the file
is not read again); a file changed on disk since (another writer, another server process, a
person's text editor) is read afresh; and the save's own comparison refuses a change on disk that
kept the identity, so no edit is lost either way. With several processes the undo history each
keeps in memory is read again when another process wrote it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from builder.errors import ListChangedError
from builder.web.editing import Conflict, Editor, stamp_of, version_of
from builder.web.workspace import Refused, Workspace

from conftest import ROOT

LIST = "kensei-buke.yaml"


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copy(ROOT / "examples" / LIST, root / LIST)
    return root


def troops(root: Path) -> list:
    from builder.lists.document import load_list

    return load_list(root / LIST).data["troops"]


def models(root: Path, index: int) -> int:
    t = troops(root)[index]
    return int(t.get("models", 1)) if isinstance(t, dict) else 1


def unit(root: Path) -> int:
    return next(i for i, t in enumerate(troops(root)) if isinstance(t, dict))


def counting_reads(monkeypatch) -> list[str]:
    """The lists the web editor reads from disk, in order."""
    seen: list[str] = []
    real = Editor.read

    def read(self, rel):
        seen.append(rel)
        return real(self, rel)

    monkeypatch.setattr(Editor, "read", read)
    return seen


def test_an_edit_of_a_file_unchanged_since_the_last_edit_does_not_read_it_again(ws, monkeypatch):
    ed = Editor(Workspace(ws))
    i = unit(ws)
    start = models(ws, i)
    reads = counting_reads(monkeypatch)
    out = ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, None)
    assert reads == [LIST]  # the first edit reads the file
    for _ in range(3):
        out = ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, out.version)
    back = ed.step(LIST, True, out.version)
    assert reads == [LIST]  # the later ones start from the session
    assert models(ws, i) == start + 3
    assert back.version == version_of((ws / LIST).read_text(encoding="utf-8"))
    # the page's old version is still refused without reading
    with pytest.raises(Conflict):
        ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, out.version)
    assert reads == [LIST] and models(ws, i) == start + 3


@pytest.mark.parametrize("how", ["replaced", "written in place"])
def test_a_change_on_disk_by_another_writer_is_seen_by_the_next_edit(ws, monkeypatch, how):
    ed = Editor(Workspace(ws))
    i = unit(ws)
    start = models(ws, i)
    out = ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, None)
    path = ws / LIST
    text = path.read_text(encoding="utf-8") + "# changed in a text editor\n"  # another size
    if how == "replaced":
        tmp = path.with_name("other.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    else:
        with open(path, "r+", encoding="utf-8") as fh:
            fh.write(text)
    reads = counting_reads(monkeypatch)
    with pytest.raises(Conflict):  # the page still shows the text before the other change
        ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, out.version)
    assert path.read_text(encoding="utf-8") == text and reads == [LIST]
    # from the text as it is now, the change is made on that text: the other change is kept
    after = ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, version_of(text))
    assert models(ws, i) == start + 2
    assert path.read_text(encoding="utf-8").endswith("# changed in a text editor\n")
    assert after.version == version_of(path.read_text(encoding="utf-8"))
    # undo goes back to the other writer's text, and no further
    back = ed.step(LIST, True, after.version)
    assert path.read_text(encoding="utf-8") == text and back.version == version_of(text)
    with pytest.raises(Refused, match="nothing to undo"):
        ed.step(LIST, True, back.version)


def test_a_change_on_disk_that_keeps_the_identity_is_refused_by_the_save_not_overwritten(ws):
    """A text editor writing the same number of bytes in place within the file system's clock
    grain leaves the identity the server holds: the edit is then made on the session's text,
    and the save, which compares the file with that text under the folder lock, refuses it."""
    ed = Editor(Workspace(ws))
    i = unit(ws)
    out = ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, None)
    path = ws / LIST
    held = path.read_text(encoding="utf-8")
    other = held[:-1] + " "  # the same size, another text
    assert len(other.encode()) == len(held.encode()) and other != held
    with open(path, "r+", encoding="utf-8") as fh:
        fh.write(other)
    ed._stamps[LIST] = (stamp_of(path), held)  # as if the clock had not moved between the writes
    with pytest.raises(Conflict):
        ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, out.version)
    assert path.read_text(encoding="utf-8") == other  # the other writer's text is kept
    # the session is dropped: the next change reads the file as it is
    assert LIST not in ed._stamps and LIST not in ed._sessions
    with pytest.raises(Conflict):
        ed.apply(LIST, {"op": "models", "index": i, "delta": 1}, out.version)


def test_the_library_writer_refuses_a_stale_text_whatever_the_identity(ws):
    """The guard the web editor relies on: ``write_list`` compares the file's content."""
    from builder.lists.editor import version_of, write_list

    path = ws / LIST
    held = path.read_text(encoding="utf-8")
    path.write_text(held + "# other\n", encoding="utf-8")
    with pytest.raises(ListChangedError):
        write_list(path, held + "# mine\n", version_of(held))
    assert path.read_text(encoding="utf-8") == held + "# other\n"


@pytest.mark.skipif(os.name == "nt", reason="several server processes need POSIX locks")
def test_two_processes_editing_in_turn_lose_no_edit_and_share_one_history(ws):
    """Two editors stand for two server processes: each holds its own session and its own copy
    of the shared history; every change the other made is seen, and undo crosses them."""
    a, b = Editor(Workspace(ws), shared=True), Editor(Workspace(ws), shared=True)
    i = unit(ws)
    start = models(ws, i)
    version = None
    for step in range(12):
        version = (a if step % 3 else b).apply(LIST, {"op": "models", "index": i, "delta": 1}, version).version
        assert models(ws, i) == start + step + 1
    assert version == version_of((ws / LIST).read_text(encoding="utf-8"))
    # a stale version is refused by either process
    with pytest.raises(Conflict):
        a.apply(LIST, {"op": "models", "index": i, "delta": 1}, version_of("old"))
    # the history is one: undone through each in turn, step by step
    for step in range(12):
        version = (b if step % 2 else a).step(LIST, True, version).version
        assert models(ws, i) == start + 11 - step
    for ed in (a, b):
        assert ed.can(LIST, version) == (False, True)
    version = a.step(LIST, False, version).version
    assert models(ws, i) == start + 1 and b.can(LIST, version) == (True, True)
    # a change through b ends the redo that a had kept in memory
    version = b.apply(LIST, {"op": "models", "index": i, "delta": 1}, version).version
    assert a.can(LIST, version) == (True, False)
    with pytest.raises(Refused, match="nothing to redo"):
        a.step(LIST, False, version)


@pytest.mark.skipif(os.name == "nt", reason="several server processes need POSIX locks")
def test_the_shared_history_file_is_the_json_of_its_texts(ws):
    """The history file is written from the JSON of each text kept from the last write: the same
    file as the JSON of the whole, texts with quotes, backslashes and other scripts included."""
    import json

    from builder.lists.editor import History
    from builder.web.editing import SharedHistory

    h = SharedHistory(ws)
    texts = ['name: "quoted"\n', "notes: a \\\\ b\n", "name: 大名 ✓\n", "x\ty\u2028\n"]
    for n in range(1, len(texts) + 1):
        h.save(LIST, f"v{n}", History(texts[:n], texts[n:][::-1]))
        file = next((ws / ".daimyo" / "history").glob("*.json"))
        raw = file.read_text(encoding="utf-8")
        assert raw == json.dumps({"at": f"v{n}", "undo": texts[:n], "redo": texts[n:][::-1]})
        other = SharedHistory(ws)  # another process reads it
        assert other.load(LIST) == (f"v{n}", History(texts[:n], texts[n:][::-1]))
