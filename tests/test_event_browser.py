"""An event in a real browser (the system's Chromium driven by Playwright): the organiser's
dashboard, two players handing in lists on their pages (a pasted share code, an uploaded file,
a pick from a workspace zip), an illegal list fixed and handed in again, lock and reveal from
the dashboard (each confirmed on a page of its own), then the lists verified against their commitments and printed in the book.
On SQLite and on PostgreSQL. Screenshots go to ``$DAIMYO_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest
from browserkit import CHROMIUM

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("sqlalchemy")

from playwright.sync_api import expect
from test_event import (  # noqa: F401
    BUKE,
    KUGE,
    TOO_MANY_ARCHERS,
    Server,
    add_players,
    cluster,
    code_of,
    database,
    new_event,
    pdf_text,
)

pytestmark = pytest.mark.browser

expect.set_options(timeout=20_000)


def tab(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    pg.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 or r.status == 404 else None)
    return ctx, pg, errors


@pytest.mark.slow  # a journey in the browser
def test_an_event_from_invitation_to_book(browser, shots, tmp_path, cli, database):  # noqa: F811  (fixture of test_event)
    tag = "pg" if database else "sqlite"
    folder = str(tmp_path / "night")
    org = new_event(cli, folder, database)
    tok = add_players(cli, folder, "Aiko", "Bo", "Chen")
    srv = Server(folder)
    try:
        aiko_ctx, aiko, aiko_errors = tab(browser)
        aiko.goto(f"{srv.url}/submit?token={tok['Aiko']}")
        expect(aiko).to_have_url(f"{srv.url}/submit")  # the token left the address
        expect(aiko.locator("h1")).to_have_text("Aiko")
        aiko.fill("#text", code_of(BUKE))  # a share code, pasted
        aiko.click("#hand-in")
        expect(aiko.locator("#verdict")).to_have_text("Version 1: legal")
        expect(aiko.locator("#total")).to_have_text("200/200 AP")
        aiko_commitment = aiko.locator("#commitment").inner_text()
        shots(aiko, f"event-{tag}-1-aiko-handed-in.png", full_page=True)

        bo_ctx, bo, bo_errors = tab(browser)
        bo.goto(f"{srv.url}/submit?token={tok['Bo']}")
        archers = tmp_path / "bo.yaml"
        archers.write_text(TOO_MANY_ARCHERS)
        bo.set_input_files("#upload", str(archers))  # a file, uploaded
        bo.click("#hand-in")
        expect(bo.locator("#verdict")).to_have_text("Version 1: ILLEGAL (2 errors)")
        expect(bo.locator("#result .findings")).to_contain_text("kensei.ranged-max")
        shots(bo, f"event-{tag}-2-bo-illegal.png", full_page=True)
        # fixed in his workspace, which he uploads as a zip holding two lists: he picks one
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr("ws/bo-fixed.yaml", BUKE.replace("Buke vanguard", "Fixed vanguard"))
            zf.writestr("ws/other.yaml", KUGE)
        (tmp_path / "workspace.zip").write_bytes(buf.getvalue())
        bo.set_input_files("#upload", str(tmp_path / "workspace.zip"))
        bo.click("#hand-in")
        expect(bo.locator("#refused")).to_contain_text("pick the one to hand in")
        bo.set_input_files("#upload", str(tmp_path / "workspace.zip"))
        bo.select_option("#pick", "ws/bo-fixed.yaml")
        bo.click("#hand-in")
        expect(bo.locator("#verdict")).to_have_text("Version 2: legal")
        expect(bo.locator("#history tbody tr")).to_have_count(2)
        shots(bo, f"event-{tag}-3-bo-fixed.png", full_page=True)

        # the public page: commitments only
        pub_ctx, pub, pub_errors = tab(browser)
        pub.goto(srv.url + "/")
        expect(pub.locator("#board")).to_contain_text(aiko_commitment)
        expect(pub.locator("body")).not_to_contain_text("Taisho Buke")
        shots(pub, f"event-{tag}-4-public-sealed.png", full_page=True)

        # the organiser's dashboard
        org_ctx, dash, org_errors = tab(browser)
        dash.goto(f"{srv.url}/organiser?token={org}")
        expect(dash.locator("#tally")).to_have_text("3 players: 2 in, 0 late, 1 missing; 0 illegal")
        expect(dash.locator("tr[data-player='Chen'] td.status")).to_have_text("missing")
        expect(dash.locator("tr[data-player='Bo'] td.verdict")).to_have_text("legal")
        expect(dash.locator("body")).not_to_contain_text("Taisho Buke")
        shots(dash, f"event-{tag}-5-dashboard.png", full_page=True)
        # a judge call: the organiser opens Aiko's list before the reveal; Aiko is shown it
        row = dash.locator("tr[data-player='Aiko']")
        row.locator("input[name=reason]").fill("judge call <table 3>")
        row.get_by_role("button", name="Open list").click()
        expect(dash.locator("#opened")).to_contain_text("Taisho Buke")
        expect(dash.locator("#opened h2")).to_contain_text("logged and shown to Aiko")
        aiko.goto(f"{srv.url}/submit")
        expect(aiko.locator(".opened")).to_contain_text("judge call <table 3>")
        shots(aiko, f"event-{tag}-5b-aiko-told.png", full_page=True)
        # lock and reveal each ask first, on a page of their own (no script): cancel goes back
        dash.click("#lock")
        expect(dash.locator("h1")).to_have_text("Lock the event?")
        expect(dash.locator("#phase")).to_have_text("open")
        dash.click("#cancel")
        expect(dash.locator("#phase")).to_have_text("open")
        dash.click("#lock")
        dash.click("#confirm")
        expect(dash.locator("#phase")).to_have_text("locked")
        aiko.goto(f"{srv.url}/submit")
        expect(aiko.locator("body")).to_contain_text("The event is locked: no more lists are taken.")
        dash.click("#reveal")
        expect(dash.locator("#confirm-text")).to_contain_text("cannot be undone")
        shots(dash, f"event-{tag}-5c-confirm-reveal.png", full_page=True)
        expect(dash.locator("#phase")).to_have_text("locked")
        dash.click("#confirm")
        expect(dash.locator("#phase")).to_have_text("revealed")
        expect(dash.locator("#log")).to_contain_text("event-revealed")

        pub.goto(srv.url + "/")
        pub.get_by_role("link", name="list").first.click()
        expect(pub.locator("#list-text")).to_contain_text("5x Samurai Yari (25)")
        shots(pub, f"event-{tag}-6-revealed-list.png", full_page=True)
        for ctx in (aiko_ctx, bo_ctx, pub_ctx, org_ctx):
            ctx.close()
        assert not (aiko_errors or bo_errors or pub_errors or org_errors)

        r = cli("event", "verify", srv.url)
        assert r.code == 0 and "3 of 3 submissions match their commitments" in r.stdout
        assert cli("event", "book", folder, "-o", tmp_path / "book.pdf").code == 0
        text = pdf_text(tmp_path / "book.pdf")
        assert re.search(r"Fixed vanguard", text) and "Aiko" in text
    finally:
        srv.stop()
