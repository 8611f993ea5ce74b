"""The event day in a real browser (the system's Chromium driven by Playwright): nine players,
three rounds. The organiser adds the players on the page (their links and QR codes), the players
hand in lists and fix them with Check only, the organiser locks and reveals (each confirmed) and
the revealed lists read as text; then the organiser pairs three rounds, the players enter their
results and their opponents confirm them (one disputes, and the organiser enters the right one),
one player drops, and the organiser reads the standings, which match a recomputation from the
results entered. Once on SQLite with one server, once on PostgreSQL with two servers (the
organiser on one, the players on both). Screenshots go to ``$DAIMYO_SCREENSHOTS``.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from browserkit import CHROMIUM

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("sqlalchemy")

from eventservers import postgres_reason, start_server, stop_server
from playwright.sync_api import expect
from test_event import BUKE, KUGE, code_of, new_event

pytestmark = pytest.mark.browser

expect.set_options(timeout=30_000)

PLAYERS = ["Aiko", "Bo", "Chen", "Dai", "Emi", "Fumio", "Gin", "Hana", "Isamu"]


@pytest.fixture(scope="module")
def cluster(pg_cluster):
    return pg_cluster


class Day:
    """The servers of one event, and a browser tab per person, each with its own cookies."""

    def __init__(self, browser, urls: list[str]):
        self.browser, self.urls = browser, urls
        self.errors: list[str] = []
        self.contexts: list = []

    def tab(self, url: str):
        ctx = self.browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        self.contexts.append(ctx)
        pg = ctx.new_page()
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        pg.on("console", lambda m: self.errors.append(m.text) if "Content Security Policy" in m.text else None)
        pg.on("response", lambda r: self.errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
        return pg

    def player(self, i: int, link: str):
        """Player ``i``'s tab, signed in with their link on server ``i mod servers``."""
        url = self.urls[i % len(self.urls)]
        pg = self.tab(url)
        pg.goto(url + "/submit?token=" + link.split("token=")[1])
        expect(pg).to_have_url(url + "/submit")
        return pg

    def own_page(self, pg):
        pg.goto(pg.url.split("/submit")[0] + "/submit")
        return pg

    def close(self):
        for c in self.contexts:
            c.close()


def qr_of(pg, selector: str) -> str:
    """The text of the QR code drawn in ``selector``, read from a screenshot of it."""
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    png = pg.locator(selector).screenshot()
    with Image.open(io.BytesIO(png)) as im:
        found = [r.text for r in zxingcpp.read_barcodes(im.convert("L"))]
    assert len(found) == 1, found
    return found[0]


DROPS = "Isamu"  # drops after round 1


def table_rows(org, n: int) -> list[tuple[int, str, str | None]]:
    """The pairings of round ``n`` as the organiser's page shows them: (table, a, b or None)."""
    out = []
    for r in org.locator(f"#round-{n} tbody tr").all():
        cells = [c.inner_text() for c in r.locator("td").all()[:3]]
        out.append((int(cells[0]), cells[1], None if cells[2] == "—" else cells[2]))
    return out


def play_rounds(day: Day, org, tabs: dict, shots, tag: str) -> list[tuple[int, str, str | None, str]]:
    """Three rounds paired on the organiser's page and played: each game's first player wins but
    at one table a round, where the second does; at round 1's first table the loser disputes the
    entered result and the organiser enters the right one; at round 2's first table the organiser
    confirms the entry. The games: ``(round, a, b, outcome)``."""
    games = []
    org.goto(day.urls[0] + "/organiser/day")
    for n in (1, 2, 3):
        org.click("#pair")
        expect(org.locator(f"#round-{n} tbody tr").first).to_be_visible()
        pairs = table_rows(org, n)
        active = [p for t in pairs for p in t[1:] if p]
        assert len(active) == len(set(active)) == (9 if n == 1 else 8)  # each paired once; the one who dropped is not
        assert DROPS not in active or n == 1
        assert sum(b is None for _t, _a, b in pairs) == (1 if n == 1 else 0)  # a bye for the odd one out
        if n == 1:
            org.click(".sheet-link")
            expect(org.locator("#sheet tbody tr")).to_have_count(5)
            shots(org, f"day-{tag}-5-pairings-sheet.png", full_page=True)
            org.go_back()
        for k, (table, a, b) in enumerate(pairs):
            if b is None:
                games.append((n, a, None, "bye"))
                continue
            upset = k == len(pairs) - 1
            winner, loser = (b, a) if upset else (a, b)
            enter(day, tabs[winner], n, "me", 10 + k, 3)
            if n == 1 and k == 0:  # the loser disputes; the organiser enters the right result
                dispute(day, tabs[loser], n, "I conceded nothing: we drew")
                shots(tabs[loser], f"day-{tag}-6a-player-disputes.png", full_page=True)
                org.reload()
                expect(org.locator("#disputes")).to_contain_text("I conceded nothing")
                shots(org, f"day-{tag}-6-dispute.png", full_page=True)
                row = org.locator(f"#round-{n} tr[data-table='{table}']")
                row.locator("select[name=outcome]").select_option("draw")
                row.locator("input[name=score_a]").fill("7")
                row.locator("input[name=score_b]").fill("7")
                row.locator(".enter-result").click()
                expect(org.locator(f"#round-{n} tr[data-table='{table}'] td.state")).to_have_text("confirmed")
                expect(org.locator("#disputes")).to_have_count(0)
                games.append((n, a, b, "draw"))
                continue
            if n == 2 and k == 0:  # confirmed by the organiser
                org.reload()
                org.locator(f"#round-{n} tr[data-table='{table}'] .confirm-result").click()
                expect(org.locator(f"#round-{n} tr[data-table='{table}'] td.state")).to_have_text("confirmed")
            else:
                confirm(day, tabs[loser], n)
            games.append((n, a, b, "b" if upset else "a"))
        if n == 1:  # Isamu drops: asked first
            org.reload()
            org.select_option("#drop-player", DROPS)
            org.click("#drop")
            expect(org.locator("#confirm-text")).to_contain_text("the games they played are kept")
            org.click("#confirm")
            expect(org.locator(f"#standings tr[data-player='{DROPS}']")).to_contain_text("(dropped)")
        org.goto(day.urls[0] + "/organiser/day")
        expect(org.locator(f"#round-{n} td.state", has_text="no result yet")).to_have_count(0)
        expect(org.locator(f"#round-{n} td.state", has_text="to confirm")).to_have_count(0)
    return games


def enter(day: Day, pg, n: int, outcome: str, mine: int, theirs: int) -> None:
    day.own_page(pg)
    game = pg.locator(f"#game-{n}")
    game.locator(f"input[name=outcome][value={outcome}]").check()
    game.locator("input.mine").fill(str(mine))
    game.locator("input.theirs").fill(str(theirs))
    game.locator(".enter-result").click()
    expect(pg.locator(f"#game-{n} .state")).to_have_text("to confirm")


def confirm(day: Day, pg, n: int) -> None:
    day.own_page(pg)
    expect(pg.locator(f"#game-{n} .state")).to_have_text("to confirm")
    pg.locator(f"#game-{n} .confirm-result").click()
    expect(pg.locator(f"#game-{n} .state")).to_have_text("confirmed")


def dispute(day: Day, pg, n: int, why: str) -> None:
    day.own_page(pg)
    pg.locator(f"#game-{n} input[name=reason]").fill(why)
    pg.locator(f"#game-{n} .dispute-result").click()
    expect(pg.locator(f"#game-{n} .state")).to_have_text("disputed")
    expect(pg.locator(f"#game-{n} .notice")).to_have_text(f"You dispute it: “{why}”. The organiser decides.")


def recomputed(games) -> dict[str, int]:
    """Each player's points from the games as entered: 3 a win or a bye, 1 a draw, 0 a loss."""
    pts = dict.fromkeys(PLAYERS, 0)
    for _n, a, b, outcome in games:
        if outcome == "bye":
            pts[a] += 3
        elif outcome == "draw":
            pts[a] += 1
            pts[str(b)] += 1
        else:
            pts[a if outcome == "a" else str(b)] += 3
    return pts


def lists_for(name: str, i: int) -> str:
    """Each player's list: one of the rulebook's sample hosts, named after its player."""
    base = BUKE if i % 2 == 0 else KUGE
    named = re.sub(r"^name: .*$", f"name: {name}'s host", base, count=1, flags=re.M)
    assert named != base
    return named


def run_day(browser, shots, tmp_path, cli, database, servers: int) -> None:
    tag = "pg" if database else "sqlite"
    folder = str(tmp_path / "day")
    org_token = new_event(cli, folder, database)
    procs = [start_server(folder) for _ in range(servers)]
    day = Day(browser, [u for _p, u in procs])
    try:
        # -- the organiser adds the nine players on the page ----------------------------------
        org = day.tab(day.urls[0])
        org.goto(f"{day.urls[0]}/organiser?token={org_token}")
        org.fill("#names", "\n".join(PLAYERS))
        org.click("#add-players")
        expect(org.locator(".slip")).to_have_count(9)
        links = {
            org.locator(".slip").nth(i).get_attribute("data-player"): org.locator(".slip code.link").nth(i).inner_text()
            for i in range(9)
        }
        assert list(links) == PLAYERS
        assert qr_of(org, ".slip[data-player='Aiko'] .qr") == links["Aiko"]  # the QR code is the link
        shots(org, f"day-{tag}-1-handout.png", full_page=True)
        org.click("#back")
        expect(org.locator("#tally")).to_have_text("9 players: 0 in, 0 late, 9 missing; 0 illegal")

        # -- the players hand in; some fix their list with Check only first --------------------
        tabs = {}
        for i, name in enumerate(PLAYERS):
            pg = tabs[name] = day.player(i, links[name])
            expect(pg.locator("h1")).to_have_text(name)
            mine = lists_for(name, i)
            if i < 3:  # built to the wrong points: checked, fixed in the box, checked again, handed in
                wrong = mine.replace("points: 200", "points: 150")
                assert wrong != mine
                pg.fill("#text", wrong)
                pg.click("#check-only")
                expect(pg.locator("#verdict")).to_contain_text("Checked, not handed in: ILLEGAL")
                expect(pg.locator("#text")).to_have_value(wrong)
                expect(pg.locator("#result .findings")).to_contain_text("this event plays points 200")
                if i == 0:
                    shots(pg, f"day-{tag}-2-check-only.png", full_page=True)
                pg.fill("#text", mine)
                pg.click("#check-only")
                expect(pg.locator("#verdict")).to_have_text("Checked, not handed in: legal")
                pg.click("#hand-in")
            else:
                pg.fill("#text", code_of(mine) if i % 3 == 0 else mine)
                pg.click("#hand-in")
            expect(pg.locator("#verdict")).to_have_text("Version 1: legal")
            expect(pg.locator("#stored-text")).to_contain_text(f"{name}'s host")
        org.goto(day.urls[0] + "/organiser")
        expect(org.locator("#tally")).to_have_text("9 players: 9 in, 0 late, 0 missing; 0 illegal")

        # -- lock and reveal, each confirmed first --------------------------------------------
        org.click("#lock")
        expect(org.locator("h1")).to_have_text("Lock the event?")
        org.click("#confirm")
        expect(org.locator("#phase")).to_have_text("locked")
        org.click("#reveal")
        expect(org.locator("#confirm-text")).to_contain_text("cannot be undone")
        org.click("#confirm")
        expect(org.locator("#phase")).to_have_text("revealed")

        # -- a revealed list reads as text, with its code and link ----------------------------
        pub = day.tab(day.urls[-1])
        pub.goto(day.urls[-1] + "/")
        pub.get_by_role("link", name="list").nth(1).click()
        expect(pub.locator("#list-text")).to_contain_text("Bo's host")
        expect(pub.locator("#share-code")).to_contain_text("DMY")
        pub.click("#share-link")  # the viewer's page of the code
        expect(pub.locator("h1")).to_have_text("Bo's host")
        shots(pub, f"day-{tag}-3-revealed.png", full_page=True)

        shots(org, f"day-{tag}-4-organiser.png", full_page=True)

        # -- three rounds: paired, results entered and confirmed, a dispute, a drop ------------
        games = play_rounds(day, org, tabs, shots, tag)
        org.click("#standings-link")
        expect(org.locator("#standings tbody tr")).to_have_count(9)
        shots(org, f"day-{tag}-7-standings.png", full_page=True)
        rows = [
            (
                r.get_attribute("data-player"),
                int(r.locator("td").nth(0).inner_text()),
                int(r.locator("td.points").inner_text()),
                r.locator("td").nth(1).inner_text(),
            )
            for r in org.locator("#standings tbody tr").all()
        ]
        expected = recomputed(games)
        assert {n: pts for n, _rank, pts, _shown in rows} == expected
        assert [pts for _n, _rank, pts, _shown in rows] == sorted(expected.values(), reverse=True)
        assert [rank for _n, rank, _pts, _shown in rows] == sorted(rank for _n, rank, _pts, _shown in rows)
        assert [shown for n, _rank, _pts, shown in rows if n == DROPS] == [f"{DROPS} (dropped)"]
        expect(org.locator("#after")).to_contain_text("after 3 rounds")
        expect(org.locator("#after")).not_to_contain_text("still to confirm")
        assert day.errors == []
    finally:
        day.close()
        for p, _u in procs:
            stop_server(p)


@pytest.mark.slow  # a journey in the browser, with server processes
def test_an_event_day_on_sqlite(browser, shots, tmp_path, cli):
    run_day(browser, shots, tmp_path, cli, None, servers=1)


@pytest.mark.slow  # a journey in the browser, a PostgreSQL server and two event servers
def test_an_event_day_on_postgresql_with_two_servers(browser, shots, tmp_path, cli, cluster):
    if cluster is None:
        pytest.skip(postgres_reason())
    run_day(browser, shots, tmp_path, cli, cluster.new_database(migrated=True), servers=2)


@pytest.mark.slow  # a journey in the browser
def test_a_player_drops_themselves_on_their_page_after_confirming(browser, shots, tmp_path, cli):
    """Round 1 is being played; Aiko drops on her page: a stray first press only asks, the
    confirmation drops her, her game of round 1 stays, and the organiser's day page says she
    dropped herself."""
    from test_event import Server
    from test_event_day import new_day

    from builder.event import day as event_day
    from builder.event.store import Event

    folder = str(tmp_path / "drop")
    tokens = new_day(cli, folder, None, ("Aiko", "Bo", "Chen", "Dai"))
    org_token = cli("event", "token", folder, "--organiser").stdout.split("token=")[1].strip()
    ev = Event.open(folder)
    event_day.pair(ev)
    server = Server(folder)
    days = Day(browser, [server.url])
    try:
        aiko = days.player(0, f"{server.url}/submit?token={tokens['Aiko']}")
        expect(aiko.locator("#drop-self h2")).to_have_text("Drop from the event")
        aiko.click("#drop-me")
        expect(aiko.locator("h1")).to_have_text("Drop from the event?")
        expect(aiko.locator("#confirm-text")).to_contain_text("A round being played is not changed")
        shots(aiko, "drop-1-player-asked.png", full_page=True)
        assert event_day.dropped_players(ev) == {}  # the first press only asks
        aiko.click("#cancel")
        expect(aiko).to_have_url(server.url + "/submit")
        aiko.click("#drop-me")
        aiko.click("#confirm")
        expect(aiko).to_have_url(server.url + "/submit")
        expect(aiko.locator("#dropped")).to_have_text(
            "You dropped from the event after round 1: you are paired in no round from now on."
        )
        expect(aiko.locator("#drop-me")).to_have_count(0)
        expect(aiko.locator("#game-1")).to_be_visible()  # her game of round 1 is still hers to play
        shots(aiko, "drop-2-player-dropped.png", full_page=True)
        org = days.tab(server.url)
        org.goto(f"{server.url}/organiser?token={org_token}")
        org.goto(server.url + "/organiser/day")
        expect(org.locator("#standings tr[data-player='Aiko']")).to_contain_text("Aiko (dropped by themselves)")
        expect(org.locator("#drop-player option")).to_have_count(3)
        shots(org, "drop-3-organiser-day.png", full_page=True)
        assert event_day.dropped_players(ev)["Aiko"]["by"] == "player Aiko"
        assert days.errors == []
    finally:
        days.close()
        server.stop()
