"""Card-sheet printing: time and size of a 200-card deck on A4, poker size.

    .venv/bin/python benchmarks/bench_print.py

Case 1: 200 cards without art (goals: under 1 s, under 1 MB).
Case 2: the same deck where 50 distinct cards have art (50 JPEGs of 500x350 px,
under 300 dpi in their box, so they pass through unchanged); case 3 the same with
1500x1050 px images that are resampled to 300 dpi first; goal under 3 s and a
size close to the images' own bytes.
Best of 3 runs each; the catalog cache is warmed first. The resampling case runs once
with an empty image cache (cold: every image decoded, resampled and re-encoded) and then
best of 3 with the resampled images already in the cache (warm: printing the deck again).
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def write_deck(folder: Path, n_cards: int = 200, n_art: int = 0, px=(500, 350)) -> Path:
    """A Satsuma variant deck of custom cards (every card named in the list itself)."""
    lines = ["system: satsuma", "name: Benchmark deck", "side: samurai", "cards:"]
    per = n_cards // 50
    for i in range(50):
        lines.append(f"  Bench Card {i:02d}: {{printed: F{i % 9 + 1} or M{(i + 3) % 9 + 1}, count: {per}}}")
    lst = folder / "deck.yaml"
    lst.write_text("\n".join(lines) + "\n", encoding="utf-8")
    if n_art:
        import random

        from PIL import Image

        art = folder / "art"
        art.mkdir(exist_ok=True)
        rnd = random.Random(1)
        for i in range(n_art):
            im = Image.effect_noise(px, 40 + i).convert("RGB")
            tint = Image.new("RGB", im.size, (rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)))
            Image.blend(im, tint, 0.5).save(art / f"bench-card-{i:02d}.jpg", quality=85)
    return lst


def run(lst: Path, out: Path, runs: int = 3) -> tuple[float, int]:
    from builder.render import api

    best = None
    for _ in range(runs):
        if out.exists():
            out.unlink()
        t0 = time.perf_counter()
        api.render_list(lst, out)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best, out.stat().st_size


def main() -> None:
    import io
    import os
    from contextlib import redirect_stderr

    tmp = Path(tempfile.mkdtemp(prefix="daimyo-bench-"))
    os.environ["DAIMYO_CACHE_DIR"] = str(tmp / "cache")
    try:
        with redirect_stderr(io.StringIO()):  # the variant deck's check findings are not the point
            (tmp / "plain").mkdir()
            plain = write_deck(tmp / "plain")
            t, size = run(plain, tmp / "plain.pdf")
        print(f"200 cards, no art, A4 poker:      {t:6.3f} s  {size / 1e6:6.3f} MB   (goals < 1 s, < 1 MB)")
        (tmp / "art").mkdir()
        with redirect_stderr(io.StringIO()):
            arty = write_deck(tmp / "art", n_art=50)
            t, size = run(arty, tmp / "art.pdf")
        img_bytes = sum(p.stat().st_size for p in (tmp / "art" / "art").glob("*.jpg"))
        print(
            f"200 cards, 50 distinct JPEGs:     {t:6.3f} s  {size / 1e6:6.3f} MB   (goal < 3 s; "
            f"the images alone are {img_bytes / 1e6:.3f} MB, overhead {(size - img_bytes) / 1e6:.3f} MB)"
        )
        (tmp / "big").mkdir()
        with redirect_stderr(io.StringIO()):
            big = write_deck(tmp / "big", n_art=50, px=(1500, 1050))
            t, size = run(big, tmp / "big.pdf", runs=1)
            t_warm, _ = run(big, tmp / "big.pdf", runs=3)
        img_bytes = sum(p.stat().st_size for p in (tmp / "big" / "art").glob("*.jpg"))
        embedded = sum(p.stat().st_size for p in (tmp / "cache" / "images").glob("*.jpg"))
        print(
            f"200 cards, 50 JPEGs resampled:    {t:6.3f} s  {size / 1e6:6.3f} MB   "
            f"(goal < 3 s; sources {img_bytes / 1e6:.3f} MB at ~860 dpi, resampled to 300 dpi "
            f"{embedded / 1e6:.3f} MB, overhead {(size - embedded) / 1e6:.3f} MB)"
        )
        print(f"  the same, printed again (cache): {t_warm:6.3f} s")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
