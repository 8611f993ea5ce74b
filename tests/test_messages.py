"""Messages a player can act on: the summary says what is left, no Python None, "(over by N)"
only where something is counted."""

from __future__ import annotations

from builder.findings import Finding
from builder.lists.compare import gap

from conftest import ROOT

EX = ROOT / "examples"


def test_kensei_summary_shows_points_left_and_hides_zero_counters(cli):
    r = cli("check", EX / "kensei-buke.yaml")
    summary = r.stdout.split("  summary: ", 1)[1].split("\n  house rules", 1)[0]
    assert summary.startswith("points 200, limit 200, left 0, ")
    assert "melee 120 (60%)" in summary and "ranged 60 (30%)" in summary
    assert "cavalry" not in summary and "firearms" not in summary and "_percent" not in summary
    r = cli("check", EX / "kensei-kuge.yaml")
    assert "points 195, limit 200, left 5, " in r.stdout
    r = cli("check", EX / "kensei-buke.yaml", "--explain")
    assert "cavalry 0 (0%)" in r.stdout and "left 0" in r.stdout


def test_no_python_none_in_check_output(cli, tmp_path):
    hero = tmp_path / "hero.yaml"
    assert cli("new", "herocard", "--hero", "Samurai", "-o", hero).code == 0
    for args in ((hero,), (hero, "--explain"), (EX / "satsuma-samurai.yaml", "--explain")):
        r = cli("check", *args)
        assert "None" not in r.stdout, r.stdout
    assert "hero_points unknown" in cli("check", hero).stdout


def test_over_by_only_on_count_and_points_rules():
    assert gap(Finding("error", "senshiai.deck-size", "m", value=51, bound=50)) == " (over by 1)"
    assert gap(Finding("error", "kensei.melee-min", "m", value=45, bound=50)) == " (short by 5)"
    assert gap(Finding("warning", "herocard.cost-exceeds-score", "m", value=11, bound=9)) == ""
    assert gap(Finding("error", "kensei.spiritual-max", "m", value=2, bound=1)) == ""
    assert gap(Finding("error", "kensei.kuroi-te-komuso", "m", value=1, bound=0)) == ""


def test_catalog_list_filters_like_why_and_add(cli):
    r = cli("catalog", "list", "kensei", "troops", "--where", "clan=buke")
    assert "  Peasants" in r.stdout  # every clan may take them, as 'why' and 'add' accept
    r = cli("catalog", "list", "kensei", "troops", "--where", "name~SAMURAI")
    names = [ln.split("  (")[0].strip().replace(" [assumed]", "") for ln in r.stdout.splitlines()[1:]]
    assert "Samurai Yari" in names and "Yumi Samurai" in names and "Taisho Samurai" in names
    assert all("samurai" in n.lower() for n in names)
    r = cli("catalog", "list", "kensei", "troops", "--where", "cost<10")
    assert "Samurai Yari" in r.stdout and "Taisho Buke" not in r.stdout
    r = cli("catalog", "list", "kensei", "troops", "--where", "cost>=20", "--where", "clan=buke")
    assert "Taisho Buke" in r.stdout and "Samurai Yari" not in r.stdout
    r = cli("catalog", "list", "kensei", "troops", "--where", "cost")
    assert r.code == 2 and "name~samurai" in r.stderr


def test_assumed_fields_are_counted_and_tagged(cli):
    r = cli("catalog", "list", "kensei", "troops")
    assert "Samurai Yari [assumed]" in r.stdout  # sourced, with an assumed class and weapon
    r = cli("catalog", "check", "--system", "kensei")
    import re

    n = int(re.search(r"kensei: ok, \d+ entries \((\d+) with assumed fields\)", r.stdout).group(1))
    assert n >= 35


def test_print_takes_pack_and_says_when_the_list_is_illegal(cli, tmp_path):
    deck = tmp_path / "deck.yaml"
    deck.write_text("system: senshiai\nsize: 5\ncards:\n  Capital of the North: 1\n  Warriors: 2\n", encoding="utf-8")
    r = cli("print", deck, "-o", tmp_path / "deck.pdf", "--pack", "senshiai-example")
    assert r.code == 0, r.stderr
    assert (tmp_path / "deck.pdf").read_bytes().startswith(b"%PDF")
    assert r.stderr.splitlines() == [  # "wrote" goes where every command says it: standard error
        f"wrote {tmp_path / 'deck.pdf'}",
        f"{deck}: warning: the list is not legal (1 error); the printout is marked NOT LEGAL (see 'daimyo check {deck}')",
    ]
    legal = tmp_path / "legal.yaml"
    legal.write_text(deck.read_text().replace("size: 5\n", ""), encoding="utf-8")
    r = cli("print", legal, "-o", tmp_path / "legal.pdf", "--pack", "senshiai-example")
    assert r.code == 0 and r.stderr == f"wrote {tmp_path / 'legal.pdf'}\n" and r.stdout == ""


def test_an_output_ending_with_a_slash_is_a_folder(cli, tmp_path):
    r = cli("print", ROOT / "examples" / "kensei-buke.yaml", "-o", f"{tmp_path / 'newdir'}/")
    assert r.code == 2
    assert "names a folder (it ends with '/'), not a file" in r.stderr and "--force" not in r.stderr
    assert not (tmp_path / "newdir").exists()


def test_summary_wraps_to_the_terminal_width(cli, monkeypatch):
    for cols in (60, 120):
        monkeypatch.setenv("COLUMNS", str(cols))
        r = cli("check", EX / "kensei-buke.yaml")
        block = [ln for ln in r.stdout.splitlines() if not ln.startswith(("  /", "/", "  examples"))]
        assert all(len(ln) <= cols for ln in block), (cols, block)
        assert any(len(ln) > cols - 25 for ln in block), (cols, block)
