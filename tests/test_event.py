"""Events over real HTTP: an event created on the command line, served on 127.0.0.1, lists handed
in by players through the API and the submission form, sealed until the reveal, verified against
their commitments, printed in the organiser's book. Every test runs on SQLite and on PostgreSQL
(a throwaway cluster of its own; skipped with the reason when PostgreSQL is not installed).
"""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
pytest.importorskip("sqlalchemy")

from eventservers import free_port, postgres_reason
from plainhttp import no_tls

ROOT = Path(__file__).resolve().parent.parent
BUKE = (ROOT / "examples" / "kensei-buke.yaml").read_text()
KUGE = (ROOT / "examples" / "kensei-kuge.yaml").read_text()
TOO_MANY_ARCHERS = BUKE.replace(
    "  - troop: Yumi Samurai           # ranged, 60 AP\n    models: 4",
    "  - troop: Yumi Samurai           # ranged, 60 AP\n    models: 9",
)
assert TOO_MANY_ARCHERS != BUKE


@pytest.fixture(scope="module")
def cluster(pg_cluster):
    """The run's PostgreSQL server (conftest), None without one."""
    return pg_cluster


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request):
    """None for SQLite in the event folder; a fresh PostgreSQL database's URL. The tests on
    PostgreSQL are slow (a server of the run's own, started only for them)."""
    if request.param == "sqlite":
        return None
    cluster = request.getfixturevalue("cluster")
    if cluster is None:
        pytest.skip(postgres_reason())
    return cluster.new_database(migrated=True)


def new_event(cli, folder, database, *extra):
    args = ["event", "new", folder, "--name", "Autumn <b>league</b>", "--system", "kensei", "--points", "200", *extra]
    if database:
        args += ["--database", database]
    r = cli(*args)
    assert r.code == 0, r
    link = re.search(r"organiser: (\S+)", r.stdout).group(1)
    return link.split("token=")[1]


def add_players(cli, folder, *names) -> dict[str, str]:
    r = cli("event", "players", folder, *[a for n in names for a in ("--add", n)], "--format", "csv")
    assert r.code == 0, r
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [row["name"] for row in rows] == list(names)
    for row in rows:
        assert row["link"].endswith("/submit?token=" + row["token"])
    return {row["name"]: row["token"] for row in rows}


class Server:
    """``create_app`` under uvicorn on a free loopback port, in a thread."""

    def __init__(self, folder):
        import uvicorn

        from builder.event.web.app import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.srv = uvicorn.Server(
            uvicorn.Config(create_app(folder), host="127.0.0.1", port=self.port, log_level="warning", access_log=False)
        )
        self.thread = threading.Thread(target=self.srv.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 30
        while not self.srv.started:
            assert time.time() < deadline, "the server did not start"
            time.sleep(0.005)

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60, verify=no_tls())

    def stop(self):
        self.srv.should_exit = True
        self.thread.join(10)


@pytest.fixture
def event(tmp_path, cli, database):
    folder = str(tmp_path / "league")
    org = new_event(cli, folder, database)
    tokens = add_players(cli, folder, "Aiko", "Bo", "Chen")
    server = Server(folder)
    yield {"folder": folder, "org": org, "tokens": tokens, "server": server, "database": database}
    server.stop()


def code_of(text: str) -> str:
    from builder import export

    return export(text, to="code")


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def test_the_whole_flow(event, cli, tmp_path):
    srv, tok = event["server"], event["tokens"]
    # Aiko hands in a share code through the API
    with srv.client(tok["Aiko"]) as c:
        r = c.post("/api/submissions", json={"list": code_of(BUKE)})
    assert r.status_code == 201, r.text
    aiko = r.json()
    assert (aiko["verdict"], aiko["total"], aiko["version"]) == ("legal", "200/200 AP", 1)
    assert re.fullmatch(r"[0-9a-f]{64}", aiko["commitment"])
    # Bo uploads a file on the submission page: illegal, too many archers (rulebook: ranged at most half)
    with srv.client() as web:
        r = web.get(f"/submit?token={tok['Bo']}", follow_redirects=False)
        assert r.status_code == 303 and "token" not in r.headers["location"]
        page = web.get("/submit")
        assert page.status_code == 200 and "Bo" in page.text
        r = web.post(
            "/submit",
            data={"csrf": csrf_of(page.text)},
            files={"upload": ("bo.yaml", TOO_MANY_ARCHERS.encode(), "application/x-yaml")},
        )
        assert r.status_code == 200
        assert "Version 1: ILLEGAL" in r.text and "kensei.ranged-max" in r.text
        # fixed and handed in again: a new version, the first kept
        r = web.post(
            "/submit", data={"csrf": csrf_of(r.text), "text": BUKE.replace("Buke vanguard", "Second vanguard")}
        )
        assert "Version 2: legal" in r.text
        history = web.get("/submit").text
        assert history.count('<code class="commitment">') == 2
    # the public page lists commitments, never lists, before the reveal
    with srv.client() as anyone:
        home = anyone.get("/").text
        assert aiko["commitment"] in home and "Taisho Buke" not in home
        assert "Autumn &lt;b&gt;league&lt;/b&gt;" in home and "<b>league" not in home  # escaped
        board = anyone.get("/api/event").json()
        assert {p["player"]: p["status"] for p in board["players"]} == {"Aiko": "in", "Bo": "in", "Chen": "missing"}
        assert all(
            "list" not in p.get("submission", {}) and "verdict" not in p.get("submission", {}) for p in board["players"]
        )
        assert anyone.get("/api/reveal").status_code == 403
    # the organiser sees verdicts, totals and findings' codes, not the lists nor their fingerprints
    with srv.client(event["org"]) as org:
        rows = {p["player"]: p for p in org.get("/api/event").json()["players"]}
        assert rows["Bo"]["submission"]["version"] == 2 and rows["Bo"]["versions"] == 2
        assert rows["Aiko"]["submission"]["commitment"] == aiko["commitment"]
        assert "list" not in rows["Aiko"]["submission"] and "fingerprint" not in rows["Aiko"]["submission"]
        assert rows["Chen"]["status"] == "missing"
    # Aiko sees her own list, not Bo's
    with srv.client(tok["Aiko"]) as c:
        rows = {p["player"]: p for p in c.get("/api/event").json()["players"]}
        assert "Taisho Buke" in rows["Aiko"]["submission"]["list"] and "list" not in rows["Bo"]["submission"]
    # lock: no more lists
    assert cli("event", "lock", event["folder"]).code == 0
    with srv.client(tok["Chen"]) as c:
        r = c.post("/api/submissions", json={"list": KUGE})
    assert r.status_code == 409 and "locked" in r.json()["error"]
    # reveal: every list public, each verified against its commitment
    r = cli("event", "reveal", event["folder"])
    assert r.code == 0, r
    with srv.client() as anyone:
        revealed = anyone.get("/api/reveal").json()["submissions"]
        assert [(s["player"], s["version"]) for s in revealed] == [("Aiko", 1), ("Bo", 1), ("Bo", 2)]
        assert "Taisho Buke" in anyone.get(f"/lists/{revealed[0]['id']}").text
    r = cli("event", "verify", srv.url)
    assert r.code == 0, r
    assert r.stdout.count("ok  ") == 3 and "3 of 3 submissions match" in r.stdout
    saved = tmp_path / "revealed.json"  # what anyone may keep and check later, offline
    with srv.client() as anyone:
        saved.write_bytes(anyone.get("/api/reveal").content)
    assert "3 of 3 submissions match" in cli("event", "verify", saved).stdout
    # the export and the organiser's book
    r = cli("event", "export", event["folder"], "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [(x["player"], x["version"], x["verdict"], x["total"]) for x in rows] == [
        ("Aiko", "1", "legal", "200/200 AP"),
        ("Bo", "2", "legal", "200/200 AP"),
        ("Chen", "", "", ""),
    ]
    assert rows[0]["commitment"] == aiko["commitment"]
    assert rows[0]["fingerprint"] == aiko["fingerprint"] and rows[0]["secret"] == revealed[0]["secret"]
    book, anon = tmp_path / "book.pdf", tmp_path / "judges.pdf"
    assert cli("event", "book", event["folder"], "-o", book).code == 0
    assert cli("event", "book", event["folder"], "-o", anon, "--anonymous").code == 0
    text, judges = pdf_text(book), pdf_text(anon)
    assert "Aiko" in text and "Second vanguard" in text and aiko["fingerprint"] in text
    assert "Aiko" not in judges and not re.search(r"\bBo\b", judges) and "Second vanguard" in judges
    assert "List 01.yaml" in judges and "List 02.yaml" in judges and aiko["fingerprint"] in judges


def pdf_text(path) -> str:
    from pypdf import PdfReader

    return "\n".join(p.extract_text() for p in PdfReader(str(path)).pages)


def test_every_refusal_is_a_4xx_with_its_reason(event, cli):
    srv, tok = event["server"], event["tokens"]
    with srv.client() as anyone:
        r = anyone.post("/api/submissions", json={"list": BUKE})
        assert (r.status_code, r.json()["error"].split(" (")[0]) == (401, "no token")
        assert anyone.get("/submit").status_code == 401
        r = anyone.post("/api/submissions", json={"list": BUKE}, headers={"Authorization": "Bearer not-a-token"})
        assert r.status_code == 403 and "not one of this event's" in r.json()["error"]
        # one byte past the request limit is refused before it is read; at the limit it is read
        from builder.event.intake import MAX_SUBMISSION_BYTES
        from builder.event.web.app import MAX_BODY

        r = anyone.post(
            "/api/submissions",
            content=b"x" * (MAX_BODY + 1),
            headers={"Authorization": f"Bearer {tok['Aiko']}", "Content-Type": "application/json"},
        )
        assert r.status_code == 413 and "too large" in r.json()["error"]
    with srv.client(tok["Aiko"]) as c:
        padding = "#" * (MAX_SUBMISSION_BYTES - len(BUKE.encode()) - 1) + "\n"
        r = c.post("/api/submissions", json={"list": padding + BUKE})  # exactly the limit: taken
        assert r.status_code == 201, r.text
        r = c.post("/api/submissions", json={"list": "#" + padding + BUKE})  # one byte more
        assert r.status_code == 413
        r = c.post("/api/submissions", content=b'{"list": ', headers={"Content-Type": "application/json"})
        assert r.status_code == 422 and r.json()["error"].startswith("malformed request")
        r = c.post("/api/submissions", json={"list": 5})
        assert r.status_code == 422 and "'list' must be the list as text" in r.json()["error"]
        senshiai = (ROOT / "examples" / "senshiai-northern-host.yaml").read_text()
        r = c.post("/api/submissions", json={"list": senshiai})
        assert r.status_code == 422 and r.json()["error"] == "this event takes kensei lists, not senshiai"
        r = c.post("/api/submissions", json={"list": BUKE.replace("clan: buke", "clan: [buke")})
        assert r.status_code == 422 and re.match(r"list:\d+:\d+: error", r.json()["lines"][0])
        r = c.post("/api/submissions", json={"list": BUKE.replace("points: 200", "points: 300")})
        assert r.status_code == 201 and r.json()["findings"][0]["code"] == "event-setting"
        assert "this event plays points 200; the list has points 300" in r.json()["findings"][0]["message"]
    # the organiser's token hands in no list; a player's token opens no dashboard
    with srv.client(event["org"]) as org:
        assert org.post("/api/submissions", json={"list": BUKE}).status_code == 403
    with srv.client() as web:
        assert web.get(f"/organiser?token={tok['Bo']}").status_code == 403
        web.get(f"/submit?token={tok['Bo']}")
        assert web.get("/organiser").status_code == 401  # Bo's cookie is no organiser's cookie
        # a form without its CSRF token (another site's) is refused
        r = web.post("/submit", data={"csrf": "forged", "text": BUKE})
        assert r.status_code == 403 and "out of date or from another site" in r.text
    # a removed player's token no longer works; their list stays
    assert cli("event", "players", event["folder"], "--remove", "Bo").code == 0
    with srv.client(tok["Bo"]) as c:
        r = c.post("/api/submissions", json={"list": BUKE})
        assert r.status_code == 403 and "revoked" in r.json()["error"]


def test_a_player_hands_in_at_most_twelve_lists_a_minute(event):
    from builder.event.store import SUBMISSIONS_PER_MINUTE

    with event["server"].client(event["tokens"]["Chen"]) as c:
        codes = [
            c.post("/api/submissions", json={"list": code_of(BUKE)}).status_code
            for _ in range(SUBMISSIONS_PER_MINUTE + 1)
        ]
    assert codes == [201] * SUBMISSIONS_PER_MINUTE + [429]


def test_opening_a_list_before_the_reveal_is_logged_and_shown_to_its_player(event, cli):
    srv, tok = event["server"], event["tokens"]
    with srv.client(tok["Aiko"]) as c:
        sub = c.post("/api/submissions", json={"list": BUKE}).json()
        assert c.get("/api/submissions").json()["opened"] == []
    with srv.client(event["org"]) as org:
        r = org.post(f"/api/submissions/{sub['id']}/open", json={"reason": ""})
        assert r.status_code == 422
        r = org.post(f"/api/submissions/{sub['id']}/open", json={"reason": "judge call: <script>"})
        assert r.status_code == 200 and "Taisho Buke" in r.json()["list"]
    with srv.client(tok["Aiko"]) as c:
        assert [o["reason"] for o in c.get("/api/submissions").json()["opened"]] == ["judge call: <script>"]
    with srv.client() as web:
        web.get(f"/submit?token={tok['Aiko']}")
        page = web.get("/submit").text
        assert "opened your version 1 before the reveal" in page and "judge call: &lt;script&gt;" in page
    log = cli("event", "log", event["folder"]).stdout
    assert "organiser  list-opened  Aiko version 1: judge call: <script>" in log
    assert "player Aiko  list-submitted  version 1: legal" in log
    with srv.client(event["org"]) as org:  # a reason with a line break cannot forge a row of the log
        forged = "again\n2030-01-01T00:00:00+00:00  player Bo  list-submitted  version 9: legal"
        assert org.post(f"/api/submissions/{sub['id']}/open", json={"reason": forged}).status_code == 200
    log = cli("event", "log", event["folder"]).stdout
    assert "judge call: <script>" in log and "again 2030-01-01" in log  # kept on its row
    assert not any(line.startswith("2030-01-01") for line in log.splitlines())
    with srv.client(tok["Bo"]) as c:  # a player opens nothing
        assert c.post(f"/api/submissions/{sub['id']}/open", json={"reason": "x"}).status_code == 403


def test_a_list_changed_after_the_reveal_fails_verification(event, cli):
    with event["server"].client(event["tokens"]["Aiko"]) as c:
        assert c.post("/api/submissions", json={"list": BUKE}).status_code == 201
    assert cli("event", "reveal", event["folder"]).code == 0
    assert cli("event", "verify", event["folder"]).code == 0
    from sqlalchemy import update

    from builder.event.db import submissions
    from builder.event.store import Event

    ev = Event.open(event["folder"])
    with ev.engine.begin() as conn:  # one archer more, written into the database behind the server's back
        row = conn.execute(submissions.select()).mappings().first()
        changed = re.sub(r"(models\W+)4\b", r"\g<1>5", row["list_text"])
        assert changed != row["list_text"]
        conn.execute(update(submissions).where(submissions.c.id == row["id"]).values(list_text=changed))
    r = cli("event", "verify", event["folder"])
    assert r.code == 1 and r.stdout.startswith('MISMATCH  "Aiko" version 1: commitment')
    assert "0 of 1 submissions match" in r.stdout


def test_a_resubmission_after_the_deadline_is_refused_and_a_first_list_is_late(tmp_path, cli, database):
    folder = str(tmp_path / "past")
    new_event(cli, folder, database, "--deadline", "2020-01-01T00:00:00Z")
    tok = add_players(cli, folder, "Dai")
    srv = Server(folder)
    try:
        with srv.client(tok["Dai"]) as c:
            first = c.post("/api/submissions", json={"list": BUKE})
            assert first.status_code == 201 and first.json()["late"] is True
            again = c.post("/api/submissions", json={"list": BUKE})
            assert again.status_code == 409 and "deadline has passed" in again.json()["error"]
        with srv.client(json.loads(json.dumps(None))) as anyone:
            assert anyone.get("/api/event").json()["players"][0]["status"] == "late"
    finally:
        srv.stop()


def test_backup_and_restore_keep_every_version_and_token(event, cli, tmp_path):
    with event["server"].client(event["tokens"]["Aiko"]) as c:
        for text in (TOO_MANY_ARCHERS, BUKE):
            assert c.post("/api/submissions", json={"list": text}).status_code == 201
    out = tmp_path / "league.backup.json"
    r = cli("event", "backup", event["folder"], "-o", out)
    assert r.code == 0 and "2 submissions" in r.stdout
    assert cli("event", "backup", event["folder"], "-o", out).code == 2  # never overwritten unasked
    restored = tmp_path / "restored"
    assert cli("event", "restore", out, restored).code == 0
    assert cli("event", "restore", out, restored).code == 2  # the folder holds an event now
    from builder.event.store import Event

    ev = Event.open(restored)
    who = ev.who(event["tokens"]["Aiko"])  # the same tokens sign in
    assert [s["verdict"] for s in ev.history(who)] == ["legal", "ILLEGAL (2 errors)"]
    assert "backup-restored" in cli("event", "log", str(restored)).stdout


def test_the_command_line_refuses_bad_input_in_one_line(tmp_path, cli):
    folder = tmp_path / "ev"
    r = cli("event", "new", folder, "--name", "X", "--system", "kensei", "--deadline", "next friday")
    assert (r.code, r.stderr.strip()) == (
        2,
        "daimyo: error: --deadline: 'next friday' is not a time (write it as ISO 8601, e.g. 2026-12-05T18:00+01:00)",
    )
    r = cli("event", "new", folder, "--name", "X", "--system", "satsuma", "--points", "200")
    assert r.code == 2 and "Satsuma Rebellion (2-player card game) lists have no points to set" in r.stderr
    r = cli("event", "new", folder, "--name", "X", "--system", "senshiai", "--setting", "size=50")
    assert r.code == 0
    r = cli("event", "new", folder, "--name", "X", "--system", "senshiai")
    assert r.code == 2 and "already holds an event" in r.stderr
    r = cli("event", "players", tmp_path / "nothing", "--add", "A")
    assert r.code == 2 and "no event here" in r.stderr
    r = cli("event", "players", folder, "--add", "A", "--add", "A")
    assert r.code == 2 and "player 'A' is given twice" in r.stderr
    r = cli("event", "book", folder, "-o", tmp_path / "b.pdf")
    assert r.code == 2 and "sealed until the reveal" in r.stderr


def test_the_database_is_at_the_newest_migration(tmp_path, cli, database):
    from builder.event import db
    from builder.event.store import Event

    folder = tmp_path / "m"
    new_event(cli, str(folder), database)
    ev = Event.open(folder)
    assert db.current_revision(ev.engine) == db.head_revision() == "0002"
    if database is None:
        with sqlite3.connect(folder / "event.db") as conn:
            tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
        assert {"events", "players", "submissions", "openings", "audit", "alembic_version"} <= tables
        assert {"event_settings", "rounds", "pairings", "results", "changes", "drops"} <= tables
        stored = [r[0] for r in sqlite3.connect(folder / "event.db").execute("select token_hash from players")]
        assert stored == []  # no players yet; see below for hashed tokens
    tok = ev.add_players(["Eri"])[0][1]
    with ev.engine.connect() as conn:
        from sqlalchemy import text

        hashes = [r[0] for r in conn.execute(text("select token_hash from players"))]
    assert tok not in hashes and len(hashes[0]) == 64  # stored hashed


def test_the_organisers_guide_names_the_limits_the_server_enforces():
    from builder.event.store import SUBMISSIONS_PER_MINUTE
    from builder.event.web.app import MAX_BODY

    readme = " ".join((ROOT / "docs" / "organisers.md").read_text(encoding="utf-8").split())
    assert f"request bodies are limited to {MAX_BODY // 1024} KiB" in readme
    assert f"a player may hand in {SUBMISSIONS_PER_MINUTE} lists a minute" in readme


def test_pages_carry_security_headers_and_the_api_is_described(event):
    with event["server"].client() as anyone:
        for path in ("/", "/docs", "/api/event", "/submit"):
            r = anyone.get(path)
            assert r.headers["content-security-policy"].startswith("default-src 'none'"), path
            assert (r.headers["x-frame-options"], r.headers["x-content-type-options"]) == ("DENY", "nosniff")
            assert r.headers["referrer-policy"] == "no-referrer"
        spec = anyone.get("/openapi.json").json()
        assert {"/api/submissions", "/api/event", "/api/reveal", "/api/lock"} <= set(spec["paths"])
        docs = anyone.get("/docs").text
        assert "/api/submissions" in docs and "Hand in a list" in docs and "<script" not in docs


def test_an_address_giving_wrong_tokens_is_slowed_after_thirty_a_minute(event):
    from builder.event.store import FAILED_SIGNINS_PER_MINUTE

    with event["server"].client() as anyone:
        codes = [
            anyone.post(
                "/api/submissions", json={"list": BUKE}, headers={"Authorization": f"Bearer guess-{i}"}
            ).status_code
            for i in range(FAILED_SIGNINS_PER_MINUTE + 1)
        ]
    assert codes == [403] * FAILED_SIGNINS_PER_MINUTE + [429]
    from builder.event.store import Event

    refused = [r for r in Event.open(event["folder"]).audit_log() if r["action"] == "sign-in-refused"]
    assert len(refused) == FAILED_SIGNINS_PER_MINUTE and refused[0]["address"] == "127.0.0.1"
    with event["server"].client(event["tokens"]["Aiko"]) as c:  # a right token still works
        assert c.post("/api/submissions", json={"list": BUKE}).status_code == 201


def test_a_reveal_time_that_has_passed_reveals_the_event(tmp_path, cli):
    from builder.event.store import Event

    folder = tmp_path / "past"
    new_event(cli, str(folder), None, "--deadline", "2020-01-01T00:00:00Z", "--reveal", "2020-01-02T00:00:00+01:00")
    ev = Event.open(folder)
    assert (ev.info()["phase"], ev.info()["reveal_at"]) == ("revealed", "2020-01-01T23:00:00.000000Z")
    r = cli("event", "lock", str(folder))
    assert r.code == 2 and "revealed: it cannot be locked again" in r.stderr
    r = cli(
        "event",
        "new",
        tmp_path / "b",
        "--name",
        "B",
        "--system",
        "kensei",
        "--deadline",
        "2020-01-02T00:00:00Z",
        "--reveal",
        "2020-01-01T00:00:00Z",
    )
    assert r.code == 2 and "--reveal is before --deadline" in r.stderr


def test_a_new_token_replaces_a_lost_one_and_keeps_the_lists(event, cli):
    srv, old = event["server"], event["tokens"]["Aiko"]
    with srv.client(old) as c:
        assert c.post("/api/submissions", json={"list": BUKE}).status_code == 201
    r = cli("event", "token", event["folder"], "--player", "Aiko")
    assert r.code == 0 and r.stdout.startswith("Aiko: http://")
    new = r.stdout.strip().split("token=")[1]
    with srv.client(old) as c:
        assert c.get("/api/submissions").status_code == 403
    with srv.client(new) as c:
        assert [s["version"] for s in c.get("/api/submissions").json()["submissions"]] == [1]
        assert c.post("/api/submissions", json={"list": BUKE}).json()["version"] == 2
    r = cli("event", "token", event["folder"], "--organiser")
    org = r.stdout.strip().split("token=")[1]
    with srv.client(event["org"]) as c:
        assert c.get("/api/audit").status_code == 403
    with srv.client(org) as c:
        actions = [a["action"] for a in c.get("/api/audit").json()["audit"]]
    assert "player-token-replaced" in actions and "organiser-token-replaced" in actions
    assert cli("event", "token", event["folder"]).code == 2
    assert "no player 'Zed'" in cli("event", "token", event["folder"], "--player", "Zed").stderr


def zip_of(files: dict[str, str]) -> bytes:
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return buf.getvalue()


def test_a_workspace_zip_of_five_hundred_files_is_read_and_one_more_refused():
    from builder.event.intake import MAX_ZIP_MEMBERS, EventRefused, read_upload

    notes = {f"ws/notes-{i}.txt": "" for i in range(MAX_ZIP_MEMBERS - 1)}
    assert read_upload(zip_of({**notes, "ws/army.yaml": BUKE}), "ws.zip", "kensei") == BUKE
    with pytest.raises(EventRefused) as exc:
        read_upload(zip_of({**notes, "ws/army.yaml": BUKE, "ws/one-more.txt": ""}), "ws.zip", "kensei")
    assert exc.value.status == 413 and f"at most {MAX_ZIP_MEMBERS}" in exc.value.text()
    with pytest.raises(EventRefused) as exc:  # the lists of another game are not offered
        read_upload(
            zip_of({"ws/deck.yaml": (ROOT / "examples" / "senshiai-northern-host.yaml").read_text()}),
            "ws.zip",
            "kensei",
        )
    assert exc.value.text() == "the zip holds no kensei list"
    with pytest.raises(EventRefused) as exc:
        read_upload(b"PK\x03\x04 not really a zip", "ws.zip", "kensei")
    assert exc.value.status == 422 and "not a readable zip" in exc.value.text()


@pytest.mark.slow  # a process importing the event server
def test_the_server_imports_what_its_request_threads_need_before_the_first_request(tmp_path, cli):
    """Request threads importing a package with circular imports at the same moment can deadlock
    (the builder's server answered 500 so): every module a request needs is imported before the
    first request, by the app's own imports or when it is made, in a fresh process."""
    import subprocess
    import sys

    folder = str(tmp_path / "league")
    new_event(cli, folder, None)
    probe = (
        "import sys\n"
        "from builder.event.intake import REQUEST_MODULES\n"
        "from builder.event.web.app import create_app\n"
        "before = [m for m in REQUEST_MODULES if m in sys.modules]\n"
        "create_app(sys.argv[1])\n"
        "print(','.join(before), '|', ','.join(m for m in REQUEST_MODULES if m not in sys.modules))\n"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(
        [sys.executable, "-c", probe, folder], capture_output=True, text=True, cwd=root, check=True
    ).stdout.strip()
    _before, after = (part.strip() for part in out.split("|"))
    assert after == ""
