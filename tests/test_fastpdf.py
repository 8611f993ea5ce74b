"""The tests' faster reading of PDF content streams (tests/fastpdf.py) gives pdfminer's
interpreter exactly the tokens and objects pdfminer's own parser gives: over every content
stream of the documents daimyo prints, and over streams made to hold each kind of token and
each case left to pdfminer's parser. pdfplumber with the faster resolvers makes exactly the
object dicts it makes with its own, over every object of those documents; pypdf making each
font once per PDF gives the text pypdf gives making it on every page."""

from __future__ import annotations

import pytest
from fastpdf import FastContentParser, stream_tokens
from pdfminer.pdfinterp import PDFContentParser
from pdfminer.pdftypes import PDFStream, resolve1
from pdfminer.psparser import KWD, PSEOF

from conftest import ROOT, run_cli

EXAMPLES = ROOT / "examples"


def _all(parser, method: str) -> list:
    out = []
    while True:
        try:
            out.append(getattr(parser, method)())
        except PSEOF:
            return out


def _readings(streams) -> tuple[list, list, FastContentParser]:
    """(pdfminer's tokens and objects, the fast reading's tokens and objects, its parser)."""
    plain = (_all(PDFContentParser(streams), "nexttoken"), _all(PDFContentParser(streams), "nextobject"))
    fast_parser = FastContentParser(streams)
    fast = (_all(FastContentParser(streams), "nexttoken"), _all(fast_parser, "nextobject"))
    return list(plain), list(fast), fast_parser


def _same(a, b) -> bool:
    """The same values of the same types, as their representations show them (True is not 1,
    1.0 is not 1, a name is not a keyword; an inline image's stream by its attributes and data)."""
    return repr(a) == repr(b)


def _content_streams(pdf):
    """The content streams of every page and of every form drawn on it."""
    for page in pdf.pages:
        if page.page_obj.contents:
            yield page.page_obj.contents
        xobjects = resolve1((page.page_obj.resources or {}).get("XObject", {})) or {}
        for ref in xobjects.values():
            form = resolve1(ref)
            if isinstance(form, PDFStream) and str(form.get("Subtype")) == "/'Form'":
                yield [form]


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> list:
    """Documents of every kind daimyo prints: rosters with unit cards and statistics, card
    sheets with bleed, cut lines and folds, a setup sheet, an aid and the alignment sheet."""
    folder = tmp_path_factory.mktemp("printed")
    documents = {
        "roster.pdf": ("print", EXAMPLES / "kensei-kuge.yaml", "--unit-cards", "--stats"),
        "deck.pdf": ("print", EXAMPLES / "senshiai-northern-host.yaml", "--bleed", "3", "--cut-lines"),
        "fold.pdf": ("print", EXAMPLES / "satsuma-samurai.yaml", "--layout", "fold"),
        "hero.pdf": ("print", EXAMPLES / "herocard-samurai.yaml"),
        "setup.pdf": ("print", EXAMPLES / "senji-three-daimyo.yaml"),
        "aid.pdf": ("aid", "satsuma", "--paper", "105x148"),
        "test.pdf": ("print-test",),
    }
    for name, args in documents.items():
        r = run_cli(*args, "-o", folder / name, "--force")
        assert r.code in (0, 1), r
    return [folder / name for name in documents]


@pytest.mark.slow  # every page of every document read twice, by both readers
def test_every_stream_of_the_printed_documents_reads_the_same(printed):
    import pdfplumber

    streams = 0
    for path in printed:
        with pdfplumber.open(path) as pdf:
            for content in _content_streams(pdf):
                plain, fast, parser = _readings(content)
                assert parser._fast is not None, path.name  # daimyo's streams take the fast reading
                assert _same(plain, fast), path.name
                streams += 1
    assert streams > 50


def _layout_objects(objs, with_containers: bool):
    """Every object of a page's layout, in pdfplumber's order (a container before what it holds)."""
    from pdfminer.layout import LTContainer

    for o in objs:
        if isinstance(o, LTContainer):
            if with_containers:
                yield o
            yield from _layout_objects(o._objs, with_containers)
        else:
            yield o


@pytest.mark.slow  # every object of every document read twice, by both readers
def test_every_object_of_the_printed_documents_makes_pdfplumbers_own_dict(printed, tmp_path):
    """The same keys in the same order and the same values of the same types, for characters,
    rectangles, lines and curves, on pages with their media box at the origin and not."""
    import pdfplumber
    import pypdf
    from fastpdf import resolvers

    # a copy of the roster whose pages' media boxes start at (12, 30): pdfplumber moves x and top by it
    moved = tmp_path / "moved.pdf"
    writer = pypdf.PdfWriter(clone_from=str(printed[0]))
    for page in writer.pages[:2]:
        box = page.mediabox
        page.mediabox = pypdf.generic.RectangleObject((12, 30, float(box.right) + 12, float(box.top) + 30))
    writer.write(moved)

    kinds: set[str] = set()
    for path in [*printed, moved]:
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages[:2]:  # a sheet of cards and the next are drawn alike
                objs = list(_layout_objects(page.layout._objs, pdf.laparams is not None))
                with resolvers(fast=True):
                    ours = [page.process_object(o) for o in objs]
                with resolvers(fast=False):
                    theirs = [page.process_object(o) for o in objs]
                for a, b in zip(ours, theirs, strict=True):
                    assert _same(list(a.items()), list(b.items())), (path.name, page.page_number)
                    kinds.add(a["object_type"])
    assert {"char", "rect", "line", "curve"} <= kinds, kinds
    with pdfplumber.open(moved) as pdf:
        assert pdf.pages[0].mediabox[0] == 12 and pdf.pages[0].mediabox[1] != 0 and pdf.pages[0].chars


@pytest.mark.parametrize(
    "data",
    [
        b"BT /F1 12 Tf 72 712.5 Td (Hello) Tj ET",
        b"q 1 0 0 1 -3.5 +4 cm .5 w -.25 0 m 1. 2 l S Q",
        b"[(A) -120 (W\\(a\\)y) 33.3 <41 42 4>] TJ",
        b"(oct \\101\\1017\\7 esc \\n\\t\\b\\f\\r\\\\ \\q dropped, line \\\njoined)",
        b"<< /Type /XObject /Nested << /A [1 2 [3]] /B true /C false /D null >> >> BDC EMC",
        b"/caf\xc3\xa9 /\xff\xfe Do 0 0 1 rg T* ' \" \x00 12abc + - . 1.2.3",
        b"BT\n/F1 9 Tf\r\n(a)Tj\x0c(b)'ET",
        b"",
    ],
)
def test_streams_of_every_kind_of_token_read_the_same_by_the_fast_reading(data):
    stream = [PDFStream({}, data)]
    plain, fast, parser = _readings(stream)
    assert parser._fast is not None
    assert _same(plain, fast)


@pytest.mark.parametrize(
    "data",
    [
        b"(a (nested) string) Tj",  # nested brackets
        b"% a comment\n0 0 m",
        b"/Name#20with#20escapes Do",
        b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x80 EI Q",  # an inline image
        b"(left open",
        b"<414 Tj",
        b"[1 2 3 >> ",  # a bracket closing what it did not open
        b"<< /A >> ",  # a dictionary of an odd count
        b"{ 1 } ",
        b"(back\\\r\nslash CR LF)",
        b"(octal \\777 too big)",
        b"0 0 m /",  # a name begun at the end of the stream
    ],
)
def test_what_the_fast_reading_leaves_to_pdfminer_reads_as_pdfminer_reads_it(data):
    stream = [PDFStream({}, data)]
    try:
        plain = (_all(PDFContentParser(stream), "nexttoken"), _all(PDFContentParser(stream), "nextobject"))
    except Exception as exc:  # pdfminer itself refuses it: so does the fast reading, the same way
        with pytest.raises(type(exc)):
            _all(FastContentParser(stream), "nextobject")
        return
    parser = FastContentParser(stream)
    assert parser._fast is None  # left to pdfminer's parser, from the stream's start
    fast = (_all(FastContentParser(stream), "nexttoken"), _all(parser, "nextobject"))
    assert _same(list(plain), list(fast))


def test_two_streams_of_one_page_read_as_one_sequence():
    streams = [PDFStream({}, b"q 1 0 0 1 5 5 cm"), PDFStream({}, b"(a) Tj Q")]
    plain, fast, parser = _readings(streams)
    assert parser._fast is not None and _same(plain, fast)
    assert [t for _, t in stream_tokens(b"12abc")] == [12, KWD(b"abc")]


@pytest.mark.slow  # every page of every document read twice
def test_pypdf_making_each_font_once_reads_the_same_text(printed):
    """The first pages of every kind of printed document (fonts shared by pages and by the forms
    drawn on them), and with a space width of the caller's own (which pypdf sets on the font it
    made for the page)."""
    import pypdf
    from fastpdf import pypdf_fonts

    def texts(cached: bool) -> list[str]:
        out = []
        with pypdf_fonts(cached=cached):
            for path in printed:
                pages = pypdf.PdfReader(str(path)).pages
                out += [page.extract_text() for page in pages[:3]]
                out.append(pages[0].extract_text(space_width=50.0))
        return out

    cached, plain = texts(True), texts(False)
    assert cached == plain
    assert sum(len(t) for t in cached) > 5_000
