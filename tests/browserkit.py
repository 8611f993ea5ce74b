"""Helpers for the browser tests: waits for the state a finished request leaves behind, never
for a time. A test presses a control only once the page is idle (no htmx request in flight, no
swap or settle under way), so that a row being redrawn is never pressed.
"""

from __future__ import annotations

from playwright.sync_api import expect

IDLE = "() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')"


def idle(pg) -> None:
    """Wait until no htmx request, swap or settle is under way on the page."""
    pg.wait_for_function(IDLE)


def version(pg) -> str:
    return pg.locator("#version").input_value()


def changed(pg, before: str) -> None:
    """Wait until the list's version is no longer ``before`` (the server saved a change), then idle."""
    expect(pg.locator("#version")).not_to_have_value(before)
    idle(pg)


def search_catalog(pg, query: str) -> None:
    """Type ``query`` in the catalog search and wait until the rows shown are its answer."""
    pg.fill("#catalog-q", query)
    catalog_shows(pg, query)


def catalog_shows(pg, query: str) -> None:
    """Wait until the catalog's rows are the answer to ``query`` and the page is idle."""
    pg.wait_for_function(
        "q => { const r = document.querySelector('#catalog-results [data-q]'); return r && r.dataset.q === q; }",
        arg=query)
    idle(pg)


def catalog_row(pg, name: str):
    return pg.locator("ul.catalog li.opt", has=pg.get_by_role("button", name=name, exact=True))


def add_from_catalog(pg, search: str, name: str) -> None:
    """Search the catalog, press Add beside ``name`` and wait until the list holds one more of it."""
    search_catalog(pg, search)
    row = catalog_row(pg, name)
    expect(row).to_have_count(1)
    before = version(pg)
    had = pg.locator("ol.entries .entry-name", has_text=name).count()
    row.locator(".btn-add").click()
    changed(pg, before)
    expect(pg.locator("ol.entries .entry-name", has_text=name)).to_have_count(had + 1)


def wait_focus(pg, script: str, arg=None) -> None:
    """Wait until ``script`` (a function of the focused element and ``arg``) is true."""
    pg.wait_for_function(f"a => ({script})(document.activeElement, a)", arg=arg)
