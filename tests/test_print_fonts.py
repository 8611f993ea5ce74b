"""Printed PDFs embed every font they name and print no folder of the computer they were made on."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

EX = Path(__file__).resolve().parent.parent / "examples"


def _fonts(path: Path) -> list[tuple[str, bool]]:
    """(font name, embedded) for every font of the PDF, as poppler's pdffonts reads them."""
    if not shutil.which("pdffonts"):
        pytest.skip("pdffonts (poppler-utils) is not installed")
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    rows = out.splitlines()[2:]
    found = []
    for row in rows:
        parts = row.split()
        # name type... encoding emb sub uni object ID: emb is the fifth field from the end
        found.append((parts[0], parts[-5] == "yes"))
    return found


def _text(path: Path) -> str:
    import pdfplumber
    from pdfcheck import text_pages

    with pdfplumber.open(path) as pdf:
        return "\n".join(p.extract_text() or "" for p in text_pages(pdf))


@pytest.fixture()
def deep_copy(tmp_path):
    """An example list in a folder whose name must not reach the printout."""
    folder = tmp_path / "private-folder-name" / "lists"
    folder.mkdir(parents=True)

    def copy(name: str) -> Path:
        dst = folder / name
        shutil.copyfile(EX / name, dst)
        return dst

    return copy


@pytest.mark.parametrize("example", ["senshiai-northern-host.yaml", "kensei-buke.yaml", "satsuma-imperial.yaml"])
def test_stats_pdf_embeds_its_fonts_and_names_no_folder(cli, tmp_path, deep_copy, example):
    src = deep_copy(example)
    out = tmp_path / "stats.pdf"
    r = cli("stats", src, "-o", out)
    assert r.code == 0, r
    fonts = _fonts(out)
    assert fonts, "the PDF names no font"
    assert [n for n, emb in fonts if not emb] == []
    assert not any("Helvetica" in n for n, _ in fonts)
    text = _text(out)
    assert "private-folder-name" not in text and str(tmp_path) not in text
    assert example in text  # the file is still named, without its folder


def test_print_with_stats_embeds_its_fonts_and_names_no_folder(cli, tmp_path, deep_copy):
    src = deep_copy("herocard-samurai.yaml")
    out = tmp_path / "cards.pdf"
    r = cli("print", src, "-o", out, "--stats")
    assert r.code == 0, r
    assert [n for n, emb in _fonts(out) if not emb] == []
    assert "private-folder-name" not in _text(out)
