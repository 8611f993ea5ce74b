"""Print-shop images, Tabletop Simulator export and the organiser's book: time.

    .venv/bin/python benchmarks/bench_outputs.py

Case 1: ``daimyo print --to images``: a deck of 200 distinct cards (Satsuma custom cards,
no art) to 200 PNG faces of 825 x 1125 px plus the back (goal: under 10 s).
Case 2: ``daimyo export --to tts``: the same 200 cards as 3 deck sheets and a saved object.
Case 3: ``daimyo print lists/*.yaml --book``: 100 lists (the ten examples, ten times
each, under other file names) in one PDF (goal: under 10 s).
Best of 2 runs each; the catalog cache is warmed first.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
import time
from contextlib import redirect_stderr
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def write_deck(folder: Path, n: int = 200) -> Path:
    lines = ["system: satsuma", "name: Benchmark deck", "side: samurai", "cards:"]
    for i in range(n):
        lines.append(f"  Bench Card {i:03d}: {{printed: F{i % 9 + 1} or M{(i + 3) % 9 + 1}, count: 1}}")
    lst = folder / "deck.yaml"
    lst.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lst


CPU = []


def best(fn, runs: int = 2) -> float:
    """Best wall-clock time of ``runs``; the CPU time (all threads) of that run goes to CPU
    (on a machine shared with other work the wall clock overstates the cost)."""
    out = None
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        with redirect_stderr(io.StringIO()):
            fn()
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        if out is None or dt < out:
            out = dt
            CPU.append(dc)
    return out


def main() -> None:
    from builder.render.book import render_book
    from builder.render.images import export_tts, render_images

    tmp = Path(tempfile.mkdtemp(prefix="daimyo-bench-"))
    os.environ["DAIMYO_CACHE_DIR"] = str(tmp / "cache")
    try:
        deck = write_deck(tmp)
        with redirect_stderr(io.StringIO()):
            from builder.check import load_checked

            load_checked(deck)  # warm the catalog cache
        t = best(lambda: render_images(deck, tmp / "png", force=True))
        n = len(list((tmp / "png").glob("*.png")))
        mb = sum(p.stat().st_size for p in (tmp / "png").glob("*.png")) / 1e6
        print(
            f"200 card images to PNG (825x1125): {t:6.2f} s  (CPU {CPU[-1]:.2f} s)  {n} files, {mb:.1f} MB"
            "   (goal < 10 s)"
        )
        t = best(lambda: export_tts(deck, tmp / "tts", force=True))
        mb = sum(p.stat().st_size for p in (tmp / "tts").iterdir()) / 1e6
        print(
            f"TTS export of 200 cards:           {t:6.2f} s  (CPU {CPU[-1]:.2f} s)  {len(list((tmp / 'tts').iterdir()))} files, {mb:.1f} MB"
        )
        lists = tmp / "lists"
        lists.mkdir()
        (lists / "packs").mkdir()
        for p in (ROOT / "examples" / "packs").glob("*.yaml"):
            shutil.copy(p, lists / "packs" / p.name)
        files = []
        for i in range(10):
            for src in sorted((ROOT / "examples").glob("*.yaml")):
                dst = lists / f"player{i:02d}-{src.name}"
                shutil.copy(src, dst)
                files.append(dst)
        t = best(lambda: render_book(files, tmp / "book.pdf", force=True))
        print(
            f"organiser's book of {len(files)} lists:     {t:6.2f} s  (CPU {CPU[-1]:.2f} s)  {(tmp / 'book.pdf').stat().st_size / 1e6:.2f} MB"
            "   (goal < 10 s)"
        )
        print(f"(load average when done: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
