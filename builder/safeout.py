"""Machine output a person's tools read safely: spreadsheet cells and JSON text.

A spreadsheet program runs a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return as a formula; every CSV and XLSX daimyo writes passes its text cells through
``spreadsheet_cell``, which puts a leading ``'`` before them (the OWASP convention: the program
shows the cell as text). ``from_spreadsheet`` takes that one apostrophe off again, so that a
sheet daimyo wrote reads back exactly (``daimyo pack import``, ``daimyo collection import``).
A text that already starts with apostrophes before one of those characters gets one more, so
that it too reads back as it was. Numbers (int and float values) stay numbers.

JSON is written by ``json_text``: the non-ASCII text stays as it is (a Japanese name is
readable), but the characters a terminal or a log viewer would act on (C1 controls, DEL, the
bidirectional controls that reorder what follows them, the line and paragraph separators) are
written as ``\\uXXXX`` escapes: the JSON still loads back to the same strings.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

__all__ = ["FORMULA_START", "CsvRows", "from_spreadsheet", "json_text", "spreadsheet_cell", "spreadsheet_text"]

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _formula_like(text: str) -> bool:
    """Whether a spreadsheet would take ``text`` as a formula once one ``'`` is taken off it:
    it starts with a formula character, after any number of apostrophes."""
    rest = text.lstrip("'")
    return rest[:1] in FORMULA_START


def spreadsheet_text(text: str) -> str:
    """``text`` as a spreadsheet's text cell: with one more leading ``'`` when it starts with a
    formula character (after any apostrophes)."""
    return "'" + text if _formula_like(text) else text


def spreadsheet_cell(value: Any) -> Any:
    """A cell value for a CSV or XLSX writer: text through ``spreadsheet_text``; numbers (and
    anything that is not text) as they are."""
    return spreadsheet_text(value) if isinstance(value, str) else value


def from_spreadsheet(text: str) -> str:
    """The text of a cell ``spreadsheet_text`` wrote: one leading ``'`` before a formula
    character (after any further apostrophes) taken off; any other text as it is."""
    if text[:1] == "'" and _formula_like(text[1:]):
        return text[1:]
    return text


class CsvRows:
    """CSV rows ended by ``\\n`` that read back as written: a row with a carriage return in a cell
    has every cell quoted (the csv module quotes only the characters of its own line ending, and a
    reader ends a line at a bare carriage return). Cells are written as given: pass text through
    ``spreadsheet_cell`` first."""

    def __init__(self, out: TextIO) -> None:
        self.plain = csv.writer(out, lineterminator="\n")
        self.quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)

    def writerow(self, row: Iterable[Any]) -> None:
        cells = list(row)
        cr = any(isinstance(c, str) and "\r" in c for c in cells)
        (self.quoted if cr else self.plain).writerow(cells)

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


# C1 controls and DEL (json.dumps escapes C0 itself), the bidirectional marks, embeddings,
# overrides and isolates, and the line and paragraph separators
_JSON_ESCAPES = {
    c: f"\\u{c:04x}"
    for c in [*range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x2028, 0x202F), *range(0x2066, 0x206A)]
}


def json_text(
    data: Any,
    *,
    indent: int | None = None,
    sort_keys: bool = False,
    separators: tuple[str, str] | None = None,
    default: Callable[[Any], Any] | None = None,
) -> str:
    """``data`` as JSON text for a person's terminal, log or browser: non-ASCII text kept, the
    characters that would reorder or hide what is shown written as ``\\uXXXX``. Those characters
    can only occur inside JSON strings, where the escape means the same character."""
    text = json.dumps(
        data, ensure_ascii=False, indent=indent, sort_keys=sort_keys, separators=separators, default=default
    )
    return text.translate(_JSON_ESCAPES)
