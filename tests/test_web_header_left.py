"""The builder's header says what is left in the words of what is counted: "5 AP left",
"0 cards left". A HeroCard hero whose action deck is short of its 20 cards reads what the deck
still needs, not "0 left" about hero points that action cards never spend (HeroCard rulebook,
Creating Your Own Decks, lines 1211-1217)."""

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
TOKEN = "test-token-0123456789abcdef"
BASE = "http://127.0.0.1:8765"


@pytest.fixture()
def ws(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", root)
    return root


@pytest.fixture()
def client(ws):
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url=BASE) as c:  # one event loop for all its requests
        assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        yield c


def left(client, name: str) -> str | None:
    page = client.get(f"/l/{name}").text
    m = re.search(r'id="left">([^<]*)<', page)
    return m.group(1).strip() if m else None


def deck_of(ws: Path, cards: int) -> str:
    """The example Samurai with ``cards`` action cards (Overhand Thrust, Efficient Block and
    Quiet Meditation, at most six copies of each card, Thunder Stroke for the rest)."""
    text = (ws / "herocard-samurai.yaml").read_text(encoding="utf-8").split("deck:")[0]
    names = ["Overhand Thrust", "Efficient Block", "Quiet Meditation", "Thunder Stroke"]
    counts, rest = {}, cards
    for n in names:
        counts[n] = min(6, rest)
        rest -= counts[n]
    assert rest == 0
    body = "".join(f"  {n}: {c}\n" for n, c in counts.items() if c)
    return text + ("deck:\n" + body if body else "deck: {}\n")


@pytest.mark.parametrize(
    "cards, expected",
    [
        (0, "20 action cards to add"),
        (19, "1 action card to add"),
        (20, "0 hero points left"),
        (21, "0 hero points left"),
    ],
)
def test_herocard_header_names_the_short_action_deck(client, ws, cards, expected):
    (ws / "hero.yaml").write_text(deck_of(ws, cards), encoding="utf-8")
    assert left(client, "hero.yaml") == expected


def test_herocard_header_with_hero_points_to_spare(client, ws):
    text = (
        (ws / "herocard-samurai.yaml").read_text(encoding="utf-8").replace("max_hero_points: 30", "max_hero_points: 34")
    )
    (ws / "hero.yaml").write_text(text, encoding="utf-8")
    assert left(client, "hero.yaml") == "4 hero points left"


def test_kensei_and_senshiai_headers_name_their_unit(client, ws):
    assert left(client, "kensei-buke.yaml") == "0 AP left"
    assert left(client, "kensei-kuge.yaml") == "5 AP left"  # 195 of 200 AP
    text = (ws / "kensei-kuge.yaml").read_text(encoding="utf-8").replace("points: 200", "points: 190")
    (ws / "over.yaml").write_text(text, encoding="utf-8")
    assert left(client, "over.yaml") == "5 AP over"
    assert 'class="left over" id="left"' in client.get("/l/over.yaml").text
    assert 'class="left " id="left"' in client.get("/l/kensei-kuge.yaml").text
    assert left(client, "senshiai-northern-host.yaml") == "0 cards left"  # 50 cards, size 50


def test_a_game_without_a_limit_shows_nothing_left(client):
    assert left(client, "senji-three-daimyo.yaml") is None
