"""Printed documents: time and size of a 600 AP Kensei roster with unit cards, and of the
five player aids.

    .venv/bin/python benchmarks/bench_documents.py

Case 1 (``bench_roster_600``): a 600 AP Buke army (3 leaders, 6 units, profiles with
abilities from a pack) printed with ``unit_cards=True``: list loading, check, roster,
limits table, glossary, unit cards, PDF write. Goal: under 1 s.
Case 2 (``bench_aids``): every player aid once. Goal: under 1 s each.
Best of 3 runs each; the catalog cache is warmed first.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PACK = """\
system: kensei
pack: bench
example: true
troops:
  - {name: Taisho Buke, clans: [buke], cost: 20, troop_class: H, leader: true, general: true, unique: true, single: true, troop_type: infantry, titles: [Samurai], weapons: [Katana], living: true, abilities: [Leader, Strategist], profile: {mov: 10, at: 4, ini: 3, ho: 5, wo: 3}, assumed: benchmark}
  - {name: Hero Buke Yumi, clans: [buke], cost: 25, troop_class: H, leader: true, general: false, unique: true, single: true, troop_type: infantry, titles: [Samurai], weapons: [Yumi], living: true, abilities: [Hawk eye], assumed: benchmark}
  - {name: Buke Captain, clans: [buke], cost: 15, troop_class: E, leader: true, general: false, unique: true, single: true, troop_type: infantry, titles: [Samurai], weapons: [Katana], living: true, abilities: [Veteran], assumed: benchmark}
  - {name: Samurai Yari, clans: [buke], cost: 5, troop_class: W, leader: false, troop_type: infantry, titles: [Samurai], weapons: [Yari], living: true, abilities: [Trained], assumed: benchmark}
  - {name: Samurai Dai-Katana, clans: [buke], cost: 10, troop_class: W, leader: false, troop_type: infantry, titles: [Samurai], weapons: [Dai katana], living: true, abilities: [Kenjutsu], assumed: benchmark}
  - {name: Yumi Samurai, clans: [buke], cost: 15, troop_class: W, leader: false, troop_type: infantry, titles: [Samurai], weapons: [Yumi], living: true, abilities: [Steady Shot], assumed: benchmark}
  - {name: Mounted Samurai, clans: [buke], cost: 20, troop_class: W, leader: false, troop_type: mounted, titles: [Samurai], weapons: [Katana], living: true, abilities: [Savage charge, Trained], assumed: benchmark}
  - {name: Yari Ashigaru, clans: [buke], cost: 5, troop_class: W, leader: false, troop_type: infantry, titles: [Ashigaru], weapons: [Yari], living: true, assumed: benchmark}
"""

LIST = """\
system: kensei
name: Buke pitched battle
clan: buke
points: 600
commander: daimyo
packs: [pack.yaml]
troops:
  - troop: Taisho Buke
  - troop: Hero Buke Yumi
  - troop: Buke Captain
  - {troop: Samurai Yari, models: 15}
  - {troop: Samurai Yari, models: 12}
  - {troop: Samurai Dai-Katana, models: 10}
  - {troop: Yumi Samurai, models: 8}
  - {troop: Mounted Samurai, models: 5}
  - {troop: Yari Ashigaru, models: 13}
"""


def write_list(folder: Path) -> Path:
    (folder / "pack.yaml").write_text(PACK, encoding="utf-8")
    p = folder / "army600.yaml"
    p.write_text(LIST, encoding="utf-8")
    return p


def best_of(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def bench_roster_600(folder: Path) -> tuple[float, int, int]:
    """Seconds (best of 3), bytes and pages of a 600 AP roster with unit cards."""
    from pypdf import PdfReader

    from builder.check import load_checked
    from builder.games.kensei.roster import render_roster

    lst = write_list(folder)
    out = folder / "roster600.pdf"

    def run():
        doc, catalog, parsed, result = load_checked(lst)
        render_roster(doc, catalog, parsed, result, out, force=True, unit_cards=True)

    run()  # warm the catalog cache
    t = best_of(run)
    return t, out.stat().st_size, len(PdfReader(str(out)).pages)


def bench_aids(folder: Path) -> dict[str, tuple[float, int]]:
    from builder import SYSTEMS
    from builder.render.aids import render_aid

    out = {}
    for system in SYSTEMS:
        path = folder / f"aid-{system}.pdf"
        render_aid(system, path, force=True)
        t = best_of(lambda system=system, path=path: render_aid(system, path, force=True))
        out[system] = (t, path.stat().st_size)
    return out


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="daimyo-bench-docs-"))
    try:
        t, size, pages = bench_roster_600(folder)
        print(f"600 AP roster with unit cards: {t * 1000:.0f} ms, {size / 1024:.0f} KiB, {pages} pages")
        for system, (ta, sa) in bench_aids(folder).items():
            print(f"player aid {system}: {ta * 1000:.0f} ms, {sa / 1024:.0f} KiB")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
