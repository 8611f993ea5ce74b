"""daimyo export / import / show: exit codes, --force, stdin, codes on the command line."""

from __future__ import annotations

import pytest

from conftest import DATA, ROOT

BUKE = ROOT / "examples" / "kensei-buke.yaml"
ILLEGAL = DATA / "share" / "kensei-illegal.yaml"


def test_export_text_to_stdout(cli):
    r = cli("export", BUKE, "--to", "text")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines()[0] == "Buke vanguard (rulebook sample) - Kensei - clan Buke - 200/200 AP"
    assert "5x Samurai Yari (25)" in r.stdout


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "yaml", "code"])
def test_export_then_import_gives_the_canonical_yaml(cli, tmp_path, fmt):
    out = tmp_path / f"list.{fmt}"
    r = cli("export", ILLEGAL, "--to", fmt, "-o", out)
    assert r.code == 0, r.stderr
    r2 = cli("import", out)
    assert r2.code == 0, r2.stderr
    r3 = cli("export", ILLEGAL, "--to", "yaml")
    want = r3.stdout.replace("occult: false\n", "") if fmt in ("text", "markdown") else r3.stdout
    assert r2.stdout == want  # a text leaves occult powers unsaid when unused


def test_import_writes_with_force_only(cli, tmp_path):
    code = cli("export", BUKE, "--to", "code").stdout.strip()
    target = tmp_path / "army.yaml"
    target.write_text("mine\n")
    r = cli("import", code, "-o", target)
    assert r.code == 2
    assert "file exists; not overwritten (pass --force to replace it)" in r.stderr
    assert target.read_text() == "mine\n"
    r = cli("import", code, "-o", target, "--force")
    assert r.code == 0, r.stderr
    assert target.read_text().startswith("system: kensei\nname: Buke vanguard (rulebook sample)\n")
    assert cli("check", target).code == 0


def test_export_refuses_to_overwrite(cli, tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("keep")
    assert cli("export", BUKE, "-o", target).code == 2
    assert target.read_text() == "keep"
    assert cli("export", BUKE, "-o", target, "--force").code == 0
    assert target.read_text().startswith("Buke vanguard")


def test_import_from_stdin(cli):
    r = cli("import", "-", input="Deck - Senshiai - 10/50 cards\n6 warriors\n4 Militia\n")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == [
        "system: senshiai",
        "name: Deck",
        "size: 50",
        "cards:",
        "  Warriors: 6",
        "  Militia: 4",
    ]
    assert "<stdin>:3:3: warning: unknown card 'Militia'; did you mean 'Militiamen'?" in r.stderr


def test_import_plain_deck_with_system_option(cli):
    r = cli("import", "-", "--system", "senshiai", input="3 Warriors\n")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == ["system: senshiai", "cards:", "  Warriors: 3"]
    # a deck that is not yet a list 'check' reads (a HeroCard deck needs the hero's attributes): said, not written
    r = cli("import", "-", "--system", "herocard", input="3 Overhand Thrust\n")
    assert r.code == 2 and r.stdout == "" and "missing 'attributes:'" in r.stderr


def test_damaged_code_exits_2_without_traceback(cli):
    code = cli("export", BUKE, "--to", "code").stdout.strip()
    i = len(code) // 2
    damaged = code[:i] + ("A" if code[i] != "A" else "B") + code[i + 1 :]
    for cmd in ("import", "show"):
        r = cli(cmd, damaged)
        assert r.code == 2
        assert r.stderr.startswith("<code>:1:1: error: share code damaged")
        assert "Traceback" not in r.stderr


def test_malformed_text_exits_2_with_positions(cli, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("Army - Kensei - clan buke - 200 AP\nOccult: perhaps\n")
    r = cli("import", bad)
    assert r.code == 2
    assert r.stderr.strip() == f"{bad}:2:9: error: occult must be yes or no, not 'perhaps'"


def test_missing_source(cli):
    r = cli("import", "no/such/file.yaml")
    assert r.code == 2
    assert "no/such/file.yaml: error: file not found" in r.stderr


def test_unknown_format(cli):
    r = cli("export", BUKE, "--to", "xml")
    assert r.code == 2
    assert "unknown format 'xml'" in r.stderr


def test_export_of_an_unreadable_list_exits_2(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: kensei\nclan: buke\npoints: 200\ntroops:\n  - troop: Samurai Yari\n    models: 0\n")
    r = cli("export", bad, "--to", "code")
    assert r.code == 2
    assert f"{bad}:6:13: error:" in r.stderr


def test_show_a_code_with_its_check_result(cli):
    code = cli("export", BUKE, "--to", "code").stdout.strip()
    r = cli("show", code)
    assert r.code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "Buke vanguard (rulebook sample) - Kensei - clan Buke - 200/200 AP"
    assert any(ln.startswith('<code>: kensei "Buke vanguard (rulebook sample)": legal') for ln in lines)


def test_show_an_illegal_list_exits_1(cli):
    r = cli("show", ILLEGAL)
    assert r.code == 1, r.stderr
    assert "ILLEGAL" in r.stdout
    assert "kensei.unknown-troop: unknown troop 'Samuri Yari'; did you mean 'Samurai Yari'?" in r.stdout


def test_every_example_shows_legal(cli):
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        code = cli("export", path, "--to", "code").stdout.strip()
        r = cli("show", path)
        assert r.code == 0, (path, r.stdout, r.stderr)
        # a received code is read without the sender's packs: it still decodes
        assert cli("import", code).code == 0


def test_show_a_code_without_the_senders_packs(cli, tmp_path, monkeypatch):
    sender = tmp_path / "sender"
    sender.mkdir()
    board = (ROOT / "examples" / "packs" / "senji-board.yaml").read_text()
    (sender / "my-board.yaml").write_text(
        board.replace("name: Example board (historical province names)", "name: Club board").replace(
            'version: "1"', 'version: "3"'
        )
    )
    lst = (ROOT / "examples" / "senji-three-daimyo.yaml").read_text().replace("packs/senji-board.yaml", "my-board.yaml")
    (sender / "setup.yaml").write_text(lst)
    code = cli("export", sender / "setup.yaml", "--to", "code").stdout.strip()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    r = cli("show", code)
    assert r.code == 1
    assert (
        "<code>: warning: pack 'Club board' version 3 is missing here; checked without it, so the names "
        "it adds count as unknown (a bundle carries the pack: 'daimyo export LIST --to bundle' on the "
        "sender's side)"
    ) in r.stderr
    assert "<code>: error senji.unknown-name: unknown province 'Owari'" in r.stdout
    # the bundled example board is found by name, from any folder
    code = cli("export", ROOT / "examples" / "senji-three-daimyo.yaml", "--to", "code").stdout.strip()
    r = cli("show", code)
    assert r.code == 0, r.stdout + r.stderr


def test_deeply_nested_json_and_text_values_are_one_line(cli, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"system": "kensei", "notes": ' + "[" * 100_000 + "]" * 100_000 + "}")
    for command in ("import", "show", "export"):
        r = cli(command, deep)
        assert r.code == 2
        assert r.stderr.splitlines() == [
            f"{deep}:1:1: error: values nested more than 100 levels deep (a list or catalog needs a few levels)"
        ]
    text = tmp_path / "deep.txt"
    text.write_text(
        'Kensei - clan buke - 20/200 AP\nHouse rules: {"cavalry_max_percent": '
        + "[" * 5000
        + "]" * 5000
        + "}\n\nTaisho Buke (20)\n"
    )
    r = cli("import", text)
    assert r.code == 2
    (line,) = r.stderr.splitlines()
    assert line.startswith(f"{text}:2:14: error: cannot read '")
