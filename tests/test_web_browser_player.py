"""The web builder as players found it, in a real browser (Chromium through Playwright): every
control acts on its own row and says which, the focus stays where the player was after each
change, lists are compared and duplicated as variants.

The server, browser and page fixtures are those of ``test_web_browser``.
"""

from __future__ import annotations

import re

import pytest
from browserkit import catalog_row, changed, idle, search_catalog, version, wait_focus
from test_web_browser import (  # noqa: F401  (fixtures)
    TOKEN,
    add_from_catalog,
    entry,
    expect,
    page,
    server,
    total,
    verdict,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a browser: none of its tests in the quick loop

TWO_OWARI = """system: senji
name: Two Owari
packs:
  - packs/senji-board.yaml
players:
  - name: Aiko
    family: red
    provinces:
      - {province: Owari, units: 2}
      - {province: Mino}
  - name: Kenji
    family: green
    provinces:
      - {province: Owari, units: 1}
      - {province: Kai}
"""


def focused(pg) -> dict:
    return pg.evaluate("""() => { const a = document.activeElement;
        return {tag: a.tagName, label: a.getAttribute('aria-label') || '', id: a.id || '',
                row: (a.closest('li.entry') || {}).id || ''}; }""")


@pytest.mark.slow  # a journey in the browser
def test_senji_province_controls_act_on_their_own_player(page, server):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    (server["ws"] / "two-owari.yaml").write_text(TWO_OWARI)
    pg.goto(f"{server['url']}/l/two-owari.yaml")
    first = pg.get_by_role("button", name="Remove Owari from player 1 (Aiko)")
    second = pg.get_by_role("button", name="Remove Owari from player 2 (Kenji)")
    expect(first).to_have_count(1)
    expect(second).to_have_count(1)  # the two buttons say which player's Owari they remove
    expect(pg.get_by_label("Units in Owari of player 2 (Kenji)")).to_have_value("1")
    idle(pg)
    before = version(pg)
    second.click()
    changed(pg, before)
    text = (server["ws"] / "two-owari.yaml").read_text()
    assert "{province: Owari, units: 2}" in text  # Aiko keeps hers
    assert "{province: Owari, units: 1}" not in text and "{province: Kai}" in text
    expect(pg.get_by_role("button", name="Remove Owari from player 1 (Aiko)")).to_have_count(1)
    expect(pg.get_by_role("button", name=re.compile("Remove Owari from player 2"))).to_have_count(0)
    # the focus went to the control now in the removed one's place, not to the page
    wait_focus(pg, "el => el && el.tagName !== 'BODY'")
    # a player is removed by place, whatever the others are called
    idle(pg)
    before = version(pg)
    pg.get_by_role("button", name="Remove player 1, Aiko").click()
    changed(pg, before)
    text = (server["ws"] / "two-owari.yaml").read_text()
    assert "Aiko" not in text and "name: Kenji" in text


@pytest.mark.slow  # a journey in the browser
def test_focus_stays_on_the_control_used(page, server):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    pg.goto(f"{server['url']}/l/fix-me.yaml")
    plus = pg.get_by_role("button", name="One model more in Yari Ashigaru (unit 3)")
    idle(pg)
    before = version(pg)
    plus.focus()
    pg.keyboard.press("Enter")
    changed(pg, before)
    expect(plus).to_be_focused()
    idle(pg)
    before = version(pg)
    pg.keyboard.press("Enter")  # again, without moving: the same control
    changed(pg, before)
    expect(pg.get_by_label("Models in Yari Ashigaru (unit 3)")).to_have_value("11")
    # a typed count: Tab leaves the box for the next control, and the focus is still there after the change
    box = pg.get_by_label("Models in Yari Ashigaru (unit 3)")
    idle(pg)
    before = version(pg)
    box.fill("9")
    box.press("Tab")
    changed(pg, before)
    expect(plus).to_be_focused()
    # Shift+Tab goes back to the box: no walk from the top of the page
    pg.keyboard.press("Shift+Tab")
    expect(pg.get_by_label("Models in Yari Ashigaru (unit 3)")).to_be_focused()
    # after Add, the focus is in the new row, on its count
    add_from_catalog(pg, "yari ash", "Yari Ashigaru")
    new = entry(pg, "Yari Ashigaru")
    expect(new.locator("input.n")).to_be_focused()
    # removing a unit puts the focus on the row now in its place
    idle(pg)
    before = version(pg)
    pg.get_by_label("More for Samurai Yari (unit 2)").click()
    pg.get_by_role("button", name="Remove Samurai Yari (unit 2) from the list").click()
    changed(pg, before)
    # the focus moves once the new list has settled: wait for it, then say where it is
    wait_focus(pg, "el => !!el.closest('li.entry') && el.closest('li.entry').id === 'entry-1'")
    f = focused(pg)
    assert f["row"] == "entry-1" and "unit 2" in f["label"], f
    pg.get_by_role("button", name=re.compile("Undo")).click()
    expect(pg.get_by_label("More for Samurai Yari (unit 2)")).to_have_count(1)


@pytest.mark.slow  # a journey in the browser
def test_variant_and_comparison_in_the_browser(page, server, shots):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    pg.goto(f"{server['url']}/l/kensei-buke.yaml")
    pg.get_by_role("button", name="Variant", exact=True).click()
    pg.wait_for_url(re.compile(r"/l/kensei-buke-variant\.yaml\?variant_of=kensei-buke\.yaml$"))
    expect(pg.locator(".list-name")).to_have_text("Buke vanguard (rulebook sample) (variant)")
    box = pg.get_by_label("Models in Yari Ashigaru (unit 3)")
    idle(pg)
    before = version(pg)
    box.fill("10")
    box.press("Tab")
    changed(pg, before)
    expect(verdict(pg)).to_contain_text("illegal")
    pg.get_by_role("link", name="Compare with the original").click()
    pg.wait_for_url(re.compile(r"/compare\?"))
    table = pg.locator("#compare-table")
    expect(table.locator("tr.cmp-total")).to_contain_text("200 / 200 AP")
    expect(table.locator("tr.cmp-total")).to_contain_text("205 / 200 AP")
    expect(table.locator("tr.cmp-verdict")).to_contain_text("ILLEGAL (1 error)")
    expect(pg.locator("ul.cmp-changed")).to_contain_text("1 unit, 9 models, 45 AP → 1 unit, 10 models, 50 AP")
    shots(pg, "compare.png", full_page=True)
    # any two lists, chosen on the page
    pg.goto(f"{server['url']}/compare")
    pg.select_option("#cmp-a", "kensei-buke.yaml")
    pg.select_option("#cmp-b", "kensei-kuge.yaml")
    pg.get_by_role("button", name="Compare", exact=True).click()
    expect(pg.locator("ul.cmp-added")).to_contain_text("Onna-Bushi")
    expect(pg.locator("ul.cmp-removed")).to_contain_text("Yumi Samurai")


@pytest.mark.slow  # a journey in the browser
def test_workspace_search_filter_and_sort(page, server, shots):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    ws = server["ws"]
    (ws / "club").mkdir(exist_ok=True)
    (ws / "club" / "alpha.yaml").write_text(
        (ws / "kensei-buke.yaml").read_text().replace("name: Buke vanguard (rulebook sample)", "name: aardvark army")
    )
    pg.goto(f"{server['url']}/")
    names = pg.locator("tr.ws-row:not([hidden]) .list-link")
    first = names.first.inner_text()
    assert first.lower().startswith("aardvark")  # case ignored: lower-case names sort with the rest
    pg.fill("#ws-q", "vanguard")
    expect(pg.locator("#ws-shown")).to_contain_text("shown")
    assert all("vanguard" in t.lower() for t in names.all_inner_texts())
    pg.fill("#ws-q", "")
    pg.select_option("#ws-game", "satsuma")
    expect(names).to_have_count(2)
    pg.select_option("#ws-game", "")
    pg.select_option("#ws-folder", "club")
    expect(names).to_have_text(["aardvark army"])
    pg.select_option("#ws-folder", "*")
    pg.select_option("#ws-sort", "date")
    expect(names.first).to_have_text("aardvark army")  # the newest file
    pg.set_viewport_size({"width": 390, "height": 844})
    shots(pg, "workspace-phone.png", full_page=True)
    pg.set_viewport_size({"width": 1366, "height": 900})


@pytest.mark.slow  # a journey in the browser
def test_the_kensei_catalog_on_a_phone_is_the_clans_own(page, server, shots):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    pg.set_viewport_size({"width": 390, "height": 844})
    pg.goto(f"{server['url']}/l/kensei-buke.yaml")
    expect(pg.locator("ul.catalog li.opt").first).to_be_visible()
    expect(pg.locator("ul.catalog")).not_to_contain_text("not in the buke army list")
    height = pg.evaluate("document.documentElement.scrollHeight")
    assert height < 5229 * 0.75, height  # was 5,229 px with every clan's troops
    header = pg.locator("#status").bounding_box()["height"] + pg.locator("nav.topbar").bounding_box()["height"]
    assert header <= 844 / 5, header  # was 235 px of 844
    name = pg.get_by_label("List name")
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), "the list name is cut off"
    shots(pg, "kensei-phone.png")
    pg.locator("#catalog-others").check()
    expect(pg.locator("ul.catalog")).to_contain_text("not in the buke army list")
    assert header > 0


def test_leaving_the_search_box_does_not_redraw_the_catalog(page, server):  # noqa: F811  (fixtures of test_web_browser)
    """A press on Add beside a search result must reach the row the player saw: leaving the
    search box for the button asks the server for nothing but the addition."""
    pg = page
    pg.goto(f"{server['url']}/l/fix-me.yaml")
    search_catalog(pg, "yari ash")
    asked: list[str] = []
    pg.on("request", lambda r: asked.append(f"{r.method} {r.url.split('?')[0].rsplit('/', 1)[-1]}"))
    before = version(pg)
    catalog_row(pg, "Yari Ashigaru").locator(".btn-add").click()
    changed(pg, before)
    # the addition, then the catalog redrawn once for the changed list: never a redraw before it
    assert asked[0] == "POST edit", asked
    assert asked.count("GET catalog") <= 1, asked


@pytest.mark.slow  # a journey in the browser
def test_tab_after_renaming_a_senji_player_goes_to_the_next_control(page, server):  # noqa: F811  (fixtures of test_web_browser)
    """The controls after a player's name say the player's name in their labels: renamed, the
    player's row is drawn again, and the focus goes to the control Tab went to, not elsewhere
    in the row."""
    pg = page
    (server["ws"] / "tab-senji.yaml").write_text((server["ws"] / "senji-three-daimyo.yaml").read_text())
    pg.goto(f"{server['url']}/l/tab-senji.yaml")
    box = pg.get_by_label("Name of player 1", exact=True)
    expect(box).to_have_value("Aiko")
    # the next control in order from the name box, as the page is before the change
    after = pg.evaluate("""() => {
        const all = Array.from(document.querySelectorAll('#list-panel button, #list-panel input, #list-panel select'))
            .filter(e => e.type !== 'hidden' && !e.disabled);
        const i = all.indexOf(document.querySelector('input[aria-label="Name of player 1"]'));
        return all[i + 1].getAttribute('aria-label'); }""")
    assert after == "Take Baba from player 1 (Aiko)", after
    idle(pg)
    before = version(pg)
    box.fill("Hanako")
    box.press("Tab")
    changed(pg, before)
    wait_focus(pg, "el => el.getAttribute('aria-label') === 'Take Baba from player 1 (Hanako)'")
    # and Shift+Tab goes back to the name box
    pg.keyboard.press("Shift+Tab")
    expect(pg.get_by_label("Name of player 1", exact=True)).to_be_focused()


@pytest.mark.slow  # a journey in the browser
def test_compare_preselects_the_list_as_before_and_its_variant_as_after(page, server):  # noqa: F811  (fixtures of test_web_browser)
    pg = page
    (server["ws"] / "cmp-sohei.yaml").write_text((server["ws"] / "kensei-sohei.yaml").read_text())
    pg.goto(f"{server['url']}/l/cmp-sohei.yaml")
    # a list without variants: it is Before, After is left to choose
    pg.locator("#compare-link").click()
    pg.wait_for_url(re.compile(r"/compare\?"))
    expect(pg.locator("#cmp-a")).to_have_value("cmp-sohei.yaml")
    expect(pg.locator("#cmp-b")).to_have_value("")
    expect(pg.locator("#compare-table")).to_have_count(0)
    # from a variant: the original is Before, the variant After, compared at once
    pg.goto(f"{server['url']}/l/cmp-sohei.yaml")
    pg.get_by_role("button", name="Variant", exact=True).click()
    pg.wait_for_url(re.compile(r"/l/cmp-sohei-variant\.yaml\?variant_of="))
    pg.locator("#compare-link").click()
    pg.wait_for_url(re.compile(r"/compare\?"))
    expect(pg.locator("#cmp-a")).to_have_value("cmp-sohei.yaml")
    expect(pg.locator("#cmp-b")).to_have_value("cmp-sohei-variant.yaml")
    expect(pg.locator("#compare-table")).to_contain_text("(variant)")
    # from the original that now has a variant: the same two, the original Before
    pg.goto(f"{server['url']}/l/cmp-sohei.yaml")
    pg.locator("#compare-link").click()
    pg.wait_for_url(re.compile(r"/compare\?"))
    expect(pg.locator("#cmp-a")).to_have_value("cmp-sohei.yaml")
    expect(pg.locator("#cmp-b")).to_have_value("cmp-sohei-variant.yaml")
