"""Packs named by name, the same in the web builder as on the command line: a list made by
'daimyo new --pack NAME' opens in the builder; a share code, Markdown or YAML made by
'daimyo export' imports in the builder with the packs and the verdict 'daimyo import' gives,
and back; a path a list spells out is still never followed out of the workspace."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sweeps import quick_first

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token-packs-by-name-0123"
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))
FORMATS = ("code", "markdown", "yaml")


@pytest.fixture()
def ws(tmp_path):
    """A workspace without a packs folder: the bundled packs are the ones found by name."""
    root = tmp_path / "ws"
    root.mkdir()
    return root


@pytest.fixture()
def api(ws):
    with TestClient(
        create_app(ws, token=TOKEN), base_url="http://127.0.0.1:8765", headers={"Authorization": f"Bearer {TOKEN}"}
    ) as c:  # one event loop for all its requests
        yield c


def _verdict(check_json: dict) -> tuple:
    return (
        check_json["legal"],
        sorted((f["code"], f["severity"]) for f in check_json["findings"]),
        [p["hash"] for p in check_json.get("packs") or []],
    )


def _cli_verdict(cli, path: Path) -> tuple:
    r = cli("check", str(path), "--format", "json")
    assert r.code in (0, 1), r
    return _verdict(json.loads(r.stdout)[0])


def _web_verdict(api, rel: str) -> tuple:
    r = api.get(f"/api/lists/{rel}/check")
    assert r.status_code == 200, r.text
    return _verdict(r.json())


def test_the_readme_tours_deck_opens_in_the_builder(cli, ws, api, monkeypatch):
    monkeypatch.chdir(ws)
    assert cli("new", "senshiai", "--size", "3", "--pack", "senshiai-example", "-o", "deck.yaml").code in (0, 1)
    assert cli("add", "deck.yaml", "Capital of the North").code in (0, 1)
    assert cli("add", "deck.yaml", "Warriors", "--count", "2").code in (0, 1)
    assert "packs:\n  - senshiai-example\n" in (ws / "deck.yaml").read_text()
    page = api.get("/l/deck.yaml", headers={"Cookie": f"daimyo_8765={TOKEN}"})
    assert page.status_code == 200 and "Capital of the North" in page.text
    assert _web_verdict(api, "deck.yaml") == _cli_verdict(cli, ws / "deck.yaml")
    listed = {x["path"]: x for x in api.get("/api/lists").json()["lists"]}
    assert listed["deck.yaml"]["problem"] is None and listed["deck.yaml"]["verdict"] == "legal"
    r = api.post("/api/lists/deck.yaml/edit", json={"op": "add", "item": "Warriors"})
    assert r.status_code == 200


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("example", quick_first(EXAMPLES))
def test_an_export_imports_in_the_builder_as_on_the_command_line(cli, ws, api, tmp_path, monkeypatch, example, fmt):
    monkeypatch.chdir(tmp_path)
    r = cli("export", str(ROOT / "examples" / example), "--to", fmt)
    if r.code != 0:
        assert "cannot be written as" in r.stderr  # a text format that would not read back: said so
        pytest.skip(f"{example} is not written as {fmt}")
    shared = r.stdout
    # the command line: import into a folder of its own, then check
    (tmp_path / "cli").mkdir()
    src = tmp_path / f"shared.{ {'code': 'txt', 'markdown': 'md', 'yaml': 'yaml'}[fmt] }"
    src.write_text(shared)
    out = tmp_path / "cli" / "list.yaml"
    r = cli("import", str(src), "-o", str(out))
    assert r.code == 0, r
    # the web builder: paste it
    r = api.post("/api/import", json={"text": shared, "file": "list.yaml"})
    assert r.status_code == 201, r.text
    assert r.json()["missing_packs"] == []
    written = (ws / "list.yaml").read_text()
    for ref in json.loads(cli("check", str(ROOT / "examples" / example), "--format", "json").stdout)[0]["packs"]:
        assert ref["hash"] in json.dumps(api.get("/api/lists/list.yaml/check").json()["packs"])
    assert "packs/" not in written.split("checked_with")[0]  # by name, never by a path
    assert _web_verdict(api, "list.yaml") == _cli_verdict(cli, out) == _cli_verdict(cli, ROOT / "examples" / example)
    # and back: the builder's export imports on the command line with the same verdict
    back = api.get(f"/api/lists/list.yaml/export?format={fmt}").json()["text"]
    src2 = tmp_path / f"back.{ {'code': 'txt', 'markdown': 'md', 'yaml': 'yaml'}[fmt] }"
    src2.write_text(back)
    out2 = tmp_path / "cli" / "back.yaml"
    assert cli("import", str(src2), "-o", str(out2)).code == 0
    assert _cli_verdict(cli, out2) == _web_verdict(api, "list.yaml")


def test_the_new_list_form_offers_the_bundled_packs_and_writes_their_names(ws, api):
    html = api.get("/", headers={"Cookie": f"daimyo_8765={TOKEN}"}).text
    assert 'value="@bundled/senshiai-example.yaml"' in html and "Senshiai example cards" in html
    r = api.post(
        "/api/lists", json={"file": "deck.yaml", "system": "senshiai", "packs": ["@bundled/senshiai-example.yaml"]}
    )
    assert r.status_code == 201
    assert "packs:\n  - senshiai-example\n" in (ws / "deck.yaml").read_text()
    rows = api.get("/l/deck.yaml/catalog?q=capital", headers={"Cookie": f"daimyo_8765={TOKEN}"}).text
    assert "Capital of the North" in rows


def test_a_pack_of_the_workspace_shadows_the_bundled_one_of_that_name(ws, api):
    (ws / "packs").mkdir()
    text = (ROOT / "examples" / "packs" / "senshiai-example.yaml").read_text()
    (ws / "packs" / "senshiai-example.yaml").write_text(
        text.replace("name: Senshiai example cards", "name: Senshiai example cards", 1) + "\n# my own copy\n"
    )
    html = api.get("/", headers={"Cookie": f"daimyo_8765={TOKEN}"}).text
    assert 'value="packs/senshiai-example.yaml"' in html and "@bundled/senshiai-example.yaml" not in html
    r = api.post(
        "/api/lists", json={"file": "sub/deck.yaml", "system": "senshiai", "packs": ["packs/senshiai-example.yaml"]}
    )
    assert r.status_code == 201 and "packs:\n  - senshiai-example\n" in (ws / "sub" / "deck.yaml").read_text()


@pytest.mark.parametrize("ref", ["../outside-pack.yaml", "{outside}"])
def test_a_path_to_a_pack_outside_the_workspace_is_never_read(ws, api, ref, monkeypatch):
    import builder.catalog.packfiles as resolve

    outside = ws.parent / "outside-pack.yaml"
    shutil.copy(ROOT / "examples" / "packs" / "senshiai-example.yaml", outside)
    (ws / "deck.yaml").write_text(f"system: senshiai\nname: d\npacks: ['{ref.format(outside=outside)}']\ncards: {{}}\n")
    opened = []
    real_header = resolve.read_header
    monkeypatch.setattr(resolve, "read_header", lambda p: opened.append(Path(p)) or real_header(p))
    r = api.get("/api/lists/deck.yaml/check")
    assert r.status_code == 403 and "pack by a path outside the workspace" in r.json()["error"]
    listed = {x["path"]: x for x in api.get("/api/lists").json()["lists"]}
    assert "outside the workspace" in listed["deck.yaml"]["problem"]
    assert outside.resolve() not in [p.resolve() for p in opened]
