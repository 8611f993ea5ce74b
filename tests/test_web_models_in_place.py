"""The builder's +/- on a unit is made in the text (one line changed, taken out or put in) by
the edit session when it can be: the file must then be exactly what the round-trip YAML tree
writes, and anything the text alone cannot do safely goes to the tree."""

from __future__ import annotations

import shutil

import pytest

from builder.lists import splice
from builder.lists.document import parse_list
from builder.lists.editor import ListEditor
from builder.web.editing import Editor
from builder.web.workspace import Workspace

from conftest import ROOT

SPLICED = ListEditor._spliced
KENSEI = sorted(p.name for p in (ROOT / "examples").glob("kensei-*.yaml"))


def _ops(troops):
    """Every kind of models change for each unit: up, down (to one model, and back up), a value."""
    for i, t in enumerate(troops):
        if not isinstance(t, dict):
            continue
        have = t.get("models", 1)
        yield {"op": "models", "index": i, "delta": 1}
        yield {"op": "models", "index": i, "value": 1}
        yield {"op": "models", "index": i, "delta": 1}  # from one model: the models line comes back
        yield {"op": "models", "index": i, "value": have}


def _run(folder, name, ops, quick: bool, monkeypatch):
    used = []  # per change: made in the text (spliced and read back as that change)
    real = SPLICED

    def spy(self, edit):
        out = real(self, edit)
        used.append(out is not None)
        return out

    monkeypatch.setattr(splice, "MIN_CHARS", 0 if quick else 10**9)
    monkeypatch.setattr(ListEditor, "_spliced", spy)
    ed = Editor(Workspace(folder))
    texts = []
    for op in ops:
        ed.apply(name, op, None)
        texts.append((folder / name).read_text(encoding="utf-8"))
    return texts, used


def _both(tmp_path, name, text, monkeypatch, ops=None):
    results = {}
    for quick in (True, False):
        folder = tmp_path / ("quick" if quick else "tree")
        folder.mkdir()
        if (ROOT / "examples" / "packs").exists():
            shutil.copytree(ROOT / "examples" / "packs", folder / "packs")
        (folder / name).write_text(text, encoding="utf-8")
        todo = ops if ops is not None else list(_ops(parse_list(text, name).data["troops"]))
        results[quick] = _run(folder, name, todo, quick, monkeypatch)
    return results


@pytest.mark.parametrize("name", KENSEI)
def test_models_changed_on_the_text_write_what_the_tree_writes(name, tmp_path, monkeypatch):
    text = (ROOT / "examples" / name).read_text(encoding="utf-8")
    results = _both(tmp_path, name, text, monkeypatch)
    (quick_texts, used), (tree_texts, _) = results[True], results[False]
    assert quick_texts == tree_texts
    assert all(used), "every change of these block-style lists is made on the text"


HEAD = "# my army\nsystem: kensei\nname: Odd shapes\nclan: buke\npoints: 200\ntroops:\n"


@pytest.mark.parametrize(
    "troops, on_text",
    [
        # on_text: which of the three changes (7 models, 1 model, 3 models) the text alone makes
        ("  - {troop: Yari Ashigaru, models: 6}\n", [False, False, False]),  # flow style: the tree
        ("  - Yari Ashigaru\n", [False, True, True]),  # a bare name: the tree makes it a mapping first
        ("  - troop: Yari Ashigaru  # the spears\n", [True, True, True]),  # the comment stays on its line
        ("  - troop: Yari Ashigaru\n    models: 6  # six\n", [True, False, True]),  # the comment keeps its line
        ("  - troop: 'Yari Ashigaru'\n", [True, True, True]),  # a quoted name: the line goes in below it
        ("  - troop: Yari Ashigaru\n    models: 6", [True, True, True]),  # no newline at the end
        ("  - troop: Yari Ashigaru\n    standard: true\n", [True, True, True]),
    ],
)
def test_odd_shapes_change_the_models_as_the_tree_does(troops, on_text, tmp_path, monkeypatch):
    ops = [
        {"op": "models", "index": 0, "delta": 1},
        {"op": "models", "index": 0, "value": 1},
        {"op": "models", "index": 0, "value": 3},
    ]
    results = _both(tmp_path, "odd.yaml", HEAD + troops, monkeypatch, ops)
    (quick_texts, used), (tree_texts, _) = results[True], results[False]
    for q, t in zip(quick_texts, tree_texts, strict=False):  # the same list; the text may keep more of its shape
        assert parse_list(q, "q.yaml").data == parse_list(t, "t.yaml").data
    assert quick_texts[-1].startswith("# my army\n")
    assert used == on_text


def test_a_splice_that_reads_back_wrong_goes_to_the_tree(tmp_path, monkeypatch):
    """The text alone is trusted only when it reads back as exactly the change."""
    real = splice.splice_edit

    def broken(text, doc, tree, new=None):
        out = real(text, doc, tree, new)
        return None if out is None else out.replace("points: 200", "points: 250")

    monkeypatch.setattr(splice, "splice_edit", broken)
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "a.yaml").write_text(HEAD + "  - troop: Yari Ashigaru\n    models: 6\n", encoding="utf-8")
    Editor(Workspace(folder)).apply("a.yaml", {"op": "models", "index": 0, "delta": 1}, None)
    data = parse_list((folder / "a.yaml").read_text(encoding="utf-8"), "a.yaml").data
    assert data["points"] == 200 and data["troops"][0]["models"] == 7
