"""The README's test command, timed, with the machine's CPU time and a calibration loop beside it.

Run: python benchmarks/bench_suite.py [--runs N] [--calibrate-only] [-- PYTEST ARGS...]

The wall time of the test suite on a shared machine moves with the machine: on one 2-core
machine the same tests took 284 s on one day and 413 s on another, the work the same. This
benchmark gives, besides the wall time,

- the machine's busy CPU time over the run (Linux: ``/proc/stat``, every process: the test
  workers, the browsers and servers and commands they start), and how much of the cores'
  time was left idle;
- the median CPU time of a fixed pure-Python loop, before and after the run (``calibration``):
  a slower machine shows as a slower loop;
- the suite's own CPU time (``getrusage`` of this run's processes: pytest, its workers and
  every process they started and waited for), which other users of the machine do not move;
- the suite's CPU time in loops (its CPU seconds over the loop's), which stays put when the
  machine's speed moves and grows when the tests do more work.

The command is read from the README's quick start (the ``python -m pytest`` part of its second
command) and run from the project folder with this interpreter; PYTEST ARGS are added to it.
``DAIMYO_RULEBOOKS`` is set to ``../shared/seeds`` when that folder exists and the variable is not
set, as ``.ci/run`` does.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOOPS = 9  # runs of the calibration loop each time


def readme_test_command() -> list[str]:
    """The arguments after ``python`` of the README's test command (``-m pytest ...``)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"\.venv/bin/python (-m pytest[^\n`]*)", readme)
    if m is None:
        raise SystemExit("README.md: no `.venv/bin/python -m pytest ...` command in the quick start")
    return shlex.split(m.group(1))


def machine_busy() -> float | None:
    """Seconds of CPU time the whole machine has spent busy since it started (Linux), else None."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = fh.readline().split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq = (int(x) for x in fields[1:8])
    return (user + nice + system + irq + softirq) / os.sysconf("SC_CLK_TCK")


def calibration(runs: int = LOOPS) -> tuple[float, float, float]:
    """CPU seconds of a fixed loop of integer, string and dict work in this process: the median,
    the least and the most of ``runs``. On a shared machine they can differ by half: the
    machine's speed moves within minutes."""
    samples = []
    for _ in range(runs):
        start = time.process_time()
        table: dict[str, int] = {}
        total = 0
        for i in range(400_000):
            key = f"k{i % 997}"
            table[key] = table.get(key, 0) + i
            total += i * i % 7
        samples.append(time.process_time() - start)
    return statistics.median(samples), min(samples), max(samples)


def _loop(figures: tuple[float, float, float]) -> str:
    median, least, most = figures
    return f"{median:.3f} s CPU (median of {LOOPS}; {least:.3f}-{most:.3f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1, help="times to run the suite")
    ap.add_argument("--calibrate-only", action="store_true", help="the calibration loop alone")
    ap.add_argument("--durations", action="store_true", help="print the slowest tests' lines (add --durations=N)")
    ap.add_argument("--log", type=Path, help="write the last run's pytest output to this file")
    ap.add_argument("pytest_args", nargs="*", help="added to the README's command (after --)")
    args = ap.parse_args()
    before = calibration()
    print("calibration loop:", _loop(before))
    if args.calibrate_only:
        return
    cmd = [sys.executable, *readme_test_command(), *args.pytest_args]
    env = dict(os.environ)
    seeds = ROOT.parent / "shared" / "seeds"
    if "DAIMYO_RULEBOOKS" not in env and seeds.is_dir():
        env["DAIMYO_RULEBOOKS"] = str(seeds)
    cores = os.cpu_count() or 1
    print("command:", " ".join(shlex.quote(c) for c in cmd[1:]), f"({cores} cores)")
    for run in range(1, args.runs + 1):
        busy0, t0 = machine_busy(), time.perf_counter()
        own0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        own1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        busy1 = machine_busy()
        after = calibration()
        if args.log is not None:
            args.log.write_text(proc.stdout + proc.stderr, encoding="utf-8")
        own = (own1.ru_utime + own1.ru_stime) - (own0.ru_utime + own0.ru_stime)
        tail = [ln for ln in proc.stdout.splitlines() if re.search(r"\d+ (passed|failed|error)", ln)]
        print(f"run {run}: {tail[-1].strip('= ') if tail else 'no summary'} (exit {proc.returncode})")
        print(f"  wall {wall:.1f} s")
        loop = (before[0] + after[0]) / 2
        print(f"  the suite's own CPU {own:.1f} s = {own / loop:,.0f} loops")
        if args.durations:
            slow = [ln for ln in proc.stdout.splitlines() if re.match(r"\d+\.\d+s (call|setup|teardown) ", ln)]
            print("\n".join(slow))
        if busy0 is not None and busy1 is not None:
            cpu = busy1 - busy0
            idle = max(0.0, wall * cores - cpu)
            print(
                f"  machine CPU {cpu:.1f} s; cores idle {idle:.1f} s of {wall * cores:.1f} ({idle / (wall * cores):.0%})"
            )
            print(f"  calibration loop after the run: {_loop(after)}; the run = {cpu / loop:,.0f} loops of CPU")
        before = after


if __name__ == "__main__":
    main()
