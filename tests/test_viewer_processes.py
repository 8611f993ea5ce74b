"""Several viewers give the same answers: ``daimyo viewer --workers 2`` (two processes on one
port) and another ``daimyo viewer`` on its own port answer every link with the same status, ETag
and page, as copies behind a load balancer must; and an address of a megabyte, refused by the
server before it reaches the viewer, never costs a worker. Behind a real reverse proxy (nginx,
when installed), two viewers in round robin answer as they do directly, and the links their
pages carry are the public ones."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import signal
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


def wait_until_up(port: int, proc: subprocess.Popen) -> None:
    """Wait until the viewer ``proc`` on ``port`` answers ``/healthz`` (RuntimeError with the end
    of its standard error if it ends or takes two minutes)."""
    deadline = time.monotonic() + 120
    while True:
        try:
            if _get(port, "/healthz")[0] == 200:
                return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the viewer did not start: " + proc.stderr.read().decode()[-500:])
        time.sleep(0.02)


@contextlib.contextmanager
def viewer(port: int, workers: int, public: str | None = "https://lists.example.org", cache_dir=None, *more: str):
    """``daimyo viewer`` on ``port``, its public address ``public`` (None: the address each
    request came to), its folder of answers ``cache_dir`` (None: its default), with the options
    ``more``, stopped however the test ends."""
    env = dict(os.environ, DAIMYO_PACKS=str(ROOT / "examples" / "packs"))
    env.pop("DAIMYO_VIEWER", None)
    if public:
        env["DAIMYO_VIEWER"] = public
    exe = [sys.executable, "-m", "builder.cli", "viewer", "--port", str(port), "--workers", str(workers), *more]
    if cache_dir is not None:
        exe += ["--cache-dir", str(cache_dir)]
    proc = subprocess.Popen(exe, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        wait_until_up(port, proc)
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


def test_a_viewer_writes_nothing_but_its_answers(tmp_path, monkeypatch):
    """Its cache, config and temporary folders are as empty after it showed and printed lists,
    but for the answers it drew, in the viewer folder of daimyo's cache folder; with
    ``--no-cache``, nothing at all."""
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
    with viewer(port, 1, "https://lists.example.org", None, "--no-cache"):
        assert _get(port, f"/v/{code}")[0] == 200
        assert _get(port, f"/v/{code}/list.pdf")[0] == 200
    assert [p for d in (cache, home, tmp) for p in d.rglob("*")] == []
    with viewer(port, workers=1):
        assert _get(port, f"/v/{code}")[0] == 200
        assert _get(port, f"/v/{code}/list.pdf")[0] == 200
    written = sorted(p.relative_to(cache).as_posix() for d in (cache, home, tmp) for p in d.rglob("*"))
    assert written[:2] == ["daimyo", "daimyo/viewer"]
    assert len(written) == 4 and all(p.endswith(".answer") for p in written[2:])  # the page and the printout


NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)

NGINX_CONF = """daemon off;
worker_processes 2;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 64; }}
http {{
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    log_format upstreams '$upstream_addr $status $request_uri';
    access_log {tmp}/access.log upstreams;
    large_client_header_buffers 4 16k;
    proxy_max_temp_file_size 0;
    upstream viewers {{
        server 127.0.0.1:{a};
        server 127.0.0.1:{b};
    }}
    server {{
        listen 127.0.0.1:{proxy};
        location / {{
            proxy_pass http://viewers;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
    server {{
        listen 127.0.0.1:{tls};
        location / {{
            proxy_pass http://127.0.0.1:{c};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-Proto https;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""


@contextlib.contextmanager
def nginx(tmp, **ports: int):
    """nginx in the foreground from a configuration of its own in ``tmp`` (its prefix, pid, logs
    and temporary folders there), stopped with its workers however the test ends."""
    assert NGINX is not None
    conf = tmp / "nginx.conf"
    conf.write_text(NGINX_CONF.format(tmp=tmp, **ports), encoding="utf-8")
    exe = [NGINX, "-p", str(tmp), "-c", str(conf), "-e", str(tmp / "error.log")]
    proc = subprocess.Popen(exe, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(ports["proxy"], "/healthz")[0] == 200 and _get(ports["tls"], "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log = (tmp / "error.log").read_text() if (tmp / "error.log").exists() else ""
                raise RuntimeError("nginx did not start: " + proc.stderr.read().decode()[-500:] + log[-500:])
            time.sleep(0.02)
        yield
    finally:
        proc.terminate()  # the master stops its workers
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        with contextlib.suppress(ProcessLookupError):  # a worker left behind by a killed master
            os.killpg(proc.pid, signal.SIGKILL)


def _links(page: bytes) -> dict[str, str]:
    """The addresses a list's page gives out: its preview's, its canonical one, its Copy link's."""
    html = page.decode()
    found = {
        "og:url": re.search(r'<meta property="og:url" content="([^"]*)">', html),
        "canonical": re.search(r'<link rel="canonical" href="([^"]*)">', html),
        "copy": re.search(r'<button class="btn" type="button" data-copy="([^"]*)"', html),
    }
    return {k: m.group(1) if m else "" for k, m in found.items()}


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed (apt-get install nginx)")
def test_behind_nginx_the_links_answer_as_directly(tmp_path, monkeypatch):
    """Two viewers behind nginx in round robin, as the deployment guide sets it up: every link of
    the five games answers through the proxy as it does directly, both viewers take requests,
    and the X-Forwarded-* headers change no link that a page gives out."""
    monkeypatch.setenv("DAIMYO_PACKS", str(ROOT / "examples" / "packs"))
    codes = [export_source(str(ROOT / "examples" / f), "code").strip() for f in EXAMPLES]
    a, b, c, proxy, tls = _free_ports(5)
    public = "https://lists.example.org"
    with viewer(a, 1), viewer(b, 1), viewer(c, 1, public=None), nginx(tmp_path, a=a, b=b, c=c, proxy=proxy, tls=tls):
        for code in codes:
            for path in (f"/v/{code}", f"/v/{code}/table", f"/v/{code}/list.yaml", f"/v/{code}/list.pdf"):
                direct = _get(a, path)
                assert direct[0] == 200, (path[:40], direct[0])
                for _turn in range(2):  # round robin: one answer from each viewer
                    status, headers, body = _get(proxy, path)
                    assert status == direct[0]
                    assert headers["etag"] == direct[1]["etag"]
                    assert headers["content-type"] == direct[1]["content-type"]
                    if not path.endswith(".pdf"):  # a printout is drawn anew each time
                        assert body == direct[2], path[:40]
                    else:
                        assert body.startswith(b"%PDF-")
                    assert _get(proxy, path, {"If-None-Match": headers["etag"]})[0] == 304
            # the public address, whatever the proxy or the client says of the request
            link = f"{public}/v/{code}"
            page = _get(proxy, f"/v/{code}", {"X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "http"})[2]
            assert _links(page) == {"og:url": link, "canonical": link, "copy": link}
            # a viewer without a public address gives the one the reader used, https from a TLS proxy
            mine = f"https://127.0.0.1:{tls}/v/{code}"
            assert _links(_get(tls, f"/v/{code}")[2]) == {"og:url": mine, "canonical": mine, "copy": mine}
        assert 400 <= _get(proxy, "/v/DMY1-" + "A" * (20 << 10))[0] < 500  # longer than the proxy reads
        assert _get(proxy, "/v/not-a-code")[0] == 400
    served = [line.split()[0] for line in (tmp_path / "access.log").read_text().splitlines()]
    assert {f"127.0.0.1:{a}", f"127.0.0.1:{b}"} <= set(served)
    for port in (a, b):
        assert served.count(f"127.0.0.1:{port}") >= len(codes) * 4, (port, len(served))
