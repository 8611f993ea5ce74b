"""``daimyo pack import`` of a 2,000-row CSV: how often the data is parsed, and the CPU time.

Makes a 2,000-row Senshiai sheet (the bundled example cards repeated under new names), warms
the catalog cache, then imports the sheet three times in-process and prints:

* the CPU time of one import (best of three, ``time.process_time``: the machine may be shared);
* how many times YAML was parsed during one import, and how many characters that was (the
  catalog is warm, so every parse is of the pack being made);
* how many times the CSV file was read;
* the load average (``os.getloadavg``) before and after, to judge the figures.

Goal: the sheet is read once and the pack it makes is checked without being parsed back
(0 YAML parses); the whole import well under 5 s of CPU.

Then the pack editor's "Add its rows" (``builder.packs.editor.import_into``, what the web
builder runs on an uploaded sheet) of 150 and 600 short rows (2.7 KB for 150, as a player's
sheet of names, types and costs) into a new pack: the CPU time of each, how many times the pack
was written and parsed, and the ratio of the two times (linear: about 4).
Run: ``.venv/bin/python benchmarks/bench_pack_import.py`` (about 20 s).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROWS = 2000


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="daimyo-bench-import-"))
    os.environ["DAIMYO_PACKS"] = str(tmp / "user")
    os.environ["DAIMYO_CACHE_DIR"] = str(tmp / "cache")
    load_before = os.getloadavg()

    from builder import yamlio
    from builder.catalog.loader import load_catalog
    from builder.catalog.packid import read_pack
    from builder.packs.sheet import export_csv, import_sheet

    data, _ = read_pack(ROOT / "examples" / "packs" / "senshiai-example.yaml")
    cards = data["cards"]
    big = dict(data)
    big["cards"] = [dict(cards[i % len(cards)], name=f"Card {i}") for i in range(ROWS)]
    for c in big["cards"]:
        c.setdefault("assumed", "bench")
    sheet = tmp / "big.csv"
    sheet.write_text(export_csv(big), encoding="utf-8")
    load_catalog("senshiai")  # the catalog from the cache, as on any second run

    parses: list[int] = []
    reads: list[str] = []
    real_parse, real_read = yamlio.parse_yaml, yamlio.read_text

    def counting_parse(text, *args, **kwargs):
        parses.append(len(text))
        return real_parse(text, *args, **kwargs)

    def counting_read(path, *args, **kwargs):
        reads.append(str(path))
        return real_read(path, *args, **kwargs)

    yamlio.parse_yaml, yamlio.read_text = counting_parse, counting_read
    try:
        times = []
        for _ in range(3):
            parses.clear()
            reads.clear()
            t = time.process_time()
            text, out = import_sheet(sheet, "senshiai")
            times.append(time.process_time() - t)
    finally:
        yamlio.parse_yaml, yamlio.read_text = real_parse, real_read
    assert len(out["cards"]) == ROWS and text.count("name: Card ") == ROWS
    sheet_reads = sum(1 for r in reads if r == str(sheet))
    print(
        f"pack import of a {ROWS:,}-row CSV ({sheet.stat().st_size / 1e6:.2f} MB): "
        f"{min(times):.2f} s CPU (best of 3; runs {', '.join(f'{t:.2f}' for t in times)})"
    )
    print(f"  YAML parses during one import: {len(parses)} ({sum(parses) / 1e6:.2f} M characters)")
    print(f"  reads of the CSV file: {sheet_reads}")
    editor_rows(tmp)
    print(f"  load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f} (2 cores)")


def editor_rows(tmp: Path) -> None:
    """The pack editor's upload of a short sheet, 150 and 600 rows, into a new pack."""
    from builder import yamlio
    from builder.kit import edit
    from builder.packs.editor import import_into, new_pack

    kinds = [("troop", "II", "Earth"), ("terrain", "I", "Water"), ("event", "N", "Air")]
    cpu = {}
    for rows in (150, 600):
        sheet = tmp / f"short-{rows}.csv"
        lines = ["section,name,type,cost,paths"]
        lines += [f"cards,Card {i},{kinds[i % 3][0]},{kinds[i % 3][1]},{kinds[i % 3][2]}" for i in range(rows)]
        sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
        pack = tmp / f"club-{rows}.yaml"
        new_pack(pack, "senshiai", "Club")
        writes, parses = [], []
        real_write, real_rt = yamlio.atomic_write, edit.roundtrip_yaml

        def counting_write(path, *args, _w=writes, _real=real_write, **kwargs):
            _w.append(str(path))
            return _real(path, *args, **kwargs)

        def counting_rt(*args, _p=parses, _real=real_rt, **kwargs):
            _p.append(1)
            return _real(*args, **kwargs)

        yamlio.atomic_write, edit.roundtrip_yaml = counting_write, counting_rt
        try:
            t = time.process_time()
            _, n = import_into(pack, sheet, None)
            cpu[rows] = time.process_time() - t
        finally:
            yamlio.atomic_write, edit.roundtrip_yaml = real_write, real_rt
        assert n == rows
        print(
            f"pack editor, rows of a {rows}-row sheet ({sheet.stat().st_size / 1e3:.1f} KB) added to a pack: "
            f"{cpu[rows]:.2f} s CPU; pack written {sum(1 for w in writes if w == str(pack))} time(s), "
            f"parsed round-trip {len(parses)} time(s)"
        )
    print(f"  600 rows / 150 rows: {cpu[600] / cpu[150]:.1f} times the CPU (linear: 4)")


if __name__ == "__main__":
    main()
