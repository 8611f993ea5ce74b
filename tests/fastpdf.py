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
recursive resolver, which takes about as long as reading the page. ``resolve_all`` gives it the
plain values (numbers, text, and tuples of them) back at once, and ``resolve_and_decode`` decodes
each colour space's name once: the same dicts, in half the time.

pypdf (which other tests read text with) makes a font again for every page and form that uses
it, parsing its character map each time; ``font_from_resource`` makes it once per open PDF.

``install()`` puts these in place for the test process (``tests/conftest.py``);
``DAIMYO_TEST_PDFMINER=plain`` leaves pdfminer, pdfplumber and pypdf as they are.
``tests/test_fastpdf.py`` compares the readings, token by token, object by object and page by
page, over the PDFs daimyo prints.
"""

from __future__ import annotations

import contextlib
import copy
import os
import re

import pdfplumber.page
import pdfplumber.utils
from pdfminer import psparser
from pdfminer.pdfinterp import PDFContentParser
from pdfminer.pdftypes import stream_value
from pdfminer.psparser import KWD, LIT, PSEOF
from pypdf.generic._font import Font

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
#: colour space names as pdfplumber decodes them (a handful per document)
_DECODED: dict[str, object] = {}
#: the libraries' own code that the faster one stands in for
_OWN_RESOLVE_ALL = pdfplumber.utils.resolve_all
_OWN_RESOLVE_AND_DECODE = pdfplumber.utils.resolve_and_decode
_OWN_FONT = vars(Font)["from_font_resource"]
_make_font = Font.from_font_resource


def resolve_all(x):
    """pdfplumber's ``resolve_all``, giving a plain value (a number, text, or a tuple of them)
    back at once: the resolver would give the value itself, or an equal tuple."""
    t = type(x)
    if t in _PLAIN or (t is tuple and all(type(v) in _PLAIN for v in x)):
        return x
    return _OWN_RESOLVE_ALL(x)


def resolve_and_decode(x):
    """pdfplumber's ``resolve_and_decode``, each text decoded once (a colour space's name,
    asked for every character)."""
    if type(x) is not str:
        return _OWN_RESOLVE_AND_DECODE(x)
    decoded = _DECODED.get(x)
    if decoded is None:
        decoded = _DECODED[x] = _OWN_RESOLVE_AND_DECODE(x)
    return decoded


#: the fonts pypdf made of font resources: by the resource's identity, with the resource itself
#: (kept, so that its identity is not given to another), the last few hundred
_FONTS: dict[int, tuple[object, object]] = {}
_FONTS_KEPT = 256


def font_from_resource(font_dict):
    """pypdf's ``Font.from_font_resource``, made once per font resource of an open PDF (pypdf
    makes each font again on every page and form that uses it, parsing its character map each
    time): a copy of the font made the first time, as the caller may set its space width."""
    known = _FONTS.get(id(font_dict))
    if known is None or known[0] is not font_dict:
        known = _FONTS[id(font_dict)] = (font_dict, _make_font(font_dict))
        while len(_FONTS) > _FONTS_KEPT:
            del _FONTS[next(iter(_FONTS))]
    return copy.copy(known[1])


#: what :func:`install` replaces: (where, the name, the library's own, the tests' faster one)
_SWAPS = (
    (pdfplumber.page, "resolve_all", _OWN_RESOLVE_ALL, resolve_all),
    (pdfplumber.page, "resolve_and_decode", _OWN_RESOLVE_AND_DECODE, resolve_and_decode),
    (Font, "from_font_resource", _OWN_FONT, staticmethod(font_from_resource)),
)


@contextlib.contextmanager
def _swapped(names: tuple[str, ...], fast: bool):
    """The faster code (``fast``) or the libraries' own for ``names``, for the time of the block,
    whether or not :func:`install` put the faster code in place (to compare the two)."""
    chosen = [swap for swap in _SWAPS if swap[1] in names]
    before = [vars(where)[name] for where, name, _, _ in chosen]
    for where, name, own, faster in chosen:
        setattr(where, name, faster if fast else own)
    try:
        yield
    finally:
        for (where, name, _, _), was in zip(chosen, before, strict=True):
            setattr(where, name, was)


def resolvers(fast: bool):
    """pdfplumber with the faster resolvers (``fast``) or with its own, for the block."""
    return _swapped(("resolve_all", "resolve_and_decode"), fast)


def pypdf_fonts(cached: bool):
    """pypdf making each font once per resource (``cached``) or every time, for the block."""
    return _swapped(("from_font_resource",), cached)


def install() -> None:
    """pdfminer's interpreter reads content streams with :class:`FastContentParser`, pdfplumber
    makes its objects' dicts with :func:`resolve_all` and :func:`resolve_and_decode`, and pypdf
    its fonts with :func:`font_from_resource`, in this process."""
    if os.environ.get("DAIMYO_TEST_PDFMINER") == "plain":
        return
    import pdfminer.pdfinterp

    pdfminer.pdfinterp.PDFContentParser = FastContentParser  # type: ignore[misc]
    for where, name, own, faster in _SWAPS:
        if vars(where).get(name) is own:  # the library's own, not replaced yet
            setattr(where, name, faster)
