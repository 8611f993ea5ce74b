"""The limits that protect the machine and the user, in one place.

Each limit is named in the error that enforces it and listed, with its value, in the
limits paragraph of docs/tour.md. Nothing here imports anything heavy.
"""

from __future__ import annotations

import math

from builder.errors import UsageError
from builder.i18n import L_

# Any number a list, a pack or a shared list holds (points, counts, models, sizes,
# house-rule values): no game needs more, and beyond it arithmetic would overflow.
MAX_NUMBER = 1_000_000

# Levels of nesting of a YAML or JSON document (mappings in lists in mappings ...).
MAX_DEPTH = 100

# Bytes of one list, pack or shared-list file (a list of 100,000 entries is about 3 MB).
MAX_FILE_BYTES = 16 * 1024 * 1024

# Values in one list document: every key, name, number and entry counts one (a Kensei troop
# written as "- troop: NAME" with "models: N" is five). A list of 100,000 troops fits.
MAX_VALUES = 1_000_000

# Lines of a pasted text or Markdown list (entries, headers and keys): read in well under a
# second; a bigger list is shared as YAML, JSON or a share code.
MAX_TEXT_LINES = 10_000

# What a share code's compressed body may expand to: at most this many times its own size, and
# never less than the floor (a list of thousands of entries). A short code of a huge repetitive
# list (a zip bomb) is refused before it is read; such a list is shared as YAML or JSON.
MAX_CODE_EXPANSION = 100
MIN_CODE_BODY = 64 * 1024

# A link to a list (``BASE/v/CODE``) and the share code a viewer reads from one: longer codes are
# refused before they are decoded (web servers and browsers cut addresses of about 8 KB), and a
# code's body may expand to at most MAX_VIEWER_BODY bytes there (a list of thousands of entries).
MAX_LINK_CHARS = 8 * 1024
MAX_VIEWER_CODE_CHARS = 7 * 1024
MAX_VIEWER_BODY = 64 * 1024

# Paper sizes accepted by print and aid, in millimetres (each side).
MIN_PAPER_MM = 50.0
MAX_PAPER_MM = 2000.0

#: entries a pack (or a catalog file) holds, every section together: reading, checking and
#: installing cost time and memory in proportion to the entries (about 9 MB and a fifth of a
#: second per thousand), so a pack at this bound is read in about a second and 60 MB more; a
#: file past it is refused before it is built, by a count that holds no more than one value
MAX_PACK_ENTRIES = 5_000
#: and the values of a pack in all (names, numbers, texts, lists: 40 an entry on average)
MAX_PACK_VALUES = 200_000

# Downloads of pack registries (``daimyo pack search|install|update``): an index or a pack
# file of at most this many bytes (the size of a pack file), each network read given up
# after this many seconds of silence and a whole download after the second figure, and at
# most this many redirects followed (a loop is refused at once).
MAX_DOWNLOAD_BYTES = MAX_FILE_BYTES
DOWNLOAD_TIMEOUT_SECONDS = 20.0
DOWNLOAD_TOTAL_SECONDS = 120.0
MAX_REDIRECTS = 5
#: packs one install brings: the pack and the packs it needs, and those they need
MAX_PACKS_PER_INSTALL = 50
#: pack versions a registry's index lists (reading one costs about half a second and 7 MB a
#: thousand), counted before it is read as a pack's entries are
MAX_INDEX_ENTRIES = 5_000
#: pack files ``pack index`` reads and checks in one registry folder: each is checked with its
#: game's catalog (11 ms a pack on an idle core, 74 ms under a load of 10: benchmarks/bench_registry.py),
#: so 2,000 take from 20 s to 2.5 min; a club's registry holds tens, and the index written stays well
#: under MAX_INDEX_ENTRIES, which its readers accept
MAX_INDEX_PACKS = 2_000
#: names (files and folders) ``pack index`` and ``pack publish`` look at in a registry folder, 3
#: folders deep: 2,000 packs with a few images of art each fit, and a folder such as / given by
#: mistake is refused in 0.3 s of CPU (the command's start included) instead of read to the end
MAX_INDEX_FILES = 20_000

# Bytes an .xlsx workbook (a zip) may unpack to, by the sizes it declares (read before anything is
# unpacked, so a zip bomb of a few kilobytes is refused): as much as a pack file may hold.
MAX_SHEET_UNPACKED = MAX_FILE_BYTES

# Pixels of one image printed on a card (a 300 dpi A3 poster has 17.4 million).
MAX_IMAGE_PIXELS = 50_000_000

# Bytes of one image a pack carries (a 300 dpi card's art is well under 2 MiB as a JPEG), and the
# images one pack may name.
MAX_ART_BYTES = 16 * 1024 * 1024
MAX_ART_FILES = 1_000


def number_problem(value) -> str | None:
    """Why ``value`` is not an acceptable number, or None (booleans and non-numbers pass)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        if -MAX_NUMBER <= value <= MAX_NUMBER:
            return None
        return f"number out of range: {_short(value)} ({range_text()})"
    if isinstance(value, float):
        if math.isfinite(value) and -MAX_NUMBER <= value <= MAX_NUMBER:
            return None
        return f"number out of range: {_short(value)} ({range_text()})"
    return None


def _short(value) -> str:
    if isinstance(value, int) and abs(value) > 10**40:
        if value.bit_length() < 13000:  # fewer than 4,000 digits: Python writes them out
            return f"a number of {len(str(abs(value))):,} digits"
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1:,} digits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def range_text() -> str:
    return f"numbers go from -{MAX_NUMBER:,} to {MAX_NUMBER:,}"


def long_integer_problem(text: str) -> str | None:
    """Why the integer written as ``text`` is refused before it is converted, or None."""
    if not integer_text_too_long(text):
        return None
    digits = len(text.lstrip("+-").replace("_", ""))
    return f"number out of range: a number of {digits:,} digits ({range_text()})"


def integer_text_too_long(text: str) -> bool:
    """Whether the digits of an integer written as ``text`` are far outside the number range
    (checked before converting: Python refuses to convert more than 4,300 digits)."""
    digits = text.lstrip("+-").replace("_", "")
    return len(digits) > 30


def first_bad_number(data, path: tuple = ()):
    """``(path, message)`` of the first number in ``data`` outside the range, or None."""
    stack = [(path, data)]
    while stack:
        p, v = stack.pop()
        if isinstance(v, dict):
            stack.extend((p + (k,), x) for k, x in reversed(list(v.items())))
            for k in v:
                why = number_problem(k)
                if why:
                    return p + (k,), why
        elif isinstance(v, list):
            stack.extend((p + (i,), x) for i, x in reversed(list(enumerate(v))))
        else:
            why = number_problem(v)
            if why:
                return p, why
    return None


def values_over(data, limit: int = MAX_VALUES) -> bool:
    """Whether ``data`` holds more than ``limit`` values (keys, items and scalars); stops early."""
    left = limit
    stack = [data]
    while stack:
        v = stack.pop()
        left -= 1
        if isinstance(v, dict):
            left -= len(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        if left < 0:
            return True
    return False


def too_many_values_message(what: str = "the list") -> str:
    return f"{what} holds more than {MAX_VALUES:,} values (names, numbers and entries)"


def whole_between(value, what: str, low: int, high: int) -> int:
    """``value`` (a form's or the command line's word) as a whole number from ``low`` to
    ``high``; a ``UsageError`` naming ``what`` otherwise."""
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        raise UsageError(L_("{what} must be a whole number, not '{value}'", what=what, value=value)) from None
    if not low <= n <= high:
        raise UsageError(L_("{what} must be between {low} and {high}, not {n}", what=what, low=low, high=high, n=n))
    return n
