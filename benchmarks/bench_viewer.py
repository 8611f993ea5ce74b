"""Load on the viewer: requests per second, p95 and server CPU per request of ``/v/<code>``
against the trivial ``/healthz`` of the same server, with 1, 2 and 4 worker processes, in one run.

Run: python benchmarks/bench_viewer.py [--clients 8] [--seconds 5] [--workers 1 2 4]

For each worker count it starts ``daimyo viewer --workers N`` (a separate process, as it is
deployed) on a free loopback port and drives it with ``--clients`` threads, each on its own
keep-alive connection, for ``--seconds`` per route:

* ``/healthz``: the trivial route (the framework and the server alone);
* ``/v/<code>``: one link asked again and again (each worker draws it once, then answers it
  from the answers it keeps by ETag, as most links are asked: by everyone in a chat);
* ``/v/<code> (new)``: a different link each request (the list's name changes), each drawn
  anew: decoded, checked and drawn.

Measured (CPU of drawing a new link's page, in process): the QR code of the link with the best
of segno's eight masks took about 6 ms of it, with one mask 1.4 ms; the list's YAML, written for
every answer, 2-3 ms more (now written only for a download or a printout). With
``DAIMYO_NO_CACHE=1`` each list built its catalog again (about 40 ms a draw): the viewer leaves
the catalogs no cache folder instead, and keeps each in memory. Then (cProfile of a new link's
page, 6.8 ms in process): the QR code with one mask still took 3 ms (now 0.2 ms: drawn from
what each QR version has in common, builder/viewer/qr.py), what the catalog says of each entry
0.6 ms (now kept per catalog, entry and language), the list put in canonical form twice (once
now) and the locale folder globbed for each page in a language (0.1 ms; now once per process):
2.2 ms in all, of which reading the code and checking the list are about a fifth each, the
template and the QR code a third.

The server's CPU is read from /proc (the viewer's processes: the parent and its workers), so
"CPU/request" is the server's own cost, apart from the clients'. The load generator runs on
the same machine: on a small host, its CPU is taken from the server's.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder.share.api import export_doc, read_source  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of ``pid`` and its children, from /proc."""
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            pids.append(int(child))
    for p in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


@contextlib.contextmanager
def viewer(workers: int):
    port = free_port()
    env = dict(os.environ, DAIMYO_VIEWER="https://lists.example.org")
    exe = [sys.executable, "-m", "builder.cli", "viewer", "--port", str(port), "--workers", str(workers)]
    proc = subprocess.Popen(exe, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                c.request("GET", "/healthz")
                if c.getresponse().status == 200:
                    c.close()
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the viewer did not start: " + proc.stderr.read().decode()[-500:])
            time.sleep(0.05)
        yield port, proc
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def drive(port: int, paths, clients: int, seconds: float, pid: int) -> dict:
    """``clients`` threads asking ``paths(i)`` for ``seconds``: rate, p95, errors, CPU/request."""
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    counter = [0]

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine: list[float] = []
        while time.monotonic() < stop:
            with lock:
                counter[0] += 1
                i = counter[0]
            t0 = time.perf_counter()
            try:
                conn.request("GET", paths(i))
                r = conn.getresponse()
                r.read()
                if r.status != 200:
                    errors[0] += 1
            except (OSError, http.client.HTTPException):
                errors[0] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                continue
            mine.append(time.perf_counter() - t0)
        conn.close()
        with lock:
            times.extend(mine)

    cpu0, t0 = tree_cpu(pid), time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall, cpu = time.monotonic() - t0, tree_cpu(pid) - cpu0
    n = len(times)
    return {
        "requests": n,
        "rate": n / wall,
        "p50": statistics.median(times) * 1000 if n else 0.0,
        "p95": sorted(times)[int(n * 0.95) - 1] * 1000 if n else 0.0,
        "cpu_ms": cpu / n * 1000 if n else 0.0,
        "errors": errors[0],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--list", default=str(ROOT / "examples" / "kensei-buke.yaml"))
    args = ap.parse_args()
    doc = read_source(args.list).doc
    code = export_doc(doc, "code")
    fresh = [export_doc({**doc, "name": f"{doc.get('name', 'List')} {i}"}, "code") for i in range(20000)]
    print(
        f"list {Path(args.list).name}: code of {len(code)} characters; {args.clients} clients, {args.seconds:g} s a route"
    )
    print(f"{'workers':>7} {'route':<18} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'CPU ms/req':>10} {'errors':>6}")
    for workers in args.workers:
        with viewer(workers) as (port, proc):
            routes = {
                "/healthz": lambda i: "/healthz",
                "/v/<code>": lambda i: f"/v/{code}",
                "/v/<code> (new)": lambda i: f"/v/{fresh[i % len(fresh)]}",
            }
            for paths in routes.values():  # warm: every worker's imports, catalog and templates
                drive(port, paths, args.clients, 2.0, proc.pid)
            for name, paths in routes.items():
                r = drive(port, paths, args.clients, args.seconds, proc.pid)
                print(
                    f"{workers:>7} {name:<18} {r['rate']:>8.0f} {r['p50']:>8.1f} {r['p95']:>8.1f} "
                    f"{r['cpu_ms']:>10.2f} {r['errors']:>6}"
                )


if __name__ == "__main__":
    main()
