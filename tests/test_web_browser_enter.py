"""Enter in a typed field of the builder commits the value exactly as Tab does, in every game's
page (a real browser: Chromium through Playwright): one save request, no plain submission of
the form (a GET of the page with ``op=``) racing with it, the total shown is the saved one, the
focus stays in the field, Undo is offered and no message is shown.

The server, browser and page fixtures are those of ``test_web_browser``.
"""

from __future__ import annotations

import shutil

import pytest
from browserkit import changed, idle, version, wait_focus
from test_web_browser import (  # noqa: F401  (fixtures)
    expect,
    page,
    server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop


class Watch:
    """The requests a page makes: saves of the list, and navigations that carry a form's ``op=``."""

    def __init__(self, pg):
        self.saves: list[str] = []
        self.submits: list[str] = []
        pg.on("request", self.seen)

    def seen(self, req) -> None:
        if req.method == "POST" and req.url.endswith("/edit"):
            self.saves.append(req.url)
        if req.is_navigation_request() and "op=" in req.url:
            self.submits.append(req.url)

    def clear(self) -> None:
        self.saves.clear()
        self.submits.clear()


NAME = ".name-input"
TOTALS = "#status .totals"  # the total, and what else the game counts (a hero's cards)


def open_copy(pg, srv, example: str, name: str) -> Watch:
    """A copy of ``example`` opened in the builder, and the requests of the page watched."""
    shutil.copy(srv["ws"] / example, srv["ws"] / name)
    pg.goto(f"{srv['url']}/l/{name}")
    idle(pg)
    return Watch(pg)


def enter(pg, watch: Watch, field: str, value: str, total_changes: bool = False) -> None:
    """Type ``value`` in the field ``field`` (a CSS selector of the builder page), press Enter and
    check what the player sees: the value saved once, nothing else sent, the focus in the
    field, Undo offered, no message; with ``total_changes`` the total shown is a new one, the
    one the page shows for the file as saved."""
    idle(pg)
    box = pg.locator(field)
    expect(box).to_have_count(1)
    shown = pg.locator(TOTALS).inner_text()
    before = version(pg)
    box.fill(value)
    watch.clear()
    box.press("Enter")
    changed(pg, before)
    # the page's own signals: the list redrawn, and the focus put back in the field used
    wait_focus(pg, "(el, sel) => el && el.matches(sel)", field)
    expect(pg.locator(field)).to_have_value(value)
    expect(pg.locator("#undo")).to_be_enabled()
    expect(pg.locator("#flash .alert")).to_have_count(0)
    total = pg.locator(TOTALS).inner_text()
    assert watch.saves == [pg.url + "/edit"], watch.saves  # one save, of this list
    assert watch.submits == [], watch.submits  # no plain GET of the form
    assert "?" not in pg.url, pg.url  # still the builder page itself, never one with the form's words
    if total_changes:
        assert total != shown
        pg.reload()
        idle(pg)
        expect(pg.locator(TOTALS)).to_have_text(total)  # the totals of the list as saved
        expect(pg.locator("#undo")).to_be_enabled()  # the history survives the reload
    watch.clear()


def setting(key: str) -> str:
    return f'.settings form:has(input[name=key][value="{key}"]) input[name=value]'


@pytest.mark.slow  # a journey in the browser
def test_enter_in_kensei_fields(page, server):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    watch = open_copy(pg, server, "kensei-buke.yaml", "enter-kensei.yaml")
    first = pg.locator("ol.entries > li.entry input.n").first.get_attribute("aria-label")
    n = int(pg.locator("ol.entries > li.entry input.n").first.input_value())
    enter(pg, watch, f'input.n[aria-label="{first}"]', str(n + 1), total_changes=True)
    enter(pg, watch, setting("points"), "250")
    expect(pg.locator("#status .of")).to_contain_text("250")
    enter(pg, watch, NAME, "Enter in Kensei")
    text = (server["ws"] / "enter-kensei.yaml").read_text()
    assert "points: 250" in text and "name: Enter in Kensei" in text


@pytest.mark.slow  # a journey in the browser
def test_enter_in_senshiai_fields(page, server):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    watch = open_copy(pg, server, "senshiai-northern-host.yaml", "enter-senshiai.yaml")
    enter(pg, watch, 'input.n[aria-label="Copies of Warriors"]', "5", total_changes=True)
    enter(pg, watch, setting("size"), "49")
    expect(pg.locator("#status .of")).to_contain_text("49")
    enter(pg, watch, NAME, "Enter in Senshiai")
    text = (server["ws"] / "enter-senshiai.yaml").read_text()
    assert "Warriors: 5" in text and "size: 49" in text and "name: Enter in Senshiai" in text


def test_enter_in_herocard_fields(page, server):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    watch = open_copy(pg, server, "herocard-samurai.yaml", "enter-herocard.yaml")
    enter(pg, watch, 'input.n[aria-label="Copies of Resounding Blow"]', "1", total_changes=True)
    enter(pg, watch, setting("max_hero_points"), "32")
    enter(pg, watch, NAME, "Enter in HeroCard")
    text = (server["ws"] / "enter-herocard.yaml").read_text()
    assert "Resounding Blow: 1" in text and "max_hero_points: 32" in text and "name: Enter in HeroCard" in text


@pytest.mark.slow  # a journey in the browser
def test_enter_in_senji_fields(page, server):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    watch = open_copy(pg, server, "senji-three-daimyo.yaml", "enter-senji.yaml")
    units = pg.locator("ol.entries > li.entry li.province input.n").first
    label = units.get_attribute("aria-label")
    n = int(units.input_value())
    enter(pg, watch, f'input.n[aria-label="{label}"]', str(n + 1), total_changes=True)
    enter(pg, watch, 'input[aria-label="Name of player 1"]', "Hanako")
    enter(pg, watch, NAME, "Enter in Senji")
    text = (server["ws"] / "enter-senji.yaml").read_text()
    assert "name: Hanako" in text and "name: Enter in Senji" in text


@pytest.mark.slow  # a journey in the browser
def test_enter_in_satsuma_fields(page, server):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    watch = open_copy(pg, server, "satsuma-samurai.yaml", "enter-satsuma.yaml")
    box = pg.locator("ol.entries > li.entry input.n").first
    label = box.get_attribute("aria-label")
    n = int(box.input_value())
    enter(pg, watch, f'input.n[aria-label="{label}"]', str(n + 1), total_changes=True)
    enter(pg, watch, NAME, "Enter in Satsuma")
    text = (server["ws"] / "enter-satsuma.yaml").read_text()
    assert "name: Enter in Satsuma" in text and "deck: standard" not in text
