"""The web builder's server, through the framework's test client: every page and API endpoint,
and every refusal (token, host, cross-site requests, sizes, paths outside the workspace,
files changed on disk)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.check import check_file
from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token-0123456789abcdef"
BASE = "http://127.0.0.1:8765"


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", root)
    return root


@pytest.fixture()
def app(ws):
    return create_app(ws, token=TOKEN, port=8765)


@pytest.fixture()
def anon(app):
    with TestClient(app, base_url=BASE) as c:  # one event loop for all its requests
        yield c


@pytest.fixture()
def client(app):
    """A browser that has visited the printed address: it holds the cookie and sends the page's
    CSRF header as htmx does."""
    with TestClient(app, base_url=BASE) as c:
        r = c.get(f"/?token={TOKEN}", follow_redirects=False)
        assert r.status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        yield c


@pytest.fixture()
def api(app):
    """A script: the token in an Authorization header."""
    with TestClient(app, base_url=BASE, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        yield c


def version(client, rel):
    return client.get(f"/api/lists/{rel}").json()["version"]


# -- the token --------------------------------------------------------------------------------


def test_without_the_token_only_the_way_in_is_shown(anon, ws):
    r = anon.get("/")
    assert r.status_code == 401
    assert "daimyo serve" in r.text and "?token=" in r.text
    assert "kensei-buke.yaml" not in r.text and "Buke vanguard" not in r.text
    for path in (
        "/l/kensei-buke.yaml",
        "/l/kensei-buke.yaml/share",
        "/l/kensei-buke.yaml/print.pdf",
        "/aid/kensei.pdf",
        "/api/docs",
    ):
        assert anon.get(path).status_code == 401, path
    r = anon.get("/api/lists")
    assert r.status_code == 401 and r.json()["error"] == "missing or wrong token"


def test_wrong_token_is_refused(anon):
    assert anon.get("/?token=wrong").status_code == 401
    assert anon.get("/api/lists", headers={"Authorization": "Bearer wrong"}).status_code == 401
    anon.cookies.set("daimyo_8765", "wrong")
    assert anon.get("/").status_code == 401


def test_first_visit_sets_a_cookie_and_drops_the_token_from_the_address(anon):
    r = anon.get(f"/l/kensei-buke.yaml?token={TOKEN}", follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/l/kensei-buke.yaml"
    cookie = r.headers["set-cookie"]
    assert f"daimyo_8765={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert anon.get("/l/kensei-buke.yaml").status_code == 200  # the cookie now lets it in


def test_static_files_need_no_token(anon):
    r = anon.get("/static/htmx.min.js")
    assert r.status_code == 200 and "htmx" in r.text[:2000]
    assert anon.get("/static/app.css").status_code == 200


def test_other_host_names_are_refused(client):
    """A page elsewhere cannot reach the server through a DNS name rebound to 127.0.0.1."""
    assert client.get("/", headers={"Host": "evil.example:8765"}).status_code == 421
    assert client.get("/", headers={"Host": "localhost:8765"}).status_code == 200


def test_a_server_on_all_addresses_accepts_any_host_name(ws):
    c = TestClient(create_app(ws, token=TOKEN, host="0.0.0.0"), base_url="http://192.0.2.1:8765")
    assert c.get("/api/lists", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


# -- cross-site requests and sizes ----------------------------------------------------------------


def test_post_without_the_csrf_header_is_refused(app, ws):
    c = TestClient(app, base_url=BASE)
    c.get(f"/?token={TOKEN}")
    before = (ws / "kensei-buke.yaml").read_text()
    r = c.post("/l/kensei-buke.yaml/edit", data={"op": "add", "item": "Yari Ashigaru"})
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["error"]
    r = c.post(
        "/l/kensei-buke.yaml/edit", data={"op": "add", "item": "Yari Ashigaru"}, headers={"X-CSRF-Token": "guess"}
    )
    assert r.status_code == 403
    assert c.post("/l/kensei-buke.yaml/delete").status_code == 403
    assert (ws / "kensei-buke.yaml").read_text() == before


def test_cross_site_requests_are_refused_even_with_the_header(client, ws):
    before = (ws / "kensei-buke.yaml").read_text()
    r = client.post(
        "/l/kensei-buke.yaml/edit",
        data={"op": "add", "item": "Yari Ashigaru"},
        headers={"Origin": "http://evil.example"},
    )
    assert r.status_code == 403
    r = client.post(
        "/l/kensei-buke.yaml/edit",
        data={"op": "add", "item": "Yari Ashigaru"},
        headers={"Sec-Fetch-Site": "cross-site"},
    )
    assert r.status_code == 403
    r = client.post("/l/kensei-buke.yaml/edit", data={"op": "add", "item": "Yari Ashigaru"}, headers={"Origin": "null"})
    assert r.status_code == 403
    assert (ws / "kensei-buke.yaml").read_text() == before
    r = client.post(
        "/l/kensei-buke.yaml/edit",
        data={"op": "add", "item": "Yari Ashigaru"},
        headers={"Origin": BASE, "Sec-Fetch-Site": "same-origin"},
    )
    assert r.status_code == 200


def test_request_bodies_over_the_limit_are_refused(client, api):
    big = "x" * (1024 * 1024 + 10)
    r = client.post("/import", data={"text": big})
    assert r.status_code == 413
    r = api.post("/api/import", content=json.dumps({"text": big}), headers={"Content-Type": "application/json"})
    assert r.status_code == 413

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(300):
            yield b"y" * 4096

    r = api.post("/api/import", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


# -- paths ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/l/%2e%2e/secret.yaml",
        "/l/..%2Fsecret.yaml",
        "/l/sub/%2e%2e/%2e%2e/secret.yaml",
        "/api/lists/%2e%2e/secret.yaml",
        "/l/%2Fetc%2Fpasswd.yaml",
        "/api/lists//etc/hosts.yaml/check",
        "/l/.trash/x.yaml",
        "/l/kensei-buke.yaml%00.yaml",
        "/l/packs/../../secret.yaml",
    ],
)
def test_paths_outside_the_workspace_are_refused(client, ws, path):
    (ws.parent / "secret.yaml").write_text("system: kensei\nname: SECRET\nclan: buke\ntroops: []\n")
    r = client.get(path)
    assert r.status_code in (400, 403, 404), (path, r.status_code)
    assert "SECRET" not in r.text


def test_a_symbolic_link_out_of_the_workspace_is_refused(client, ws, api):
    outside = ws.parent / "outside.yaml"
    outside.write_text("system: kensei\nname: OUTSIDE\nclan: buke\ntroops: []\n")
    (ws / "link.yaml").symlink_to(outside)
    (ws / "linkdir").symlink_to(ws.parent)
    r = client.get("/l/link.yaml")
    assert r.status_code == 403 and "outside the workspace" in r.text
    assert "OUTSIDE" not in client.get("/").text  # not listed either
    assert client.get("/l/linkdir/outside.yaml").status_code == 403
    r = api.post("/api/lists/link.yaml/edit", json={"op": "set", "key": "name", "value": "changed"})
    assert r.status_code == 403
    assert "OUTSIDE" in outside.read_text()


def test_a_list_naming_a_pack_outside_the_workspace_is_refused(client, ws, api):
    pack = ws.parent / "evil-pack.yaml"
    shutil.copy(ROOT / "examples" / "packs" / "kensei-profiles.yaml", pack)
    (ws / "packed.yaml").write_text(
        "system: kensei\nname: packed\nclan: buke\npacks: [../evil-pack.yaml]\ntroops: []\n"
    )
    r = client.get("/l/packed.yaml")
    assert r.status_code == 403 and "pack by a path outside the workspace" in r.text
    assert api.get("/api/lists/packed.yaml/check").status_code == 403
    assert api.get("/api/lists/packed.yaml/export?format=code").status_code == 403
    assert api.get("/api/lists/packed.yaml/print").status_code == 403
    listed = {x["path"]: x for x in api.get("/api/lists").json()["lists"]}
    assert "pack by a path outside the workspace" in listed["packed.yaml"]["problem"]


def test_a_pack_inside_the_workspace_is_used(api, ws):
    (ws / "inside.yaml").write_text(
        "system: kensei\nname: inside\nclan: buke\npacks: [packs/kensei-profiles.yaml]\npoints: 200\ntroops: []\n"
    )
    assert api.get("/api/lists/inside.yaml/check").status_code == 200


def test_only_list_files_are_served(client, ws):
    (ws / "notes.txt").write_text("hello")
    assert client.get("/l/notes.txt").status_code == 400
    assert client.get("/l/missing.yaml").status_code == 404


# -- the workspace ------------------------------------------------------------------------------


def test_workspace_lists_every_list_with_system_name_total_and_verdict(api, ws):
    (ws / "broken.yaml").write_text("system: kensei\nname: [unclosed\n")
    data = api.get("/api/lists").json()
    by = {x["path"]: x for x in data["lists"]}
    assert "packs/kensei-profiles.yaml" not in by  # packs are not lists
    buke = by["kensei-buke.yaml"]
    assert (buke["system"], buke["name"], buke["total"], buke["verdict"]) == (
        "kensei",
        "Buke vanguard (rulebook sample)",
        "200 / 200 AP",
        "legal",
    )
    # the published deck's Bodyguard printing note is information, not a warning the player cannot act on
    assert by["satsuma-samurai.yaml"]["verdict"] == "legal"
    assert by["satsuma-samurai.yaml"]["total"] == "46 cards"
    assert by["broken.yaml"]["verdict"] == "unreadable"
    assert by["broken.yaml"]["problem"].startswith("broken.yaml:") and "YAML syntax" in by["broken.yaml"]["problem"]
    for x in data["lists"]:
        if x["system"]:
            res = check_file(ws / x["path"])
            assert x["errors"] == res.counts()["error"], x


def test_workspace_page_shows_the_lists(client):
    r = client.get("/")
    assert r.status_code == 200
    assert "Buke vanguard (rulebook sample)" in r.text and "200 / 200 AP" in r.text
    assert 'href="/l/kensei-buke.yaml"' in r.text


def test_new_list_from_the_page_and_the_api(client, api, ws):
    r = client.post(
        "/new",
        data={"system": "kensei", "name": "Buke 400", "clan": "buke", "points": "400", "commander": "hatamoto"},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/l/Buke-400.yaml"
    text = (ws / "Buke-400.yaml").read_text()
    assert "points: 400" in text and "clan: buke" in text and "name: Buke 400" in text
    r = api.post("/api/lists", json={"file": "deck.yaml", "system": "satsuma", "side": "imperial"})
    assert r.status_code == 201 and r.json()["path"] == "deck.yaml"
    assert "side: imperial" in (ws / "deck.yaml").read_text()
    # refusals: an existing file, an unknown clan, a bad system, a name that leaves the folder
    r = api.post("/api/lists", json={"file": "deck.yaml", "system": "satsuma", "side": "imperial"})
    assert r.status_code == 409
    r = api.post("/api/lists", json={"file": "x.yaml", "system": "kensei", "clan": "bukee"})
    assert r.json()["error"] == (
        "clan is one of kuge, buke, sohei, otokodate, kuroi-te, hattori, not 'bukee' (did you mean 'buke'?)"
    )
    assert r.status_code == 400
    assert api.post("/api/lists", json={"file": "x.yaml", "system": "chess"}).status_code == 400
    r = api.post("/api/lists", json={"file": "../x.yaml", "system": "satsuma", "side": "samurai"})
    assert r.status_code == 403 and not (ws.parent / "x.yaml").exists()


def test_a_new_list_takes_the_games_own_options_with_its_form_defaults(api, ws):
    """The web passes a game only its own new-list options: what the form leaves out takes the
    default of the game's new-list field (Kensei: 200 AP, hatamoto), a tick box's word is read
    as a yes or no, and a field without a default that is left out is named."""
    r = api.post("/api/lists", json={"file": "a.yaml", "system": "kensei", "clan": "buke", "occult": "on"})
    assert r.status_code == 201, r.text
    text = (ws / "a.yaml").read_text()
    assert "points: 200" in text and "commander: hatamoto" in text and "occult: true" in text
    r = api.post(
        "/api/lists",
        json={
            "file": "b.yaml",
            "system": "kensei",
            "clan": "buke",
            "occult": "false",
            "points": "300",
            "side": "imperial",
        },
    )  # another game's option is no option here
    assert r.status_code == 201, r.text
    text = (ws / "b.yaml").read_text()
    assert "points: 300" in text and "occult: false" in text and "side" not in text
    r = api.post("/api/lists", json={"file": "c.yaml", "system": "kensei"})
    assert r.status_code == 400 and "clan is required for kensei lists" in r.json()["error"], r.text
    assert "--clan" not in r.json()["error"] and not (ws / "c.yaml").exists()


def test_duplicate_rename_and_delete_to_the_trash(client, api, ws):
    original = (ws / "kensei-buke.yaml").read_text()
    r = client.post("/l/kensei-buke.yaml/duplicate", headers={"HX-Request": "true"})
    assert r.status_code == 204
    assert (ws / "kensei-buke-copy.yaml").read_text() == original
    r = api.post("/api/lists/kensei-buke-copy.yaml/rename", json={"to": "my army"})
    assert r.json()["path"] == "my-army.yaml" and (ws / "my-army.yaml").exists()
    assert api.post("/api/lists/my-army.yaml/rename", json={"to": "kensei-kuge.yaml"}).status_code == 409
    r = client.post("/l/my-army.yaml/delete", headers={"HX-Request": "true"})
    assert r.status_code == 204 and not (ws / "my-army.yaml").exists()
    trashed = list((ws / ".trash").glob("my-army.*.yaml"))
    assert len(trashed) == 1 and trashed[0].read_text() == original
    where = api.delete("/api/lists/kensei-kuge.yaml").json()["trash"]
    assert where.startswith(".trash/") and (ws / where).exists()
    assert api.delete("/api/lists/kensei-kuge.yaml").status_code == 404
    assert api.post("/api/lists/kensei-buke.yaml/rename", json={"to": "../../out.yaml"}).status_code == 403


def test_import_a_share_code_and_pasted_text(client, api, ws):
    code = api.get("/api/lists/kensei-buke.yaml/export?format=code").json()["text"]
    assert code.startswith("DMY")
    r = client.post("/import", data={"text": code, "file": "from-code.yaml"}, headers={"HX-Request": "true"})
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/l/from-code.yaml"
    assert check_file(ws / "from-code.yaml").summary["points"] == 200
    text = api.get("/api/lists/satsuma-imperial.yaml/export?format=text").json()["text"]
    r = api.post("/api/import", json={"text": text})
    assert r.status_code == 201
    assert check_file(ws / r.json()["path"]).system == "satsuma"
    bad = code[:-6] + ("AAAAAA" if not code.endswith("AAAAAA") else "BBBBBB")
    r = api.post("/api/import", json={"text": bad})
    assert r.status_code in (400, 422) and "\n" not in r.json()["error"]
    assert api.post("/api/import", json={"text": "   "}).status_code == 400


# -- the builder: editing -------------------------------------------------------------------------


def test_edit_adds_a_troop_keeps_comments_and_returns_the_new_total(api, ws):
    v = version(api, "kensei-buke.yaml")
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "add", "item": "yari ashigaru", "version": v})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["notes"] == ["added 3 Yari Ashigaru"]
    assert body["header"]["total"] == 215 and body["header"]["left"] == -15 and body["header"]["verdict"] == "illegal"
    text = (ws / "kensei-buke.yaml").read_text()
    assert "# Buke vanguard: the rulebook's sample list" in text and "# general, 20 AP" in text
    assert text.rstrip().endswith("- troop: Yari Ashigaru\n    models: 3")
    assert check_file(ws / "kensei-buke.yaml").summary["points"] == 215


def test_models_plus_minus_and_remove(api, ws):
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "models", "index": 1, "delta": 1})
    assert r.json()["header"]["total"] == 205
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "models", "index": 1, "delta": -2})
    assert r.json()["header"]["total"] == 195
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "models", "index": 0, "delta": -1})
    assert r.status_code == 400 and "at least 1 model" in r.json()["error"]
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "remove", "index": 4})
    assert r.json()["notes"] == ["removed Yumi Samurai"] and r.json()["header"]["total"] == 135
    assert api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "remove", "index": 9}).status_code == 400


def test_edit_refusals_leave_the_file_untouched(api, ws):
    before = (ws / "kensei-buke.yaml").read_text()
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "add", "item": "Yari Ashigar"})
    assert r.status_code == 400 and "unknown troop 'Yari Ashigar'" in r.json()["error"]
    assert "Yari Ashigaru" in r.json()["error"]  # did you mean
    assert api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "explode"}).status_code == 400
    assert (
        api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "set", "key": "points", "value": "-5"}).status_code
        == 400
    )
    assert (
        api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "house_rule", "key": "nope", "value": "1"}).status_code
        == 400
    )
    assert api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "models", "index": "x"}).status_code == 422
    assert (ws / "kensei-buke.yaml").read_text() == before


def test_a_file_changed_on_disk_is_not_overwritten(client, api, ws):
    path = ws / "kensei-buke.yaml"
    page = client.get("/l/kensei-buke.yaml").text
    v = re.search(r'id="version" value="([0-9a-f]+)"', page).group(1)
    path.write_text(path.read_text().replace("points: 200", "points: 300"))  # a text editor saves
    changed = path.read_text()
    r = client.post(
        "/l/kensei-buke.yaml/edit",
        data={"op": "add", "item": "Yari Ashigaru", "version": v},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 409
    assert "changed on disk since this page was loaded" in r.text and "Reload" in r.text
    assert r.headers["X-Daimyo-Flash"] == "1"
    assert path.read_text() == changed
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "add", "item": "Yari Ashigaru", "version": v})
    assert r.status_code == 409 and path.read_text() == changed
    assert client.post("/l/kensei-buke.yaml/undo", data={"version": v}).status_code == 409


def test_undo_and_redo(api, ws):
    path = ws / "kensei-buke.yaml"
    original = path.read_text()
    assert api.post("/api/lists/kensei-buke.yaml/undo", json={}).status_code == 409  # nothing to undo
    api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "add", "item": "Yari Ashigaru"})
    after_one = path.read_text()
    api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "set", "key": "name", "value": "Renamed"})
    r = api.post("/api/lists/kensei-buke.yaml/undo", json={})
    assert r.status_code == 200 and path.read_text() == after_one
    api.post("/api/lists/kensei-buke.yaml/undo", json={})
    assert path.read_text() == original
    api.post("/api/lists/kensei-buke.yaml/redo", json={})
    assert path.read_text() == after_one
    r = api.post("/api/lists/kensei-buke.yaml/redo", json={})
    assert "name: Renamed" in path.read_text()
    assert api.post("/api/lists/kensei-buke.yaml/redo", json={}).status_code == 409


def test_card_decks_gain_and_lose_copies(api, ws):
    r = api.post("/api/lists/satsuma-samurai.yaml/edit", json={"op": "remove", "item": "Takamori Saigo"})
    assert r.status_code == 200, r.text
    text = (ws / "satsuma-samurai.yaml").read_text()
    assert "deck: standard" not in text and "cards:" in text  # the published deck became a variant
    assert r.json()["header"]["total"] == 45
    r = api.post("/api/lists/satsuma-samurai.yaml/edit", json={"op": "add", "item": "takamori saigo"})
    assert r.json()["header"]["total"] == 46
    r = api.post("/api/lists/satsuma-samurai.yaml/edit", json={"op": "add", "item": "Imperial Guard"})
    assert r.status_code in (400, 200)
    r = api.post("/api/lists/herocard-samurai.yaml/edit", json={"op": "add", "item": "Overhand Thrust", "count": 1})
    assert r.status_code == 200
    assert api.post("/api/lists/senji-three-daimyo.yaml/edit", json={"op": "add", "item": "x"}).status_code == 400


def test_house_rules_toggle(api, ws):
    from builder.catalog.loader import load_catalog

    rule = load_catalog("kensei").model.house_rules[0]
    alt = rule.alternatives[0].value if rule.alternatives else (not rule.default)
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "house_rule", "key": rule.id, "value": str(alt)})
    assert r.status_code == 200, r.text
    res = check_file(ws / "kensei-buke.yaml")
    assert res.house_rules_agreed == {rule.id: alt}
    api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "house_rule", "key": rule.id, "value": ""})
    assert "house_rules" not in (ws / "kensei-buke.yaml").read_text()


def test_htmx_edit_returns_the_list_and_the_header(client):
    page = client.get("/l/kensei-buke.yaml").text
    v = re.search(r'id="version" value="([0-9a-f]+)"', page).group(1)
    r = client.post(
        "/l/kensei-buke.yaml/edit",
        data={"op": "models", "index": "1", "delta": "1", "version": v},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 200 and r.headers["HX-Trigger"] == "list-changed"
    assert 'id="list-panel"' in r.text and 'hx-swap-oob="true"' in r.text
    assert re.search(r'id="total">205<', r.text) and "5 AP over" in r.text and "illegal" in r.text
    new_v = re.search(r'id="version" value="([0-9a-f]+)"', r.text).group(1)
    assert new_v != v
    assert client.post("/l/kensei-buke.yaml/undo", data={"version": new_v}).status_code == 200


# -- reading: check, options, entries -------------------------------------------------------------


def test_check_matches_the_command_line(api, ws):
    body = api.get("/api/lists/kensei-buke.yaml/check").json()
    res = check_file(ws / "kensei-buke.yaml")
    assert body["legal"] is True and body["summary"] == json.loads(json.dumps(res.to_json()))["summary"]
    assert body["header"]["verdict"] == "legal"


def test_options_say_what_can_be_added_and_what_stops_the_rest(api):
    body = api.get("/api/lists/kensei-buke.yaml/options").json()
    rows = {r["name"]: r for r in body["rows"]}
    # the sample list is at its 200 AP: every troop is stopped by the points limit
    assert rows["Yari Ashigaru"]["can"] is False
    assert any("battle size" in x for x in rows["Yari Ashigaru"]["reasons"])
    api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "set", "key": "points", "value": "400"})
    rows = {r["name"]: r for r in api.get("/api/lists/kensei-buke.yaml/options").json()["rows"]}
    assert rows["Yari Ashigaru"]["can"] is True and rows["Yari Ashigaru"]["after"] == "185 AP left"
    found = api.get("/api/lists/kensei-buke.yaml/options?q=ASHIGARU").json()["rows"]
    assert found and all("ashigaru" in r["name"].lower() for r in found)


def test_catalog_search_ignores_accents_and_case(client, ws):
    r = client.get("/l/kensei-buke.yaml/catalog?q=%C3%84SHIG%C3%A0RU")  # ÄSHIGàRU
    assert r.status_code == 200 and "Yari Ashigaru" in r.text
    r = client.get("/l/satsuma-samurai.yaml/catalog?q=saig%C5%8D")  # saigō
    assert "Takamori Saigo" in r.text
    r = client.get("/l/kensei-buke.yaml/catalog?q=zzzz")
    assert "Nothing in the catalog matches" in r.text


def test_entry_detail_shows_the_rulebook_source(client):
    r = client.get("/l/kensei-buke.yaml/entry?section=troops&name=yari-ashigaru")
    assert r.status_code == 200 and "Yari Ashigaru" in r.text and "Kensei rulebook, Army list samples" in r.text
    assert ".txt" not in r.text  # rulebook titles, never file names
    assert client.get("/l/kensei-buke.yaml/entry?section=troops&name=nobody").status_code == 404
    assert client.get("/l/kensei-buke.yaml/entry?section=secrets&name=x").status_code == 404


def test_findings_are_shown_next_to_their_entries(client, ws):
    (ws / "bad.yaml").write_text(
        "system: kensei\nname: bad\nclan: buke\npoints: 400\ntroops:\n"
        "  - troop: Samurai Yari\n    models: 5\n  - troop: Yumi Samurai\n    models: 12\n"
        "  - troop: Yumi Samurai\n    models: 12\n"
    )
    page = client.get("/l/bad.yaml").text
    entry2 = (
        page.split('id="entry-2"')[1].split('id="entry-3"')[0]
        if 'id="entry-3"' in page
        else page.split('id="entry-2"')[1]
    )
    assert "ranged troops 360 AP &gt; 50% of 400 AP" in entry2 and "over by 160" in entry2
    assert "counted" in entry2 and "Kensei rulebook" in entry2  # the explain detail
    # what the list is short of reads as counters, with the whole rule for screen readers and as a tooltip
    needs = page.split('class="needs-box"')[1].split('class="entries"')[0]
    assert "3 units &lt; 1 per 100 AP of 400 AP" in needs and "no Hero with leader rank" in needs
    assert '<span class="need-label">units</span> <span class="need-count"><strong>3</strong>/4</span>' in needs
    assert '<span class="need-label">general</span> <span class="need-count"><strong>0</strong>/1</span>' in needs


# -- print and share ------------------------------------------------------------------------------


def test_print_pdf_previews_and_player_aid(client, api):
    import pypdf

    r = client.get("/l/kensei-buke.yaml/print.pdf?paper=letter&unit_cards=on")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    assert "attachment" in r.headers["content-disposition"]
    pdf = pypdf.PdfReader(io.BytesIO(r.content))
    w, h = float(pdf.pages[0].mediabox.width), float(pdf.pages[0].mediabox.height)
    assert (round(w), round(h)) == (612, 792)  # US Letter
    assert "Buke vanguard" in pdf.pages[0].extract_text()
    r = client.get("/l/kensei-buke.yaml/print/previews?paper=a4")
    assert r.status_code == 200 and "preview/1.png" in r.text
    png = client.get("/l/kensei-buke.yaml/preview/1.png?paper=a4")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    r = client.get("/l/satsuma-samurai.yaml/print.pdf?card=bridge&bleed=3&duplex=long&ink_saver=on")
    assert r.status_code == 200 and len(pypdf.PdfReader(io.BytesIO(r.content)).pages) >= 2
    assert client.get("/l/kensei-buke.yaml/print.pdf?paper=a9").status_code == 400
    assert client.get("/l/satsuma-samurai.yaml/print.pdf?bleed=99").status_code == 400
    assert client.get("/l/kensei-buke.yaml/preview/99.png").status_code == 400
    aid = client.get("/aid/kensei.pdf")
    assert aid.status_code == 200 and aid.content.startswith(b"%PDF")
    assert client.get("/aid/chess.pdf").status_code == 404
    assert api.get("/api/lists/kensei-buke.yaml/print").content.startswith(b"%PDF")
    page = client.get("/l/satsuma-samurai.yaml/print").text
    for word in ("Card size", "Bleed", "duplex", "Ink saver", "Player aid"):
        assert word in page


def test_a_senji_setup_is_edited_player_by_player(api, ws):
    """Players, samurai cards, provinces, units and samurai figures of a Senji setup through the
    API; each change checked and saved, refusals named."""
    rel = api.post("/api/lists", json={"file": "setup.yaml", "system": "senji", "players": 3}).json()["path"]

    def edit(**op):
        r = api.post(f"/api/lists/{rel}/edit", json=op)
        assert r.status_code == 200, r.text
        return r.json()

    out = edit(op="part", where="players/1", field="name", value="Kenji")
    assert out["notes"] == ["player 2 is called Kenji"]
    edit(op="add", item="Ekes", player="Kenji")
    edit(op="add", item="Province 5", player="Kenji", count=2)
    edit(op="add", item="Province 8", player="Kenji")
    out = edit(op="part", where="players/1/provinces/1", field="samurai", value="true")
    assert out["header"]["unit"] == "players" and out["header"]["total"] == 3
    out = edit(op="part", where="players/1/provinces/1", field="units", value="1")
    text = (ws / rel).read_text()
    assert "name: Kenji" in text and "samurai: Ekes" in text
    assert "{province: Province 5, units: 2}" in text and "{province: Province 8, samurai: true, units: 1}" in text
    errors = [f for f in out["findings"] if f["severity"] == "error" and "Kenji" in f["message"]]
    assert [f["code"] for f in errors] == ["senji.starting-provinces"]  # a third province is still missing
    assert [f.code for f in check_file(ws / rel).findings if "Kenji" in f.message and f.severity == "error"] == [
        "senji.starting-provinces"
    ]
    out = edit(op="remove", item="Province 8")
    assert "Province 8" not in (ws / rel).read_text()
    bad = api.post(f"/api/lists/{rel}/edit", json={"op": "part", "where": "players/9", "field": "name", "value": "x"})
    assert bad.status_code == 400 and "no such player" in bad.json()["error"]
    bad = api.post(
        f"/api/lists/{rel}/edit",
        json={"op": "part", "where": "players/1/provinces/0", "field": "units", "value": "many"},
    )
    assert bad.status_code == 400 and "units must be a whole number" in bad.json()["error"]
    bad = api.post(f"/api/lists/{rel}/edit", json={"op": "add", "item": "Ekes", "player": "Nobody"})
    assert bad.status_code == 400 and "no player 'Nobody'" in bad.json()["error"]


def test_print_layouts_spacing_and_scale_reach_the_card_sheets(client, ws, tmp_path):
    """Fold and separate layouts, gutter, full cut lines and the printer's scale correction from
    the print form give the PDF the command line prints with the same options."""
    import pypdf

    from builder.render.api import render_list

    def pages(data: bytes):
        return pypdf.PdfReader(io.BytesIO(data)).pages

    base = "/l/senshiai-northern-host.yaml/print.pdf?card=poker&bleed=3"
    counts = {}
    for layout in ("duplex", "fold", "separate"):
        r = client.get(f"{base}&duplex=long&layout={layout}&gutter=0&cut_lines=on&scale_x=1.01&scale_y=0.99")
        assert r.status_code == 200, r.text
        cli = tmp_path / f"{layout}.pdf"
        render_list(
            ws / "senshiai-northern-host.yaml",
            cli,
            paper="a4",
            card="poker",
            bleed=3.0,
            backs=True,
            duplex="long",
            layout=layout,
            gutter=0.0,
            cut_lines=True,
            scale_x=1.01,
            scale_y=0.99,
            marks=True,
            ink_saver=False,
        )
        web, want = pages(r.content), pages(cli.read_bytes())
        assert len(web) == len(want), layout
        assert web[0].extract_text() == want[0].extract_text()
        counts[layout] = len(web)
    assert counts["fold"] != counts["duplex"]  # fronts and backs side by side: another page plan
    fronts = client.get(f"{base}&duplex=").content  # fronts only: no back pages
    assert len(pages(fronts)) < counts["duplex"]
    assert client.get(f"{base}&scale_x=2").status_code == 400
    assert client.get(f"{base}&gutter=-1").status_code == 400
    assert client.get(f"{base}&layout=sideways").status_code == 400
    page = client.get("/l/senshiai-northern-host.yaml/print").text
    for word in ("Layout", "fold", "Gutter", "Full cut lines", "Scale across", "Scale down"):
        assert word in page
    assert "Gutter" not in client.get("/l/kensei-buke.yaml/print").text  # a roster has no card sheet


def test_share_page_and_exports(client, api):
    page = client.get("/l/kensei-buke.yaml/share").text
    for label in ("Share code", "Text", "Markdown", "JSON", "YAML", "Copy"):
        assert label in page
    for fmt in ("code", "text", "markdown", "json", "yaml"):
        r = api.get(f"/api/lists/kensei-buke.yaml/export?format={fmt}")
        assert r.status_code == 200 and r.json()["text"], fmt
    assert json.loads(api.get("/api/lists/kensei-buke.yaml/export?format=json").json()["text"])["clan"] == "buke"
    r = client.get("/l/kensei-buke.yaml/export?format=markdown")
    assert r.headers["content-disposition"] == 'attachment; filename="kensei-buke.md"'
    assert api.get("/api/lists/kensei-buke.yaml/export?format=docx").status_code == 400


# -- escaping, offline, API description -----------------------------------------------------------

HOSTILE = "<script>alert('x')</script> \"quoted\" \u202egnp.exe"


def test_hostile_names_are_escaped_everywhere(client, api, ws):
    r = api.post("/api/lists", json={"file": "hostile.yaml", "system": "kensei", "clan": "buke", "name": HOSTILE})
    assert r.status_code == 201
    api.post("/api/lists/hostile.yaml/edit", json={"op": "set", "key": "notes", "value": HOSTILE})
    for path in ("/", "/l/hostile.yaml", "/l/hostile.yaml/share", "/l/hostile.yaml/print"):
        text = client.get(path).text
        assert "<script>alert" not in text, path
        assert "&lt;script&gt;alert(" in text, path
    r = client.post("/l/hostile.yaml/edit", data={"op": "add", "item": HOSTILE}, headers={"HX-Request": "true"})
    assert r.status_code == 400 and "<script>alert" not in r.text and "&lt;script&gt;" in r.text


def test_pages_load_nothing_from_the_network(client):
    for path in ("/", "/l/kensei-buke.yaml", "/l/kensei-buke.yaml/print", "/l/kensei-buke.yaml/share", "/api/docs"):
        r = client.get(path)
        srcs = re.findall(r'(?:src|href)="([^"]+)"', r.text)
        assert srcs and all(s.startswith(("/", "#", "?")) or s == "" for s in srcs), (path, srcs)
        assert "default-src 'self'" in r.headers["content-security-policy"]


def test_openapi_describes_the_api(client):
    schema = client.get("/api/openapi.json").json()
    paths = schema["paths"]
    for p in (
        "/api/lists",
        "/api/import",
        "/api/lists/{path}/check",
        "/api/lists/{path}/options",
        "/api/lists/{path}/edit",
        "/api/lists/{path}/export",
        "/api/lists/{path}/print",
    ):
        assert p in paths, p
    assert not any(p.startswith("/l/") for p in paths)  # the pages are not API
    page = client.get("/api/docs").text
    assert "/api/lists/{path}/edit" in page and "EditOp" in page


def test_the_serve_command_refuses_bad_arguments(tmp_path):
    import subprocess
    import sys

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "builder", "serve", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "DAIMYO_TOKEN": ""},
        )

    r = run(str(tmp_path / "missing"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no such folder" in r.stderr
    r = run(str(tmp_path), "--port", "70000")
    assert r.returncode == 2 and "--port" in r.stderr
    r = run(str(tmp_path), "--token", "short")
    assert r.returncode == 2 and "at least 16" in r.stderr


def test_typing_a_count(api, ws):
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "models", "index": 2, "value": 12})
    assert r.status_code == 200 and r.json()["header"]["total"] == 215
    r = api.post("/api/lists/satsuma-imperial.yaml/edit", json={"op": "copies", "item": "Saigo Tsugumichi", "value": 0})
    if r.status_code == 400:  # not a card of that deck: any imperial card will do
        name = api.get("/api/lists/satsuma-imperial.yaml").json()["entries"][0]["name"]
        r = api.post("/api/lists/satsuma-imperial.yaml/edit", json={"op": "copies", "item": name, "value": 0})
    assert r.status_code == 200, r.text
    before = r.json()["header"]["total"]
    assert before < 46
    name = api.get("/api/lists/satsuma-imperial.yaml").json()["entries"][0]["name"]
    r = api.post("/api/lists/satsuma-imperial.yaml/edit", json={"op": "copies", "item": name, "value": 3})
    assert r.status_code == 200
    assert (
        api.post("/api/lists/satsuma-imperial.yaml/edit", json={"op": "copies", "item": name, "value": -1}).status_code
        == 400
    )


def test_previews_drawn_at_once_do_not_crash_the_server(client):
    """pdfium is not thread-safe: the server draws one page at a time."""
    from concurrent.futures import ThreadPoolExecutor

    client.get("/l/kensei-buke.yaml/print/previews?paper=a4")
    with ThreadPoolExecutor(8) as pool:
        codes = list(
            pool.map(
                lambda n: client.get(f"/l/kensei-buke.yaml/preview/{1 + n % 2}.png?paper=a4").status_code, range(24)
            )
        )
    assert codes == [200] * 24


@pytest.mark.slow  # a server process, stopped by a signal
def test_serve_prints_the_address_serves_it_and_stops_on_ctrl_c(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    shutil.copy(ROOT / "examples" / "kensei-buke.yaml", tmp_path / "army.yaml")
    env = {k: v for k, v in os.environ.items() if k != "DAIMYO_TOKEN"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "builder", "serve", str(tmp_path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        url = next(line.split()[1] for line in lines if line.startswith("open "))
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{20,}", url), url
        base = url.split("/?")[0]
        import http.cookiejar

        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = ""
        deadline = time.monotonic() + 120  # a limit for a hang: a loaded machine starts slowly
        while time.monotonic() < deadline:
            try:
                with browser.open(url, timeout=60) as r:
                    page = r.read().decode()
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.01)
        assert "Buke vanguard" in page
        with pytest.raises(urllib.error.HTTPError) as no_token:
            urllib.request.urlopen(base + "/", timeout=60)
        assert no_token.value.code == 401
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert "stopped" in out and "Traceback" not in err
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.slow  # a server process
def test_serve_warns_when_listening_beyond_this_machine(tmp_path):
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "builder", "serve", str(tmp_path), "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        warning = proc.stderr.readline()
        assert "warning: listening on 0.0.0.0" in warning and "token" in warning
    finally:
        proc.terminate()
        proc.wait(20)


def test_models_changes_keep_the_file_as_written(api, ws):
    path = ws / "kensei-buke.yaml"
    path.write_text(path.read_text().replace("    models: 9\n", "    models: 9        # nine spears\n"))
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "models", "index": 2, "delta": 1})
    assert r.json()["notes"] == ["Yari Ashigaru: 10 models"]
    text = path.read_text()
    assert "    models: 10        # nine spears\n" in text
    # a single model written without 'models:' gains the key under its troop
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "models", "index": 0, "value": 2})
    text = path.read_text()
    assert "  - troop: Taisho Buke            # general, 20 AP\n    models: 2\n" in text
    api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "models", "index": 0, "value": 1})
    assert "  - troop: Taisho Buke            # general, 20 AP\n  - troop: Samurai Yari" in path.read_text()


def test_unit_leader_and_standard_from_the_entry_menu(client, api, ws):
    page = client.get("/l/kensei-buke.yaml").text
    assert 'name="field" value="led_by"' in page and '<option value="Taisho Buke"' in page
    r = api.post(
        "/api/lists/kensei-buke.yaml/edit", json={"op": "troop", "index": 1, "field": "led_by", "value": "Taisho Buke"}
    )
    assert r.status_code == 200 and r.json()["notes"] == ["Samurai Yari: led by Taisho Buke"]
    assert "    led_by: Taisho Buke" in (ws / "kensei-buke.yaml").read_text()
    r = api.post(
        "/api/lists/kensei-buke.yaml/edit", json={"op": "troop", "index": 1, "field": "standard", "value": "true"}
    )
    assert r.status_code == 200 and "    standard: true" in (ws / "kensei-buke.yaml").read_text()
    api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "troop", "index": 1, "field": "led_by", "value": ""})
    assert "led_by" not in (ws / "kensei-buke.yaml").read_text()
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "troop", "index": 1, "field": "colour", "value": "x"})
    assert r.status_code == 400


def test_a_json_list_is_shown_but_not_changed(client, api, ws):
    text = api.get("/api/lists/kensei-buke.yaml/export?format=json").json()["text"]
    (ws / "army.json").write_text(text)
    page = client.get("/l/army.json").text
    assert "A JSON list is read here, not changed" in page
    r = api.post("/api/lists/army.json/edit", json={"op": "models", "index": 1, "delta": 1})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    assert (ws / "army.json").read_text() == text


def test_duplicate_a_unit(api, ws):
    path = ws / "kensei-buke.yaml"
    r = api.post("/api/lists/kensei-buke.yaml/edit", json={"op": "duplicate", "index": 2})
    assert r.status_code == 200 and r.json()["notes"] == ["added another Yari Ashigaru"]
    assert r.json()["header"]["total"] == 245
    text = path.read_text()
    assert text.count("- troop: Yari Ashigaru") == 2 and text.count("# 45 AP") == 1
    assert api.post("/api/lists/satsuma-samurai.yaml/edit", json={"op": "duplicate", "index": 0}).status_code == 400


# -- each game in its own words; the new-list form follows the person ----------------------------


def _chosen_game(html: str) -> str:
    sel = re.search(r'<select name="system" id="new-system".*?</select>', html, re.S).group(0)
    return re.search(r'<option value="(\w+)"[^>]*selected', sel).group(1)


def _open_fieldsets(html: str) -> list[str]:
    return re.findall(r'<fieldset data-system="(\w+)"\s*>', html)


def test_the_new_list_form_starts_with_the_most_used_game_then_the_last_chosen(client, ws):
    # examples/: five Kensei lists, the most of any game
    html = client.get("/").text
    assert _chosen_game(html) == "kensei" and _open_fieldsets(html) == ["kensei"]
    assert 'placeholder="e.g. Buke vanguard"' in html
    # the battle size of the rulebook's sample armies, which its catalog alone can fill legally
    assert 'name="points" type="number" value="200"' in html
    # the clan is the player's choice: no clan is picked for them, and the form asks for one
    clan = re.search(r'<select name="clan"[^>]*>(.*?)</select>', html, re.S)
    assert "required" in clan.group(0).split(">")[0]
    assert re.match(r'<option value="" disabled selected>choose a clan</option>', clan.group(1))
    assert clan.group(1).count(" selected") == 1
    # a workspace of card decks starts with their game
    for f in ws.glob("kensei-*.yaml"):
        f.unlink()
    (ws / "satsuma-samurai.yaml").unlink()
    shutil.copy(ws / "herocard-samurai.yaml", ws / "second-hero.yaml")
    html = client.get("/").text
    assert _chosen_game(html) == "herocard" and _open_fieldsets(html) == ["herocard"]
    assert 'placeholder="e.g. Samurai of the Rising Sun"' in html
    # creating a list remembers its game for the next one, whatever the workspace holds
    r = client.post("/new", data={"system": "senshiai", "name": "Northern host 2"}, headers={"HX-Request": "true"})
    assert r.status_code == 204 and "daimyo_game=senshiai" in r.headers["set-cookie"]
    html = client.get("/").text
    assert _chosen_game(html) == "senshiai" and _open_fieldsets(html) == ["senshiai"]
    assert "Agreed deck size" in html and 'placeholder="e.g. Northern host"' in html
    # a cookie naming no game is ignored: the workspace decides (two decks of each game now;
    # the newest list breaks the tie)
    client.cookies.set("daimyo_game", "chess", domain="127.0.0.1")  # in place of the server's
    assert _chosen_game(client.get("/").text) == "senshiai"
    (ws / "Northern-host-2.yaml").unlink()
    assert _chosen_game(client.get("/").text) == "herocard"


def test_the_workspace_names_each_game(client):
    html = client.get("/").text
    for name in ("Kensei", "HeroCard", "Satsuma Rebellion", "Senji", "Senshiai"):
        assert f">{name}</span>" in html, name


@pytest.mark.parametrize(
    "rel, count_word, cost, type_label, priced",
    [
        ("senshiai-northern-host.yaml", "Copies", "cost I", "Type", True),
        ("herocard-samurai.yaml", "Copies", "11 hero points", "Kind", True),
        ("satsuma-imperial.yaml", "Copies", None, "Suit", False),
        ("kensei-buke.yaml", "Models", "25 AP", "Type", True),
    ],
)
def test_each_game_in_its_own_words(client, rel, count_word, cost, type_label, priced):
    html = client.get(f"/l/{rel}").text
    assert f'aria-label="{count_word} of ' in html
    other = {"Copies": "Models", "Models": "Copies"}[count_word]
    assert f'aria-label="{other} of ' not in html and f'aria-label="{other} in ' not in html
    if cost:
        assert f'<div class="entry-cost">{cost}</div>' in html
    else:
        assert 'class="entry-cost"' not in html
    assert f"<label>{type_label} <select" in html
    assert ('name="cost"' in html) == priced


def test_catalog_rows_in_the_games_words(client):
    rows = client.get("/l/kensei-buke.yaml/catalog?q=yari").text
    assert re.search(r'class="cost">15 AP for 3 models<', rows)
    rows = client.get("/l/senshiai-northern-host.yaml/catalog?q=warriors").text
    assert re.search(r'class="cost">cost II<', rows) and "models" not in rows
    rows = client.get("/l/herocard-samurai.yaml/catalog?q=thrust").text
    assert re.search(r'class="cost">cost 3<', rows) and "then 2 copies left" in rows


def test_senji_catalog_reasons_name_the_right_player_and_carry_no_markup(client):
    rows = client.get("/l/senji-three-daimyo.yaml/catalog").text
    assert not re.search("[\x00-\x08\x0e-\x1f]", rows)
    assert "Aiko: province &#39;Dewa&#39; is also a starting province of Sora" in rows
    assert "choose the player whose card it replaces" in rows
    assert re.search(r'<span class="tag">province</span>', rows)


def test_a_card_deck_shows_what_it_is_made_of(client):
    html = client.get("/l/senshiai-northern-host.yaml").text
    comp = re.search(r'<ul class="composition">(.*?)</ul>', html, re.S).group(1)
    counts = dict(re.findall(r'<span class="c-label">([^<]+)</span> <strong>(\d+)</strong>', comp))
    assert counts == {"terrain": "13", "troop": "23", "event": "14"}
    assert sum(map(int, counts.values())) == 50


def test_a_new_list_can_use_the_packs_of_the_workspace(client, api, ws):
    html = client.get("/").text
    box = re.search(r'<fieldset data-system="senshiai".*?</fieldset>', html, re.S).group(0)
    assert 'name="packs" value="packs/senshiai-example.yaml" checked' in box and "Senshiai example cards" in box
    assert "herocard-example" not in box  # each game is offered its own packs only
    # ticked when the game's lists here use it, or when it only completes the catalog's entries:
    # the Kensei lists of examples/ use no pack, but the profiles pack adds stat lines only
    kensei = re.search(r'<fieldset data-system="kensei".*?</fieldset>', html, re.S).group(0)
    assert re.search(r'name="packs" value="packs/kensei-profiles.yaml"\s*checked>', kensei)
    (ws / "decks").mkdir()
    r = client.post(
        "/new",
        data={"system": "senshiai", "name": "Deck", "file": "decks/deck.yaml", "packs": "packs/senshiai-example.yaml"},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 204
    text = (ws / "decks" / "deck.yaml").read_text()
    assert "packs:\n  - senshiai-example\n" in text  # by name, as 'daimyo new --pack' writes it
    rows = client.get("/l/decks/deck.yaml/catalog?q=capital").text
    assert "Capital of the North" in rows  # a card of the pack, offered at once
    # a hero from a pack gets the pack's attribute cards
    r = api.post(
        "/api/lists",
        json={"file": "hero.yaml", "system": "herocard", "hero": "Samurai", "packs": ["packs/herocard-example.yaml"]},
    )
    assert r.status_code == 201
    assert api.get("/api/lists/hero.yaml/check").json()["summary"]["hero_points"] == 30
    # only the workspace's packs of that game
    for bad in ("packs/herocard-example.yaml", "../outside.yaml", "kensei-buke.yaml"):
        r = api.post("/api/lists", json={"file": "x.yaml", "system": "senshiai", "packs": [bad]})
        assert r.status_code == 400 and "no senshiai pack" in r.json()["error"], bad
    assert not (ws / "x.yaml").exists()


def test_an_imported_list_uses_the_workspaces_own_packs_of_the_same_name(client, api, ws):
    for rel, _text in (("senshiai-northern-host.yaml", None), ("senji-three-daimyo.yaml", None)):
        code = api.get(f"/api/lists/{rel}/export?format=code").json()["text"]
        r = api.post("/api/import", json={"text": code, "file": f"friend/{rel}"})
        assert r.status_code == 201
        got = (ws / "friend" / rel).read_text()
        own = {"senshiai-northern-host.yaml": "senshiai-example", "senji-three-daimyo.yaml": "senji-board"}
        assert f"packs:\n  - {own[rel]}\n" in got, got  # by name, found by the search order
        # checked with the pack, the received list is as legal as the sender's
        assert check_file(ws / "friend" / rel).legal == check_file(ws / rel).legal is True
    # a pack this workspace lacks (or a path leaving it) is not followed
    text = "system: senshiai\nname: Far\npacks: [../../etc/cards.yaml, /abs/other.yaml]\ncards:\n  Warriors: 2\n"
    r = api.post("/api/import", json={"text": text, "file": "far.yaml"})
    assert r.status_code == 201 and "packs" not in (ws / "far.yaml").read_text()
    assert r.json()["missing_packs"] == ["cards.yaml", "other.yaml"]
    # the page an import leads to says which packs the list was made with and this folder lacks
    r = client.post("/import", data={"text": text.replace("Far", "Far 2")}, headers={"HX-Request": "true"})
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/l/Far-2.yaml?missing=cards.yaml&missing=other.yaml"
    html = client.get(r.headers["HX-Redirect"]).text
    # in the words of 'daimyo import', with the command that installs each
    for name in ("cards.yaml", "other.yaml"):
        assert (
            f"pack &#39;{name}&#39; is missing here; the list is checked without it (install it from a "
            f"registry: daimyo pack install {name}, or import with --install-packs"
        ) in html
    assert "missing-packs" not in client.get("/l/Far-2.yaml").text


def test_the_header_says_what_else_a_list_counts(client):
    html = client.get("/l/herocard-samurai.yaml").text
    assert re.search(r'<span class="unit">hero points</span><span class="more" id="more">26 action cards</span>', html)
    assert 'id="more"' not in client.get("/l/kensei-buke.yaml").text


def test_entries_show_the_facts_a_player_picks_them_by(client):
    html = client.get("/l/satsuma-samurai.yaml").text
    row = re.search(r'id="entry-\d+">(?:(?!</li>).)*?Traditional Army(?:(?!</li>).)*', html, re.S).group(0)
    assert '<span class="detail">weapons 5 or morale 6</span>' in row  # printed "W5 or M6"
    assert re.search(r"Samurai Warriors.*?<span class=\"detail\">strength 7</span>", html, re.S)  # F7
    rows = client.get("/l/senshiai-northern-host.yaml/catalog?q=warriors").text
    assert '<span class="detail">Earth · power 3/0/6</span>' in rows


def test_a_hostile_pack_name_is_escaped_in_the_new_list_form(client, ws):
    text = (ws / "packs" / "senshiai-example.yaml").read_text()
    (ws / "packs" / "hostile.yaml").write_text(text.replace("name: Senshiai example cards", f"name: '{HOSTILE}'", 1))
    html = client.get("/").text
    assert "<script>alert" not in html and "&lt;script&gt;alert(" in html
    assert 'value="packs/hostile.yaml"' in html


def test_catalog_entries_allowed_with_a_warning_say_so(client, api):
    rows = client.get("/l/kensei-kuge.yaml/catalog?q=misuchi").text
    # a troop whose cost is unknown is marked so and never offered as "can add" (adding is not blocked)
    assert '<span class="tag tag-unknown">cost unknown</span>' in rows
    assert "&#39;Misuchi&#39; has no cost in the catalog" in rows and 'class="opt cannot"' in rows
    assert "can add" not in rows and 'aria-label="Add anyway Misuchi">Add anyway</button>' in rows
    rows = client.get("/l/herocard-samurai.yaml/catalog?q=heaven").text
    assert "it can never be played" in rows
    found = {o["name"]: o for o in api.get("/api/lists/herocard-samurai.yaml/options").json()["rows"]}
    assert found["Heaven Splitter"]["can"] and found["Heaven Splitter"]["warning"]
    assert found["Quiet Meditation"]["can"] and not found["Quiet Meditation"]["warning"]


@pytest.mark.skipif(os.name == "nt", reason="address reuse is a POSIX matter")
def test_a_restarted_server_gets_its_port_back_while_old_connections_close():
    import socket

    from builder.web.launch import choose_port

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn listens
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    conn, _ = listener.accept()
    conn.close()  # the server side closes first: its end waits (TIME_WAIT) on the port
    client.close()
    listener.close()
    assert choose_port("127.0.0.1", port) == port
    # a port a server listens on is still refused
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    from builder.errors import UsageError

    with pytest.raises(UsageError, match="is in use"):
        choose_port("127.0.0.1", busy.getsockname()[1])
    busy.close()


def test_print_page_scale_advice_names_the_rulers_the_pdfs_carry(client, tmp_path):
    """The print page's advice on scale correction speaks of the rulers really printed: the
    50 mm ruler of a card sheet and the 100 mm bars of the alignment sheet."""
    import re

    import pypdf

    from builder.render.api import render_test_sheet

    page = client.get("/l/satsuma-samurai.yaml/print").text
    said = {int(n) for n in re.findall(r"(\d+) mm (?:ruler|bars)", page)}
    assert said == {50, 100}
    sheet = pypdf.PdfReader(io.BytesIO(client.get("/l/satsuma-samurai.yaml/print.pdf").content))
    assert "50 mm: print at 100 %" in sheet.pages[0].extract_text()
    render_test_sheet(tmp_path / "t.pdf")
    assert "100 mm: print at 100 %" in pypdf.PdfReader(str(tmp_path / "t.pdf")).pages[0].extract_text()
