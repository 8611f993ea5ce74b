"""Load on the viewer: requests per second, p95 and server CPU per request of ``/v/<code>``
against the trivial ``/healthz`` of the same server, with 1, 2 and 4 worker processes, in one run.

Run: python benchmarks/bench_viewer.py [--clients 8] [--seconds 5] [--workers 1 2 4] [--shared 3000]
     [--cache-in /dev/shm] [--no-cache]

For each worker count it starts ``daimyo viewer --workers N`` (a separate process, as it is
deployed) on a free loopback port, with a cache folder of its own (``--cache-dir``) shared with
a second ``daimyo viewer`` (another copy on the host), and drives it with ``--clients`` threads,
each on its own keep-alive connection, for ``--seconds`` per route:

* ``/healthz``: the trivial route (the framework and the server alone);
* ``/v/<code>``: one link asked again and again (each worker draws it or reads it from the
  folder once, then answers it from the answers it keeps in memory, as most links are asked:
  by everyone in a chat);
* ``/v/<code> (new)``: a different link each request (the list's name changes), never asked
  before of any copy: decoded, checked, drawn and written to the folder;
* ``/v/<code> (copy's)``: ``--shared`` different links, each asked once, that the other copy
  drew first: decoded as far as the catalog it is checked against, then read from the folder.

Every link of the ``(new)`` and ``(copy's)`` routes is asked once in the whole run (the warm-up
takes links of its own). ``--no-cache``: the viewers without a cache folder, each copy drawing
every link itself (the ``(copy's)`` links are then drawn again). ``--cache-in``: the folder the
cache folder is made in (a disk's, or a tmpfs such as /dev/shm: writing an entry on this
machine's ext4 disk costs 0.2-0.4 ms of CPU, on a tmpfs 0.07-0.15 ms).

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

With the cache folder (builder/viewer/shelf.py), a link another copy drew costs reading the code
as far as the catalog it is checked against (0.2 ms in process: decoding it and putting it in
canonical form two thirds, the catalog's files looked at a fifth) and reading its entry (10 us);
looking for an entry and writing it add 0.2-0.5 ms to a new link (on this machine's disk). Its
bound was first kept by listing the folder with each entry's time every 32 entries written:
30 ms at 4096 entries, 1 ms a new link; it now counts the names alone (about 1 ms) and reads
the times only past the bound, sweeping down to 7/8 of it. Then (cProfile of a new link's page, 1.3 ms in process): the
template 36%, checking the list and what each entry shows 32% (the check 13%), reading the code
15%, the QR code 7%; the rest is spread thin. Reusing the list as the check read it, rather
than reading it again for the unit cards, changed nothing measurable (0.01 ms), so it was left.

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
import tempfile
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
def viewer(workers: int, cache_dir: str | None):
    port = free_port()
    env = dict(os.environ, DAIMYO_VIEWER="https://lists.example.org")
    exe = [sys.executable, "-m", "builder.cli", "viewer", "--port", str(port), "--workers", str(workers)]
    exe += ["--cache-dir", cache_dir] if cache_dir else ["--no-cache"]
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


def drive(port: int, paths, clients: int, seconds: float, pid: int, most: int | None = None) -> dict:
    """``clients`` threads asking ``paths(i)`` for ``seconds`` (or ``most`` requests, i = 1 to
    ``most``, if they are asked first): rate, p95, errors, CPU/request, where the answers came from."""
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    counter = [0]
    sources: dict[str, int] = {}

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine: list[float] = []
        while time.monotonic() < stop:
            with lock:
                counter[0] += 1
                i = counter[0]
            if most is not None and i > most:
                break
            t0 = time.perf_counter()
            try:
                conn.request("GET", paths(i))
                r = conn.getresponse()
                r.read()
                source = r.getheader("X-Daimyo-Cache") or "-"
                with lock:
                    sources[source] = sources.get(source, 0) + 1
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
        "sources": sources,
    }


def each(links: list[str]):
    """The paths of the links, request i asking the i-th."""
    return lambda i: f"/v/{links[i - 1]}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--shared", type=int, default=3000, help="links drawn by the other copy, asked once each")
    ap.add_argument("--no-cache", action="store_true", help="the viewers without a cache folder (as before it)")
    ap.add_argument("--cache-in", default=None, help="where the cache folder is made (default: the temporary folder)")
    ap.add_argument("--list", default=str(ROOT / "examples" / "kensei-buke.yaml"))
    args = ap.parse_args()
    doc = read_source(args.list).doc
    code = export_doc(doc, "code")
    made = [0]

    def fresh(n: int) -> list[str]:  # n links never asked before in this run
        made[0] += n
        name = doc.get("name", "List")
        return [export_doc({**doc, "name": f"{name} {i}"}, "code") for i in range(made[0] - n, made[0])]

    print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}")
    print(
        f"list {Path(args.list).name}: code of {len(code)} characters; {args.clients} clients, {args.seconds:g} s a route"
    )
    print(
        f"{'workers':>7} {'route':<20} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'CPU ms/req':>10} {'errors':>6}  answers"
    )
    for workers in args.workers:
        with (
            tempfile.TemporaryDirectory(prefix="bench-viewer-", dir=args.cache_in) as folder,
            viewer(workers, None if args.no_cache else folder) as (port, proc),
            viewer(1, None if args.no_cache else folder) as (other, other_proc),
        ):
            warm, new, shared = fresh(2000), fresh(4000), fresh(args.shared)
            routes = {
                "/healthz": (lambda i: "/healthz", None),
                "/v/<code>": (lambda i: f"/v/{code}", None),
                "/v/<code> (new)": (each(new), len(new)),
                "/v/<code> (copy's)": (each(shared), len(shared)),
            }
            # warm: every worker's imports, catalog and templates
            for paths in (lambda i: "/healthz", lambda i: f"/v/{code}", each(warm)):
                drive(port, paths, args.clients, 2.0, proc.pid, most=len(warm))
            for name, (paths, most) in routes.items():
                if name.endswith("(copy's)"):  # the other copy draws these links first
                    drive(other, each(shared), args.clients, 3600, other_proc.pid, most=len(shared))
                r = drive(port, paths, args.clients, args.seconds, proc.pid, most=most)
                print(
                    f"{workers:>7} {name:<20} {r['rate']:>8.0f} {r['p50']:>8.1f} {r['p95']:>8.1f} "
                    f"{r['cpu_ms']:>10.2f} {r['errors']:>6}  {r['sources']}"
                )
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    main()
