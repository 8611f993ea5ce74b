"""The main job: `daimyo demo` validates the catalog, checks every example, prints every PDF."""

import shutil
from pathlib import Path

import pytest

from builder import SYSTEMS
from builder.demo import example_lists

from conftest import run_cli


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    """One whole ``daimyo demo`` (every example and every player aid printed): its result and
    its output folder, which the tests below copy and run the demo in again."""
    out = tmp_path_factory.mktemp("demo") / "out"
    return run_cli("demo", "--out", str(out)), out


@pytest.fixture
def one_example(monkeypatch):
    """The demo again on one example list and one player aid (the ones the tests look at): each
    file goes through the same steps, so the others are left out after the first whole run."""
    import builder.demo

    monkeypatch.setattr(
        builder.demo, "example_lists", lambda: [p for p in example_lists() if p.name == "kensei-buke.yaml"]
    )
    monkeypatch.setattr(builder.demo, "SYSTEMS", ("senji",))


def test_examples_cover_every_system():
    from builder.lists.document import load_list

    systems = {load_list(p).system for p in example_lists()}
    assert systems == set(SYSTEMS)


def test_demo_checks_and_prints_everything(demo_run):
    res, out = demo_run
    assert res.code == 0, res.stdout + res.stderr
    for system in SYSTEMS:
        assert f"{system}: ok" in res.stdout
    for path in example_lists():
        assert f"examples/{path.name}: " in res.stdout
        pdf = out / f"{path.stem}.pdf"
        assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF"), pdf
        assert f"{path.name} -> {pdf}" in res.stdout
    for system in SYSTEMS:
        assert (out / f"aid-{system}.pdf").is_file()
    assert "all example lists are legal" in res.stdout
    assert "ILLEGAL" not in res.stdout


def test_rules_markdown_lists_every_house_rule(cli):
    from builder.catalog.loader import load_catalog

    for system in SYSTEMS:
        res = cli("rules", system, "--format", "markdown")
        assert res.code == 0
        for rule_id in load_catalog(system).default_rules():
            assert f"| `{rule_id}` |" in res.stdout


def game_page(system: str) -> str:
    """The guide of one game (docs/games/SYSTEM.md), whose house-rule table is generated."""
    return (Path(__file__).resolve().parent.parent / "docs" / "games" / f"{system}.md").read_text()


def test_the_games_house_rule_tables_are_the_generated_ones(cli):
    """Each game page's table is exactly ``daimyo rules SYSTEM --format markdown``
    (``python scripts/readme_rules_tables.py`` writes them)."""
    import re

    for system in SYSTEMS:
        m = re.search(r"#{2,4} [^\n]*\(`daimyo rules " + system + r"`\)\n\n(\|.*?\n)\n", game_page(system), re.S)
        assert m, f"docs/games/{system}.md lacks the table of {system}"
        res = cli("rules", system, "--format", "markdown")
        assert m.group(1).strip() == res.stdout.strip(), f"docs/games/{system}.md: the table is out of date"
        assert ".txt" not in m.group(1)  # rulebook titles and sections, never file names


def test_each_game_page_lists_every_house_rule_of_its_game():
    from builder.catalog.loader import load_catalog

    for system in SYSTEMS:
        page = game_page(system)
        for rule_id in load_catalog(system).default_rules():
            assert f"`{rule_id}`" in page, f"docs/games/{system}.md lacks the house rule {rule_id}"


def test_demo_output_option_replaces_its_own_files_but_keeps_others(cli, tmp_path, demo_run, one_example):
    out = tmp_path / "out"
    shutil.copytree(demo_run[1], out)  # what `daimyo demo -o out` wrote
    assert demo_run[0].code == 0 and (out / ".daimyo-demo").is_file()
    own = out / "kensei-buke.pdf"
    first = own.read_bytes()
    res = cli("demo", "--output", out)  # its own earlier output is replaced without --force
    assert res.code == 0, res.stdout + res.stderr
    assert own.read_bytes().startswith(b"%PDF")
    mine = out / "aid-senji.pdf"
    mine.write_bytes(b"my own notes")  # a file the demo did not write (or changed since)
    res = cli("demo", "-o", out)
    assert res.code == 2
    assert mine.read_bytes() == b"my own notes"
    line = next(x for x in res.stdout.splitlines() if "aid-senji.pdf" in x)
    assert (
        line == f"{mine}: error: exists and was not written by daimyo demo; kept "
        "(pass --force to replace it, or give another folder with -o)"
    )
    res = cli("demo", "-o", out, "--force")
    assert res.code == 0, res.stdout
    assert mine.read_bytes().startswith(b"%PDF") and first[:4] == b"%PDF"


def test_demo_never_replaces_a_folder(cli, tmp_path, one_example):
    out = tmp_path / "out"
    (out / "kensei-buke.pdf").mkdir(parents=True)
    res = cli("demo", "-o", out, "--force")
    assert res.code == 2
    line = next(x for x in res.stdout.splitlines() if "kensei-buke.pdf" in x)
    assert "is a folder" in line and "--force" not in line
