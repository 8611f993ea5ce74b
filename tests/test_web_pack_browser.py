"""The pack editor in a real browser (the system's Chromium through Playwright): a Senshiai
pack authored from nothing by typing into the editor (a mistake shown beside its field and
fixed, cost and paths picked from menus, where an entry comes from left as 'entered by hand'),
its card face previewed, then a legal deck built with it on the builder page.
Skipped without Chromium; screenshots go to $DAIMYO_SCREENSHOTS when set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browserkit import CHROMIUM

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("uvicorn")

from browserkit import catalog_row, changed, search_catalog, serve, version
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TOKEN = "browser-test-token-0123456789"
WAIT = 20_000  # ms: the machine may be busy
expect.set_options(timeout=WAIT)


@pytest.fixture()
def server(tmp_path, monkeypatch):
    from builder.web.app import create_app

    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "user-packs"))
    monkeypatch.delenv("DAIMYO_REGISTRY", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    ws = tmp_path / "ws"
    ws.mkdir()
    with serve(lambda port: create_app(ws, token=TOKEN, port=port)) as url:
        yield {"url": url, "ws": ws}


def fill_entry(pg, values: dict):
    for field, value in values.items():
        box = pg.locator(f"#f-{field}")
        if box.evaluate("e => e.tagName") == "SELECT":
            box.select_option(value)  # a list: the values of a menu of several
        else:
            box.fill(value)


@pytest.mark.slow  # a journey in the browser
def test_author_a_senshiai_pack_and_build_a_legal_deck_with_it(browser, server, shots):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{server['url']}/?token={TOKEN}")

    pg.get_by_role("link", name="Packs", exact=True).click()
    pg.wait_for_url(re.compile(r"/packs$"))
    pg.select_option("#new-pack-system", "senshiai")
    pg.fill("#new-pack-name", "Club cards")
    pg.get_by_role("button", name="Create pack").click()
    pg.wait_for_url(re.compile(r"/packs/edit/club-cards\.yaml$"))
    expect(pg.locator("#pack-title")).to_have_text("Club cards")

    # what a new entry needs is said before anything is typed: 'assumed' is marked required,
    # with its rule, and starts as 'entered by hand'; cost and paths are menus
    expect(pg.locator("label", has=pg.locator("#f-assumed"))).to_contain_text("Required unless the entry cites")
    expect(pg.locator("#f-assumed")).to_have_value("entered by hand")
    expect(pg.locator("#f-paths option")).to_have_text(["Air", "Earth", "Water"])
    # the Capital, with a mistake that is shown beside its field as it is typed
    fill_entry(
        pg,
        {
            "name": "Hill Fort",
            "type": "terrain",
            "subtype": "Capital",
            "cost": "N",
            "paths": ["Earth", "Water"],
            "limit": "3",
            "speed": "fast",
            "power": "2/1/8",
        },
    )
    expect(pg.locator("#err-speed")).to_have_text("'fast' is not a whole number (speed is whole number)")
    expect(pg.locator("#entry-state")).to_contain_text("1 problem")
    shots(pg, "pack-editor-error.png", full_page=True)
    pg.fill("#f-speed", "0")
    expect(pg.locator("#err-speed")).to_have_text("")
    expect(pg.locator("#entry-state")).to_have_text("✓ valid")
    # the card face follows the typing before anything is saved
    pg.wait_for_function("() => document.querySelector('#card-preview').naturalWidth > 100")
    expect(pg.locator("#card-preview")).to_have_attribute("alt", "The card Hill Fort as it prints")
    shots(pg, "pack-editor-live.png", full_page=True)
    pg.get_by_role("button", name="Add to cards").click()
    pg.wait_for_url(re.compile(r"entry=Hill\+Fort"))
    preview = pg.locator("#card-preview")
    expect(preview).to_be_visible()
    pg.wait_for_function("() => document.querySelector('#card-preview').naturalWidth > 100")
    shots(pg, "pack-editor.png", full_page=True)

    for values in (
        {
            "name": "Rice Paddies",
            "type": "terrain",
            "subtype": "Farmland",
            "cost": "I",
            "paths": ["Earth"],
            "limit": "2",
            "abilities": "Recruit",
        },
        {
            "name": "Club Samurai",
            "type": "troop",
            "cost": "II",
            "paths": ["Earth"],
            "speed": "1",
            "power": "2/1/3",
            "assumed": "printed on my cards",
        },
    ):
        pg.get_by_role("link", name="New entry").click()
        expect(pg.locator("#entry-h")).to_have_text("New entry")
        fill_entry(pg, values)
        expect(pg.locator("#entry-state")).to_have_text("✓ valid")
        pg.wait_for_function("() => document.querySelector('#card-preview').naturalWidth > 100")
        shots(pg, f"pack-editor-{values['type']}.png", full_page=True)  # a troop of no subtype
        pg.get_by_role("button", name="Add to cards").click()
        pg.wait_for_url(re.compile("entry=" + values["name"].replace(" ", r"\+")))
    expect(pg.locator("#entries tbody tr")).to_have_count(3)

    # a deck of the workspace, with the pack
    pg.goto(server["url"] + "/")
    pg.select_option("#new-system", "senshiai")
    form = pg.locator("#new-form")
    form.get_by_label("Name", exact=True).fill("Club deck")
    packs = form.locator("fieldset[data-system=senshiai] input[name=packs]")
    for i in range(packs.count()):  # the new pack only (the bundled example is offered too)
        box = packs.nth(i)
        box.set_checked(box.get_attribute("value") == "packs/club-cards.yaml")
    expect(form.locator('input[name=packs][value="packs/club-cards.yaml"]')).to_be_checked()
    form.get_by_role("button", name="Create list").click()
    pg.wait_for_url(re.compile(r"/l/Club-deck\.yaml$"))
    for name in ("Hill Fort", "Rice Paddies", "Club Samurai", "Club Samurai"):
        search_catalog(pg, name)
        row = catalog_row(pg, name)
        expect(row).to_have_count(1)
        before = version(pg)
        row.locator(".btn-add").click()
        changed(pg, before)
    expect(pg.locator("#total")).to_have_text("4")
    expect(pg.locator("#verdict")).to_contain_text("legal")
    expect(pg.locator("#verdict")).not_to_contain_text("illegal")
    shots(pg, "pack-deck.png", full_page=True)
    ctx.close()
    assert not errors, errors

    from builder.check import check_file

    res = check_file(server["ws"] / "Club-deck.yaml")
    assert res.legal and res.summary["cards"] == 4
    assert [p["name"] for p in res.packs] == ["Club cards"]


@pytest.mark.slow  # a journey in the browser
def test_an_install_that_would_replace_a_bundled_pack_asks_first(browser, tmp_path, monkeypatch, shots):
    from regserver import Server
    from test_packs_hostile import EVIL_EXAMPLE

    from builder.packs.registry import build_index, dump_index
    from builder.web.app import create_app

    reg = tmp_path / "registry"
    reg.mkdir()
    (reg / "example.yaml").write_text(EVIL_EXAMPLE)  # a registry's pack named as the bundled example
    (reg / "index.json").write_text(dump_index(build_index(reg)[0]))
    packs = tmp_path / "user-packs"
    monkeypatch.setenv("DAIMYO_PACKS", str(packs))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    ws = tmp_path / "ws"
    ws.mkdir()
    with Server(tmp_path) as srv:
        monkeypatch.setenv("DAIMYO_REGISTRY", f"{srv.url}/registry/index.json")
        with serve(lambda port: create_app(ws, token=TOKEN, port=port)) as url:
            ctx = browser.new_context(viewport={"width": 1366, "height": 900})
            pg = ctx.new_page()
            pg.set_default_timeout(WAIT)
            errors: list[str] = []
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.goto(f"{url}/?token={TOKEN}")
            pg.goto(f"{url}/packs?q=Senshiai")
            row = pg.locator('#results tr[data-pack="Senshiai example cards"]')
            row.get_by_role("button", name="Install").click()
            ask = pg.locator("#flash #replace-confirm")
            expect(ask).to_contain_text("would take the place of:")
            expect(ask.locator("#replace-taken li")).to_contain_text(
                ["the pack bundled with daimyo (senshiai-example.yaml)"]
            )
            assert not packs.exists()  # asked, nothing installed
            shots(pg, "packs-replace.png", full_page=True)
            ask.get_by_role("button", name="Cancel").click()  # asked again from the same row
            expect(pg.locator("#flash #replace-confirm")).to_have_count(0)
            row.get_by_role("button", name="Install").click()
            pg.locator("#flash").get_by_role("button", name="Replace").click()
            pg.wait_for_url(re.compile(r"/packs\?done="))
            expect(pg.locator("#packs-done")).to_contain_text("now takes the place of the pack bundled with daimyo")
            expect(pg.locator("#packs-done")).to_contain_text("gives it back")
            expect(pg.locator('#installed tr[data-pack="Senshiai example cards"] .version')).to_contain_text("9")
            shots(pg, "packs-replaced.png", full_page=True)
            assert (packs / "senshiai-example-cards.yaml").is_file()
            assert errors == []
            ctx.close()
