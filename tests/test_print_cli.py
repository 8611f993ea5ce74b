"""``daimyo print``, ``print-test``: exit codes and one-line messages for bad options."""

from pathlib import Path

import pytest

EX = Path(__file__).resolve().parent.parent / "examples"
SAMURAI = EX / "satsuma-samurai.yaml"


def test_print_writes_a_pdf(cli, tmp_path):
    out = tmp_path / "deck.pdf"
    r = cli(
        "print",
        SAMURAI,
        "-o",
        out,
        "--paper",
        "letter",
        "--card",
        "bridge",
        "--bleed",
        "1",
        "--duplex",
        "short",
        "--offset",
        "0.5,-0.5",
    )
    assert r.code == 0, r.stderr
    # bridge cards are narrower than poker: the longest rules texts shrink under 6 pt, and one
    # warning says so, naming the cards; then where the PDF went
    warning, wrote = r.stderr.splitlines()
    assert warning.startswith("daimyo: warning: on 57.15x88.9 mm cards text prints under 6 pt") and "'" in warning
    assert wrote == f"wrote {out}" and r.stdout == ""
    assert out.read_bytes().startswith(b"%PDF-1.7")
    # at poker size nothing is that small: the PDF is all that is said
    out2 = tmp_path / "poker.pdf"
    r = cli("print", SAMURAI, "-o", out2, "--paper", "letter", "--card", "poker")
    assert r.code == 0 and r.stderr == f"wrote {out2}\n"


@pytest.mark.parametrize(
    "args,message",
    [
        (["--paper", "a5"], "daimyo: error: unknown paper 'a5' (use a4, letter or WxH in millimetres such as 210x297)"),
        (["--card", "jumbo"], "daimyo: error: unknown card size 'jumbo'"),
        (
            ["--card", "300x400"],
            "daimyo: error: a 300x400 mm card does not fit on 210x297 mm paper inside 5 mm margins",
        ),
        (["--card", "195x285", "--bleed", "3"], "daimyo: error: a bleed of 3 mm does not fit"),
        (["--bleed", "12"], "daimyo: error: bleed must be between 0 and 6 mm, not 12 (3 mm is usual)"),
        (["--bleed", "nan"], "daimyo: error: bleed must be between 0 and 6 mm, not nan"),
        (["--duplex", "sideways"], "daimyo: error: unknown duplex mode 'sideways' (use long or short)"),
        (["--offset", "abc"], "daimyo: error: bad offset 'abc'"),
    ],
)
def test_bad_options_one_line_exit_2(cli, tmp_path, args, message):
    out = tmp_path / "x.pdf"
    r = cli("print", SAMURAI, "-o", out, *args)
    assert r.code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), r.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    "body,where,number",
    [
        ("system: senshiai\ncards:\n  Warriors: 1000000000000000000000\n", "3:13", 10**21),
        ("system: satsuma\nside: samurai\ncards: {Bushido: 100000000000000000000000000}\n", "3:18", 10**26),
    ],
)
def test_a_count_beyond_the_number_range_is_refused_where_it_is_written(cli, tmp_path, body, where, number):
    lst = tmp_path / "huge.yaml"
    lst.write_text(body)
    r = cli("print", lst, "-o", tmp_path / "huge.pdf")
    assert r.code == 2
    assert r.stderr.splitlines() == [
        f"{lst}:{where}: error: number out of range: {number} (numbers go from -1,000,000 to 1,000,000)"
    ]


def test_existing_output_needs_force(cli, tmp_path):
    out = tmp_path / "deck.pdf"
    out.write_bytes(b"mine")
    r = cli("print", SAMURAI, "-o", out)
    assert r.code == 2 and "not overwritten" in r.stderr and "--force" in r.stderr
    assert out.read_bytes() == b"mine"
    r = cli("print", SAMURAI, "-o", out, "--force")
    assert r.code == 0 and out.read_bytes().startswith(b"%PDF")


def test_unreadable_list_is_exit_2(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: satsuma\nside: [\n")
    r = cli("print", bad, "-o", tmp_path / "x.pdf")
    assert r.code == 2 and "Traceback" not in r.stderr and r.stderr.startswith(str(bad))


def test_broken_image_is_exit_2(cli, tmp_path):
    lst = tmp_path / "l.yaml"
    lst.write_text("system: satsuma\nside: samurai\ncards:\n  Bushido: 1\n")
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "bushido.jpg").write_bytes(b"\xff\xd8 broken")
    r = cli("print", lst, "-o", tmp_path / "x.pdf")
    assert r.code == 2
    assert r.stderr.startswith("daimyo: error: cannot read image")


def test_no_marks_no_backs(cli, tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "d.pdf"
    r = cli("print", SAMURAI, "-o", out, "--no-backs", "--no-marks", "--ink-saver")
    assert r.code == 0
    reader = PdfReader(out)
    assert len(reader.pages) == 7  # 46 cards, fronts only, and the list page
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"


def test_print_test(cli, tmp_path):
    out = tmp_path / "test.pdf"
    r = cli("print-test", "--paper", "a4", "-o", out)
    assert r.code == 0 and out.exists()
    r = cli("print-test", "--paper", "a3", "-o", tmp_path / "t2.pdf")
    assert r.code == 2 and "unknown paper 'a3'" in r.stderr


@pytest.mark.parametrize(
    "body,count",
    [
        ("system: senshiai\ncards:\n  Warriors: 20000\n", 20000),
        ("system: satsuma\nside: samurai\ncards: {Bushido: 1000000}\n", 1000000),
    ],
)
def test_huge_card_count_is_refused_in_one_line(cli, tmp_path, body, count):
    lst = tmp_path / "huge.yaml"
    lst.write_text(body)
    out = tmp_path / "huge.pdf"
    r = cli("print", lst, "-o", out)
    assert r.code == 2
    assert r.stderr.splitlines() == [
        f"daimyo: error: the list holds {count} cards; one PDF prints at most 10000 (check the card counts)"
    ]
    assert not out.exists()
