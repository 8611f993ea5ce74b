"""``daimyo show`` against ``daimyo check`` of a 100,000-troop Kensei army.

``show`` reads the list, prints it as text and checks it; ``check`` only reads and checks.
Both run as the CLI does (a subprocess, catalog cache warm); the figures are CPU time
(user+system of the child: steady when the machine is shared) and wall time, with the load
average before and after. The army is the one ``bench_scaling.py`` makes (four troop
profiles repeated, a comment line per unit).

Goal: ``show`` costs little more than ``check`` (it prints one line per unit).
Run: ``.venv/bin/python benchmarks/bench_show.py [--size 100000]`` (about 15 s).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scaling import fmt, kensei, run


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=100_000)
    args = ap.parse_args()
    exe = shutil.which("daimyo", path=str(Path(sys.executable).parent)) or "daimyo"
    before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        os.environ["DAIMYO_CACHE_DIR"] = str(work / "cache")
        f = work / "army.yaml"
        f.write_text(kensei(args.size), encoding="utf-8")
        run([exe, "check", str(f)], work, 300)  # warms the catalog cache
        for cmd in ("check", "show"):
            best = min((run([exe, cmd, str(f)], work, 300) for _ in range(2)), key=lambda r: r[0] or 1e9)
            print(f"{cmd:5s} {args.size:,} troops: {fmt(best)}")
    after = os.getloadavg()
    print(f"load average before {before[0]:.2f}, after {after[0]:.2f} (2 cores)")


if __name__ == "__main__":
    main()
