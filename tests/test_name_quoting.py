"""A name holding a quote, a line break, a carriage return and a tab is quoted unambiguously, on
one line, on every face that prints it among words of its own: the check header, the diff
header, the book's title and contents, the event's verify and submit lines; CSV and JSON carry
it as it is."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from builder.names import quoted

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
# a list name that, printed bare between quotes, reads as the end of the name and a verdict
NAME = 'Buke": legal (0 errors, 0 warnings) x\n\r\ty'
SHOWN = '"Buke\\": legal (0 errors, 0 warnings) x\\n\\r\\ty"'


def named(path: Path, name: str = NAME) -> Path:
    text = (EXAMPLES / "kensei-buke.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^name: .*$", lambda m: "name: " + json.dumps(name), text)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_helper_escapes_quotes_backslashes_and_every_control_character():
    assert quoted(NAME) == SHOWN
    assert quoted("Northern host") == '"Northern host"'
    assert quoted('a\\"b') == '"a\\\\\\"b"'  # a backslash cannot undo the escape of a quote
    assert (
        quoted("a\x1b[31mb\x00\x7f\x85\u2028\u2029\u202e")
        == '"a\\u001b[31mb\\u0000\\u007f\\u0085\\u2028\\u2029\\u202e"'
    )
    for text in (NAME, 'a\\"b', "\x1b\u2028", "plain"):
        shown = quoted(text)
        assert "\n" not in shown and "\r" not in shown and "\t" not in shown
        assert json.loads(shown) == text  # read back exactly: nothing is ambiguous


def test_check_header_is_one_line_with_the_name_quoted(cli, tmp_path):
    f = named(tmp_path / "army.yaml")
    r = cli("check", f)
    assert r.code == 0, r
    head = r.stdout.splitlines()[0]
    assert head == f"{f}: kensei {SHOWN}: legal (0 errors, 0 warnings)"
    assert head.count(": legal (") == 1 + NAME.count(": legal (")  # the name's own words stay inside its quotes
    assert not any(ln.startswith(("x", "\r", "\ty")) for ln in r.stdout.splitlines())


def test_check_csv_and_json_carry_the_name_as_written(cli, tmp_path):
    f = named(tmp_path / "army.yaml")
    from builder.errors import safe_terminal

    rows = list(csv.reader(io.StringIO(cli("check", f, "--format", "csv").stdout, newline="")))
    # one record: the name is one quoted cell (its carriage return written \r, as on any terminal)
    assert len(rows) == 2 and rows[1][2] == safe_terminal(NAME) and rows[1][3:5] == ["yes", "legal"]
    assert json.loads(cli("check", f, "--format", "json").stdout)[0]["name"] == NAME


def test_diff_header_quotes_the_names(cli, tmp_path):
    a = named(tmp_path / "a.yaml")
    b = named(tmp_path / "b.yaml", "Plain")
    lines = cli("diff", a, b).stdout.splitlines()
    assert lines[0].startswith(f"--- {a}: kensei {SHOWN}, ")
    assert lines[1].startswith(f'+++ {b}: kensei "Plain", ')


def test_book_title_and_contents_quote_the_name(cli, tmp_path):
    from pypdf import PdfReader

    short = 'x"\n\r\ty'  # short enough for the contents' column
    f = named(tmp_path / "army.yaml", short)
    out = tmp_path / "book.pdf"
    r = cli("print", f, "--book", "-o", out)
    assert r.code == 0, r
    pages = [p.extract_text() for p in PdfReader(str(out)).pages]
    assert '"x\\"\\n\\r\\ty"' in pages[0]  # the contents
    assert '1. "x\\"\\n\\r\\ty"' in pages[1]  # the list's title


def test_event_submit_verify_and_export_quote_the_player(cli, tmp_path):
    pytest.importorskip("uvicorn")
    pytest.importorskip("sqlalchemy")
    from test_event import Server  # the event server in a thread of this process

    player = 'Bo": version 2: legal'  # a player's name is one line already; a quote is left
    folder = str(tmp_path / "league")
    assert cli("event", "new", folder, "--name", "League", "--system", "kensei").code == 0
    r = cli("event", "players", folder, "--add", player, "--format", "csv")
    row = next(csv.DictReader(io.StringIO(r.stdout)))
    assert row["name"] == player
    server = Server(folder)
    url = server.url
    try:
        bad = named(tmp_path / "army.yaml")
        bad.write_text(bad.read_text(encoding="utf-8").replace("points: 200", "points: 150"), encoding="utf-8")
        r = cli("event", "submit", url, bad, "--token", row["token"])
        assert r.code == 1, r
        assert r.stdout.splitlines()[0] == '"Bo\\": version 2: legal": version 1: ILLEGAL (1 error), 200/150 AP'
        assert cli("event", "reveal", folder).code == 0
        for source in (url, folder):
            out = cli("event", "verify", source).stdout.splitlines()
            assert out[0].startswith('ok  "Bo\\": version 2: legal" version 1: matches its commitment, fingerprint ')
    finally:
        server.stop()
    rows = list(csv.DictReader(io.StringIO(cli("event", "export", folder).stdout, newline="")))
    assert [x["player"] for x in rows] == [player]
