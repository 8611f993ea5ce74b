"""Speed of YAML reading and of building the five games' catalogs, in process CPU time.

Measures, in one process:

* ``parse_yaml`` over every ``*.yaml`` file of ``catalog/`` and ``examples/`` (one pass is
  one parse of each file; the median of ``--runs`` passes);
* ``build_catalog`` of each game from its catalog files, no pack: the first build in the
  process (files parsed) and the median of the builds after it (files unchanged on disk).

Run: ``.venv/bin/python benchmarks/bench_yaml.py [--runs N]``

Figures on the shared 2-core machine (load 5 to 8), three back-to-back pairs with ``--runs 9``,
before (ruamel.yaml set up on every call, the YAML version looked up for every value, the
catalog files parsed on every build) and after (one loader class, fixed YAML 1.2 rules, text
values without the constructor, the catalog files parsed once per process while unchanged):

* ``parse_yaml`` of the 45 files: 339 / 282 / 281 ms CPU per pass before, 158 / 93 / 95 after;
* ``parse_yaml`` of a 5-line list: 557 / 653 / 619 us CPU per call before, 100 / 143 / 118 after;
* ``build_catalog`` of the five games again (files unchanged): 492 / 290 / 316 ms CPU before,
  53 / 80 / 83 after (the first build in a process, with the imports: 1057 / 686 / 663 ms
  before, 383 / 497 / 647 after).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _cpu(run) -> float:
    t0 = time.process_time()
    run()
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()

    from builder.catalog.loader import build_catalog, catalog_files
    from builder.systems import ids
    from builder.yamlio import parse_yaml

    files = sorted((ROOT / "catalog").rglob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))
    texts = [(str(p), p.read_text(encoding="utf-8")) for p in files]
    size = sum(len(t) for _, t in texts)

    def parse_all():
        for name, text in texts:
            parse_yaml(text, name)

    parse_all()  # imports
    times = [_cpu(parse_all) for _ in range(args.runs)]
    print(
        f"parse_yaml, {len(texts)} files ({size:,} characters): median {statistics.median(times) * 1000:.0f} ms CPU "
        f"per pass (min {min(times) * 1000:.0f} ms, {args.runs} passes)"
    )
    small = "system: kensei\nname: A small list\ntroops:\n  - troop: Samurai Yari\n    models: 5\n"
    calls = 2000
    times = [_cpu(lambda: [parse_yaml(small, "small.yaml") for _ in range(calls)]) for _ in range(args.runs)]
    print(f"parse_yaml, a 5-line list: median {statistics.median(times) / calls * 1e6:.0f} us CPU per call")
    total_first = total_again = 0.0
    for system in ids():
        found = catalog_files(system)
        first = _cpu(lambda s=system, f=found: build_catalog(s, f))
        again = statistics.median(_cpu(lambda s=system, f=found: build_catalog(s, f)) for _ in range(args.runs))
        total_first += first
        total_again += again
        print(
            f"build_catalog {system:10} {len(found):2} files: first {first * 1000:5.0f} ms CPU, "
            f"again (median of {args.runs}) {again * 1000:5.0f} ms CPU"
        )
    print(f"build_catalog, five games: first {total_first * 1000:.0f} ms CPU, again {total_again * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
