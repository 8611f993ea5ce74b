"""The organiser's page does what the command line does (players with their links and QR codes,
new links, the deadline, exports, the backup, the book), and the players' page checks a list
without handing it in and shows revealed lists as a person reads them. Over real HTTP, on SQLite
(the whole flow runs on PostgreSQL in the browser test)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from plainhttp import no_tls
from test_event import BUKE, TOO_MANY_ARCHERS, Server, csrf_of, new_event, pdf_text

from builder.errors import UsageError
from builder.event.store import CHECKS_PER_MINUTE, CLI, Event
from builder.limits import MAX_VIEWER_CODE_CHARS


@pytest.fixture
def site(tmp_path, cli):
    folder = str(tmp_path / "league")
    org = new_event(cli, folder, None)
    server = Server(folder)
    yield {"folder": folder, "org": org, "server": server}
    server.stop()


def browser_of(srv, link: str | None = None) -> httpx.Client:
    """A client keeping cookies, signed in with ``link`` (a player's or the organiser's)."""
    c = httpx.Client(base_url=srv.url, timeout=60, verify=no_tls())
    if link:
        r = c.get(link.split("8770", 1)[-1] if "8770" in link else link, follow_redirects=False)
        assert r.status_code == 303, r.text
    return c


def organiser(site) -> tuple[httpx.Client, str]:
    c = browser_of(site["server"], f"/organiser?token={site['org']}")
    page = c.get("/organiser")
    assert page.status_code == 200
    return c, csrf_of(page.text)


def refusal(r) -> str:
    """The one line a refused form's page says."""
    m = re.search(r'id="refused">([^<]*)<', r.text)
    assert m, r.text[:500]
    return m.group(1).replace("&#39;", "'").replace("&amp;", "&")


def add(org, csrf, *names) -> dict[str, str]:
    r = org.post("/organiser/players", data={"csrf": csrf, "names": "\n".join(names)})
    assert r.status_code == 200, r.text
    slips = re.findall(
        r'<section class="slip" data-player="([^"]+)">.*?<code class="link">([^<]+)</code>', r.text, re.S
    )
    assert [n for n, _ in slips] == [n.strip() for n in names]
    assert r.text.count("<svg") == len(names)  # a QR code each (read back in the browser test)
    return dict(slips)


def path_of(link: str) -> str:
    return "/" + link.split("/", 3)[3]


def test_the_organiser_adds_and_removes_players_and_gives_new_links(site):
    org, csrf = organiser(site)
    links = add(org, csrf, "Aiko", "  Bo  ")
    # each link signs its player in
    aiko = browser_of(site["server"], path_of(links["Aiko"]))
    assert re.search(r"<h1>Aiko</h1>", aiko.get("/submit").text)
    board = org.get("/organiser").text
    assert 'data-player="Aiko"' in board and 'data-player="Bo"' in board
    assert "player-added" in board
    # a name given again, or none: one line, 4xx
    r = org.post("/organiser/players", data={"csrf": csrf, "names": "Aiko"})
    assert r.status_code == 400 and refusal(r).startswith("player 'Aiko' is in the event already")
    r = org.post("/organiser/players", data={"csrf": csrf, "names": " \n "})
    assert r.status_code == 422 and refusal(r).startswith("no player named")
    r = org.post("/organiser/players", data={"csrf": csrf, "names": "x" * 81})
    assert r.status_code == 400 and "give 1 to 80 characters" in refusal(r)
    r = org.post("/organiser/players", data={"csrf": "forged", "names": "Mallory"})
    assert r.status_code == 403 and "out of date or from another site" in refusal(r)
    # a new link for Bo: asked first, then the old link no longer works and the new one does
    r = org.post("/organiser/player-token", data={"csrf": csrf, "player": "Bo"})
    assert r.status_code == 200 and "old link stops working at once" in r.text
    r = org.post("/organiser/player-token", data={"csrf": csrf, "player": "Bo", "confirm": "player-token"})
    assert r.status_code == 200 and r.text.count("<svg") == 1
    new_bo = re.search(r'<code class="link">([^<]+)</code>', r.text).group(1)
    assert new_bo != links["Bo"]
    old = browser_of(site["server"]).get(path_of(links["Bo"]), follow_redirects=False)
    assert old.status_code == 403
    assert browser_of(site["server"], path_of(new_bo)).get("/submit").status_code == 200
    # Aiko removed: asked first, then her link is refused
    r = org.post("/organiser/remove", data={"csrf": csrf, "player": "Aiko"})
    assert r.status_code == 200 and "Remove Aiko?" in r.text
    assert aiko.get("/submit").status_code == 200  # not yet
    r = org.post("/organiser/remove", data={"csrf": csrf, "player": "Aiko", "confirm": "remove"}, follow_redirects=True)
    assert r.status_code == 200 and "player-removed" in r.text
    assert aiko.get("/submit").status_code == 403
    r = org.post("/organiser/remove", data={"csrf": csrf, "player": "Aiko", "confirm": "remove"})
    assert r.status_code == 400 and "no player 'Aiko' in the event" in refusal(r)
    assert "daimyo event" not in refusal(r)  # no command to run: the organiser may have no shell
    r = org.post("/organiser/remove", data={"csrf": csrf, "player": " "})
    assert r.status_code == 422 and refusal(r).startswith("name the player")
    r = org.post("/organiser/delete-everything", data={"csrf": csrf})
    assert r.status_code == 404


def test_the_organiser_replaces_their_own_link(site):
    org, csrf = organiser(site)
    r = org.post("/organiser/organiser-token", data={"csrf": csrf})
    assert r.status_code == 200 and "old link stops working" in r.text  # asked first
    r = org.post("/organiser/organiser-token", data={"csrf": csrf, "confirm": "organiser-token"})
    assert r.status_code == 200
    link = re.search(r'id="organiser-link">([^<]+)<', r.text).group(1)
    assert org.get("/organiser").status_code == 200  # this browser holds the new token
    assert browser_of(site["server"]).get(f"/organiser?token={site['org']}").status_code == 403
    assert browser_of(site["server"], path_of(link)).get("/organiser").status_code == 200


def test_the_deadline_is_set_and_cleared_on_the_page(site, cli):
    org, csrf = organiser(site)
    r = org.post("/organiser/deadline", data={"csrf": csrf, "deadline": "2031-03-04T18:30"}, follow_redirects=True)
    assert r.status_code == 200 and "deadline 2031-03-04 18:30 UTC" in r.text
    assert 'value="2031-03-04T18:30"' in r.text
    r = org.post("/organiser/deadline", data={"csrf": csrf, "deadline": "next tuesday"})
    assert r.status_code == 400 and refusal(r).startswith("deadline: 'next tuesday' is not a time")
    r = org.post("/organiser/deadline", data={"csrf": csrf, "deadline": ""}, follow_redirects=True)
    assert r.status_code == 200 and "deadline 20" not in r.text
    log = cli("event", "log", site["folder"]).stdout
    assert "deadline-set  2031-03-04T18:30:00.000000Z" in log and "deadline-set  none" in log
    # a deadline past the reveal is refused
    folder2 = site["folder"] + "-2"
    new_event(cli, folder2, None, "--reveal", "2031-01-01T00:00")
    with pytest.raises(UsageError, match="is after the reveal"):
        Event.open(folder2).set_deadline("2031-02-01T00:00", CLI)
    assert Event.open(folder2).set_deadline("2030-12-31T23:00", CLI) == "2030-12-31T23:00:00.000000Z"


def test_exports_backup_and_book_from_the_page(site, cli, tmp_path):
    org, csrf = organiser(site)
    links = add(org, csrf, "Aiko", "Bo", "Chen")
    for name, host in (("Aiko", "Crane host"), ("Bo", "Heron host")):
        p = browser_of(site["server"], path_of(links[name]))
        page = p.get("/submit").text
        r = p.post("/submit", data={"csrf": csrf_of(page), "text": BUKE.replace("Buke vanguard", host)})
        assert "Version 1: legal" in r.text
    r = org.post("/organiser/export", data={"csrf": csrf, "format": "csv"})
    assert r.status_code == 200 and 'filename="event.csv"' in r.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [(x["player"], x["status"], x["verdict"]) for x in rows] == [
        ("Aiko", "in", "legal"),
        ("Bo", "in", "legal"),
        ("Chen", "missing", ""),
    ]
    assert all(x["fingerprint"] == "" for x in rows)  # sealed until the reveal
    r = org.post("/organiser/export", data={"csrf": csrf, "format": "json"})
    assert [x["player"] for x in json.loads(r.text)] == ["Aiko", "Bo", "Chen"]
    r = org.post("/organiser/export", data={"csrf": csrf, "format": "xlsx"})
    assert r.status_code == 422 and refusal(r).startswith("unknown format 'xlsx'")
    # the backup restores as the same event
    r = org.post("/organiser/backup", data={"csrf": csrf})
    assert r.status_code == 200 and 'filename="event-backup.json"' in r.headers["content-disposition"]
    (tmp_path / "backup.json").write_bytes(r.content)
    restored = cli("event", "restore", tmp_path / "backup.json", tmp_path / "again")
    assert restored.code == 0 and "(2 submissions)" in restored.stdout
    # the book: after the reveal only
    r = org.post("/organiser/book", data={"csrf": csrf})
    assert r.status_code == 409 and refusal(r).startswith("the lists are sealed until the reveal")
    org.post("/organiser/reveal", data={"csrf": csrf, "confirm": "reveal"})
    r = org.post("/organiser/book", data={"csrf": csrf, "paper": "legal"})
    assert r.status_code == 422 and refusal(r).startswith("unknown paper 'legal'")
    r = org.post("/organiser/book", data={"csrf": csrf, "paper": "letter"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    (tmp_path / "book.pdf").write_bytes(r.content)
    text = pdf_text(tmp_path / "book.pdf")
    assert text.startswith("Autumn <b>league</b>")  # titled with the event's name
    assert re.search(r"Player\s*Aiko\b", text) and re.search(r"Player\s*Bo\b", text)  # each player on their page
    r = org.post("/organiser/book", data={"csrf": csrf, "anonymous": "1"})
    (tmp_path / "anon.pdf").write_bytes(r.content)
    anon = pdf_text(tmp_path / "anon.pdf")
    assert anon.startswith("Autumn <b>league</b>") and "Aiko" not in anon and "Heron host" in anon


def test_check_only_keeps_the_text_and_hands_nothing_in(site, cli):
    org, csrf = organiser(site)
    links = add(org, csrf, "Aiko")
    p = browser_of(site["server"], path_of(links["Aiko"]))
    page = p.get("/submit").text
    r = p.post("/submit", data={"csrf": csrf_of(page), "text": TOO_MANY_ARCHERS, "action": "check"})
    assert r.status_code == 200
    assert re.search(r'id="verdict">Checked, not handed in: ILLEGAL \(2 errors\)<', r.text)
    assert "kensei.ranged-max" in r.text
    box = re.search(r'<textarea id="text" name="text"[^>]*>(.*?)</textarea>', r.text, re.S).group(1)
    assert "models: 9" in box  # the pasted text stays, to be fixed
    assert 'id="history"' not in r.text and "commitment" not in r.text.split('id="submit-form"')[0]
    fixed = box.replace("models: 9", "models: 4").replace("&#34;", '"').replace("&#39;", "'")
    r = p.post("/submit", data={"csrf": csrf_of(page), "text": fixed, "action": "check"})
    assert re.search(r'id="verdict">Checked, not handed in: legal<', r.text)
    r = p.post("/submit", data={"csrf": csrf_of(page), "text": fixed})
    assert re.search(r'id="verdict">Version 1: legal<', r.text)  # the first list handed in
    log = cli("event", "log", site["folder"]).stdout
    assert log.count("list-checked") == 2 and log.count("list-submitted") == 1
    # an empty box: one line, 422, nothing logged
    r = p.post("/submit", data={"csrf": csrf_of(page), "text": "", "action": "check"})
    assert r.status_code == 422 and "the list is empty" in r.text


def test_check_only_takes_at_most_its_number_a_minute(site):
    org, csrf = organiser(site)
    links = add(org, csrf, "Aiko")
    p = browser_of(site["server"], path_of(links["Aiko"]))
    csrf_p = csrf_of(p.get("/submit").text)
    small = BUKE
    for i in range(CHECKS_PER_MINUTE):
        r = p.post("/submit", data={"csrf": csrf_p, "text": small, "action": "check"})
        assert r.status_code == 200, (i, r.text[:300])
    r = p.post("/submit", data={"csrf": csrf_p, "text": small, "action": "check"})
    assert r.status_code == 429 and f"{CHECKS_PER_MINUTE} lists checked this last minute" in r.text
    assert "models: 4" in r.text  # the text is kept on the refusal too
    # handing in is counted apart
    r = p.post("/submit", data={"csrf": csrf_p, "text": small})
    assert r.status_code == 200 and "Version 1: legal" in r.text


def test_a_revealed_list_reads_as_text_with_its_code_link_and_pdf(site, tmp_path):
    org, csrf = organiser(site)
    links = add(org, csrf, "Aiko")
    p = browser_of(site["server"], path_of(links["Aiko"]))
    r = p.post("/submit", data={"csrf": csrf_of(p.get("/submit").text), "text": BUKE})
    assert "Version 1: legal" in r.text
    assert re.search(r'<pre id="stored-text">Buke vanguard \(rulebook sample\) - Kensei', r.text)  # her own, as text
    org.post("/organiser/reveal", data={"csrf": csrf, "confirm": "reveal"})
    anyone = browser_of(site["server"])
    sid = re.search(r'href="/lists/(\d+)"', anyone.get("/").text).group(1)
    page = anyone.get(f"/lists/{sid}").text
    text = re.search(r'<pre id="list-text">(.*?)</pre>', page, re.S).group(1)
    assert text.startswith("Buke vanguard (rulebook sample) - Kensei - clan Buke - 200/200 AP")
    assert "5x Samurai Yari (25)" in text and "{" not in text  # read as a person reads it, not JSON
    code = re.search(r'id="share-code">([^<]+)<', page).group(1)
    assert code.startswith("DMY")
    from builder import export

    assert export(code, to="text") == export(BUKE, to="text")  # the code is the list
    link = re.search(r'id="share-link" href="([^"]+)"', page).group(1)
    assert link == f"/v/{code}"
    shared = anyone.get(link)  # the viewer's page of the code
    assert (
        shared.status_code == 200
        and "5 × Samurai Yari" in shared.text
        and 'class="verdict v-legal">legal</span>' in shared.text
    )
    pdf = anyone.get(f"/lists/{sid}/list.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    (tmp_path / "list.pdf").write_bytes(pdf.content)
    assert "Samurai Yari" in pdf_text(tmp_path / "list.pdf")
    assert anyone.get("/lists/999/list.pdf").status_code == 404


def viewer_of(srv):
    """The stateless viewer's application, its links made for the event server's address."""
    from fastapi.testclient import TestClient

    from builder.viewer.app import make_app

    return TestClient(make_app(base=srv.url), raise_server_exceptions=False)


def test_a_share_codes_list_on_the_event_server_is_the_viewers_page(site):
    from builder import export

    srv = site["server"]
    anyone = browser_of(srv)
    code = export(BUKE, to="code")
    with viewer_of(srv) as viewer:
        for path, headers in (
            (f"/v/{code}", {}),
            (f"/v/{code}", {"Accept-Language": "fr-FR,fr;q=0.9"}),
            (f"/v/{code}", {"Accept-Language": "ja"}),
            (f"/v/{code}/table", {}),
            (f"/v/{code}/list.yaml", {}),
        ):
            ours, theirs = anyone.get(path, headers=headers), viewer.get(path, headers=headers)
            assert (ours.status_code, theirs.status_code) == (200, 200), path
            assert ours.text == theirs.text, (path, headers)  # the same verdict, table, links and language
            assert ours.headers.get_list("content-security-policy") == [theirs.headers["content-security-policy"]]
            assert ours.headers["content-type"] == theirs.headers["content-type"]
        page = anyone.get(f"/v/{code}").text
        assert f'href="/v/{code}/list.pdf"' in page and f'href="{srv.url}/v/{code}"' in page
        pdf = anyone.get(f"/v/{code}/list.pdf")
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        assert anyone.head(f"/v/{code}").status_code == 200  # a link preview's request
        assert anyone.get("/").headers["content-security-policy"].startswith("default-src 'none'; style-src 'self'")


@pytest.mark.parametrize(
    ("bad", "status", "words"),
    [
        ("garbage", 400, "This is not a link to a list"),
        ("DMY1-" + "A" * 40, 400, "This list cannot be read"),
        ("DMY1-" + "A" * (MAX_VIEWER_CODE_CHARS - 4), 400, "This link is too long"),
    ],
)
def test_a_bad_share_code_is_refused_in_the_viewers_words(site, bad, status, words):
    srv = site["server"]
    with viewer_of(srv) as viewer:
        ours, theirs = browser_of(srv).get(f"/v/{bad}"), viewer.get(f"/v/{bad}")
    assert ours.status_code == theirs.status_code == status
    assert f"<h1>{words}</h1>" in ours.text and ours.text == theirs.text


def test_every_form_error_is_a_4xx_page(site):
    """Forms posted without their fields, with forged tokens or odd values: never a 500."""
    org, csrf = organiser(site)
    add(org, csrf, "Aiko")
    anyone = browser_of(site["server"])
    for path in (
        "/organiser/players",
        "/organiser/remove",
        "/organiser/player-token",
        "/organiser/organiser-token",
        "/organiser/deadline",
        "/organiser/export",
        "/organiser/backup",
        "/organiser/book",
        "/organiser/lock",
    ):
        for client, data in (
            (anyone, {}),
            (org, {}),
            (org, {"csrf": csrf, "player": "\x00" * 3, "deadline": "9" * 40, "format": "\n", "paper": "x" * 500}),
            (org, {"csrf": csrf, "names": "a\x00b", "deadline": "99999-01-01"}),
        ):
            r = client.post(path, data=data)
            assert 400 <= r.status_code < 500 or r.status_code in (200, 303), (path, data, r.status_code)
            assert r.status_code != 500


# -- the day on the pages ------------------------------------------------------------------------


def day_rows(html: str, n: int) -> list[tuple[int, str, str | None, str]]:
    """Round ``n``'s tables on the organiser's day page: (table, a, b or None, state)."""
    part = html.split(f'id="round-{n}"', 1)[1].split("</table>", 1)[0]
    return [
        (int(t), a, None if b == "—" else b, state)
        for t, state, a, b in re.findall(
            r'<tr data-table="(\d+)" class="state-(\w+)">\s*<td>\d+</td><td>([^<]*)</td><td>([^<]*)</td>', part
        )
    ]


@pytest.fixture
def paired(site):
    """Five players, round 1 paired on the organiser's page: the organiser's client and CSRF
    token, each player's signed-in client, and round 1's tables."""
    org, csrf = organiser(site)
    links = add(org, csrf, "Aiko", "Bo", "Chen", "Dai", "Emi")
    r = org.post("/organiser/pair", data={"csrf": csrf}, follow_redirects=True)
    assert r.status_code == 200
    tables = day_rows(r.text, 1)
    assert sorted(p for t in tables for p in t[1:3] if p) == ["Aiko", "Bo", "Chen", "Dai", "Emi"]
    assert [t[2] for t in tables].count(None) == 1  # one bye
    players = {n: browser_of(site["server"], path_of(link)) for n, link in links.items()}
    return {"org": org, "csrf": csrf, "players": players, "tables": [t for t in tables if t[2] is not None]}


def own_csrf(client) -> str:
    return csrf_of(client.get("/submit").text)


def test_players_enter_confirm_and_dispute_results_on_their_page(paired):
    (t1, a1, b1, _), (t2, a2, b2, _) = paired["tables"]
    pa, pb = paired["players"][a1], paired["players"][b1]
    page = pa.get("/submit").text
    assert f"Round 1, table {t1}: against {b1}" in page
    assert "my victory points" in page and f"{b1}’s victory points" in page  # Kensei's own score
    form = {"csrf": csrf_of(page), "round": "1", "table": str(t1)}
    # what a form may get wrong: one line each, 4xx
    for data, status, why in (
        ({"outcome": "maybe"}, 422, "choose who won, or a draw"),
        ({"outcome": "me", "mine": "3"}, 422, "give both scores, or neither"),
        ({"outcome": "me", "mine": "x", "theirs": "1"}, 422, "a score: give a whole number from 0 to 100000"),
        ({"outcome": "me", "mine": "100001", "theirs": "1"}, 422, "a score: give a whole number from 0 to 100000"),
        ({"outcome": "me", "table": "0"}, 422, "the table: give a whole number from 1 to 1000000"),
        ({"outcome": "me", "table": "1000001"}, 422, "the table: give a whole number from 1 to 1000000"),
        ({"outcome": "me", "table": "1000000"}, 404, "round 1 has no table 1000000"),
        ({"outcome": "me", "table": str(t2)}, 403, "you do not play at this table"),
        ({"outcome": "me", "round": "2"}, 404, "no round 2"),
    ):
        r = pa.post("/submit/result", data={**form, **data})
        assert (r.status_code, refusal(r)[: len(why)]) == (status, why), data
    # Aiko's table: the first player enters that they won, 100000 to 0 (the most a score may be)
    r = pa.post("/submit/result", data={**form, "outcome": "me", "mine": "100000", "theirs": "0"})
    assert r.status_code == 303
    page = pa.get("/submit").text
    assert f"{a1} won 100000:0" in page and "Waiting for" in page and "confirm-result" not in page
    r = pa.post("/submit/confirm", data=form)
    assert r.status_code == 403 and "you entered this result" in refusal(r)
    # the opponent sees it and confirms it; then it is fixed
    page = pb.get("/submit").text
    assert f"{a1} won 100000:0" in page and "Confirm this result" in page
    assert pb.post("/submit/confirm", data={**form, "csrf": csrf_of(page)}).status_code == 303
    page = pb.get("/submit").text
    assert re.search(r'class="state">confirmed<', page) and "enter-result" not in page.split('id="game-1"')[1]
    r = pb.post("/submit/result", data={**form, "csrf": csrf_of(page), "outcome": "me"})
    assert r.status_code == 409 and "is confirmed: only the organiser changes it" in refusal(r)
    # the other table: the second player enters a draw, scores as they see them (theirs first);
    # the first disputes it, the organiser is shown the reason
    pa2, pb2 = paired["players"][a2], paired["players"][b2]
    form2 = {"round": "1", "table": str(t2)}
    r = pb2.post("/submit/result", data={**form2, "csrf": own_csrf(pb2), "outcome": "draw", "mine": "4", "theirs": "6"})
    assert r.status_code == 303
    assert "draw 6:4" in pa2.get("/submit").text  # the table's first player's score first
    r = pa2.post("/submit/dispute", data={**form2, "csrf": own_csrf(pa2), "reason": " "})
    assert r.status_code == 422 and refusal(r).startswith("say what is wrong with the result")
    r = pa2.post("/submit/dispute", data={**form2, "csrf": own_csrf(pa2), "reason": "I won <easily>"})
    assert r.status_code == 303
    day_page = paired["org"].get("/organiser/day").text
    assert 'id="disputes"' in day_page and "I won &lt;easily&gt;" in day_page
    r = pa2.post("/submit/confirm", data={**form2, "csrf": "forged"})
    assert r.status_code == 403 and "out of date or from another site" in refusal(r)


def test_the_organiser_runs_the_day_on_the_page(paired, site):
    org, csrf = paired["org"], paired["csrf"]
    # round 1 paired again while it has no result
    r = org.post("/organiser/pair", data={"csrf": csrf, "again": "1"}, follow_redirects=True)
    assert r.status_code == 200 and org.get("/organiser").text.count("<code>round-paired</code>") == 2
    tables = [t for t in day_rows(r.text, 1) if t[2] is not None]
    # round 2 waits for round 1's results
    r = org.post("/organiser/pair", data={"csrf": csrf})
    assert r.status_code == 409 and "round 1 is not over" in refusal(r)
    # the organiser enters one result (confirmed at once) and confirms a player's
    (t1, a1, b1, _), (t2, a2, b2, _) = tables
    r = org.post(
        "/organiser/result",
        data={"csrf": csrf, "round": "1", "table": str(t1), "outcome": "b", "score_a": "2", "score_b": "9"},
        follow_redirects=True,
    )
    assert (t1, a1, b1, "confirmed") in day_rows(r.text, 1) and f"{b1} won 2:9" in r.text
    p = paired["players"][a2]
    p.post("/submit/result", data={"csrf": own_csrf(p), "round": "1", "table": str(t2), "outcome": "me"})
    assert (t2, a2, b2, "entered") in day_rows(org.get("/organiser/day").text, 1)
    r = org.post(
        "/organiser/confirm-result", data={"csrf": csrf, "round": "1", "table": str(t2)}, follow_redirects=True
    )
    assert (t2, a2, b2, "confirmed") in day_rows(r.text, 1)
    for data, status, why in (
        ({"round": "1", "table": str(t1), "outcome": "nobody"}, 422, "choose the winner, or a draw"),
        ({"round": "1", "table": "99", "outcome": "a"}, 404, "round 1 has no table 99"),
        ({"round": "x", "table": "1", "outcome": "a"}, 422, "the round: give a whole number"),
    ):
        r = org.post("/organiser/result", data={"csrf": csrf, **data})
        assert (r.status_code, refusal(r)[: len(why)]) == (status, why), data
    # the pairings sheet and the standings, for anyone
    anyone = browser_of(site["server"])
    sheet = anyone.get("/rounds/1")
    assert sheet.status_code == 200 and "Autumn &lt;b&gt;league&lt;/b&gt;: round 1" in sheet.text
    assert f"<td>{a1}</td><td>{b1}</td><td>{b1} won 2:9</td>" in sheet.text
    assert anyone.get("/rounds/2").status_code == 404
    r = anyone.get("/rounds/x")
    assert r.status_code == 422 and refusal(r).endswith("(open the page again and use its form)")
    home = anyone.get("/").text
    assert '<a href="/rounds/1">round 1</a>' in home
    standings = anyone.get("/standings").text
    assert "after 1 round" in standings and re.search(rf'data-player="{b1}"><td>1</td>', standings)
    # a drop, asked first; round 2 pairs the four others
    dropped = a1
    r = org.post("/organiser/drop", data={"csrf": csrf, "player": dropped})
    assert "Drop " + dropped + "?" in r.text
    org.post("/organiser/drop", data={"csrf": csrf, "player": dropped, "confirm": "drop"})
    r = org.post("/organiser/drop", data={"csrf": csrf, "player": dropped, "confirm": "drop"})
    assert r.status_code == 409 and "dropped after round 1 already" in refusal(r)
    r = org.post("/organiser/pair", data={"csrf": csrf}, follow_redirects=True)
    r2 = day_rows(r.text, 2)
    assert len(r2) == 2 and dropped not in {p for t in r2 for p in t[1:3]} and all(t[2] for t in r2)
    # a swap by hand says which rules it breaks
    (_t, x, y, _s), (_u, z, _w, _v) = r2
    r = org.post("/organiser/swap", data={"csrf": csrf, "a": y, "b": z})
    assert r.status_code == 200 and 'id="warnings"' in r.text
    r = org.post("/organiser/swap", data={"csrf": csrf, "a": x, "b": " "})
    assert r.status_code == 422 and refusal(r).startswith("name the two players to swap")
    # the day's settings and a club
    r = org.post(
        "/organiser/settings",
        data={"csrf": csrf, "points": "2/1/0/2", "tiebreaks": "sos,diff", "avoid_club": "1", "swiss_rounds": "3"},
        follow_redirects=True,
    )
    assert (
        'value="2/1/0/2"' in r.text and 'value="sos,diff"' in r.text and 'name="avoid_club" value="1" checked' in r.text
    )
    for data, why in (
        ({"points": "3/1"}, "points '3/1'"),
        ({"tiebreaks": "luck"}, ""),
        ({"swiss_rounds": "31"}, "Swiss rounds: give a whole number from 1 to 30"),
        ({"top": "3", "swiss_rounds": "2"}, "top 3: a cut is 2, 4, 8"),
        ({"first_round": "alphabetical"}, "round 1 'alphabetical'"),
    ):
        r = org.post("/organiser/settings", data={"csrf": csrf, **data})
        assert r.status_code == 422 and refusal(r).startswith(why), (data, refusal(r))
    r = org.post("/organiser/club", data={"csrf": csrf, "player": x, "club": "Kyoto Dojo"}, follow_redirects=True)
    assert f"{x} (Kyoto Dojo)" in r.text
    r = org.post("/organiser/club", data={"csrf": csrf, "player": x, "club": "k" * 81})
    assert r.status_code == 422


def test_the_day_forms_never_answer_500(paired, site):
    org, csrf = paired["org"], paired["csrf"]
    p = next(iter(paired["players"].values()))
    odd = {
        "round": "\x00",
        "table": "-1",
        "outcome": "\n",
        "score_a": "1e9",
        "mine": "٣",
        "theirs": "³",
        "a": "x" * 500,
    }
    for client, path in (
        *((org, x) for x in ("/organiser/pair", "/organiser/result", "/organiser/confirm-result", "/organiser/swap")),
        *((org, x) for x in ("/organiser/settings", "/organiser/club", "/organiser/drop")),
        *((p, x) for x in ("/submit/result", "/submit/confirm", "/submit/dispute")),
    ):
        for data in ({}, {"csrf": "forged"}, {"csrf": csrf if client is org else own_csrf(p), **odd}):
            r = client.post(path, data=data)
            ok = 400 <= r.status_code < 500 or (path == "/organiser/settings" and r.status_code == 303)
            assert ok, (path, data, r.status_code, r.text[:200])
    assert org.get("/organiser/day").status_code == 200
    assert browser_of(site["server"]).get("/organiser/day").status_code == 401
    assert p.get("/organiser/day").status_code == 401
