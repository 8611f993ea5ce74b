"""Reading pasted lists: linear in the size of the text (no pattern that backtracks over a long
run of spaces or quotes), at most MAX_TEXT_LINES lines, and standard input held to the limits of
a list file (size; packs found by name in the packs folders only)."""

import shutil
import signal

import pytest

from builder.errors import ListError
from builder.limits import MAX_FILE_BYTES, MAX_TEXT_LINES
from builder.share.text import parse_text

from conftest import ROOT

M = 1_000_000  # one MB of pathological text; a quadratic reader takes hours on it


class within:
    """Fail (instead of hanging the suite) when the block runs longer than ``seconds``; the
    bound is generous: speed is measured in benchmarks/, this only tells linear from quadratic."""

    def __init__(self, seconds: int = 60):
        self.seconds = seconds

    def __enter__(self):
        def stop(*_):
            raise AssertionError(f"still reading after {self.seconds} s: the reader is not linear")

        self.old = signal.signal(signal.SIGALRM, stop)
        signal.alarm(self.seconds)

    def __exit__(self, *exc):
        signal.alarm(0)
        signal.signal(signal.SIGALRM, self.old)
        return False


SPACES = " " * M

CASES = [
    # (system, text, what it reads as)
    ("senshiai", "Warriors" + SPACES + "x3", {"cards": {"Warriors": 3}}),
    ("senshiai", "Warriors" + SPACES + "(3)", {"cards": {"Warriors": 3}}),
    ("senshiai", "2 Warriors" + SPACES + "*f*", {"cards": {"Warriors": 2}}),
    ("kensei", "5x Samurai Yari" + SPACES + "(25 AP)", {"troops": [{"troop": "Samurai Yari", "models": 5}]}),
    (
        "kensei",
        "name" + SPACES + ": Big army\n4 Yari Ashigaru",
        {"name": "Big army", "troops": [{"troop": "Yari Ashigaru", "models": 4}]},
    ),
    (
        "senji",
        "Aiko - red - Kyushu" + SPACES + "2+S",
        {
            "players": [
                {"name": "Aiko", "family": "red", "provinces": [{"province": "Kyushu", "units": 2, "samurai": True}]}
            ]
        },
    ),
]


@pytest.mark.parametrize("system,text,want", CASES, ids=[f"{s}-{i}" for i, (s, _, _) in enumerate(CASES)])
def test_long_runs_of_spaces_read_in_linear_time(system, text, want):
    with within():
        doc, _ = parse_text(text, system=system)
    for key, value in want.items():
        assert doc[key] == value


def test_a_header_with_a_long_gap_before_its_separator():
    with within():
        doc, _ = parse_text("Deck" + SPACES + "- Senshiai\n2 Warriors\n")
    assert doc["system"] == "senshiai" and doc["name"] == "Deck" and doc["cards"] == {"Warriors": 2}


@pytest.mark.parametrize(
    "line", ['2 "' + '\\"' * (M // 2), '"' * 3 + "a" * M, "(" * M, "a " * (M // 2), " - " * (M // 3), "1" * M]
)
def test_pathological_lines_end_in_one_verdict(line):
    """Unclosed quotes full of escapes, brackets, separators: a result or one located error."""
    with within():
        try:
            doc, _ = parse_text("senshiai\n" + line, system="senshiai")
        except ListError as exc:
            assert len(exc.diagnostics) == 1 and exc.diagnostics[0].line == 2
        else:
            assert doc["system"] == "senshiai"


def test_a_megabyte_of_lines_is_refused_in_one_line():
    text = "senshiai\n" + "2 Warriors\n" * (M // 11)
    with within(), pytest.raises(ListError) as exc:
        parse_text(text)
    (d,) = exc.value.diagnostics
    assert f"a text or Markdown list has at most {MAX_TEXT_LINES:,}" in d.message and d.line == MAX_TEXT_LINES + 1


def test_a_text_of_the_most_lines_is_read():
    lines = [f"1 Card {i}" for i in range(MAX_TEXT_LINES - 1)]
    doc, notes = parse_text("My deck - Senshiai\n" + "\n".join(lines))
    assert len(doc["cards"]) == MAX_TEXT_LINES - 1
    # every unknown name is named; the first ones with suggestions
    assert len(notes) == MAX_TEXT_LINES - 1


def test_a_list_too_long_for_text_is_not_exported_as_text(cli, tmp_path):
    f = tmp_path / "big.yaml"
    f.write_text(
        "system: kensei\nclan: buke\npoints: 200\ntroops:\n"
        + "  - troop: Samurai Yari\n    models: 3\n" * (MAX_TEXT_LINES + 5),
        encoding="utf-8",
    )
    r = cli("export", f, "--to", "text")
    assert r.code == 2 and "cannot be written as text" in r.stderr and "--to yaml" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


# -- standard input: the limits of a list file ----------------------------------------------------


def test_standard_input_larger_than_a_list_file_is_refused(cli):
    r = cli("show", "-", input="senshiai\n" + "#" * (MAX_FILE_BYTES + 10))
    assert r.code == 2
    assert r.stderr.strip() == (
        f"<stdin>: error: standard input too large: over {MAX_FILE_BYTES:,} bytes (split it into smaller lists)"
    )


@pytest.mark.parametrize("fmt", ["text", "markdown", "yaml"])
def test_a_pasted_list_finds_packs_by_name_only(cli, tmp_path, monkeypatch, fmt):
    """A pasted list naming a pack by a path (outside the packs folders) does not read that file;
    a pack of the packs folders, named by its name, is used."""
    packs = tmp_path / "user-packs"
    packs.mkdir()
    monkeypatch.setenv("DAIMYO_PACKS", str(packs))
    shutil.copy(ROOT / "examples" / "packs" / "senshiai-example.yaml", tmp_path / "secret.yaml")
    monkeypatch.chdir(tmp_path / "user-packs")
    lines = {
        "text": "Deck - Senshiai\npacks: ../secret.yaml\n6 Warriors\n",
        "markdown": "**Deck - Senshiai**\n\n*Packs:* ../secret.yaml\n\n- 6 Warriors\n",
        "yaml": "system: senshiai\nname: Deck\npacks: [../secret.yaml]\ncards: {Warriors: 6}\n",
    }[fmt]
    r = cli("show", "-", input=lines)
    assert "pack '../secret.yaml' is missing here" in r.stderr + r.stdout
    assert "complete the card in a pack" in r.stdout  # checked without it: Warriors lacks its data
    # the same pack installed in the packs folder and named by its name: used
    shutil.copy(ROOT / "examples" / "packs" / "senshiai-example.yaml", packs / "senshiai-example.yaml")
    r = cli("show", "-", input=lines.replace("../secret.yaml", "senshiai-example"))
    assert "missing here" not in r.stderr + r.stdout and "complete the card" not in r.stdout, r
