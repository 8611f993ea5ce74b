"""Helpers for the browser tests: waits for the state a finished request leaves behind, never
for a time. A test presses a control only once the page is idle (no htmx request in flight, no
swap or settle under way), so that a row being redrawn is never pressed.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def _chromium() -> str:
    """``$DAIMYO_CHROMIUM``, else Debian's headless shell (package ``chromium-headless-shell``: the
    same Blink without the browser's windows and their own pages, which cost about as much CPU
    as the pages under test), else Debian's ``chromium``."""
    if os.environ.get("DAIMYO_CHROMIUM"):
        return os.environ["DAIMYO_CHROMIUM"]
    shell = "/usr/bin/chromium-headless-shell"
    return shell if Path(shell).exists() else "/usr/bin/chromium"


CHROMIUM = _chromium()
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# limits for a hang, not for speed: a loaded machine may take long to start a browser or a server
START = 120


def have_chromium() -> bool:
    return Path(CHROMIUM).exists()


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    """The system's Chromium, headless, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, timeout=START * 1000)
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def serve(make_app: Callable[[int], Any]) -> Iterator[str]:
    """Run ``make_app(port)`` on uvicorn in a thread, on a socket bound before the server starts
    (no other process can take the port meanwhile); yields the base URL."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(make_app(port), log_level="warning", access_log=False))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.005)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(30)
        sock.close()


def expect(*args: Any, **kwargs: Any) -> Any:
    from playwright.sync_api import expect as _expect

    return _expect(*args, **kwargs)


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
        arg=query,
    )
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


class Shots:
    """Screenshots of pages as the tests leave them, into ``$DAIMYO_SCREENSHOTS`` when it is set
    (the pictures of the README come from there); none without it, as no test reads them back
    and each costs the browser a drawing of the whole page."""

    def __init__(self, folder: str | None) -> None:
        self.folder = Path(folder) if folder else None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)

    def __call__(self, pg, name: str, **kwargs: Any) -> None:
        if self.folder is not None:
            pg.screenshot(path=str(self.folder / name), **kwargs)
