"""Every use of reportlab's private internals, in one place.

reportlab has no public API for a few things the printed documents need: holding pages
back until the document is saved ("page N of M"), running a drawing step just before the
document is written (the statistics appendix), compressing a page's stream as soon as it
is written (long documents), embedding JPEG bytes without decoding them, writing a long
path as raw PDF operators (QR codes), and reading the room left in a platypus frame or
the flowables of a ``KeepTogether``, and drawing the characters a font lacks with a second
font (``FallbackTTFont``: kana and kanji). Each is a small function here, written against the
reportlab versions pinned in ``pyproject.toml``; ``tests/test_render_adapter.py`` checks
that the attributes they rely on are still there, so an upgrade that changes them fails
one clear test instead of printing a wrong PDF.

No other module touches an underscored attribute of a reportlab object.
"""

from __future__ import annotations

import functools
import io
import zlib
from collections.abc import Callable

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfdoc import PDFStream
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

# the private attributes this module relies on, checked by the tests against the installed reportlab
CANVAS_ATTRIBUTES = ("_code", "_doc", "_startPage", "_formsinuse", "_setXObjects", "_currentPageHasImages")
DOC_ATTRIBUTES = ("getXObjectName", "idToObject", "Reference", "addForm", "Pages")
FRAME_ATTRIBUTES = ("_y", "_y1p")


def run_before_save(c, extra: Callable[[], None]) -> None:
    """Call ``extra()`` once when ``c.save()`` is called, before the document is written."""
    save = c.save

    def save_with_extra():
        c.save = save
        extra()
        save()

    c.save = save_with_extra


class HeldPagesCanvas(Canvas):
    """A Canvas that holds its pages back until ``save`` and then calls ``stamp(canvas, n, total)``
    on each page before writing it (see :func:`held_pages_canvas_class`)."""

    def __init__(self, *args, stamp: Callable, **kwargs):
        super().__init__(*args, **kwargs)
        self.stamp = stamp
        self._held_pages: list[dict] = []
        self.page_number_at = None  # (x, y, size) in points, set by the footer
        self.held_marks: list = []  # bookmarks and outline entries of the page being drawn

    # a page's destination exists only once the page is written: both wait for it
    def bookmarkPage(self, key, **kw):
        self.held_marks.append(("bookmark", key, kw))

    def addOutlineEntry(self, title, key, level=0, closed=None):
        self.held_marks.append(("outline", key, {"title": title, "level": level, "closed": closed}))

    def showPage(self):
        state = dict(self.__dict__)
        del state["_held_pages"]
        code = self._code
        state["_code"] = zlib.compress("\n".join(code).encode("utf-8", "surrogatepass"), 1) if code else None
        self._held_pages.append(state)
        self._startPage()
        self.page_number_at = None
        self.held_marks = []

    def save(self):
        held, self._held_pages = self._held_pages, []
        total = len(held)
        held.reverse()
        for n in range(1, total + 1):
            state = held.pop()  # the held copy goes as the page is written
            code = state["_code"]
            state["_code"] = [zlib.decompress(code).decode("utf-8", "surrogatepass")] if code else []
            self.__dict__.update(state)
            del state
            self.stamp(self, n, total)
            for kind, key, kw in self.held_marks:
                if kind == "bookmark":
                    Canvas.bookmarkPage(self, key, **kw)
                else:
                    Canvas.addOutlineEntry(self, kw["title"], key, kw["level"], kw["closed"])
            Canvas.showPage(self)
            compress_page_now(self._doc.Pages.pages[-1])
        Canvas.save(self)


def held_pages_canvas_class(stamp: Callable) -> Callable[..., HeldPagesCanvas]:
    """What makes a Canvas that holds its pages back until ``save`` and then calls
    ``stamp(canvas, n, total)`` on each page before writing it (e.g. "page N of M"), called as
    the Canvas class is (a document's ``canvasmaker``).

    A page held back is its drawing operators as one compressed string (a long document
    holds thousands of pages, each thousands of small strings otherwise); each page's
    stream is compressed as soon as it is written.
    """
    return functools.partial(HeldPagesCanvas, stamp=stamp)


class _Flated:
    """A page stream compressed already (as reportlab's FlateDecode filter would at the end)."""

    pdfname = "FlateDecode"

    def encode(self, data):
        return data


def compress_page_now(page) -> None:
    """Compress a written page's stream now rather than when the document is saved (the same
    bytes: reportlab compresses each page stream with ``zlib.compress`` of its UTF-8 text), so
    a long document does not hold every page's text until the end."""
    stream = getattr(page, "stream", None)
    if not (
        getattr(page, "compression", 0)
        and isinstance(stream, str)
        and stream
        and not rl_config.useA85
        and not page.Contents
        and not page.Override_default_compilation
    ):
        return
    contents = PDFStream(content=zlib.compress(stream.encode("utf8")), filters=[_Flated()])
    contents.__Comment__ = "page stream"
    page.Contents = contents
    page.stream = None


def draw_jpeg_unit(c, name: str, data: bytes) -> bool:
    """Draw JPEG ``data`` into the unit square, embedding the bytes as they are (DCTDecode).
    False when the bytes are not a JPEG reportlab can embed.

    reportlab's ``drawImage`` would decode an in-memory JPEG again only to name it; the
    image XObject is registered here under a name derived from the bytes instead, exactly
    as ``drawImage`` registers one read from a file.
    """
    reg = c._doc.getXObjectName(name)
    if c._doc.idToObject.get(reg) is None:
        obj = pdfdoc.PDFImageXObject(name)
        if not obj.loadImageFromJPEG(io.BytesIO(data)):
            return False
        obj.name = name
        c._setXObjects(obj)
        c._doc.Reference(obj, reg)
        c._doc.addForm(name, obj)
    c._currentPageHasImages = 1
    c._code.append(f"/{reg} Do")
    c._formsinuse.append(name)  # lists the image in the resources of the form or page
    return True


def append_operators(c, ops: str) -> None:
    """Raw PDF page operators (e.g. thousands of ``re`` rectangles and one ``f``): reportlab's
    path objects format each number in Python, ten times slower for a QR code."""
    c._code.append(ops)


def frame_room(frame) -> float:
    """The height (points) left in a platypus ``Frame``."""
    return frame._y - frame._y1p


def kept_flowables(keep) -> list:
    """The flowables a platypus ``KeepTogether`` holds."""
    return list(keep._content)


def share_frame(src, dst) -> None:
    """Give flowable ``dst`` the frame platypus set on ``src`` (a flowable split on behalf of another)."""
    dst._frame = getattr(src, "_frame", None)


def adopt_state(dst, src) -> None:
    """Make ``dst`` (a subclass instance) take over everything ``src`` holds, e.g. a parsed
    platypus ``Paragraph``'s fragments, without parsing it again."""
    dst.__dict__.update(src.__dict__)


class FallbackTTFont(TTFont):
    """A TrueType font that draws the characters it lacks with a second font (its ``fallback``,
    loaded on first need), so a name in kana or kanji set in the body font prints as glyphs.

    reportlab draws TrueType text chunk by chunk: ``splitString`` cuts a string into
    ``(subset, bytes)`` chunks and the text object selects each new subset by the name
    ``getSubsetInternalName`` gives it (it compares subsets with ``!=`` only). Here a run of
    characters the font lacks but the fallback has becomes chunks whose subset is
    ``(FALLBACK, n)``, named after the fallback's own subsets: the fallback font is embedded
    (subset) only in a document that draws one of its characters, and a text of the font's own
    characters gives exactly the chunks of a plain ``TTFont``.
    """

    FALLBACK = "fallback"

    def __init__(self, name: str, filename: str, fallback: Callable[[], TTFont]):
        super().__init__(name, filename)
        self._load_fallback = fallback
        self._own = self.face.charToGlyph

    def fallback(self) -> TTFont:
        return self._load_fallback()

    def _runs(self, text: str) -> list[tuple[bool, str]]:
        """``text`` as runs of (drawn by the fallback, characters)."""
        own = self._own
        runs: list[tuple[bool, str]] = []
        other = None
        for ch in text:
            code = ord(ch)
            borrowed = code not in own and code != 0xA0
            if borrowed:
                if other is None:
                    other = self.fallback().face.charToGlyph
                borrowed = code in other
            if runs and runs[-1][0] == borrowed:
                runs[-1] = (borrowed, runs[-1][1] + ch)
            else:
                runs.append((borrowed, ch))
        return runs

    def _all_own(self, text: str) -> bool:
        own = self._own
        return text.isascii() or all(ord(ch) in own or ch == "\xa0" for ch in text)

    def splitString(self, text, doc, encoding="utf-8"):
        if not isinstance(text, str):
            text = text.decode(encoding)
        if self._all_own(text):
            return super().splitString(text, doc, encoding)
        out: list = []
        for borrowed, run in self._runs(text):
            if borrowed:
                out.extend(((self.FALLBACK, n), chunk) for n, chunk in self.fallback().splitString(run, doc, encoding))
            else:
                out.extend(super().splitString(run, doc, encoding))
        return out

    def getSubsetInternalName(self, subset, doc):
        if isinstance(subset, tuple):
            return self.fallback().getSubsetInternalName(subset[1], doc)
        return super().getSubsetInternalName(subset, doc)

    def stringWidth(self, text, size, encoding="utf8"):
        if not isinstance(text, str):
            text = text.decode(encoding)
        if self._all_own(text):
            return super().stringWidth(text, size, encoding)
        total = 0.0
        for borrowed, run in self._runs(text):
            total += (
                self.fallback().stringWidth(run, size, encoding)
                if borrowed
                else super().stringWidth(run, size, encoding)
            )
        return total
