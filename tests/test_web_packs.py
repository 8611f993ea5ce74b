"""The web builder's Packs page against a registry served on 127.0.0.1: installed packs with
version, source and an available update; registry search; one-click install and update; the
refusals as 4xx with the command line's words."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from regserver import Server
from test_packs_registry import club

from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token-0123456789abcdef"
BASE = "http://127.0.0.1:8765"


@pytest.fixture()
def setup(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", ws)
    reg = tmp_path / "registry"
    reg.mkdir()
    (reg / "club-1.yaml").write_text(club("1"))
    packs = tmp_path / "packs"
    monkeypatch.setenv("DAIMYO_PACKS", str(packs))
    monkeypatch.delenv("DAIMYO_REGISTRY", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url=BASE) as c:  # one event loop for all its requests
        assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        yield c, reg, packs


def reindex(reg):
    from builder.packs.registry import build_index, dump_index

    (reg / "index.json").write_text(dump_index(build_index(reg)[0]))


def install(c, ref):
    return c.post("/packs/install", data={"ref": ref}, headers={"HX-Request": "true"})


def test_packs_page_search_install_update(setup, monkeypatch):
    c, reg, packs = setup
    r = c.get("/packs")
    assert r.status_code == 200
    assert "no pack registry is configured" in r.text and "No pack installed yet" in r.text
    reindex(reg)
    with Server(reg.parent) as srv:
        monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
        r = c.get("/packs", params={"q": "club", "system": "senshiai"})
        assert r.status_code == 200
        assert 'data-pack="Club cards"' in r.text and 'value="Club cards@1"' in r.text
        assert c.get("/packs", params={"q": "nothing like it"}).text.count("No packs found.") == 1
        r = install(c, "Club cards@1")
        assert r.status_code == 204
        done = parse_qs(urlsplit(r.headers["HX-Redirect"]).query)["done"][0]
        assert (
            done == f"Club cards 1 (senshiai): installed from {srv.url}/registry/club-1.yaml: "
            f"{packs / 'club-cards.yaml'}"
        )
        page = c.get(r.headers["HX-Redirect"]).text
        assert f"{srv.url}/registry/club-1.yaml" in page and 'class="badge legal">installed<' in page
        assert "up to date" in page
        (reg / "club-2.yaml").write_text(club("2", power="3/1/3"))
        reindex(reg)
        page = c.get("/packs").text
        assert "Update to 2" in page and 'href="/packs/update?name=Club%20cards"' in page
        assert install(c, "Club cards@2").status_code == 204
        page = c.get("/packs").text
        assert "also kept: 1" in page and "Update to" not in page
        assert "3/1/3" in (packs / "club-cards.yaml").read_text()
        # a file changed after the index was made: refused, with the command line's line
        (reg / "club-3.yaml").write_text(club("3"))
        reindex(reg)
        (reg / "club-3.yaml").write_text(club("3") + "# tampered\n")
        r = install(c, "Club cards@3")
        assert r.status_code == 400
        assert "differs from the index&#39;s" in r.text or "differs from the index's" in r.text
        assert "3/1/3" in (packs / "club-cards.yaml").read_text()


@pytest.mark.parametrize("ref", ["", "../../etc/passwd", "file:///etc/passwd", "packs/x.yaml"])
def test_install_takes_registry_names_only(setup, ref):
    c, _reg, packs = setup
    r = install(c, ref)
    assert r.status_code == 400 and "name a pack of the registries" in r.text
    assert not packs.exists()


def test_install_needs_the_page_csrf_header(setup):
    c, _reg, packs = setup
    r = c.post("/packs/install", data={"ref": "Club cards"}, headers={"X-CSRF-Token": "wrong"})
    assert r.status_code == 403
    assert not packs.exists()


DECK = (
    "system: senshiai\nname: Club deck\nsize: 3\npacks:\n  - Club cards\ncards:\n  Club Samurai: 1\n  Club Archers: 2\n"
)


def test_update_shows_what_changes_for_the_workspace_lists_before_replacing(setup, monkeypatch):
    c, reg, packs = setup
    ws = packs.parent / "ws"  # the workspace of the setup
    (ws / "club").mkdir()
    (ws / "club" / "deck.yaml").write_text(DECK)
    (ws / "club" / "other.yaml").write_text(DECK.replace("  Club Samurai: 1\n", ""))
    reindex(reg)
    with Server(reg.parent) as srv:
        monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
        assert install(c, "Club cards@1").status_code == 204
        (reg / "club-2.yaml").write_text(club("2", power="3/1/3", drop_archers=True))
        (reg / "club-2.yaml").write_text(
            (reg / "club-2.yaml").read_text()
            + "  - name: Club Monks\n    type: troop\n    cost: I\n    paths: [Air]\n    speed: 1\n"
            "    power: 1/1/2\n    assumed: invented for the test\n"
        )
        reindex(reg)
        page = c.get("/packs").text
        update = '<a class="btn btn-small btn-primary" href="/packs/update?name=Club%20cards">Update to 2</a>'
        installed, results = page[: page.index('id="search-h"')], page[page.index('id="results"') :]
        assert update in installed and update in results  # never a plain Install of the newer version
        assert 'value="Club cards@2"' not in page
        r = c.get("/packs/update", params={"name": "Club cards"})
        assert r.status_code == 200, r.text
        text = r.text
        assert "Senshiai pack <strong>Club cards</strong>: version 1 → <strong>2</strong>." in text
        assert '<ul class="plain" id="changes-added"><li>Club Monks added</li></ul>' in text
        assert '<ul class="plain" id="changes-removed"><li>Club Archers removed</li></ul>' in text
        assert '<ul class="plain" id="changes-changed"><li>Club Samurai: power 2/1/3 -&gt; 3/1/3</li></ul>' in text
        # the workspace's lists that use the pack, each with what changes for it
        assert (
            '<a href="/l/club/deck.yaml">club/deck.yaml</a>:\n        Club Samurai: power 2/1/3 -&gt; 3/1/3; Club Archers removed'
            in text
        )
        assert '<a href="/l/club/other.yaml">club/other.yaml</a>:\n        Club Archers removed' in text
        assert 'name="ref" value="Club cards@2"' in text and "Replace version 1 with 2" in text
        # nothing replaced by the confirm step itself
        assert (packs / "club-cards.yaml").read_text() == club("1")
        r = install(c, "Club cards@2")  # the confirm step's button
        assert r.status_code == 204
        assert "3/1/3" in (packs / "club-cards.yaml").read_text()
        # up to date now: back to the Packs page, saying so
        r = c.get("/packs/update", params={"name": "Club cards"}, follow_redirects=False)
        assert r.status_code == 303 and "Club+cards%3A+up+to+date" in r.headers["location"]


def test_update_of_a_pack_not_installed_is_refused_with_the_command_line_words(setup, monkeypatch):
    c, reg, _packs = setup
    reindex(reg)
    with Server(reg.parent) as srv:
        monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
        r = c.get("/packs/update", params={"name": "No such pack"})
        assert r.status_code == 400
        assert (
            "pack &#39;No such pack&#39; is not installed" in r.text or "pack 'No such pack' is not installed" in r.text
        )
        assert c.get("/packs/update").status_code == 400


def test_the_packs_page_names_games_as_the_rest_of_the_builder(setup, monkeypatch):
    c, reg, _packs = setup
    reindex(reg)
    with Server(reg.parent) as srv:
        monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
        assert install(c, "Club cards@1").status_code == 204
        page = c.get("/packs").text
    installed = page[page.index('id="installed"') : page.index('id="search-h"')]
    assert '<span class="sys sys-senshiai">Senshiai</span>' in installed
    results = page[page.index('id="results"') :]
    assert '<span class="sys sys-senshiai">Senshiai</span>' in results
    assert '<option value="satsuma">Satsuma Rebellion</option>' in page  # the new pack's game
    assert '<option value="kensei" >Kensei</option>' in page  # the registry search's game
    for game in ("senshiai", "kensei", "herocard", "senji", "satsuma"):
        assert f">{game}<" not in page


def test_api_answers_write_bidi_controls_in_a_name_as_escapes(setup):
    import json

    c, reg, _packs = setup
    name = "army\u202egnp.exe \u2066x\u2069 \x85 武家"
    ws = reg.parent / "ws"
    (ws / "evil.yaml").write_text(
        f"system: kensei\nname: {json.dumps(name)}\nclan: buke\npoints: 200\ncommander: hatamoto\n"
        "troops:\n  - troop: Taisho Buke\n",
        encoding="utf-8",
    )
    for url in ("/api/lists", "/api/lists/evil.yaml", "/api/lists/evil.yaml/check"):
        r = c.get(url)
        assert r.status_code == 200, (url, r.text)
        body = r.content.decode("utf-8")
        assert "\u202e" not in body and "\u2066" not in body and "\x85" not in body, url
        assert "\\u202e" in body and "武家" in body, url
        assert name in json.dumps(r.json(), ensure_ascii=False), url


def test_an_install_that_would_shadow_a_bundled_pack_asks_and_replaces_only_when_confirmed(setup, monkeypatch):
    from test_packs_hostile import EVIL_EXAMPLE

    c, reg, packs = setup
    (reg / "club-1.yaml").unlink()
    (reg / "example.yaml").write_text(EVIL_EXAMPLE)
    reindex(reg)
    with Server(reg.parent) as srv:
        monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
        ref = "Senshiai example cards@9"
        r = install(c, ref)  # refused: what it would replace, and the question
        assert r.status_code == 409 and r.headers["X-Daimyo-Flash"] == "1"
        assert "Installing Senshiai example cards 9 from " in r.text
        assert "would take the place of:" in r.text
        assert "the pack bundled with daimyo (senshiai-example.yaml)" in r.text
        assert 'name="replace" value="1"' in r.text and f'name="ref" value="{ref}"' in r.text
        assert not packs.exists()  # nothing installed by the question
        r = c.post("/packs/install", data={"ref": ref})  # without htmx: the same question as a page
        assert r.status_code == 409 and "Replace a pack?" in r.text and 'name="replace" value="1"' in r.text
        assert not packs.exists()
        r = c.post("/packs/install", data={"ref": ref, "replace": "1"}, headers={"X-CSRF-Token": "wrong"})
        assert r.status_code == 403 and not packs.exists()  # the confirmation carries the page's token
        r = c.post("/packs/install", data={"ref": ref, "replace": "1"}, headers={"HX-Request": "true"})
        assert r.status_code == 204
        done = parse_qs(urlsplit(r.headers["HX-Redirect"]).query)["done"][0]
        assert done == (
            f"Senshiai example cards 9 (senshiai): installed from {srv.url}/registry/example.yaml: "
            f"{packs / 'senshiai-example-cards.yaml'}; "
            "warning: 'Senshiai example cards 9' now takes the place of the pack bundled with daimyo "
            "(senshiai-example.yaml) in every list that names 'Senshiai example cards'; "
            "'daimyo pack remove \"Senshiai example cards\"' gives it back"
        )
        assert 'version: "9"' in (packs / "senshiai-example-cards.yaml").read_text()
