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
from builder.event.web.app import MAX_CODE


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
    assert r.status_code == 400 and "player 'Aiko' is in the event already" in refusal(r)
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
    assert r.status_code == 400 and "deadline: 'next tuesday' is not a time" in refusal(r)
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
    shared = anyone.get(link)
    assert shared.status_code == 200 and "5x Samurai Yari (25)" in shared.text and "legal" in shared.text
    pdf = anyone.get(f"/lists/{sid}/list.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    (tmp_path / "list.pdf").write_bytes(pdf.content)
    assert "Samurai Yari" in pdf_text(tmp_path / "list.pdf")
    # what is not a code is refused in one line
    for bad, why in (
        ("garbage", "this is not a share code"),
        ("DMY1-" + "A" * 40, "this share code cannot be read here"),
        ("DMY1-" + "A" * (MAX_CODE - 5), "this share code cannot be read here"),
        ("DMY1-" + "A" * (MAX_CODE - 4), f"this share code is too long: at most {MAX_CODE:,} characters"),
    ):
        r = anyone.get(f"/v/{bad}")
        assert r.status_code == 400 and refusal(r).startswith(why), (bad[:20], r.status_code)
    assert anyone.get("/lists/999/list.pdf").status_code == 404


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
