"""Linear scaling of the commands in the size of a list: check, add, show and print at
1,000, 10,000 and 100,000 entries, and a list beyond the documented limits refused at once.

Lists: a Kensei army of N troop entries (each with its own comment line, as a user's
annotated list has) and a Senshiai deck of N card lines (invented cards, which the check
reports as unknown: it still reads, checks and reports every line). ``add`` appends a unit
or a copy, ``show`` prints the list with its check, ``print`` writes the Kensei roster or
the Senshiai card sheet. Over the limits: a list of more than 1,000,000 values and a file of
more than 16 MiB are refused before they are read into memory.

Each command runs as the CLI does (a subprocess); the figures are its CPU time (user+system,
what the machine spent, steady when it is shared) and its wall time. A command that takes
longer than ``--timeout`` seconds is stopped and reported as such.

Run: ``.venv/bin/python benchmarks/bench_scaling.py [--sizes 1000,10000,100000] [--timeout 300]``
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TROOPS = ["Samurai Yari", "Yari Ashigaru", "Samurai Dai-Katana", "Yumi Samurai"]


def kensei(n: int) -> str:
    out = [
        "# a big army\nsystem: kensei\nname: Big army\nclan: buke\npoints: 200\ncommander: hatamoto\n",
        "troops:\n  - troop: Taisho Buke   # the general\n",
    ]
    out += [f"  # unit {i}\n  - troop: {TROOPS[i % 4]}\n    models: {3 + i % 4}\n" for i in range(n - 1)]
    return "".join(out)


def senshiai(n: int) -> str:
    out = [
        "system: senshiai\nname: Big deck\npacks: [packs/senshiai-example.yaml]\nsize: 50\ncards:\n",
        "  Capital of the North: 1\n  # terrains\n  Rice Fields: 4\n  # troops\n  Warriors: 6\n",
    ]
    out += [f"  Invented card {i}: 1\n" for i in range(n - 3)]
    return "".join(out)


def run(cmd: list[str], cwd: Path, timeout: float) -> tuple[float | None, float, int]:
    """(CPU seconds of the child or None when stopped, wall seconds, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t, -1
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, proc.returncode


def fmt(result) -> str:
    cpu, wall, code = result
    if cpu is None:
        return f"stopped after {wall:.0f} s"
    return f"{cpu:6.2f} s cpu {wall:6.2f} s wall (exit {code})"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--systems", default="kensei,senshiai")
    args = ap.parse_args()
    exe = shutil.which("daimyo", path=str(Path(sys.executable).parent)) or "daimyo"
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(ROOT / "examples" / "packs", work / "packs")
        subprocess.run([exe, "check", str(ROOT / "examples" / "kensei-buke.yaml")], stdout=subprocess.DEVNULL)
        for system in args.systems.split(","):
            make, what, name = (
                (kensei, "troops", "Samurai Yari") if system == "kensei" else (senshiai, "card lines", "Warriors")
            )
            for n in (int(x) for x in args.sizes.split(",")):
                f = work / f"{system}-{n}.yaml"
                f.write_text(make(n), encoding="utf-8")
                size = f.stat().st_size
                print(f"{system}, {n:,} {what} ({size / 1e6:.1f} MB):")
                for label, cmd in (
                    ("check", [exe, "check", f.name]),
                    ("add", [exe, "add", f.name, name]),
                    ("show", [exe, "show", f.name]),
                    ("print", [exe, "print", f.name, "-o", f"{system}-{n}.pdf", "--force"]),
                ):
                    print(f"  {label:<6} {fmt(run(cmd, work, args.timeout))}", flush=True)
        # beyond the limits: refused at once
        print("beyond the limits:")
        big = work / "too-many-values.yaml"
        big.write_text(
            "\n".join(x for x in kensei(250_000).split("\n") if not x.startswith("  # unit")), encoding="utf-8"
        )  # 250,000 troops without comments: 1.25 million values
        print(f"  {big.stat().st_size / 1e6:.1f} MB, 250,000 troops (1.25 million values):")
        for label, cmd in (
            ("check", [exe, "check", big.name]),
            ("add", [exe, "add", big.name, "Samurai Yari"]),
            ("show", [exe, "show", big.name]),
        ):
            print(f"    {label:<6} {fmt(run(cmd, work, args.timeout))}", flush=True)
        huge = work / "too-large.yaml"
        huge.write_text(kensei(400_000), encoding="utf-8")
        print(f"  {huge.stat().st_size / 1e6:.1f} MB file (over 16 MiB):")
        for label, cmd in (
            ("check", [exe, "check", huge.name]),
            ("add", [exe, "add", huge.name, "Samurai Yari"]),
            ("show", [exe, "show", huge.name]),
        ):
            print(f"    {label:<6} {fmt(run(cmd, work, args.timeout))}", flush=True)
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
