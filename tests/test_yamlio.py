import pytest

from builder.errors import DaimyoError
from builder.yamlio import atomic_write, parse_yaml


def test_positions_for_every_value():
    data, pos = parse_yaml("a: 1\nb:\n  - x: yes\n    y: [1, 2.5, null]\n", "t.yaml")
    assert data == {"a": 1, "b": [{"x": "yes", "y": [1, 2.5, None]}]}
    assert pos.at(("b", 0, "y", 1)) == (4, 12)
    assert pos.at(("b", 0, "x")) == (3, 8)
    # a missing path falls back to its nearest ancestor
    assert pos.at(("b", 0, "zzz")) == (3, 5)


def test_syntax_error_is_one_line_with_position():
    with pytest.raises(DaimyoError) as ei:
        parse_yaml("a: [1\nb: 2", "bad.yaml")
    (line,) = ei.value.lines()
    assert line.startswith("bad.yaml:2:2: error: YAML syntax")


def test_duplicate_key_rejected():
    with pytest.raises(DaimyoError) as ei:
        parse_yaml("a: 1\na: 2\n", "dup.yaml")
    assert ei.value.lines() == ["dup.yaml:2:1: error: duplicate key 'a' (each key may appear once in a mapping)"]


def test_atomic_write_refuses_without_force(tmp_path):
    p = tmp_path / "x.txt"
    atomic_write(p, "one")
    with pytest.raises(DaimyoError) as ei:
        atomic_write(p, "two", force=False)
    assert "'force'" in ei.value.lines()[0]  # the library names the parameter
    assert "--force" in ei.value.lines(flags=True)[0]  # the command line, the flag
    assert p.read_text() == "one"
    atomic_write(p, "two", force=True)
    assert p.read_text() == "two"
    assert [x.name for x in tmp_path.iterdir()] == ["x.txt"]


def test_control_character_is_one_line_at_its_position():
    # the reader error of a NUL byte carries no mark and a multi-line text
    with pytest.raises(DaimyoError) as ei:
        parse_yaml("system: senshiai\nname: \u00e9\u00e9\x00\n", "nul.yaml")
    assert ei.value.lines() == [
        "nul.yaml:2:9: error: YAML: unacceptable character #x0000: control characters "
        "are not allowed (remove the character or save the file as plain text)"
    ]


def test_not_utf8_points_at_the_line_of_the_bad_byte(tmp_path):
    from builder.yamlio import read_text

    p = tmp_path / "latin1.yaml"
    p.write_bytes(b"system: senshiai\nname: \xc3\xa9\xc3\xa9\xff\n")
    with pytest.raises(DaimyoError) as ei:
        read_text(p)
    assert ei.value.lines() == [f"{p}:2:9: error: not UTF-8 text (save the file as UTF-8)"]


def test_atomic_write_says_why_it_cannot_write(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        (blocker / "out.pdf", "cannot write: a part of the folder path is a file"),
        (tmp_path / ("x" * 300), "cannot write: File name too long"),
        (tmp_path, "is a folder, not a file"),
    ]
    for target, message in cases:
        with pytest.raises(DaimyoError) as ei:
            atomic_write(target, "data", force=True)
        (line,) = ei.value.lines()
        assert line.startswith(f"{target}: error: {message}"), line


def test_atomic_write_never_replaces_a_device():
    import os

    before = os.stat("/dev/null")
    with pytest.raises(DaimyoError) as ei:
        atomic_write("/dev/null", "data", force=True)
    assert ei.value.lines() == ["/dev/null: error: is not a regular file; not replaced (give the name of a file)"]
    assert os.stat("/dev/null").st_rdev == before.st_rdev


@pytest.mark.parametrize(
    "text",
    [
        "notes: " + "[" * 100_000 + "]" * 100_000 + "\n",  # the C composer would overflow its stack
        "notes: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n",
        "notes:\n" + "- " * 60_000 + "x\n",
    ],
)
def test_deep_nesting_is_one_line_not_a_crash(text):
    with pytest.raises(DaimyoError) as ei:
        parse_yaml(text, "deep.yaml")
    assert ei.value.lines() == [
        "deep.yaml:1:1: error: values nested more than 100 levels deep (a list or catalog needs a few levels)"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "notes: " + "[" * 990 + "]" * 990 + "\n",
        "notes:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(150)) + " " * 151 + "x: 1\n",
        "notes:\n" + "- " * 150 + "x\n",
        "notes:\n" + "".join("  " * i + "- k:\n" for i in range(60)) + "  " * 60 + "x\n",
    ],
)
def test_nesting_beyond_the_limit_is_one_line_by_brackets_indentation_or_dashes(text):
    with pytest.raises(DaimyoError) as ei:
        parse_yaml(text, "deep.yaml")
    assert ei.value.lines() == [
        "deep.yaml:1:1: error: values nested more than 100 levels deep (a list or catalog needs a few levels)"
    ]


def test_nesting_at_the_limit_reads():
    text = "notes:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(98)) + " " * 99 + "x: 1\n"
    data, _ = parse_yaml(text, "ok.yaml")
    for i in range(98):
        data = data["notes" if i == 0 else f"k{i - 1}"]
    assert data == {"k97": {"x": 1}}


def test_alias_bomb_is_refused_at_the_alias():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    with pytest.raises(DaimyoError) as ei:
        parse_yaml("\n".join(lines) + "\n", "bomb.yaml")
    (line,) = ei.value.lines()
    assert line.startswith("bomb.yaml:") and "aliases expand to far more values than the document holds" in line
    # a few aliases are fine
    data, _ = parse_yaml("a: &x [1, 2]\nb: *x\nc: *x\n", "ok.yaml")
    assert data == {"a": [1, 2], "b": [1, 2], "c": [1, 2]}


def test_a_yaml_1_1_directive_changes_nothing():
    """Values are read by the YAML 1.2 rules whatever ``%YAML`` directive a document starts
    with: 'yes' and 'On' stay text, 017 is seventeen, 1:30 is text (no sexagesimal numbers)."""
    import datetime

    body = (
        "a: yes\nb: 017\nc: 0o17\nd: 1:30\ne: 1e3\nf: 1_000\ng: 0b11\nh: 0x1f\ni: On\nj: ~\n"
        'k: 2001-12-14\nl: !!float 1\nm: "12"\nn: !!str 12\no: true\np: -.5\nq: 0.5e+1\n'
    )
    expected = {
        "a": "yes",
        "b": 17,
        "c": 15,
        "d": "1:30",
        "e": 1000.0,
        "f": 1000,
        "g": 3,
        "h": 31,
        "i": "On",
        "j": None,
        "k": datetime.date(2001, 12, 14),
        "l": 1.0,
        "m": "12",
        "n": "12",
        "o": True,
        "p": -0.5,
        "q": 5.0,
    }
    for head, first in (("", 1), ("---\n", 2), ("%YAML 1.1\n---\n", 3), ("%YAML 1.2\n---\n", 3)):
        data, pos = parse_yaml(head + body, "v.yaml")
        assert data == expected
        assert [type(v) for v in data.values()] == [type(v) for v in expected.values()]
        assert pos.at(()) == (first, 1)
        assert [pos.at((k,)) for k in expected] == [(first + i, 4) for i in range(len(expected))]
        assert [pos.at((k,), prefer_key=True) for k in expected] == [(first + i, 1) for i in range(len(expected))]
    assert parse_yaml("%YAML 1.1\n--- yes\n")[0] == "yes"
    assert parse_yaml("%YAML 1.1\n---\n- 0777\n- 12:30:00\n- n\n- off\n")[0] == [777, "12:30:00", "n", "off"]
