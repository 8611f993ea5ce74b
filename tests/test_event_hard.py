"""Events under attack and in clumsy hands: a lock or a deadline racing a list being stored, the
organiser's view and export sealed until the reveal, private files, hostile zips, a database
that stops and comes back, and every command given what it cannot use. SQLite and PostgreSQL
where the database matters (a throwaway cluster; skipped with the reason without PostgreSQL).
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import os
import re
import threading
import zipfile
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from eventservers import free_port, postgres_cluster, postgres_reason
from test_event import (  # noqa: F401  (fixtures of test_event)
    BUKE,
    KUGE,
    Server,
    add_players,
    cluster,
    csrf_of,
    database,
    event,
    new_event,
)

# how long a test lets a blocked thread try before it looks at what it did: the fixed code cannot
# finish in any time (it waits for the transaction to end), so the test cannot fail by chance
BLOCKED = 1.5


def _stored_while(monkeypatch, action):
    """Patch ``insert`` of the event store so that ``action`` runs in another thread at the moment
    a submission row is about to be written (after the phase and the deadline were read), and is
    given ``BLOCKED`` seconds; the thread is returned to be joined once the list is stored."""
    import builder.event.store as store

    real = store.insert
    fired: list[threading.Thread] = []

    def insert(table):
        if table is store.submissions and not fired:
            t = threading.Thread(target=action, daemon=True)
            fired.append(t)
            t.start()
            t.join(BLOCKED)
        return real(table)

    monkeypatch.setattr(store, "insert", insert)
    return fired


def test_a_lock_while_a_list_is_stored_comes_after_it_or_refuses_it(tmp_path, cli, database, monkeypatch):  # noqa: F811  (fixtures of test_event)
    from builder.event.intake import EventRefused
    from builder.event.store import Event

    folder = tmp_path / "league"
    new_event(cli, str(folder), database)
    tok = add_players(cli, str(folder), "Aiko", "Bo")
    ev = Event.open(folder)
    other = Event.open(folder)  # the organiser, through another connection
    fired = _stored_while(monkeypatch, lambda: other.lock())
    aiko = ev.who(tok["Aiko"])
    try:
        stored = ev.submit(aiko, BUKE)
    except EventRefused as exc:  # refused is right too, when the lock came first
        stored, why = None, exc.text()
        assert "locked" in why
    fired[0].join(60)
    log = [r["action"] for r in ev.audit_log() if r["action"] in ("list-submitted", "event-locked")]
    # the lock is after the list in the log, or the list is not in it: never a list taken after the lock
    assert log == (["list-submitted", "event-locked"] if stored else ["event-locked"])
    with pytest.raises(EventRefused):
        ev.submit(ev.who(tok["Bo"]), KUGE)


def test_first_lists_sent_at_once_after_the_deadline_take_one(tmp_path, cli, database, monkeypatch):  # noqa: F811  (fixtures of test_event)
    from builder.event.intake import EventRefused
    from builder.event.store import Event

    folder = tmp_path / "league"
    new_event(cli, str(folder), database, "--deadline", "2020-01-01T00:00Z")
    tok = add_players(cli, str(folder), "Aiko")
    ev, other = Event.open(folder), Event.open(folder)
    second: list = []

    def again():
        try:
            second.append(other.submit(other.who(tok["Aiko"]), KUGE))
        except EventRefused as exc:
            second.append(exc)

    fired = _stored_while(monkeypatch, again)
    first = ev.submit(ev.who(tok["Aiko"]), BUKE)
    fired[0].join(60)
    assert first["late"] and first["version"] == 1
    assert isinstance(second[0], EventRefused) and "deadline has passed" in second[0].text()
    assert [s["version"] for s in ev.history(ev.who(tok["Aiko"]))] == [1]


def test_the_organiser_sees_commitments_not_fingerprints_until_the_reveal(event, cli, tmp_path):  # noqa: F811  (fixtures of test_event)
    srv, tok, folder = event["server"], event["tokens"], event["folder"]
    with srv.client(tok["Aiko"]) as c:
        aiko = c.post("/api/submissions", json={"list": BUKE}).json()
    with srv.client(tok["Bo"]) as c:
        bo = c.post("/api/submissions", json={"list": BUKE}).json()  # the same list as Aiko's
    assert aiko["fingerprint"] == bo["fingerprint"] and aiko["commitment"] != bo["commitment"]
    sealed = [aiko["fingerprint"], aiko["list"].strip()[:40]]
    with srv.client(event["org"]) as org:
        api = org.get("/api/event").text
        org.get(f"/organiser?token={event['org']}")
        page = org.get("/organiser").text
        audit = org.get("/api/audit").text
    csv_text = cli("event", "export", folder, "--format", "csv").stdout
    json_text = cli("event", "export", folder, "--format", "json").stdout
    for shown in (api, page, audit, csv_text, json_text):
        assert aiko["commitment"] in shown or aiko["commitment"][:16] in shown
        assert not any(s in shown for s in sealed)
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert [(r["player"], r["fingerprint"], r["secret"]) for r in rows] == [
        ("Aiko", "", ""),
        ("Bo", "", ""),
        ("Chen", "", ""),
    ]
    # from the reveal on: the fingerprint and the secret, and the commitment recomputed from the
    # bytes docs/event.md spells out
    assert cli("event", "reveal", folder).code == 0
    rows = {r["player"]: r for r in json.loads(cli("event", "export", folder, "--format", "json").stdout)}
    assert rows["Aiko"]["fingerprint"] == aiko["fingerprint"] and re.fullmatch(r"[0-9a-f]{64}", rows["Aiko"]["secret"])
    with srv.client() as anyone:
        revealed = anyone.get("/api/reveal").json()["submissions"][0]
    # the revealed list is the canonical list as indented JSON: the same object, compact and sorted
    canon = json.dumps(json.loads(revealed["list"]), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    blob = b"daimyo-event-commitment/1\n" + canon.encode() + b"\n" + ",".join(sorted(revealed["packs"])).encode()
    blob += b"\n" + revealed["secret"].encode()
    assert hashlib.sha256(blob).hexdigest() == revealed["commitment"] == aiko["commitment"]
    assert rows["Aiko"]["secret"] == revealed["secret"]
    doc = (Path(__file__).resolve().parent.parent / "docs" / "event.md").read_text()
    assert "daimyo-event-commitment/1\\n" in doc and "salt" in doc


def test_the_database_backups_and_the_event_file_are_the_owners_alone(tmp_path, cli):
    import stat

    folder = tmp_path / "league"
    old = os.umask(0o022)
    try:
        new_event(cli, str(folder), None)
        tok = add_players(cli, str(folder), "Aiko")
        from builder.event.store import Event

        ev = Event.open(folder)
        ev.submit(ev.who(tok["Aiko"]), BUKE)
        assert cli("event", "backup", str(folder), "-o", tmp_path / "b.json").code == 0
        assert cli("event", "restore", tmp_path / "b.json", tmp_path / "again").code == 0
    finally:
        os.umask(old)
    files = [folder / "event.db", folder / "event.json", tmp_path / "b.json", tmp_path / "again" / "event.db"]
    files += [p for p in folder.iterdir() if p.name.startswith("event.db-")]
    for p in files:
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def _zip(files: dict[str, bytes | str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_a_zip_that_unpacks_to_much_is_refused_before_it_is_read():
    from builder.event.intake import MAX_ZIP_LIST_BYTES, MAX_ZIP_RATIO, EventRefused, read_upload

    bomb = _zip({f"ws/l{i}.yaml": "a: " + "x" * (250 * 1024) for i in range(100)})
    assert len(bomb) < 100 * 1024
    with pytest.raises(EventRefused) as exc:
        read_upload(bomb, "ws.zip", "kensei")
    assert exc.value.status == 413 and f"at most {MAX_ZIP_RATIO} to 1" in exc.value.text()
    # packed no tighter than a list, but more of them than a workspace holds
    import random

    rnd = random.Random(7)
    noise = {f"ws/n{i}.txt": "".join(rnd.choices("abcdefghij \n", k=200 * 1024)) for i in range(6)}
    with pytest.raises(EventRefused) as exc:
        read_upload(_zip({"ws/army.yaml": BUKE, **noise}), "ws.zip", "kensei")
    assert exc.value.status == 413 and f"over {MAX_ZIP_LIST_BYTES:,} bytes" in exc.value.text()
    assert read_upload(_zip({"ws/army.yaml": BUKE, **dict(list(noise.items())[:4])}), "ws.zip", "kensei") == BUKE
    # files that name the game are parsed, and only so many bytes of them
    from builder.event.intake import MAX_ZIP_PARSED_BYTES

    named = {f"ws/k{i}.yaml": "# kensei\n" + "".join(rnd.choices("abc: \n", k=4000)) for i in range(70)}
    with pytest.raises(EventRefused) as exc:
        read_upload(_zip({"ws/army.yaml": BUKE, **named}), "ws.zip", "kensei")
    assert exc.value.status == 413 and f"add up to over {MAX_ZIP_PARSED_BYTES:,} bytes" in exc.value.text()


def test_an_upload_is_read_off_the_event_loop_and_after_the_rate_limit(event, monkeypatch):  # noqa: F811  (fixtures of test_event)
    import builder.event.intake as intake
    from builder.event.store import SUBMISSIONS_PER_MINUTE

    srv, tok = event["server"], event["tokens"]
    answered = threading.Event()
    reads: list[str] = []
    others_answered: list[bool] = []
    real = intake.read_upload

    def slow_read(data, filename, system, pick=None):
        reads.append(filename)
        if len(reads) == 1:  # the server answers another request meanwhile
            others_answered.append(answered.wait(30))
        return real(data, filename, system, pick)

    monkeypatch.setattr(intake, "read_upload", slow_read)
    zipped = _zip({"ws/army.yaml": BUKE})
    with srv.client() as web:
        web.get(f"/submit?token={tok['Aiko']}")
        form = {"csrf": csrf_of(web.get("/submit").text)}
        result: list = []
        t = threading.Thread(
            target=lambda: result.append(web.post("/submit", data=form, files={"upload": ("ws.zip", zipped)}))
        )
        t.start()
        while not reads:
            t.join(0.01)
        with srv.client() as other:
            assert other.get("/api/event").status_code == 200
        answered.set()
        t.join(60)
        assert others_answered == [True]
        assert "Version 1: legal" in result[0].text
        with srv.client(tok["Aiko"]) as api:
            for _ in range(SUBMISSIONS_PER_MINUTE - 1):
                assert api.post("/api/submissions", json={"list": BUKE}).status_code == 201
        r = web.post("/submit", data=form, files={"upload": ("ws.zip", zipped)})
        assert r.status_code == 429 and reads == ["ws.zip"]  # refused before the zip was opened


def test_lock_and_reveal_ask_for_confirmation_first(event):  # noqa: F811  (fixtures of test_event)
    srv = event["server"]
    with srv.client() as web:
        web.get(f"/organiser?token={event['org']}")
        csrf = csrf_of(web.get("/organiser").text)
        for action in ("lock", "reveal"):
            page = web.post(f"/organiser/{action}", data={"csrf": csrf})
            assert page.status_code == 200 and 'id="confirm"' in page.text
            assert f'name="confirm" value="{action}"' in page.text
            assert web.get("/api/event").json()["event"]["phase"] == "open"  # nothing done yet
        assert "cannot be undone" in page.text
        r = web.post("/organiser/reveal", data={"csrf": csrf, "confirm": "lock"})  # another action's confirmation
        assert web.get("/api/event").json()["event"]["phase"] == "open" and 'id="confirm"' in r.text
        r = web.post("/organiser/reveal", data={"csrf": csrf, "confirm": "reveal"})
        assert r.status_code == 303 and web.get("/api/event").json()["event"]["phase"] == "revealed"


@pytest.mark.slow  # a PostgreSQL cluster of its own, stopped and started again
def test_a_stopped_database_is_a_503_and_the_server_recovers(tmp_path, cli):
    if postgres_reason():
        pytest.skip(postgres_reason())
    with postgres_cluster(durable=True) as pg:  # stopped at once: what it acknowledged is on the disk
        folder = str(tmp_path / "league")
        org = new_event(cli, folder, pg.new_database())
        tok = add_players(cli, folder, "Aiko")
        srv = Server(folder)
        try:
            with srv.client(tok["Aiko"]) as c:
                assert c.post("/api/submissions", json={"list": BUKE}).status_code == 201
            pg.stop()
            with srv.client(tok["Aiko"]) as c:
                r = c.post("/api/submissions", json={"list": KUGE})
                assert r.status_code == 503 and "database cannot be reached" in r.json()["error"]
                assert c.get("/api/event").status_code == 503
            with srv.client() as web:
                for path in ("/", f"/organiser?token={org}", "/submit"):
                    r = web.get(path)
                    assert r.status_code == 503 and "Database unreachable" in r.text, path
            r = cli("event", "players", folder)
            assert r.code == 2 and "cannot use the event's database" in r.stderr and len(r.stderr.splitlines()) == 1
            pg.start()
            with srv.client(tok["Aiko"]) as c:
                assert c.post("/api/submissions", json={"list": KUGE}).status_code == 201
                assert [s["version"] for s in c.get("/api/submissions").json()["submissions"]] == [2, 1]
        finally:
            srv.stop()


def _one_line_refusal(r, *words):
    assert r.code == 2, r
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("daimyo: error: "), r
    for w in words:
        assert w in lines[0], r


def test_a_new_event_on_a_database_it_cannot_use_leaves_nothing_behind(tmp_path, cli):
    down = f"postgresql://daimyo:hunter2@127.0.0.1:{free_port()}/nothing"
    for url, words in (
        ("mysql://u:pw@localhost/db", ("not a database an event runs on",)),
        ("garbage", ("not a database an event runs on",)),
        ("postgresql://u@host:notaport/db", ("not a database an event runs on",)),
        (down, ("cannot use the event's database", "127.0.0.1")),
        (f"sqlite:///{tmp_path}/missing/folder/event.db", ("no folder",)),
    ):
        r = cli("event", "new", tmp_path / "ev", "--name", "N", "--system", "kensei", "--database", url)
        _one_line_refusal(r, *words)
        assert "hunter2" not in r.stderr and "pw@" not in r.stderr
        assert not (tmp_path / "ev").exists() and not (tmp_path / "missing").exists()
    (tmp_path / "kept").mkdir()  # a folder that was there stays, empty as it was
    r = cli("event", "new", tmp_path / "kept", "--name", "N", "--system", "kensei", "--database", down)
    _one_line_refusal(r)
    assert list((tmp_path / "kept").iterdir()) == []
    (tmp_path / "notes.txt").write_text("mine")
    r = cli("event", "new", tmp_path / "notes.txt", "--name", "N", "--system", "kensei")
    _one_line_refusal(r, "is a file")
    assert (tmp_path / "notes.txt").read_text() == "mine"
    r = cli("event", "new", tmp_path / "ev", "--name", "N", "--system", "kensei", "--url", "javascript:alert(1)")
    _one_line_refusal(r, "--url")
    assert not (tmp_path / "ev").exists()
    # a file of the user's named as the database: never written into, nor its permissions changed
    import sqlite3
    import stat

    (tmp_path / "empty.txt").write_bytes(b"")
    with contextlib.closing(sqlite3.connect(tmp_path / "other.db")) as conn:
        conn.execute("CREATE TABLE mine (x)")
        conn.commit()
    for name, words in (
        ("notes.txt", "is not a SQLite database; not touched"),
        ("empty.txt", "is not a SQLite database; not touched"),
        ("other.db", "a SQLite database of something else than events; not touched"),
    ):
        f = tmp_path / name
        f.chmod(0o644)
        before = f.read_bytes()
        r = cli("event", "new", tmp_path / "ev", "--name", "N", "--system", "kensei", "--database", f"sqlite:///{f}")
        _one_line_refusal(r, words)
        assert f.read_bytes() == before and stat.S_IMODE(f.stat().st_mode) == 0o644
        assert not (tmp_path / "ev").exists()


def test_an_event_whose_database_file_is_gone_says_so(tmp_path, cli):
    folder = tmp_path / "league"
    new_event(cli, str(folder), None)
    (folder / "event.db").unlink()
    _one_line_refusal(cli("event", "players", folder), "the event's database", "is missing")
    assert not (folder / "event.db").exists()


def test_commands_on_an_unusable_database_or_bad_arguments_say_so_in_one_line(tmp_path, cli):
    folder = tmp_path / "league"
    new_event(cli, str(folder), None)
    cfg = json.loads((folder / "event.json").read_text())
    for url, words in (
        (f"postgresql://daimyo@127.0.0.1:{free_port()}/x", ("cannot use the event's database",)),
        ("garbage", ("not a database an event runs on",)),
    ):
        (folder / "event.json").write_text(json.dumps({**cfg, "database": url}))
        for args in (("players", folder), ("log", folder), ("lock", folder), ("export", folder)):
            _one_line_refusal(cli("event", *args), *words)
    (folder / "event.json").write_text(json.dumps(cfg))
    (tmp_path / "junk.db").write_bytes(b"not sqlite at all" * 100)
    (folder / "event.json").write_text(json.dumps({**cfg, "database": f"sqlite:///{tmp_path / 'junk.db'}"}))
    _one_line_refusal(cli("event", "players", folder), "database")
    (folder / "event.json").write_text(json.dumps(cfg))
    for port in ("-1", "99999", "65536"):
        _one_line_refusal(cli("event", "serve", folder, "--port", port), "--port")


@pytest.mark.parametrize(
    "content",
    [
        "[]",
        "[1, 2]",
        '{"submissions": 5}',
        '{"submissions": [1]}',
        '{"submissions": [{"list": 5, "secret": "s", "commitment": "c"}]}',
        '{"submissions": [{"list": "x", "secret": "s", "commitment": "c", "packs": "no"}]}',
        '"text"',
        "null",
    ],
)
def test_verify_of_a_file_that_is_not_revealed_lists_is_refused(tmp_path, cli, content):
    (tmp_path / "r.json").write_text(content)
    _one_line_refusal(cli("event", "verify", tmp_path / "r.json"), "r.json")


def test_restoring_a_damaged_backup_leaves_nothing_behind(tmp_path, cli):
    folder = tmp_path / "league"
    new_event(cli, str(folder), None)
    tok = add_players(cli, str(folder), "Aiko")
    from builder.event.store import Event

    ev = Event.open(folder)
    ev.submit(ev.who(tok["Aiko"]), BUKE)
    assert cli("event", "backup", folder, "-o", tmp_path / "b.json").code == 0
    good = json.loads((tmp_path / "b.json").read_text())

    def damaged(change):
        data = json.loads(json.dumps(good))
        change(data)
        return data

    cases = [
        damaged(lambda d: d["submissions"][0].update(player_id=999)),
        damaged(lambda d: d["submissions"][0].pop("commitment")),
        damaged(lambda d: d["players"][0].update(oops=1)),
        damaged(lambda d: d.update(players={"a": 1})),
        damaged(lambda d: d["events"][0].update(name=["a"])),
        damaged(lambda d: d.update(events=[])),
        damaged(lambda d: d["audit"].append(5)),
        damaged(lambda d: d["events"][0].pop("id")),
    ]
    for i, data in enumerate(cases):
        (tmp_path / f"d{i}.json").write_text(json.dumps(data))
        r = cli("event", "restore", tmp_path / f"d{i}.json", tmp_path / "again")
        _one_line_refusal(r, "backup")
        assert not (tmp_path / "again").exists(), i
    assert cli("event", "restore", tmp_path / "b.json", tmp_path / "again").code == 0


def test_odd_requests_are_refused_in_the_events_own_words(event):  # noqa: F811  (fixture of test_event)
    srv, org, tok = event["server"], event["org"], event["tokens"]
    with srv.client(tok["Aiko"]) as c:
        sub = c.post("/api/submissions", json={"list": BUKE}).json()
        deep = b'{"list": ' + b"[" * 130_000 + b"]" * 130_000 + b"}"  # under the size limit, too deep to parse
        r = c.post("/api/submissions", content=deep, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.json()["error"].startswith("malformed request")
        assert c.get("/api/nothing").json()["error"].startswith("no such page here")
    with srv.client(org) as o:
        for sid in (2**63, 2**70, -1, 0):  # past what a database column holds: no row, not a 500
            r = o.post(f"/api/submissions/{sid}/open", json={"reason": "judge call"})
            assert r.status_code == 404 and f"no submission {sid}" in r.json()["error"]
        r = o.post(f"/api/submissions/{sub['id']}/open", json={"reason": ["judge call"]})
        assert r.status_code == 422 and "'reason' must be text" in r.json()["error"]
        r = o.post(f"/api/submissions/{sub['id']}/open", json={"reason": "judge\x00 call\x1b[2J"})
        assert r.status_code == 200
        assert o.get("/api/audit").json()["audit"][-1]["detail"] == "Aiko version 1: judge call[2J"
    with srv.client() as web:
        web.get(f"/organiser?token={org}")
        csrf = csrf_of(web.get("/organiser").text)
        r = web.post("/organiser/open", data={"csrf": csrf, "submission": str(2**70), "reason": "x"})
        assert r.status_code == 404 and 'id="refused"' in r.text
        r = web.get("/organiser/lock")
        assert r.status_code == 405 and "this address takes no GET" in r.text


def test_times_past_the_calendar_and_names_with_control_characters(tmp_path, cli):
    for when in ("9999-12-31T23:00-05:00", "0001-01-01T00:00+05:00"):
        r = cli("event", "new", tmp_path / "ev", "--name", "N", "--system", "kensei", "--deadline", when)
        _one_line_refusal(r, "--deadline", "is not a time")
        assert not (tmp_path / "ev").exists()
    folder = str(tmp_path / "league")
    new_event(cli, folder, None)
    r = cli("event", "players", folder, "--add", "Ai\x00ko\x1b[31m")
    assert r.code == 0 and r.stdout.startswith("Aiko[31m: http")
    _one_line_refusal(cli("event", "players", folder, "--add", "\x00\x07"), "give 1 to 80 characters")


def test_a_backup_taken_while_players_are_added_restores(tmp_path, cli, database, monkeypatch):  # noqa: F811
    """A player added and a list handed in while a backup is read: the backup holds both or
    neither, never a list whose player it lacks."""
    import builder.event.outputs as outputs
    from builder.event.db import submissions
    from builder.event.store import Event

    folder = tmp_path / "league"
    new_event(cli, str(folder), database)
    tok = add_players(cli, str(folder), "Aiko")
    ev, other = Event.open(folder), Event.open(folder)
    ev.submit(ev.who(tok["Aiko"]), BUKE)
    real = outputs.select
    done: list[bool] = []

    def select(*args, **kwargs):
        if args and args[0] is submissions and not done:  # the submissions are about to be read
            done.append(True)
            [(_, late_token)] = other.add_players(["Late"])
            other.submit(other.who(late_token), KUGE)
        return real(*args, **kwargs)

    monkeypatch.setattr(outputs, "select", select)
    assert cli("event", "backup", folder, "-o", tmp_path / "b.json").code == 0
    assert done
    r = cli("event", "restore", tmp_path / "b.json", tmp_path / "again")
    assert r.code == 0, r


def test_two_new_events_in_one_new_folder_at_once_keep_the_one_made(tmp_path, cli, monkeypatch):
    """Another command writes its event into the folder while this one makes its own: this one
    is refused, and the other's event is left whole."""
    import builder.event.store as store

    real = store.write_config
    folder = tmp_path / "league"

    def raced(at, event_id, url):
        real(at, "0123456789abcdef", url)  # the other command's, first
        real(at, event_id, url)

    monkeypatch.setattr(store, "write_config", raced)
    r = cli("event", "new", folder, "--name", "N", "--system", "kensei")
    _one_line_refusal(r, "another event was made here meanwhile")
    assert json.loads((folder / "event.json").read_text())["event"] == "0123456789abcdef"
    assert (folder / "event.db").exists()


@pytest.mark.slow  # a server process
def test_a_command_run_beside_a_serving_process_loses_none_of_its_lists(tmp_path, cli):
    """The server process keeps its SQLite connections open; a command run meanwhile (which opens
    and closes its own) must not take the server's locks away: were it so, the command would
    delete the WAL the server still writes to, and what the server acknowledged next would be
    lost (and a lock it took would not be seen)."""
    from eventservers import start_server, stop_server
    from plainhttp import no_tls

    folder = tmp_path / "league"
    new_event(cli, str(folder), None)
    tok = add_players(cli, str(folder), "Aiko", "Bo")
    proc, url = start_server(folder)

    def post(name, text):
        headers = {"Authorization": f"Bearer {tok[name]}"}
        return httpx.post(url + "/api/submissions", json={"list": text}, headers=headers, verify=no_tls())

    try:
        assert post("Aiko", BUKE).status_code == 201
        assert cli("event", "players", folder).code == 0  # a command opens and closes the database
        assert (folder / "event.db-wal").exists()  # still the server's
        assert post("Bo", KUGE).status_code == 201
        assert cli("event", "lock", folder).code == 0
        assert post("Aiko", KUGE).status_code == 409
    finally:
        stop_server(proc)
    from builder.event.store import Event

    assert sorted(s["player"] for s in Event.open(folder).latest_lists()) == ["Aiko", "Bo"]
