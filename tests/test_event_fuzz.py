"""Every ``daimyo event`` command given bad arguments, hostile files and hostile servers.

The servers are on 127.0.0.1, each answering in one bad way: a status line that is not HTTP,
more than 100 headers, an HTML page, a JSON list, a JSON object that is not an event's answer,
an answer trickled a byte at a time, a body cut short, a body far too large, nothing at all.
Whatever it is given, a command ends with exit 0, 1 or 2, never the internal-error line (70)
or a traceback, and leaves no half-written file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from test_event import BUKE, add_players, new_event

pytestmark = pytest.mark.slow  # dozens of commands, some waiting out a trickling server

ANSWERS = {
    "bad-status": b"HELLO THERE\r\n\r\n",
    "many-headers": b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(120)) + b"\r\n{}",
    "html": b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 27\r\n\r\n<html><body>hi</body></html",
    "html-500": b"HTTP/1.1 500 Oops\r\nContent-Type: text/html\r\nContent-Length: 6\r\n\r\n<html>",
    "json-list": b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n[1, 2, 3]",
    "json-error-list": b"HTTP/1.1 409 Conflict\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]",
    "json-odd": b'HTTP/1.1 201 Created\r\nContent-Length: 38\r\n\r\n{"player": 5, "version": "x", "a": []}',
    "json-findings": (
        b"HTTP/1.1 201 Created\r\nContent-Length: 118\r\n\r\n"
        b'{"player":"A","version":1,"verdict":"legal","total":"1","commitment":"c","legal":true,"findings":[1,{"code":2}]}'
        b"    "
    ),
    "cut": b'HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n{"submissions": [',
    "huge": b"HTTP/1.1 200 OK\r\nContent-Length: 3000000\r\n\r\n" + b" " * 3_000_000,
    "not-utf8": b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n\xff\xfe\xfd\xfc",
    "redirect": b"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 0\r\n\r\n",
    "silence": b"",
    "close": None,  # the connection closed without a byte
    "trickle": b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + b" " * 100000,
    "trickle-headers": b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 60000 + b"\r\n\r\n{}",
}
TRICKLED = ("trickle", "trickle-headers")


@contextlib.contextmanager
def hostile(kind: str):
    """A server on 127.0.0.1 answering every request with ``ANSWERS[kind]``; yields its address."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    srv.settimeout(0.2)
    done = threading.Event()

    def answer(conn):
        with conn:
            conn.settimeout(5)
            try:
                conn.recv(65536)
                data = ANSWERS[kind]
                if data is None:
                    return
                if kind in TRICKLED:
                    for i in range(0, len(data), 1):
                        if done.is_set():
                            return
                        conn.sendall(data[i : i + 1])
                        time.sleep(0.05)
                elif kind == "silence":
                    done.wait(30)
                else:
                    conn.sendall(data)
            except OSError:
                pass

    def serve():
        while not done.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.getsockname()[1]}"
    finally:
        done.set()
        t.join(5)
        srv.close()


def well_ended(r) -> None:
    """Exit 0, 1 or 2; on 2 one line saying what went wrong (``daimyo: error: ...`` or, for a file,
    ``FILE: error: ...``); never the internal-error line."""
    assert r.code in (0, 1, 2), r
    text = r.stdout + r.stderr
    assert "Traceback" not in text and "internal error" not in text, r
    if r.code == 2:
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and (lines[0].startswith("daimyo: error: ") or ": error: " in lines[0]), r


def files_under(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_size for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("kind", sorted(ANSWERS))
def test_submit_and_verify_against_a_hostile_server(kind, cli, tmp_path):
    army = tmp_path / "army.yaml"
    army.write_text(BUKE)
    slow = ("--timeout", "1") if kind in (*TRICKLED, "silence") else ()  # the others answer at once
    with hostile(kind) as url:
        for args in (
            ("submit", url, army, "--token", "t", *slow),
            ("submit", f"{url}/submit?token=abc", army, *slow),
            ("verify", url, *slow),
        ):
            r = cli("event", *args)
            well_ended(r)
            if kind == "json-findings" and args[0] == "submit":  # a submission's answer, its odd findings left out
                assert r.code == 0 and "commitment c" in r.stdout and "None" not in r.stdout, r
            else:
                assert r.code == 2, r  # nothing else a hostile server answers is taken as an event's answer
    assert files_under(tmp_path) == {"army.yaml": len(BUKE.encode())}


HOSTILE_FILES = {
    "empty.json": b"",
    "binary.json": bytes(range(256)) * 4,
    "list.json": b"[1, 2, 3]",
    "deep.json": b"[" * 100_000 + b"]" * 100_000,
    "nul.yaml": b"\x00\x00\x00",
    "latin1.json": '{"caf\u00e9": 1}'.encode("latin-1"),
    "string.json": b'"a string"',
    "backup-wrong-version.json": json.dumps({"daimyo_event_backup": 99}).encode(),
    "backup-no-tables.json": json.dumps({"daimyo_event_backup": 1, "events": [{"id": "x"}]}).encode(),
    "backup-odd-rows.json": json.dumps(
        {"daimyo_event_backup": 1, "events": [1], "players": [], "submissions": [], "openings": [], "audit": []}
    ).encode(),
}


@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    for name, data in HOSTILE_FILES.items():
        (root / name).write_bytes(data)
    (root / "a-folder").mkdir()
    return root


def test_every_event_command_with_bad_arguments_and_hostile_files(cli, tmp_path, hostile_files):
    folder = tmp_path / "league"
    new_event(cli, str(folder), None)
    add_players(cli, str(folder), "Aiko")
    out = tmp_path / "out"
    out.mkdir()
    files = sorted(hostile_files.iterdir())
    cases: list[tuple] = []
    for f in files:
        cases += [
            ("verify", f),
            ("restore", f, out / "restored"),
            ("submit", "http://127.0.0.1:1", f, "--token", "t", "--timeout", "1"),
            ("players", f),
            ("log", f),
            ("serve", f, "--port", "0"),
            *([("new", f, "--name", "N", "--system", "kensei")] if f.is_file() else []),
            ("export", folder, "-o", f),
            ("backup", folder, "-o", f),
        ]
    cases += [
        ("new", out / "n1", "--name", "", "--system", "kensei"),
        ("new", out / "n2", "--name", "N", "--system", "chess"),
        ("new", out / "n3", "--name", "N", "--system", "kensei", "--points", "-5"),
        ("new", out / "n4", "--name", "N", "--system", "kensei", "--deadline", "tomorrow"),
        ("new", out / "n5", "--name", "N", "--system", "kensei", "--setting", "nope"),
        ("new", out / "n6", "--name", "N", "--system", "kensei", "--setting", "zzz=1"),
        ("new", out / "n7", "--name", "N", "--system", "kensei", "--database", "sqlite:///"),
        ("new", out / "n8", "--name", "N", "--system", "kensei", "--database", "postgresql://"),
        ("new", out / "n9", "--name", "N" * 500, "--system", "kensei"),
        ("new", out / "n10", "--name", "N", "--system", "kensei", "--url", "ftp://x"),
        ("new", folder, "--name", "N", "--system", "kensei"),
        ("players", folder, "--add", ""),
        ("players", folder, "--add", "A" * 200),
        ("players", folder, "--add", "Aiko"),
        ("players", folder, "--remove", "Nobody"),
        ("players", folder, "--format", "xml"),
        ("token", folder),
        ("token", folder, "--player", "Nobody"),
        ("token", folder, "--player", "Aiko", "--organiser"),
        ("serve", folder, "--port", "-1"),
        ("serve", folder, "--port", "99999"),
        ("serve", folder, "--host", "256.1.1.1", "--port", "0"),
        ("submit", "ftp://x", "army.yaml", "--token", "t"),
        ("submit", "http://", "army.yaml", "--token", "t"),
        ("submit", "http://127.0.0.1:99999", "DMY1-x", "--token", "t"),
        ("submit", "http://127.0.0.1:1", "DMY1-x"),
        ("submit", "http://127.0.0.1:1", "DMY1-x", "--token", "a b\n"),
        ("submit", "http://127.0.0.1:1", out / "missing.yaml", "--token", "t"),
        ("submit", "http://127.0.0.1:1", hostile_files / "a-folder", "--token", "t"),
        ("submit", "http://127.0.0.1:1", "DMY1-x", "--token", "t", "--timeout", "-1"),
        ("submit", "http://127.0.0.1:1", "DMY1-x", "--token", "t", "--timeout", "nan"),
        ("submit", "http://127.0.0.1:1", "DMY1-x", "--token", "t", "--wait", "inf"),
        ("verify", "http://127.0.0.1:1", "--timeout", "0"),
        ("verify", "http://127.0.0.1:1"),
        ("verify", out / "missing"),
        ("verify", folder),  # not revealed yet
        ("book", folder, "-o", out / "b.pdf"),
        ("export", folder, "--format", "xml"),
        ("export", folder, "-o", hostile_files / "a-folder"),
        ("backup", folder, "-o", hostile_files / "a-folder"),
        ("backup", folder, "-o", out / "no" / "such" / "\x00.json"),
        ("restore", out / "missing.json", out / "r2"),
        ("lock", out / "missing"),
        ("reveal", hostile_files / "a-folder"),
        ("log", out / "missing"),
    ]
    before = files_under(hostile_files)
    for args in cases:
        r = cli("event", *args)
        well_ended(r)
        assert r.code == 2, (args, r)
    assert files_under(hostile_files) == before  # nothing overwritten, nothing half-written beside them
    assert sorted(os.listdir(out)) == []  # no event folder, backup or export left behind
    assert not any(p.name.startswith(".") for p in folder.iterdir())  # no temporary file in the event folder
