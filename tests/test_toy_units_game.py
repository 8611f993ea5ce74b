"""A seventh game, registered from the tests alone (tests/toyunits.py and tests/data/toyunits/):
a wargame of units of models. It has the ``units`` part and the ``sheet`` part, so it is checked,
edited unit by unit from the library, the command line and the web builder, printed as a roster
and shared, with no change to daimyo's own files."""

import pytest

import builder
from builder.systems import register, unregister


@pytest.fixture
def toyu():
    import toyunits

    register(toyunits.SYSTEM)
    yield toyunits.SYSTEM
    unregister("toyunits")


def _army(tmp_path, points=None):
    ed, _notes = builder.ListEditor.new(
        "toy skirmish", tmp_path / "army.yaml", name="Pikes", **({"points": points} if points else {})
    )
    ed.add("Spearmen", models=4)
    ed.add("Captain")
    ed.save()
    return ed


def test_checks_units_of_models_against_its_rules(toyu, tmp_path):
    ed = _army(tmp_path)
    res = ed.check()
    assert res.legal and res.summary == {"points": 40, "limit": 100, "units": 2, "models": 5}
    ed.add("Archers", models=7)  # 7 > 6 models, and 40 + 56 = 96 points: only the models break
    assert [f.code for f in ed.check().findings] == ["toyu.models-range"]
    ed.add("Spearmen", models=2)  # a fourth unit (3 at most) and 106 points
    assert sorted(f.code for f in ed.check().findings) == ["toyu.models-range", "toyu.points-max", "toyu.units-max"]


def test_points_bound_at_and_past_the_limit(toyu, tmp_path):
    ed = _army(tmp_path, points=40)  # 4 x 5 + 20 = 40: at the bound
    assert ed.check().legal
    ed.set("points", "39")
    f = ed.check().findings
    assert [x.code for x in f] == ["toyu.points-max"] and "costs 40 points, more than its 39" in f[0].message


def test_command_line_adds_units_with_models_and_refuses_what_the_game_lacks(toyu, tmp_path, cli):
    army = tmp_path / "army.yaml"
    r = cli("new", "toy skirmish", "-o", army)
    assert r.code == 0, r.stderr
    r = cli("add", army, "Archers", "--models", "3")
    assert r.code == 0 and "added 3 Archers" in r.stdout, r.stdout + r.stderr
    assert "troop: Archers" in army.read_text() and "models: 3" in army.read_text()
    r = cli("check", army)
    assert r.code == 0 and "legal" in r.stdout
    r = cli("add", army, "Archers", "--player", "Ann")
    assert r.code == 2 and "--player" in r.stderr


def test_command_line_edits_a_unit_by_its_place_with_the_games_own_operations(toyu, tmp_path, cli):
    """``daimyo edit models``, ``duplicate`` and ``remove-unit`` run the toy's own operations
    (tests/toyunits_edits.py); a unit count past the army's or a model count past the bound is
    refused with the unit and the bound named."""
    army = tmp_path / "army.yaml"
    assert cli("new", "toy skirmish", "-o", army).code == 0
    assert cli("add", army, "Spearmen", "--models", "3").code == 0
    r = cli("edit", "models", army, "1", "+2")
    assert r.code == 0 and "Spearmen: 5 models" in r.stdout, r.stdout + r.stderr
    r = cli("edit", "duplicate", army, "1")
    assert r.code == 0 and "another Spearmen" in r.stdout, r.stdout + r.stderr
    r = cli("edit", "remove-unit", army, "2")
    assert r.code == 0 and "removed Spearmen" in r.stdout, r.stdout + r.stderr
    assert army.read_text(encoding="utf-8").count("troop: Spearmen") == 1 and "models: 5" in army.read_text()
    r = cli("edit", "models", army, "2", "4")
    assert r.code == 2 and "no unit 2 in the army: it has 1" in r.stderr, r.stderr
    assert cli("edit", "models", army, "1", "1000").code == 0  # at the bound
    r = cli("edit", "models", army, "1", "+1")  # just past it
    assert r.code == 2 and "at most 1000, not 1001" in r.stderr, r.stderr


def test_the_toy_needs_no_module_of_a_builtin_game():
    """The toy brings its own parts and edit operations: none of its modules imports a built-in
    game's package (as a game of another package could not rely on one)."""
    import ast
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for name in ("toyunits.py", "toyunits_edits.py"):
        tree = ast.parse((here / name).read_text(encoding="utf-8"))
        imported = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert imported and not [m for m in imported if m and m.startswith("builder.games")], (name, imported)


def test_prints_a_roster_not_cards(toyu, tmp_path):
    pytest.importorskip("pypdf")
    from pypdf import PdfReader

    _army(tmp_path)
    out = builder.render_pdf(tmp_path / "army.yaml", tmp_path / "army.pdf")
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "40 of 100 points, 2 units" in text
    assert "Spearmen" in text and "Captain" in text


@pytest.mark.parametrize("to", ["json", "yaml", "code"])
def test_shares_and_reads_back(toyu, tmp_path, to):
    ed = _army(tmp_path)
    shared = builder.export(ed, to=to)
    back = builder.import_(shared)
    assert back.check().summary == {"points": 40, "limit": 100, "units": 2, "models": 5}
    assert builder.export(back, to=to) == shared


def test_the_web_builder_edits_it_unit_by_unit(toyu, tmp_path):
    """The page's unit edits: add with models, one model more, a duplicate, a removal by index."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    token = "toy-units-token-0123456789"
    api = TestClient(
        create_app(tmp_path, token=token, port=8766),
        base_url="http://127.0.0.1:8766",
        headers={"Authorization": f"Bearer {token}"},
    )
    r = api.post("/api/lists", json={"system": "toyunits", "name": "Pikes", "file": "pikes.yaml"})
    assert r.status_code == 201, r.text
    path = r.json()["path"]

    def edit(**op):
        r = api.post(f"/api/lists/{path}/edit", json=op)
        assert r.status_code == 200, r.text
        return r.json()

    assert edit(op="add", item="Spearmen", models=3)["summary"]["models"] == 3
    assert edit(op="models", index=0, delta=1)["summary"]["models"] == 4
    out = edit(op="duplicate", index=0)
    assert out["summary"] == {"points": 40, "limit": 100, "units": 2, "models": 8}
    out = edit(op="remove", index=1)
    assert out["summary"]["units"] == 1
    text = (tmp_path / path).read_text(encoding="utf-8")
    assert "troop: Spearmen" in text and "models: 4" in text
    r = api.post(f"/api/lists/{path}/edit", json={"op": "models", "index": 0, "delta": -4})
    assert r.status_code == 400 and "a unit has at least 1 model" in r.text
    page = api.get(f"/l/{path}")
    assert page.status_code == 200 and "Spearmen" in page.text
