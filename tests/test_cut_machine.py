"""Print-and-cut sheets (``print --cut-machine``): the cards inside the machine's area, the
Silhouette registration marks, and the contour files whose coordinates are the cards' own
positions in the PDF."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import drawn_pages, example_deck, rulers
from sweeps import quick_first

from builder.kit.layout import Rect, card_size, mm, paper_size
from builder.render.cutmachine import (
    CRICUT_AREA,
    SILHOUETTE_CLEAR,
    SILHOUETTE_INSET,
    SILHOUETTE_LENGTH,
    SILHOUETTE_SQUARE,
    SILHOUETTE_THICKNESS,
    corner_radius,
    plan_machine_sheet,
)
from builder.render.cutmachine import machine as cut_machine  # the tests' own parameter is `machine`

EX = Path(__file__).resolve().parent.parent / "examples"
DECK = EX / "senshiai-northern-host.yaml"  # 50 cards
TOL = 0.01  # mm


def _card_rects(page, card, bleed=0.0) -> list[Rect]:
    """The cards' trims on a page of fronts: each face's background rectangle (upright or turned),
    less the bleed it carries."""
    H = mm(page.height)
    w, h = card
    out = []
    for r in page.rects:
        x, y, rw, rh = mm(r["x0"]), H - mm(r["bottom"]), mm(r["width"]), mm(r["height"])
        size = sorted((round(rw - 2 * bleed, 2), round(rh - 2 * bleed, 2)))
        if size == sorted((round(w, 2), round(h, 2))) and r.get("fill"):
            out.append(Rect(x + bleed, y + bleed, rw - 2 * bleed, rh - 2 * bleed))
    return sorted(out, key=lambda r: (round(r.x, 1), round(r.y, 1)))


def _svg_rects(path: Path, page_h: float) -> tuple[list[Rect], set]:
    """The SVG's cut rectangles in PDF coordinates (y up) and their corner radii."""
    root = ET.parse(path).getroot()
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert root.get("viewBox") == f"0 0 {root.get('width')[:-2]} {root.get('height')[:-2]}"
    out, radii = [], set()
    for el in root.iterfind(".//s:rect", ns):
        x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
        out.append(Rect(x, page_h - y - h, w, h))
        radii.add((float(el.get("rx")), float(el.get("ry"))))
    return sorted(out, key=lambda r: (round(r.x, 1), round(r.y, 1))), radii


def _dxf_cards(path: Path) -> tuple[list[Rect], set, int]:
    """Each card of the DXF as the box its four arcs span (y up), the arcs' radii and the number of lines."""
    pairs = path.read_text().splitlines()
    ents, cur = [], None
    for code, value in zip(pairs[0::2], pairs[1::2], strict=False):
        code = code.strip()
        if code == "0":
            cur = {"type": value}
            ents.append(cur)
        elif cur is not None:
            cur[code] = value
    arcs = [e for e in ents if e["type"] == "ARC"]
    lines = [e for e in ents if e["type"] == "LINE"]
    assert len(arcs) % 4 == 0
    cards, radii = [], set()
    for i in range(0, len(arcs), 4):
        group = arcs[i : i + 4]
        r = float(group[0]["40"])
        radii.update(float(a["40"]) for a in group)
        xs = [float(a["10"]) for a in group]
        ys = [float(a["20"]) for a in group]
        assert sorted((float(a["50"]), float(a["51"])) for a in group) == [(0, 90), (90, 180), (180, 270), (270, 360)]
        cards.append(Rect(min(xs) - r, min(ys) - r, max(xs) - min(xs) + 2 * r, max(ys) - min(ys) + 2 * r))
    # every line is an edge of a card between two arcs
    for ln in lines:
        x0, y0, x1, y1 = (float(ln[k]) for k in ("10", "20", "11", "21"))
        assert any(
            abs(min(x0, x1) - c.x) < TOL
            or abs(min(y0, y1) - c.y) < TOL
            or abs(max(x0, x1) - c.x1) < TOL
            or abs(max(y0, y1) - c.y1) < TOL
            for c in cards
        )
    return sorted(cards, key=lambda r: (round(r.x, 1), round(r.y, 1))), radii, len(lines)


def _same(a: list[Rect], b: list[Rect]) -> bool:
    return len(a) == len(b) and all(
        abs(p.x - q.x) < TOL and abs(p.y - q.y) < TOL and abs(p.w - q.w) < TOL and abs(p.h - q.h) < TOL
        for p, q in zip(a, b, strict=True)
    )


def _marks(page) -> list[Rect]:
    H = mm(page.height)
    return [
        Rect(mm(r["x0"]), H - mm(r["bottom"]), mm(r["width"]), mm(r["height"]))
        for r in page.rects
        if r.get("fill") and tuple(r.get("non_stroking_color") or ()) in ((0,), (0, 0, 0), (0.0, 0.0, 0.0))
    ]


def _near(a: Rect, b: Rect, d: float) -> bool:
    return a.x < b.x1 + d and b.x < a.x1 + d and a.y < b.y1 + d and b.y < a.y1 + d


@pytest.mark.parametrize("machine", ["silhouette", "cricut"])
@pytest.mark.parametrize("paper", quick_first(["a4", "letter"]))
@pytest.mark.parametrize(
    ("card", "bleed"),
    quick_first([("poker", 0.0), ("bridge", 0.0), ("tarot", 0.0), ("mini", 0.0), ("poker", 3.0)], unpack=True),
)
def test_the_contours_are_the_cards_of_the_pdf(cli, tmp_path, machine, paper, card, bleed):
    P, C = paper_size(paper), card_size(card)
    # two sheets: for the Silhouette a full one and one holding a single card (with contour files of
    # its own), for the Cricut two full ones (no files for a last sheet)
    per_sheet = plan_machine_sheet(cut_machine(machine), P, C, bleed).per_page
    count = per_sheet + 1 if machine == "silhouette" else 2 * per_sheet
    out = tmp_path / "cut.pdf"
    r = cli(
        "print",
        example_deck(tmp_path, count),
        "-o",
        out,
        "--cut-machine",
        machine,
        "--paper",
        paper,
        "--card",
        card,
        "--bleed",
        bleed,
    )
    assert r.code == 0, r
    svg, dxf = tmp_path / "cut.cut.svg", tmp_path / "cut.cut.dxf"
    assert svg.is_file() and dxf.is_file()
    with pdfplumber.open(out) as pdf:
        pages = drawn_pages(pdf)
        fronts = pages[0::2][:-1] if len(pages) % 2 else pages[0:-1:2]
        first = _card_rects(pages[0], C, bleed)
        last = _card_rects(fronts[-1], C, bleed)
        assert first
        total = sum(len(_card_rects(p, C, bleed)) for p in fronts)
        assert total == count and len(fronts) == 2 and len(first) == per_sheet
        page_marks = _marks(pages[0])
        assert len(rulers(pages[0])) == 1
        page = pages[0]
        assert abs(mm(page.width) - P[0]) < TOL and abs(mm(page.height) - P[1]) < TOL
    svg_rects, radii = _svg_rects(svg, P[1])
    assert _same(svg_rects, first), (svg_rects, first)
    assert radii == {(corner_radius(C), corner_radius(C))}
    dxf_rects, dxf_radii, n_lines = _dxf_cards(dxf)
    assert _same(dxf_rects, first)
    assert dxf_radii == {corner_radius(C)} and n_lines == 4 * len(first)
    # a last sheet not full has cut lines of its own: the blade cuts only where cards are
    last_svg, last_dxf = tmp_path / "cut.last.cut.svg", tmp_path / "cut.last.cut.dxf"
    if len(fronts) > 1 and len(last) < len(first):
        assert _same(_svg_rects(last_svg, P[1])[0], last)
        assert _same(_dxf_cards(last_dxf)[0], last)
    else:
        assert not last_svg.exists() and not last_dxf.exists()
    pw, ph = P
    bleeds = [c.grow(bleed) for c in first]
    if machine == "silhouette":
        i, t, n, s = SILHOUETTE_INSET, SILHOUETTE_THICKNESS, SILHOUETTE_LENGTH, SILHOUETTE_SQUARE
        expected = [
            Rect(i, ph - i - s, s, s),
            Rect(pw - i - n, ph - i - t, n, t),
            Rect(pw - i - t, ph - i - n, t, n),
            Rect(i, i, n, t),
            Rect(i, i, t, n),
        ]
        assert _same(sorted(page_marks, key=lambda r: (r.x, r.y)), sorted(expected, key=lambda r: (r.x, r.y)))
        inner = Rect(i + t, i + t, pw - 2 * (i + t), ph - 2 * (i + t)).grow(-SILHOUETTE_CLEAR + TOL)
        for b in bleeds:
            assert b.inside(inner, tol=TOL), b
            assert not any(_near(b, m, SILHOUETTE_CLEAR - TOL) for m in expected), b
    else:
        assert page_marks == []
        area = Rect((pw - CRICUT_AREA[0]) / 2, (ph - CRICUT_AREA[1]) / 2, *CRICUT_AREA)
        for b in bleeds:
            assert b.inside(area, tol=TOL), b


def test_corner_radius_follows_the_card_size():
    assert corner_radius(card_size("poker")) == 3.175
    assert corner_radius(card_size("bridge")) == 3.175  # at the bound: 57.15 mm wide
    assert corner_radius((57.0, 88.9)) == round(3.175 * 57 / 63.5, 3)  # just under it
    assert corner_radius(card_size("mini")) == 2.2


def test_bad_machine_and_fold_layout_are_one_line(cli, tmp_path):
    r = cli("print", DECK, "-o", tmp_path / "x.pdf", "--cut-machine", "laser")
    assert r.code == 2 and r.stderr.splitlines() == [
        "daimyo: error: unknown cutting machine 'laser' (use silhouette or cricut)"
    ]
    r = cli("print", DECK, "-o", tmp_path / "x.pdf", "--cut-machine", "cricut", "--layout", "fold")
    assert r.code == 2 and len(r.stderr.splitlines()) == 1 and "--layout duplex" in r.stderr
    assert not list(tmp_path.iterdir())


def test_an_existing_contour_file_is_not_overwritten_without_force(cli, tmp_path):
    (tmp_path / "cut.cut.svg").write_text("mine")
    r = cli("print", DECK, "-o", tmp_path / "cut.pdf", "--cut-machine", "silhouette")
    assert r.code == 2 and "--force" in r.stderr and len(r.stderr.splitlines()) == 1
    assert (tmp_path / "cut.cut.svg").read_text() == "mine"
    assert not (tmp_path / "cut.pdf").exists() and not (tmp_path / "cut.cut.dxf").exists()
    assert cli("print", DECK, "-o", tmp_path / "cut.pdf", "--cut-machine", "silhouette", "--force").code == 0
    assert (tmp_path / "cut.cut.svg").read_text().startswith("<?xml")
