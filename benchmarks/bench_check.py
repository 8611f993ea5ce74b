"""Speed of Kensei list checks.

Generates 500 list files (variations of the rulebook's sample lists) in a temporary
folder, then measures:

* lists per second checked in-process (``builder.check.check_file``, warm catalog);
* the wall time of ``daimyo check lists/*.yaml --format json`` as a subprocess.

Goals: >= 2,000 lists/s in-process; the 500-file CLI call under 2 s.
Run: ``/work/venv/bin/python benchmarks/bench_check.py``
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SAMPLES = sorted((ROOT / "examples").glob("kensei-*.yaml"))


def generate(folder: Path, n: int = 500) -> list[Path]:
    rnd = random.Random(7)
    texts = [p.read_text(encoding="utf-8") for p in SAMPLES]
    out = []
    for i in range(n):
        text = texts[i % len(texts)]
        # vary the size of one unit and the battle size so lists differ
        text = text.replace("points: 200", f"points: {rnd.choice([200, 200, 300, 400])}")
        text = text.replace("models: 5", f"models: {rnd.randint(3, 6)}", 1)
        p = folder / f"list{i:03d}.yaml"
        p.write_text(text, encoding="utf-8")
        out.append(p)
    return out


def main() -> None:
    from builder.check import check_file
    from builder.catalog.loader import load_catalog

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "lists"
        folder.mkdir()
        files = generate(folder)
        load_catalog("kensei")  # warm the cache
        check_file(files[0])
        t0 = time.perf_counter()
        legal = 0
        for f in files:
            legal += check_file(f).legal
        dt = time.perf_counter() - t0
        print(f"in-process, check_file (catalog loaded per file): {len(files)} lists in {dt:.3f} s = "
              f"{len(files) / dt:,.0f} lists/s ({legal} legal) [goal >= 2,000 lists/s]")
        from builder.check import check_doc
        from builder.lists.document import load_list

        cat = load_catalog("kensei")
        t0 = time.perf_counter()
        for f in files:
            check_doc(load_list(f), catalog=cat)
        dt = time.perf_counter() - t0
        print(f"in-process, one catalog for all lists: {len(files) / dt:,.0f} lists/s")
        docs = [load_list(f) for f in files]
        t0 = time.perf_counter()
        for d in docs:
            check_doc(d, catalog=cat)
        dt = time.perf_counter() - t0
        print(f"in-process, checks only (parsed documents, one catalog): {len(files) / dt:,.0f} lists/s")
        daimyo = Path(sys.executable).parent / "daimyo"
        cmd = [str(daimyo), "check", *map(str, files), "--format", "json"]
        subprocess.run(cmd, capture_output=True)  # warm the OS cache and the catalog cache
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True)
        dt = time.perf_counter() - t0
        print(f"CLI: daimyo check {len(files)} files --format json: {dt:.2f} s wall, exit {r.returncode}, "
              f"{len(r.stdout):,} bytes of JSON [goal < 2 s]")


if __name__ == "__main__":
    main()
