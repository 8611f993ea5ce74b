"""Several server processes on one workspace (``daimyo serve --workers N``): the undo history of
each list and its lock are kept in the workspace's state folder, so an edit answered by one
process is undone through another, and concurrent edits of one list through different
processes lose nothing (a change made against an old version is refused, never written over)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from builder.errors import UsageError
from builder.lists.editor import HISTORY
from builder.web.editing import Editor
from builder.web.workspace import Refused, Workspace

from conftest import ROOT

pytestmark = pytest.mark.skipif(os.name == "nt", reason="several server processes need POSIX locks")
LIST = "kensei-buke.yaml"
TOKEN = "workers-test-token-0123456789"


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copy(ROOT / "examples" / LIST, root / LIST)
    return root


def models(root: Path, index: int) -> int:
    from builder.lists.document import load_list

    t = load_list(root / LIST).data["troops"][index]
    return int(t.get("models", 1)) if isinstance(t, dict) else 1


def unit(root: Path) -> int:
    """A unit of the example whose models can go up and down."""
    from builder.lists.document import load_list

    return next(i for i, t in enumerate(load_list(root / LIST).data["troops"]) if isinstance(t, dict))


# -- two editors in one process stand for two processes (their own sessions, the shared files) ----


def test_an_edit_made_through_one_process_is_undone_and_redone_through_another(ws):
    a, b = Editor(Workspace(ws), shared=True), Editor(Workspace(ws), shared=True)
    i = unit(ws)
    before = models(ws, i)
    first = a.apply(LIST, {"op": "models", "index": i, "delta": 1}, None)
    assert models(ws, i) == before + 1
    assert b.can(LIST, first.version) == (True, False)  # b made no change, yet offers the undo
    back = b.step(LIST, True, first.version)
    assert models(ws, i) == before and back.notes == ["undone"]
    assert a.can(LIST, back.version) == (False, True)
    again = a.step(LIST, False, back.version)
    assert models(ws, i) == before + 1 and again.version == first.version
    # a change through either process ends the redo, as in one process
    c = b.apply(LIST, {"op": "models", "index": i, "delta": 1}, again.version)
    assert a.can(LIST, c.version) == (True, False)


def test_a_list_changed_outside_the_builder_is_not_undone_by_any_process(ws):
    a, b = Editor(Workspace(ws), shared=True), Editor(Workspace(ws), shared=True)
    i = unit(ws)
    a.apply(LIST, {"op": "models", "index": i, "delta": 1}, None)
    path = ws / LIST
    path.write_text(path.read_text(encoding="utf-8") + "# changed in an editor\n", encoding="utf-8")
    with pytest.raises(Refused) as e:
        b.step(LIST, True, None)
    assert e.value.status == 409 and "changed outside the builder" in e.value.message
    assert path.read_text(encoding="utf-8").endswith("# changed in an editor\n")  # kept as it was
    with pytest.raises(Refused, match="nothing to undo"):  # the history starts again from here
        a.step(LIST, True, None)


def test_the_shared_history_keeps_as_many_steps_as_one_process(ws):
    a, b = Editor(Workspace(ws), shared=True), Editor(Workspace(ws), shared=True)
    i = unit(ws)
    start = models(ws, i)
    version = None
    for _ in range(HISTORY + 1):  # one change more than is kept
        version = a.apply(LIST, {"op": "models", "index": i, "delta": 1}, version).version
    for _ in range(HISTORY):  # exactly HISTORY steps back, through the other process
        version = b.step(LIST, True, version).version
    assert models(ws, i) == start + 1  # the first change is past the history
    with pytest.raises(Refused, match="nothing to undo"):
        b.step(LIST, True, version)
    history = list((ws / ".daimyo" / "history").glob("*.json"))
    assert len(history) == 1 and len(json.loads(history[0].read_text())["redo"]) == HISTORY


def test_workers_out_of_bounds_are_refused():
    from builder.web.launch import MAX_WORKERS, prepare

    with pytest.raises(UsageError, match=f"between 1 and {MAX_WORKERS}, not 0"):
        prepare(str(ROOT / "examples"), port=0, workers=0)
    with pytest.raises(UsageError, match=f"not {MAX_WORKERS + 1}"):
        prepare(str(ROOT / "examples"), port=0, workers=MAX_WORKERS + 1)


# -- real server processes ------------------------------------------------------------------------


def _free_ports(n: int) -> list[int]:
    """``n`` different free ports (all held at once while they are chosen)."""
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]


def _serve(root: Path, workers: int, port: int):
    """Start ``daimyo serve ROOT --workers N``; ``_ready`` waits until it answers."""
    exe = [sys.executable, "-m", "builder.cli", "serve", str(root), "--port", str(port), "--workers", str(workers)]
    proc = subprocess.Popen(
        exe, env=dict(os.environ, DAIMYO_TOKEN=TOKEN), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT
    )
    return proc, port


def _ready(proc, port: int):
    deadline = time.monotonic() + 120
    while True:
        try:
            if _call(port, "GET", f"/api/lists/{LIST}/check")[0] == 200:
                return proc, port
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("the server did not start: " + proc.stderr.read().decode()[-500:])
        time.sleep(0.01)  # refused at once until the server listens: asking often costs little


def _call(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(
            method,
            path,
            json.dumps(body) if body is not None else None,
            {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        )
        resp = conn.getresponse()
        raw = resp.read()
        try:
            return resp.status, json.loads(raw or b"{}")
        except ValueError:  # not the JSON every answer must be (a 500's plain text)
            return resp.status, {"body": raw[:300].decode("utf-8", "replace")}
    finally:
        conn.close()


def _stop(proc) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.mark.slow  # two server processes
def test_concurrent_edits_through_two_servers_lose_nothing_and_undo_crosses_them(ws):
    """Two 'daimyo serve --workers 2' on one workspace (four processes): clients of both raise one
    unit's models at once, each sending the version it last saw and reading the list again when
    refused; every accepted change is in the file, and an undo asked of either server takes back
    the last change, whichever process made it."""
    i = unit(ws)
    start = models(ws, i)
    servers = [_serve(ws, 2, port) for port in _free_ports(2)]  # both start at once
    try:
        for proc, port in servers:
            _ready(proc, port)
        ports = [port for _, port in servers]
        accepted: list[int] = []
        refused: list[int] = []
        problems: list[str] = []

        def version_of(port: int) -> str:
            status, out = _call(port, "GET", f"/api/lists/{LIST}/check")
            if status != 200:
                raise AssertionError(f"GET check answered {status}: {out}")
            return out["version"]

        def client(n: int) -> None:
            try:
                edits(n)
            except Exception as exc:  # an answer that is no answer: named, not a count short
                problems.append(repr(exc))

        def edits(n: int) -> None:
            port = ports[n % 2]
            version = version_of(port)
            done = 0
            while done < 6:
                status, out = _call(
                    port,
                    "POST",
                    f"/api/lists/{LIST}/edit",
                    {"op": "models", "index": i, "delta": 1, "version": version},
                )
                if status == 200:
                    accepted.append(n)
                    version, done = out["version"], done + 1
                elif status == 409:  # another client's change came first: read the list again
                    refused.append(n)
                    version = version_of(port)
                else:
                    problems.append(f"{status}: {out}")
                    return

        threads = [threading.Thread(target=client, args=(n,)) for n in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(300)
        assert not problems
        assert len(accepted) == 36 and models(ws, i) == start + 36  # no accepted change lost

        # the last change, made by whichever process, is undone through the other server and redone
        version = _call(ports[0], "GET", f"/api/lists/{LIST}/check")[1]["version"]
        for port in (ports[1], ports[0], ports[1]):
            status, out = _call(port, "POST", f"/api/lists/{LIST}/undo", {"version": version})
            assert status == 200, out
            version = out["version"]
        assert models(ws, i) == start + 33
        status, out = _call(ports[0], "POST", f"/api/lists/{LIST}/redo", {"version": version})
        assert status == 200 and models(ws, i) == start + 34
    finally:
        for proc, _ in servers:
            _stop(proc)


@pytest.mark.slow  # a server process
def test_a_server_imports_what_its_request_threads_need_before_the_first_request(tmp_path):
    """Request threads importing a package with circular imports at the same moment can deadlock
    (a 500 seen when two servers met their first requests at once): the app imports them when
    it is made (its modules import them at their tops), in a process that had not imported them."""
    probe = (
        "import sys\n"
        "from builder.web.app import REQUEST_MODULES, create_app\n"
        "missing = [m for m in REQUEST_MODULES if m in sys.modules]\n"
        "create_app(sys.argv[1])\n"
        "print(','.join(missing), '|', ','.join(m for m in REQUEST_MODULES if m not in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, cwd=ROOT, check=True
    ).stdout.strip()
    _before, after = (part.strip() for part in out.split("|"))
    # the app's modules import them at their tops (or create_app does), never a request thread
    assert after == ""
