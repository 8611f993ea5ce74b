"""The builder page keeps each list row it has drawn and draws a row again only when its data
changed: after every kind of change the rows the page gets are exactly those a server drawing
everything afresh gives (no stale count, index, label or finding)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "rows-test-token-0123456789"


def browser(ws):
    app = create_app(ws, token=TOKEN, port=8765)
    c = TestClient(app, base_url="http://127.0.0.1:8765")
    c.get(f"/?token={TOKEN}")
    c.headers.update({"X-CSRF-Token": app.csrf, "HX-Request": "true"})
    return c


def rows(page: str) -> str:
    part = page[page.index('<ol class="entries">'):]
    return re.sub(r"\s+", " ", part[:part.index("</ol>")])


@pytest.mark.parametrize("rel, ops", [
    ("kensei-buke.yaml", [{"op": "models", "index": "2", "delta": "1"}, {"op": "models", "index": "2", "delta": "-1"},
                          {"op": "troop", "index": "1", "field": "standard", "value": "true"},
                          {"op": "set", "key": "name", "value": "Renamed"}, {"op": "remove", "index": "0"},
                          {"op": "add", "item": "Yari Ashigaru", "models": "6"}, {"op": "set", "key": "points", "value": "150"}]),
    ("senshiai-northern-host.yaml", [{"op": "add", "item": "Rice Fields", "count": "1"},
                                     {"op": "copies", "item": "Rice Fields", "value": "2"},
                                     {"op": "remove", "item": "Capital of the North", "all": "1"}]),
    ("senji-three-daimyo.yaml", [{"op": "part", "where": "players/0", "field": "name", "value": "Ana"},
                                 {"op": "part", "where": "players/1/provinces/0", "field": "units", "value": "2"}]),
])
def test_every_change_gives_the_rows_a_fresh_drawing_gives(tmp_path, rel, ops):
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", ws)
    page = browser(ws)
    page.get(f"/l/{rel}")  # the rows drawn once
    for op in ops + [{"undo": True}, {"undo": True}]:
        version = page.get(f"/api/lists/{rel}").json()["version"]
        if op.get("undo"):
            r = page.post(f"/l/{rel}/undo", data={"version": version})
        else:
            r = page.post(f"/l/{rel}/edit", data={**op, "version": version})
        assert r.status_code == 200, (op, r.text[:300])
        fresh = browser(ws).get(f"/l/{rel}").text  # a new server: nothing kept
        assert rows(r.text) == rows(fresh), op
        assert rows(page.get(f"/l/{rel}").text) == rows(fresh), op
