"""PDF size with the CJK fallback font: Latin prints unchanged, kanji cost one small subset.

    .venv/bin/python benchmarks/bench_cjk_fonts.py

Prints the size of each example list's PDF, then of the example Senshiai deck with one pack
card renamed in kanji (侍の衛兵), and the time to load IPAex Gothic the first time.

Measured (reportlab 5.1, 2 cores): the PDFs of the five Latin example lists are the same
bytes as before the fallback font existed (compared with ``cmp`` against the previous commit:
kensei-buke 67,195 B, senji-three-daimyo 73,549 B, senshiai-northern-host 99,860 B,
herocard-samurai 84,024 B, satsuma-imperial 122,094 B); the kanji deck is 114,087 B, 14,227 B
more than its Latin twin for a four-glyph IPAex subset (the whole font is 6,041,284 B); the
font loads in about 0.07 s, once per process, only when a character needs it.
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from contextlib import redirect_stderr
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KANJI = "\u4f8d\u306e\u885b\u5175"


def main() -> None:
    from builder.kit import fonts
    from builder.render import api

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for ex in (
            "kensei-buke",
            "senji-three-daimyo",
            "senshiai-northern-host",
            "herocard-samurai",
            "satsuma-imperial",
        ):
            with redirect_stderr(io.StringIO()):
                out = api.render_list(ROOT / "examples" / f"{ex}.yaml", folder / f"{ex}.pdf")
            print(f"{ex:28s} {out.stat().st_size:>9,} B  CJK font embedded: {b'IPAex' in out.read_bytes()}")
        (folder / "packs").mkdir()
        pack = (ROOT / "examples" / "packs" / "senshiai-example.yaml").read_text(encoding="utf-8")
        (folder / "packs" / "senshiai-example.yaml").write_text(
            pack.replace("name: Samurai Guard", f"name: {KANJI}"), encoding="utf-8"
        )
        deck = (ROOT / "examples" / "senshiai-northern-host.yaml").read_text(encoding="utf-8")
        (folder / "deck.yaml").write_text(deck.replace("Samurai Guard: 2", f"{KANJI}: 2"), encoding="utf-8")
        t = time.perf_counter()
        fonts.cjk_font()
        load = time.perf_counter() - t
        with redirect_stderr(io.StringIO()):
            out = api.render_list(folder / "deck.yaml", folder / "kanji.pdf")
        latin = (folder / "senshiai-northern-host.pdf").stat().st_size
        print(f"{'kanji deck':28s} {out.stat().st_size:>9,} B  (+{out.stat().st_size - latin:,} B)")
        print(f"IPAex Gothic load: {load:.3f} s")


if __name__ == "__main__":
    main()
