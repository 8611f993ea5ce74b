"""Flowing documents on small paper read as a typesetter would set them: a block of text (a
paragraph, or a table row printed as stacked lines) stays on one page or is split with at
least two of its lines on each side, and no page holds only a source note cut off from
what it is the source of.

The blocks are read from the same document printed on a strip of paper as wide as the small
one but 2 m long: same width, same type size, same line breaks, and no page break inside
any block. Each block is then looked up in the paged printout."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from pdfcheck import extract_text_lines, text_pages

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
K = 25.4 / 72
BLOCK_GAP_MM = 1.0  # more than this between two lines (or a new type size): a new block

DOCUMENTS = {
    "setup sheet": ("print", EXAMPLES / "senji-three-daimyo.yaml"),
    "roster": ("print", EXAMPLES / "kensei-buke.yaml"),
    "roster with unit cards": ("print", EXAMPLES / "kensei-kuge.yaml", "--unit-cards"),
}


def _body_lines(path) -> list[list[dict]]:
    """Per page, the lines of the body: below the 50 mm ruler's label, above the footer (whose
    first line is the daimyo check verdict in the condensed face at the page's bottom)."""
    pages = []
    with pdfplumber.open(str(path)) as pdf:
        for page in text_pages(pdf):
            lines = []
            for ln in extract_text_lines(page):
                first = ln["chars"][0]
                lines.append(
                    {
                        "text": ln["text"],
                        "x0": ln["x0"] * K,
                        "top": ln["top"] * K,
                        "bottom": ln["bottom"] * K,
                        "size": round(first["size"], 1),
                        "font": first["fontname"],
                    }
                )
            ruler = [i for i, ln in enumerate(lines) if ln["text"].startswith("50 mm: print at 100 %")]
            start = ruler[0] + 1 if ruler else 0
            foot = [
                i
                for i, ln in enumerate(lines)
                if ln["text"].startswith("daimyo ch")
                and "Condensed" in ln["font"]
                and ln["top"] > float(page.height) * K * 0.6
            ]
            end = foot[-1] if foot else len(lines)
            if not ruler and not foot:  # a sheet of unit cards after the roster: no body
                continue
            pages.append(lines[start:end])
    return pages


def _blocks(lines: list[dict]) -> list[list[str]]:
    """Lines grouped into blocks: consecutive lines of one type size with no more than the
    normal space between them."""
    blocks: list[list[str]] = []
    prev = None
    for ln in lines:
        if prev is None or ln["top"] - prev["bottom"] > BLOCK_GAP_MM or ln["size"] != prev["size"]:
            blocks.append([])
        blocks[-1].append(ln["text"])
        prev = ln
    return blocks


def _print(cli, args, paper, out):
    r = cli(*args, "--paper", paper, "-o", out, "--force")
    assert r.code == 0, r
    return out


@pytest.mark.parametrize("what", DOCUMENTS)
@pytest.mark.parametrize(  # the quick loop prints each document on one paper, the suite on every one
    "paper", ["100x100", *(pytest.param(p, marks=pytest.mark.slow) for p in ("105x148", "74x105", "60x297"))]
)
def test_no_block_leaves_a_lone_line_on_small_paper(cli, tmp_path, what, paper):
    w, _ = paper.split("x")
    args = DOCUMENTS[what]
    strip = _body_lines(_print(cli, args, f"{w}x2000", tmp_path / "strip.pdf"))
    assert len(strip) == 1, "the strip holds the whole document on one page"
    blocks = _blocks(strip[0])
    paged = _body_lines(_print(cli, args, paper, tmp_path / "paged.pdf"))
    assert len(paged) >= 2, "the document takes several pages on small paper"
    flat = [(p, ln["text"]) for p, lines in enumerate(paged) for ln in lines]
    assert [t for _, t in flat] == [ln for b in blocks for ln in b], "same lines in the same order"
    at = 0
    for block in blocks:
        pages = [p for p, _ in flat[at : at + len(block)]]
        at += len(block)
        per_page = [pages.count(p) for p in sorted(set(pages))]
        if len(per_page) > 1:
            assert min(per_page) >= 2, f"a block split with a lone line ({per_page} lines per page) on {paper}: {block}"
    # a source note (small condensed type) follows what it is the source of: it never opens a page
    for n, lines in enumerate(paged):
        assert lines, f"page {n + 1} has no body"
        assert not (lines[0]["text"].startswith("Source:") and "Condensed" in lines[0]["font"]), (
            f"page {n + 1} opens with a source note cut off from its block: {[ln['text'] for ln in lines]}"
        )
