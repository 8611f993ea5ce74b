"""Documents numbered "page N of M" hold their pages until the total is known; held pages
are kept compressed. The printed pages are exactly those of holding every page as drawn."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from conftest import ROOT

EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))


def _plain_canvas():
    """Every page held as drawn (its canvas state with all its drawing operators)."""
    from reportlab.pdfgen.canvas import Canvas

    from builder.kit import fonts
    from builder.kit.pdfbase import page_label

    class Plain(Canvas):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._held_pages = []
            self.page_number_at = None

        def showPage(self):
            self._held_pages.append(dict(self.__dict__))
            self._startPage()
            self.page_number_at = None

        def save(self):
            total = len(self._held_pages)
            for n, state in enumerate(self._held_pages, 1):
                self.__dict__.update(state)
                if self.page_number_at:
                    x, y, size = self.page_number_at
                    self.saveState()
                    self.setFillColorRGB(0.15, 0.15, 0.15)
                    self.setFont(fonts.REGULAR, size)
                    self.drawRightString(x, y, page_label(n, total))
                    self.restoreState()
                Canvas.showPage(self)
            Canvas.save(self)

    return Plain


def _long_kensei(folder: Path, n: int) -> Path:
    troops = ["Taisho Buke", "Samurai Yari", "Yari Ashigaru", "Samurai Dai-Katana", "Yumi Samurai"]
    body = "".join(f"  - troop: {troops[i % 5]}\n    models: {i % 5 + 1}\n" for i in range(n))
    p = folder / "long.yaml"
    p.write_text(
        "system: kensei\nname: Long\nclan: buke\npoints: 200\ncommander: hatamoto\ntroops:\n" + body, encoding="utf-8"
    )
    return p


def _print_both(src: Path, tmp_path: Path, monkeypatch, **options) -> tuple[bytes, bytes, Path]:
    import builder.kit.pdfbase as pdfbase
    from builder.render.api import render_list

    new = render_list(src, tmp_path / "held.pdf", force=True, **options)
    monkeypatch.setattr(pdfbase, "_NUMBERED", _plain_canvas())
    old = render_list(src, tmp_path / "plain.pdf", force=True, **options)
    monkeypatch.undo()
    return new.read_bytes(), old.read_bytes(), new


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_prints_the_same_pages(name, tmp_path, monkeypatch):
    src = tmp_path / name
    src.write_text((ROOT / "examples" / name).read_text(encoding="utf-8"), encoding="utf-8")
    import shutil

    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    new, old, path = _print_both(src, tmp_path, monkeypatch)
    assert new == old
    pages = pypdf.PdfReader(str(path)).pages
    assert len(pages) >= 1


@pytest.mark.slow  # a long roster printed and every page read back
def test_long_roster_prints_the_same_pages_numbered_of_the_total(tmp_path, monkeypatch):
    new, old, path = _print_both(_long_kensei(tmp_path, 400), tmp_path, monkeypatch)
    assert new == old
    pages = pypdf.PdfReader(str(path)).pages
    total = len(pages)
    assert total >= 10
    for n, page in enumerate(pages, 1):
        assert f"page {n} of {total}" in (page.extract_text() or "")
