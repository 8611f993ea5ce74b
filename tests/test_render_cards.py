"""Card sheets read back from the PDF: sizes, positions, backs, marks, text, images, glyphs."""

import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import chars as pdf_chars
from pdfcheck import drawn_pages, text_pages
from pypdf import PdfReader
from sweeps import quick_first

from builder.errors import DaimyoError, UsageError
from builder.kit import fonts
from builder.kit.layout import card_size, mm, paper_size, plan_sheet
from builder.render import api

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
TOL = 0.1  # mm


def close(a, b, tol=TOL):
    """Two lists of (x, y) positions equal within ``tol`` mm."""
    a, b = sorted(a), sorted(b)
    return len(a) == len(b) and all(
        abs(p - q) <= tol for u, v in zip(a, b, strict=False) for p, q in zip(u, v, strict=False)
    )


def card_rects(page, w_mm, h_mm):
    """Rectangles of exactly one card size (the face backgrounds), in mm from the bottom-left."""
    out = []
    H = page.height
    for r in page.rects:
        w, h = mm(r["x1"] - r["x0"]), mm(r["bottom"] - r["top"])
        if abs(w - w_mm) <= TOL and abs(h - h_mm) <= TOL:
            out.append((round(mm(r["x0"]), 2), round(mm(H - r["bottom"]), 2), w, h))
    return sorted(set((x, y) for x, y, _, _ in out))


@pytest.fixture(scope="module")
def samurai(tmp_path_factory):
    out = tmp_path_factory.mktemp("pdf") / "samurai.pdf"
    api.render_list(EXAMPLES / "satsuma-samurai.yaml", out)
    return out


def test_page_size_and_viewer_hints(samurai):
    reader = PdfReader(samurai)
    box = reader.pages[0].mediabox
    assert (round(mm(float(box.width)), 2), round(mm(float(box.height)), 2)) == (210.0, 297.0)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge"
    # 46 cards, 9 a sheet: 6 sheets of fronts, each followed by its backs, then the list page
    assert len(reader.pages) == 13


def test_cards_measure_their_nominal_size_and_backs_mirror(samurai):
    plan = plan_sheet((210, 297), (63.5, 88.9))
    with pdfplumber.open(samurai) as pdf:
        pages = drawn_pages(pdf)
        fronts = card_rects(pages[0], 63.5, 88.9)
        backs = card_rects(pages[1], 63.5, 88.9)
        last_front = card_rects(pages[10], 63.5, 88.9)
        last_back = card_rects(pages[11], 63.5, 88.9)
    expected = sorted((round(s.trim.x, 2), round(s.trim.y, 2)) for s in plan.slots)
    assert close(fronts, expected)
    # long edge: back at x' = W - x - w, same y
    mirrored = sorted((round(210 - x - 63.5, 2), y) for x, y in fronts)
    assert close(backs, mirrored)
    # the last sheet holds 46 - 45 = 1 card: its back sits behind it (top right on the back page)
    assert len(last_front) == 1 and len(last_back) == 1
    assert close(last_back, [(210 - last_front[0][0] - 63.5, last_front[0][1])])


def test_cut_marks_are_outside_every_card(samurai):
    with pdfplumber.open(samurai) as pdf:
        (page,) = drawn_pages(pdf, slice(1))
        cards = card_rects(page, 63.5, 88.9)
        H = page.height
        marks = [ln for ln in page.lines if abs(mm(ln["linewidth"]) - 0.15) < 0.02]
    assert len(marks) >= 16
    for ln in marks:
        x0, x1 = sorted((mm(ln["x0"]), mm(ln["x1"])))
        y0, y1 = sorted((mm(H - ln["bottom"]), mm(H - ln["top"])))
        for cx, cy in cards:
            inside_x = x1 > cx + 0.01 and x0 < cx + 63.5 - 0.01
            inside_y = y1 > cy + 0.01 and y0 < cy + 88.9 - 0.01
            assert not (inside_x and inside_y), (ln, cx, cy)


def test_every_field_is_printed(samurai):
    from builder.catalog.loader import load_catalog

    cat = load_catalog("satsuma")
    samurai_cards = [c for c in cat.entries("cards") if c.side == "samurai"]
    with pdfplumber.open(samurai) as pdf:
        text = " ".join((p.extract_text() or "") for p in text_pages(pdf, slice(0, 12, 2)))
    flat = " ".join(text.split())
    for c in samurai_cards:
        assert " ".join(c.name.split()[:1]) in flat, c.name
        for o in c.options:
            assert f"{o.suit}{o.strength}" in flat, (c.name, o)
    assert "SAMURAI" in flat
    assert "Leader 10" in flat and "Weapons 5" in flat and "Morale 6" in flat
    assert "daimyo check: legal" in flat


def test_senshiai_troop_carries_what_the_rulebook_requires(tmp_path):
    out = api.render_list(EXAMPLES / "senshiai-northern-host.yaml", tmp_path / "s.pdf", backs=False)
    with pdfplumber.open(out) as pdf:
        text = " ".join(" ".join((p.extract_text() or "").split()) for p in text_pages(pdf))
    # Warriors: a Troop with Power 3/0/6 (000_ac601013730960cf.txt:167), each trait under its name;
    # Militiamen 1/n/4 prints its nulla ranged trait as n
    assert "Speed Melee Ranged Resistance" in text and "Limit Melee Ranged Resistance" in text
    assert "Warriors" in text and "2 3 0 6" in text and "1 n 4" in text
    assert "TROOP" in text and "TERRAIN" in text and "Earth" in text
    assert "Capital of the North" in text
    assert " N " in f" {text} "  # the Capital's cost nulla


def test_same_input_gives_identical_bytes(tmp_path, samurai):
    again = tmp_path / "again.pdf"
    api.render_list(EXAMPLES / "satsuma-samurai.yaml", again)
    assert again.read_bytes() == samurai.read_bytes()


def test_existing_file_is_not_overwritten(samurai):
    before = samurai.read_bytes()
    with pytest.raises(DaimyoError, match="not overwritten"):
        api.render_list(EXAMPLES / "satsuma-samurai.yaml", samurai)
    assert samurai.read_bytes() == before


def _variant(tmp_path, cards: str) -> Path:
    p = tmp_path / "variant.yaml"
    p.write_text("system: satsuma\nside: samurai\ncards:\n" + cards, encoding="utf-8")
    return p


def test_missing_glyphs_are_reported(tmp_path, capsys):
    # kanji print with the CJK fallback font; a character no bundled font draws is reported
    lst = _variant(tmp_path, "  Bushido: 1\n  \u6b66\u58eb \U0001f409 Band: {printed: F5, count: 1}\n")
    api.render_list(lst, tmp_path / "g.pdf")
    err = capsys.readouterr().err
    assert "card '\u6b66\u58eb \U0001f409 Band', field 'name': characters missing from font DejaVuSans" in err
    assert "U+1F409" in err and "U+6B66" not in err


def test_overlong_text_shrinks_then_warns(tmp_path, capsys):
    long_name = "Very " * 60 + "Long Name"
    lst = _variant(tmp_path, f"  {long_name}: {{printed: F5, count: 1}}\n")
    out = api.render_list(lst, tmp_path / "o.pdf")
    err = capsys.readouterr().err
    assert f"card '{long_name}', field 'name' does not fit its box even at 6 pt" in err
    # nothing drawn outside the card: every character of page 1 lies on the card or in the margins
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        ((cx, cy),) = card_rects(page, 63.5, 88.9)
        for ch in page.chars:
            x, top = mm(ch["x0"]), mm(page.height - ch["bottom"])
            if cx - 1 < x < cx + 64.5 and cy < top < cy + 88.9:
                assert mm(ch["x1"]) <= cx + 63.5 + 0.01


def test_fit_text_shrinks_before_overflowing():
    fonts.register_fonts()
    fit = fonts.fit_text("Samurai Warriors of the North", 150, 12, fonts.BOLD, 12, 6, wrap=False)
    assert not fit.overflow and fit.size < 12
    assert max(fonts.string_width(line, fonts.BOLD, fit.size) for line in fit.lines) <= 150
    fit = fonts.fit_text("word " * 200, 50, 20, fonts.REGULAR, 9, 5)
    assert fit.overflow and fit.size == 5 and fit.lines[-1].endswith(fonts.ELLIPSIS)
    assert fit.height <= 20


def test_clipping_a_very_long_line_keeps_the_longest_prefix_that_fits():
    fonts.register_fonts()
    line = "x" * 100_000  # a list name this long must not take minutes to clip
    fit = fonts.fit_text(line, 100, 10, fonts.REGULAR, 9, 6, wrap=False)
    (clipped,) = fit.lines
    assert fit.overflow and clipped.endswith(fonts.ELLIPSIS)
    assert fonts.string_width(clipped, fonts.REGULAR, 6) <= 100
    assert fonts.string_width("x" + clipped, fonts.REGULAR, 6) > 100


def test_missing_glyphs():
    assert fonts.missing_glyphs("Kagoshima \u00e9\u00e8 \u2014") == ""
    assert fonts.missing_glyphs("\u6f22\U0001f409 ok") == "\U0001f409"  # kanji: the CJK fallback


def _art_list(tmp_path, n_images=2, size=(3000, 2000)):
    from PIL import Image

    art = tmp_path / "art"
    art.mkdir()
    for i, name in enumerate(["bushido", "honor", "raiders"][:n_images]):
        Image.new("RGB", size, (40 * i, 90, 160)).save(art / f"{name}.jpg", quality=80)
    return _variant(tmp_path, "  Bushido: 3\n  Honor: 2\n  Raiders: 1\n")


def _images(path):
    reader = PdfReader(path)
    found = {}
    for _obj in reader.resolved_objects.values() if hasattr(reader, "resolved_objects") else []:
        pass
    for num in range(1, len(reader.xref_objStm) + 1000):
        try:
            o = reader.get_object(num)
        except Exception:
            continue
        if hasattr(o, "get") and o.get("/Subtype") == "/Image":
            found[num] = (int(o["/Width"]), int(o["/Height"]))
    return found


def test_images_embedded_once_at_most_300_dpi(tmp_path):
    lst = _art_list(tmp_path)
    out = api.render_list(lst, tmp_path / "a.pdf")
    imgs = _images(out)
    assert len(imgs) == 2  # 5 card copies with art, 2 distinct images
    for w, h in imgs.values():
        # the art box is 47.5 x 31 mm: at 300 dpi at most 561 x 366 px
        assert w <= 561 * 1.02 and h <= 366 * 1.02
    ink = api.render_list(lst, tmp_path / "ink.pdf", ink_saver=True)
    assert _images(ink) == {}


def test_unreadable_image_is_a_clear_error(tmp_path):
    lst = _variant(tmp_path, "  Bushido: 1\n")
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "bushido.png").write_text("not a picture")
    with pytest.raises(UsageError, match="cannot read image"):
        api.render_list(lst, tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def test_art_path_that_does_not_exist():
    from builder.render.cards import CardFace, find_art, load_template

    tpl = load_template("satsuma")
    face = CardFace("Mine", {"name": "Mine", "art": "pics/mine.png"})
    with pytest.raises(UsageError, match=r"image file 'pics/mine\.png' not found"):
        find_art(face, tpl, [], Path("/nonexistent"))


def test_short_edge_backs_are_rotated(tmp_path):
    out = api.render_list(
        EXAMPLES / "satsuma-imperial.yaml", tmp_path / "s.pdf", duplex="short", paper="letter", card="bridge"
    )
    reader = PdfReader(out)
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"
    plan = plan_sheet(paper_size("letter"), card_size("bridge"))
    with pdfplumber.open(out) as pdf:
        H = 279.4
        w, h = (88.9, 57.15) if plan.rotated else (57.15, 88.9)
        fronts, backs = (card_rects(p, w, h) for p in drawn_pages(pdf, slice(2)))
    assert len(fronts) == plan.per_page
    assert close(backs, [(x, H - y - h) for x, y in fronts])


def test_test_sheet(tmp_path):
    out = api.render_test_sheet(tmp_path / "t.pdf", paper="a4", duplex="long")
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 2
        front, back = (p.extract_text() for p in text_pages(pdf))
    assert "--offset X,Y" in front
    assert "+2" in back and "-4" in back and "X mm" in back


# -- golden images ---------------------------------------------------------------------


def _png(pdf: Path, page: int, out: Path) -> Path:
    subprocess.run(
        ["pdftoppm", "-png", "-r", "30", "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(out)],
        check=True,
    )
    return out.with_suffix(".png")


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("page,name", [(1, "satsuma-samurai-front"), (2, "satsuma-samurai-back")])
def test_golden_pages(samurai, tmp_path, page, name):
    import os

    from PIL import Image, ImageChops, ImageStat

    png = _png(samurai, page, tmp_path / name)
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("DAIMYO_REGEN_GOLDEN") or not golden.exists():
        GOLDEN.mkdir(exist_ok=True)
        shutil.copy(png, golden)
        pytest.skip("golden image written; review it and commit")
    a, b = Image.open(png).convert("L"), Image.open(golden).convert("L")
    assert a.size == b.size
    diff = ImageStat.Stat(ImageChops.difference(a, b)).mean[0]
    assert diff < 2.0, f"page {page} differs from {golden.name} by {diff:.2f} grey levels on average"


# -- image embedding -------------------------------------------------------------------


def _image_streams(path):
    """{(n, width, height): (filters, raw stream bytes)} of the image XObjects the pages use."""
    reader = PdfReader(path)
    out, seen = {}, set()
    for page in reader.pages:
        todo = [page.get("/Resources")]
        while todo:
            res = todo.pop()
            if res is None:
                continue
            res = res.get_object()
            for _, ref in (res.get("/XObject") or {}).items():
                if ref.idnum in seen:
                    continue
                seen.add(ref.idnum)
                o = ref.get_object()
                if o.get("/Subtype") == "/Image":
                    filt = o.get("/Filter")
                    filt = [str(f) for f in (filt if isinstance(filt, list) else [filt])]
                    out[(len(out), int(o["/Width"]), int(o["/Height"]))] = (filt, o._data)
                elif o.get("/Subtype") == "/Form":
                    todo.append(o.get("/Resources"))
    return out


def test_small_jpeg_is_embedded_byte_for_byte(tmp_path):
    lst = _art_list(tmp_path, n_images=1, size=(400, 260))
    out = api.render_list(lst, tmp_path / "a.pdf")
    imgs = _image_streams(out)
    assert list(imgs) == [(0, 400, 260)]
    filters, data = imgs[(0, 400, 260)]
    assert filters == ["/DCTDecode"]
    assert data == (tmp_path / "art" / "bushido.jpg").read_bytes()


def test_large_jpeg_is_resampled_once_and_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("DAIMYO_CACHE_DIR", str(tmp_path / "cache"))
    lst = _art_list(tmp_path, n_images=2)
    first = api.render_list(lst, tmp_path / "a.pdf")
    imgs = _image_streams(first)
    assert len(imgs) == 2
    for (_, w, h), (filters, data) in imgs.items():
        assert filters == ["/DCTDecode"] and data[:2] == b"\xff\xd8"  # a JPEG, not raw pixels
        assert w <= 561 * 1.02 and h <= 366 * 1.02
    cached = sorted((tmp_path / "cache" / "images").glob("*.jpg"))
    assert len(cached) == 2
    assert sorted(d for _, d in imgs.values()) == sorted(p.read_bytes() for p in cached)
    # printing again reads the cache: same bytes out; a changed image is resampled again
    again = api.render_list(lst, tmp_path / "b.pdf")
    assert again.read_bytes() == first.read_bytes()
    import os
    import time

    from PIL import Image

    img = tmp_path / "art" / "bushido.jpg"
    Image.new("RGB", (3000, 2000), (200, 10, 10)).save(img, quality=80)
    os.utime(img, ns=(time.time_ns(), time.time_ns() + 10**9))
    api.render_list(lst, tmp_path / "c.pdf")
    assert len(list((tmp_path / "cache" / "images").glob("*.jpg"))) == 3


def test_image_with_transparency_keeps_it(tmp_path):
    from PIL import Image

    lst = _variant(tmp_path, "  Bushido: 1\n")
    (tmp_path / "art").mkdir()
    Image.new("RGBA", (1200, 800), (10, 20, 30, 128)).save(tmp_path / "art" / "bushido.png")
    out = api.render_list(lst, tmp_path / "t.pdf")
    reader = PdfReader(out)
    smasks = [reader.get_object(i) for i in range(1, 400) if _is_image_with_smask(reader, i)]
    assert smasks


def _is_image_with_smask(reader, num):
    try:
        o = reader.get_object(num)
    except Exception:
        return False
    return hasattr(o, "get") and o.get("/Subtype") == "/Image" and "/SMask" in o


def test_each_distinct_face_is_drawn_once(tmp_path):
    """6 card copies of 3 distinct cards: 3 face forms, each placed by reference."""
    import re
    import zlib

    lst = _variant(tmp_path, "  Bushido: 3\n  Honor: 2\n  Raiders: 1\n")
    raw = api.render_list(lst, tmp_path / "f.pdf", backs=False).read_bytes()
    assert len(set(re.findall(rb"/FormXob\.face_\d+", raw))) == 3
    page = PdfReader(tmp_path / "f.pdf").pages[0].get_contents().get_data()
    assert len(re.findall(rb"/FormXob\.face_\d+ Do", page)) == 6
    with pdfplumber.open(tmp_path / "f.pdf") as pdf:
        text = text_pages(pdf, slice(1))[0].extract_text()
    assert text.count("Bushido") == 3 and text.count("Raiders") == 1
    del zlib


def test_unknown_values_print_as_dashes_not_question_marks(tmp_path):
    """The rulebook's HeroCard cards carry no scores or costs (unknown-values.yaml): the faces
    show a dash where a value belongs and leave out an unknown Action Type."""
    out = api.render_list(ROOT / "tests" / "data" / "herocard" / "unknown-values.yaml", tmp_path / "h.pdf", backs=False)
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        cards = card_rects(page, 63.5, 88.9)
        H = page.height
        on_cards = "".join(
            c["text"]
            for c in page.chars
            if any(x < mm(c["x0"]) < x + 63.5 and y < mm(H - c["bottom"]) < y + 88.9 for x, y in cards)
        )
        text = page.extract_text()
    assert "?" not in on_cards
    assert "Score \u2014" in text
    assert "\u2014:" not in text and "?:" not in text


def test_part_filled_sheet_has_no_marks_for_empty_rows(tmp_path):
    lst = _variant(tmp_path, "  Bushido: 2\n")  # 2 cards: one row of a 3 x 3 sheet
    out = api.render_list(lst, tmp_path / "m.pdf", backs=False)
    with pdfplumber.open(out) as pdf:
        (page,) = drawn_pages(pdf, slice(1))
        H = page.height
        (cy,) = {y for _, y in card_rects(page, 63.5, 88.9)}
        marks = [ln for ln in page.lines if abs(mm(ln["linewidth"]) - 0.15) < 0.02]
    horizontal = sorted({round(mm(H - ln["top"]), 2) for ln in marks if abs(ln["top"] - ln["bottom"]) < 0.01})
    assert close([(y,) for y in horizontal], [(cy,), (cy + 88.9,)])


def test_test_sheet_scales_do_not_overlap(tmp_path):
    """Labels of the back scales never overlap each other or a tick, and the scales lie
    within reach of the front crosshair lines (12 mm each side of the target)."""
    from builder.render.cards import SCALE_GAP, SCALE_HALF, TEST_POINTS

    out = api.render_test_sheet(tmp_path / "t.pdf", paper="a4", duplex="long")
    with pdfplumber.open(out) as pdf:
        back = pdf.pages[1]
        chars = [c for c in back.chars if c["size"] < 6]
        ticks = [ln for ln in back.lines if mm(ln["linewidth"]) < 0.2]
    assert chars and ticks

    def overlap(a, b):
        return (min(a[2], b[2]) - max(a[0], b[0]) > 0.05) and (min(a[3], b[3]) - max(a[1], b[1]) > 0.05)

    boxes = [(c["x0"], c["top"], c["x1"], c["bottom"]) for c in chars]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlap(a, b), (a, b)
        for ln in ticks:
            assert not overlap(a, (ln["x0"], ln["top"], ln["x1"], ln["bottom"])), (chars[i]["text"], ln)
    assert SCALE_GAP + 1 < 12 and SCALE_HALF < 12
    assert len(TEST_POINTS) == 5


ALIGNMENT_PAPERS = [
    "a4",
    "letter",
    "148x210",
    "210x148",
    "148x148",
    "160x190",
    "297x420",
    "1200x1200",
    "148x2000",
    "2000x148",
]


@pytest.mark.parametrize("duplex", quick_first(["long", "short"]))
@pytest.mark.parametrize("paper", quick_first(ALIGNMENT_PAPERS))
def test_test_sheet_text_never_touches_a_mark(cli, tmp_path, paper, duplex):
    """On every paper the alignment sheet prints on (a4, letter, and WxH down to A5 and the
    smallest accepted 148x148), no letter of its title, instructions or ruler labels touches a
    crosshair, a circle, a scale or a ruler: each character's box stays 0.5 mm clear of every
    drawn line and circle, and inside the paper. Both pages, both flip edges."""
    out = tmp_path / "t.pdf"
    r = cli("print-test", "--paper", paper, "--duplex", duplex, "-o", out)
    assert r.code == 0, r
    clear = 0.5
    with pdfplumber.open(out) as pdf:
        assert len(pdf.pages) == 2
        for n, page in enumerate(pdf.pages, 1):
            W, H = mm(page.width), mm(page.height)
            chars = [(c["text"], mm(c["x0"]), mm(c["top"]), mm(c["x1"]), mm(c["bottom"])) for c in pdf_chars(page)]
            marks = [(mm(o["x0"]), mm(o["top"]), mm(o["x1"]), mm(o["bottom"])) for o in page.lines + page.curves]
            assert chars and marks
            # the instructions are all there (front), the scales are labelled (back)
            text = "".join(t for t, *_ in chars)
            assert ("--offset" in text and "--scale-x" in text) if n == 1 else "Xmm" in text.replace(" ", "")
            for t, x0, top, x1, bottom in chars:
                assert x0 >= 4.5 and x1 <= W - 4.5 and top >= 4.5 and bottom <= H - 4.5, (paper, n, t)
                for mx0, mtop, mx1, mbottom in marks:
                    touches = x0 < mx1 + clear and mx0 - clear < x1 and top < mbottom + clear and mtop - clear < bottom
                    assert not touches, (
                        f"{paper} page {n}: '{t}' at ({x0:.1f}, {top:.1f})-({x1:.1f}, {bottom:.1f}) "
                        f"touches the mark ({mx0:.1f}, {mtop:.1f})-({mx1:.1f}, {mbottom:.1f})"
                    )
