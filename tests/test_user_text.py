"""What players read names rulebooks by title and section, never by file name, never an
installation path, never an internal note."""

from __future__ import annotations

import re

import pypdf
import pytest

from builder import SYSTEMS
from builder.paths import data_root

from conftest import ROOT

EX = ROOT / "examples"
INTERNAL = re.compile(r"\.txt\b|research note|FORMATS|\bC\d{1,2}\b(?!-)|\(C\d|\bNone\b")


def clean(text: str) -> None:
    bad = INTERNAL.search(text)
    assert not bad, text[max(0, bad.start() - 120) : bad.end() + 60]
    assert str(data_root().resolve()) not in text and str(ROOT) not in text


def test_check_output_of_every_example(cli):
    r = cli("check", *sorted(str(p.relative_to(ROOT)) for p in EX.glob("*.yaml")))
    assert r.code == 0, r.stdout + r.stderr
    clean(r.stdout.replace(str(EX), "examples"))
    assert "Satsuma Rebellion rulebook, The Samurai deck, line 77" in r.stdout


@pytest.mark.parametrize("system", SYSTEMS)
def test_rules_text_and_markdown(cli, system):
    for fmt in ("text", "markdown"):
        r = cli("rules", system, "--format", fmt)
        assert r.code == 0
        clean(r.stdout)
        assert "rulebook" in r.stdout or system not in ("kensei", "herocard")


@pytest.mark.parametrize("system", SYSTEMS)
def test_catalog_show_of_every_entry(cli, system):
    from builder.catalog.loader import load_catalog

    cat = load_catalog(system)
    for sec in cat.sections():
        for rec in cat.records(sec):
            r = cli("catalog", "show", system, rec["id"])
            assert r.code == 0, r.stderr
            clean(r.stdout)


def test_catalog_show_names_the_source_and_where_it_is_defined(cli):
    r = cli("catalog", "show", "kensei", "Samurai Yari")
    assert "  source: Kensei rulebook, Army list samples (lines 6154, 6160, 6166)" in r.stdout
    assert "  defined in: the daimyo catalog (kensei/troops.yaml, line " in r.stdout
    r = cli("catalog", "show", "kensei", "Samurai Yari", "--pack", EX / "packs" / "kensei-profiles.yaml")
    clean(r.stdout)


def _pdf_text(path) -> str:
    return " ".join(p.extract_text() or "" for p in pypdf.PdfReader(str(path)).pages)


def test_roster_unit_cards_and_aids_print_no_paths_or_file_names(cli, tmp_path):
    r = cli("print", EX / "kensei-buke.yaml", "-o", tmp_path / "roster.pdf", "--unit-cards")
    assert r.code == 0, r.stderr
    text = _pdf_text(tmp_path / "roster.pdf")
    clean(text)
    assert "Army list samples" in text
    for system in SYSTEMS:
        r = cli("aid", system, "-o", tmp_path / f"aid-{system}.pdf")
        assert r.code == 0, r.stderr
        clean(_pdf_text(tmp_path / f"aid-{system}.pdf"))
    r = cli("print", EX / "senji-three-daimyo.yaml", "-o", tmp_path / "senji.pdf")
    assert r.code == 0, r.stderr
    clean(_pdf_text(tmp_path / "senji.pdf"))


def test_incomplete_profile_names_the_pack_not_a_path(cli, tmp_path):
    import shutil

    pack = tmp_path / "my-troops.yaml"
    shutil.copy(ROOT / "tests" / "data" / "kensei" / "troops-pack.yaml", pack)
    lst = tmp_path / "army.yaml"
    lst.write_text(
        "system: kensei\npoints: 250\nclan: buke\npacks: [my-troops.yaml]\ntroops:\n"
        "  - troop: Taisho Buke\n  - {troop: Samurai Yari, models: 5}\n"
        "  - {troop: Mystery Ronin, models: 3}\n",
        encoding="utf-8",
    )
    r = cli("check", lst)
    line = next(x for x in r.stdout.splitlines() if "profile-incomplete" in x)
    assert "(profile in pack 'my-troops.yaml', line 62)" in line
    assert str(tmp_path) not in line.split(": warning", 1)[1]


def test_catalog_show_of_an_entry_a_pack_overrides_names_one_origin(cli, tmp_path):
    """A pack entry named like a catalog entry changes the fields it gives. ``catalog show``
    then says one thing about where the entry comes from: the pack (its name, its file and the
    entry's line) is what is in force, and it overrides the rulebook's entry, named by the
    rulebook's title and section. No separate rulebook "source:" or "defined in: the daimyo
    catalog" line contradicts it."""
    pack = tmp_path / "house.yaml"
    pack.write_text(
        "system: kensei\nname: House troops\nversion: '2'\n\n"
        "troops:\n"
        "  - name: Samurai Yari\n"
        "    cost: 7\n"
        "    notes: our club plays them at 7 AP\n",
        encoding="utf-8",
    )
    plain = cli("catalog", "show", "kensei", "Samurai Yari")
    assert plain.code == 0
    assert "  cost: 5" in plain.stdout
    r = cli("catalog", "show", "kensei", "Samurai Yari", "--pack", pack)
    assert r.code == 0, r.stderr
    out = r.stdout
    clean(out.replace(str(tmp_path), "TMP"))
    assert "  cost: 7" in out and "  cost: 5" not in out
    origin = [ln for ln in out.splitlines() if ln.startswith(("  source:", "  defined in:"))]
    assert origin == [
        f"  defined in: pack 'House troops' ({pack}:6), which overrides the rulebook's entry "
        "(Kensei rulebook, Army list samples, lines 6154, 6160, 6166)"
    ], out
    assert "  the pack gives: cost, notes (the other fields are the rulebook entry's)" in out
    assert "daimyo catalog" not in out

    # the bundled example pack completes profiles: named as such, with its entry's line
    r = cli("catalog", "show", "kensei", "Samurai Yari", "--pack", EX / "packs" / "kensei-profiles.yaml")
    assert r.code == 0, r.stderr
    (line,) = [ln for ln in r.stdout.splitlines() if ln.startswith(("  source:", "  defined in:"))]
    assert line.startswith(
        "  defined in: the bundled example pack 'kensei-example-profiles' "
        "(kensei-profiles.yaml:31; example data, not from the rulebook), which overrides "
        "the rulebook's entry (Kensei rulebook, Army list samples"
    ), r.stdout
    assert "  the pack gives: profile (the other fields are the rulebook entry's)" in r.stdout


def test_catalog_show_of_an_entry_a_pack_adds_names_the_pack(cli, tmp_path):
    pack = tmp_path / "more.yaml"
    pack.write_text(
        "system: senshiai\nname: More cards\n\ncards:\n"
        "  - name: Mountain Hermit\n    type: troop\n    power: 1/1/3\n    assumed: our own card\n",
        encoding="utf-8",
    )
    r = cli("catalog", "show", "senshiai", "Mountain Hermit", "--pack", pack)
    assert r.code == 0, r.stderr
    origin = [ln for ln in r.stdout.splitlines() if ln.startswith(("  source:", "  defined in:"))]
    assert origin == [f"  defined in: pack 'More cards' ({pack}:5)"], r.stdout


@pytest.mark.parametrize("path", sorted(p.relative_to(ROOT).as_posix() for p in EX.rglob("*.yaml")))
def test_example_files_speak_to_players(path):
    """The example lists and packs are files a player opens and copies: their comments, too, cite
    rulebooks by title and section, never a rulebook's file name or an internal note."""
    clean((ROOT / path).read_text(encoding="utf-8"))
