"""reportlab's private internals are used in one module only, and are still there."""

import ast
import io
from pathlib import Path

import pytest

from builder.kit import rladapter

RENDER = Path(__file__).resolve().parent.parent / "builder" / "render"

# attributes of reportlab objects that are private to reportlab (our own attributes on our own
# subclasses, such as page_number_at, are not listed)
PRIVATE = {
    "_code",
    "_doc",
    "_startPage",
    "_formsinuse",
    "_setXObjects",
    "_currentPageHasImages",
    "_content",
    "_frame",
    "_y",
    "_y1p",
    "_pagesize",
}


def test_only_the_adapter_touches_reportlab_internals():
    for path in RENDER.rglob("*.py"):
        if path.name == "rladapter.py":
            continue
        tree = ast.parse(path.read_text())
        used = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} & PRIVATE
        assert not used, f"{path.relative_to(RENDER)} uses reportlab internals {used}: go through rladapter"
        dunder = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "__dict__"]
        assert not dunder, f"{path.relative_to(RENDER)} copies an object's __dict__"


def test_the_installed_reportlab_has_what_the_adapter_uses():
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus import Frame

    c = Canvas(io.BytesIO())
    for name in rladapter.CANVAS_ATTRIBUTES:
        assert hasattr(c, name), f"reportlab Canvas has no {name}: check builder/kit/rladapter.py"
    for name in rladapter.DOC_ATTRIBUTES:
        assert hasattr(c._doc, name), f"reportlab PDFDocument has no {name}"
    f = Frame(0, 0, 100, 100)
    for name in rladapter.FRAME_ATTRIBUTES:
        assert hasattr(f, name), f"reportlab Frame has no {name}"
    assert rladapter.frame_room(f) == pytest.approx(100 - 12)  # less the default 6 pt paddings


def test_held_pages_are_stamped_with_their_number_and_total():
    from pypdf import PdfReader

    seen = []

    def stamp(c, n, total):
        seen.append((n, total))
        c.drawString(10, 10, f"page {n} of {total}")

    cls = rladapter.held_pages_canvas_class(stamp)
    buf = io.BytesIO()
    c = cls(buf, invariant=1)
    for i in range(3):
        c.drawString(50, 50, f"body {i + 1}")
        c.showPage()
    c.save()
    assert seen == [(1, 3), (2, 3), (3, 3)]
    pages = PdfReader(io.BytesIO(buf.getvalue())).pages
    assert [
        f"body {i + 1}" in p.extract_text() and f"page {i + 1} of 3" in p.extract_text() for i, p in enumerate(pages)
    ] == [True] * 3


def test_run_before_save_draws_once_before_the_file_is_written():
    from pypdf import PdfReader
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, invariant=1)
    calls = []

    def extra():
        calls.append(1)
        c.drawString(50, 50, "appendix")
        c.showPage()

    rladapter.run_before_save(c, extra)
    c.drawString(50, 50, "first")
    c.showPage()
    c.save()
    assert calls == [1]
    assert [p.extract_text().strip() for p in PdfReader(io.BytesIO(buf.getvalue())).pages] == ["first", "appendix"]


def test_a_jpeg_is_embedded_as_it_is_and_other_bytes_are_refused(monkeypatch):
    from PIL import Image
    from reportlab import rl_config

    monkeypatch.setattr(rl_config, "useA85", 0)  # as pdfbase sets it: binary streams
    from reportlab.pdfgen.canvas import Canvas

    img = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 10, 10)).save(img, "JPEG")
    data = img.getvalue()
    buf = io.BytesIO()
    c = Canvas(buf, invariant=1, pageCompression=0)
    assert rladapter.draw_jpeg_unit(c, "a", data)
    assert not rladapter.draw_jpeg_unit(c, "b", b"not a jpeg at all")
    c.showPage()
    c.save()
    assert data in buf.getvalue()  # the bytes as they are (DCTDecode), not decoded again


def test_documents_share_the_block_api_not_the_aids_module():
    """Rosters, setup sheets and the book build on builder.kit.blocks, never on the player aids."""
    games = RENDER.parent / "games"
    for path in (games / "kensei" / "roster.py", games / "senji" / "setup_sheet.py", RENDER / "bookpdf.py"):
        name = path.name
        tree = ast.parse(path.read_text())
        mods = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "builder.render.aids" not in mods, name
        assert "builder.kit.blocks" in mods, name
