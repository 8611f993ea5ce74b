"""Every face of the edit session records the packs a list is checked with: the same edit made
on the command line, through the web page and through the JSON API writes the same
``checked_with``, and after the Packs page replaces a pack, ``daimyo check`` of a list built in
the web builder says what changed for it."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from regserver import Server
from test_packs_registry import club
from test_web_packs import BASE, TOKEN, install, reindex

from builder.web.app import create_app

DECK = "system: senshiai\nname: Club deck\nsize: 3\npacks:\n  - Club cards\ncards:\n  Club Samurai: 1\n"
RECORDED_1 = "checked_with:\n  - pack: Club cards\n    name: Club cards\n    version: '1'\n    hash: sha256:"


@pytest.fixture()
def served(tmp_path, monkeypatch):
    """A workspace with three copies of a deck of Club cards (installed from a registry on
    127.0.0.1, version 1), and a client of its web builder."""
    ws = tmp_path / "ws"
    ws.mkdir()
    reg = tmp_path / "registry"
    reg.mkdir()
    (reg / "club-1.yaml").write_text(club("1"))
    reindex(reg)
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "packs"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with Server(reg.parent) as srv:
        monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
        from builder.packs.installer import install as install_pack

        install_pack("Club cards@1")
        for name in ("cli", "page", "api"):
            (ws / f"{name}.yaml").write_text(DECK)
        app = create_app(ws, token=TOKEN, port=8765)
        with TestClient(app, base_url=BASE) as c:
            assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
            c.headers.update({"X-CSRF-Token": app.csrf})
            yield c, ws, reg


def recorded(text: str) -> str:
    return text[text.index("checked_with:") :]


def test_the_same_edit_records_the_same_packs_on_every_face(served, cli):
    c, ws, _reg = served
    r = cli("edit", "copies", ws / "cli.yaml", "Club Samurai", "2")
    assert r.code in (0, 1), r.stderr
    r = c.post(
        "/l/page.yaml/edit",
        data={"op": "copies", "item": "Club Samurai", "value": "2"},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200, r.text
    r = c.post("/api/lists/api.yaml/edit", json={"op": "copies", "item": "Club Samurai", "value": 2})
    assert r.status_code == 200, r.text
    texts = {name: (ws / f"{name}.yaml").read_text() for name in ("cli", "page", "api")}
    assert "Club Samurai: 2" in texts["page"] and "Club Samurai: 2" in texts["api"]
    assert RECORDED_1 in texts["cli"]
    assert recorded(texts["page"]) == recorded(texts["cli"]) == recorded(texts["api"])
    assert texts["page"] == texts["cli"] == texts["api"]


def test_a_web_built_deck_is_told_what_a_pack_update_changed(served, cli):
    c, ws, reg = served
    r = c.post(
        "/l/page.yaml/edit",
        data={"op": "copies", "item": "Club Samurai", "value": "2"},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200, r.text
    assert RECORDED_1 in (ws / "page.yaml").read_text()
    (reg / "club-2.yaml").write_text(club("2", power="3/1/3"))
    reindex(reg)
    assert "Update to 2" in c.get("/packs").text
    assert install(c, "Club cards@2").status_code == 204
    r = cli("check", ws / "page.yaml")
    notes = [ln.strip() for ln in r.stdout.splitlines() if ln.strip().startswith("note:")]
    assert notes == [
        "note: pack 'Club cards' version 1 recorded by this list differs here (version 2): Club "
        "Samurai: power 2/1/3 -> 3/1/3; 'daimyo pack install \"Club cards@1\"' brings it back"
    ]
    # the next edit is checked with version 2, records it, and says so
    r = c.post("/api/lists/page.yaml/edit", json={"op": "copies", "item": "Club Samurai", "value": 3})
    assert r.status_code == 200, r.text
    assert r.json()["notes"][-1] == "now checked with pack 'Club cards' version 2 (was version 1)"
    assert "    version: '2'\n" in (ws / "page.yaml").read_text()
    assert "note:" not in cli("check", ws / "page.yaml").stdout
