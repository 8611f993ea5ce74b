"""The Kensei roster's troop table carries each unit's stat line (MOV, AT, INI, HO, WO) and
weapons, as the builder shows them from a profiles pack; a value not known is a dash. Read back
from the printed PDF: the words under each column heading, and the table inside the page with
no two lines of text on one another."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdfcheck import overlapping_lines, text_pages

pdfplumber = pytest.importorskip("pdfplumber")

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
PROFILES = EX / "packs" / "kensei-profiles.yaml"
DASH = "\u2014"
COLUMNS = ("MOV", "AT", "INI", "HO", "WO", "Models")
MM = 72 / 25.4


def _print(cli, tmp_path: Path, name: str, *args: str) -> Path:
    out = tmp_path / (Path(name).stem + "-" + "-".join(a.strip("-") for a in args if "/" not in a) + ".pdf")
    r = cli("print", name if "/" in str(name) else EX / name, "-o", out, *args)
    assert r.code == 0, r.stderr
    return out


def _troop_rows(page) -> tuple[dict[str, list[str]], dict[str, tuple[float, float]]]:
    """{troop name: [the words under MOV, AT, INI, HO, WO]} of the troop table of ``page``, and
    each column's span (x0 of its heading to x0 of the next heading)."""
    words = page.extract_words(keep_blank_chars=False, use_text_flow=False)
    head = next(w for w in words if w["text"] == "MOV")
    heads = {w["text"]: w for w in words if abs(w["top"] - head["top"]) < 1 and w["text"] in COLUMNS}
    assert list(heads) == list(COLUMNS), heads
    spans = {c: (heads[c]["x0"] - 1, heads[COLUMNS[i + 1]]["x0"] - 1) for i, c in enumerate(COLUMNS[:-1])}
    troop_x = next(w["x0"] for w in words if w["text"] == "Troop" and abs(w["top"] - head["top"]) < 1)
    rows: dict[str, list[str]] = {}
    below = sorted((w for w in words if w["top"] > head["bottom"]), key=lambda w: (round(w["top"]), w["x0"]))
    for w in below:
        if w["text"] == "Troops":
            break
        if abs(w["x0"] - troop_x) > 1:
            continue
        line = [v for v in below if abs(v["top"] - w["top"]) < 1]
        name = " ".join(v["text"] for v in line if troop_x - 1 <= v["x0"] < spans["MOV"][0])
        cells = [" ".join(v["text"] for v in line if lo <= v["x0"] < hi) for lo, hi in spans.values()]
        if any(cells):
            rows[name] = cells
    return rows, spans


def test_the_troop_table_prints_each_profile_from_the_profiles_pack(cli, tmp_path):
    out = _print(cli, tmp_path, "kensei-buke.yaml", "--pack", str(PROFILES))
    with pdfplumber.open(out) as pdf:
        (page,) = text_pages(pdf, slice(0, 1))
        rows, _ = _troop_rows(page)
        text = page.extract_text()
    assert rows == {
        "Taisho Buke": ["10", "4", "3", "5", "3"],
        "Samurai Yari": ["10", "2", "1", "4", "1"],
        "Yari Ashigaru": ["10", "2", "1", "3", "1"],
        "Samurai Dai-Katana": ["10", "2", "1", "4", "1"],
        "Yumi Samurai": ["10", "2/2", "1", "4", "1"],  # AT melee/shooting
    }
    for weapons in ("weapons: Yari", "weapons: Dai katana", "weapons: Yumi"):
        assert weapons in text
    assert "Stat line:" not in text  # every value known: nothing to explain


def test_a_creature_prints_its_presence_and_ki_and_its_flying_move(cli, tmp_path):
    out = _print(cli, tmp_path, "kensei-kuroi-te.yaml", "--pack", str(PROFILES))
    with pdfplumber.open(out) as pdf:
        (page,) = text_pages(pdf, slice(0, 1))
        rows, _ = _troop_rows(page)
        text = " ".join(page.extract_text().split())
    assert rows["Tenome"] == ["10/15", "5/4", "2", "PR 4", "3"]
    assert rows["Jikininki"] == ["10/15", "3/3", "1", "PR 3", "2"]
    assert rows["Yurei Naginata"] == ["10", "2", "1", "3", "1"]
    assert "KI 5*" in text  # the Ki cost of the creature's class (its profile gives none)
    assert "a creature's HO column is its presence (PR)" in text and "* = class value" in text


def test_a_profile_not_known_is_a_dash_and_a_class_value_is_marked(cli, tmp_path):
    army = tmp_path / "army.yaml"
    army.write_text(
        "system: kensei\nname: Unknowns\nclan: buke\npoints: 200\ncommander: hatamoto\n"
        "troops:\n  - troop: Taisho Buke\n  - troop: Mystery Ronin\n    models: 3\n",
        encoding="utf-8",
    )
    out = tmp_path / "army.pdf"
    assert cli("print", army, "-o", out).code == 0
    with pdfplumber.open(out) as pdf:
        (page,) = text_pages(pdf, slice(0, 1))
        rows, _ = _troop_rows(page)
        text = " ".join(page.extract_text().split())
    assert rows["Mystery Ronin"] == [DASH] * 5  # not in the catalog: no value pretended
    # the catalog's class values of a Hero (the rulebook's worked examples), starred; MOV unknown
    assert rows["Taisho Buke"] == [DASH, "4*", "3*", DASH, "3*"]
    assert f"Stat line: {DASH} = profile value not in the rulebook" in text and "* = class value" in text


@pytest.mark.parametrize("paper", ["a4", "letter", "148x210"])
def test_the_troop_table_fits_the_page_with_no_text_on_other_text(cli, tmp_path, paper):
    out = _print(cli, tmp_path, "kensei-kuroi-te.yaml", "--pack", str(PROFILES), "--paper", paper)
    with pdfplumber.open(out) as pdf:
        (page,) = text_pages(pdf, slice(0, 1))
        rows, spans = _troop_rows(page)
        assert overlapping_lines(page) == []
        words = page.extract_words()
        width = page.width
    assert len(rows) == 5
    # every word inside the page's margins (10 mm at least), none running into the next column
    assert all(w["x0"] >= 10 * MM - 0.5 and w["x1"] <= width - 10 * MM + 0.5 for w in words)
    head_top = next(w["top"] for w in words if w["text"] == "MOV")
    total_top = next(w["top"] for w in words if w["text"] == "Total" and w["top"] > head_top)
    for w in words:
        for lo, hi in spans.values():
            if head_top - 1 < w["top"] < total_top and lo <= w["x0"] < hi:
                assert w["x1"] <= hi + 0.5, (paper, w["text"])
    # a figure never breaks across lines: 10/15 whole on every paper
    assert rows["Tenome"][0] == "10/15"
