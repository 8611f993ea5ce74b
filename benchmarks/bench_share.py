"""Share-code lengths and export/import speed on the bundled examples.

    .venv/bin/python benchmarks/bench_share.py

Prints, per example list: the share code length (whole code, prefix included),
the same list without its free text (name, author, notes: what a code costs for
the cards or troops alone), the text export length, and the mean time to encode
and decode a code.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from builder.share.api import export_doc, parse_source_text  # noqa: E402
from builder.share.code import decode, encode  # noqa: E402


def _time(fn, n=200) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n * 1000


def main() -> None:
    rows = []
    for path in sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "tests/data/share").glob("*.yaml")):
        doc = parse_source_text(path.read_text(encoding="utf-8"), str(path)).doc
        code = encode(doc)
        bare = {k: v for k, v in doc.items() if k not in ("name", "author", "notes")}
        bare_code = encode(bare)
        text = export_doc(doc, "text")
        enc_ms = _time(lambda doc=doc: encode(doc))
        dec_ms = _time(lambda code=code: decode(code))
        rows.append((doc["system"], path.name, len(code), len(bare_code), len(text), enc_ms, dec_ms))
    print(f"{'system':9} {'list':32} {'code':>5} {'bare':>5} {'text':>5} {'enc ms':>7} {'dec ms':>7}")
    for s, name, n, b, t, e, d in rows:
        print(f"{s:9} {name:32} {n:5d} {b:5d} {t:5d} {e:7.3f} {d:7.3f}")
    by_system: dict[str, list[int]] = {}
    for s, _, _n, b, *_ in rows:
        by_system.setdefault(s, []).append(b)
    print()
    print("median code length without free text, per system:")
    for s, ns in sorted(by_system.items()):
        print(f"  {s:9} {int(statistics.median(ns)):4d} characters ({len(ns)} lists)")


if __name__ == "__main__":
    main()
