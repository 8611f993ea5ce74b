"""Rosters, setup sheets and player aids: read the PDFs back and check what a player needs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT

pypdf = pytest.importorskip("pypdf")

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)

PACK = """\
system: kensei
pack: roster-test
example: true
description: Profiles for the roster tests (abilities and one full stat line).
troops:
  - {name: Taisho Buke, clans: [buke], cost: 20, troop_class: H, leader: true, general: true, unique: true, single: true, troop_type: infantry, titles: [Samurai], weapons: [Katana], living: true, abilities: [Leader, Strategist], profile: {mov: 10, at: 4, ini: 3, ho: 5, wo: 3}, assumed: test fixture}
  - {name: Hero Buke Yumi, clans: [buke], cost: 25, troop_class: H, leader: true, general: false, unique: true, single: true, troop_type: infantry, titles: [Samurai], weapons: [Yumi], living: true, abilities: [Hawk eye], assumed: test fixture}
  - {name: Buke Captain, clans: [buke], cost: 15, troop_class: E, leader: true, general: false, unique: true, single: true, troop_type: infantry, titles: [Samurai], weapons: [Katana], living: true, abilities: [Veteran], assumed: test fixture}
  - {name: Samurai Yari, clans: [buke], cost: 5, troop_class: W, leader: false, troop_type: infantry, titles: [Samurai], weapons: [Yari], living: true, abilities: [Trained], assumed: test fixture}
  - {name: Samurai Dai-Katana, clans: [buke], cost: 10, troop_class: W, leader: false, troop_type: infantry, titles: [Samurai], weapons: [Dai katana], living: true, abilities: [Kenjutsu], assumed: test fixture}
  - {name: Yumi Samurai, clans: [buke], cost: 15, troop_class: W, leader: false, troop_type: infantry, titles: [Samurai], weapons: [Yumi], living: true, abilities: [Steady Shot], assumed: test fixture}
  - {name: Mounted Samurai, clans: [buke], cost: 20, troop_class: W, leader: false, troop_type: mounted, titles: [Samurai], weapons: [Katana], living: true, abilities: [Savage charge, Trained], assumed: test fixture}
  - {name: Yari Ashigaru, clans: [buke], cost: 5, troop_class: W, leader: false, troop_type: infantry, titles: [Ashigaru], weapons: [Yari], living: true, assumed: test fixture}
"""

# 600 AP: leaders 60 + units 520 + Daimyo 20 = 600 (leaders 3/6, units 6/8, melee 300 >= 150,
# ranged 120 <= 300, cavalry 100 <= 240, two units of Samurai Yari at most).
LIST_600 = """\
system: kensei
name: Buke pitched battle
author: Test
clan: buke
points: {points}
commander: daimyo
packs: [pack.yaml]
troops:
  - troop: Taisho Buke
  - troop: Hero Buke Yumi
  - troop: Buke Captain
  - {{troop: Samurai Yari, models: 15}}
  - {{troop: Samurai Yari, models: 12}}
  - {{troop: Samurai Dai-Katana, models: 10}}
  - {{troop: Yumi Samurai, models: 8}}
  - {{troop: Mounted Samurai, models: 5}}
  - {{troop: Yari Ashigaru, models: 13}}
"""
TROOPS = [
    ("Taisho Buke", 1, "20", "20"),
    ("Hero Buke Yumi", 1, "25", "25"),
    ("Buke Captain", 1, "15", "15"),
    ("Samurai Yari", 15, "5", "75"),
    ("Samurai Yari", 12, "5", "60"),
    ("Samurai Dai-Katana", 10, "10", "100"),
    ("Yumi Samurai", 8, "15", "120"),
    ("Mounted Samurai", 5, "20", "100"),
    ("Yari Ashigaru", 13, "5", "65"),
]


def text_of(path) -> str:
    reader = pypdf.PdfReader(str(path))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def pages_text(path) -> list[str]:
    return [p.extract_text() or "" for p in pypdf.PdfReader(str(path)).pages]


def page_sizes(path) -> set[tuple[float, float]]:
    return {
        (round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
        for p in pypdf.PdfReader(str(path)).pages
    }


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def write_list(folder: Path, points: int = 600, name: str = "army.yaml") -> Path:
    (folder / "pack.yaml").write_text(PACK, encoding="utf-8")
    p = folder / name
    p.write_text(LIST_600.format(points=points), encoding="utf-8")
    return p


def roster(path: Path, out: Path, **kw) -> Path:
    from builder.check import load_checked
    from builder.games.kensei.roster import render_roster

    doc, catalog, lst, result = load_checked(path)
    return render_roster(doc, catalog, lst, result, out, force=True, **kw)


@pytest.fixture(scope="module")
def army(tmp_path_factory):
    d = tmp_path_factory.mktemp("roster")
    lst = write_list(d)
    out = roster(lst, d / "roster.pdf")
    return lst, out, text_of(out)


# -- Kensei roster -------------------------------------------------------------------------


def test_roster_lists_every_troop_with_costs_and_the_total(army):
    _, _out, text = army
    t = flat(text)
    for name, models, per, unit in TROOPS:
        assert re.search(rf"{re.escape(name)}.*?\b{models} {per} {unit}\b", t), name
    assert "Troops 66 580" in t  # models and AP of the troops
    assert "Commander level Daimyo 20" in t
    assert re.search(r"Total \(limit 600 AP\) 600", t)
    assert "600 / 600 AP spent (troops 580 + commander level 20)" in t


def test_roster_header_general_hand_and_rout(army):
    _, _, text = army
    t = flat(text)
    assert "Clan Buke" in t
    assert "600 AP (Pitched Battle)" in t
    assert "General Taisho Buke" in t
    assert "Command hand 6 cards" in t  # 600+ AP -> 6 (L4419-4435)
    assert "at 435 AP lost (75% of 580 AP of troops)" in t  # rout threshold
    assert "Daimyo (20 AP): strategy roll +2" in t


def test_roster_limits_table_rows_pass(army):
    _, _, text = army
    t = flat(text)
    assert "Army-building limits" in t
    assert re.search(r"Total points within the battle size 600 AP ≤ 600 AP.*?pass", t)
    assert re.search(r"Leaders per battle size 3 leaders ≥ .*?= 3 pass", t)
    assert re.search(r"ranged.*?120 AP ≤ 50% of 600 AP = 300 AP.*?pass", t, re.I)
    assert re.search(r"cavalry.*?100 AP ≤ 40% of 600 AP = 240 AP.*?pass", t, re.I)
    assert "FAIL" not in t
    assert "daimyo check: legal" in t


def test_roster_limits_table_marks_failures(tmp_path):
    lst = write_list(tmp_path, points=400)  # 600 AP of troops in a 400 AP battle
    out = roster(lst, tmp_path / "bad.pdf")
    t = flat(text_of(out))
    assert re.search(r"Total points within the battle size 600 AP ≤ 400 AP.*?FAIL", t)
    assert "daimyo check: ILLEGAL" in t
    assert "kensei.points-max" in t


def test_roster_glossary_prints_each_ability_text_once(army):
    from builder.catalog.loader import load_catalog

    lst, _, text = army
    t = flat(text)
    catalog = load_catalog("kensei", [str(lst.parent / "pack.yaml")])
    for name in ("Leader", "Strategist", "Hawk eye", "Veteran", "Trained", "Kenjutsu", "Steady Shot", "Savage charge"):
        ab = catalog.find("abilities", name)
        rule = flat(ab.text.strip())
        assert t.count(rule[:60]) == 1, name  # Trained is used by two profiles, printed once


def test_roster_unit_never_splits_across_pages(tmp_path):
    # 40 entries: the troop table runs over several pages; each troop row stays whole
    (tmp_path / "pack.yaml").write_text(PACK, encoding="utf-8")
    rows = "\n".join("  - {troop: Samurai Yari, models: 15}" for _ in range(40))
    p = tmp_path / "long.yaml"
    p.write_text(
        f"system: kensei\nname: Long\nclan: buke\npoints: 600\npacks: [pack.yaml]\ntroops:\n"
        f"  - troop: Taisho Buke\n{rows}\n",
        encoding="utf-8",
    )
    out = roster(p, tmp_path / "long.pdf")
    pages = pages_text(out)
    assert len(pages) >= 2
    whole_row = re.compile(
        r"\b(\d+)\s+Samurai Yari\s+Warrior · infantry · Samurai ·\s+weapons: Yari\s+—\s+2\*\s+1\*\s+3\*\s+1\*"
        r"\s+15\s+5\s+75\s+Trained"
    )
    numbers = []
    for page in pages:  # every cell of a row is on the same page as the others
        numbers += [int(m.group(1)) for m in whole_row.finditer(page)]
    assert sorted(numbers) == list(range(2, 42))


def _long_list(folder: Path, n: int) -> Path:
    (folder / "pack.yaml").write_text(PACK, encoding="utf-8")
    kinds = [
        "{troop: Samurai Yari, models: 15}",
        "{troop: Yumi Samurai, models: 8}",
        "{troop: Yari Ashigaru, models: 13}",
    ]
    rows = "\n".join(f"  - {kinds[i % 3]}" for i in range(n))
    p = folder / f"long{n}.yaml"
    p.write_text(
        f"system: kensei\nname: Long\nclan: buke\npoints: 600\npacks: [pack.yaml]\ntroops:\n"
        f"  - troop: Taisho Buke\n{rows}\n",
        encoding="utf-8",
    )
    return p


@pytest.fixture(scope="module")
def long_roster(tmp_path_factory):
    """The roster of 600 troops, as the text of each page, and the number of rows of every
    table handed to the page layout while it was drawn."""
    from reportlab.platypus import Table

    sizes = []
    init = Table.__init__

    def recording(self, data, *a, **kw):
        sizes.append(len(data))
        init(self, data, *a, **kw)

    folder = tmp_path_factory.mktemp("long")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Table, "__init__", recording)
        out = roster(_long_list(folder, 600), folder / "l600.pdf")
    return pages_text(out), sizes


def test_long_roster_every_row_once_header_on_every_page(long_roster):
    pages, _ = long_roster
    row = re.compile(r"^(\d+)\n(?:Samurai Yari|Yumi Samurai|Yari Ashigaru|Taisho Buke)$", re.M)
    numbers, troop_pages = [], 0
    for page in pages:
        found = [int(m.group(1)) for m in row.finditer(page)]
        if found:
            troop_pages += 1
            assert "# Troop MOV AT INI HO WO Models AP/model AP/unit Abilities" in flat(page)  # the header repeats
        numbers += found
    assert numbers == list(range(1, 602))  # every row once, in order
    assert troop_pages >= 5


def test_long_roster_is_laid_out_a_page_at_a_time(long_roster):
    """No table handed to the page layout holds more than a page of rows: platypus splits a
    long table by re-measuring every row left after each page (rows x pages), which made a
    roster of 100,000 troops take hours."""
    pages, sizes = long_roster
    assert len(pages) > 10
    assert max(sizes) < 80, max(sizes)


def test_roster_with_unit_cards(tmp_path):
    lst = write_list(tmp_path)
    out = roster(lst, tmp_path / "cards.pdf", unit_cards=True)
    pages = pages_text(out)
    first = next(i for i, p in enumerate(pages) if "Unit cards" in p)
    cards = flat(" ".join(pages[first:]))
    # one card per profile, with its count
    assert cards.count("Samurai Yari") >= 1
    assert "× 2 units (27 models)" in cards
    assert "× 1 unit (5 models)" in cards
    # the full stat line where the pack gives it; unknown fields print as a dash with a note
    assert "Taisho Buke" in cards and "MOV 10 AT 4 INI 3 HO 5 WO 3" in cards
    assert "—" in cards and "not in the rulebook" in cards
    assert page_sizes(out) == {A4}


def test_roster_letter_paper(tmp_path):
    lst = write_list(tmp_path)
    out = roster(lst, tmp_path / "letter.pdf", paper=(215.9, 279.4))
    assert page_sizes(out) == {LETTER}


def test_roster_refuses_to_overwrite(tmp_path):
    from builder.check import load_checked
    from builder.errors import DaimyoError
    from builder.games.kensei.roster import render_roster

    lst = write_list(tmp_path)
    out = tmp_path / "exists.pdf"
    out.write_bytes(b"keep me")
    doc, catalog, l2, result = load_checked(lst)
    with pytest.raises(DaimyoError):
        render_roster(doc, catalog, l2, result, out, force=False)
    assert out.read_bytes() == b"keep me"


def test_rout_threshold_and_hand_size():
    from builder.catalog.loader import load_catalog
    from builder.games.kensei.rules import hand_size, rout_threshold

    assert rout_threshold(200) == 150
    assert rout_threshold(195) * 4 == 585
    cat = load_catalog("kensei")
    assert [hand_size(cat, p)[0] for p in (200, 399, 400, 599, 600, 1000)] == [4, 4, 5, 5, 6, 6]


def test_example_rosters_print(tmp_path):
    from builder.check import load_checked
    from builder.games.kensei.roster import render_roster

    for path in sorted((ROOT / "examples").glob("kensei-*.yaml")):
        doc, catalog, lst, result = load_checked(path)
        out = render_roster(doc, catalog, lst, result, tmp_path / f"{path.stem}.pdf", force=True)
        t = flat(text_of(out))
        for e in lst.entries:
            assert (e.troop.name if e.troop else e.name) in t
        assert "daimyo check:" in t


# -- Senji setup sheet ------------------------------------------------------------------------


def test_setup_sheet_lists_every_players_provinces(tmp_path):
    from builder.check import load_checked
    from builder.games.senji.setup_sheet import render_setup
    from builder.yamlio import load_yaml

    path = ROOT / "examples" / "senji-three-daimyo.yaml"
    doc, catalog, lst, result = load_checked(path)
    out = render_setup(doc, catalog, lst, result, tmp_path / "setup.pdf", force=True)
    t = flat(text_of(out))
    data, _ = load_yaml(path)
    for player in data["players"]:
        assert player["name"] in t
        for pr in player["provinces"]:
            name = pr["province"] if isinstance(pr, dict) else pr
            assert catalog.find("provinces", name).name in t
    assert "Families excluded yellow, blue, black" in t
    assert "Neutral provinces Kyushu, Shikoku" in t
    assert "Military unit 12 (3 placed in play)" in t
    assert "Fortress 6 (3 placed in play)" in t
    assert "daimyo check: legal" in t
    assert page_sizes(out) == {A4}


def test_setup_for_players_follows_the_rulebook():
    from builder.catalog.loader import load_catalog
    from builder.games.senji.rules import setup_table as setup_for_players

    cat = load_catalog("senji")
    assert setup_for_players(cat, 6)["excluded"] == []
    assert setup_for_players(cat, 5)["excluded"] == ["yellow"]
    assert setup_for_players(cat, 4)["neutral"][:2] == ["Kyushu", "Shikoku"]
    three = setup_for_players(cat, 3)
    assert three["excluded"] == ["yellow", "blue", "black"] and len(three["neutral"]) == 3
    assert len(three["in_play"]) == 3


# -- player aids -------------------------------------------------------------------------------


def aid(system, tmp_path, **kw):
    from builder.render.aids import render_aid

    out = render_aid(system, tmp_path / f"aid-{system}.pdf", force=True, **kw)
    return out, flat(text_of(out))


def test_aid_kensei_tables(tmp_path):
    out, t = aid("kensei", tmp_path, sources=True)
    assert len(pypdf.PdfReader(str(out)).pages) <= 2
    assert "Leaders min/max 1/2 2/3 2/4 3/5 3/6" in t
    assert "Units min/max 2/4 3/5 4/6 5/7 6/8" in t
    assert "Melee infantry warriors min 25% 50 100 150" in t
    assert "Cavalry max 40% 80 160 240" in t
    assert "Otokodate: Firearms max 40% 80 160 240" in t
    assert "Hatamoto 0 +1 0 0" in t and "Taisho 10 +1 +1 1" in t and "Daimyo 20 +2 +2 2" in t
    assert "4-5 2 orders" in t and "natural 1 fumble" in t
    assert "Types of rolls (lines 1201-1208)" in t and "Kensei rulebook (2nd edition, free rules)" in t
    assert ".txt" not in t
    assert page_sizes(out) == {A4}


def test_aid_senshiai_tables(tmp_path):
    out, t = aid("senshiai", tmp_path, sources=True)
    assert len(pypdf.PdfReader(str(out)).pages) <= 2
    for s in (
        "1 Draw",
        "2 Main",
        "Terrain",
        "Troop",
        "Event",
        "Cards to discard 0 1 2 3 4 5",
        "1 Approximation",
        "6 Claim the potatoes",
        "Bushido",
        "Pillage",
        "Tardy",
    ):
        assert s in t, s
    assert "Battle (lines 102-128)" in t
    assert ".txt" not in t


def test_aid_herocard_tables(tmp_path):
    out, t = aid("herocard", tmp_path)
    assert len(pypdf.PdfReader(str(out)).pages) <= 2
    for s in (
        "1 Discard",
        "2 Draw",
        "3 Clear",
        "4 Action",
        "Fast",
        "Restricted",
        "Exclusive",
        "Base Attack",
        "Base Block",
        "Block Mod",
        "attack > block",
        "= 9",
        "= 18",
        "at least 20 Action Cards",
        "standard 30",
    ):
        assert s in t, s


def test_aid_senji_player_counts(tmp_path):
    out, t = aid("senji", tmp_path, players=4)
    assert len(pypdf.PdfReader(str(out)).pages) <= 2
    assert "Families excluded yellow, blue" in t
    assert "Neutral provinces Kyushu, Shikoku" in t
    assert "2 × units lost by both sides" in t
    for s in ("1 Welcoming the Emperor", "5 Autumn", "Diplomatic honor", "Seppuku", "1 point per military unit"):
        assert s in t, s
    _, t_all = aid("senji", tmp_path)  # no player count: every count
    assert "3 yellow, blue, black" in t_all and "6 none none" in t_all


def test_aid_satsuma_has_both_decks(tmp_path):
    from builder.catalog.loader import load_catalog

    out, t = aid("satsuma", tmp_path)
    assert len(pypdf.PdfReader(str(out)).pages) <= 2
    cat = load_catalog("satsuma")
    for card in cat.entries("cards"):
        assert card.name in t, card.name
    assert "Greater Imperial Victory" in t and "Historically Equivalent" in t
    assert "The attacker may not use Defense or Escape cards." in t


def test_aid_letter_and_bad_arguments(tmp_path):
    from builder.errors import DaimyoError
    from builder.render.aids import render_aid

    out = render_aid("satsuma", tmp_path / "l.pdf", paper=(215.9, 279.4))
    assert page_sizes(out) == {LETTER}
    with pytest.raises(DaimyoError, match="unknown system"):
        render_aid("kensai", tmp_path / "x.pdf")
    with pytest.raises(DaimyoError, match="out of range"):
        render_aid("senji", tmp_path / "x.pdf", players=7)
    with pytest.raises(DaimyoError, match="does not apply"):
        render_aid("kensei", tmp_path / "x.pdf", players=3)
    with pytest.raises(DaimyoError):
        render_aid("satsuma", out)  # exists, no force
    assert not (tmp_path / "x.pdf").exists()


def test_aid_templates_cite_existing_seed_lines():
    """Every source line an aid prints exists in its rulebook."""
    from builder.yamlio import load_yaml

    from conftest import NO_RULEBOOKS, SEEDS

    if SEEDS is None:
        pytest.skip(NO_RULEBOOKS)
    counts = {p.name: len(p.read_text(encoding="utf-8").splitlines()) + 1 for p in SEEDS.glob("*.txt")}
    for path in (ROOT / "templates" / "aids").glob("*.yaml"):
        _data, _ = load_yaml(path)
        found = 0
        for m in re.finditer(r"(\d{3}_[0-9a-f]{16}\.txt):(\d+)(?:-(\d+))?", path.read_text(encoding="utf-8")):
            file, a, b = m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))
            assert file in counts, f"{path.name}: {file}"
            assert 1 <= a <= b <= counts[file], f"{path.name}: {m.group(0)}"
            found += 1
        assert found >= 5, path.name


def test_roster_limits_table_is_made_of_the_rules_limits(tmp_path):
    """The roster's table is ``limits()`` (what ``daimyo stats`` shows) grouped per rule and bound:
    the same values, failing exactly where the measure fails."""
    from builder.check import load_checked
    from builder.games.kensei.rules import limit_table, limits

    text = (Path(__file__).resolve().parent.parent / "examples" / "kensei-buke.yaml").read_text()
    army = tmp_path / "army.yaml"
    army.write_text(text.replace("points: 200", "points: 150"))  # the sample's 200 AP over a 150 AP battle
    _doc, cat, lst, res = load_checked(army)
    rules = dict(res.house_rules or cat.default_rules())
    measured = limits(lst, cat, rules)
    table = {row["id"]: row for row in limit_table(lst, cat, rules, res.findings)}
    points = next(r for r in measured if r["code"] == "kensei.points-max")
    assert (points["value"], points["bound"], points["ok"]) == (200, 150, False)
    assert table["points-max"]["value"] == "200 AP" and table["points-max"]["status"] == "FAIL"
    failing = {r["code"] for r in measured if not r["ok"]}
    assert {r["code"] for r in table.values() if r["status"] == "FAIL" and r["bound"]} == failing


# -- sources -------------------------------------------------------------------------------------

SOURCE_WORDS = re.compile(r"Source|Kensei rulebook, |Senji rulebook, |\blines? \d")


def test_sources_are_printed_on_rosters_unless_no_sources(cli, tmp_path):
    """Rosters and setup sheets cite the rulebook section of every rule and limit by default
    (an opponent or organiser checks them); --no-sources leaves every citation out, the Source
    column of the limits table included. Aids leave them out unless --sources is given."""
    kuge = ROOT / "examples" / "kensei-kuge.yaml"
    with_src, without = tmp_path / "with.pdf", tmp_path / "without.pdf"
    assert cli("print", kuge, "--unit-cards", "-o", with_src).code == 0
    assert cli("print", kuge, "--unit-cards", "--no-sources", "-o", without).code == 0
    on, off = flat(text_of(with_src)), flat(text_of(without))
    assert "Limit Value Bound Result Source" in on and "Kensei rulebook, " in on
    assert "Limit Value Bound Result" in off and not SOURCE_WORDS.search(
        off.replace("Kensei rulebook (2nd edition", "")
    ), SOURCE_WORDS.search(off)
    for e in ("Hero Kuge Naginata", "Total (limit 200 AP)"):  # the roster itself is all there
        assert e in on and e in off
    senji = ROOT / "examples" / "senji-three-daimyo.yaml"
    assert cli("print", senji, "-o", tmp_path / "s1.pdf").code == 0
    assert cli("print", senji, "--no-sources", "-o", tmp_path / "s2.pdf").code == 0
    assert "Source: Senji rulebook" in flat(text_of(tmp_path / "s1.pdf"))
    assert "Source:" not in flat(text_of(tmp_path / "s2.pdf"))


@pytest.mark.parametrize(  # the quick loop prints one game's aid, the suite every game's
    "system",
    ["kensei", *(pytest.param(s, marks=pytest.mark.slow) for s in ("senji", "satsuma", "senshiai", "herocard"))],
)
def test_aids_print_sources_only_with_the_option(cli, tmp_path, system):
    plain, cited = tmp_path / "plain.pdf", tmp_path / "cited.pdf"
    assert cli("aid", system, "-o", plain).code == 0
    assert cli("aid", system, "--sources", "-o", cited).code == 0
    assert "Source:" not in flat(text_of(plain))
    assert "Source:" in flat(text_of(cited))
    assert len(pages_text(plain)) <= len(pages_text(cited))


# -- pages filled ----------------------------------------------------------------------------------


def _lowest_body_text(path) -> list[float]:
    """Per page: how far down (mm from the top) the body's lowest letter is (the ruler band at
    the top and the footer band at the bottom left out)."""
    import pdfplumber
    from pdfcheck import chars, text_pages

    k = 25.4 / 72
    out = []
    with pdfplumber.open(str(path)) as pdf:
        for p in text_pages(pdf):
            h = float(p.height) * k
            ys = [c["bottom"] * k for c in chars(p) if c["top"] * k > 12 and c["bottom"] * k < h - 25]
            out.append(max(ys, default=0.0))
    return out


@pytest.mark.parametrize(  # the quick loop prints one clan's roster, the suite every clan's
    "name", ["buke", *(pytest.param(n, marks=pytest.mark.slow) for n in ("kuge", "kuroi-te", "otokodate", "sohei"))]
)
def test_roster_fills_its_pages_before_starting_new_ones(tmp_path, name):
    """The unit cards are on pages of their own after the roster (its last page says how many),
    and every roster page but its last is filled to within 66 mm of its bottom."""
    from builder.check import load_checked
    from builder.games.kensei.roster import render_roster

    doc, catalog, lst, result = load_checked(ROOT / "examples" / f"kensei-{name}.yaml")
    out = render_roster(doc, catalog, lst, result, tmp_path / "r.pdf", force=True, unit_cards=True)
    pages = pages_text(out)
    lowest = _lowest_body_text(out)
    assert len(pages) <= 3, len(pages)
    ends = next(i for i, p in enumerate(pages) if "Validation (daimyo check)" in p)
    starts = next(i for i, p in enumerate(pages) if "Unit cards" in p)
    assert starts == ends, (ends, starts)
    body_bottom = 297 - 20
    assert all("Unit cards" not in p and "MOV" in p for p in pages[ends + 1 :]) and len(pages) > ends + 1
    for i, low in enumerate(lowest[:ends]):
        assert body_bottom - low < 66, (i + 1, lowest)
