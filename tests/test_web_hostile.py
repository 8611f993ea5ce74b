"""The web builder against hostile files and racing requests, on a real server on 127.0.0.1:
pipes and huge files in the served folder, workspace operations at the same moment, undo
after a change made elsewhere, long edits beside other requests."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from plainhttp import no_tls

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token-hostile-0123456789"
WAIT = 60.0  # seconds before a request counts as hung (a working server answers in well under one)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, ws: Path):
        import uvicorn

        from builder.web.app import create_app

        self.ws = ws
        self.port = _port()
        self.app = create_app(ws, token=TOKEN, port=self.port)
        self.srv = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="critical", access_log=False)
        )
        self.thread = threading.Thread(target=self.srv.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 30
        while not self.srv.started:
            if time.time() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.005)
        self.url = f"http://127.0.0.1:{self.port}"

    def client(self) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=WAIT, verify=no_tls()
        )

    def stop(self):
        self.srv.should_exit = True
        self.thread.join(5)


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", root)
    return root


@pytest.fixture()
def server(ws):
    s = Server(ws)
    yield s
    s.stop()


@pytest.fixture()
def api(server):
    with server.client() as c:
        yield c


def _at_once(*calls):
    """Run the calls at the same moment (each in its own thread, released together)."""
    gate = threading.Barrier(len(calls))

    def run(fn):
        gate.wait()
        return fn()

    with ThreadPoolExecutor(len(calls)) as pool:
        return [f.result() for f in [pool.submit(run, fn) for fn in calls]]


# -- files the server must never block on or read whole ------------------------------------------


def test_a_pipe_named_like_a_list_or_a_pack_never_blocks_the_server(server, api, ws):
    os.mkfifo(ws / "trap.yaml")
    os.mkfifo(ws / "packs" / "trap-pack.yaml")
    r = api.get("/api/lists")
    assert r.status_code == 200
    listed = {x["path"]: x for x in r.json()["lists"]}
    assert "not a regular file" in listed["trap.yaml"]["problem"]
    page = api.get("/", headers={"Cookie": f"daimyo_{server.port}={TOKEN}"})
    assert page.status_code == 200 and "kensei-buke.yaml" in page.text
    assert api.get("/static/app.css").status_code == 200
    assert api.post("/api/lists/trap.yaml/duplicate", json={}).status_code == 404
    assert api.get("/api/lists/trap.yaml").status_code == 404


def test_a_file_over_the_size_limit_is_never_read(server, api, ws):
    from builder.limits import MAX_FILE_BYTES

    with open(ws / "huge.yaml", "wb") as fh:  # sparse: no disk space taken
        fh.truncate(MAX_FILE_BYTES + 1)
    with open(ws / "packs" / "huge-pack.yaml", "wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)
    r = api.get("/api/lists")
    assert r.status_code == 200
    listed = {x["path"]: x for x in r.json()["lists"]}
    assert "file too large" in listed["huge.yaml"]["problem"]
    page = api.get("/", headers={"Cookie": f"daimyo_{server.port}={TOKEN}"})
    assert page.status_code == 200
    r = api.post("/api/lists/huge.yaml/duplicate", json={"to": "copy.yaml"})
    assert r.status_code == 400 and "file too large" in r.json()["error"]
    assert not (ws / "copy.yaml").exists()


def test_a_list_at_the_size_limit_is_duplicated(server, api, ws):
    from builder.limits import MAX_FILE_BYTES

    text = (ws / "kensei-buke.yaml").read_text()
    padded = text + "#" * (MAX_FILE_BYTES - len(text.encode()) - 1) + "\n"
    (ws / "big.yaml").write_text(padded)
    r = api.post("/api/lists/big.yaml/duplicate", json={"to": "big-copy.yaml"})
    assert r.status_code == 201 and (ws / "big-copy.yaml").read_text() == padded


# -- workspace operations at the same moment: nothing lost, exactly one success ---------------------

TRIALS = 30


def _lists(ws: Path) -> dict[str, str]:
    return {p.relative_to(ws).as_posix(): p.read_text() for p in ws.rglob("*.yaml") if ".trash" not in p.parts}


def _trash(ws: Path) -> list[str]:
    return sorted(p.read_text() for p in (ws / ".trash").glob("*")) if (ws / ".trash").exists() else []


def test_two_renames_to_one_name(server, api, ws):
    for n in range(TRIALS):
        a, b = ws / f"a{n}.yaml", ws / f"b{n}.yaml"
        a.write_text(f"system: kensei\nname: A {n}\nclan: buke\ntroops: []\n")
        b.write_text(f"system: kensei\nname: B {n}\nclan: buke\ntroops: []\n")
        texts = {a.read_text(), b.read_text()}
        codes = sorted(
            r.status_code
            for r in _at_once(
                lambda n=n: api.post(f"/api/lists/a{n}.yaml/rename", json={"to": f"same{n}.yaml"}),
                lambda n=n: api.post(f"/api/lists/b{n}.yaml/rename", json={"to": f"same{n}.yaml"}),
            )
        )
        assert codes == [200, 409], n
        left = {p.read_text() for p in (a, b, ws / f"same{n}.yaml") if p.exists()}
        assert left == texts, n  # both lists still there: one renamed, the other untouched


def test_two_imports_to_one_name(server, api, ws):
    for n in range(TRIALS):
        bodies = [
            {
                "text": f"system: kensei\nname: Import {n} {who}\nclan: buke\npoints: 200\ntroops: []\n",
                "file": f"imp{n}.yaml",
            }
            for who in ("one", "two")
        ]
        rs = _at_once(*[lambda b=b: api.post("/api/import", json=b) for b in bodies])
        assert sorted(r.status_code for r in rs) == [201, 409], n
        winner = bodies[[r.status_code for r in rs].index(201)]
        assert (ws / f"imp{n}.yaml").read_text() == winner["text"]


def test_two_imports_named_by_the_list_both_get_a_file(server, api, ws):
    for n in range(TRIALS):
        body = {"text": f"system: kensei\nname: Twin {n}\nclan: buke\npoints: 200\ntroops: []\n"}
        rs = _at_once(
            lambda body=body: api.post("/api/import", json=body), lambda body=body: api.post("/api/import", json=body)
        )
        assert [r.status_code for r in rs] == [201, 201], n
        paths = {r.json()["path"] for r in rs}
        assert len(paths) == 2 and all((ws / p).exists() for p in paths), n


def test_two_duplicates_to_one_name(server, api, ws):
    for n in range(TRIALS):
        rs = _at_once(
            lambda n=n: api.post("/api/lists/kensei-buke.yaml/duplicate", json={"to": f"dup{n}.yaml"}),
            lambda n=n: api.post("/api/lists/kensei-kuge.yaml/duplicate", json={"to": f"dup{n}.yaml"}),
        )
        assert sorted(r.status_code for r in rs) == [201, 409], n
        assert (ws / f"dup{n}.yaml").read_text() in (
            (ws / "kensei-buke.yaml").read_text(),
            (ws / "kensei-kuge.yaml").read_text(),
        )


def test_two_duplicates_without_a_name_make_two_copies(server, api, ws):
    for _ in range(10):
        rs = _at_once(
            lambda: api.post("/api/lists/kensei-sohei.yaml/duplicate", json={}),
            lambda: api.post("/api/lists/kensei-sohei.yaml/duplicate", json={}),
        )
        assert [r.status_code for r in rs] == [201, 201]
        assert len({r.json()["path"] for r in rs}) == 2
    assert len(list(ws.glob("kensei-sohei-copy*.yaml"))) == 20


def test_two_new_lists_with_one_name(server, api, ws):
    for n in range(TRIALS):
        rs = _at_once(
            *[
                lambda s=s, n=n: api.post("/api/lists", json={"file": f"new{n}.yaml", "system": s})
                for s in ("senshiai", "satsuma")
            ]
        )
        assert sorted(r.status_code for r in rs) == [201, 409], n
        won = "senshiai" if rs[0].status_code == 201 else "satsuma"
        assert f"system: {won}" in (ws / f"new{n}.yaml").read_text()


def test_two_deletes_in_one_second_keep_both_lists_in_the_trash(server, api, ws):
    (ws / "sub").mkdir()
    for n in range(TRIALS):
        # 'sub/x.yaml' and 'sub__x.yaml' go to the same trash name in the same second
        (ws / "sub" / f"x{n}.yaml").write_text(f"system: kensei\nname: in sub {n}\nclan: buke\ntroops: []\n")
        (ws / f"sub__x{n}.yaml").write_text(f"system: kensei\nname: flat {n}\nclan: buke\ntroops: []\n")
        rs = _at_once(
            lambda n=n: api.delete(f"/api/lists/sub/x{n}.yaml"), lambda n=n: api.delete(f"/api/lists/sub__x{n}.yaml")
        )
        assert [r.status_code for r in rs] == [200, 200], n
        assert rs[0].json()["trash"] != rs[1].json()["trash"]
    trash = _trash(ws)
    assert len(trash) == 2 * TRIALS
    for n in range(TRIALS):
        assert any(f"name: in sub {n}\n" in t for t in trash) and any(f"name: flat {n}\n" in t for t in trash)


def test_two_deletes_of_one_list(server, api, ws):
    for n in range(TRIALS):
        (ws / f"del{n}.yaml").write_text(f"system: kensei\nname: del {n}\nclan: buke\ntroops: []\n")
        rs = _at_once(
            lambda n=n: api.delete(f"/api/lists/del{n}.yaml"), lambda n=n: api.delete(f"/api/lists/del{n}.yaml")
        )
        assert sorted(r.status_code for r in rs) == [200, 404], n
    assert len(_trash(ws)) == TRIALS


def test_two_changes_of_one_list_at_once_are_both_kept(server, api, ws):
    for _ in range(10):
        rs = _at_once(
            *[
                lambda t=t: api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "add", "item": t})
                for t in ("Yari Ashigaru", "Ashigaru Teppo")
            ]
        )
        assert [r.status_code for r in rs] == [200, 200]
    text = (ws / "kensei-buke.yaml").read_text()
    assert text.count("troop: Ashigaru Teppo") == 10 and text.count("troop: Yari Ashigaru") == 11


# -- long work never holds up other requests -----------------------------------------------------


def test_an_edit_in_progress_does_not_hold_up_other_requests(server, api, ws, monkeypatch):
    """While a change is being worked out (held here until the other requests are answered),
    static files, the workspace page and other lists are served: a change that ran on the
    event loop would keep them waiting until WAIT runs out."""
    from builder.lists.editor import ListEditor

    release, started = threading.Event(), threading.Event()
    original = ListEditor.apply

    def held(*args, **kwargs):
        started.set()
        release.wait(WAIT)
        return original(*args, **kwargs)

    monkeypatch.setattr(ListEditor, "apply", held)
    with ThreadPoolExecutor(1) as pool:
        edit = pool.submit(
            api.post, "/api/lists/kensei-buke.yaml/edit", json={"op": "set", "key": "name", "value": "Renamed"}
        )
        assert started.wait(WAIT)
        try:
            assert api.get("/static/app.css").status_code == 200
            assert api.get("/api/lists/kensei-kuge.yaml/check").status_code == 200
            assert not edit.done()  # the edit is still held: the answers above did not wait for it
        finally:
            release.set()
        assert edit.result().status_code == 200
    assert "name: Renamed" in (ws / "kensei-buke.yaml").read_text()


def test_a_sheet_being_added_to_a_pack_does_not_hold_up_other_requests(server, api, ws, monkeypatch):
    """While the pack editor adds the rows of a spreadsheet (held here until the other requests
    are answered), the server answers other pages: an import on the event loop would keep them
    waiting until WAIT runs out."""
    from builder.packs import sheet

    release, started = threading.Event(), threading.Event()
    original = sheet.import_sheet

    def held(*args, **kwargs):
        started.set()
        release.wait(WAIT)
        return original(*args, **kwargs)

    monkeypatch.setattr(sheet, "import_sheet", held)
    csv = api.get("/packs/edit/senshiai-example.yaml/sheet.csv").text.replace(
        "Capital of the North", "Capital of the Sea"
    )
    with ThreadPoolExecutor(1) as pool:
        upload = pool.submit(
            api.post,
            "/packs/edit/senshiai-example.yaml/upload",
            files={"sheet": ("more.csv", csv.encode(), "text/csv")},
        )
        assert started.wait(WAIT)
        try:
            assert api.get("/static/app.css").status_code == 200
            assert api.get("/api/lists/kensei-kuge.yaml/check").status_code == 200
            assert not upload.done()
        finally:
            release.set()
        assert upload.result().status_code in (200, 204, 303)
    assert "Capital of the Sea" in (ws / "packs" / "senshiai-example.yaml").read_text()


def test_a_restore_being_written_does_not_hold_up_other_requests(server, api, ws, monkeypatch):
    """Restoring a zip (held here while it writes) leaves the server answering other pages."""
    import io
    import zipfile

    from builder.web import backup

    release, started = threading.Event(), threading.Event()
    original = backup.restore

    def held(*args, **kwargs):
        started.set()
        release.wait(WAIT)
        return original(*args, **kwargs)

    monkeypatch.setattr(backup, "restore", held)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("club/restored.yaml", (ws / "kensei-buke.yaml").read_text())
    with ThreadPoolExecutor(1) as pool:
        done = pool.submit(api.post, "/restore", files={"zip": ("b.zip", buf.getvalue(), "application/zip")})
        assert started.wait(WAIT)
        try:
            assert api.get("/static/app.css").status_code == 200
            assert api.get("/api/lists/kensei-kuge.yaml/check").status_code == 200
            assert not done.done()
        finally:
            release.set()
        assert done.result().status_code == 200
    assert (ws / "club" / "restored.yaml").is_file()


# -- undo never erases a change made elsewhere -----------------------------------------------------


def test_undo_after_a_change_from_the_command_line_is_refused(server, api, ws, cli):
    path = ws / "kensei-buke.yaml"
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "set", "key": "name", "value": "Web name"})
    assert r.status_code == 200
    assert cli("add", str(path), "Ashigaru Teppo").code == 0  # the command line, between
    outside = path.read_text()
    assert "Ashigaru Teppo" in outside and "Web name" in outside
    r = api.post("/api/lists/kensei-buke.yaml/undo", json={})
    assert r.status_code == 409 and "changed outside the builder" in r.json()["error"]
    assert path.read_text() == outside
    r = api.post("/api/lists/kensei-buke.yaml/redo", json={})
    assert r.status_code == 409 and path.read_text() == outside
    page = api.get("/l/kensei-buke.yaml", headers={"Cookie": f"daimyo_{server.port}={TOKEN}"})
    assert page.status_code == 200 and "changed outside" not in page.text


def test_undo_of_the_servers_own_change_still_works(server, api, ws):
    path = ws / "kensei-buke.yaml"
    before = path.read_text()
    api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "set", "key": "name", "value": "Web name"})
    assert api.post("/api/lists/kensei-buke.yaml/undo", json={}).status_code == 200
    assert path.read_text() == before
    assert api.post("/api/lists/kensei-buke.yaml/redo", json={}).status_code == 200
    assert "name: Web name" in path.read_text()


# -- refusals are 4xx in one line ------------------------------------------------------------------


def test_a_house_rule_value_the_rule_does_not_take_is_a_400(api, ws):
    before = (ws / "kensei-buke.yaml").read_text()
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "house_rule", "key": "leader_count", "value": "bogus"})
    assert r.status_code == 400
    assert "leader_count" in r.json()["error"] and "'table'" in r.json()["error"] and "bogus" in r.json()["error"]
    assert (ws / "kensei-buke.yaml").read_text() == before
    r = api.post(
        "/api/lists/kensei-buke.yaml/edit", json={"op": "house_rule", "key": "leader_count", "value": "formula"}
    )
    assert r.status_code == 200


def test_lists_are_made_at_most_three_folders_deep(api, ws):
    r = api.post("/api/lists", json={"file": "a/b/c/ok.yaml", "system": "senshiai"})
    assert r.status_code == 201 and (ws / "a/b/c/ok.yaml").is_file()
    assert any(x["path"] == "a/b/c/ok.yaml" for x in api.get("/api/lists").json()["lists"])
    r = api.post("/api/lists", json={"file": "a/b/c/d/deep.yaml", "system": "senshiai"})
    assert r.status_code == 400 and "3 folders deep" in r.json()["error"]
    assert not (ws / "a/b/c/d").exists()
    for call in (
        lambda: api.post(
            "/api/import", json={"text": (ws / "kensei-buke.yaml").read_text(), "file": "a/b/c/d/imp.yaml"}
        ),
        lambda: api.post("/api/lists/kensei-buke.yaml/duplicate", json={"to": "a/b/c/d/dup.yaml"}),
        lambda: api.post("/api/lists/kensei-buke.yaml/rename", json={"to": "a/b/c/d/ren.yaml"}),
    ):
        r = call()
        assert r.status_code == 400 and "3 folders deep" in r.json()["error"]
    assert not (ws / "a/b/c/d").exists() and (ws / "kensei-buke.yaml").exists()


def test_a_new_list_through_the_api_takes_the_forms_defaults(api, ws):
    from builder.check import check_file

    r = api.post("/api/lists", json={"file": "hero.yaml", "system": "herocard"})
    assert r.status_code == 201
    assert check_file(str(ws / "hero.yaml")).system == "herocard"
    assert "hero:" in (ws / "hero.yaml").read_text()
    r = api.post("/api/lists", json={"file": "sat.yaml", "system": "satsuma"})
    assert r.status_code == 201 and "side: samurai" in (ws / "sat.yaml").read_text()
    r = api.post("/api/lists", json={"file": "senji.yaml", "system": "senji"})
    assert r.status_code == 201
    r = api.post("/api/lists", json={"file": "army.yaml", "system": "kensei"})  # no default clan: say so
    assert r.status_code == 400 and "clan" in r.json()["error"]
    assert not (ws / "army.yaml").exists()


# -- a big list is changed in its text: the same result as the round-trip tree --------------------


def _big_list(n: int) -> str:
    troops = "".join(
        f"  - troop: Yari Ashigaru    # unit {i}\n    models: 9\n"
        if i % 2
        else "  - troop: Samurai Yari\n    models: 5\n"
        for i in range(n)
    )
    return (
        "# my big army\nsystem: kensei\nname: Big  # the name\nclan: buke\npoints: 200\n"
        f"commander: hatamoto\ntroops:\n{troops}# the end\n"
    )


@pytest.mark.parametrize(
    "op",
    [
        {"op": "set", "key": "name", "value": "Bigger"},
        {"op": "set", "key": "name", "value": ""},
        {"op": "set", "key": "notes", "value": "a note: with a colon"},
        {"op": "set", "key": "author", "value": "Me"},
        {"op": "house_rule", "key": "leader_count", "value": "formula"},
        {"op": "models", "index": 7, "value": 4},
        {"op": "models", "index": 6, "delta": -4},
        {"op": "troop", "index": 3, "field": "standard", "value": "on"},
        {"op": "duplicate", "index": 5},
        {"op": "remove", "index": 2},
    ],
)
def test_a_change_of_a_big_list_is_the_change_the_round_trip_tree_makes(tmp_path, op, monkeypatch):
    import builder.web.editing as editing
    from builder.lists import splice
    from builder.lists.document import parse_list
    from builder.web.workspace import Workspace

    text = _big_list(200)  # 400 lines: the splice and the tree meet on every kind of line
    results = {}
    for how, threshold in (("spliced", 0), ("tree", 10**9)):
        monkeypatch.setattr(splice, "MIN_CHARS", threshold)
        folder = tmp_path / how
        folder.mkdir()
        (folder / "big.yaml").write_text(text)
        out = editing.Editor(Workspace(folder)).apply("big.yaml", dict(op), None)
        results[how] = ((folder / "big.yaml").read_text(), out.notes)
    spliced, tree = results["spliced"], results["tree"]
    assert spliced[1] == tree[1]
    assert parse_list(spliced[0], "a").data == parse_list(tree[0], "b").data != parse_list(text, "c").data
    for comment in ("# my big army", "# unit 11", "# the end"):
        assert comment in spliced[0]
    if op.get("key") == "name" and op["value"]:
        assert "name: Bigger  # the name\n" in spliced[0]


def test_an_import_of_a_list_check_cannot_read_writes_nothing(api, ws):
    r = api.post("/api/import", json={"text": '{"system": "kensei", "troops": []}', "file": "nope.yaml"})
    assert r.status_code == 422 and "missing required key 'clan'" in r.json()["error"]
    assert not (ws / "nope.yaml").exists()


# -- the page's forms ----------------------------------------------------------------------------


def test_a_posted_form_of_more_fields_than_the_limit_or_not_utf8_is_refused_in_words(server, api, ws):
    from builder.web.common import MAX_FIELDS

    def post(body: bytes):
        return api.post(
            "/l/kensei-buke.yaml/edit",
            content=body,
            headers={"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"},
        )

    change = "op=set&key=name&value=Caf%C3%A9+army"
    filler = "".join(f"&f{n}=" for n in range(MAX_FIELDS - 3))  # with the change: the limit exactly
    r = post((change + filler).encode())
    assert r.status_code == 200 and "Café army" in r.text
    r = post((change + filler + "&one=more").encode())
    assert r.status_code == 400 and f"a form of more than {MAX_FIELDS} fields" in r.text
    r = post(b"op=set&key=name&value=Caf\xe9")  # Latin-1, not UTF-8
    assert r.status_code == 400 and "not UTF-8" in r.text
    assert "Café army" in (ws / "kensei-buke.yaml").read_text(encoding="utf-8")  # neither was saved
