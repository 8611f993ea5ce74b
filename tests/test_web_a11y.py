"""Accessibility of every page of the web builder, in a real browser: axe-core (vendored in
tests/vendor/axe-core, never shipped) finds no serious or critical violation, at laptop and
phone width, in the light and the dark theme; and a keyboard-only player builds a legal Kensei
army without touching the mouse."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from browserkit import catalog_shows, idle, version
from browserkit import changed as kit_changed
from test_web_browser import TOKEN, WAIT, expect, server, total  # noqa: F401

from builder.check import check_file

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
PAGES = [
    "/",
    "/l/kensei-buke.yaml",
    "/l/senshiai-northern-host.yaml",
    "/l/herocard-samurai.yaml",
    "/l/senji-three-daimyo.yaml",
    "/l/satsuma-samurai.yaml",
    "/l/kensei-buke.yaml/print",
    "/l/kensei-buke.yaml/share",
    "/l/satsuma-samurai.yaml/stats?odds=suit%3DForce+%3E%3D+2+in+7",
    "/l/kensei-buke.yaml/stats",
    "/compare?a=kensei-buke.yaml&b=kensei-kuge.yaml",
    "/api/docs",
]


@functools.cache
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def violations(pg) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now (the checker
    is put in the page on its first use there, unless the page's context puts it in every page
    it opens: ``checked_context``)."""
    if not pg.evaluate("() => typeof axe !== 'undefined'"):
        pg.add_script_tag(content=axe_source())
    found = pg.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 4).map(n => n.target.join(' ') +
                 ((n.any[0] && n.any[0].data && n.any[0].data.contrastRatio) ?
                  ' [' + n.any[0].data.fgColor + ' on ' + n.any[0].data.bgColor + ' = ' + n.any[0].data.contrastRatio + ']' : '')
                 ).join(' | '));
    }""")
    return found


def checked_context(browser, width: int, height: int, url: str):
    """A context whose every page holds the checker from its start (sent to the browser once,
    not once a page), past the token gate. The pages' own scripts keep their
    Content-Security-Policy; only the checker is let in."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    ctx.add_init_script(axe_source())
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    pg.goto(f"{url}/?token={TOKEN}")
    return ctx, pg


@pytest.fixture(scope="module")
def page_at(browser, server):  # noqa: F811  (fixture of test_web_browser)
    """The page of a context at a viewport's size, one for all the pages checked at that size."""
    opened: dict[tuple[int, int], tuple] = {}

    def at(width: int, height: int):
        if (width, height) not in opened:
            opened[width, height] = checked_context(browser, width, height, server["url"])
        return opened[width, height][1]

    yield at
    for ctx, _pg in opened.values():
        ctx.close()


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("width, height", [(1366, 900), (390, 844)])
def test_no_serious_accessibility_violation_on_any_page(page_at, server, width, height, path):  # noqa: F811  (fixture of test_web_browser)
    pg = page_at(width, height)
    found = {}
    pg.emulate_media(color_scheme="light")
    pg.goto(server["url"] + path)  # waits for the load event: the page, its styles and images
    idle(pg)
    # the themes are the stylesheet's prefers-color-scheme rules: the same page is checked in
    # each, the browser restyling it as the scheme changes
    for scheme in ("light", "dark"):
        pg.emulate_media(color_scheme=scheme)
        assert pg.evaluate("s => matchMedia(`(prefers-color-scheme: ${s})`).matches", scheme)
        v = violations(pg)
        if v:
            found[f"{path} ({scheme})"] = v
    assert not found, "\n".join(f"{k}: {x}" for k, v in found.items() for x in v)


@pytest.mark.slow  # a journey in the browser
def test_a_keyboard_only_player_builds_a_legal_kensei_army(browser, server, shots):  # noqa: F811  (fixtures of test_web_browser)
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT)
    pg.goto(f"{server['url']}/?token={TOKEN}")
    kb = pg.keyboard

    def tab_to(selector_or_label, limit=80, back=False):
        """Press Tab (or Shift+Tab) until the focus is on the control, counting the presses."""
        for n in range(1, limit + 1):
            kb.press("Shift+Tab" if back else "Tab")
            if pg.evaluate(
                "(want) => { const a = document.activeElement; return !!a && "
                "(a.getAttribute('aria-label') === want || a.id === want || "
                "(a.labels && a.labels[0] && a.labels[0].innerText.trim().startsWith(want)) || "
                "a.innerText.trim() === want); }",
                selector_or_label,
            ):
                return n
        raise AssertionError(f"no '{selector_or_label}' within {limit} presses of Tab")

    def changed(before):
        kit_changed(pg, before)

    # the new-list form, by keyboard
    tab_to("new-system")
    pg.select_option("#new-system", "kensei")  # a select answers the arrow keys; the value is what matters
    tab_to("new-name")
    kb.type("Keys only")
    tab_to("Clan")
    pg.locator("#new-form select[name=clan]").focus()
    pg.select_option("#new-form select[name=clan]", "buke")
    tab_to("Create list")
    kb.press("Enter")
    pg.wait_for_url(re.compile(r"/l/Keys-only\.yaml$"))
    expect(pg.locator(".list-name")).to_have_text("Keys only")

    def add(search, name, models=None):
        kb.press("/")  # the search box
        expect(pg.locator("#catalog-q")).to_be_focused()
        kb.press("Control+a")
        kb.type(search)
        catalog_shows(pg, search)
        row = pg.locator("ul.catalog li.opt", has=pg.get_by_role("button", name=name, exact=True))
        expect(row).to_have_count(1)
        presses = tab_to(f"Add {name}")
        idle(pg)
        before = version(pg)
        kb.press("Enter")
        changed(before)
        if models is not None:  # the focus is on the new unit's count: type it
            box = pg.locator(":focus")
            expect(box).to_have_attribute("aria-label", re.compile(f"^Models in {name}"))
            kb.press("Control+a")
            kb.type(str(models))
            idle(pg)
            before = version(pg)
            kb.press("Tab")
            changed(before)
        return presses

    add("taisho buke", "Taisho Buke")
    add("yari ash", "Yari Ashigaru", 10)
    add("samurai yari", "Samurai Yari", 5)
    add("dai-katana", "Samurai Dai-Katana", 5)
    add("yari ash", "Yari Ashigaru", 8)
    # the sample army: 20 + 50 + 25 + 50 + 40 = 185 AP of 200
    expect(pg.locator("#total")).to_have_text("185")
    expect(pg.locator("#verdict")).to_contain_text("legal")
    expect(pg.locator("#verdict")).not_to_contain_text("illegal")
    # a fix by keyboard: one model more in the last unit, by its own + button
    idle(pg)
    before = version(pg)
    pg.get_by_role("button", name="One model more in Yari Ashigaru (unit 5)").focus()
    kb.press("Enter")
    changed(before)
    expect(pg.locator("#total")).to_have_text("190")
    expect(pg.get_by_role("button", name="One model more in Yari Ashigaru (unit 5)")).to_be_focused()
    shots(pg, "keyboard-kensei.png")
    res = check_file(server["ws"] / "Keys-only.yaml")
    assert res.legal, [f.message for f in res.findings if f.severity == "error"]
    ctx.close()
