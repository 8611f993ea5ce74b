"""Speed of the print page's previews: one page of a printed PDF as the PNG the web builder sends.

Measures, in one process, in CPU time: ``preview_png`` of the first page of the printed example
deck (cards) and of the Kensei roster, and apart from it the drawing alone (pypdfium2, 80 dpi)
and the PNG encoding alone at the settings compared, with the bytes each gives. The median of
``--runs`` calls.

Run: ``.venv/bin/python benchmarks/bench_preview.py [--runs N]``

Figures on the shared 2-core machine (load 2), ``--runs 9``, before (the PNG optimized) and
after (zlib level 3), two runs after:

* ``preview_png``, the deck's first page: 125 ms CPU before, 25-36 ms after (122 KB before,
  124 KB after); the roster's: 155 ms before, 34-40 ms after (171 KB before, 136 KB after);
* of which the drawing: 5-6 ms; the encoding: optimized 112-122 ms, zlib level 6 (Pillow's
  default) 25-31 ms, level 3 16-20 ms, level 1 15-18 ms.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SETTINGS = {
    "optimized": {"optimize": True},
    "zlib 6 (Pillow's default)": {},
    "zlib 3": {"compress_level": 3},
    "zlib 1": {"compress_level": 1},
}


def _median_cpu(run, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        run()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()

    import pypdfium2 as pdfium

    from builder.api import render_pdf
    from builder.web.printing import preview_png

    with tempfile.TemporaryDirectory() as tmp:
        for name, example in (("deck", "senshiai-northern-host.yaml"), ("roster", "kensei-buke.yaml")):
            out = Path(tmp) / f"{name}.pdf"
            render_pdf(ROOT / "examples" / example, out)
            pdf = out.read_bytes()
            png = preview_png(pdf, 1)
            t = _median_cpu(lambda pdf=pdf: preview_png(pdf, 1), args.runs)
            print(f"preview_png, the {name}'s first page: {t * 1000:.0f} ms CPU, {len(png) // 1024} KB")

            doc = pdfium.PdfDocument(pdf)
            img = doc[0].render(scale=80 / 72).to_pil()
            draw = _median_cpu(lambda doc=doc: doc[0].render(scale=80 / 72).to_pil(), args.runs)
            print(f"  the drawing alone: {draw * 1000:.0f} ms CPU ({img.size[0]}x{img.size[1]} px)")
            for label, kwargs in SETTINGS.items():
                buf = io.BytesIO()
                img.save(buf, "PNG", **kwargs)

                def encode(img=img, kwargs=kwargs) -> None:
                    img.save(io.BytesIO(), "PNG", **kwargs)

                t = _median_cpu(encode, args.runs)
                print(f"  PNG {label}: {t * 1000:.0f} ms CPU, {len(buf.getvalue()) // 1024} KB")
            doc.close()


if __name__ == "__main__":
    main()
