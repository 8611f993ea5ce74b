"""Speed of "did you mean ...?" for very many distinct unknown names.

Generates a Senshiai deck of N lines (100,000 by default), each a distinct card name that
is not in the catalog (words of real card names, so many are close to a real one), then
measures in CPU time:

* reading the deck, and checking it (every unknown name gets its suggestion once);
* the suggestions alone through the catalog (``Catalog.did_you_mean``) for the same number
  of distinct names, for Senshiai cards, Kensei troops and HeroCard heroes.

Goal: the suggestions cost no more than reading the deck.
Run: ``.venv/bin/python benchmarks/bench_unknown_names.py [N]``
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PACKS = {
    "senshiai": [ROOT / "examples/packs/senshiai-example.yaml"],
    "herocard": [ROOT / "examples/packs/herocard-example.yaml"],
}
SECTION = {"senshiai": "cards", "kensei": "troops", "herocard": "heroes"}


def names_like(real: list[str], n: int, seed: int = 3) -> list[str]:
    rnd = random.Random(seed)
    words = sorted({w for r in real for w in r.split()})
    return [" ".join(rnd.choice(words) for _ in range(rnd.randint(1, 3))) + f" {i}" for i in range(n)]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    from builder.catalog.loader import load_catalog
    from builder.check import check_doc
    from builder.lists.document import load_list

    print(f"load average {os.getloadavg()[0]:.2f}")
    cat = load_catalog("senshiai", packs=PACKS["senshiai"])
    unknown = names_like(cat.names("cards"), n)
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "deck.yaml"
        f.write_text(
            f"system: senshiai\nname: many\npacks: [{PACKS['senshiai'][0]}]\nsize: 50\ncards:\n"
            + "".join(f"  {u}: 1\n" for u in unknown),
            encoding="utf-8",
        )
        t0 = time.process_time()
        doc = load_list(f)
        t1 = time.process_time()
        result = check_doc(doc)
        t2 = time.process_time()
    hinted = sum("did you mean" in x.message for x in result.findings)
    print(
        f"Senshiai deck of {n:,} distinct unknown names: read {t1 - t0:.2f} s CPU, "
        f"check {t2 - t1:.2f} s CPU ({hinted:,} with a suggestion)"
    )
    for system, section in SECTION.items():
        cat = load_catalog(system, packs=PACKS.get(system, []))
        names = names_like(cat.names(section), n, seed=4)
        t0 = time.process_time()
        hinted = sum(bool(cat.did_you_mean(section, u)) for u in names)
        dt = time.process_time() - t0
        print(
            f"{system} {section}: {n:,} suggestions in {dt:.2f} s CPU "
            f"({dt / n * 1e6:.0f} us each; {hinted:,} with a suggestion)"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
