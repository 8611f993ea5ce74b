"""One description of each game's list document: the key order, the share schema and the pydantic model.

The fields of a game's document (``builder.systems.documents``) give the order keys are
written in, the keys a list may hold, the share formats' schema and the list model; the
model is built for one game when first used, and a check from the catalog cache imports
no pydantic at all. The check path's own readers are checked against the model: every
list they accept, the model accepts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from builder.check import check_file
from builder.errors import DaimyoError
from builder.lists.document import load_list, parse_list
from builder.lists.schema import SCHEMAS, keys, schema
from builder.systems import get

from conftest import DATA, ROOT

BUILT_IN = ("senshiai", "kensei", "herocard", "senji", "satsuma")


@pytest.mark.parametrize("system", BUILT_IN)
def test_key_order_share_schema_and_model_come_from_the_document(system):
    gs = get(system)
    own = tuple(f.key for f in gs.document.fields)
    assert own and gs.document.key_order == own
    assert gs.document.list_keys == ("system", "name", "author", "notes", "packs", "house_rules") + own
    shared = [f.key for f in SCHEMAS[system]]
    assert shared[-1] == "checked_with" and [k for k in own if k in shared] == shared[:-1]
    assert keys(system) == [f.key for f in schema(system)]
    model = gs.document.model()
    assert list(model.model_fields) == list(gs.document.list_keys) + ["checked_with"]


def test_a_list_is_written_in_the_documents_key_order():
    from builder.lists.dump import dump_list_yaml

    data = {
        "troops": [{"models": 5, "troop": "Samurai Yari"}],
        "points": 200,
        "name": "x",
        "clan": "buke",
        "system": "kensei",
    }
    text = dump_list_yaml(data)
    assert [line.split(":")[0] for line in text.splitlines() if line and not line.startswith((" ", "-"))] == [
        "system",
        "name",
        "clan",
        "points",
        "troops",
    ]
    assert "- troop: Samurai Yari\n    models: 5" in text


def test_a_wrong_document_is_reported_at_the_line_and_column_of_each_value():
    text = (
        "system: kensei\nclan: buke\npoints: two hundred\ntroops:\n  - troop: Samurai Yari\n"
        "    models: 5\n    colour: red\n  - Yari Ashigaru\n"
    )
    doc = parse_list(text, "army.yaml")
    lines = [d.format() for d in get("kensei").document.validate(doc.data, doc.positions)]
    assert lines == [
        "army.yaml:3:9: error: points: Input should be a valid integer, got 'two hundred'",
        "army.yaml:7:5: error: troops[0].colour: unknown key 'colour' (allowed keys: troop, models, led_by, standard)",
    ]
    good = parse_list("system: kensei\nclan: buke\npoints: 200\ntroops: [Yari Ashigaru]\n", "ok.yaml")
    assert get("kensei").document.validate(good.data, good.positions) == []


def test_a_satsuma_custom_card_and_a_senji_province_fit_their_models():
    doc = parse_list("system: satsuma\nside: samurai\ncards:\n  Odd: {printed: F2, cnt: 1}\n", "d.yaml")
    lines = [d.format() for d in get("satsuma").document.validate(doc.data, doc.positions)]
    assert "d.yaml:4:22: error: cards.Odd.cnt: unknown key 'cnt'" in lines
    doc = parse_list(
        "system: senji\nplayers:\n  - name: A\n    provinces: [{province: Owari, fortresses: 1}]\n", "s.yaml"
    )
    assert get("senji").document.validate(doc.data, doc.positions) == []
    assert "fortresses" not in [f.key for f in SCHEMAS["senji"][0].sub("provinces").fields]  # not shared


def _list_files():
    for path in sorted([*(ROOT / "examples").glob("*.yaml"), *DATA.rglob("*.yaml"), *DATA.rglob("*.json")]):
        if "toygame" in path.parts:
            continue
        try:
            yield path, load_list(path)
        except DaimyoError:
            continue  # not a list document at all (broken YAML, a pack)


def test_every_list_the_check_accepts_the_model_accepts_and_shape_errors_are_both_refused():
    accepted = refused_by_both = 0
    for path, doc in _list_files():
        problems = [d.format() for d in get(doc.system).document.validate(doc.data, doc.positions)]
        try:
            check_file(path)
        except DaimyoError:
            refused_by_both += bool(problems)
            continue
        assert problems == [], (path, problems)
        accepted += 1
    assert accepted > 60 and refused_by_both > 10


def test_the_model_is_built_for_one_game_only_when_first_used():
    code = (
        "import sys, json; from builder.systems import get; from builder.systems import documents as d; "
        "m = get('senji').document.model(); before = m.__pydantic_complete__; "
        "m.model_validate({'system': 'senji'}); "
        "print(json.dumps([before, m.__pydantic_complete__, sorted(d._MODELS)]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(out.stdout) == [False, True, ["senji"]]


@pytest.mark.parametrize("example", ["kensei-buke.yaml", "herocard-samurai.yaml"])
def test_a_check_from_the_catalog_cache_imports_no_pydantic(tmp_path, example):
    env = dict(os.environ, DAIMYO_CACHE_DIR=str(tmp_path / "cache"))
    code = (
        "import sys; from builder.cli import main; sys.argv = ['daimyo', 'check', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('pydantic' in sys.modules, file=sys.stderr)"
    )
    example = str(ROOT / "examples" / example)
    first = subprocess.run([sys.executable, "-c", code, example], capture_output=True, text=True, env=env, cwd=ROOT)
    assert first.stderr.strip().endswith("True")  # the first run validates the catalog and fills the cache
    again = subprocess.run([sys.executable, "-c", code, example], capture_output=True, text=True, env=env, cwd=ROOT)
    assert "legal" in again.stdout and again.stderr.strip() == "False", again.stderr


def test_the_library_validates_a_list_file_against_its_model(tmp_path):
    import builder
    from builder.errors import ListError

    good = builder.validate(ROOT / "examples" / "senji-three-daimyo.yaml")
    assert good.system == "senji"
    bad = tmp_path / "army.yaml"
    bad.write_text(
        "system: kensei\nclan: buke\npoints: 200\noccult: perhaps\ntroops:\n  - troop: Samurai Yari\n    modles: 5\n",
        encoding="utf-8",
    )
    with pytest.raises(ListError) as info:
        builder.validate(bad)
    assert info.value.lines() == [
        f"{bad}:4:9: error: occult: Input should be a valid boolean, got 'perhaps'",
        f"{bad}:7:5: error: troops[0].modles: unknown key 'modles' (did you mean 'models'?)",
    ]
