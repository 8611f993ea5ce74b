"""Machine output a person's tools read safely: spreadsheet cells and JSON text."""

from __future__ import annotations

import json

import pytest

from builder.safeout import from_spreadsheet, json_text, spreadsheet_cell, spreadsheet_text


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=SUM(1)", "'=SUM(1)"),
        ("+1/0/0", "'+1/0/0"),
        ("-2", "'-2"),
        ("@SUM(1)", "'@SUM(1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("'=1", "''=1"),  # an apostrophe already there gets one more, so it reads back
        ("Plain - name", "Plain - name"),
        ("'quoted'", "'quoted'"),
        ("", ""),
        ("'", "'"),
    ],
)
def test_formula_text_gets_one_apostrophe_and_reads_back_as_it_was(text, cell):
    assert spreadsheet_text(text) == cell
    assert from_spreadsheet(cell) == text


def test_numbers_and_other_values_stay_as_they_are():
    assert spreadsheet_cell(-2) == -2 and spreadsheet_cell(-1.5) == -1.5 and spreadsheet_cell(None) is None
    assert spreadsheet_cell("-2") == "'-2"


@pytest.mark.parametrize(
    "ch", ["\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\x85", "\x9b", "\x7f", "\u2028"]
)
def test_json_text_writes_controls_as_escapes_and_loads_back_the_same(ch):
    data = {"name": f"Evil{ch}gnp.exe", "ja": "武家", "list": [f"{ch}x"]}
    text = json_text(data, indent=2)
    assert ch not in text
    assert f"\\u{ord(ch):04x}" in text
    assert "武家" in text  # other non-ASCII text stays readable
    assert json.loads(text) == data
