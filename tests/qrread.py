"""Reads QR codes back from PDF pages (poppler's pdftoppm renders, zxing-cpp decodes)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def page_codes(pdf: Path, page: int, dpi: int = 200) -> list[str]:
    """The texts of every QR code found on ``page`` (1-based) of ``pdf``."""
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    stem = pdf.with_name(f"{pdf.stem}-qr{page}")
    subprocess.run(
        ["pdftoppm", "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(stem)],
        check=True,
    )
    # a grey-scale bitmap as it is (PGM): compressing it to a PNG took longer than drawing it
    pgm = stem.with_suffix(".pgm")
    with Image.open(pgm) as im:
        return [r.text for r in zxingcpp.read_barcodes(im.convert("L")) if r.format == zxingcpp.BarcodeFormat.QRCode]
