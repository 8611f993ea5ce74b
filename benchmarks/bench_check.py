"""Speed of Kensei list checks.

Generates 500 list files (variations of the rulebook's sample lists) in a temporary
folder, then measures:

* lists per second checked in-process (``builder.check.check_file``, warm catalog), then
  with one catalog for all lists, checks only (documents parsed beforehand) and reading
  only; each as the first pass and the best of three (the machine may be shared);
* the wall time of ``daimyo check lists/*.yaml --format json`` as a subprocess.

Goals: >= 2,000 lists/s in-process; the 500-file CLI call under 2 s.
Run: ``.venv/bin/python benchmarks/bench_check.py``
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


def _passes(run, n: int, passes: int = 3) -> tuple[float, float]:
    """Lists per second of the first pass and of the best of ``passes`` (the machine may be shared)."""
    rates = []
    for _ in range(passes):
        t0 = time.perf_counter()
        run()
        rates.append(n / (time.perf_counter() - t0))
    return rates[0], max(rates)


def main() -> None:
    from builder.catalog.loader import load_catalog
    from builder.check import check_doc, check_file
    from builder.lists.document import load_list

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "lists"
        folder.mkdir()
        files = generate(folder)
        load_catalog("kensei")  # warm the cache
        check_file(files[0])
        n = len(files)
        results: list = []
        first, best = _passes(lambda: results.append(sum(check_file(f).legal for f in files)), n)
        print(
            f"in-process, check_file (catalog loaded per file): {n} lists, {first:,.0f} lists/s "
            f"(best of 3 passes {best:,.0f}; {results[0]} legal) [goal >= 2,000 lists/s]"
        )
        cat = load_catalog("kensei")
        first, best = _passes(lambda: [check_doc(load_list(f), catalog=cat) for f in files], n)
        print(f"in-process, one catalog for all lists: {first:,.0f} lists/s (best of 3 passes {best:,.0f})")
        docs = [load_list(f) for f in files]
        first, best = _passes(lambda: [check_doc(d, catalog=cat) for d in docs], n)
        print(
            f"in-process, checks only (parsed documents, one catalog): {first:,.0f} lists/s "
            f"(best of 3 passes {best:,.0f})"
        )
        first, best = _passes(lambda: [load_list(f) for f in files], n)
        print(f"in-process, reading only (load_list): {first:,.0f} lists/s (best of 3 passes {best:,.0f})")
        daimyo = Path(sys.executable).parent / "daimyo"
        cmd = [str(daimyo), "check", *map(str, files), "--format", "json"]
        subprocess.run(cmd, capture_output=True)  # warm the OS cache and the catalog cache
        t0 = time.perf_counter()
        r = subprocess.run(cmd, capture_output=True)
        dt = time.perf_counter() - t0
        print(
            f"CLI: daimyo check {len(files)} files --format json: {dt:.2f} s wall, exit {r.returncode}, "
            f"{len(r.stdout):,} bytes of JSON [goal < 2 s]"
        )


if __name__ == "__main__":
    main()
