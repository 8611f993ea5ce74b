"""A sixth game, registered from the tests alone (tests/toygame.py and tests/data/toygame/):
it is checked, edited, asked why, offered, and exported through the same library calls as
the five games, without any change to daimyo's own files."""

import pytest

import builder
from builder.systems import register, unregister


@pytest.fixture
def toy():
    import toygame

    register(toygame.SYSTEM)
    yield toygame.SYSTEM
    unregister("toygame")


def test_found_by_id_and_alias(toy):
    assert builder.find_system("Toy Duel") is toy
    assert "toygame" in [s.id for s in builder.list_systems()]


def test_new_add_check_why_options(toy, tmp_path):
    ed, notes = builder.ListEditor.new("toy", tmp_path / "deck.yaml", name="Two foxes")
    assert notes == ["a toy deck holds 4 cards"]
    change = ed.add("red fox", 2)
    assert change.notes == ["added 2 Red Fox (2 in the deck)"]
    assert [f.code for f in ed.check().findings] == ["toy.deck-size"]
    change = ed.add("Red Fox")
    assert [f.code for f in change.breaks] == ["toy.copies-max"]  # 3 copies > 2, said at once
    ed.undo()
    ed.add("Blue Crane", 2)
    assert ed.check().legal and ed.check().summary == {"cards": 4, "size": 4, "cost": 6}
    ed.save()
    assert builder.check(tmp_path / "deck.yaml").legal
    why = ed.why("Golden Dragon")
    assert not why.ok and why.breaks[0].finding.code == "toy.deck-size"
    rows = {o.name: o for o in builder.options(ed)}
    assert set(rows) == {"Red Fox", "Blue Crane", "Green Turtle", "Golden Dragon"}
    assert rows["Golden Dragon"].cost == 5 and rows["Golden Dragon"].left == -1
    assert rows["Red Fox"].code == "toy.copies-max"
    with pytest.raises(builder.UsageError, match=r"unknown card 'Red Fax'.*did you mean 'Red Fox'"):
        ed.add("Red Fax")


def test_command_line_edits_and_checks(toy, tmp_path, cli):
    deck = tmp_path / "deck.yaml"
    r = cli("new", "toy duel", "-o", deck)
    assert r.code == 0 and "error toy.deck-size: deck has 0 cards but must have 4" in r.stdout
    r = cli("add", deck, "Green Turtle", "--count", "3")
    assert r.stdout.splitlines()[:2] == [
        "added 3 Green Turtle (3 in the deck)",
        f"{deck}:3:17: error toy.copies-max: 3 copies of 'Green Turtle' > 2",
    ]
    r = cli("check", deck)
    assert r.code == 1 and "toy.copies-max" in r.stdout
    r = cli("why", deck, "Red Fox")
    assert r.code == 0 and r.stdout.splitlines() == [
        "yes: 1 Red Fox can be added; the deck would have 4 of 4 cards",
        "  and it would satisfy toy.deck-size",
        "  still to fix: toy.copies-max: 3 copies of 'Green Turtle' > 2 (over by 1)",
    ]
    assert cli("options", deck, "--search", "DRAGON").stdout.splitlines() == [
        "+ Golden Dragon    cost 5  0 cards left",
        "1 of 1 can be added",
    ]


def _toy_deck(tmp_path):
    ed, _ = builder.ListEditor.new("toy", tmp_path / "deck.yaml", name="Two foxes")
    ed.add("Red Fox", 2)
    ed.add("Blue Crane", 2)
    ed.save()
    return ed


@pytest.mark.parametrize("to", ["text", "markdown", "json", "yaml", "code"])
def test_every_share_format_round_trips(toy, tmp_path, to):
    ed = _toy_deck(tmp_path)
    shared = builder.export(ed, to=to)
    back = builder.import_(shared)
    assert back.check().legal and back.check().summary == {"cards": 4, "size": 4, "cost": 6}
    assert builder.export(back, to=to) == shared


def test_text_export_reads_as_people_write_it(toy, tmp_path):
    text = builder.export(_toy_deck(tmp_path), to="text")
    assert text == "Two foxes - Toy duel - 4 cards\n\n2 Red Fox\n2 Blue Crane\n"
    # a header-less card list is recognised by its names; counts written in other ways
    back = builder.import_("x2 Blue Crane\nRed Fox x2\n")
    assert back.check().summary["cards"] == 4
    with pytest.raises(builder.ListError, match="cannot read 'clan buke' in the header of a Toy duel list"):
        builder.import_("Mine - Toy duel - clan buke\n1 Red Fox\n")


def test_share_code_numbers_the_game_after_the_built_in_ones(toy, tmp_path):
    from builder.share.code import decode

    code = builder.export(_toy_deck(tmp_path), to="code")
    doc = decode(code)
    assert doc["system"] == "toygame" and doc["cards"] == {"Red Fox": 2, "Blue Crane": 2}


def test_prints_a_card_sheet(toy, tmp_path):
    pytest.importorskip("pypdf")
    from pypdf import PdfReader

    _toy_deck(tmp_path)
    out = builder.render_pdf(tmp_path / "deck.yaml", tmp_path / "deck.pdf")
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    # one face per copy, with the template's fields (name, colour, cost), then the card list
    assert text.count("Red Fox\nred\n1\n") == 2 and text.count("Blue Crane\nblue\n2\n") == 2
    assert "2 x Red Fox\n2 x Blue Crane" in text


def test_command_line_exports_and_prints(toy, tmp_path, cli):
    deck = tmp_path / "deck.yaml"
    _toy_deck(tmp_path)
    r = cli("export", deck, "--to", "text")
    assert r.code == 0 and r.stdout.splitlines()[0] == "Two foxes - Toy duel - 4 cards"
    r = cli("print", deck, "-o", tmp_path / "deck.pdf")
    assert r.code == 0 and (tmp_path / "deck.pdf").stat().st_size > 1000


def test_prints_its_player_aid(toy, tmp_path, cli):
    pytest.importorskip("pypdf")
    from pypdf import PdfReader

    r = cli("aid", "toy duel", "-o", tmp_path / "aid.pdf")
    assert r.code == 0, r.stderr
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(tmp_path / "aid.pdf").pages).split())
    assert "Toy duel — player aid" in text and "Exactly four cards" in text and "Golden Dragon 5" in text


def test_the_new_list_form_titles_each_game_as_the_game_does(toy):
    """The web builder's new-list form asks each game for its title (no table of titles of
    its own): the registered game is offered with the title it gives."""
    pytest.importorskip("fastapi")
    from builder.web.listfiles import list_systems_meta

    titles = {m["id"]: m["title"] for m in list_systems_meta()}
    assert titles == {gs.id: gs.title for gs in builder.list_systems()}
    assert titles["toygame"] == toy.title != ""
    assert titles["kensei"] == "Kensei (miniature wargame, 2nd edition)"


def test_catalog_systems_lists_a_registered_game_after_the_built_in_ones(toy, cli):
    r = cli("catalog", "systems")
    assert r.code == 0, r
    lines = r.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["senshiai", "kensei", "herocard", "senji", "satsuma", "toygame"]
    assert lines[-1].startswith(f"toygame   {toy.title}: ") and " cards" in lines[-1], lines[-1]


def test_share_codes_of_the_five_games_made_before_still_decode():
    """Codes written by an earlier daimyo (tests/data/share/examples-codes-v1.txt) read back as
    the same lists."""
    from pathlib import Path

    from builder.share.canonical import canonical
    from builder.share.code import decode

    root = Path(__file__).resolve().parent
    rows = [
        line.split()
        for line in (root / "data" / "share" / "examples-codes-v1.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert {name.split("-")[0] for name, _ in rows} == {"senshiai", "kensei", "herocard", "senji", "satsuma"}
    for name, code in rows:
        example = root.parent / "examples" / name
        doc = builder.load_list(example)
        old = decode(code)
        assert old["system"] == doc.system and old.get("name") == canonical(doc.data).get("name"), name
        assert {k: v for k, v in old.items() if k != "checked_with"} == canonical(doc.data), name


def test_a_registered_games_share_code_does_not_depend_on_what_else_is_registered(toy, tmp_path):
    """A game from another package is named by its id in its codes: a code made where it is the
    only extra game reads the same where another game was registered before it."""
    import copy

    from builder.share.code import decode

    code = builder.export(_toy_deck(tmp_path), to="code")
    unregister("toygame")
    other = copy.copy(toy)
    other.id = "aaatoy"
    register(other)  # now registered before the toy game
    register(toy)
    try:
        assert [s for s in builder.systems.ids() if s in ("aaatoy", "toygame")] == ["aaatoy", "toygame"]
        doc = decode(code)
        assert doc["system"] == "toygame" and doc["cards"] == {"Red Fox": 2, "Blue Crane": 2}
    finally:
        unregister("aaatoy")


def test_a_share_code_of_a_game_not_installed_says_which_game(toy, tmp_path):
    from builder.errors import DaimyoError
    from builder.share.code import decode

    code = builder.export(_toy_deck(tmp_path), to="code")
    unregister("toygame")
    try:
        with pytest.raises(DaimyoError) as ei:
            decode(code)
        assert "the game 'toygame', which is not installed here" in str(ei.value)
    finally:
        register(toy)


def test_the_web_builder_starts_a_list_of_a_registered_game_and_prints_its_aid(toy, tmp_path):
    """The new-list form offers every registered game (above); the server accepts it, and the
    game's player aid is served like a built-in game's."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    token = "toy-game-token-0123456789"
    api = TestClient(
        create_app(tmp_path, token=token, port=8765),
        base_url="http://127.0.0.1:8765",
        headers={"Authorization": f"Bearer {token}"},
    )
    r = api.post("/api/lists", json={"system": "toygame", "name": "Two foxes", "file": "foxes.yaml"})
    assert r.status_code == 201, r.text
    text = (tmp_path / r.json()["path"]).read_text(encoding="utf-8")
    assert "system: toygame" in text and "Two foxes" in text
    r = api.post("/api/lists", json={"system": "nosuchgame", "file": "x.yaml"})
    assert r.status_code == 400 and "unknown system 'nosuchgame'" in r.text and "toygame" in r.text, r.text
    r = api.get("/aid/toygame.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF"), r.text[:300]
    assert api.get("/aid/nosuchgame.pdf").status_code == 404


PLUGIN_SYSTEM = '''"""The toy game of tests/toygame.py as a package of its own, its catalog in data/."""
import toygame
from builder.systems.catalog import CatalogPart
from builder.systems.parts import part


class PluginCatalog(CatalogPart):  # no folder of its own: the default, this package's data/
    module_name = rules_name = "toygame"


class PluginToy(toygame.ToyGame):
    id = "toyplugin"
    name = "Toy plug-in"
    aliases = ("toy plug-in",)
    catalog = part(PluginCatalog)


SYSTEM = PluginToy()
'''


def test_a_game_of_another_package_ships_its_catalog_as_that_packages_data(tmp_path, monkeypatch, cli):
    """A game in a package of its own keeps its catalog in the package's data/ folder (package
    data of its wheel), found without naming it: the default ``CatalogPart.folder``."""
    import shutil
    import sys
    from pathlib import Path

    from builder.catalog.loader import load_catalog
    from builder.systems import catalog_folder

    from conftest import DATA

    pkg = tmp_path / "toyplugin"
    (pkg / "data").mkdir(parents=True)
    shutil.copy(DATA / "toygame" / "cards.yaml", pkg / "data" / "cards.yaml")
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "system.py").write_text(PLUGIN_SYSTEM, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "toyplugin", raising=False)
    from toyplugin.system import SYSTEM

    register(SYSTEM)
    try:
        assert catalog_folder("toyplugin") == pkg / "data"
        cat = load_catalog("toyplugin", use_cache=False)
        assert [Path(f) for f in cat.files] == [pkg / "data" / "cards.yaml"]
        assert cat.find("cards", "Red Fox") is not None
        r = cli("catalog", "check", "--system", "toyplugin")
        assert r.code == 0 and r.stdout.startswith("toyplugin: ok, "), r.stdout + r.stderr
    finally:
        unregister("toyplugin")
        for name in ("toyplugin", "toyplugin.system"):
            sys.modules.pop(name, None)
