"""Reading printed pages back: the text lines of a PDF page as boxes, and the pairs that overlap;
small decks of the example's cards to print."""

from __future__ import annotations

import re
from pathlib import Path

#: the keys of a character that ``chars`` gives
CHAR_KEYS = ("text", "fontname", "size", "upright", "x0", "x1", "top", "bottom")

#: what a page read for its text alone answers, pdfplumber's own: from its characters...
_TEXT = frozenset(
    {"chars", "extract_text", "extract_text_lines", "extract_words", "search", "crop", "within_bbox"}
    | {"layout", "images"}
)
#: ... and of the page itself
_PAGE = frozenset({"width", "height", "bbox", "mediabox", "page_number", "initial_doctop"})


class _PartPage:
    """A pdfplumber page read for one part alone (``_WHAT``): read when one of the attributes of
    that part (``_ANSWERS``) is first asked for; an attribute of neither that part nor the page
    itself is an error, never an empty answer."""

    _ANSWERS: frozenset[str] = frozenset()
    _WHAT = ""

    def __init__(self, page) -> None:
        self._page = page
        self._read = False

    def __getattr__(self, name: str):
        if name in self._ANSWERS and not self._read:
            self._read_part()
        elif name not in self._ANSWERS | _PAGE:
            raise AttributeError(f"a page read for its {self._WHAT} alone has no {name}")
        return getattr(self._page, name)

    def _read_part(self) -> None:
        raise NotImplementedError


class TextPage(_PartPage):
    """A pdfplumber page read for its text alone: the paths drawn on it (rules, frames, marks,
    ruler ticks, often more than its characters) are not turned into lines, rectangles and
    curves. Its characters and the text made of them are pdfplumber's own, as on the whole
    page; asking it for anything drawn (``lines``, ``rects``...) is an error, never an empty list."""

    _ANSWERS = _TEXT
    _WHAT = "text"

    def _read_part(self) -> None:
        from pdfminer.pdfinterp import PDFPageInterpreter
        from pdfplumber.page import PDFPageAggregatorWithMarkedContent

        class NoPaths(PDFPageAggregatorWithMarkedContent):
            def paint_path(self, *args, **kwargs) -> None:
                pass

        page = self._page
        if _read_before(page, "text"):
            self._read = True
            return
        key = (_digest(page.pdf), page.page_number, repr(page.pdf.laparams))
        layout = _READ.pop(key, None)
        if layout is None:
            device = NoPaths(page.pdf.rsrcmgr, pageno=page.page_number, laparams=page.pdf.laparams)
            PDFPageInterpreter(page.pdf.rsrcmgr, device).process_page(page.page_obj)
            layout = device.get_result()
        _READ[key] = layout
        while len(_READ) > _KEEP:
            del _READ[next(iter(_READ))]
        page._layout = layout  # where pdfplumber keeps the layout it read
        page._pdfcheck_read = "text"
        self._read = True


#: the layouts of the pages last read for their text, by the PDF's bytes (the same file, or the
#: same document printed again, is read once), the page and the layout parameters; pdfminer's
#: layout objects are only read from, never changed
_READ: dict[tuple, object] = {}
_KEEP = 16  # pages (a page of small type is some 3 MB of layout objects)


def _digest(pdf) -> str:
    """The SHA-256 of an open pdfplumber PDF's bytes (computed once per PDF)."""
    import hashlib

    known = getattr(pdf, "_pdfcheck_digest", None)
    if known is None:
        stream = pdf.stream
        at = stream.tell()
        stream.seek(0)
        known = hashlib.sha256(stream.read()).hexdigest()
        stream.seek(at)
        pdf._pdfcheck_digest = known
    return known


#: what a page read for its drawing alone answers, pdfplumber's own: from the paths and images on it
_DRAWN = frozenset({"lines", "rects", "curves", "edges", "horizontal_edges", "vertical_edges", "images"})


class DrawnPage(_PartPage):
    """A pdfplumber page read for what is drawn on it alone: its text is not set into characters
    (the text operators are read, the strings they show are passed over). Its lines, rectangles,
    curves and images are pdfplumber's own, as on the whole page; asking it for its characters or
    text is an error, never an empty list."""

    _ANSWERS = _DRAWN
    _WHAT = "drawing"

    def _read_part(self) -> None:
        from pdfminer.pdfinterp import PDFPageInterpreter
        from pdfplumber.page import PDFPageAggregatorWithMarkedContent

        class NoText(PDFPageAggregatorWithMarkedContent):
            def render_string(self, *args, **kwargs) -> None:
                pass

        page = self._page
        if not _read_before(page, "drawing"):
            device = NoText(page.pdf.rsrcmgr, pageno=page.page_number, laparams=page.pdf.laparams)
            PDFPageInterpreter(page.pdf.rsrcmgr, device).process_page(page.page_obj)
            page._layout = device.get_result()  # where pdfplumber keeps the layout it read
            page._pdfcheck_read = "drawing"
        self._read = True


def _read_before(page, what: str) -> bool:
    """Whether the pdfplumber page was read already in a way that answers for its ``what``: read
    whole (by pdfplumber itself) or for its ``what`` alone. A page read for its text alone cannot
    then be asked for its drawing, nor the other way round (its objects would lack them): that
    is an error; open the PDF again to read it another way."""
    if not hasattr(page, "_layout"):
        return False
    read = getattr(page, "_pdfcheck_read", None)
    if read not in (None, what):
        raise RuntimeError(f"page {page.page_number} was read for its {read} alone: open the PDF again for its {what}")
    return True


def drawn_pages(pdf, pages=None) -> list[DrawnPage]:
    """The pages of an open pdfplumber PDF (or a slice ``pages`` of them) read for their drawing alone."""
    return [DrawnPage(p) for p in (pdf.pages if pages is None else pdf.pages[pages])]


def text_pages(pdf, pages=None) -> list[TextPage]:
    """The pages of an open pdfplumber PDF (or a slice ``pages`` of them) read for their text alone."""
    return [TextPage(p) for p in (pdf.pages if pages is None else pdf.pages[pages])]


def chars(page) -> list[dict]:
    """The characters of a pdfplumber page as ``page.chars`` gives them, with only the keys of
    CHAR_KEYS: the same layout pdfplumber reads, without turning every attribute of every
    character into a dict entry (which takes as long as reading the page)."""
    from pdfminer.layout import LTChar, LTContainer

    height = page.height
    left, top = page.mediabox[:2]
    out: list[dict] = []

    def walk(objs) -> None:
        for o in objs:
            if isinstance(o, LTChar):
                out.append(
                    {
                        "text": o.get_text(),
                        "fontname": o.fontname,
                        "size": o.size,
                        "upright": o.upright,
                        "x0": o.x0 + left,
                        "x1": o.x1 + left,
                        "top": height - o.y1 + top,
                        "bottom": height - o.y0 + top,
                    }
                )
            elif isinstance(o, LTContainer):
                walk(o._objs)

    walk(page.layout._objs)
    return out


def extract_text_lines(page) -> list[dict]:
    """pdfplumber's ``page.extract_text_lines()`` (lines stripped, each with its characters),
    made from the characters ``chars`` gives: the same lines, their characters with the keys of
    CHAR_KEYS and ``doctop``, without turning every attribute of every character into a dict entry."""
    from pdfplumber.utils.text import chars_to_textmap

    found = chars(page)
    for ch in found:
        ch["doctop"] = ch["top"] + page.initial_doctop
    textmap = chars_to_textmap(found, layout_bbox=page.bbox, layout_width=page.width, layout_height=page.height)
    return textmap.extract_text_lines(strip=True, return_chars=True)


def text_lines(page) -> list[dict]:
    """Each run of characters drawn on one baseline (pdfplumber chars grouped by their top and
    bottom, or by their left and right for text turned a quarter, split where a gap wider than
    two character heights opens): {text, x0, x1, top, bottom}."""
    groups: dict[tuple, list] = {}
    for ch in chars(page):
        if not ch["text"].strip():
            continue
        if ch["upright"]:
            key = (True, round(ch["top"], 1), round(ch["bottom"], 1))
        else:
            key = (False, round(ch["x0"], 1), round(ch["x1"], 1))
        groups.setdefault(key, []).append(ch)
    lines = []
    for (upright, _, _), group in groups.items():
        lo, hi = ("x0", "x1") if upright else ("top", "bottom")
        group.sort(key=lambda c: c[lo])
        run = [group[0]]
        for ch in group[1:]:
            if ch[lo] - run[-1][hi] > 2 * ch["size"]:
                lines.append(run)
                run = []
            run.append(ch)
        lines.append(run)
    return [
        {
            "text": "".join(c["text"] for c in run),
            "x0": min(c["x0"] for c in run),
            "x1": max(c["x1"] for c in run),
            "top": min(c["top"] for c in run),
            "bottom": max(c["bottom"] for c in run),
        }
        for run in lines
    ]


def overlapping_lines(page, tol: float = 0.3) -> list[tuple[str, str, float]]:
    """Pairs of text lines whose boxes overlap by more than ``tol`` points both across and down:
    (first text, second text, overlap in points down the page)."""
    lines = sorted(text_lines(page), key=lambda t: (t["top"], t["x0"]))
    out = []
    for i, a in enumerate(lines):
        for b in lines[i + 1 :]:
            if b["top"] >= a["bottom"] - tol:
                break
            dx = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
            dy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if dx > tol and dy > tol:
                out.append((a["text"], b["text"], round(dy, 2)))
    return out


def rulers(page) -> list:
    """Each 50 mm ruler of the page (mm, from the bottom-left): 51 parallel ticks 1 mm apart
    standing on one bar, as their bounding box."""
    from builder.kit.layout import Rect, mm

    H = mm(page.height)
    found = []
    for vertical in (True, False):
        feet: dict[float, list] = {}
        for ln in page.lines:
            x0, x1 = mm(ln["x0"]), mm(ln["x1"])
            y0, y1 = H - mm(ln["bottom"]), H - mm(ln["top"])
            if vertical and abs(x1 - x0) < 0.01 and 1.0 < y1 - y0 < 3.2:
                for foot in (y0, y1):
                    feet.setdefault(round(foot, 2), []).append((x0, y0, y1))
            elif not vertical and abs(y1 - y0) < 0.01 and 1.0 < x1 - x0 < 3.2:
                for foot in (x0, x1):
                    feet.setdefault(round(foot, 2), []).append((y0, x0, x1))
        for ticks in feet.values():
            ticks.sort()
            run = [ticks[0]]
            for t in ticks[1:] + [None]:
                if t is not None and abs(t[0] - run[-1][0] - 1.0) < 0.02:
                    run.append(t)
                    continue
                if len(run) == 51:
                    lo, hi = run[0][0], run[-1][0]
                    assert abs(hi - lo - 50.0) < 0.01
                    a, b = min(r[1] for r in run), max(r[2] for r in run)
                    found.append(Rect(lo, a, hi - lo, b - a) if vertical else Rect(a, lo, b - a, hi - lo))
                if t is not None:
                    run = [t]
    return found


_EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example_deck(folder: Path, n: int) -> Path:
    """The first ``n`` cards of the example Senshiai deck (its pack, its order) as a list of its own,
    written in ``folder``. Sheets of cards are laid out the same whatever the cards are: a deck of
    one full sheet and one card more prints a full sheet and a last, nearly empty one, in a
    fraction of the time of the 50 cards."""
    text = (_EXAMPLES / "senshiai-northern-host.yaml").read_text(encoding="utf-8")
    counts, left = [], n
    for name, count in re.findall(r"^  (\S[^:#]*): (\d+)$", text, re.M):
        take = min(int(count), left)
        if take:
            counts.append(f"  {name}: {take}")
        left -= take
    assert left == 0, f"the example deck has fewer than {n} cards"
    deck = folder / "deck.yaml"
    deck.write_text(
        f"system: senshiai\nname: First {n} cards\npacks: [{_EXAMPLES / 'packs' / 'senshiai-example.yaml'}]\n"
        "cards:\n" + "\n".join(counts) + "\n",
        encoding="utf-8",
    )
    return deck
