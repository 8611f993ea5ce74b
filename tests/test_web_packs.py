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
        assert "Update to 2" in page and 'value="Club cards@2"' in page
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
