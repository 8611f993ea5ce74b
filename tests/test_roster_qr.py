"""The roster's QR code has the standard 4-module quiet zone and decodes from a 150 dpi scan."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from builder.kit.pdfbase import QR_BORDER, qr_matrix, qr_size
from builder.lists.document import load_list
from builder.render import api
from builder.share.code import share_code_of

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_quiet_zone_is_four_modules_and_the_code_is_sized_for_it():
    code = share_code_of(load_list(EXAMPLES / "kensei-buke.yaml"))
    n = len(qr_matrix(code))
    assert QR_BORDER == 4
    assert qr_size(code, 0.4) == pytest.approx((n + 8) * 0.4)


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) is not installed")
@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("example", ["kensei-buke", pytest.param("kensei-kuge", marks=pytest.mark.slow)])  # processes
def test_roster_qr_decodes_at_150_dpi_with_zbar(tmp_path, example):
    from PIL import Image

    lst = EXAMPLES / f"{example}.yaml"
    out = api.render_list(lst, tmp_path / "r.pdf")
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile", str(out), str(tmp_path / "p")],
        check=True,
    )
    with Image.open(tmp_path / "p.png") as im:
        w, h = im.size
        im.crop((w // 2, h * 3 // 4, w, h)).save(tmp_path / "corner.png")  # the camera's view of the corner
    r = subprocess.run(["zbarimg", "-q", "--raw", str(tmp_path / "corner.png")], capture_output=True, text=True)
    assert r.stdout.strip() == share_code_of(load_list(lst))
