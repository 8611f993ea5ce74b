"""What a player owns (``builder.lists.collection``): ``daimyo collection add|remove|list|import|
needs`` and ``daimyo check --collection``, as a player sees them.

What each example list uses is worked out here from the list files and the catalog files
themselves (plain YAML, none of daimyo's readers), and compared with what the check notes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from conftest import ROOT

EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))

#: a small collection: some entries of every game, a few owned exactly as an example uses them,
#: a few one fewer, a few more
SMALL = {
    "senshiai": {"cards": {"Warriors": 6, "Militiamen": 5, "Rice Fields": 10, "Sky Riders": 1}},
    "kensei": {"troops": {"Yari Ashigaru": 9, "Taisho Buke": 1, "Samurai Yari": 4, "Monk Teppo": 3}},
    "herocard": {
        "action_cards": {"Overhand Thrust": 3, "Resounding Blow": 1, "Thunder Stroke": 4},
        "attribute_cards": {"Warrior's Strength": 1},
    },
    "senji": {"samurai": {"Baba": 1}, "provinces": {"Owari": 1, "Mino": 1}, "families": {"red": 1}},
    "satsuma": {"cards": {"Imperial Guard": 1, "Takamori Saigo": 1}},
}


def fold(name: str) -> str:
    return name.casefold()


def used_in(path: Path) -> Counter:
    """What a list file uses of each entry, read from its YAML as the rulebooks count it: copies of
    a card, each attribute card once, models of a troop (one unless written), each family, samurai
    and province a player names once, and a published Satsuma deck's cards."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    out: Counter = Counter()
    for name, n in (data.get("cards") or {}).items():
        out[fold(name)] += n
    for name, n in (data.get("deck") or {}).items() if isinstance(data.get("deck"), dict) else ():
        out[fold(name)] += n
    for name in data.get("attributes") or []:
        out[fold(name)] += 1
    for t in data.get("troops") or []:
        out[fold(t["troop"])] += t.get("models", 1)
    for p in data.get("players") or []:
        for name in (p.get("family"), p.get("samurai")):
            if name:
                out[fold(name)] += 1
        for pr in p.get("provinces") or []:
            out[fold(pr["province"])] += 1
    if data.get("deck") == "standard":
        cards = yaml.safe_load((ROOT / "catalog" / "satsuma" / "cards.yaml").read_text(encoding="utf-8"))["cards"]
        for c in cards:
            if c["side"] == data["side"]:
                out[fold(c["name"])] += 1
    return out


def expected_short(path: Path, owned: dict) -> set[tuple[str, int, int]]:
    system = yaml.safe_load(path.read_text(encoding="utf-8"))["system"]
    have = Counter()
    for names in owned.get(system, {}).values():
        for name, n in names.items():
            have[fold(name)] += n
    return {(name, n, have[name]) for name, n in used_in(path).items() if n > have[name]}


@pytest.fixture
def small(tmp_path, monkeypatch):
    f = tmp_path / "collection.yaml"
    f.write_text(yaml.safe_dump(SMALL, sort_keys=False), encoding="utf-8")
    monkeypatch.setenv("DAIMYO_COLLECTION", str(f))
    return f


@pytest.fixture
def empty(tmp_path, monkeypatch):
    f = tmp_path / "mine.yaml"
    monkeypatch.setenv("DAIMYO_COLLECTION", str(f))
    return f


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_check_collection_of_each_example_notes_what_it_uses_beyond_the_collection(path, small, cli):
    plain = cli("check", str(path), "--format", "json")
    r = cli("check", str(path), "--collection", "--format", "json")
    assert r.code == plain.code, r.stderr  # legality is the rules': the exit code stays
    (res,) = json.loads(r.stdout)
    (before,) = json.loads(plain.stdout)
    assert res["legal"] == before["legal"]
    want = expected_short(path, SMALL)
    assert want, "each example uses something the small collection lacks"
    got = {(fold(s["name"]), s["used"], s["owned"]) for s in res["collection_short"]}
    assert got == want
    notes = [f for f in res["findings"] if f["code"] == "collection.short"]
    assert len(notes) == len(want) and all(f["severity"] == "info" for f in notes)
    assert [f for f in res["findings"] if f["code"] != "collection.short"] == before["findings"]
    assert "collection_short" not in before


def test_check_collection_text_names_each_entry_short_where_the_list_writes_it(small, cli):
    path = ROOT / "examples" / "kensei-kuge.yaml"
    r = cli("check", str(path), "--collection")
    lines = [x.strip() for x in r.stdout.splitlines() if "collection.short" in x]
    lines_of = path.read_text().splitlines()
    at = next(i for i, x in enumerate(lines_of, 1) if "Yari Ashigaru" in x)
    assert (
        f"{path}:{at}:5: info collection.short: the list uses 10 of 'Yari Ashigaru'; the collection holds 9 (1 short)"
        in lines
    )
    assert "legal (0 errors, 0 warnings)" in r.stdout
    assert r.code == 0


@pytest.mark.parametrize("owned, short", [(6, False), (5, True), (7, False), (0, True)])
def test_the_note_starts_one_copy_below_what_the_list_uses(owned, short, tmp_path, monkeypatch, cli):
    """Northern host uses 6 Warriors: owning 6 (or more) gives no note, 5 gives one."""
    f = tmp_path / "c.yaml"
    f.write_text(f"senshiai:\n  cards:\n    Warriors: {owned}\n")
    monkeypatch.setenv("DAIMYO_COLLECTION", str(f))
    r = cli("check", str(ROOT / "examples" / "senshiai-northern-host.yaml"), "--collection", "-f", "json")
    rows = [s for s in json.loads(r.stdout)[0]["collection_short"] if s["name"] == "Warriors"]
    assert rows == ([{"name": "Warriors", "used": 6, "owned": owned}] if short else [])


def test_an_expansion_owns_each_entry_of_its_pack(tmp_path, monkeypatch, cli):
    pack = yaml.safe_load((ROOT / "examples" / "packs" / "senshiai-example.yaml").read_text(encoding="utf-8"))
    in_pack = {fold(c["name"]) for c in pack["cards"]}
    f = tmp_path / "c.yaml"
    f.write_text("senshiai:\n  cards:\n    Warriors: 5\n  expansions:\n    Senshiai example cards: 2\n")
    monkeypatch.setenv("DAIMYO_COLLECTION", str(f))
    path = ROOT / "examples" / "senshiai-northern-host.yaml"
    r = cli("check", str(path), "--collection", "-f", "json")
    got = {(fold(s["name"]), s["used"], s["owned"]) for s in json.loads(r.stdout)[0]["collection_short"]}
    owned = {"warriors": 5 + 2 * ("warriors" in in_pack)}
    want = {
        (name, n, owned.get(name, 2 * (name in in_pack)))
        for name, n in used_in(path).items()
        if n > owned.get(name, 2 * (name in in_pack))
    }
    assert got == want
    assert ("warriors", 6, 7) not in got and any(n == 4 and o == 2 for _, n, o in got)


def test_a_bad_collection_file_is_located_and_check_exits_2(tmp_path, monkeypatch, cli):
    f = tmp_path / "c.yaml"
    f.write_text("senshiai:\n  cards:\n    Warriors: -1\n  decks: {}\nsenshai: {}\n")
    monkeypatch.setenv("DAIMYO_COLLECTION", str(f))
    r = cli("check", str(ROOT / "examples" / "senshiai-northern-host.yaml"), "--collection")
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.splitlines() == [
        f"{f}:3:5: error collection: 'Warriors': copies must be a whole number from 0 to 1,000,000, not -1",
        f"{f}:4:3: error collection: 'decks' is no section of senshiai a collection holds (use cards, expansions)",
        f"{f}:5:1: error collection: unknown game 'senshai' (did you mean 'senshiai'?)",
    ]


def test_a_bad_collection_file_on_the_quick_route(tmp_path):
    """``daimyo check --collection`` as a shell runs it (the quick route of builder.cli)."""
    f = tmp_path / "c.yaml"
    f.write_text("kensei:\n  troops:\n    Yari Ashigaru: many\n")
    r = subprocess.run(
        [sys.executable, "-c", "import sys; import builder.cli as c; sys.argv[0] = 'daimyo'; c.main()"]
        + ["check", "--collection", str(ROOT / "examples" / "kensei-buke.yaml")],
        capture_output=True,
        text=True,
        env={"DAIMYO_COLLECTION": str(f), "PATH": "/usr/bin:/bin", "DAIMYO_CACHE_DIR": str(tmp_path / "cache")},
        cwd=ROOT,
    )
    assert r.returncode == 2, r
    assert r.stderr.strip() == (
        f"{f}:3:5: error collection: 'Yari Ashigaru': copies must be a whole number from 0 to 1,000,000, not 'many'"
    )


def test_add_remove_and_list(empty, cli):
    assert cli("collection", "add", "senshiai", "warriors", "--copies", "3").stdout.strip() == (
        "senshiai: 'Warriors' (cards): 3 owned"
    )
    assert cli("collection", "add", "Kensei", "Yari Ashigaru", "-n", "10").code == 0
    assert cli("collection", "add", "senshiai", "Warriors").stdout.strip() == "senshiai: 'Warriors' (cards): 4 owned"
    assert cli("collection", "add", "senshiai", "senshiai-example").stdout.strip() == (
        "senshiai: 'Senshiai example cards' (expansions): 1 owned"
    )
    r = cli("collection", "list", "--format", "json")
    assert json.loads(r.stdout)["entries"] == [
        {"game": "senshiai", "section": "cards", "name": "Warriors", "copies": 4},
        {"game": "senshiai", "section": "expansions", "name": "Senshiai example cards", "copies": 1},
        {"game": "kensei", "section": "troops", "name": "Yari Ashigaru", "copies": 10},
    ]
    assert cli("collection", "list", "kensei", "-f", "csv").stdout.splitlines() == [
        "game,section,name,copies",
        "kensei,troops,Yari Ashigaru,10",
    ]
    assert cli("collection", "remove", "senshiai", "Warriors", "--copies", "4").code == 0
    assert "Warriors" not in empty.read_text()
    r = cli("collection", "list")
    assert r.stdout.splitlines() == [
        "senshiai:",
        "   1  Senshiai example cards (expansions)",
        "kensei:",
        "  10  Yari Ashigaru (troops)",
    ]


def test_a_name_no_catalog_knows_is_refused_with_the_nearest(empty, cli):
    r = cli("collection", "add", "senshiai", "Warriorz")
    assert r.code == 2
    assert r.stderr.strip() == "daimyo: error: no senshiai entry or pack is named 'Warriorz' (did you mean 'Warriors'?)"
    assert not empty.exists()
    r = cli("collection", "add", "senshai", "Warriors")
    assert r.code == 2 and "senshiai" in r.stderr


def test_removing_more_than_owned_is_refused_and_the_file_stays(empty, cli):
    cli("collection", "add", "kensei", "Yari Ashigaru", "--copies", "2")
    before = empty.read_bytes()
    r = cli("collection", "remove", "kensei", "Yari Ashigaru", "--copies", "3")
    assert r.code == 2
    assert r.stderr.strip() == (
        "daimyo: error: the collection holds 2 of 'Yari Ashigaru' (kensei); 3 cannot be removed (remove 2 or fewer)"
    )
    assert empty.read_bytes() == before
    assert cli("collection", "add", "kensei", "Yari Ashigaru", "--copies", "0").code == 2


def test_comments_and_order_are_kept(empty, cli):
    empty.write_text("# my boxes\nkensei:\n  troops:\n    Taisho Buke: 1   # painted\nsenshiai: {}\n")
    assert cli("collection", "add", "kensei", "Yari Ashigaru", "-n", "9").code == 0
    assert empty.read_text() == (
        "# my boxes\nkensei:\n  troops:\n    Taisho Buke: 1   # painted\n    Yari Ashigaru: 9\nsenshiai: {}\n"
    )


def test_import_takes_every_row_or_none(empty, tmp_path, monkeypatch, cli):
    bad = tmp_path / "bad.csv"
    bad.write_text(
        "game,name,copies\nsenshiai,Warriors,3\nkensei,Yari Ashigaru,x\nsenshai,Foo,1\nsenshiai,Warriorz,2\n"
    )
    r = cli("collection", "import", str(bad))
    assert r.code == 2
    assert r.stderr.splitlines() == [
        f"{bad}:3:1: error collection: copies must be a whole number from 1 to 1,000,000, not 'x'",
        f"{bad}:4:1: error collection: unknown game 'senshai' (did you mean 'senshiai'?)",
        f"{bad}:5:1: error collection: no senshiai entry or pack is named 'Warriorz' (did you mean 'Warriors'?)",
    ]
    assert not empty.exists()  # nothing half-imported
    good = tmp_path / "good.csv"
    good.write_text("senshiai,Warriors,3\nkensei,yari ashigaru,10\nherocard,Forfeiture,2\nsenshiai,Warriors,1\n")
    assert cli("collection", "import", str(good)).code == 0
    out = cli("collection", "list", "-f", "csv").stdout
    assert out.splitlines()[1:] == [
        "senshiai,cards,Warriors,4",
        "kensei,troops,Yari Ashigaru,10",
        "herocard,action_cards,Forfeiture,2",
    ]
    # what list writes, import reads: into another collection, the same rows
    copy = tmp_path / "copy.csv"
    copy.write_text(out)
    other = tmp_path / "other.yaml"
    monkeypatch.setenv("DAIMYO_COLLECTION", str(other))
    assert cli("collection", "import", str(copy)).code == 0
    assert cli("collection", "list", "-f", "csv").stdout == out


def test_needs_sums_the_lists_of_a_game_and_each_takes_the_most(empty, cli):
    cli("collection", "add", "kensei", "Yari Ashigaru", "-n", "12")
    lists = [str(ROOT / "examples" / "kensei-buke.yaml"), str(ROOT / "examples" / "kensei-kuge.yaml")]
    both = Counter()
    for f in lists:
        both.update(used_in(Path(f)))
    r = cli("collection", "needs", *lists, "-f", "json")
    rows = {fold(x["name"]): (x["needed"], x["owned"], x["missing"]) for x in json.loads(r.stdout)["missing"]}
    assert rows["yari ashigaru"] == (19, 12, 7)  # 9 + 10 fielded together
    assert rows == {
        n: (k, 12 if n == "yari ashigaru" else 0, k - (12 if n == "yari ashigaru" else 0)) for n, k in both.items()
    }
    r = cli("collection", "needs", "--each", *lists, "-f", "json")
    rows = {fold(x["name"]): x["needed"] for x in json.loads(r.stdout)["missing"]}
    assert "yari ashigaru" not in rows  # 10 at most, 12 owned
    r = cli("collection", "needs", *lists)
    assert "kensei: 7 more 'Yari Ashigaru' (needed 19, owned 12)" in r.stdout.splitlines()


def test_a_new_collection_file_starts_with_one_comment_line_in_any_language(tmp_path):
    """The comment a new file starts with is translated: in any language it stays one comment
    line, and the file reads back."""
    from builder import i18n
    from builder.lists.collection import Change, apply_changes, read_collection

    f = tmp_path / "c.yaml"
    with i18n.use(i18n.PSEUDO):
        apply_changes([Change("senshiai", "cards", "Warriors", 2)], f)
    first, *rest = f.read_text(encoding="utf-8").splitlines()
    assert first.startswith("# [") and rest == ["senshiai:", "  cards:", "    Warriors: 2"]
    assert read_collection(f).holding("senshiai").entries == {"cards": {"Warriors": 2}}


def test_the_catalog_page_with_a_bad_collection_says_so_and_owns_nothing(tmp_path, monkeypatch):
    """A collection file that cannot be read is one line above the builder's catalog (never a
    500); the entries are all there, none owned."""
    pytest.importorskip("fastapi")
    import shutil

    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", ws)
    f = tmp_path / "c.yaml"
    f.write_text("kensei:\n  troops:\n    Yari Ashigaru: lots\n")
    monkeypatch.setenv("DAIMYO_COLLECTION", str(f))
    token = "collection-test-token-0123456789"
    app = create_app(ws, token=token, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        assert c.get(f"/?token={token}", follow_redirects=False).status_code == 303
        r = c.get("/l/kensei-buke.yaml/catalog?q=yari")
        assert r.status_code == 200
        assert "Your collection cannot be read: " in r.text
        assert f"{f}:3:5: error collection: &#39;Yari Ashigaru&#39;: copies must be a whole number" in r.text
        assert "owned 0 · this list 9" in r.text
        r = c.get("/l/kensei-buke.yaml/catalog?q=yari&owned=1")
        assert r.status_code == 200 and "Nothing in the catalog matches" in r.text
        f.write_text("kensei:\n  troops:\n    Yari Ashigaru: 3\n")
        r = c.get("/l/kensei-buke.yaml/catalog?q=yari&owned=1")
        assert "cannot be read" not in r.text and "owned 3 · this list 9" in r.text


@pytest.mark.parametrize("copies, ok", [(1_000_000, True), (1_000_001, False)])
def test_a_collection_holds_at_most_a_million_of_an_entry(copies, ok, tmp_path, monkeypatch, cli):
    f = tmp_path / "c.yaml"
    f.write_text(f"senshiai:\n  cards:\n    Warriors: {copies}\n")
    monkeypatch.setenv("DAIMYO_COLLECTION", str(f))
    r = cli("collection", "list", "-f", "csv")
    assert r.code == (0 if ok else 2)
    assert (
        (r.stdout.splitlines()[1:] == [f"senshiai,cards,Warriors,{copies}"])
        if ok
        else (":3:15: error collection: number out of range" in r.stderr)
    )
    # adding one more to what the file holds stops at the same bound, and leaves the file as it was
    if ok:
        before = f.read_bytes()
        r = cli("collection", "add", "senshiai", "Warriors")
        assert r.code == 2 and "at most 1,000,000" in r.stderr
        assert f.read_bytes() == before


@pytest.mark.parametrize("rows, said", [(100_000, "no rows to import"), (100_001, "more than 100,000 rows")])
def test_an_import_reads_at_most_100000_rows(rows, said, empty, tmp_path, cli):
    f = tmp_path / "big.csv"
    f.write_text("game,name,copies\n" + ",,\n" * rows)
    r = cli("collection", "import", str(f))
    assert r.code == 2 and said in r.stderr
    assert not empty.exists()
