"""Analytics beside the list: the page and its JSON give the numbers of ``daimyo stats`` and
``daimyo hand`` for every example list, odds from the query language, and sample hands that a
seed makes the same everywhere."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from markupsafe import escape

from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "stats-token-0123456789abcdef"
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))
DECKS = ["herocard-samurai.yaml", "satsuma-imperial.yaml", "satsuma-samurai.yaml", "senshiai-northern-host.yaml"]


@pytest.fixture()
def web(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", ws)
    monkeypatch.chdir(ws)
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:  # one event loop for all its requests
        assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        yield c


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_page_gives_the_numbers_of_daimyo_stats(web, cli, name):
    r = cli("stats", name, "--format", "json")
    assert r.code == 0, r.stderr
    want = json.loads(r.stdout)
    assert web.get(f"/api/lists/{name}/stats").json() == want
    page = web.get(f"/l/{name}/stats").text
    text = cli("stats", name).stdout.rstrip("\n")
    assert (
        f'<pre class="stats-text" id="stats-text" tabindex="0" aria-label="Every figure as daimyo stats prints it">{escape(text)}</pre>'
        in page
    )
    for group in want.get("counts", []):  # every bar of the charts, with its share
        for v in group["values"]:
            assert f"{escape(str(group['title']))} {escape(str(v['value']))}: {v['share'] * 100:.1f}%" in page
    for row in want.get("limits", []):
        assert str(escape(row["label"])) in page


def test_odds_from_the_form(web, cli):
    q = "suit=Force >= 2 in 7"
    want = json.loads(cli("stats", "satsuma-samurai.yaml", "--odds", q, "-f", "json").stdout)
    assert web.get("/api/lists/satsuma-samurai.yaml/stats", params={"odds": q}).json() == want
    page = web.get("/l/satsuma-samurai.yaml/stats", params={"odds": q}).text
    assert "P(<code>suit=Force &gt;= 2 in 7</code>) = <strong>54.08%</strong>" in page  # 65785/121647
    assert "65785/121647" in page
    bad = web.get("/l/satsuma-samurai.yaml/stats", params={"odds": "suit=Nothing >= 2 in 7"})
    assert bad.status_code == 200 and 'role="alert"' in bad.text  # said beside the form, the page still shown
    r = cli("stats", "satsuma-samurai.yaml", "--odds", "suit=Nothing >= 2 in 7")
    said = "unknown suit 'Nothing' (one of Force, Reserves, Leader"
    assert r.code == 2 and said in r.stderr and str(escape(said)) in bad.text  # the same words


@pytest.mark.parametrize("name", DECKS)
def test_the_sample_hand_is_that_of_daimyo_hand(web, cli, name):
    for seed in (1, 7):
        want = json.loads(cli("hand", name, "--seed", str(seed), "-f", "json").stdout)
        assert web.get(f"/api/lists/{name}/hand", params={"seed": seed}).json() == want
        page = web.get(f"/l/{name}/stats", params={"seed": seed}).text
        cards = re.search(r'<ol class="hand" id="hand">(.*?)</ol>', page, re.S).group(1)
        assert re.findall(r"<li>(.*?)</li>", cards) == [str(escape(c)) for c in want["hands"][0]["cards"]]
        assert f'href="/l/{name}/stats?seed={seed + 1}"' in page  # the new-hand button
        text = cli("hand", name, "--seed", str(seed)).stdout.rstrip("\n")
        assert str(escape(text)) in page


def test_lists_without_cards_have_no_hand(web):
    page = web.get("/l/kensei-buke.yaml/stats").text
    assert 'id="hand"' not in page and "Limits and room left" in page
    r = web.get("/api/lists/kensei-buke.yaml/hand", params={"seed": 1})
    assert r.status_code == 400 and "has no cards to draw" in r.json()["error"]
    assert web.get("/l/satsuma-samurai.yaml/stats", params={"seed": "x"}).status_code == 400


def test_the_api_page_shows_the_address_it_was_reached_at(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    app = create_app(ws, token=TOKEN, port=9123)
    c = TestClient(app, base_url="http://127.0.0.1:9123")
    assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
    page = c.get("/api/docs").text
    assert "http://127.0.0.1:9123/api/lists" in page and "8765" not in page
