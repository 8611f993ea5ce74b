"""Hostile input and surprising writes: numbers beyond their range, deep nesting, devices and
pipes, oversized files, concurrent edits, symbolic links, outputs over inputs.

Each case ends in one line and exit 2 (or does what it says), never a traceback, a hang or a
lost edit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from conftest import ROOT

BUKE = ROOT / "examples" / "kensei-buke.yaml"
RANGE = "(numbers go from -1,000,000 to 1,000,000)"


def one_error_line(r, where: str, text: str):
    lines = r.stderr.splitlines()
    assert r.code == 2, r
    assert len(lines) == 1, r
    assert lines[0].startswith(where) and text in lines[0], r


def kensei(tmp_path, points="400", troops="troops: []\n", name="army.yaml") -> Path:
    p = tmp_path / name
    p.write_text(f"system: kensei\nclan: buke\npoints: {points}\ncommander: taisho\n{troops}")
    return p


# -- numbers -------------------------------------------------------------------------------------

HUGE = ["9" * 5000, "1" + "0" * 400, "10000001", "-10000001", "1e400", ".inf", "-.inf", "1.5e7"]


@pytest.mark.parametrize("number", HUGE)
def test_a_number_beyond_the_range_is_one_located_line_in_every_command(cli, tmp_path, number):
    lst = kensei(tmp_path, points=number)
    for args in (
        ("check", lst),
        ("show", lst),
        ("export", lst, "--to", "text"),
        ("import", lst),
        ("add", lst, "Yari Ashigaru"),
        ("set", lst, "name", "X"),
        ("why", lst, "Yari Ashigaru"),
        ("print", lst, "-o", tmp_path / "out.pdf"),
    ):
        r = cli(*args)
        one_error_line(r, f"{lst}:3:9: error: number out of range", RANGE)
    assert not (tmp_path / "out.pdf").exists()


@pytest.mark.parametrize("number", ["1000000", "-1000000", "999999.5"])
def test_numbers_at_the_bounds_read(cli, tmp_path, number):
    lst = tmp_path / "deck.yaml"
    lst.write_text(
        f"system: senshiai\nsize: 50\nnotes: x\nhouse_rules:\n  max_deck_cards: {number}\ncards:\n  Warriors: 3\n"
    )
    r = cli("check", lst)
    assert "number out of range" not in r.stderr
    assert r.code in (0, 1, 2)


def test_numbers_in_a_count_line_of_a_deck_and_in_house_rules(cli, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("system: senshiai\nsize: 50\nhouse_rules:\n  max_deck_cards: 1e309\ncards:\n  Warriors: 3\n")
    one_error_line(cli("check", deck), f"{deck}:4:19: error: number out of range: inf", RANGE)
    deck.write_text("system: senshiai\nsize: 50\ncards:\n  Warriors: " + "7" * 4400 + "\n")
    one_error_line(
        cli("add", deck, "Warriors"), f"{deck}:4:13: error: number out of range: a number of 4,400 digits", RANGE
    )


def test_numbers_beyond_the_range_in_json_and_text_imports(cli, tmp_path):
    js = tmp_path / "army.json"
    js.write_text('{"system": "kensei", "clan": "buke", "points": ' + "9" * 5000 + ', "troops": []}')
    for command in ("show", "import", "check"):
        one_error_line(cli(command, js), f"{js}:1:48: error: number out of range: a number of 5,000 digits", RANGE)
    js.write_text('{"system": "kensei", "clan": "buke", "points": 1e999, "troops": []}')
    one_error_line(cli("show", js), f"{js}:1:48: error: number out of range: inf", RANGE)
    txt = tmp_path / "deck.txt"
    txt.write_text("Deck - Senshiai\n1234567x Warriors\n")
    r = cli("show", txt)
    assert r.code == 2 and r.stderr.splitlines() == [
        f"{txt}: error: cards.Warriors: number out of range: 1234567 {RANGE}"
    ], r
    txt.write_text("Army - Kensei - clan buke - 200/" + "9" * 20 + " AP\n5x Samurai Yari\n")
    r = cli("import", txt)
    assert r.code == 2 and "number out of range: 99999999999999999999" in r.stderr, r
    txt.write_text("Army - Kensei - clan buke\nPoints: " + "9" * 5000 + "\n5x Samurai Yari\n")
    r = cli("import", txt)
    assert r.stderr.splitlines() == [f"{txt}:2:9: error: number out of range: a number of 5,000 digits {RANGE}"], r


def test_numbers_beyond_the_range_on_the_command_line(cli, tmp_path):
    lst = kensei(tmp_path)
    for args in (
        ("add", lst, "Yari Ashigaru", "--models", "9" * 30),
        ("set", lst, "points", "9" * 5000),
        ("why", lst, "Yari Ashigaru", "--models", "9" * 30),
        ("new", "kensei", "--clan", "buke", "--points", "9" * 30, "-o", tmp_path / "n.yaml"),
    ):
        r = cli(*args)
        assert r.code == 2, (args, r)
        assert r.stderr.startswith("daimyo: error:") and "1,000,000" in r.stderr, (args, r)
        assert len(r.stderr.splitlines()) == 1
    assert "9999" not in lst.read_text()


# -- nesting -------------------------------------------------------------------------------------


def _deep_mapping(levels: int) -> str:
    return "".join(" " * (i + 1) + f"k{i}:\n" for i in range(levels)) + " " * (levels + 1) + "x: 1\n"


@pytest.mark.parametrize(
    "body",
    [
        "troops:\n" + _deep_mapping(450),
        "troops:\n" + _deep_mapping(990),
        "troops:\n" + "- " * 450 + "x\n",
        "notes:\n" + "".join("  " * i + "- k:\n" for i in range(120)) + "  " * 120 + "x\n",
        "troops: " + "[" * 300 + "]" * 300 + "\n",
    ],
)
def test_deep_block_nesting_is_one_line_on_every_reader_path(cli, tmp_path, body):
    lst = tmp_path / "deep.yaml"
    lst.write_text("system: kensei\nclan: buke\npoints: 400\ncommander: taisho\n" + body)
    before = lst.read_bytes()
    for args in (
        ("check", lst),
        ("add", lst, "Yari Ashigaru"),
        ("remove", lst, "Yari Ashigaru"),
        ("set", lst, "name", "X"),
        ("why", lst, "Yari Ashigaru"),
        ("show", lst),
        ("export", lst, "--to", "code"),
        ("print", lst, "-o", tmp_path / "d.pdf"),
    ):
        r = cli(*args)
        assert r.stderr.splitlines() == [
            f"{lst}:1:1: error: values nested more than 100 levels deep (a list or catalog needs a few levels)"
        ], (args, r)
        assert r.code == 2
    assert lst.read_bytes() == before


# -- devices, pipes and big files -----------------------------------------------------------------


@pytest.fixture
def fifo(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    p = tmp_path / "pipe.yaml"
    os.mkfifo(p)
    return p


def _devices(fifo):
    return [Path("/dev/zero"), Path("/dev/urandom"), fifo] if Path("/dev/zero").exists() else [fifo]


def test_devices_and_pipes_are_refused_as_lists(cli, tmp_path, fifo):
    for dev in _devices(fifo):
        for args in (
            ("check", dev),
            ("add", dev, "Warriors"),
            ("print", dev, "-o", tmp_path / "x.pdf"),
            ("show", dev),
            ("import", dev),
            ("export", dev),
            ("why", dev, "Warriors"),
            ("set", dev, "name", "x"),
            ("remove", dev, "Warriors"),
        ):
            r = cli(*args)
            assert r.stderr.splitlines() == [
                f"{dev}: error: is not a regular file (a device or a pipe); not read (give the name of a file)"
            ], (args, r)
            assert r.code == 2


def test_devices_and_pipes_are_refused_as_packs(cli, tmp_path, fifo):
    list_file = ROOT / "examples" / "senshiai-northern-host.yaml"
    for dev in _devices(fifo):
        for args in (("catalog", "check", "--pack", dev), ("check", list_file, "--pack", dev)):
            r = cli(*args)
            assert r.code == 2
            assert r.stderr.splitlines() == [
                f"{dev}: error pack.yaml: is not a regular file (a device or a "
                "pipe); not read (give the name of a file)"
            ], (args, r)
    r = cli("check", list_file, "--pack", tmp_path)  # a folder is not a pack either, and it is there
    assert r.stderr.splitlines() == [f"{tmp_path}: error pack.yaml: is a folder, not a file"], r


def test_a_list_file_over_the_size_limit_is_refused_at_once(cli, tmp_path):
    from builder.limits import MAX_FILE_BYTES

    lst = tmp_path / "big.yaml"
    with lst.open("w") as fh:
        fh.write("system: kensei\nclan: buke\npoints: 400\ncommander: taisho\ntroops: []\n")
        line = "# " + "x" * 1021 + "\n"
        fh.write(line * (MAX_FILE_BYTES // len(line) + 1))
    size = lst.stat().st_size
    for args in (("check", lst), ("add", lst, "Yari Ashigaru"), ("show", lst)):
        r = cli(*args)
        assert r.stderr.splitlines() == [
            f"{lst}: error: file too large: {size:,} bytes (at most {MAX_FILE_BYTES:,}) (split it into smaller files)"
        ], r
        assert r.code == 2


# -- writes ---------------------------------------------------------------------------------------


def _daimyo(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "builder", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120
    )


@pytest.mark.slow  # 40 child processes
def test_concurrent_additions_to_one_list_are_all_kept(tmp_path):
    """Two ``daimyo add`` on one file at the same moment, 20 times: every addition is there
    (processes forked from one that has imported daimyo: they start within milliseconds of each
    other, closer together than fresh interpreters would)."""
    from forkcli import forked_daimyo

    pairs = 20
    for i in range(pairs):
        shutil.copy(BUKE, tmp_path / f"army{i}.yaml")
    (tmp_path / "bin").mkdir()
    with forked_daimyo(tmp_path / "bin", dict(os.environ)) as daimyo:
        procs = []
        for i in range(pairs):
            for troop in ("Yumi Samurai", "Samurai Yari"):
                procs.append(
                    subprocess.Popen(
                        [str(daimyo), "add", f"army{i}.yaml", troop],
                        cwd=tmp_path,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE,
                        text=True,
                    )
                )
                if len(procs) >= 8:
                    for p in procs:
                        assert p.wait(timeout=120) in (0, 1), p.stderr.read()
                    procs = []
        for p in procs:
            assert p.wait(timeout=120) in (0, 1), p.stderr.read()
    for i in range(pairs):
        text = (tmp_path / f"army{i}.yaml").read_text()
        assert text.count("troop: Yumi Samurai") == BUKE.read_text().count("troop: Yumi Samurai") + 1, text
        assert text.count("troop: Samurai Yari") == BUKE.read_text().count("troop: Samurai Yari") + 1, text


def test_an_edit_waits_for_another_edit_of_the_same_file(tmp_path):
    from builder.yamlio import atomic_write, begin_command, read_for_edit

    p = tmp_path / "list.yaml"
    p.write_text("a\n")
    begin_command()
    text = read_for_edit(p)
    done = []

    def other():
        child = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from builder.yamlio import begin_command, read_for_edit, atomic_write\n"
                "begin_command(); t = read_for_edit(sys.argv[1]); atomic_write(sys.argv[1], t + 'c\\n')",
                str(p),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
        done.append(child)

    t = threading.Thread(target=other)
    t.start()
    t.join(1.5)
    assert not done, "the other edit did not wait for the lock"
    atomic_write(p, text + "b\n", force=True)
    t.join(60)
    assert done and done[0].returncode == 0, done
    assert p.read_text() == "a\nb\nc\n"
    begin_command(track=False)


def test_new_without_force_never_replaces_a_file_that_appears_meanwhile(tmp_path, monkeypatch):
    from builder import yamlio
    from builder.errors import DaimyoError

    out = tmp_path / "same.yaml"
    real_mkstemp = yamlio.tempfile.mkstemp

    def mkstemp(*a, **k):  # another program creates the file after the existence check
        out.write_text("theirs\n")
        return real_mkstemp(*a, **k)

    monkeypatch.setattr(yamlio.tempfile, "mkstemp", mkstemp)
    with pytest.raises(DaimyoError) as ei:
        yamlio.atomic_write(out, "mine\n", force=False)
    assert ei.value.lines() == [
        f"{out}: error: file exists (it appeared while writing); not overwritten (pass 'force' to replace it)"
    ]
    assert out.read_text() == "theirs\n"
    assert [p.name for p in tmp_path.iterdir()] == ["same.yaml"]


@pytest.mark.slow  # child processes
def test_concurrent_new_without_force_one_wins(tmp_path):
    for trial in range(3):
        out = tmp_path / f"same{trial}.yaml"
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "builder",
                    "new",
                    "kensei",
                    "--clan",
                    "buke",
                    "--points",
                    str(200 + 100 * i),
                    "-o",
                    out.name,
                ],
                cwd=tmp_path,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for i in range(4)
        ]
        codes = [p.wait(timeout=120) for p in procs]
        assert sorted(codes) == [0, 2, 2, 2], codes


def test_an_edit_of_a_symlinked_list_edits_the_file_it_points_to(cli, tmp_path):
    real = tmp_path / "real.yaml"
    shutil.copy(BUKE, real)
    link = tmp_path / "link.yaml"
    link.symlink_to(real.name)
    r = cli("add", link, "Yumi Samurai")
    assert r.code in (0, 1), r
    assert link.is_symlink()
    assert real.read_text().count("troop: Yumi Samurai") == BUKE.read_text().count("troop: Yumi Samurai") + 1


def test_an_output_that_is_a_dangling_symlink_needs_force(cli, tmp_path):
    link = tmp_path / "out.yaml"
    link.symlink_to("elsewhere.yaml")
    r = cli("import", BUKE, "-o", link)
    assert r.code == 2
    assert r.stderr.splitlines() == [
        f"{link}: error: is a symbolic link; not overwritten (pass --force to write the file it points to)"
    ]
    assert not (tmp_path / "elsewhere.yaml").exists()
    r = cli("import", BUKE, "-o", link, "--force")
    assert r.code == 0 and link.is_symlink() and (tmp_path / "elsewhere.yaml").read_text().startswith("system: kensei")


@pytest.mark.parametrize(
    "args",
    [
        ("print", "{list}", "-o", "{list}", "--force"),
        ("import", "{list}", "-o", "{list}", "--force"),
        ("export", "{list}", "--to", "yaml", "-o", "{list}", "--force"),
        ("export", "{list}", "--to", "code", "-o", "{link}", "--force"),
    ],
)
def test_an_output_is_never_written_over_the_input_being_read(cli, tmp_path, args):
    lst = tmp_path / "army.yaml"
    shutil.copy(BUKE, lst)
    link = tmp_path / "link.yaml"
    link.symlink_to(lst.name)
    before = lst.read_bytes()
    r = cli(*[a.format(list=lst, link=link) for a in args])
    assert r.code == 2
    (line,) = r.stderr.splitlines()
    assert line.endswith(
        "error: is an input of this command; not overwritten, even with --force (write the output to another file)"
    )
    assert lst.read_bytes() == before


def test_a_file_read_by_an_earlier_command_can_be_written_by_the_next(cli, tmp_path):
    out = tmp_path / "army.yaml"
    assert cli("import", BUKE, "-o", out).code == 0
    assert cli("check", out).code in (0, 1)
    assert cli("import", BUKE, "-o", out, "--force").code == 0


# -- output that lies --------------------------------------------------------------------------

CONTROL = ["\x1b[2J", "\x1b]0;title\x07", "\x07", "\x00", "\r", "\x7f", "\x9b31m", "\u2028", "\x08\x08\x08"]


def _has_control(text: str) -> bool:
    return any(c in text for c in "\x00\x07\x08\x0b\x0c\r\x1b\x7f\x9b\u2028\u2029")


@pytest.mark.parametrize("ctrl", CONTROL)
def test_control_characters_in_names_are_escaped_in_check_and_show(cli, tmp_path, ctrl):
    lst = tmp_path / "deck.yaml"
    import json

    lst.write_text(
        "system: senshiai\nname: "
        + json.dumps("legal" + ctrl + "x")
        + "\nnotes: "
        + json.dumps("n" + ctrl)
        + "\ncards:\n  "
        + json.dumps("W" + ctrl + "arriors")
        + ": 3\n"
    )
    for args in (("check", lst), ("show", lst), ("check", lst, "--format", "json")):
        r = cli(*args)
        assert r.code == 1, r
        assert not _has_control(r.stdout + r.stderr), (args, r)
    assert "ILLEGAL" in cli("check", lst).stdout
    json.loads(cli("check", lst, "--format", "json").stdout)  # still JSON


@pytest.mark.parametrize("ctrl", CONTROL)
@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_control_characters_are_escaped_in_text_and_markdown_exports_and_read_back(cli, tmp_path, ctrl, fmt):
    import json

    lst = tmp_path / "deck.yaml"
    lst.write_text(
        "system: senshiai\nname: "
        + json.dumps("a" + ctrl + "b")
        + "\nauthor: "
        + json.dumps(ctrl + "me")
        + "\nnotes: "
        + json.dumps("n" + ctrl + "o")
        + "\ncards:\n  "
        + json.dumps("W" + ctrl + "x")
        + ": 3\n"
    )
    out = tmp_path / f"deck.{fmt}"
    r = cli("export", lst, "--to", fmt, "-o", out)
    assert r.code == 0, r
    assert not _has_control(out.read_text(encoding="utf-8"))
    from builder.share.api import read_source

    back = read_source(str(out)).doc
    assert back == read_source(str(lst)).doc


@pytest.mark.parametrize(
    "body,changes",
    [
        (
            "system: senji\nplayers:\n  - name: Aiko\n    family: red\n    provinces:\n"
            "      - {province: Province, units: 6}\n",
            "'players'",
        ),
    ],
)
def test_a_text_export_that_would_not_read_back_the_same_is_refused(cli, tmp_path, body, changes):
    lst = tmp_path / "list.yaml"
    lst.write_text(body)
    for fmt in ("text", "markdown"):
        r = cli("export", lst, "--to", fmt)
        assert r.code == 2
        assert r.stderr.splitlines() == [
            f"daimyo: error: this list cannot be written as {fmt} so that it reads back "
            f"the same ({changes} would change) (export it as YAML or JSON (--to yaml), "
            "or as a share code (--to code))"
        ]
    assert cli("export", lst, "--to", "yaml").code == 0


@pytest.mark.parametrize(
    "body",
    [
        "system: senshiai\nname: '{WIP} deck'\ncards:\n  Warriors: 3\n",
        "system: senshiai\nname: '[draft] deck'\ncards:\n  Warriors: 1000000\n",
        "system: senshiai\nname: '\"quoted\"'\nauthor: '  spaced'\ncards:\n  Warriors: 3\n",
        "system: senji\nplayers:\n  - name: Aiko\n    family: red\n    provinces:\n      - {province: Owari 3, units: 2}\n",
        "system: kensei\nclan: buke\npoints: 400\ntroops:\n  - troop: Yari Ashigaru\n    models: 1000000\n",
    ],
)
def test_text_exports_read_back_as_the_same_list(cli, tmp_path, body):
    from builder.share.api import read_source

    lst = tmp_path / "list.yaml"
    lst.write_text(body)
    for fmt in ("text", "markdown"):
        out = tmp_path / f"out.{fmt}"
        r = cli("export", lst, "--to", fmt, "-o", out, "--force")
        if r.code == 2:  # refused: then it says so and suggests YAML
            assert "--to yaml" in r.stderr
            continue
        assert read_source(str(out)).doc == read_source(str(lst)).doc, out.read_text()


def test_names_that_differ_only_in_case_are_not_merged_by_a_text_export(cli, tmp_path):
    lst = tmp_path / "deck.yaml"
    lst.write_text("system: senshiai\ncards:\n  Warriors: 3\n  warriors: 2\n")
    for fmt in ("text", "markdown"):
        r = cli("export", lst, "--to", fmt)
        assert r.code == 2 and "listed twice" in r.stderr  # the list does not load: nothing exported
    lst.write_text(
        "system: kensei\nclan: buke\npoints: 400\ntroops:\n  - troop: My Unit\n    models: 2\n"
        "  - troop: my unit\n    models: 3\n"
    )
    from builder.share.api import read_source

    for fmt in ("text", "markdown"):
        out = tmp_path / f"out.{fmt}"
        r = cli("export", lst, "--to", fmt, "-o", out, "--force")
        assert r.code == 0, r
        assert read_source(str(out)).doc == read_source(str(lst)).doc


def test_rules_refuses_an_unknown_format(cli):
    r = cli("rules", "kensei", "--format", "xml")
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.splitlines() == ["daimyo: error: unknown format 'xml' (use text, json or markdown)"]


def test_an_edit_that_ends_in_an_error_leaves_the_file_untouched(cli, tmp_path):
    lst = tmp_path / "army.yaml"
    lst.write_text(BUKE.read_text() + "house_rules:\n  no_such_rule: 3\n")
    before = lst.read_bytes()
    for args in (("set", lst, "name", "NEW"), ("add", lst, "Yari Ashigaru"), ("remove", lst, "Yari Ashigaru")):
        r = cli(*args)
        assert r.code == 2 and "unknown house rule 'no_such_rule'" in r.stderr, r
        assert lst.read_bytes() == before


# -- images ---------------------------------------------------------------------------------------


def _png_header(width: int, height: int, mode: int = 0, depth: int = 1) -> bytes:
    """A PNG of that size whose pixels are all zero (a few KB: an image a decompression bomb is
    made of)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    row = b"\x00" * (1 + (width * depth + 7) // 8)
    comp = zlib.compressobj(9)
    data = b"".join(comp.compress(row) for _ in range(min(height, 64))) + comp.flush()
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, mode, 0, 0, 0))
        + chunk(b"IDAT", data)
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("width,height", [(20000, 20000), (12000, 12000), (8000, 8000), (100000, 1000)])
def test_a_huge_image_is_one_line_naming_the_file_and_its_size(cli, tmp_path, width, height):
    lst = tmp_path / "l.yaml"
    lst.write_text("system: satsuma\nside: samurai\ncards:\n  Bushido: 1\n")
    (tmp_path / "art").mkdir()
    img = tmp_path / "art" / "bushido.png"
    img.write_bytes(_png_header(width, height))
    assert img.stat().st_size < 60_000
    out = tmp_path / "x.pdf"
    r = cli("print", lst, "-o", out)
    assert r.code == 2, r
    (line,) = r.stderr.splitlines()
    assert line.startswith(f"daimyo: error: image '{img}' is too large: ")
    assert f"{width * height:,} pixels" in line and "(at most 50,000,000 pixels)" in line
    assert not out.exists()


@pytest.mark.parametrize(
    "size,mode",
    [
        ((40, 30), "RGB"),
        ((30, 40), "L"),
        ((20, 20), "RGBA"),
        ((25, 25), "P"),
        ((16, 16), "1"),
        ((20, 10), "I;16"),
        ((12, 12), "CMYK"),
        ((10, 10), "LA"),
    ],
)
def test_small_images_of_every_mode_print(cli, tmp_path, size, mode):
    from PIL import Image

    lst = tmp_path / "l.yaml"
    lst.write_text("system: satsuma\nside: samurai\ncards:\n  Bushido: 1\n")
    (tmp_path / "art").mkdir()
    img = Image.new(mode, size)
    img.save(tmp_path / "art" / ("bushido.jpg" if mode == "CMYK" else "bushido.png"))
    r = cli("print", lst, "-o", tmp_path / "x.pdf")
    assert r.code == 0, r


def test_a_share_code_never_reads_pack_files_outside_the_packs_folders(cli, tmp_path, monkeypatch):
    secret = tmp_path / "secret.yaml"
    secret.write_text(
        (ROOT / "examples" / "packs" / "senshiai-example.yaml")
        .read_text()
        .replace("name: Senshiai example cards", "name: Top secret", 1)
    )
    inner = tmp_path / "inner"
    inner.mkdir()
    lst = inner / "l.yaml"
    lst.write_text(f"system: senshiai\npacks: [../secret.yaml, {secret}]\ncards:\n  Warriors: 3\n")
    code = cli("export", lst, "--to", "code").stdout.strip()
    monkeypatch.chdir(inner)
    r = cli("show", code)
    assert "packs: Top secret" not in r.stdout  # the check used no pack of that name
    assert r.stderr.count("is missing here; checked without it") == 2, r


# -- paper sizes ----------------------------------------------------------------------------------

PAPER_DOCS = {
    "roster": ("print", ROOT / "examples" / "kensei-buke.yaml", "--unit-cards"),
    "setup sheet": ("print", ROOT / "examples" / "senji-three-daimyo.yaml"),
    "card sheet": ("print", ROOT / "examples" / "satsuma-samurai.yaml"),
    "player aid": ("aid", "senji", "--players", "6"),
    "alignment sheet": ("print-test",),
}


@pytest.mark.parametrize("paper", ["300000x300000", "49x297", "210x2001", "0x0", "-5x100"])
def test_paper_outside_the_range_is_one_line(cli, tmp_path, paper):
    for args in PAPER_DOCS.values():
        r = cli(*args, "--paper", paper, "-o", tmp_path / "p.pdf")
        assert r.code == 2
        (line,) = r.stderr.splitlines()
        assert line.startswith("daimyo: error:") and paper in line, r
        if not paper.startswith(("0", "-")):
            assert f"paper '{paper}' " in line and "must be between 50 and 2000 mm" in line
    assert not (tmp_path / "p.pdf").exists()


PAPERS_IN_RANGE = ("50x50", "60x297", "297x60", "100x100", "105x148", "148x210", "50x2000", "2000x50", "1200x1200")
EVERY_DOCUMENT = {
    "roster": ("print", ROOT / "examples" / "kensei-kuge.yaml", "--unit-cards"),
    "setup sheet": ("print", ROOT / "examples" / "senji-three-daimyo.yaml"),
    "kensei aid": ("aid", "kensei"),
    "senji aid": ("aid", "senji", "--players", "6"),
    "satsuma aid": ("aid", "satsuma"),
    "senshiai aid": ("aid", "senshiai"),
    "herocard aid": ("aid", "herocard"),
    "alignment sheet": ("print-test",),
    "card sheet (a card that fits)": ("print", ROOT / "examples" / "satsuma-samurai.yaml", "--card", "36x36"),
}


def _text_boxes(path, pages: int = 2):
    """(page width, page height, [(x0, top, x1, bottom) of every character]) of the first pages, in mm."""
    import pdfplumber
    from pdfcheck import chars, text_pages

    k = 25.4 / 72
    with pdfplumber.open(str(path)) as pdf:
        for page in text_pages(pdf, slice(pages)):
            yield (
                float(page.width) * k,
                float(page.height) * k,
                [(c["x0"] * k, c["top"] * k, c["x1"] * k, c["bottom"] * k) for c in chars(page)],
            )


@pytest.mark.parametrize(  # the quick loop prints on one paper, the suite on every one: nine documents each
    "paper", [pytest.param(p, marks=() if p == "50x2000" else pytest.mark.slow) for p in PAPERS_IN_RANGE]
)
def test_every_document_prints_on_every_paper_in_the_range(cli, tmp_path, paper):
    """Inside the accepted range every document prints: rosters, setup sheets and aids shrink
    their type and reflow their tables (more pages), and nothing is drawn off the page or in
    the printers' unprintable band; only an item that cannot fit (unit cards on paper smaller
    than A6) is left out, with one line saying so."""
    w, h = (float(x) for x in paper.split("x"))
    for what, args in EVERY_DOCUMENT.items():
        out = tmp_path / f"{what}.pdf"
        r = cli(*args, "--paper", paper, "-o", out, "--force")
        if what == "alignment sheet" and min(w, h) < 148:  # its rulers are 100 mm: one line
            assert r.code == 2, (paper, r)
            (line,) = r.stderr.splitlines()
            assert f"the alignment sheet does not fit on {paper} mm paper" in line and "A5" in line, r
            continue
        assert r.code == 0, (paper, what, r)
        warnings = [ln for ln in r.stderr.splitlines() if "warning" in ln and "not legal" not in ln]
        if what == "roster" and min(w, h) < 100:
            (line,) = warnings
            assert "unit cards (63.5x88.9 mm) do not fit on " + paper + " mm paper" in line, r
        elif what != "card sheet (a card that fits)":  # a full sheet may say where its labels went
            assert not warnings, (paper, what, r)
        for pw, ph, boxes in _text_boxes(out):
            assert abs(pw - w) < 0.1 and abs(ph - h) < 0.1
            assert boxes, (paper, what)
            for x0, top, x1, bottom in boxes:  # every letter on the page, 4.5 mm from the edges
                assert x0 >= 4.5 and top >= 4.5 and x1 <= w - 4.5 and bottom <= h - 4.5, (
                    paper,
                    what,
                    (x0, top, x1, bottom),
                )


def test_a_card_larger_than_the_paper_is_refused_in_one_line(cli, tmp_path):
    for paper in ("50x50", "60x297", "297x60", "2000x50"):
        r = cli("print", ROOT / "examples" / "satsuma-samurai.yaml", "--paper", paper, "-o", tmp_path / "c.pdf")
        assert r.code == 2
        (line,) = r.stderr.splitlines()
        assert "a 63.5x88.9 mm card does not fit on " + paper + " mm paper" in line, r
    assert not (tmp_path / "c.pdf").exists()


def test_stats_and_hands_escape_control_characters_in_names(cli, tmp_path):
    text = (ROOT / "examples" / "satsuma-samurai.yaml").read_text(encoding="utf-8").splitlines()
    at = next(i for i, ln in enumerate(text) if ln.startswith("name:"))
    text[at] = 'name: "Evil\\e[2J\\aname"'
    lst = tmp_path / "evil.yaml"
    lst.write_text("\n".join(text) + "\n", encoding="utf-8")
    for args in (("stats", lst), ("hand", lst, "--seed", "1")):
        r = cli(*args)
        assert r.code == 0, (args, r)
        assert "\x1b" not in r.stdout and "\x07" not in r.stdout, args
        assert 'satsuma "Evil\\x1b[2J\\x07name"' in r.stdout, (args, r.stdout)
