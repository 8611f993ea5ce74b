"""A ratchet on ``mypy --strict builder``: the count of its errors may go down, never up.

Run: python benchmarks/mypy_strict.py [--record]

The project's gate is ``mypy`` with the settings of ``pyproject.toml`` (0 errors). This runs the
same check with ``--strict`` on top and compares its count of errors with the number recorded in
``benchmarks/mypy_strict_count.txt``:
  higher    exit 1, naming both numbers (annotate what you added, or fix what you broke);
  equal     exit 0;
  lower     exit 0, and says to record the new number (``--record`` writes it).
``.ci/run`` runs it after the gates. It takes about as long as a cold ``mypy`` (a minute or two).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "benchmarks" / "mypy_strict_count.txt"
FOUND = re.compile(r"^Found (\d+) errors? in \d+ files?", re.M)


def strict_errors() -> int:
    """The number of errors ``mypy --strict builder`` reports (0 when it reports success)."""
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "builder"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return errors_in(run.stdout, run.returncode)


def errors_in(output: str, returncode: int) -> int:
    """The count of errors in mypy's output; a run that ended without its summary line is an error."""
    if returncode == 0 and "Success: no issues found" in output:
        return 0
    m = FOUND.search(output)
    if m is None:
        raise SystemExit(f"mypy --strict ended without a count of errors (exit {returncode}):\n{output[-2000:]}")
    return int(m.group(1))


def recorded() -> int:
    return int(RECORD.read_text(encoding="utf-8").split()[0])


def verdict(now: int, before: int) -> tuple[int, str]:
    """(exit code, message) of a count compared with the recorded one."""
    if now > before:
        return 1, (
            f"mypy --strict: {now} errors, more than the {before} recorded in {RECORD.name}; "
            "annotate the functions you added or changed (mypy --strict builder lists them)"
        )
    if now < before:
        return 0, (
            f"mypy --strict: {now} errors, fewer than the {before} recorded; "
            "record the new number: python benchmarks/mypy_strict.py --record"
        )
    return 0, f"mypy --strict: {now} errors, as recorded"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", action="store_true", help="write the count of this run as the recorded number")
    args = ap.parse_args(argv)
    now = strict_errors()
    if args.record:
        tmp = RECORD.with_suffix(".tmp")
        tmp.write_text(f"{now}\n", encoding="utf-8")
        tmp.replace(RECORD)  # atomic: a reader sees the old number or the new one
        print(f"mypy --strict: {now} errors, recorded in {RECORD.name}")
        return 0
    code, message = verdict(now, recorded())
    print(message)
    return code


if __name__ == "__main__":
    sys.exit(main())
