"""Mutation testing of the print options' bounds: does a test fail when a bound moves?

Run on demand (never part of the test suite):

    python benchmarks/mutate_print_bounds.py

Mutants: each end of each ``Bound`` of ``builder/kit/printbounds.py`` (bleed, gutter, scales,
offsets, paper and card sides, card images' resolution) and the paper limits of
``builder/limits.py``, moved out and in by the distance the tests step past it (0.1 mm, 0.01 of
a scale, 1 dpi). Each is applied to a copy of the project (the working tree is never touched)
and ``tests/test_print_options.py`` runs there (``-x``); a mutant is killed when a test fails.
The exit code is 1 when any survives.

Score (this machine, 2 shared cores): 48/48 killed, about 6 s a mutant.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STEPS = {"SCALE_X": "0.01", "SCALE_Y": "0.01", "DPI": "1"}  # else 0.1 (mm)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="daimyo-mutate-print-") as tmp:
        where = Path(tmp) / "project"
        shutil.copytree(ROOT, where, ignore=shutil.ignore_patterns(".venv", "__pycache__", ".git", "output"))
        env = dict(os.environ, PYTHONPATH=str(where), CI="true")
        files = {
            "printbounds": where / "builder" / "kit" / "printbounds.py",
            "limits": where / "builder" / "limits.py",
        }
        text = {k: p.read_text(encoding="utf-8") for k, p in files.items()}
        mutants: list[tuple[str, str, str]] = []  # (file key, label, mutated text)
        ends = re.compile(r'^(\w+) = Bound\(\s*"[^"]+",\s*([-\w. *]+),\s*([-\w. *]+),', re.M)
        for m in ends.finditer(text["printbounds"]):
            step = STEPS.get(m.group(1), "0.1")
            for g in (2, 3):
                for sign in ("+", "-"):
                    new = f"{text['printbounds'][: m.start(g)]}({m.group(g)} {sign} {step}){text['printbounds'][m.end(g) :]}"
                    mutants.append(("printbounds", f"{m.group(1)} {m.group(g)} {sign} {step}", new))
        for name in ("MIN_PAPER_MM = 50.0", "MAX_PAPER_MM = 2000.0"):
            for sign in ("+", "-"):
                mutants.append(("limits", f"{name} {sign} 0.1", text["limits"].replace(name, f"{name} {sign} 0.1")))
        survivors = []
        for key, label, new in mutants:
            files[key].write_text(new, encoding="utf-8")
            r = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "tests/test_print_options.py"],
                cwd=where,
                env=env,
                capture_output=True,
                text=True,
            )
            files[key].write_text(text[key], encoding="utf-8")
            killed = r.returncode != 0
            print(f"{'killed  ' if killed else 'SURVIVED'} {label}", flush=True)
            if not killed:
                survivors.append(label)
        print(f"{len(mutants) - len(survivors)}/{len(mutants)} killed")
        return 1 if survivors else 0


if __name__ == "__main__":
    raise SystemExit(main())
