"""The event server's pages in every language: each drawn in the pseudo-locale (``Accept-Language:
en-XA``) shows no English word outside brackets but data; ``?lang=`` chooses too; ``<html lang>``
names the language shown; the JSON API stays English."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient
from test_web_i18n import Data, foreign, unmarked

ROOT = Path(__file__).resolve().parent.parent
BUKE = (ROOT / "examples" / "kensei-buke.yaml").read_text()
TOO_MANY_ARCHERS = BUKE.replace(
    "  - troop: Yumi Samurai           # ranged, 60 AP\n    models: 4",
    "  - troop: Yumi Samurai           # ranged, 60 AP\n    models: 9",
)
PSEUDO = {"Accept-Language": "en-XA"}


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    from builder.event.web.app import create_app

    from conftest import run_cli

    folder = str(tmp_path_factory.mktemp("i18n-event") / "league")
    r = run_cli("event", "new", folder, "--name", "Autumn league", "--system", "kensei", "--points", "200")
    assert r.code == 0, r
    org = re.search(r"organiser: (\S+)", r.stdout).group(1).split("token=")[1]
    r = run_cli("event", "players", folder, "--add", "Aiko", "--add", "Bo", "--format", "csv")
    assert r.code == 0, r
    tokens = {row["name"]: row["token"] for row in csv.DictReader(io.StringIO(r.stdout))}
    with TestClient(create_app(folder), base_url="http://127.0.0.1:8000") as c:
        yield {"client": c, "org": org, "tokens": tokens}


def event_pages(league) -> dict[str, object]:
    """Every page of the event server, in its phases: open, a list handed in, locked, revealed."""
    c, tok, got = league["client"], league["tokens"], {}
    got["home"] = c.get("/", headers=PSEUDO)
    c.get(f"/submit?token={tok['Bo']}", headers=PSEUDO)
    page = c.get("/submit", headers=PSEUDO)
    got["submit"] = page
    got["submitted illegal"] = c.post(
        "/submit", data={"csrf": csrf_of(page.text), "text": TOO_MANY_ARCHERS}, headers=PSEUDO
    )
    got["submitted twice"] = c.post(
        "/submit", data={"csrf": csrf_of(page.text), "text": BUKE}, files={"upload": ("l.yaml", BUKE)}, headers=PSEUDO
    )
    got["submitted legal"] = c.post("/submit", data={"csrf": csrf_of(page.text), "text": BUKE}, headers=PSEUDO)
    got["refused form"] = c.post("/submit", data={"csrf": "forged", "text": BUKE}, headers=PSEUDO)
    got["no such page"] = c.get("/nothing-here", headers=PSEUDO)
    got["wrong role"] = c.get("/organiser", headers=PSEUDO)
    c.get(f"/organiser?token={league['org']}", headers=PSEUDO)
    board = c.get("/organiser", headers=PSEUDO)
    got["organiser"] = board
    sid = re.search(r'name="submission" value="(\d+)"', board.text).group(1)
    got["opened"] = c.post(
        "/organiser/open",
        data={"csrf": csrf_of(board.text), "submission": sid, "reason": "a judge call"},
        headers=PSEUDO,
    )
    got["confirm lock"] = c.post("/organiser/lock", data={"csrf": csrf_of(board.text)}, headers=PSEUDO)
    c.post("/organiser/lock", data={"csrf": csrf_of(board.text), "confirm": "lock"}, headers=PSEUDO)
    got["locked"] = c.get("/organiser", headers=PSEUDO)
    got["confirm reveal"] = c.post("/organiser/reveal", data={"csrf": csrf_of(board.text)}, headers=PSEUDO)
    c.post("/organiser/reveal", data={"csrf": csrf_of(board.text), "confirm": "reveal"}, headers=PSEUDO)
    got["revealed"] = c.get("/", headers=PSEUDO)
    got["revealed list"] = c.get(f"/lists/{sid}", headers=PSEUDO)
    got["docs"] = c.get("/docs", headers=PSEUDO)
    c.get(f"/submit?token={tok['Aiko']}", headers=PSEUDO)
    got["closed"] = c.get("/submit", headers=PSEUDO)
    return got


def event_data() -> Data:
    from test_web_i18n import catalog_data

    return Data(
        catalog_data(ROOT / "examples") | {"Autumn league", "Aiko", "Bo", "a judge call", "kensei", "daimyo event API"}
    )


def test_every_event_page_is_marked_for_translation(league):
    pages = event_pages(league)
    data = event_data()
    bad = {}
    for name, r in pages.items():
        assert r.status_code < 500, (name, r.status_code)
        assert '<html lang="en-XA">' in r.text, name
        found = [line for line in unmarked(r.text, data) if not foreign(line) and not finding(line)]
        if found:
            bad[name] = found[:8]
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)


def finding(line: str) -> bool:
    """A finding's message as the check words it (the findings' own domain)."""
    return bool(re.match(r"^: .+", line.strip()))


def test_the_event_pages_follow_the_browser_or_lang(league):
    c = league["client"]
    french = c.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert '<html lang="fr">' in french.text and "Page de l’événement" in french.text
    spanish = c.get("/?lang=es", headers={"Accept-Language": "fr"})
    assert '<html lang="es">' in spanish.text and "Página del evento" in spanish.text
    english = c.get("/?lang=xx")
    assert '<html lang="en">' in english.text and ">Event page</a>" in english.text
    refused = c.get("/organiser", headers={"Accept-Language": "es", "Cookie": ""})
    assert refused.status_code in (401, 403) and "<h1>Rechazado</h1>" in refused.text
    # the JSON API answers in English whatever is asked
    api = c.get("/api/submissions", headers={"Accept-Language": "fr", "Cookie": ""})
    assert api.status_code == 401 and api.json()["error"].startswith("no token")
