"""The bounds of ``daimyo event submit -`` and ``daimyo event verify URL``: standard input is read
no further than the size the server takes, and a revealed lists' answer holds at most so many
submissions; each is tested at its bound and one past it, against a real server on 127.0.0.1."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("httpx")
pytest.importorskip("uvicorn")
pytest.importorskip("sqlalchemy")

from test_event import BUKE, KUGE, ROOT, add_players, new_event

from builder.event import outputs
from builder.event.intake import MAX_SUBMISSION_BYTES


def one_line_refusal(r, words: str) -> None:
    assert r.code == 2, r
    assert r.stderr.strip().count("\n") == 0 and words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


@pytest.fixture
def revealed(tmp_path, cli):
    """An event on a server of its own, three lists handed in (Aiko twice) and revealed."""
    from test_event import Server

    folder = str(tmp_path / "league")
    org = new_event(cli, folder, None)
    tokens = add_players(cli, folder, "Aiko", "Bo")
    server = Server(folder)
    try:
        for who, text in (("Aiko", BUKE), ("Aiko", KUGE), ("Bo", BUKE)):
            with server.client(tokens[who]) as c:
                assert c.post("/api/submissions", json={"list": text}).status_code == 201
        with server.client(org) as c:
            assert c.post("/api/reveal").status_code == 200
        yield server
    finally:
        server.stop()


def test_verify_takes_an_answer_of_as_many_submissions_as_the_bound(revealed, cli, monkeypatch):
    monkeypatch.setattr(outputs, "MAX_REVEALED_ENTRIES", 3)
    r = cli("event", "verify", revealed.url)
    assert r.code == 0, r
    assert "3 of 3 submissions match their commitments" in r.stdout


def test_verify_refuses_an_answer_of_one_submission_more_before_checking_any(revealed, cli, monkeypatch):
    monkeypatch.setattr(outputs, "MAX_REVEALED_ENTRIES", 2)
    r = cli("event", "verify", revealed.url)
    one_line_refusal(r, f"{revealed.url}: 3 submissions, more than the 2 an event's revealed lists may hold")
    assert r.stdout == ""  # nothing shown as verified


def test_the_bound_of_verify_is_named_with_its_reason():
    assert outputs.MAX_REVEALED_ENTRIES == 10_000
    assert outputs.MAX_REVEALED_BYTES == 64 * 1024 * 1024


def submit_stdin(url: str, token: str, data: bytes, keep_open: bool) -> subprocess.CompletedProcess:
    """``daimyo event submit URL -`` in a process of its own with ``data`` on its standard input,
    then the end of it, or (``keep_open``) none: a command that reads to the end would then wait
    for ever (the time limit here is a guard, far beyond what the command needs)."""
    env = dict(os.environ, DAIMYO_EVENT_TOKEN=token)
    proc = subprocess.Popen(
        [sys.executable, "-m", "builder", "event", "submit", url, "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(data)
        proc.stdin.flush()
        if not keep_open:
            proc.stdin.close()
        code = proc.wait(timeout=120)
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if not proc.stdin.closed:
            proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
    return subprocess.CompletedProcess(proc.args, code, out.decode(), err.decode())


@pytest.mark.slow  # a process of its own: standard input as a pipe
def test_submit_from_standard_input_takes_a_list_of_the_limit_and_refuses_one_byte_more(tmp_path, cli):
    from test_event import Server

    folder = str(tmp_path / "league")
    new_event(cli, folder, None)
    tokens = add_players(cli, folder, "Aiko")
    padding = "#" * (MAX_SUBMISSION_BYTES - len(BUKE.encode()) - 1) + "\n"
    at_limit = (padding + BUKE).encode()
    assert len(at_limit) == MAX_SUBMISSION_BYTES
    server = Server(folder)
    try:
        r = submit_stdin(server.url, tokens["Aiko"], at_limit, keep_open=False)
        assert r.returncode == 0, r
        assert "version 1: legal" in r.stdout
        # one byte more: refused in one line once the limit is passed, with standard input still open
        r = submit_stdin(server.url, tokens["Aiko"], b"#" + at_limit, keep_open=True)
        assert r.returncode == 2, r
        assert r.stdout == ""
        assert r.stderr.strip().count("\n") == 0, r.stderr
        assert f"<stdin>: too large: over {MAX_SUBMISSION_BYTES:,} bytes" in r.stderr
        assert "Traceback" not in r.stderr
        with server.client(tokens["Aiko"]) as c:
            assert [s["version"] for s in c.get("/api/submissions").json()["submissions"]] == [1]
    finally:
        server.stop()
