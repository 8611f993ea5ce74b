"""Packs from spreadsheets and back: CSV and XLSX, every bad cell one line, round trips."""

from __future__ import annotations

import pytest

from conftest import DATA, ROOT

BAD = DATA / "packs_bad"
EXAMPLE_PACKS = sorted((ROOT / "examples" / "packs").glob("*.yaml"))


def _cases(pattern):
    return sorted(p.name for p in BAD.glob(pattern))


@pytest.mark.parametrize("name", _cases("*.csv"))
def test_bad_sheets_give_exactly_the_expected_lines_and_write_nothing(cli, name, monkeypatch, tmp_path):
    monkeypatch.chdir(BAD)
    out = tmp_path / "pack.yaml"
    r = cli("pack", "import", name, "-o", out)
    assert r.code == 2
    expected = (BAD / name.replace(".csv", ".expected")).read_text()
    assert r.stderr == expected
    assert not out.exists()


@pytest.mark.parametrize("name", _cases("*.yaml"))
def test_bad_packs_give_exactly_the_expected_lines(cli, name, monkeypatch):
    monkeypatch.chdir(BAD)
    r = cli("pack", "check", name)
    assert r.code == 2
    assert r.stderr == (BAD / name.replace(".yaml", ".expected")).read_text()


@pytest.mark.parametrize("pack", EXAMPLE_PACKS, ids=lambda p: p.stem)
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_round_trip_pack_to_sheet_to_pack_keeps_the_data(cli, tmp_path, pack, fmt):
    from builder.catalog.packid import read_pack

    sheet = tmp_path / f"p.{fmt}"
    r = cli("pack", "export", pack, "--to", fmt, "-o", sheet)
    assert r.code == 0, r.stderr
    back = tmp_path / "back.yaml"
    r = cli("pack", "import", sheet, "-o", back)
    assert r.code == 0, r.stderr
    a, _ = read_pack(pack)
    b, _ = read_pack(back)
    assert b == a
    r1 = cli("pack", "check", pack, "--format", "json")
    r2 = cli("pack", "check", back, "--format", "json")
    import json

    assert json.loads(r1.stdout)[0]["hash"] == json.loads(r2.stdout)[0]["hash"]


def test_csv_layout_header_is_field_names_and_lists_use_semicolons(cli, tmp_path):
    out = tmp_path / "s.csv"
    r = cli("pack", "export", "senshiai-example", "-o", out)
    assert r.code == 0, r.stderr
    lines = out.read_text().splitlines()
    assert lines[0] == "# system: senshiai"
    assert lines[1] == "# name: Senshiai example cards"
    header = next(ln for ln in lines if not ln.startswith(("#", '"#')))
    assert header.split(",")[:5] == ["name", "type", "subtype", "cost", "paths"]
    assert "Capital of the North,terrain,Capital,N,Earth; Water,3,0,2/1/8" in out.read_text()


def test_a_card_typed_in_by_hand_with_defaults(cli, tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text(
        "name,type,subtype,cost,paths,speed,power,abilities\nMountain Monk,troop,Infantry,II,Earth;Air,2,2/0/5,\n"
    )
    out = tmp_path / "mine.yaml"
    r = cli("pack", "import", sheet, "--system", "senshiai", "-o", out, "--version", "2")
    assert r.code == 0, r.stderr
    from builder.catalog.packid import read_pack

    data, _ = read_pack(out)
    assert data["name"] == "mine" and data["version"] == "2" and data["system"] == "senshiai"
    assert data["cards"] == [
        {
            "name": "Mountain Monk",
            "type": "troop",
            "subtype": "Infantry",
            "cost": "II",
            "paths": ["Earth", "Air"],
            "speed": 2,
            "power": "2/0/5",
            "assumed": "from cards.csv",
        }
    ]
    r = cli("catalog", "show", "senshiai", "Mountain Monk", "--pack", out)
    assert r.code == 0 and "2/0/5" in r.stdout


def test_semicolon_separated_csv_as_some_spreadsheets_save_it(cli, tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text('\ufeffname;type;paths;power\nRain Spirit;troop;"Water; Air";1/1/3\n', encoding="utf-8")
    out = tmp_path / "p.yaml"
    r = cli("pack", "import", sheet, "--system", "senshiai", "-o", out)
    assert r.code == 0, r.stderr
    assert "paths: [Water, Air]" in out.read_text()


def test_existing_output_needs_force(cli, tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,type\nA Card,troop\n")
    out = tmp_path / "p.yaml"
    out.write_text("mine\n")
    r = cli("pack", "import", sheet, "--system", "senshiai", "-o", out)
    assert r.code == 2 and "pass --force" in r.stderr
    assert out.read_text() == "mine\n"
    r = cli("pack", "import", sheet, "--system", "senshiai", "-o", out, "--force")
    assert r.code == 0, r.stderr


def test_bad_xlsx_cells_name_the_sheet_row_and_column(cli, tmp_path, monkeypatch):
    import openpyxl

    book = openpyxl.Workbook()
    ws = book.active
    ws.title = "pack"
    ws.append(["system", "herocard"])
    ws.append(["name", "My heroes"])
    cards = book.create_sheet("attribute_cards")
    cards.append(["name", "attribute", "score"])
    cards.append(["Iron Will", "mind", 8])
    cards.append(["Stone Skin", "bodyy", "high"])
    book.save(tmp_path / "book.xlsx")
    monkeypatch.chdir(tmp_path)
    r = cli("pack", "import", "book.xlsx", "-o", "p.yaml")
    assert r.code == 2
    assert r.stderr.splitlines() == [
        "book.xlsx#attribute_cards:3:2: error: attribute_cards.attribute: attribute 'bodyy' is not Body (B), Mind (M) or X",
        "book.xlsx#attribute_cards:3:3: error: attribute_cards.score: 'high' is not a whole number (score is whole number)",
    ]
    assert not (tmp_path / "p.yaml").exists()


def test_not_a_workbook_and_ods_are_one_line(cli, tmp_path):
    (tmp_path / "x.xlsx").write_bytes(b"not a zip")
    r = cli("pack", "import", tmp_path / "x.xlsx", "--system", "senshiai", "-o", tmp_path / "p.yaml")
    assert r.code == 2 and len(r.stderr.splitlines()) == 1 and "not a readable .xlsx workbook" in r.stderr
    r = cli("pack", "import", tmp_path / "x.ods", "--system", "senshiai", "-o", tmp_path / "p.yaml")
    assert r.code == 2 and "save the sheet as .csv or .xlsx" in r.stderr


def _workbook_with_padding(path, padding: int) -> None:
    """A small workbook of one card, with a part of ``padding`` zero bytes (a few kilobytes
    once compressed: a zip bomb's shape)."""
    import io
    import zipfile

    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["section", "name", "type", "assumed"])
    book.active.append(["cards", "Hill Fort", "terrain", "mine"])
    buf = io.BytesIO()
    book.save(buf)
    with zipfile.ZipFile(buf, "a", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/padding.bin", b"\0" * padding)
    path.write_bytes(buf.getvalue())


def test_a_workbook_that_unpacks_past_the_limit_is_refused_before_it_is_unpacked(cli, tmp_path, monkeypatch):
    import zipfile

    from builder.limits import MAX_SHEET_UNPACKED

    monkeypatch.chdir(tmp_path)
    _workbook_with_padding(tmp_path / "bomb.xlsx", MAX_SHEET_UNPACKED)
    assert (tmp_path / "bomb.xlsx").stat().st_size < 100_000
    r = cli("pack", "import", "bomb.xlsx", "--system", "senshiai", "-o", "p.yaml")
    assert r.code == 2 and len(r.stderr.splitlines()) == 1, r.stderr
    assert "bomb.xlsx: error: the workbook unpacks to 16 MiB, over the limit of 16 MiB; not read" in r.stderr
    assert not (tmp_path / "p.yaml").exists()
    # at the limit: read
    parts = sum(i.file_size for i in zipfile.ZipFile(tmp_path / "bomb.xlsx").infolist()) - MAX_SHEET_UNPACKED
    _workbook_with_padding(tmp_path / "full.xlsx", MAX_SHEET_UNPACKED - parts)
    r = cli("pack", "import", "full.xlsx", "--system", "senshiai", "-o", "p.yaml")
    assert r.code == 0, r.stderr
    assert "Hill Fort" in (tmp_path / "p.yaml").read_text()


def test_import_reads_the_sheet_once_and_never_parses_the_pack_back(cli, tmp_path, monkeypatch):
    """A sheet is read and split into records once; the pack made from it is checked with the
    catalog as data (positions are its rows and columns), so no YAML text of the pack is parsed
    during the import, and bad cells still name their row (a quoted cell over two lines counts
    two lines) and column."""
    import csv

    from builder import yamlio

    rows = ["# system: senshiai", "name,type,power,cost,assumed"]
    rows += [f"Sheet Card {i},troop,1/1/{i % 9 + 1},II,typed in" for i in range(60)]
    rows.insert(5, '"Two Line\nCard",troop,1/1/3,II,typed in')
    rows.append("Bad Card,troop,1/1/3,XIV,typed in")
    sheet = tmp_path / "cards.csv"
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")

    parsed, readers = [], []
    real_parse, real_reader = yamlio.parse_yaml, csv.reader
    monkeypatch.setattr(yamlio, "parse_yaml", lambda text, *a, **k: (parsed.append(text), real_parse(text, *a, **k))[1])
    monkeypatch.setattr(csv, "reader", lambda *a, **k: (readers.append(1), real_reader(*a, **k))[1])
    r = cli("pack", "import", sheet, "-o", tmp_path / "out.yaml")
    assert r.code == 2
    bad_line = len("\n".join(rows).splitlines())  # the physical line of the last row
    (line,) = r.stderr.splitlines()
    assert line.startswith(f"{sheet}:{bad_line}:4: error") and "cost" in line, r.stderr
    assert not any("Sheet Card" in t for t in parsed), "the pack made from the sheet was parsed as YAML"
    assert len(readers) == 1, "the sheet was split into records more than once"

    rows.pop()
    sheet.write_text("\n".join(rows) + "\n", encoding="utf-8")
    parsed.clear()
    readers.clear()
    r = cli("pack", "import", sheet, "-o", tmp_path / "out.yaml")
    assert r.code == 0, r.stderr
    assert "wrote " in r.stderr and "with 61 entries" in r.stderr and "pack 'out'" in r.stderr
    assert not any("Sheet Card" in t for t in parsed) and len(readers) == 1
    back, _ = real_parse((tmp_path / "out.yaml").read_text(encoding="utf-8"), "out.yaml")
    assert back["name"] == "out" and len(back["cards"]) == 61
    assert back["cards"][3]["name"] == "Two Line\nCard" and back["cards"][4]["name"] == "Sheet Card 3"


HOSTILE = ['=HYPERLINK("http://x","y")', "@SUM(1)", "+1/0/0", "-2", "\t=1", "\r=Z", "'=Q"]


def _hostile_pack(tmp_path, names=HOSTILE):
    from builder.packs.sheet import dump_pack

    data = {
        "system": "senshiai",
        "name": '=HYPERLINK("http://x","y")',
        "version": "1",
        "cards": [{"name": n, "type": "event", "cost": "I", "assumed": "-1 to your roll"} for n in names],
    }
    path = tmp_path / "hostile.yaml"
    path.write_text(dump_pack(data))
    return path


def test_csv_export_writes_formula_text_with_a_leading_apostrophe(cli, tmp_path):
    import csv
    import io

    out = tmp_path / "h.csv"
    r = cli("pack", "export", _hostile_pack(tmp_path), "-o", out)
    assert r.code == 0, r.stderr
    rows = [row for row in csv.reader(io.StringIO(out.read_bytes().decode(), newline="")) if row]
    body = rows[rows.index(["name", "type", "cost", "assumed"]) + 1 :]
    assert [row[0] for row in body] == [
        '\'=HYPERLINK("http://x","y")',
        "'@SUM(1)",
        "'+1/0/0",
        "'-2",
        "'\t=1",
        "'\r=Z",
        "''=Q",
    ]
    assert {row[3] for row in body} == {"'-1 to your roll"}
    assert all(row[1:3] == ["event", "I"] for row in body)


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_formula_text_exported_and_imported_gives_back_the_same_pack(cli, tmp_path, fmt):
    from builder.catalog.packid import read_pack

    # a carriage return in an xlsx cell is a line break once read (XML reads both as one)
    names = HOSTILE if fmt == "csv" else [n for n in HOSTILE if "\r" not in n]
    pack = _hostile_pack(tmp_path, names)
    sheet = tmp_path / f"h.{fmt}"
    assert cli("pack", "export", pack, "--to", fmt, "-o", sheet).code == 0
    back = tmp_path / "back.yaml"
    r = cli("pack", "import", sheet, "-o", back)
    assert r.code == 0, r.stderr
    assert read_pack(back)[0] == read_pack(pack)[0]
    assert [c["name"] for c in read_pack(back)[0]["cards"]] == names


def test_xlsx_export_stores_every_text_cell_as_a_string_and_no_formula(cli, tmp_path):
    import openpyxl

    sheet = tmp_path / "h.xlsx"
    names = [n for n in HOSTILE if "\r" not in n]
    assert cli("pack", "export", _hostile_pack(tmp_path, names), "--to", "xlsx", "-o", sheet).code == 0
    book = openpyxl.load_workbook(sheet)
    cells = [c for ws in book.worksheets for row in ws.iter_rows() for c in row if c.value is not None]
    assert cells and {c.data_type for c in cells} == {"s"}
    assert book["pack"]["B2"].value == '\'=HYPERLINK("http://x","y")'
    assert [c.value for c in book["cards"]["A"]][1:] == [
        '\'=HYPERLINK("http://x","y")',
        "'@SUM(1)",
        "'+1/0/0",
        "'-2",
        "'\t=1",
        "''=Q",
    ]


def test_numbers_stay_numbers_and_an_apostrophe_typed_in_a_sheet_is_taken_off(cli, tmp_path):
    from builder.packs.sheet import pack_tables

    _meta, tables = pack_tables({"system": "senshiai", "cards": [{"name": "-2", "limit": -2, "speed": 1.5}]})
    assert tables["cards"] == (["name", "limit", "speed"], [["'-2", "-2", "1.5"]])
    sheet = tmp_path / "cards.csv"
    sheet.write_text("# system: senshiai\nname,type,cost,limit,assumed\n'+1/0/0,event,I,'+3,'=made up\n")
    out = tmp_path / "mine.yaml"
    r = cli("pack", "import", sheet, "-o", out)
    assert r.code == 0, r.stderr
    from builder.catalog.packid import read_pack

    card = read_pack(out)[0]["cards"][0]
    assert card == {"name": "+1/0/0", "type": "event", "cost": "I", "limit": 3, "assumed": "=made up"}
