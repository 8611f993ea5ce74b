"""Several viewers give the same answers: ``daimyo viewer --workers 2`` (two processes on one
port) and another ``daimyo viewer`` on its own port answer every link with the same status, ETag
and page, as copies behind a load balancer must; and an address of a megabyte, refused by the
server before it reaches the viewer, never costs a worker."""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import time

import pytest

from builder.share.api import export_source

from conftest import ROOT

pytestmark = [
    pytest.mark.slow,  # starts server processes
    pytest.mark.skipif(os.name == "nt", reason="several viewer processes on one port need a POSIX system"),
]

EXAMPLES = (
    "kensei-buke.yaml",
    "senshiai-northern-host.yaml",
    "herocard-samurai.yaml",
    "senji-three-daimyo.yaml",
    "satsuma-imperial.yaml",
)


def _free_ports(n: int) -> list[int]:
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]


def _get(port: int, path: str, headers: dict | None = None) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("GET", path, headers={"Connection": "close", **(headers or {})})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


@contextlib.contextmanager
def viewer(port: int, workers: int):
    env = dict(os.environ, DAIMYO_VIEWER="https://lists.example.org", DAIMYO_PACKS=str(ROOT / "examples" / "packs"))
    exe = [sys.executable, "-m", "builder.cli", "viewer", "--port", str(port), "--workers", str(workers)]
    proc = subprocess.Popen(exe, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if _get(port, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the viewer did not start: " + proc.stderr.read().decode()[-500:])
            time.sleep(0.02)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_any_copy_answers_any_link_the_same(monkeypatch):
    monkeypatch.setenv("DAIMYO_PACKS", str(ROOT / "examples" / "packs"))
    codes = [export_source(str(ROOT / "examples" / f), "code").strip() for f in EXAMPLES]
    a, b = _free_ports(2)
    with viewer(a, workers=2), viewer(b, workers=1):
        for code in codes:
            for path in (f"/v/{code}", f"/v/{code}/table"):
                # several requests on new connections: both workers of the first viewer take some
                answers = [_get(port, path) for port in (a, a, a, b, b)]
                statuses = {s for s, _h, _b in answers}
                assert statuses == {200}, (path[:40], statuses)
                assert len({h["etag"] for _s, h, _b in answers}) == 1
                assert len({body for _s, _h, body in answers}) == 1
                tag = answers[0][1]["etag"]
                assert _get(b, path, {"If-None-Match": tag})[0] == 304  # a tag one copy gave, another honours
        # a megabyte of address is refused before the application, and the viewer answers on
        status = _get(a, "/v/DMY1-" + "A" * (1 << 20))[0]
        assert 400 <= status < 500
        assert _get(a, f"/v/{codes[0]}")[0] == 200


def test_a_viewer_writes_nothing(tmp_path, monkeypatch):
    """Its cache, config and temporary folders are as empty after it showed and printed lists."""
    cache, home, tmp = tmp_path / "cache", tmp_path / "home", tmp_path / "tmp"
    for d in (cache, home, tmp):
        d.mkdir()
    monkeypatch.delenv("DAIMYO_CACHE_DIR", raising=False)  # its default, in the home and cache folders here
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv("TMPDIR", str(tmp))
    code = export_source(str(ROOT / "examples" / "satsuma-imperial.yaml"), "code").strip()
    for d in (cache, home, tmp):  # what making the code wrote here, before the viewer starts
        for p in sorted(d.rglob("*"), reverse=True):
            p.unlink() if p.is_file() else p.rmdir()
    (port,) = _free_ports(1)
    with viewer(port, workers=1):
        assert _get(port, f"/v/{code}")[0] == 200
        assert _get(port, f"/v/{code}/list.pdf")[0] == 200
    assert [p for d in (cache, home, tmp) for p in d.rglob("*")] == []
