"""Big lists in print: the Kensei roster and card sheets grow linearly with the list.

    .venv/bin/python benchmarks/bench_print_scaling.py [--quick]

Case 1: the roster of a Kensei list of 1,000, 10,000 and 100,000 troops (the list limit is
1,000,000 values; a troop written as ``- troop: NAME`` with ``models: N`` is five), read,
checked and printed (A4, no unit cards). Goal: linear (time per troop about constant).
Case 2: card sheets of a Satsuma deck of 1,000 and 10,000 cards (a print job holds at most
10,000 cards), A4 poker with backs. Goal: linear.
One run each (the big cases take a while); wall and CPU time (the machine is shared: note
the load average printed at the start).
"""

from __future__ import annotations

import io
import os
import resource
import shutil
import sys
import tempfile
import time
from contextlib import redirect_stderr
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TROOPS = ["Taisho Buke", "Samurai Yari", "Yari Ashigaru", "Samurai Dai-Katana", "Yumi Samurai"]


def kensei_list(folder: Path, n: int) -> Path:
    lines = ["system: kensei", f"name: Big army {n}", "clan: buke", "points: 200", "commander: hatamoto", "troops:"]
    for i in range(n):
        lines.append(f"  - troop: {TROOPS[i % 5]}\n    models: {i % 5 + 1}")
    p = folder / f"kensei-{n}.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def satsuma_deck(folder: Path, n: int) -> Path:
    lines = ["system: satsuma", f"name: Big deck {n}", "side: samurai", "cards:"]
    for i in range(n):
        lines.append(f"  Bench Card {i:05d}: {{printed: F{i % 9 + 1} or M{(i + 3) % 9 + 1}, count: 1}}")
    p = folder / f"satsuma-{n}.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    with redirect_stderr(io.StringIO()):
        out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def pages(path: Path) -> int:
    from builder.render.aids import _pages

    return _pages(path)


def main() -> None:
    from builder.render.api import render_list

    quick = "--quick" in sys.argv
    tmp = Path(tempfile.mkdtemp(prefix="daimyo-bench-"))
    os.environ["DAIMYO_CACHE_DIR"] = str(tmp / "cache")
    print(f"load average {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")
    try:
        render_list(kensei_list(tmp, 10), tmp / "warm.pdf", force=True)  # warm the catalog cache
        print("Kensei roster (read + check + print):")
        for n in (1_000, 10_000) if quick else (1_000, 10_000, 100_000):
            lst = kensei_list(tmp, n)
            out, wall, cpu = timed(lambda lst=lst, n=n: render_list(lst, tmp / f"roster-{n}.pdf", force=True))
            print(
                f"  {n:>7,} troops: {wall:7.1f} s wall, {cpu:7.1f} s CPU, {cpu / n * 1000:.2f} ms CPU per troop, "
                f"{pages(out):,} pages, {out.stat().st_size / 1e6:.1f} MB"
            )
        print("Satsuma card sheets (read + check + print, A4 poker with backs):")
        for n in (1_000, 10_000):
            lst = satsuma_deck(tmp, n)
            out, wall, cpu = timed(lambda lst=lst, n=n: render_list(lst, tmp / f"deck-{n}.pdf", force=True))
            print(
                f"  {n:>7,} cards:  {wall:7.1f} s wall, {cpu:7.1f} s CPU, {cpu / n * 1000:.2f} ms CPU per card, "
                f"{pages(out):,} pages, {out.stat().st_size / 1e6:.1f} MB"
            )
        print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
