"""In a real browser: the web builder's New list form offers a plug-in game's own option as the
game declares it (the toy card game's scenario, tests/toygame.py), and the list it starts holds
the scenario chosen."""

from __future__ import annotations

import re

import pytest
from browserkit import CHROMIUM

if not __import__("pathlib").Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("uvicorn")

from browserkit import expect, serve

from builder.systems import register, unregister

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop

TOKEN = "browser-new-options-token-0123456789"
WAIT = 15_000  # ms: the machine may be busy


@pytest.fixture
def toy_server(tmp_path):
    from builder.web.app import create_app

    import toygame

    register(toygame.SYSTEM)
    try:
        with serve(lambda port: create_app(tmp_path, token=TOKEN, port=port)) as url:
            yield url, tmp_path
    finally:
        unregister("toygame")


def test_the_new_list_form_starts_a_plugin_game_with_its_own_option(browser, toy_server):
    url, ws = toy_server
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(f"{url}/?token={TOKEN}")
        pg.select_option("#new-system", "toygame")
        form = pg.locator("#new-form")
        scenario = form.get_by_label("Scenario")
        expect(scenario).to_be_visible(timeout=WAIT)
        expect(scenario).to_have_value("skirmish", timeout=WAIT)  # the declared default
        assert scenario.locator("option").all_inner_texts() == ["Skirmish", "River crossing", "Siege"]
        form.get_by_label("Name", exact=True).fill("Ford duel")
        scenario.select_option(label="River crossing")
        form.get_by_role("button", name="Create list").click()
        pg.wait_for_url(re.compile(r"/l/Ford-duel\.yaml$"))
        expect(pg.locator(".list-name")).to_have_text("Ford duel", timeout=WAIT)
        text = (ws / "Ford-duel.yaml").read_text()
        assert text == "system: toygame\nname: Ford duel\nscenario: river-crossing\ncards: {}\n"
    finally:
        ctx.close()
    assert not errors, errors
