"""A new list shows what it still needs as counters, not a wall of errors; the published
Satsuma deck reads clean, its printing note shown as information."""

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
TOKEN = "guide-token-0123456789abcdef"


@pytest.fixture()
def client(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", ws)
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:  # one event loop for all its requests
        assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        c.ws = ws
        yield c


def counters(html: str) -> list[str]:
    return [
        f"{a} {b}/{c}"
        for a, b, c in re.findall(
            r'<span class="need-label">([^<]+)</span> <span class="need-count"><strong>([^<]+)</strong>/([^<]+)</span>',
            html,
        )
    ]


def new_list(client, **form) -> str:
    r = client.post("/new", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    return client.get(r.headers["location"]).text


def boxes(html: str) -> int:
    return html.count('class="finding f-error"')


@pytest.mark.parametrize(
    "form, want",
    [
        (
            {"system": "kensei", "name": "K", "clan": "buke", "points": "200", "commander": "hatamoto"},
            ["general 0/1", "leaders 0/1", "melee AP 0/50", "units 0/2"],
        ),
        ({"system": "senshiai", "name": "S"}, ["Capital 0/1"]),
    ],
)
def test_a_new_list_shows_counters_not_errors(client, form, want):
    html = new_list(client, **form)
    assert counters(html) == want
    assert boxes(html) == 0  # no red box: all it lacks is counted
    assert f"illegal: {len(want)} still needed" in html


def test_a_new_hero_counts_its_deck_and_names_the_data_it_lacks(client):
    """The rulebook prints no hero points for the Samurai's attribute cards: the hero cannot be
    confirmed legal until a pack gives them, which is no counter but a finding of its own."""
    html = new_list(client, system="herocard", name="H", hero="Samurai")
    assert counters(html) == ["action cards 0/20"]
    assert boxes(html) == 1 and "herocard.hero-points-unknown" in html
    assert "illegal: 2 errors" in html


def test_a_new_senji_setup_counts_per_player(client):
    html = new_list(client, system="senji", name="Three", players="3")
    got = counters(html)
    assert got == ["samurai card 0/1", "samurai placed 0/1", "provinces 0/3", "units 0/3"] * 3
    assert boxes(html) == 0
    assert html.count('aria-label="Still needed for ') == 3
    assert "illegal: 12 still needed" in html


def test_counters_follow_the_list_to_the_bound(client):
    html = new_list(client, system="kensei", name="K2", clan="buke", points="200", commander="hatamoto")
    assert "leaders 0/1" in counters(html)
    html = client.post("/l/K2.yaml/edit", data={"op": "add", "item": "Taisho Buke"}).text
    assert "leaders 0/1" not in counters(html) and "general 0/1" not in counters(html)  # at the bound: gone
    assert "units 0/2" in counters(html)  # a leader is no unit
    html = client.post("/l/K2.yaml/edit", data={"op": "add", "item": "Yari Ashigaru"}).text
    assert "units 1/2" in counters(html)  # one short: still counted
    html = client.post("/l/K2.yaml/edit", data={"op": "add", "item": "Yari Ashigaru"}).text
    assert not any(c.startswith("units ") for c in counters(html))  # at the bound


def test_an_excess_stays_an_error(client):
    (client.ws / "over.yaml").write_text(
        (client.ws / "kensei-buke.yaml").read_text().replace("    models: 9\n", "    models: 10\n")
    )
    html = client.get("/l/over.yaml").text
    assert boxes(html) == 1 and "over by 5" in html  # 205 of 200 AP is no counter
    assert "illegal: 1 error" in html


def test_the_published_satsuma_deck_reads_clean(client):
    html = client.get("/l/satsuma-samurai.yaml").text
    assert re.search(r'id="verdict">\s*✓ legal\s*</div>', html)
    assert 'class="finding f-info"' in html and "printing note" in html and "Bodyguard" in html
    assert 'class="finding f-warning"' not in html
    assert (
        client.get("/api/lists").json()["lists"][
            [x["path"] for x in client.get("/api/lists").json()["lists"]].index("satsuma-samurai.yaml")
        ]["warnings"]
        == 0
    )


# -- the catalog a player expects ----------------------------------------------------------------


def test_the_kensei_catalog_shows_the_lists_clan_unless_asked(client):
    rows = client.get("/l/kensei-buke.yaml/catalog").text
    shown = re.findall(r'aria-label="Add (?:anyway )?([^"]+)"', rows)
    assert "Yari Ashigaru" in shown and "Taisho Buke" in shown
    assert "Onna-Bushi" not in shown and "not in the buke army list" not in rows  # a Kuge troop
    hidden = int(re.search(r"(\d+) more of other clans", rows).group(1))
    everything = client.get("/l/kensei-buke.yaml/catalog?others=1").text
    all_shown = re.findall(r'aria-label="Add (?:anyway )?([^"]+)"', everything)
    assert "Onna-Bushi" in all_shown and "more of other clans" not in everything
    assert len(all_shown) == min(80, len(shown) + hidden)
    kuge = re.findall(r'aria-label="Add (?:anyway )?([^"]+)"', client.get("/l/kensei-kuge.yaml/catalog").text)
    assert "Onna-Bushi" in kuge and "Taisho Buke" not in kuge  # each list its own clan


def test_profiles_beside_entries_when_a_pack_gives_them(client):
    text = (
        (client.ws / "kensei-buke.yaml")
        .read_text()
        .replace("commander: hatamoto\n", "commander: hatamoto\npacks: [packs/kensei-profiles.yaml]\n")
    )
    (client.ws / "with-profiles.yaml").write_text(text)
    page = client.get("/l/with-profiles.yaml").text
    row = page.split('id="entry-2"')[1].split('id="entry-3"')[0]
    assert "Yari Ashigaru" in row and '<span class="detail">MOV 10 · AT 2 · INI 1 · HO 3 · WO 1</span>' in row
    rows = client.get("/l/with-profiles.yaml/catalog?q=yari+ash").text
    assert '<span class="detail profile">MOV 10 · AT 2 · INI 1 · HO 3 · WO 1</span>' in rows
    assert "MOV" not in client.get("/l/kensei-buke.yaml/catalog?q=yari+ash").text  # no pack, no stat line
