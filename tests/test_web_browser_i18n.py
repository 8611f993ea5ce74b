"""The web builder in French and in Spanish in a real browser (Chromium driven by Playwright): a
list of each game opened with the browser's language, a count changed by typing, the total,
verdict and findings following in that language, ``<html lang>`` naming it; the language menu
switches the language and the workspace remembers it after a reload and in another browser.

Chromium is the system's (Debian's ``chromium`` package); without it these tests are skipped.
With ``$DAIMYO_SCREENSHOTS`` set, a screenshot of each list in each language (and on a phone's
width) is saved there.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from browserkit import CHROMIUM

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
pytest.importorskip("uvicorn")

from browserkit import changed, idle, serve, version
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "browser-i18n-token-0123456789"
WAIT = 15_000  # ms: the machine may be busy
expect.set_options(timeout=WAIT)

# what each language says where English says "legal" / "illegal", "explain", and its menu's name
WORDS = {
    "fr": {"legal": "légale", "illegal": "illégale", "explain": "expliquer", "lists": "Vos listes", "name": "Français"},
    "es": {"legal": "legal", "illegal": "ilegal", "explain": "explicar", "lists": "Tus listas", "name": "Español"},
}
KENSEI_FIX = (
    "system: kensei\nname: Fix me\nclan: buke\npoints: 200\ncommander: hatamoto\ntroops:\n"
    "  - troop: Taisho Buke\n  - troop: Samurai Yari\n    models: 5\n  - troop: Yari Ashigaru\n    models: 9\n"
    "  - troop: Samurai Dai-Katana\n    models: 5\n  - troop: Yumi Samurai\n    models: 8\n"
)


def workspace(root: Path) -> Path:
    ws = root / "ws"
    shutil.copytree(ROOT / "examples", ws)
    (ws / "fix-me.yaml").write_text(KENSEI_FIX)
    return ws


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from builder.web.app import create_app

    ws = workspace(tmp_path_factory.mktemp("browser-i18n"))
    with serve(lambda port: create_app(ws, token=TOKEN, port=port)) as url:
        yield {"url": url, "ws": ws}


def open_page(browser, url: str, locale: str, width: int = 1366):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: d.accept())
    pg.goto(f"{url}/?token={TOKEN}")
    return ctx, pg, errors


def type_count(pg, box, n: int) -> None:
    idle(pg)
    before = version(pg)
    box.fill(str(n))
    box.press("Tab")
    changed(pg, before)


# where the header shows what the change counts: HeroCard's action cards go beside its hero points
COUNTER = {"herocard": "#more"}


def total(pg, game: str = "") -> str:
    return pg.locator(COUNTER.get(game, "#total")).inner_text()


# each game's list, the count box changed and its new value (None: one more than it holds)
LISTS = {
    "kensei": ("fix-me.yaml", "ol.entries > li.entry >> nth=4 >> input.n", 4),
    "senshiai": ("senshiai-northern-host.yaml", "ol.entries > li.entry >> nth=0 >> input.n", None),
    "herocard": ("herocard-samurai.yaml", "ol.entries > li.entry >> nth=-1 >> input.n", None),
    "satsuma": ("satsuma-imperial.yaml", "ol.entries > li.entry >> nth=0 >> input.n", None),
    "senji": ("senji-three-daimyo.yaml", "li.province >> nth=0 >> input.n", None),
}


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("game", list(LISTS))
def test_a_list_of_each_game_in_the_browsers_language(browser, server, shots, lang, game):
    file, box, value = LISTS[game]
    w = WORDS[lang]
    ctx, pg, errors = open_page(browser, server["url"], f"{lang}-{lang.upper()}")
    try:
        expect(pg.locator("html")).to_have_attribute("lang", lang)
        expect(pg.locator("h1")).to_have_text(w["lists"])
        pg.goto(f"{server['url']}/l/{file}")
        expect(pg.locator("html")).to_have_attribute("lang", lang)
        before_total = total(pg, game)
        count = pg.locator(box)
        old = count.input_value()
        value = int(old) + 1 if value is None else value
        assert old != str(value)
        type_count(pg, count, value)
        expect(count).to_have_value(str(value))
        verdict = pg.locator("#verdict")
        expect(verdict).to_have_text(re.compile(f"({w['legal']}|{w['illegal']})"))
        tabs = pg.locator("nav.tabs")
        expect(tabs).to_contain_text({"fr": "Construire", "es": "Construir"}[lang])
        expect(pg.locator("#lang-menu")).to_have_value(lang)
        if game != "senji":  # a Senji setup's total counts its players, not the units changed here
            expect(pg.locator(COUNTER.get(game, "#total"))).not_to_have_text(before_total)
        if game == "kensei":  # the archers brought down to 4: the list is legal again
            expect(pg.locator("#total")).to_have_text("200")
            expect(verdict).to_have_text(f"✓ {w['legal']}")
            type_count(pg, pg.locator(box), 8)  # and back up: illegal, with its findings in the page's words
            expect(verdict).to_contain_text(w["illegal"])
            finding = pg.locator("ol.entries .finding.f-error").first
            expect(finding.locator("details.explain summary")).to_have_text(w["explain"])
            expect(finding).to_contain_text({"fr": "60 de trop", "es": "sobran 60"}[lang])
            finding.locator("details.explain summary").click()
            expect(finding.locator("dl")).to_contain_text({"fr": "règle", "es": "regla"}[lang])
        shots(pg, f"i18n-{lang}-{game}.png", full_page=True)
        if game in ("kensei", "senji"):  # the longer words on a phone's width
            pg.set_viewport_size({"width": 390, "height": 844})
            shots(pg, f"i18n-{lang}-{game}-phone.png")
            overflow = pg.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
            assert overflow <= 1, f"the page is {overflow}px wider than a phone's screen in {lang}"
    finally:
        ctx.close()
    assert not errors, errors


def test_the_language_menu_switches_and_is_remembered(browser, tmp_path, shots):
    from builder.web.app import create_app

    ws = workspace(tmp_path)
    with serve(lambda port: create_app(ws, token=TOKEN, port=port)) as url:
        ctx, pg, errors = open_page(browser, url, "fr-FR")
        try:
            expect(pg.locator("html")).to_have_attribute("lang", "fr")
            pg.goto(f"{url}/l/fix-me.yaml")
            expect(pg.locator("nav.tabs")).to_contain_text("Construire")
            pg.select_option("#lang-menu", "es")  # the page reloads in Spanish
            expect(pg.locator("html")).to_have_attribute("lang", "es")
            expect(pg.locator("nav.tabs")).to_contain_text("Construir")
            expect(pg.locator("#verdict")).to_contain_text("ilegal")
            pg.reload()
            expect(pg.locator("html")).to_have_attribute("lang", "es")
            expect(pg.locator("#lang-menu")).to_have_value("es")
            shots(pg, "i18n-menu-es.png")
        finally:
            ctx.close()
        assert not errors, errors
        assert (ws / ".daimyo" / "settings.json").read_text().strip() == '{\n "language": "es"\n}'
        # another browser, asking for French, gets the workspace's Spanish
        ctx, pg, errors = open_page(browser, url, "fr-FR")
        try:
            expect(pg.locator("html")).to_have_attribute("lang", "es")
            expect(pg.locator("h1")).to_have_text("Tus listas")
            pg.select_option("#lang-menu", "en")
            expect(pg.locator("html")).to_have_attribute("lang", "en")
            expect(pg.locator("h1")).to_have_text("Your lists")
        finally:
            ctx.close()
        assert not errors, errors
