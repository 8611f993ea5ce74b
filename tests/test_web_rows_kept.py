"""The builder page keeps each list row it has drawn and draws a row again only when its data
changed: after every kind of change the rows the page gets are exactly those a server drawing
everything afresh gives (no stale count, index, label or finding). The same holds for the
list's settings and house rules, also kept between changes."""

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


def piece(page: str, start: str, end: str) -> str:
    """The part of ``page`` from ``start`` to the next ``end`` (spaces folded); '' when absent."""
    if start not in page:
        return ""
    part = page[page.index(start) :]
    return re.sub(r"\s+", " ", part[: part.index(end)])


def rows(page: str) -> str:
    return piece(page, '<ol class="entries">', "</ol>")


def kept_pieces(page: str) -> tuple[str, str, str]:
    """The rows, the settings and the house rules of a builder page."""
    return (
        rows(page),
        piece(page, '<div class="settings">', "</div>"),
        piece(page, '<details class="house-rules">', "</details>"),
    )


def _rule():
    from builder.catalog.loader import load_catalog

    rule = load_catalog("kensei").model.house_rules[0]
    return {"op": "house_rule", "key": rule.id, "value": str(rule.alternatives[0].value).lower()}


@pytest.mark.parametrize(
    "rel, ops",
    [
        (
            "kensei-buke.yaml",
            [
                {"op": "models", "index": "2", "delta": "1"},
                {"op": "models", "index": "2", "delta": "-1"},
                {"op": "troop", "index": "1", "field": "standard", "value": "true"},
                {"op": "set", "key": "name", "value": "Renamed"},
                {"op": "remove", "index": "0"},
                {"op": "add", "item": "Yari Ashigaru", "models": "6"},
                {"op": "set", "key": "points", "value": "150"},
                _rule(),
                {"op": "set", "key": "commander", "value": "taisho"},
            ],
        ),
        (
            "senshiai-northern-host.yaml",
            [
                {"op": "add", "item": "Rice Fields", "count": "1"},
                {"op": "copies", "item": "Rice Fields", "value": "2"},
                {"op": "remove", "item": "Capital of the North", "all": "1"},
            ],
        ),
        (
            "senji-three-daimyo.yaml",
            [
                {"op": "part", "where": "players/0", "field": "name", "value": "Ana"},
                {"op": "part", "where": "players/1/provinces/0", "field": "units", "value": "2"},
            ],
        ),
    ],
)
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
        assert kept_pieces(r.text) == kept_pieces(fresh), op
        assert kept_pieces(page.get(f"/l/{rel}").text) == kept_pieces(fresh), op
        assert rows(fresh), op
        if rel.startswith("kensei"):  # a Kensei list shows its settings and house rules
            assert all(kept_pieces(fresh)), op
