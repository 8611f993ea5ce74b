"""Start-up cost of the CLI and of loading the catalog (warm cache and after a change).

Run: python benchmarks/bench_startup.py [--runs N]

Measures, in one run, the median wall time of
  python -c pass
  daimyo --version
  daimyo catalog list kensei          (warm catalog cache)
  daimyo catalog list kensei          (after a catalog file changed: cache rebuilt)
  daimyo check kensei-buke.yaml       (one Kensei list, warm catalog cache)
and prints the ratios the project aims at: the warm catalog adds under 20 ms to the
bare command, `catalog list` stays under 8x and one `check` under 10x `python -c pass`.
Each figure is given as wall time and as the CPU time of the process (user + system), which
a busy shared machine disturbs less; the ratios are given for both.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


CPU: dict[tuple, float] = {}  # command -> median CPU seconds of its process


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, env, runs):
    """Median wall time of ``cmd``; its median CPU time is kept in ``CPU``."""
    samples, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), _cpu()
        proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        samples.append(time.perf_counter() - t)
        cpu.append(_cpu() - c)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.decode()[-400:]}")
    CPU[tuple(cmd)] = statistics.median(cpu)
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    exe = shutil.which("daimyo", path=str(Path(sys.executable).parent)) or "daimyo"
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        for sub in ("catalog", "templates", "examples"):
            if (ROOT / sub).exists():
                shutil.copytree(ROOT / sub, data / sub)
        env = dict(os.environ, DAIMYO_DATA=str(data), DAIMYO_CACHE_DIR=str(Path(tmp) / "cache"))
        # measure as an installed copy runs: with compiled bytecode (pip writes it at install time)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "builder")], env=env, check=False)
        bare = timed([sys.executable, "-c", "pass"], env, args.runs)
        bare_cpu = CPU[(sys.executable, "-c", "pass")]
        version = timed([exe, "--version"], env, args.runs)
        listing = [exe, "catalog", "list", "kensei"]
        timed(listing, env, 1)  # fill the cache
        warm = timed(listing, env, args.runs)
        warm_cpu = CPU[tuple(listing)]
        checking = [exe, "check", str(data / "examples" / "kensei-buke.yaml")]
        timed(checking, env, 1)  # fill the cache
        check = timed(checking, env, args.runs)
        check_cpu = CPU[tuple(checking)]
        cold_samples = []
        victim = sorted((data / "catalog" / "kensei").glob("*.yaml"))[0]
        for i in range(max(3, args.runs // 3)):
            victim.write_text(victim.read_text() + f"\n# touched {i}\n")
            cold_samples.append(timed(listing, env, 1))
        cold = statistics.median(cold_samples)
    ms = lambda s: f"{s * 1000:7.1f} ms"  # noqa: E731
    print(f"python -c pass                      {ms(bare)}")
    print(f"daimyo --version                    {ms(version)}   {version / bare:5.1f}x pass")
    print(
        f"daimyo catalog list kensei (warm)   {ms(warm)}   {warm / bare:5.1f}x pass, "
        f"+{(warm - version) * 1000:.1f} ms over --version"
    )
    print(f"daimyo catalog list kensei (changed){ms(cold)}   {cold / bare:5.1f}x pass")
    print(f"daimyo check kensei-buke.yaml       {ms(check)}   {check / bare:5.1f}x pass")
    print(
        f"CPU time: python -c pass {ms(bare_cpu)}; catalog list {ms(warm_cpu)} = {warm_cpu / bare_cpu:4.1f}x; "
        f"check {ms(check_cpu)} = {check_cpu / bare_cpu:4.1f}x"
    )
    print(
        f"goals: warm adds < 20 ms over --version: {'met' if warm - version < 0.020 else 'missed'}; "
        f"catalog list < 8x pass: {'met' if warm / bare < 8 else 'missed'}; "
        f"check < 10x pass: {'met' if check / bare < 10 else 'missed'} "
        f"(CPU time: {'met' if warm_cpu / bare_cpu < 8 else 'missed'}, "
        f"{'met' if check_cpu / bare_cpu < 10 else 'missed'})"
    )


if __name__ == "__main__":
    main()
