"""A Satsuma variant deck goes back to its side's published deck in one step, in the builder
and on the command line ('daimyo set LIST deck standard'): after switching a variant's side
its cards are all the other side's (46 errors), and the reset gives a legal published deck;
undo brings the variant back. And a list pasted into the builder that names a pack this
folder lacks is reported in the command line's words."""

from __future__ import annotations

import html
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.check import check_file
from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "reset-test-token-0123456789"
DECK = "/l/satsuma-samurai.yaml"


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copy(ROOT / "examples" / "satsuma-samurai.yaml", root)
    return root


@pytest.fixture()
def client(ws):
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:  # one event loop for all its requests
        c.get(f"/?token={TOKEN}")
        c.headers.update({"X-CSRF-Token": app.csrf, "HX-Request": "true"})
        yield c


def version(client) -> str:
    return client.get("/api/lists/satsuma-samurai.yaml").json()["version"]


def edit(client, **op):
    r = client.post(f"{DECK}/edit", data={**op, "version": version(client)})
    return r.status_code, html.unescape(r.text)


def test_a_variant_switched_to_the_other_side_resets_to_its_published_deck(client, ws):
    assert 'id="reset-deck"' not in client.get(DECK).text  # the published deck has nothing to reset
    assert edit(client, op="remove", item="Takamori Saigo")[0] == 200  # a variant now
    status, page = edit(client, op="set", key="side", value="imperial")
    assert status == 200
    res = check_file(ws / "satsuma-samurai.yaml")
    assert not res.legal and res.counts()["error"] == 45  # every card left is the samurai side's
    assert "Reset to the published imperial deck" in page and 'id="reset-deck"' in page
    variant = (ws / "satsuma-samurai.yaml").read_text()

    status, page = edit(client, op="set", key="deck", value="standard")
    assert status == 200
    assert "the 45 cards under 'cards:' are replaced by the published imperial deck (46 cards)" in page
    text = (ws / "satsuma-samurai.yaml").read_text()
    assert "deck: standard" in text and "cards:" not in text and "side: imperial" in text
    assert "notes: The published Samurai deck" in text  # what the player wrote stays
    res = check_file(ws / "satsuma-samurai.yaml")
    assert res.legal and res.summary["cards"] == 46
    assert 'id="reset-deck"' not in page and "This is the published deck" in page

    r = client.post(f"{DECK}/undo", data={"version": version(client)})
    assert r.status_code == 200
    assert (ws / "satsuma-samurai.yaml").read_text() == variant  # the variant is back, card for card


def test_deck_takes_only_standard(client, ws):
    before = (ws / "satsuma-samurai.yaml").read_text()
    status, page = edit(client, op="set", key="deck", value="mine")
    assert status == 400
    assert "deck takes 'standard' (the published deck of the list's side), not 'mine'" in page
    assert (ws / "satsuma-samurai.yaml").read_text() == before


def test_the_command_line_resets_the_same_way(cli, ws):
    deck = ws / "satsuma-samurai.yaml"
    assert cli("add", deck, "Bodyguard", "--variant").code == 0
    assert cli("set", deck, "side", "imperial").code == 0
    assert check_file(deck).counts()["error"] == 46
    r = cli("set", deck, "deck", "standard")
    assert r.code == 0
    assert "the 47 cards under 'cards:' are replaced by the published imperial deck (46 cards)" in r.stdout + r.stderr
    assert check_file(deck).legal and "cards:" not in deck.read_text()
    r = cli("set", deck, "deck", "variant")
    assert r.code == 2 and "deck takes 'standard'" in r.stderr


def test_a_web_import_names_missing_packs_as_the_command_line_does(client, ws, cli, tmp_path):
    """A pasted Markdown list made with a pack this folder lacks: the page and the API say what
    'daimyo import' says of it, the recorded name and version and the command that installs it."""
    md = (
        "**Northern host - Senshiai - 5 cards**\n*Packs:* fancards\n"
        "*Checked with:* fancards (Fan cards, version 3, sha256:0123456789abcdef)\n\n"
        "- 1 Capital of the North\n- 4 Rice Fields\n"
    )
    (tmp_path / "friend.md").write_text(md)
    said = cli("import", tmp_path / "friend.md", "-o", tmp_path / "friend.yaml")
    assert said.code == 0
    line = next(x for x in said.stderr.splitlines() if "is missing here" in x).split(": note: ", 1)[1]
    assert line.startswith("pack 'Fan cards' version 3 is missing here") and 'daimyo pack install "Fan cards@3"' in line

    r = client.post(
        "/api/import", json={"text": md, "file": "friend.yaml"}, headers={"Authorization": f"Bearer {TOKEN}"}
    )
    assert r.status_code == 201
    assert r.json()["missing_packs"] == ["Fan cards@3"] and r.json()["notes"] == [line]
    r = client.post("/import", data={"text": md.replace("Northern host", "Northern host 2")})
    assert r.status_code == 204
    page = html.unescape(client.get(r.headers["HX-Redirect"]).text)
    assert line in page
