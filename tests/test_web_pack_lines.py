"""The pack editor's preview for the games that print a line per entry: a Kensei troop shows
the roster's line for a unit of it (name, models, AP a model and a unit, abilities, the facts
under the name), a Senji province the setup sheet's line; both follow what is typed once the
entry is valid, and the line is the roster's own (a list holding the troop prints it)."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.web.app import create_app

TOKEN = "lines-test-token-0123456789"
HX = {"HX-Request": "true"}
TROOP = {
    "f_name": "Club Spearmen",
    "f_clans": "buke",
    "f_list_section": "common",
    "f_cost": "6",
    "f_troop_class": "W",
    "f_troop_type": "infantry",
    "f_titles": "Ashigaru",
    "f_weapons": "Yari",
    "f_assumed": "our club's troop",
}


@pytest.fixture()
def c(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "user-packs"))
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as client:  # one event loop for all its requests
        client.get(f"/?token={TOKEN}")
        client.headers.update({"X-CSRF-Token": app.csrf})
        client.ws = ws
        yield client


def line(page: str) -> list[str]:
    part = page[page.index('id="roster-line"') :]
    part = part[: part.index("</div>")]
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td>(.*?)</td>", part)]


def version(page: str) -> str:
    return re.search(r'name="version" value="([0-9a-f]+)"', page).group(1)


def test_a_kensei_troop_shows_its_roster_line_as_typed_and_saved(c, tmp_path):
    assert c.post("/packs/new", data={"system": "kensei", "name": "Club troops"}, headers=HX).status_code == 204
    page = c.get("/packs/edit/club-troops.yaml?section=troops").text
    assert "Roster line" in page and "Shown once the entry is valid" in page
    v = version(page)
    r = c.post("/packs/edit/club-troops.yaml/check", data={**TROOP, "section": "troops", "version": v}, headers=HX)
    assert r.status_code == 200 and "✓ valid" in r.text
    assert line(r.text) == ["1", "Club Spearmen", "—", "2*", "1*", "3*", "1*", "1", "6", "6", "—"]
    assert "Warrior · infantry · Ashigaru · weapons: Yari" in html.unescape(r.text)  # the facts printed under the name
    bad = c.post(
        "/packs/edit/club-troops.yaml/check",
        data={**TROOP, "f_cost": "six", "section": "troops", "version": v},
        headers=HX,
    )
    assert "Shown once the entry is valid" in bad.text
    r = c.post("/packs/edit/club-troops.yaml/save", data={**TROOP, "section": "troops", "version": v}, headers=HX)
    assert r.status_code == 204
    saved = c.get(r.headers["HX-Redirect"]).text
    assert line(saved) == ["1", "Club Spearmen", "—", "2*", "1*", "3*", "1*", "1", "6", "6", "—"]

    # the same line as the roster of a list holding the troop prints it
    import pypdf

    from builder.lists.editor import ListEditor
    from builder.render.api import render_list

    pack = str(c.ws / "packs" / "club-troops.yaml")
    ed, _ = ListEditor.new("kensei", pack_files=[pack], packs=[pack], clan="buke")
    ed.add("Club Spearmen", models=1)
    (tmp_path / "l.yaml").write_text(ed.text)
    render_list(tmp_path / "l.yaml", tmp_path / "l.pdf")
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(tmp_path / "l.pdf").pages)
    assert "Club Spearmen\nWarrior · infantry · Ashigaru ·\nweapons: Yari\n—\n2*\n1*\n3*\n1*\n1\n6\n6\n—" in text
    assert "Warrior · infantry · Ashigaru · weapons: Yari" in html.unescape(saved)  # the page shows those facts


def test_a_senji_province_shows_its_setup_sheet_line(c):
    assert c.post("/packs/new", data={"system": "senji", "name": "Our map"}, headers=HX).status_code == 204
    page = c.get("/packs/edit/our-map.yaml").text
    assert "Setup sheet line" in page
    r = c.post(
        "/packs/edit/our-map.yaml/check",
        data={
            "f_name": "Owari",
            "f_id": "province-04",
            "f_region": "Chubu",
            "section": "provinces",
            "f_assumed": "our map",
            "version": version(page),
        },
        headers=HX,
    )
    assert r.status_code == 200, r.text[:300]
    assert line(r.text) == ["1", "Owari", "1", "1", ""]  # a placeholder of the board named (18 provinces)


def test_card_games_show_no_line(c):
    assert c.post("/packs/new", data={"system": "senshiai", "name": "Club cards"}, headers=HX).status_code == 204
    assert 'id="roster-line"' not in c.get("/packs/edit/club-cards.yaml").text
