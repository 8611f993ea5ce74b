"""Speed of a pack registry: indexing a folder of packs, searching it, installing from it.

Measures, in-process (the index once, the others best of three; the machine may be shared), a
registry folder of
``--packs`` Senshiai packs (default 200) of ``--cards`` cards each (default 20), served over
HTTP on 127.0.0.1 by a small static server:

* ``daimyo pack index FOLDER``: every pack checked, hashed and listed (``build_index``, then the
  ``index.json`` written);
* ``daimyo pack search TEXT``: the index downloaded from the server, read and searched;
* ``daimyo pack install NAME``: the index, the pack downloaded, its SHA-256 checked, the pack
  checked and written to the packs folder.

Goals: an index of 200 packs in under 10 s; a search and an install each in under 1 s.
Measured on 2 CPUs shared with other work (load average 7): index 24.5 s (122 ms a pack: each
pack is checked with the game's catalog), search 228 ms, install 202 ms.
Run: ``.venv/bin/python benchmarks/bench_registry.py [--packs 200] [--cards 20]``
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def best(fn, n=3):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def pack_text(i: int, cards: int) -> str:
    lines = [
        "system: senshiai",
        f"name: Bench pack {i}",
        'version: "1"',
        f"description: Cards of club {i}",
        "authors: [Bench Example]",
        "licence: CC-BY-4.0",
        "cards:",
    ]
    for c in range(cards):
        lines += [
            f"  - name: Club {i} Samurai {c}",
            "    type: troop",
            "    subtype: Samurai",
            "    cost: II",
            "    paths: [Earth]",
            "    speed: 1",
            "    power: 2/1/3",
            "    assumed: invented for the benchmark",
        ]
    return "\n".join(lines) + "\n"


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--packs", type=int, default=200)
    ap.add_argument("--cards", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="daimyo-bench-") as tmp:
        base = Path(tmp)
        folder = base / "registry"
        folder.mkdir()
        for i in range(args.packs):
            (folder / f"bench-{i}.yaml").write_text(pack_text(i, args.cards), encoding="utf-8")
        os.environ["DAIMYO_PACKS"] = str(base / "packs")
        os.environ["DAIMYO_CACHE_DIR"] = str(base / "cache")
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(base)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/registry/index.json"
        os.environ["DAIMYO_REGISTRY"] = url
        try:
            from builder.packs.installer import install
            from builder.packs.registry import build_index, dump_index, load_index, search

            def index():
                data, _lines = build_index(folder)
                (folder / "index.json").write_text(dump_index(data), encoding="utf-8")

            t_index = best(index, 1)  # seconds for 200 packs: once is enough
            found: list = []
            t_search = best(lambda: found.append(search(load_index(url), "club 1", "senshiai")))
            wanted = f"Bench pack {args.packs // 2}"
            t_install = best(lambda: install(wanted, force=True))
        finally:
            server.shutdown()
    print(
        f"registry of {args.packs} packs x {args.cards} cards; {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"pack index    {t_index * 1000:8.1f} ms  ({t_index / args.packs * 1000:.2f} ms a pack)  goal < 10 s")
    print(f"pack search   {t_search * 1000:8.1f} ms  ({len(found[-1])} found)  goal < 1 s")
    print(f"pack install  {t_install * 1000:8.1f} ms  goal < 1 s")


if __name__ == "__main__":
    main()
