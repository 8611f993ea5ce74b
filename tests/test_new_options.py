"""Options any game can use: a game declares the options a new list takes (type, choices,
bounds), and the command line (``daimyo new GAME --opt KEY=VALUE``), the JSON API
(``POST /api/lists`` with ``options``), the web builder's new-list form and the library start a
list on one path, which checks a value once and refuses it with the same line everywhere.

The toy card game (tests/toygame.py), registered from the tests alone, has an option none of the
built-in games has: the ``scenario`` of a duel."""

from __future__ import annotations

import html
import re

import pytest

import builder
from builder.lists.new import NewListRequest, start
from builder.systems import register, unregister

TOKEN = "new-options-token-0123456789"
BASE = "http://127.0.0.1:8765"


@pytest.fixture
def toy():
    import toygame

    register(toygame.SYSTEM)
    yield toygame.SYSTEM
    unregister("toygame")


@pytest.fixture
def toyu():
    import toyunits

    register(toyunits.SYSTEM)
    yield toyunits.SYSTEM
    unregister("toyunits")


def _api(folder):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    app = create_app(folder, token=TOKEN, port=8765)
    return app, TestClient(app, base_url=BASE, headers={"Authorization": f"Bearer {TOKEN}"})


def _error(r) -> str:
    """The one error line of a command that exited 2, without its ``daimyo: error:`` prefix."""
    assert r.code == 2, r
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("daimyo: error: ") and "Traceback" not in r.stderr
    return line.removeprefix("daimyo: error: ")


# -- the command line ----------------------------------------------------------------------------


def test_a_plugin_games_own_option_from_the_command_line(toy, tmp_path, cli):
    deck = tmp_path / "deck.yaml"
    r = cli("new", "toy", "--opt", "scenario=siege", "--name", "Two foxes", "-o", deck)
    assert r.code == 0, r.stderr
    assert deck.read_text() == "system: toygame\nname: Two foxes\nscenario: siege\ncards: {}\n"
    assert "a toy deck holds 4 cards" in r.stdout
    # a choice is found by its value or its label, whatever the case
    r = cli("new", "toy", "--opt", "Scenario=River Crossing", "-o", tmp_path / "river.yaml")
    assert r.code == 0 and "scenario: river-crossing\n" in (tmp_path / "river.yaml").read_text()
    # left out: the declared default (the usual skirmish goes unsaid in the list)
    assert cli("new", "toy", "-o", tmp_path / "plain.yaml").code == 0
    assert (tmp_path / "plain.yaml").read_text() == "system: toygame\ncards: {}\n"


@pytest.mark.parametrize(
    ("opts", "message"),
    [
        (
            ["scenario=moon"],
            "scenario is one of skirmish, river-crossing, siege, not 'moon'",
        ),
        (["scenario=seige"], "scenario is one of skirmish, river-crossing, siege, not 'seige' (did you mean 'siege'?)"),
        (
            ["scenaro=siege"],
            "'scenaro' is not an option of a new toygame list (did you mean 'scenario'? toygame lists take scenario)",
        ),
        (["scenario"], "an option is KEY=VALUE, not 'scenario' (e.g. scenario=siege)"),
        (["scenario=siege", "scenario=skirmish"], "option 'scenario' is given twice"),
    ],
)
def test_a_wrong_option_is_one_line_and_exit_2(toy, tmp_path, cli, opts, message):
    deck = tmp_path / "deck.yaml"
    r = cli("new", "toy", *[w for o in opts for w in ("--opt", o)], "-o", deck)
    assert _error(r) == message
    assert not deck.exists()


def test_the_help_names_opt_and_each_games_options(toy, cli):
    r = cli("new", "--help")
    assert r.code == 0
    text = " ".join(r.stdout.split()).replace("- ", "-")  # words as the help wraps them
    assert "--opt KEY=VALUE" in text and "e.g. daimyo new kensei --opt clan=buke" in text
    assert "toygame: scenario: the scenario the duel is played in; one of skirmish, river-crossing, siege" in text
    assert "senji: players: the number of players; 3 to 6; required" in text


# -- the older flags: each stands for its key ----------------------------------------------------


@pytest.mark.parametrize(
    ("game", "flags", "opts"),
    [
        ("kensei", ["--clan", "kuge", "--points", "300"], ["clan=kuge", "points=300"]),
        (
            "kensei",
            ["--clan", "buke", "--commander", "taisho", "--occult"],
            ["clan=buke", "commander=taisho", "occult=yes"],
        ),
        ("senshiai", ["--size", "50"], ["size=50"]),
        ("herocard", ["--hero", "Samurai", "--max-hero-points", "35"], ["hero=Samurai", "max_hero_points=35"]),
        ("senji", ["--players", "4"], ["players=4"]),
        ("satsuma", ["--side", "imperial"], ["side=imperial"]),
    ],
)
def test_each_older_flag_is_the_same_as_its_key(cli, tmp_path, game, flags, opts):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    assert cli("new", game, *flags, "-o", a).code == 0
    assert cli("new", game, *[w for o in opts for w in ("--opt", o)], "-o", b).code == 0
    assert a.read_text() == b.read_text()
    key = opts[0].partition("=")[0]
    assert f"{key}:" in a.read_text()


def test_a_flag_a_key_and_the_apis_older_field_say_the_same_words(cli, tmp_path):
    _app, api = _api(tmp_path)
    with api:
        for value in ("abc", "0"):
            by_flag = _error(cli("new", "senshiai", "--size", value, "-o", tmp_path / "x.yaml"))
            by_key = _error(cli("new", "senshiai", "--opt", f"size={value}", "-o", tmp_path / "x.yaml"))
            r = api.post("/api/lists", json={"system": "senshiai", "file": "x.yaml", "size": value})
            assert r.status_code == 400 and by_flag == by_key == r.json()["error"], r.text
        assert by_flag == "size must be at least 1, not 0"
    assert not (tmp_path / "x.yaml").exists()


def test_a_flag_and_its_key_together_are_refused(cli, tmp_path):
    r = cli("new", "senji", "--players", "3", "--opt", "players=4", "-o", tmp_path / "x.yaml")
    assert _error(r) == "option 'players' is given twice (give --opt players=... or its flag, not both)"


# -- the bounds: at the bound and past it --------------------------------------------------------


def test_a_number_at_and_past_its_declared_bounds(toyu, tmp_path, cli):
    for n in ("1", "10000"):
        r = cli("new", "toy skirmish", "--opt", f"points={n}", "-o", tmp_path / f"a{n}.yaml", "--force")
        assert r.code == 0 and f"points: {n}\n" in (tmp_path / f"a{n}.yaml").read_text()
    for n in ("0", "10001"):
        r = cli("new", "toy skirmish", "--opt", f"points={n}", "-o", tmp_path / "x.yaml")
        assert _error(r) == f"points must be from 1 to 10,000, not {n}"
    r = cli("new", "toy skirmish", "--opt", "points=many", "-o", tmp_path / "x.yaml")
    assert _error(r) == "points must be a whole number, not 'many'"
    r = cli("new", "toy skirmish", "--opt", "points=" + "9" * 40, "-o", tmp_path / "x.yaml")
    assert _error(r) == "points must be from 1 to 10,000, not a number of 40 digits"


def test_a_number_without_a_declared_top_stops_at_the_largest_number(cli, tmp_path):
    out = tmp_path / "army.yaml"
    assert cli("new", "kensei", "--clan", "buke", "--opt", "points=1000000", "-o", out).code == 0
    assert "points: 1000000\n" in out.read_text()
    r = cli("new", "kensei", "--clan", "buke", "--opt", "points=1000001", "-o", tmp_path / "x.yaml")
    assert _error(r) == "points must be from 1 to 1,000,000, not 1000001"
    r = cli("new", "kensei", "--clan", "buke", "--opt", "points=0", "-o", tmp_path / "x.yaml")
    assert _error(r) == "points must be at least 1, not 0"


def test_a_text_option_at_and_past_its_length(cli, tmp_path):
    from builder.systems.newlist import MAX_OPTION_TEXT

    hero = "R" * MAX_OPTION_TEXT
    assert cli("new", "herocard", "--opt", f"hero={hero}", "-o", tmp_path / "h.yaml").code == 0
    r = cli("new", "herocard", "--opt", f"hero={hero}R", "-o", tmp_path / "x.yaml")
    assert _error(r) == f"hero is {MAX_OPTION_TEXT + 1} characters long, at most {MAX_OPTION_TEXT}"


def test_a_flag_reads_yes_and_no(cli, tmp_path):
    for word, written in (("yes", "true"), ("Off", "false")):
        out = tmp_path / f"{word}.yaml"
        assert cli("new", "kensei", "--clan", "buke", "--opt", f"occult={word}", "-o", out).code == 0
        assert f"occult: {written}\n" in out.read_text()
    r = cli("new", "kensei", "--clan", "buke", "--opt", "occult=maybe", "-o", tmp_path / "x.yaml")
    assert _error(r) == "occult is yes or no, not 'maybe'"


# -- the library ---------------------------------------------------------------------------------


def test_the_library_starts_a_list_with_a_games_own_option(toy, tmp_path):
    ed, notes = builder.ListEditor.new("toy", tmp_path / "deck.yaml", name="Two foxes", scenario="Siege")
    assert ed.doc.data["scenario"] == "siege" and notes == ["a toy deck holds 4 cards"]
    new = start(NewListRequest("toy duel", {"scenario": "river crossing"}, name="Crossing"))
    assert new.game is toy and new.text == "system: toygame\nname: Crossing\nscenario: river-crossing\ncards: {}\n"
    with pytest.raises(builder.UsageError) as info:
        start(NewListRequest("toy", {"scenario": "moon"}))
    assert info.value.lines() == ["daimyo: error: scenario is one of skirmish, river-crossing, siege, not 'moon'"]


def test_every_games_form_fields_come_from_its_declaration():
    """The new-list form's fields are the declared options it shows, and the declared keys are
    the game's ``options`` (what an event's settings and the API's older fields ask)."""
    from builder.catalog.loader import load_catalog

    for gs in builder.list_systems():
        declared = gs.new_list.declare(load_catalog(gs.id))
        assert {o.key for o in declared} == set(gs.new_list.options), gs.id
        assert gs.new_list.fields(load_catalog(gs.id)) == [o.field() for o in declared if o.form], gs.id


# -- the JSON API and the web page ---------------------------------------------------------------


def test_a_plugin_games_own_option_from_the_api(toy, tmp_path, cli):
    _app, api = _api(tmp_path)
    with api:
        r = api.post("/api/lists", json={"system": "toygame", "file": "duel.yaml", "options": {"scenario": "siege"}})
        assert r.status_code == 201, r.text
        assert (tmp_path / "duel.yaml").read_text() == "system: toygame\nscenario: siege\ncards: {}\n"
        # the same words as the command line, in a 400
        r = api.post("/api/lists", json={"system": "toygame", "file": "x.yaml", "options": {"scenario": "moon"}})
        said = cli("new", "toy", "--opt", "scenario=moon", "-o", tmp_path / "x.yaml")
        assert r.status_code == 400 and r.json()["error"] == _error(said)
        r = api.post("/api/lists", json={"system": "toygame", "file": "x.yaml", "options": {"scenaro": "siege"}})
        said = cli("new", "toy", "--opt", "scenaro=siege", "-o", tmp_path / "x.yaml")
        assert r.status_code == 400 and r.json()["error"] == _error(said)
        assert "toygame lists take scenario" in r.json()["error"]
        r = api.post(
            "/api/lists", json={"system": "kensei", "file": "x.yaml", "options": {"clan": "buke", "points": 0}}
        )
        said = cli("new", "kensei", "--opt", "clan=buke", "--opt", "points=0", "-o", tmp_path / "x.yaml")
        assert r.status_code == 400 and r.json()["error"] == _error(said) == "points must be at least 1, not 0"
        assert not (tmp_path / "x.yaml").exists()


def test_the_api_takes_options_typed_and_its_older_fields(tmp_path):
    _app, api = _api(tmp_path)
    with api:
        r = api.post(
            "/api/lists",
            json={"system": "kensei", "file": "a.yaml", "options": {"clan": "kuge", "points": 300, "occult": True}},
        )
        assert r.status_code == 201, r.text
        text = (tmp_path / "a.yaml").read_text()
        assert "clan: kuge\npoints: 300\n" in text and "occult: true\n" in text
        r = api.post("/api/lists", json={"system": "senji", "file": "b.yaml", "players": 4})  # an older field
        assert r.status_code == 201 and (tmp_path / "b.yaml").read_text().count("family:") == 4
        r = api.post("/api/lists", json={"system": "senji", "file": "c.yaml", "players": 4, "options": {"players": 5}})
        assert r.status_code == 400 and r.json()["error"].startswith("option 'players' is given twice")


def test_a_plugin_games_own_option_from_the_new_list_form(toy, tmp_path):
    """The workspace page's form shows the toy's scenario as the game declares it; the form's
    own fields, posted as a browser posts them, start the list on the same path."""
    app, _ = _api(tmp_path)
    from fastapi.testclient import TestClient

    with TestClient(app, base_url=BASE) as client:
        r = client.get(f"/?token={TOKEN}")
        assert r.status_code == 200
        client.headers.update({"X-CSRF-Token": app.csrf})
        fieldset = re.search(r'<fieldset data-system="toygame".*?</fieldset>', r.text, re.S)
        assert fieldset, "no toy fields in the new-list form"
        select = re.search(r'<select name="scenario"[^>]*>(.*?)</select>', fieldset.group(0), re.S)
        assert select, fieldset.group(0)
        options = re.findall(r'<option value="([^"]*)"\s*(selected)?>([^<]*)</option>', select.group(1))
        assert [(v, label) for v, _, label in options] == [
            ("skirmish", "Skirmish"),
            ("river-crossing", "River crossing"),
            ("siege", "Siege"),
        ]
        assert [v for v, sel, _ in options if sel] == ["skirmish"]
        r = client.post(
            "/new",
            data={"system": "toygame", "name": "Siege duel", "scenario": "siege"},
            headers={"HX-Request": "true"},
        )
        assert r.status_code == 204 and r.headers["HX-Redirect"] == "/l/Siege-duel.yaml", r.text
        assert (
            tmp_path / "Siege-duel.yaml"
        ).read_text() == "system: toygame\nname: Siege duel\nscenario: siege\ncards: {}\n"
        r = client.post("/new", data={"system": "toygame", "name": "Moon duel", "scenario": "moon"})
        said = "scenario is one of skirmish, river-crossing, siege, not 'moon'"
        assert r.status_code == 400 and said in html.unescape(r.text)
        assert not (tmp_path / "Moon-duel.yaml").exists()


# -- the generic add operation takes an options mapping ------------------------------------------


def test_add_takes_the_games_own_options_by_key(toyu, tmp_path, cli):
    army = tmp_path / "army.yaml"
    assert cli("new", "toy skirmish", "-o", army).code == 0
    r = cli("add", army, "Archers", "--opt", "models=4")
    assert r.code == 0 and "added 4 Archers" in r.stdout, r.stdout + r.stderr
    r = cli("add", army, "Archers", "--opt", "veteran=yes")
    assert _error(r) == "--veteran does not apply to toyunits lists ('add' of a toyunits list takes models)"
    r = cli("add", army, "Archers", "--opt", "model=4")
    assert _error(r) == (
        "--model does not apply to toyunits lists (did you mean 'models'? 'add' of a toyunits list takes models)"
    )
    ed = builder.ListEditor.open(army)
    change = ed.add("Spearmen", options={"models": 3})
    assert change.notes == ["added 3 Spearmen"]
    _app, api = _api(tmp_path)
    with api:
        v = api.get("/api/lists/army.yaml").json()["version"]
        r = api.post(
            "/api/lists/army.yaml/edit", json={"op": "add", "item": "Archers", "options": {"models": 2}, "version": v}
        )
        assert r.status_code == 200, r.text
        assert "added 2 Archers" in r.text
        r = api.post("/api/lists/army.yaml/edit", json={"op": "add", "item": "Archers", "options": {"veteran": True}})
        said = "'veteran' does not apply to toyunits lists ('add' of a toyunits list takes models)"
        assert r.status_code == 400 and r.json()["error"] == said, r.text


def test_a_game_that_gives_only_form_fields_still_has_its_options_checked():
    """A game written before options were declared names ``options`` and gives the form's
    ``fields`` as mappings: its options are read from those, so ``--opt`` and the API take them
    and refuse a wrong value in the same words."""
    from types import SimpleNamespace

    from builder.systems.newlist import NewListPart

    class OlderNewList(NewListPart):
        options = frozenset({"faction", "points", "motto"})

        def fields(self, catalog):
            return [
                {
                    "key": "faction",
                    "label": "Faction",
                    "value": "",
                    "choices": [("north", "North"), ("south", "South")],
                },
                {"key": "points", "label": "Points", "value": "100", "type": "number", "min": 1, "max": 500},
            ]

        def body(self, data, catalog, options):
            data.update({k: v for k, v in options.items() if v is not None})
            return []

    part = OlderNewList(SimpleNamespace(id="older"))
    data, _ = part.make(None, {"faction": "South", "points": "500", "motto": " Onward "})
    assert data == {"system": "older", "faction": "south", "points": 500, "motto": "Onward"}
    for given, said in (
        ({"points": "501"}, "points must be from 1 to 500, not 501"),
        ({"faction": "east"}, "faction is one of north, south, not 'east'"),
        (
            {"fation": "north"},
            "'fation' is not an option of a new older list (did you mean 'faction'? older lists take faction, motto, points)",
        ),
    ):
        with pytest.raises(builder.UsageError) as info:
            part.make(None, given)
        assert info.value.lines() == [f"daimyo: error: {said}"]
    assert [f["key"] for f in part.fields(None)] == ["faction", "points"]  # the form as the game gives it
