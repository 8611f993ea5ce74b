"""A big pack: the time and peak memory of ``daimyo pack install`` and of the first ``daimyo
check`` of a list that uses it, each in a fresh process with an empty cache.

Makes Senshiai packs of four-line event cards (name, type, text, assumed), installs each with
``python -m builder pack install FILE`` and checks a one-card deck that names it, and prints,
for each: the pack's entries and size, the exit code and first line of the answer, the wall time
and the peak resident memory of the process (``os.wait4``), and the load average before and
after, to judge the figures on a shared machine.

The packs: one at ``MAX_PACK_ENTRIES`` (accepted: the most a pack may cost), and one of
150,000 cards (12.3 MB, inside the 16 MiB file limit) that is refused before it is read, by
install and by the check (there it is copied into the packs folder by hand).
Run: ``.venv/bin/python benchmarks/bench_big_pack.py [ENTRIES...] [--root CHECKOUT]`` (about
20 s; ``--root`` runs another checkout of daimyo, e.g. an older one, for figures before).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIG = 150_000


def pack_text(n: int) -> str:
    head = 'system: senshiai\nname: Big pack\nversion: "1"\ncards:\n'
    card = "  - name: Card {:06d}\n    type: event\n    text: Draw a card.\n    assumed: made up\n"
    return head + "".join(card.format(i) for i in range(n))


def run(args: list[str], env: dict, cwd: Path) -> tuple[int, str, float, float]:
    """(exit code, first line of the output, wall seconds, peak RSS in MB) of one process."""
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "builder", *args], env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    out = proc.stdout.read() if proc.stdout else b""
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    first = out.decode("utf-8", "replace").strip().splitlines()[:1]
    return os.waitstatus_to_exitcode(status), (first[0] if first else "")[:110], wall, usage.ru_maxrss / 1024


def main() -> None:
    args = sys.argv[1:]
    root = ROOT
    if "--root" in args:
        i = args.index("--root")
        root = Path(args[i + 1]).resolve()
        del args[i : i + 2]
    sys.path.insert(0, str(ROOT))
    try:
        from builder.limits import MAX_PACK_ENTRIES

        sizes = [int(a) for a in args] or [MAX_PACK_ENTRIES, BIG]
    except ImportError:  # pragma: no cover
        sizes = [int(a) for a in args] or [BIG]
    print(f"daimyo at {root}; load average before: {os.getloadavg()[0]:.2f}")
    for n in sizes:
        tmp = Path(tempfile.mkdtemp(prefix="daimyo-bench-bigpack-"))
        env = {
            **os.environ,
            "PYTHONPATH": str(root),
            "DAIMYO_PACKS": str(tmp / "packs"),
            "DAIMYO_CACHE_DIR": str(tmp / "cache"),
        }
        pack = tmp / "big.yaml"
        pack.write_text(pack_text(n), encoding="utf-8")
        (tmp / "deck.yaml").write_text("system: senshiai\npacks: [Big pack]\ncards: {Card 000001: 1}\n")
        size = pack.stat().st_size / 1e6
        for what, cmd in (("install", ["pack", "install", str(pack)]), ("first check", ["check", "deck.yaml"])):
            if what == "first check" and not (tmp / "packs" / "big-pack.yaml").is_file():
                (tmp / "packs").mkdir(exist_ok=True)  # refused by install: copied in by hand
                (tmp / "packs" / "big-pack.yaml").write_bytes(pack.read_bytes())
            code, first, wall, rss = run(cmd, env, tmp)
            print(f"{n:>8,} entries {size:5.1f} MB  {what:<11}  {wall:6.1f} s  {rss:7.0f} MB  exit {code}: {first}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
