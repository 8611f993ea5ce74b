"""Speed of packs: finding a pack by name, and spreadsheets in and out.

Measures, in-process (best of three; the machine may be shared):

* ``resolve_pack`` of a pack name with 200 packs in the user packs folder (every list
  naming a pack pays this once per load);
* checking 200 Senshiai decks that name their pack by name (``packs: [NAME]``) against
  the same decks naming it by path, to show what lookup by name costs per list;
* ``pack import`` of a 2,000-row CSV (read, convert, validate with the catalog, write
  YAML) and ``pack export`` of the resulting pack to CSV and XLSX.

Goals: a name lookup well under 1 ms warm; by-name checks within 10% of by-path
checks; a 2,000-row sheet imported in under 5 s.
Run: ``.venv/bin/python benchmarks/bench_packs.py``
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def best(fn, n=3):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="daimyo-bench-packs-"))
    user = tmp / "user"
    user.mkdir()
    os.environ["DAIMYO_PACKS"] = str(user)
    os.environ["DAIMYO_CACHE_DIR"] = str(tmp / "cache")
    example = (ROOT / "examples" / "packs" / "senshiai-example.yaml").read_text()
    for i in range(200):
        (user / f"pack{i:03d}.yaml").write_text(f"system: senshiai\nname: Pack {i}\ncards: []\n")
    (user / "mine.yaml").write_text(example.replace("name: Senshiai example cards", "name: Mine"))
    from builder.catalog.packfiles import resolve_pack

    resolve_pack("Mine")
    t = best(lambda: [resolve_pack("Mine") for _ in range(100)]) / 100
    print(f"resolve_pack by declared name, 201 packs in the folder: {t * 1000:.2f} ms")

    deck = (ROOT / "examples" / "senshiai-northern-host.yaml").read_text()
    by_name, by_path = tmp / "by-name", tmp / "by-path"
    by_name.mkdir()
    by_path.mkdir()
    for i in range(200):
        (by_name / f"d{i}.yaml").write_text(deck.replace("packs/senshiai-example.yaml", "Mine"))
        (by_path / f"d{i}.yaml").write_text(deck.replace("packs/senshiai-example.yaml", str(user / "mine.yaml")))
    from builder.check import check_file

    for f in by_path.glob("*.yaml"):
        check_file(f)
    tn = best(lambda: [check_file(f) for f in by_name.glob("*.yaml")])
    tp = best(lambda: [check_file(f) for f in by_path.glob("*.yaml")])
    print(f"200 decks checked: packs by name {tn:.3f} s ({200 / tn:.0f}/s), by path {tp:.3f} s ({200 / tp:.0f}/s)")

    from builder.catalog.packid import read_pack
    from builder.packs.sheet import export_csv, export_xlsx, import_sheet

    data, _ = read_pack(user / "mine.yaml")
    cards = data["cards"]
    big = dict(data)
    big["cards"] = [dict(cards[i % len(cards)], name=f"Card {i}") for i in range(2000)]
    for c in big["cards"]:
        c.setdefault("assumed", "bench")
    sheet = tmp / "big.csv"
    sheet.write_text(export_csv(big))
    t = best(lambda: import_sheet(sheet, "senshiai"), n=1)
    print(f"pack import of a 2,000-row CSV: {t:.2f} s")
    t = best(lambda: export_csv(big))
    print(f"pack export of 2,000 entries to CSV: {t * 1000:.0f} ms")
    t = best(lambda: export_xlsx(big), n=1)
    print(f"pack export of 2,000 entries to XLSX: {t:.2f} s")


if __name__ == "__main__":
    main()
