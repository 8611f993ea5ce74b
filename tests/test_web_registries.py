"""The Packs page's registries: add one by its address (the index fetched and verified before
config.toml is written), list them, remove one; the same library calls as ``daimyo registry``."""

from __future__ import annotations

import tomllib
from urllib.parse import parse_qs, urlsplit

from regserver import Server
from test_web_packs import install, reindex, setup  # noqa: F401 - the fixture


def post(c, path, **data):
    return c.post(path, data=data, headers={"HX-Request": "true"})


def done_of(r) -> str:
    return parse_qs(urlsplit(r.headers["HX-Redirect"]).query)["done"][0]


def test_packs_page_adds_lists_and_removes_a_registry(setup, tmp_path):  # noqa: F811
    c, reg, packs = setup
    cfg = tmp_path / "config" / "daimyo" / "config.toml"
    reindex(reg)
    assert "No registry yet" in c.get("/packs").text
    with Server(reg.parent) as srv:
        url = f"{srv.url}/registry/index.json"
        r = post(c, "/packs/registries/add", url=url, name="club")
        assert r.status_code == 204, r.text
        assert done_of(r) == "added registry 'club': 1 pack version"
        assert tomllib.loads(cfg.read_text())["registries"] == [{"name": "club", "url": url}]
        page = c.get("/packs").text
        assert 'data-registry="club"' in page and url in page and 'data-pack="Club cards"' in page
        r = install(c, "Club cards@1")
        assert r.status_code == 204 and (packs / "club-cards.yaml").is_file()
        r = post(c, "/packs/registries/add", url=f"{srv.url}/nothing/index.json")
        assert r.status_code == 400 and "404" in r.text
        r = post(c, "/packs/registries/add", url=url, name="again")
        assert r.status_code == 400 and "already has that address" in r.text
    r = post(c, "/packs/registries/remove", name="club")
    assert r.status_code == 204 and done_of(r) == "removed registry 'club'"
    assert tomllib.loads(cfg.read_text())["registries"] == []
    r = post(c, "/packs/registries/remove", name="club")
    assert r.status_code == 400 and "no registry" in r.text
    assert post(c, "/packs/registries/add", url="").status_code == 400
