"""With a viewer configured, the printed roster, setup sheet and deck carry the list's link in
their QR code (the same page ``export --to link`` opens), decoding from a 150 dpi rendering of
the PDF; without one, the share code."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from builder.render import api
from builder.share.api import packs_by_name
from builder.share.code import decode
from builder.share.link import code_in

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
BASE = "https://lists.example.org"

pytestmark = [
    pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) is not installed"),
    pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed"),
]


def scanned(pdf: Path, tmp_path: Path, page: int, corner: bool = True) -> list[str]:
    """What the QR codes on page ``page`` (-1: the last) of ``pdf`` read at 150 dpi (``corner``:
    in its bottom right quarter, where a footer's QR code is)."""
    if page < 0:
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        page = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    png = tmp_path / "p"
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(png)],
        check=True,
    )
    if corner:
        from PIL import Image

        with Image.open(f"{png}.png") as im:
            w, h = im.size
            im.crop((w // 2, h * 3 // 4, w, h)).save(f"{png}.png")  # the camera's view of the corner
    r = subprocess.run(["zbarimg", "-q", "--raw", f"{png}.png"], capture_output=True, text=True)
    return r.stdout.split()


@pytest.mark.parametrize(
    "example, page",
    [
        ("kensei-buke", 1),  # the roster
        pytest.param("senji-three-daimyo", 1, marks=pytest.mark.slow),  # the setup sheet
        pytest.param("satsuma-imperial", -1, marks=pytest.mark.slow),  # a deck: its list page
    ],
)
def test_the_printed_qr_opens_the_same_page_as_export_to_link(cli, tmp_path, monkeypatch, example, page):
    monkeypatch.setenv("DAIMYO_PACKS", str(EXAMPLES / "packs"))
    monkeypatch.setenv("DAIMYO_VIEWER", BASE)
    lst = EXAMPLES / f"{example}.yaml"
    link = cli("export", lst, "--to", "link").stdout.strip()
    assert link.startswith(f"{BASE}/v/DMY1-")
    out = api.render_list(lst, tmp_path / "r.pdf")
    found = scanned(out, tmp_path, page, corner=page == 1)
    assert len(found) == 1 and found[0].startswith(f"{BASE}/v/DMY1-")
    if "packs" not in lst.read_text():
        assert found == [link]  # the very page export --to link opens
    else:  # the export records the packs' versions for the receiver as well: the same list
        assert _same_list(code_in(found[0]), code_in(link))


def _same_list(a: str, b: str) -> bool:
    da, db = ({k: v for k, v in packs_by_name(decode(c)).items() if k != "checked_with"} for c in (a, b))
    return da == db


def test_without_a_viewer_the_printed_qr_is_the_share_code(cli, tmp_path, monkeypatch):
    monkeypatch.delenv("DAIMYO_VIEWER", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    lst = EXAMPLES / "kensei-buke.yaml"
    code = cli("export", lst, "--to", "code").stdout.strip()
    assert scanned(api.render_list(lst, tmp_path / "r.pdf"), tmp_path, 1) == [code]
