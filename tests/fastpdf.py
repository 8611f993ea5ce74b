"""A faster reading of PDF content streams for the tests that read printed pages back.

pdfminer (under pdfplumber) reads a page's content stream one token at a time through a state
machine of its own, in pure Python: most of the time of reading a page back. ``FastContentParser``
gives pdfminer's interpreter the same tokens (the same values, positions and order) from one
regular expression over each whole stream. Only what daimyo's PDFs hold is read this way:
numbers, names, operators, strings without nested brackets, hex strings, arrays and
dictionaries. A stream holding anything else (a comment, an inline image, a ``#`` escape in a
name, nested brackets in a string, a string or hex string left open at the end of a stream...)
is read by pdfminer's own parser from its start, as before.

pdfplumber then turns every object of the page into a dict, one attribute at a time through a
recursive resolver, which takes about as long as reading the page. ``process_object`` makes the
same dicts (the same keys in the same order, the same values) with the plain values (numbers,
text, and tuples of them) taken as they are.

``install()`` puts both in place for the test process (``tests/conftest.py``);
``DAIMYO_TEST_PDFMINER=plain`` leaves pdfminer and pdfplumber as they are. ``tests/test_fastpdf.py``
compares the two readings, token by token and object by object, over the PDFs daimyo prints.
"""

from __future__ import annotations

import os
import re

from pdfminer import psparser
from pdfminer.pdfinterp import PDFContentParser
from pdfminer.pdftypes import stream_value
from pdfminer.psparser import KWD, LIT, PSEOF

_TOKEN = re.compile(
    rb"""
     (?P<ws>[\s\x00]+)
    |(?P<num>[-+0-9][0-9]*(?:\.[0-9]*)?|\.[0-9]*)
    |(?P<badlit>/[^#/%\[\]()<>{}\s]*\#)
    |/(?P<lit>[^#/%\[\]()<>{}\s]*)
    |(?P<kw>[A-Za-z][^#/%\[\]()<>{}\s]*)
    |\((?P<str>(?:[^()\\]|\\[^\r])*)\)
    |(?P<dict><<|>>)
    |<(?P<hex>[0-9a-fA-F\s]*)>(?!>)
    |(?P<bad>[(<>%])
    |(?P<one>.)
    """,
    re.X | re.S,
)
_OCTAL = re.compile(rb"\\([0-7]{1,3})|\\(.)", re.S)
_TRUE, _FALSE = b"true", b"false"
_BI = KWD(b"BI")


class _Unread(Exception):
    """A stream holds what the fast reading leaves to pdfminer's own parser."""


def _unescape(body: bytes) -> bytes:
    """A literal string's bytes as pdfminer reads them: ``\\ddd`` (one to three octal digits), the
    escapes of ``ESC_STRING``, and any other escaped character dropped."""
    if b"\\" not in body:
        return body

    def one(m: re.Match) -> bytes:
        if m.group(1) is not None:
            code = int(m.group(1), 8)
            if code > 255:
                raise _Unread
            return bytes((code,))
        esc = psparser.ESC_STRING.get(m.group(2))
        return b"" if esc is None else bytes((esc,))

    return _OCTAL.sub(one, body)


def stream_tokens(data: bytes) -> list[tuple[int, object]]:
    """The tokens of one content stream as pdfminer's parser gives them: (position, token)."""
    out: list[tuple[int, object]] = []
    add = out.append
    for m in _TOKEN.finditer(data):
        kind = m.lastgroup
        if kind == "ws":
            continue
        pos = m.start()
        if kind == "num":
            text = m.group()
            try:
                add((pos, float(text) if b"." in text else int(text)))
            except ValueError:
                pass  # a lone sign or point: pdfminer drops it too
        elif kind == "kw":
            text = m.group()
            if text == _TRUE:
                add((pos, True))
            elif text == _FALSE:
                add((pos, False))
            else:
                token = KWD(text)
                if token is _BI:
                    raise _Unread
                add((pos, token))
        elif kind == "lit":
            name = m.group("lit")
            try:
                add((pos, LIT(str(name, "utf-8"))))
            except UnicodeDecodeError:
                add((pos, LIT(name)))
        elif kind == "str":
            add((pos, _unescape(m.group("str"))))
        elif kind == "dict":
            add((pos, psparser.KEYWORD_DICT_BEGIN if m.group() == b"<<" else psparser.KEYWORD_DICT_END))
        elif kind == "hex":
            body = psparser.SPC.sub(b"", m.group("hex"))
            add((pos, psparser.HEX_PAIR.sub(lambda h: bytes((int(h.group(0), 16),)), body)))
        elif kind == "one":
            add((pos, KWD(m.group())))
        else:  # badlit, bad
            raise _Unread
    return out


def stream_objects(tokens: list[tuple[int, object]]) -> list[tuple[int, object]]:
    """The objects pdfminer's ``nextobject`` makes of these tokens, in its order: each token
    outside an array or dictionary as it is, an array as the list of its objects and a dictionary
    as a dict, at the position of its opening bracket."""
    results: list[tuple[int, object]] = []
    context: list[tuple[int, str | None, list]] = []
    curtype: str | None = None
    cur: list[tuple[int, object]] = []
    for pos, token in tokens:
        if token is psparser.KEYWORD_ARRAY_BEGIN or token is psparser.KEYWORD_DICT_BEGIN:
            context.append((pos, curtype, cur))
            curtype, cur = ("a" if token is psparser.KEYWORD_ARRAY_BEGIN else "d"), []
        elif token is psparser.KEYWORD_ARRAY_END or token is psparser.KEYWORD_DICT_END:
            kind = "a" if token is psparser.KEYWORD_ARRAY_END else "d"
            if curtype != kind:
                raise _Unread  # a bracket closing what it did not open
            objs = [obj for _, obj in cur]
            start, curtype, cur = context.pop()
            if kind == "a":
                cur.append((start, objs))
            else:
                if len(objs) % 2:
                    raise _Unread
                pairs = zip(objs[0::2], objs[1::2], strict=True)
                cur.append((start, {psparser.literal_name(k): v for k, v in pairs if v is not None}))
        elif token is psparser.KEYWORD_PROC_BEGIN or token is psparser.KEYWORD_PROC_END:
            raise _Unread
        else:
            cur.append((pos, token))
        if not context:
            results.extend(cur)
            cur = []
    if context:
        raise _Unread  # an array or dictionary left open at the end
    return results


class FastContentParser(PDFContentParser):
    """pdfminer's content parser whose tokens come from :func:`stream_tokens` where it can."""

    def __init__(self, streams) -> None:
        super().__init__(streams)
        self._fast: list[tuple[int, object]] | None = None
        self._objects: list[tuple[int, object]] = []
        self._next = 0
        self._next_object = 0
        try:
            tokens: list[tuple[int, object]] = []
            for s in streams:
                data = stream_value(s).get_data()
                if data.endswith(b"/"):  # a name begun at a stream's end runs on into the next
                    raise _Unread
                tokens.extend(stream_tokens(data))
            self._fast = tokens
            self._objects = stream_objects(tokens)
        except Exception:  # _Unread, or a stream pdfminer's parser will say more of
            self._fast = None

    def nexttoken(self):
        fast = self._fast
        if fast is None:
            return super().nexttoken()
        i = self._next
        if i >= len(fast):
            self.eof = True
            raise PSEOF("Unexpected EOF")
        self._next = i + 1
        return fast[i]

    def nextobject(self):
        if self._fast is None:
            return super().nextobject()
        i = self._next_object
        if i >= len(self._objects):
            self.eof = True
            raise PSEOF("Unexpected EOF")
        self._next_object = i + 1
        return self._objects[i]


#: the types whose values pdfplumber's resolver gives back unchanged
_PLAIN = frozenset({float, int, str, bool, type(None)})
#: an object's kind by its class: ``LTChar`` is "char" (pdfplumber's own naming)
_KINDS: dict[type, str] = {}
#: colour space names as pdfplumber decodes them (a handful per document)
_NAMES: dict[str, str] = {}


def process_object(page, obj) -> dict:
    """pdfplumber's ``Page.process_object`` (pdfplumber 0.11): the dict of one layout object."""
    from pdfminer.layout import LTChar, LTCurve, LTTextContainer
    from pdfplumber.page import ALL_ATTRS, fix_fontname_bytes, normalize_unicode, resolve_all, resolve_and_decode

    cls = obj.__class__
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = re.sub(r"^LT", "", cls.__name__).lower()
    attr: dict = {}
    for k, v in obj.__dict__.items():
        if k in ALL_ATTRS:
            t = type(v)
            if t in _PLAIN or (t is tuple and all(type(x) in _PLAIN for x in v)):
                attr[k] = v  # what the resolver gives: the value itself, or an equal tuple
            else:
                attr[k] = resolve_all(v)
    attr["object_type"] = kind
    attr["page_number"] = page.page_number
    for cs in ("ncs", "scs"):
        if hasattr(obj, cs):
            name = getattr(obj, cs).name
            if type(name) is str:  # a colour space's name, decoded once
                decoded = _NAMES.get(name)
                if decoded is None:
                    decoded = _NAMES[name] = resolve_and_decode(name)
                attr[cs] = decoded
            else:
                attr[cs] = resolve_and_decode(name)
    if isinstance(obj, (LTChar, LTTextContainer)):
        text = obj.get_text()
        norm = page.pdf.unicode_norm
        attr["text"] = normalize_unicode(norm, text) if norm is not None else text
    if isinstance(obj, LTChar):
        gs = obj.graphicstate
        attr["stroking_color"] = gs.scolor if isinstance(gs.scolor, tuple) else (gs.scolor,)
        attr["non_stroking_color"] = gs.ncolor if isinstance(gs.ncolor, tuple) else (gs.ncolor,)
        if isinstance(attr["fontname"], bytes):
            attr["fontname"] = fix_fontname_bytes(attr["fontname"])
    elif isinstance(obj, LTCurve):
        attr["pts"] = [page.point2coord(pt) for pt in attr["pts"]]
        attr["path"] = [(cmd, *map(page.point2coord, pts)) for cmd, *pts in obj.original_path]
        attr["dash"] = obj.dashing_style
    mb_x0, mb_top = page.mediabox[:2]
    if "y0" in attr:
        height = page.height
        attr["top"] = (height - attr["y1"]) + mb_top
        attr["bottom"] = (height - attr["y0"]) + mb_top
        attr["doctop"] = page.initial_doctop + attr["top"]
    if "x0" in attr and mb_x0 != 0:
        attr["x0"] = attr["x0"] + mb_x0
        attr["x1"] = attr["x1"] + mb_x0
    return attr


_ORIGINAL: list = []  # pdfplumber's own Page.process_object, once replaced


def original_process_object():
    """pdfplumber's own ``Page.process_object``, whether or not :func:`install` replaced it."""
    import pdfplumber.page

    return _ORIGINAL[0] if _ORIGINAL else pdfplumber.page.Page.process_object


def install() -> None:
    """pdfminer's interpreter reads content streams with :class:`FastContentParser`, and
    pdfplumber makes its objects' dicts with :func:`process_object`, in this process (the
    latter for the pdfplumber it was written from: 0.11)."""
    if os.environ.get("DAIMYO_TEST_PDFMINER") == "plain":
        return
    import pdfminer.pdfinterp
    import pdfplumber
    import pdfplumber.page

    pdfminer.pdfinterp.PDFContentParser = FastContentParser  # type: ignore[misc]
    if pdfplumber.__version__.startswith("0.11.") and not _ORIGINAL:
        _ORIGINAL.append(pdfplumber.page.Page.process_object)
        pdfplumber.page.Page.process_object = process_object  # type: ignore[method-assign]
