"""The command line against hostile lists and names: spreadsheet formulas, forged lines,
read-only lists, lists 'check' cannot read, outputs that cannot be written, custom cards."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from pathlib import Path

import pytest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def kensei(path: Path, name: str = "army") -> Path:
    path.write_text(
        f"system: kensei\nname: {json.dumps(name)}\nclan: buke\npoints: 200\ncommander: hatamoto\n"
        "troops:\n  - troop: Taisho Buke\n"
    )
    return path


# -- CSV cells that a spreadsheet would run -----------------------------------------------------------


@pytest.mark.parametrize("lead", ["=", "@", "+", "-", "\t", "\r"])
def test_check_csv_neutralises_formulas(cli, tmp_path, lead):
    name = f'{lead}HYPERLINK("http://evil.example","x")'
    f = kensei(tmp_path / "army.yaml", name)
    evil_file = tmp_path / ((lead if lead in "=@+-" else "x") + "cmd.yaml")
    evil_file.write_text(f.read_text())
    r = cli("check", f, evil_file, "--format", "csv")
    assert r.code == 1, r
    rows = list(csv.reader(io.StringIO(r.stdout)))
    assert rows[1][2].startswith("'") and rows[1][2].endswith(name[1:])  # shown as text, not run
    for row in rows[1:]:
        for cell in row:
            assert cell[:1] not in ("=", "@", "+", "-", "\t", "\r"), row


def test_check_csv_keeps_plain_names_and_numbers(cli, tmp_path):
    f = kensei(tmp_path / "army.yaml", "Plain name - with a dash")
    rows = list(csv.reader(io.StringIO(cli("check", f, "--format", "csv").stdout)))
    assert rows[1][2] == "Plain name - with a dash" and rows[1][5].isdigit()


# -- a line break in a name cannot forge a line of the check ------------------------------------------


@pytest.mark.parametrize("brk", ["\n", "\r", "\u2028", "\u0085", "\r\n"])
def test_a_line_break_in_a_list_name_cannot_forge_the_verdict(cli, tmp_path, brk):
    f = kensei(tmp_path / "army.yaml", f"x{brk}army.yaml: kensei: legal (0 errors, 0 warnings)")
    r = cli("check", f)
    assert r.code == 1
    lines = r.stdout.splitlines()
    assert not any(line.startswith("army.yaml: kensei: legal") for line in lines), lines
    assert "ILLEGAL" in lines[0]


def test_a_line_break_in_a_file_name_cannot_forge_the_verdict(cli, tmp_path):
    f = kensei(tmp_path / "x\nok.yaml: kensei: legal (0 errors, 0 warnings)\ny.yaml")
    r = cli("check", f)
    assert r.code == 1
    assert not any(line.startswith("ok.yaml: kensei: legal") for line in r.stdout.splitlines())
    assert r.stdout.splitlines()[0].endswith("ILLEGAL (5 errors, 0 warnings)") or "ILLEGAL" in r.stdout.splitlines()[0]


# -- a read-only list is not replaced by an edit ------------------------------------------------------


@pytest.mark.parametrize("args", [("add", "Yari Ashigaru"), ("set", "name", "New"), ("remove", "Taisho Buke")])
def test_an_edit_of_a_read_only_list_is_refused(cli, tmp_path, args):
    f = kensei(tmp_path / "army.yaml")
    before = f.read_text()
    os.chmod(f, 0o444)
    try:
        r = cli(args[0], f, *args[1:])
        assert r.code == 2, r
        assert "is read-only; not changed" in r.stderr and "chmod u+w" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
        assert f.read_text() == before and stat.S_IMODE(f.stat().st_mode) == 0o444
    finally:
        os.chmod(f, 0o644)
    assert cli(args[0], f, *args[1:]).code in (0, 1)  # writable again: the edit is made
    assert f.read_text() != before


# -- import of a list 'check' cannot read --------------------------------------------------------------


@pytest.mark.parametrize(
    "body", ['{"system": "kensei", "troops": []}', "system: kensei\nname: x\npoints: 200\ntroops: []\n"]
)
def test_import_of_a_list_check_cannot_read_writes_nothing(cli, tmp_path, body):
    src = tmp_path / ("in.json" if body.startswith("{") else "in.yaml")
    src.write_text(body)
    out = tmp_path / "out.yaml"
    r = cli("import", src, "-o", out)
    assert r.code == 2, r
    assert "missing required key 'clan'" in r.stderr and f"{src}:1:1" in r.stderr
    assert not out.exists()
    r = cli("import", src)  # to standard output: nothing printed either
    assert r.code == 2 and r.stdout == ""


def test_import_of_an_illegal_but_readable_list_is_written(cli, tmp_path):
    src = tmp_path / "in.yaml"
    src.write_text("system: kensei\nname: x\nclan: nope\npoints: 200\ntroops: []\n")
    r = cli("import", src, "-o", tmp_path / "out.yaml")
    assert r.code == 0 and (tmp_path / "out.yaml").exists()
    assert cli("check", tmp_path / "out.yaml").code == 1


# -- an output that cannot be written leaves no folder behind ------------------------------------------


def test_a_failed_print_leaves_no_folder_it_made(cli, tmp_path):
    out = tmp_path / "new" / "deeper" / ("x" * 300 + ".pdf")
    r = cli("print", EXAMPLES / "kensei-buke.yaml", "-o", out)
    assert r.code == 2 and "cannot write" in r.stderr
    assert not (tmp_path / "new").exists()


def test_a_failed_output_keeps_folders_that_were_there(cli, tmp_path):
    (tmp_path / "there").mkdir()
    r = cli(
        "export",
        EXAMPLES / "kensei-buke.yaml",
        "--to",
        "yaml",
        "-o",
        tmp_path / "there" / "sub" / ("y" * 300 + ".yaml"),
    )
    assert r.code == 2
    assert (tmp_path / "there").is_dir() and not (tmp_path / "there" / "sub").exists()


# -- the documented Satsuma custom card -----------------------------------------------------------------

CUSTOM = (
    'system: satsuma\nname: Custom\nside: samurai\ncards:\n  My Hero: {printed: "F5 or M3", count: 2}\n'
    "  Samurai Warriors: 7\n"
)


def test_a_custom_card_is_shown(cli, tmp_path):
    f = tmp_path / "deck.yaml"
    f.write_text(CUSTOM)
    r = cli("show", f)
    assert r.code == 0, r
    assert "2 My Hero (printed: F5 or M3)" in r.stdout and "9 cards" in r.stdout


@pytest.mark.parametrize("fmt", ["code", "text", "markdown", "json", "yaml"])
def test_a_custom_card_is_exported_and_reads_back(cli, tmp_path, fmt):
    f = tmp_path / "deck.yaml"
    f.write_text(CUSTOM)
    r = cli("export", f, "--to", fmt, "-o", tmp_path / f"shared.{fmt}")
    assert r.code == 0, r
    r = cli("import", tmp_path / f"shared.{fmt}", "-o", tmp_path / "back.yaml")
    assert r.code == 0 and "unknown card" not in r.stderr, r
    from builder.lists.document import load_list

    assert load_list(str(tmp_path / "back.yaml")).data["cards"] == load_list(str(f)).data["cards"]
    assert json.loads(cli("check", tmp_path / "back.yaml", "--format", "json").stdout)[0]["summary"]["cards"] == 9


@pytest.mark.parametrize(
    "card, why",
    [
        ('{printed: "F5", colour: red}', "takes 'printed' and 'count', not 'colour'"),
        ("{count: 2}", "needs 'printed'"),
        ('{printed: "F5", count: -1}', "must be a whole number (0 or more)"),
    ],
)
def test_a_malformed_custom_card_is_one_located_line(cli, tmp_path, card, why):
    f = tmp_path / "deck.yaml"
    f.write_text(CUSTOM.replace('{printed: "F5 or M3", count: 2}', card))
    r = cli("export", f, "--to", "code")
    assert r.code == 2 and why in r.stderr and f"{f}:5:" in r.stderr, r


# -- the edit commands read every list 'check' reads, or say in one line why not ----------------------

BASE = (
    "system: kensei\nname: Fuzz\nclan: buke\npoints: 200\ncommander: hatamoto\ntroops:\n"
    "  - troop: Taisho Buke\n  - troop: Yari Ashigaru\n    models: 9\n"
)
# one character of each class the fast reader of 'check' may meet: blanks, line breaks of other
# systems, a byte-order mark, controls, non-breaking and wide spaces, comment marks
BYTE_CLASSES = [
    "\t",
    " ",
    "\ufeff",
    "\x85",
    "\u2028",
    "\u2029",
    "\r",
    "\x0b",
    "\x0c",
    "\xa0",
    "\u3000",
    "\x1f",
    "\x7f",
    "#",
    "\u200b",
]


def _variants():
    lines = BASE.splitlines(keepends=True)
    for ch in BYTE_CLASSES:
        for i, line in enumerate(lines):
            colon = line.find(":")
            body = line.rstrip("\n")
            for where, text in (
                ("start", ch + line),
                ("before-colon", line[:colon] + ch + line[colon:]),
                ("after-value", body + ch + "\n"),
                ("after-colon", line[: colon + 1] + ch + line[colon + 1 :]),
            ):
                yield f"{ord(ch):04x}-{i}-{where}", "".join(lines[:i] + [text] + lines[i + 1 :])


VARIANTS = list(_variants())
#: the variants by the character put in, a test case each (cases run apart, on any worker)
CLASSES = [f"{ord(ch):04x}" for ch in BYTE_CLASSES]
#: the edit sweeps below put in one blank (a tab) and one line break (a carriage return) in the
#: quick loop, with every character read as text; the suite puts in every one (the blanks and
#: line breaks are the slow cases: most of their variants are lists to edit)
SLOW_CLASSES = {f"{ord(ch):04x}" for ch in (" ", "\x85", "\u2028", "\u2029")}
EDITED = [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_CLASSES else c for c in CLASSES]


@pytest.fixture(scope="module")
def check_code(tmp_path_factory):
    """``check_code(text)``: the exit code of ``daimyo check`` on a list ``fuzz.yaml`` holding
    ``text``, found once for each text in a worker (the edit and web tests both ask)."""

    folder = tmp_path_factory.mktemp("checked")
    codes: dict[str, tuple[int, object]] = {}

    def code(text: str):
        if text not in codes:
            f = folder / "fuzz.yaml"
            f.write_text(text, encoding="utf-8")
            r = run_cli("check", f)
            codes[text] = (r.code, r)
        return codes[text]

    return code


def _of_class(cls: str):
    return [(label, text) for label, text in VARIANTS if label.startswith(cls + "-")]


def test_check_reads_a_good_part_of_the_variants(check_code):
    """No traceback, no internal error (exit 70) from check itself; and a good part of the
    variants are lists it reads, so that the tests below edit many."""
    read = 0
    for label, text in VARIANTS:
        code, r = check_code(text)
        assert code in (0, 1, 2), (label, r)
        read += code != 2
    assert read > 100
    assert sum(len(_of_class(c)) for c in CLASSES) == len(VARIANTS)  # every variant is in a case


@pytest.mark.parametrize("cls", EDITED)
def test_every_edit_command_reads_what_check_reads_or_says_why_in_one_line(cli, tmp_path, check_code, cls):
    """No traceback, no internal error (exit 70): an edit of a list 'check' reads either works
    or is refused in one located line."""
    for label, text in _of_class(cls):
        code, r = check_code(text)
        assert code in (0, 1, 2), (label, r)
        if code == 2:
            continue  # check refuses it too: the readers agree
        f = tmp_path / "fuzz.yaml"
        for args in (
            ("add", "Samurai Yari"),
            ("set", "name", "Fuzzed"),
            ("remove", "Yari Ashigaru"),
            ("why", "Samurai Yari"),
        ):
            f.write_text(text, encoding="utf-8")
            r = cli(args[0], f, *args[1:])
            assert r.code in (0, 1, 2), (label, args, r)
            if r.code == 2:
                lines = r.stderr.strip().splitlines()
                assert len(lines) == 1 and lines[0].startswith((f"{f}:", "daimyo: error:")), (label, args, r.stderr)
                assert f.read_text(encoding="utf-8") == text  # refused: untouched


@pytest.fixture(scope="module")
def web_api(tmp_path_factory):
    """The web builder on a workspace of its own, one event loop for every request (a client
    without `with` starts one a request)."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    ws = tmp_path_factory.mktemp("ws")
    with TestClient(
        create_app(ws, token="t" * 24),
        base_url="http://127.0.0.1:8765",
        headers={"Authorization": "Bearer " + "t" * 24},
    ) as api:
        yield ws, api


@pytest.mark.parametrize("cls", EDITED)
def test_the_web_builder_edits_what_check_reads_or_answers_4xx(web_api, check_code, cls):
    ws, api = web_api
    for label, text in _of_class(cls):
        if check_code(text)[0] == 2:
            continue
        f = ws / "fuzz.yaml"
        for op in (
            {"op": "add", "item": "Samurai Yari"},
            {"op": "set", "key": "name", "value": "Web"},
            {"op": "house_rule", "key": "leader_count", "value": "formula"},
            {"op": "models", "index": 1, "delta": 1},
        ):
            f.write_text(text, encoding="utf-8")
            r = api.post("/api/lists/fuzz.yaml/edit", json=op)
            assert r.status_code in (200, 400, 409, 422), (label, op, r.status_code, r.text[:300])
            if r.status_code != 200:
                assert f.read_text(encoding="utf-8") == text


# -- a pasted list names packs by name only -----------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_a_pasted_list_never_opens_a_pack_by_its_path(cli, tmp_path, monkeypatch, fmt):
    import builder.catalog.packfiles as resolve

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    pack = elsewhere / "secret-pack.yaml"
    pack.write_text((EXAMPLES / "packs" / "senshiai-example.yaml").read_text())
    shared = cli("export", EXAMPLES / "senshiai-northern-host.yaml", "--to", fmt).stdout
    lines = [ln for ln in shared.splitlines() if "Checked with" not in ln]
    shared = "\n".join(ln.replace("packs/senshiai-example.yaml", str(pack)) for ln in lines) + "\n"
    assert str(pack) in shared
    (tmp_path / "in").mkdir()
    src = tmp_path / "in" / f"list.{fmt}"
    src.write_text(shared)
    opened = []
    real = resolve.read_header
    monkeypatch.setattr(resolve, "read_header", lambda p: opened.append(Path(p).resolve()) or real(p))
    r = cli("show", src)
    assert r.code in (0, 1) and "Senshiai example cards" not in r.stdout
    assert pack.resolve() not in opened
    out = tmp_path / "in" / "out.yaml"
    r = cli("import", src, "-o", out)
    assert r.code == 0, r
    written = out.read_text()
    assert str(pack) not in written and "packs:\n  - secret-pack\n" in written
    assert "pack 'secret-pack' is missing here" in r.stderr
    assert pack.resolve() not in opened


# -- a short share code cannot expand to a huge list ---------------------------------------------------


def _raw_code(body: bytes, system: str = "kensei") -> str:
    import base64
    import zlib

    from builder.share import code as C
    from builder.systems import ids

    payload = bytes([ids().index(system) | C._F_DEFLATE]) + zlib.compress(body, 9, wbits=-15)
    crc = zlib.crc32(C.PREFIX.encode("ascii") + payload).to_bytes(4, "little")
    return C.PREFIX + base64.urlsafe_b64encode(payload + crc).decode("ascii").rstrip("=")


def test_a_share_code_expanding_past_the_limit_is_refused_before_it_is_read(cli):
    from builder.limits import MIN_CODE_BODY

    at, past = _raw_code(b"\0" * MIN_CODE_BODY), _raw_code(b"\0" * (MIN_CODE_BODY + 1))
    assert len(past) < 200  # a short code
    r = cli("show", past)
    assert r.code == 2 and "expands to more than 65,536 bytes" in r.stderr and len(r.stderr.splitlines()) == 1
    r = cli("show", at)  # at the limit: read (and refused for what it holds, not for its size)
    assert r.code == 2 and "expands to more than" not in r.stderr and "cannot be read" in r.stderr


@pytest.mark.slow  # a list of 16,000 entries checked and shared
def test_a_huge_repetitive_list_is_refused_as_a_code_and_shared_as_yaml(cli, tmp_path):
    import re

    from builder.limits import MIN_CODE_BODY

    n = MIN_CODE_BODY // 4 + 100  # an entry is 4 bytes of a code's body: just past the floor of 64 KiB
    f = tmp_path / "huge.yaml"
    f.write_text(
        "system: kensei\nname: Huge\nclan: buke\npoints: 200\ncommander: hatamoto\ntroops:\n"
        + "  - troop: Yari Ashigaru\n" * n
    )
    r = cli("export", f, "--to", "code")
    assert r.code == 2 and "too repetitive for a share code" in r.stderr and "--to yaml" in r.stderr
    expands = int(re.search(r"expand to ([\d,]+) bytes", r.stderr).group(1).replace(",", ""))
    assert MIN_CODE_BODY < expands < MIN_CODE_BODY * 1.01, r.stderr  # refused for crossing the floor
    assert cli("export", f, "--to", "yaml", "-o", tmp_path / "shared.yaml").code == 0


def test_a_code_of_a_big_varied_list_still_reads(cli, tmp_path):
    from builder.share.code import decode, encode

    doc = {"system": "senshiai", "name": "Many", "cards": {f"Invented card {i}": 1 + i % 3 for i in range(3000)}}
    code = encode(doc)
    assert decode(code)["cards"] == doc["cards"]


# -- JSON output writes bidirectional and C1 controls as escapes ----------------------------------

BIDI_NAME = "army\u202egnp.exe \u2066x\u2069 \u200f\u061c\x85 武家"


def _escaped(text: str) -> None:
    for ch in ("\u202e", "\u2066", "\u2069", "\u200f", "\u061c", "\x85"):
        assert ch not in text
    assert "\\u202e" in text and "武家" in text  # other non-ASCII text stays readable


def test_check_json_writes_a_bidi_control_in_a_name_as_an_escape(cli, tmp_path):
    f = kensei(tmp_path / "army.yaml", BIDI_NAME)
    r = cli("check", f, "--format", "json")
    assert r.code == 1, r.stderr  # the one-troop army is short of its minimum: checked all the same
    _escaped(r.stdout)
    assert json.loads(r.stdout)[0]["name"] == BIDI_NAME


def test_pack_check_json_writes_a_bidi_control_in_a_pack_name_as_an_escape(cli, tmp_path):
    from builder.packs.sheet import dump_pack

    pack = tmp_path / "p.yaml"
    card = {"name": "Monk", "type": "event", "cost": "I", "assumed": "made up"}
    pack.write_text(dump_pack({"system": "senshiai", "name": BIDI_NAME, "version": "1", "cards": [card]}))
    r = cli("pack", "check", pack, "--format", "json")
    assert r.code == 0, r.stderr
    _escaped(r.stdout)
    assert json.loads(r.stdout)[0]["name"] == BIDI_NAME


def test_no_command_writes_json_but_through_the_one_writer():
    """Every command's JSON goes through ``builder.safeout.json_text`` (which escapes the controls)."""
    faces = [ROOT / "builder" / "clicheck.py", ROOT / "builder" / "catalog" / "browse.py"]
    faces += sorted((ROOT / "builder" / "commands").glob("*.py"))
    faces += sorted((ROOT / "builder" / "games").glob("*/commands.py"))
    assert [str(p.relative_to(ROOT)) for p in faces if "json.dumps(" in p.read_text()] == []


# -- every CSV writes a formula-like text cell with a leading apostrophe ------------------------


def test_event_standings_csv_writes_formula_text_as_text_and_numbers_as_numbers(capsys):
    from builder.commands.event import _rows_out

    rows = [{"name": "=HYPERLINK(1)", "points": -2}, {"name": "\tTab", "points": 3}, {"name": "\r@cr", "points": 0}]
    _rows_out(rows, ["name", "points"], "csv", lambda: [])
    got = list(csv.reader(io.StringIO(capsys.readouterr().out, newline="")))
    # (the command line writes a carriage return as \\r, as every control it prints)
    assert got == [["name", "points"], ["'=HYPERLINK(1)", "-2"], ["'\tTab", "3"], ["'\\r@cr", "0"]]


class _Event:
    """What ``export_text`` asks of an event: its rows, and a log line."""

    def __init__(self, rows):
        self._rows = rows

    def rows(self):
        return self._rows

    def log(self, *args):
        pass


def test_event_export_csv_writes_tab_and_carriage_return_starts_as_text():
    from builder.event.outputs import EXPORT_COLUMNS, export_text

    row = dict.fromkeys(EXPORT_COLUMNS, "")
    rows = [dict(row, player="\t=1+1"), dict(row, player="\r=2"), dict(row, player="-3")]
    got = list(csv.DictReader(io.StringIO(export_text(_Event(rows), "csv"), newline="")))
    assert [r["player"] for r in got] == ["'\t=1+1", "'\r=2", "'-3"]
