"""One edit session for the library, the command line and the web builder.

Every change the builder page makes is a ``daimyo edit`` (or ``add``/``remove``/``set``)
command too, and both write the same file; one add from the builder page reads the new text
once and checks it once; the session's operations, undo and redo."""

from __future__ import annotations

import shutil

import pytest

from builder.lists.document import parse_list

from conftest import ROOT

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

TOKEN = "test-token-0123456789abcdef"
BASE = "http://127.0.0.1:8765"


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", root)
    return root


def data_of(path):
    return parse_list(path.read_text(encoding="utf-8"), str(path), base_dir=path.parent).data


def troops(path):
    return data_of(path)["troops"]


# -- the command line: each command changes the file, which reads back as that change ---------


def test_models_sets_adds_and_takes_models(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert troops(f)[1] == {"troop": "Samurai Yari", "models": 5}
    r = cli("edit", "models", f, 2, "7")
    assert r.code == 0, r  # 7 Samurai Yari take the army past its 200 AP: saved, and the check says so
    assert "Samurai Yari: 7 models" in r.stdout and "kensei.points-max" in r.stdout
    assert troops(f)[1] == {"troop": "Samurai Yari", "models": 7}
    assert cli("edit", "models", f, 2, "-3").code == 0
    assert troops(f)[1]["models"] == 4
    assert cli("edit", "models", f, 2, "+1").code == 0
    assert troops(f)[1]["models"] == 5
    text = f.read_text()
    assert "  - troop: Samurai Yari           # 25 AP\n    models: 5\n" in text  # comment and layout kept


def test_one_model_is_written_without_a_models_line_and_comes_back(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert cli("edit", "models", f, 2, "1").code == 0
    assert troops(f)[1] == {"troop": "Samurai Yari"}
    assert "# 25 AP" in f.read_text()
    assert cli("edit", "models", f, 2, "+2").code == 0
    assert troops(f)[1] == {"troop": "Samurai Yari", "models": 3}


@pytest.mark.parametrize(
    "args, message",
    [
        (("2", "0"), "models must be between 1 and 100000, not 0"),
        (("2", "-5"), "a unit has at least 1 model; use remove to take it off the list"),
        (("2", "100001"), "models must be between 1 and 100000, not 100001"),
        (("6", "3"), "no unit 6 in the list: it has 5 units"),
        (("2", "many"), "models must be a whole number, not 'many'"),
    ],
)
def test_models_out_of_bounds_are_refused_and_nothing_is_written(cli, ws, args, message):
    f = ws / "kensei-buke.yaml"
    before = f.read_text()
    r = cli("edit", "models", f, *args)
    assert r.code == 2 and message in r.stderr, r
    assert f.read_text() == before


def test_models_at_the_upper_bound_are_written(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert cli("edit", "models", f, 2, "100000").code == 0
    assert troops(f)[1]["models"] == 100000


def test_unit_counts_from_one(cli, ws):
    f = ws / "kensei-buke.yaml"
    r = cli("edit", "models", f, 0, "3")
    assert r.code == 2 and f.read_text() == (ROOT / "examples" / "kensei-buke.yaml").read_text()
    assert cli("edit", "models", f, 5, "3").code == 0  # the last unit
    assert troops(f)[4] == {"troop": "Yumi Samurai", "models": 3}


def test_duplicate_puts_a_twin_right_below(cli, ws):
    f = ws / "kensei-buke.yaml"
    r = cli("edit", "duplicate", f, 3)
    assert "added another Yari Ashigaru" in r.stdout
    t = troops(f)
    assert len(t) == 6 and t[2] == t[3] == {"troop": "Yari Ashigaru", "models": 9}
    assert f.read_text().count("# 45 AP") == 1  # the original's comment stays with it


def test_remove_unit_takes_that_unit_and_a_general_it_alone_was(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert cli("set", f, "general", "Taisho Buke").code == 0
    assert data_of(f)["general"] == "Taisho Buke"
    r = cli("edit", "remove-unit", f, 1)
    assert "removed Taisho Buke" in r.stdout
    d = data_of(f)
    assert "general" not in d and [t["troop"] for t in d["troops"]] == [
        "Samurai Yari",
        "Yari Ashigaru",
        "Samurai Dai-Katana",
        "Yumi Samurai",
    ]


def test_standard_on_and_off(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert "carries Hata-Jurushi" in cli("edit", "standard", f, 2, "on").stdout
    assert troops(f)[1] == {"troop": "Samurai Yari", "models": 5, "standard": True}
    assert cli("edit", "standard", f, 2, "off").code == 0
    assert troops(f)[1] == {"troop": "Samurai Yari", "models": 5}
    r = cli("edit", "standard", f, 2, "maybe")
    assert r.code == 2 and "say on or off, not 'maybe'" in r.stderr


def test_leader_names_a_unit_leader_in_the_catalog_spelling_and_none_takes_it_away(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert "led by Taisho Buke" in cli("edit", "leader", f, 2, "taisho buke").stdout
    assert troops(f)[1]["led_by"] == "Taisho Buke"
    assert "no unit leader" in cli("edit", "leader", f, 2, "none").stdout
    assert "led_by" not in troops(f)[1]
    r = cli("edit", "leader", f, 2, "Nobody Atall")
    assert r.code == 2 and "Nobody Atall" in r.stderr


def test_house_rule_agreed_refused_and_back_to_the_default(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert "leader_count = formula" in cli("edit", "house-rule", f, "leader_count", "formula").stdout
    assert data_of(f)["house_rules"] == {"leader_count": "formula"}
    before = f.read_text()
    r = cli("edit", "house-rule", f, "leader_count", "nonsense")
    assert r.code == 2 and "takes one of 'table', 'formula', not 'nonsense'" in r.stderr
    assert f.read_text() == before
    r = cli("edit", "house-rule", f, "leader_cout", "formula")
    assert r.code == 2 and "unknown house rule 'leader_cout'" in r.stderr and "leader_count" in r.stderr
    assert cli("edit", "house-rule", f, "leader_count", "default").code == 0
    assert "house_rules" not in data_of(f)


def test_notes_and_author_are_set_for_every_game(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert cli("set", f, "notes", "on: the left flank").code == 0
    assert cli("set", f, "author", "Me").code == 0
    d = data_of(f)
    assert d["notes"] == "on: the left flank" and d["author"] == "Me"
    r = cli("set", f, "notes", "word " * 400 + "!")
    assert r.code == 2 and "notes is too long (at most 2000 characters)" in r.stderr
    assert cli("set", f, "notes", "word " * 399 + "word!").code == 0
    assert len(data_of(f)["notes"]) == 2000
    assert cli("set", f, "notes", "").code == 0
    assert "notes" not in data_of(f)


def test_a_long_name_is_text_and_a_long_number_is_refused(cli, ws):
    f = ws / "kensei-buke.yaml"
    assert cli("set", f, "name", "A name that is longer than thirty characters").code == 0
    assert data_of(f)["name"] == "A name that is longer than thirty characters"
    r = cli("set", f, "points", "1" * 31)
    assert r.code == 2 and "number out of range: a number of 31 digits" in r.stderr


def test_copies_makes_a_card_count_exactly_n(cli, ws):
    f = ws / "senshiai-northern-host.yaml"
    assert data_of(f)["cards"]["Warriors"] == 6
    r = cli("edit", "copies", f, "warriors", 8)
    assert r.code == 0 and "deck has 52 cards but the agreed size is 50" in r.stdout
    assert data_of(f)["cards"]["Warriors"] == 8
    assert cli("edit", "copies", f, "Warriors", 6).code == 0
    assert data_of(f)["cards"]["Warriors"] == 6
    assert "# troops" in f.read_text()
    r = cli("edit", "copies", f, "Warriors", 1001)
    assert r.code == 2


def test_copies_do_not_apply_to_an_army(cli, ws):
    r = cli("edit", "copies", ws / "kensei-buke.yaml", "Samurai Yari", 2)
    assert r.code == 2 and "copies apply to cards, not to kensei troops" in r.stderr


def test_unit_edits_do_not_apply_to_a_deck(cli, ws):
    f = ws / "senshiai-northern-host.yaml"
    before = f.read_text()
    r = cli("edit", "models", f, 1, "3")
    assert r.code == 2 and "models applies to units of models, not to senshiai cards" in r.stderr
    assert f.read_text() == before


def test_senji_player_and_province(cli, ws):
    f = ws / "senji-three-daimyo.yaml"
    assert "player 2 is called Kenta" in cli("edit", "player", f, 2, "name", "Kenta").stdout
    assert data_of(f)["players"][1]["name"] == "Kenta"
    assert cli("edit", "province", f, 1, 2, "units", "3").code in (0, 1)
    assert data_of(f)["players"][0]["provinces"][1] == {"province": "Mino", "units": 3}
    assert cli("edit", "province", f, 1, 3, "remove").code in (0, 1)
    assert [p["province"] for p in data_of(f)["players"][0]["provinces"]] == ["Owari", "Mino"]
    r = cli("edit", "province", f, 1, 9, "units", "1")
    assert r.code == 2 and "no such province of that player" in r.stderr


# -- the page and the command line make the same change ------------------------------------------

SAME = [
    ("kensei-buke.yaml", {"op": "models", "index": 1, "value": "6"}, ("edit", "models", "2", "6")),
    ("kensei-buke.yaml", {"op": "models", "index": 1, "delta": "-1"}, ("edit", "models", "2", "-1")),
    ("kensei-buke.yaml", {"op": "duplicate", "index": 0}, ("edit", "duplicate", "1")),
    ("kensei-buke.yaml", {"op": "remove", "index": 2}, ("edit", "remove-unit", "3")),
    (
        "kensei-buke.yaml",
        {"op": "troop", "index": 1, "field": "standard", "value": "on"},
        ("edit", "standard", "2", "on"),
    ),
    (
        "kensei-buke.yaml",
        {"op": "troop", "index": 1, "field": "led_by", "value": "Taisho Buke"},
        ("edit", "leader", "2", "Taisho Buke"),
    ),
    (
        "kensei-buke.yaml",
        {"op": "house_rule", "key": "leader_count", "value": "formula"},
        ("edit", "house-rule", "leader_count", "formula"),
    ),
    ("kensei-buke.yaml", {"op": "set", "key": "general", "value": "Taisho Buke"}, ("set", "general", "Taisho Buke")),
    ("kensei-buke.yaml", {"op": "set", "key": "notes", "value": "my notes"}, ("set", "notes", "my notes")),
    (
        "kensei-buke.yaml",
        {"op": "add", "item": "Yari Ashigaru", "models": "4"},
        ("add", "Yari Ashigaru", "--models", "4"),
    ),
    (
        "senshiai-northern-host.yaml",
        {"op": "copies", "item": "Warriors", "value": "3"},
        ("edit", "copies", "Warriors", "3"),
    ),
    (
        "senshiai-northern-host.yaml",
        {"op": "remove", "item": "Warriors", "count": "2"},
        ("remove", "Warriors", "--count", "2"),
    ),
    (
        "senji-three-daimyo.yaml",
        {"op": "part", "where": "players/0/provinces/0", "field": "samurai", "value": ""},
        ("edit", "province", "1", "1", "samurai", "off"),
    ),
    (
        "senji-three-daimyo.yaml",
        {"op": "part", "where": "players/2", "field": "family", "value": "yellow"},
        ("edit", "player", "3", "family", "yellow"),
    ),
]


@pytest.mark.parametrize("name, form, args", SAME, ids=[" ".join(a[:2]) + f" {f.get('op')}" for _n, f, a in SAME])
def test_the_page_and_the_command_line_write_the_same_file(cli, tmp_path, name, form, args):
    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    web, line = tmp_path / "web", tmp_path / "cli"
    for d in (web, line):
        shutil.copytree(ROOT / "examples", d)
    app = create_app(web, token=TOKEN, port=8765)
    c = TestClient(app, base_url=BASE)
    assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
    c.headers.update({"X-CSRF-Token": app.csrf})
    r = c.post(f"/l/{name}/edit", data=form)
    assert r.status_code == 200, r.text
    r = cli(args[0], *args[1:2], line / name, *args[2:]) if args[0] == "edit" else cli(args[0], line / name, *args[1:])
    assert r.code in (0, 1), r
    assert (web / name).read_text() == (line / name).read_text() != (ROOT / "examples" / name).read_text()


# -- one add from the builder page: one read of the new text, one check -----------------------


def test_one_add_from_the_builder_page_reads_once_and_checks_once(ws, monkeypatch):
    from fastapi.testclient import TestClient

    import builder.games.kensei.rules
    import builder.kit.edit
    import builder.lists.check
    import builder.lists.document
    import builder.yamlio
    from builder.web.app import create_app

    app = create_app(ws, token=TOKEN, port=8765)
    c = TestClient(app, base_url=BASE)
    assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
    c.headers.update({"X-CSRF-Token": app.csrf})
    page = c.get("/l/kensei-buke.yaml")  # the builder page, as a person opens it
    assert page.status_code == 200
    import re

    version = re.search(r'name="version" id="version" value="([0-9a-f]+)"', page.text).group(1)

    calls: dict[str, int] = {}

    def counted(module, name):
        real = getattr(module, name)

        def spy(*args, **kwargs):
            calls[name] = calls.get(name, 0) + 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, spy)

    counted(builder.lists.document, "parse_list")  # text -> list document
    counted(builder.yamlio, "parse_yaml")  # the YAML reader under it
    counted(builder.kit.edit, "load_roundtrip")  # the round-trip reader
    counted(builder.lists.check, "check_doc")  # a check
    counted(builder.games.kensei.rules, "load_list")  # the rules' reading of the list
    counted(builder.games.kensei.rules, "check")
    r = c.post("/l/kensei-buke.yaml/edit", data={"op": "add", "item": "Yari Ashigaru", "version": version})
    assert r.status_code == 200 and "added" in r.text and "Yari Ashigaru" in r.text
    assert troops(ws / "kensei-buke.yaml")[-1] == {"troop": "Yari Ashigaru", "models": 3}
    assert calls.get("parse_list") == 1 and calls.get("check_doc") == 1, calls
    assert calls.get("load_list") == 1 and calls.get("check") == 1, calls
    assert calls.get("parse_yaml", 0) <= 1 and calls.get("load_roundtrip", 0) == 0, calls


# -- the session in the library ---------------------------------------------------------------------


def test_typed_operations_undo_and_redo():
    from builder.games.kensei.edits import Duplicate, Models, Standard
    from builder.lists.editor import ListEditor
    from builder.lists.ops import HouseRule

    ed = ListEditor.open(ROOT / "examples" / "kensei-buke.yaml")
    start = ed.text
    ed.apply(Models(1, value=6))
    ed.apply(Duplicate(1))
    ed.apply(Standard(2, True))
    ed.apply(HouseRule("leader_count", "formula"))
    assert ed.doc.data["troops"][1:3] == [
        {"troop": "Samurai Yari", "models": 6},
        {"troop": "Samurai Yari", "models": 6, "standard": True},
    ]
    after = ed.text
    for _ in range(4):
        ed.undo()
    assert ed.text == start and not ed.can_undo
    for _ in range(4):
        ed.redo()
    # the buke sample's 200 AP, one Samurai Yari more (5 AP), a unit of six more (30 AP)
    assert ed.text == after and ed.check().summary["points"] == 200 + 5 + 30


def test_an_operation_that_cannot_be_done_leaves_the_session_as_it_was():
    from builder.errors import UsageError
    from builder.games.kensei.edits import Models
    from builder.lists.editor import ListEditor

    ed = ListEditor.open(ROOT / "examples" / "kensei-buke.yaml")
    text, result = ed.text, ed.check()
    with pytest.raises(UsageError, match="at least 1 model"):
        ed.apply(Models(1, delta=-5))
    assert ed.text == text and ed.check() is result and not ed.can_undo


def test_a_change_that_changes_nothing_is_not_an_undo_step():
    from builder.lists.editor import ListEditor
    from builder.lists.ops import Copies

    ed = ListEditor.open(ROOT / "examples" / "senshiai-northern-host.yaml")
    change = ed.apply(Copies("Warriors", 6))
    assert change.notes == [] and not ed.can_undo


def test_undo_and_redo_soon_after_an_edit_take_the_states_kept_and_match_a_fresh_check(monkeypatch):
    import builder.lists.check
    from builder.games.kensei.edits import Models
    from builder.lists.editor import RECENT, ListEditor

    ed = ListEditor.open(ROOT / "examples" / "kensei-buke.yaml")
    start, start_result = ed.text, ed.check()
    texts = [start]
    for n in range(RECENT + 2):  # more edits than states are kept
        ed.apply(Models(1, value=2 + n))
        texts.append(ed.text)
    checks: list = []
    real = builder.lists.check.check_doc

    def spy(*args, **kwargs):
        checks.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(builder.lists.check, "check_doc", spy)
    ed.undo()
    ed.redo()
    ed.undo()
    assert checks == []  # the states of the last edits are taken as they were
    for _ in range(RECENT + 1):  # back past what is kept: read and checked again
        ed.undo()
    assert ed.text == start and not ed.can_undo and checks
    fresh = ListEditor.from_text(start, file=ed.file, base_dir=ed.base_dir).check()
    again = ed.check()
    assert again.summary == fresh.summary == start_result.summary
    assert [f.code for f in again.findings] == [f.code for f in fresh.findings]
    while ed.can_redo:  # and forward again: each state is the one of its text
        ed.redo()
        assert ed.doc.data["troops"][1]["models"] == ListEditor.from_text(ed.text).doc.data["troops"][1]["models"]
        assert ed.check().summary == ListEditor.from_text(ed.text, base_dir=ed.base_dir).check().summary
    assert ed.text == texts[-1]


def test_the_history_of_a_session_carries_on_in_a_new_session_of_the_same_text():
    """What a server does when it reads a list again: the new session takes the history."""
    from builder.games.kensei.edits import Models
    from builder.lists.editor import HISTORY, History, ListEditor

    ed = ListEditor.open(ROOT / "examples" / "kensei-buke.yaml")
    start = ed.text
    for n in range(HISTORY + 1):  # one edit more than is kept
        ed.apply(Models(1, value=2 + n % 5))
    assert len(ed.history.undo) == HISTORY and ed.history.redo == []
    fresh = ListEditor.from_text(ed.text, file=ed.file, base_dir=ed.base_dir)
    assert fresh.history == History() and not fresh.can_undo
    fresh.history = ed.history
    while fresh.can_undo:
        fresh.undo()
    assert fresh.text != start  # the first edit was let go
    assert fresh.doc.data["troops"][1]["models"] == 2 and len(fresh.history.redo) == HISTORY
    fresh.redo()
    assert fresh.can_undo and fresh.doc.data["troops"][1]["models"] == 3
