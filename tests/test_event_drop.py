"""A player drops themselves from the event on their own page: asked first, recorded as their
own, the round being played left as it is, and refused in one line (4xx) when it cannot be done.
Over real HTTP with cookies, as a browser signs in, on SQLite."""

from __future__ import annotations

import html
import re

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from test_event import Server, csrf_of
from test_event_day import new_day
from test_event_page import browser_of, refusal

from builder.event import day
from builder.event.store import Event

PLAYERS = ("Aiko", "Bo", "Chen", "Dai", "Eri")


@pytest.fixture
def paired(tmp_path, cli):
    """Five players, round 1 paired; the server, the tokens and the event."""
    folder = str(tmp_path / "day")
    tokens = new_day(cli, folder, None, PLAYERS)
    org = cli("event", "token", folder, "--organiser").stdout.split("token=")[1].strip()
    ev = Event.open(folder)
    day.pair(ev)
    server = Server(folder)
    yield {"server": server, "tokens": tokens, "org": org, "ev": ev}
    server.stop()


def player(site, name: str) -> tuple[httpx.Client, str]:
    """``name``'s browser, signed in with their link, and the CSRF token of their page."""
    c = browser_of(site["server"], f"/submit?token={site['tokens'][name]}")
    return c, csrf_of(c.get("/submit").text)


def test_a_player_drops_themselves_once_they_confirm(paired):
    ev = paired["ev"]
    aiko, csrf = player(paired, "Aiko")
    page = aiko.get("/submit").text
    assert 'action="/submit/drop"' in page and 'id="drop-me"' in page
    before = day.round_list(ev)
    # the first press asks; nothing is dropped
    r = aiko.post("/submit/drop", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code == 200
    assert "<h1>Drop from the event?</h1>" in r.text
    assert "A round being played is not changed" in html.unescape(r.text)
    assert re.search(r'<form method="post" action="/submit/drop" class="confirm">', r.text)
    assert '<input type="hidden" name="confirm" value="drop">' in r.text
    assert '<a id="cancel" href="/submit">Cancel: back to your page</a>' in r.text
    assert day.dropped_players(ev) == {}
    # the page's own form confirms it
    r = aiko.post("/submit/drop", data={"csrf": csrf, "confirm": "drop"}, follow_redirects=False)
    assert (r.status_code, r.headers["location"]) == (303, "/submit")
    assert {k: v for k, v in day.dropped_players(ev)["Aiko"].items() if k != "at"} == {
        "after_round": 1,
        "by": "player Aiko",
        "themselves": True,
    }
    last = day.change_log(ev)[-1]
    assert (last["actor"], last["action"], last["round"], last["detail"]) == (
        "player Aiko",
        "player-dropped",
        1,
        "Aiko",
    )
    assert [(a["actor"], a["action"]) for a in ev.audit_log()][-1] == ("player Aiko", "player-dropped")
    assert day.round_list(ev) == before  # the round being played is not changed
    page = aiko.get("/submit").text
    assert "You dropped from the event after round 1: you are paired in no round from now on." in page
    assert 'id="drop-me"' not in page and 'id="game-1"' in page  # her game of round 1 is still hers to play
    # the organiser's pages say who dropped her
    org = browser_of(paired["server"], f"/organiser?token={paired['org']}")
    row = re.search(r'<tr data-player="Aiko" class="dropped">.*?</tr>', org.get("/organiser/day").text, re.S)
    assert row and "Aiko (dropped by themselves)" in row.group(0)
    assert re.search(r"player Aiko</td><td><code>player-dropped</code>", org.get("/organiser").text)
    # she is paired in no round from now on
    for p in day.round_list(ev)[0]["pairings"]:
        if p["b"] is not None:
            day.enter_result(ev, day.CLI, 1, p["table"], draw=True)
    assert "Aiko" not in {n for p in day.pair(ev)["pairings"] for n in (p["a"], p["b"])}


def test_a_drop_the_organiser_makes_is_not_shown_as_the_players_own(paired):
    day.drop(paired["ev"], "Bo")
    bo, _csrf = player(paired, "Bo")
    page = bo.get("/submit").text
    assert "The organiser dropped you from the event after round 1" in page and 'id="drop-me"' not in page
    org = browser_of(paired["server"], f"/organiser?token={paired['org']}")
    row = re.search(r'<tr data-player="Bo" class="dropped">.*?</tr>', org.get("/organiser/day").text, re.S)
    assert row and "Bo (dropped)" in row.group(0)


def test_a_player_who_dropped_already_is_refused_at_either_press(paired):
    aiko, csrf = player(paired, "Aiko")
    assert aiko.post("/submit/drop", data={"csrf": csrf, "confirm": "drop"}).status_code == 303
    for data in ({"csrf": csrf}, {"csrf": csrf, "confirm": "drop"}):
        r = aiko.post("/submit/drop", data=data)
        assert r.status_code == 409 and refusal(r) == "Aiko dropped after round 1 already"
    assert len(day.change_log(paired["ev"])) == 2  # round 1 paired, the one drop


def test_another_players_key_or_no_key_drops_nobody(paired):
    ev = paired["ev"]
    aiko, csrf_aiko = player(paired, "Aiko")
    bo, csrf_bo = player(paired, "Bo")
    # Bo's browser with Aiko's form: the form is not his
    r = bo.post("/submit/drop", data={"csrf": csrf_aiko, "confirm": "drop"})
    assert r.status_code == 403 and refusal(r).startswith("the form is out of date or from another site")
    # Bo naming Aiko: a player drops only themselves
    r = bo.post("/submit/drop", data={"csrf": csrf_bo, "confirm": "drop", "player": "Aiko"})
    assert r.status_code == 403 and refusal(r) == "a player drops only themselves (the organiser drops other players)"
    # no form token, no sign-in, the organiser's sign-in on the player's form
    assert aiko.post("/submit/drop", data={"confirm": "drop"}).status_code == 403
    anyone = browser_of(paired["server"])
    r = anyone.post("/submit/drop", data={"csrf": csrf_aiko, "confirm": "drop"})
    assert r.status_code == 401 and refusal(r).startswith("no token")
    with paired["server"].client(paired["org"]) as org:  # the organiser's token, as a header
        r = org.post("/submit/drop", data={"csrf": csrf_aiko, "confirm": "drop"})
    assert r.status_code == 403 and refusal(r).startswith("this page is the player's; the token is the organiser's")
    assert day.dropped_players(ev) == {}
    # Bo's own name is his own drop
    r = bo.post("/submit/drop", data={"csrf": csrf_bo, "confirm": "drop", "player": " Bo "}, follow_redirects=False)
    assert r.status_code == 303 and list(day.dropped_players(ev)) == ["Bo"]


def test_nobody_drops_once_the_final_is_played(tmp_path, cli):
    folder = str(tmp_path / "cut")
    tokens = new_day(cli, folder, None, ("Aiko", "Bo", "Chen", "Dai"), "--swiss-rounds", "1", "--top", "2")
    ev = Event.open(folder)
    for _n in (1, 2):  # the Swiss round, then the final
        for p in day.pair(ev)["pairings"]:
            day.enter_result(ev, day.CLI, _n, p["table"], winner=p["a"])
    assert day.is_over(ev)
    server = Server(folder)
    try:
        site = {"server": server, "tokens": tokens}
        aiko, csrf = player(site, "Aiko")
        assert 'id="drop-me"' not in aiko.get("/submit").text
        for data in ({"csrf": csrf}, {"csrf": csrf, "confirm": "drop"}):
            r = aiko.post("/submit/drop", data=data)
            assert r.status_code == 409
            assert refusal(r) == "the final is played: the event is over, and nobody drops from it"
        with server.client(tokens["Bo"]) as api:
            r = api.post("/api/drops", json={"player": "Bo"})
            assert r.status_code == 409 and r.json()["error"].startswith("the final is played: the event is over")
    finally:
        server.stop()
    r = cli("event", "drop", folder, "Chen")
    assert r.code == 2 and "the final is played: the event is over, and nobody drops from it" in r.stderr
    assert "Traceback" not in r.stderr and day.dropped_players(ev) == {}
