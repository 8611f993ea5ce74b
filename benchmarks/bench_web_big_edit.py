"""One edit of a big list through the web builder, and a static file asked for meanwhile.

Run: python benchmarks/bench_web_big_edit.py [--troops 100000] [--edits name,notes,house_rule]

Starts ``daimyo serve`` on 127.0.0.1 (a separate process) over a workspace holding one Kensei
list of N troops, opens it once (the catalog is loaded), then for each kind of edit sends the
change (``POST /api/lists/big.yaml/edit``) and, while it runs, asks for a static file every
50 ms. It reports the edit's time and the slowest static answer during it: an edit that held
the event loop would make the static file wait as long as the edit.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

EDITS = {
    "name": {"op": "set", "key": "name", "value": "Bigger army"},
    "notes": {"op": "set", "key": "notes", "value": "changed in the builder"},
    "house_rule": {"op": "house_rule", "key": "leader_count", "value": "formula"},
}


def big_list(n: int) -> str:
    troops = "".join(
        "  - troop: Yari Ashigaru\n    models: 9\n" if i % 2 else "  - troop: Samurai Yari\n    models: 5\n"
        for i in range(n)
    )
    return f"system: kensei\nname: Big\nclan: buke\npoints: 200\ncommander: hatamoto\ntroops:\n{troops}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--troops", type=int, default=100_000)
    ap.add_argument("--edits", default="name,notes,house_rule")
    args = ap.parse_args()
    exe = shutil.which("daimyo", path=str(Path(sys.executable).parent)) or "daimyo"
    token = secrets.token_urlsafe(24)
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        (ws / "big.yaml").write_text(big_list(args.troops))
        port = free_port()
        server = subprocess.Popen(
            [exe, "serve", str(ws), "--port", str(port)],
            env=dict(os.environ, DAIMYO_TOKEN=token),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.time() + 30
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError as err:
                    if time.time() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start: " + server.stderr.read().decode()[-500:]) from err
                    time.sleep(0.1)
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            t0 = time.perf_counter()
            c.request("GET", "/api/lists/big.yaml/check", headers=auth)
            c.getresponse().read()
            print(
                f"{args.troops:,} troops, {(ws / 'big.yaml').stat().st_size / 1e6:.1f} MB; "
                f"first check {time.perf_counter() - t0:.1f} s"
            )
            for kind in args.edits.split(","):
                done = threading.Event()
                statics: list[float] = []

                def poll(done=done, statics=statics):
                    s = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
                    while not done.is_set():
                        t = time.perf_counter()
                        s.request("GET", "/static/app.css")
                        s.getresponse().read()
                        statics.append(time.perf_counter() - t)
                        time.sleep(0.05)

                th = threading.Thread(target=poll)
                th.start()
                t = time.perf_counter()
                c.request("POST", "/api/lists/big.yaml/edit", body=json.dumps(EDITS[kind]), headers=auth)
                r = c.getresponse()
                r.read()
                took = time.perf_counter() - t
                done.set()
                th.join()
                print(
                    f"{kind:>10}: edit {took:.2f} s (HTTP {r.status}); static file during it: "
                    f"{len(statics)} answers, slowest {max(statics) * 1000:.0f} ms"
                )
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()


if __name__ == "__main__":
    main()
