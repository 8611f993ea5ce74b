"""Several apps of the web builder in one process (as the tests make them) share the compiled
code of their templates and their routes, and nothing else: each keeps its own template globals
(its CSRF token), its own kept drawings of list rows, and answers from its own workspace. A
template whose text changed is compiled again."""

from __future__ import annotations

import inspect
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

import jinja2
from fastapi.testclient import TestClient

from builder.web.app import COMPILED, create_app

ROOT = Path(__file__).resolve().parent.parent
LIST = "kensei-buke.yaml"


def _open(app, token: str) -> TestClient:
    c = TestClient(app, base_url="http://127.0.0.1:8765")
    c.get(f"/?token={token}")
    return c


def _kept_rows(app) -> dict:
    """The row drawings an app keeps (what its ``entry_row`` draws from)."""
    entry_row = app.templates.env.globals["entry_row"]
    return inspect.getclosurevars(entry_row).nonlocals["rows"].drawn


def test_two_apps_keep_their_own_globals_and_rows(tmp_path):
    a_ws, b_ws = tmp_path / "a", tmp_path / "b"
    shutil.copytree(ROOT / "examples", a_ws)
    shutil.copytree(ROOT / "examples", b_ws)
    a = create_app(a_ws, token="apart-token-a-0123456789", csrf="csrf-of-app-a")
    b = create_app(b_ws, token="apart-token-b-0123456789", csrf="csrf-of-app-b")
    ea, eb = a.templates.env, b.templates.env
    assert ea is not eb
    assert ea.globals["csrf"] == "csrf-of-app-a" and eb.globals["csrf"] == "csrf-of-app-b"
    for name in ("entry_row", "entry_body", "kept"):
        assert ea.globals[name] is not eb.globals[name], name

    page_a = _open(a, a.token).get(f"/l/{LIST}")
    assert page_a.status_code == 200
    assert "csrf-of-app-a" in page_a.text and "csrf-of-app-b" not in page_a.text
    assert _kept_rows(a) and not _kept_rows(b)  # rows drawn by one app are kept by it alone

    page_b = _open(b, b.token).get(f"/l/{LIST}")
    assert page_b.status_code == 200
    assert "csrf-of-app-b" in page_b.text and "csrf-of-app-a" not in page_b.text
    assert _kept_rows(b) and _kept_rows(a) is not _kept_rows(b)

    # the compiled code is the same; the templates made from it are each app's own
    ta, tb = ea.get_template("builder.html"), eb.get_template("builder.html")
    assert ta is not tb and ta.globals["csrf"] != tb.globals["csrf"]
    assert ta.root_render_func.__code__ is tb.root_render_func.__code__


def test_two_apps_answer_from_their_own_workspaces(tmp_path):
    a_ws, b_ws = tmp_path / "a", tmp_path / "b"
    shutil.copytree(ROOT / "examples", a_ws)
    shutil.copytree(ROOT / "examples", b_ws)
    (b_ws / LIST).rename(b_ws / "only-b.yaml")
    a = create_app(a_ws, token="apart-token-a-0123456789")
    b = create_app(b_ws, token="apart-token-b-0123456789")
    assert [r.endpoint for r in a.fastapi.routes[-5:]] == [r.endpoint for r in b.fastapi.routes[-5:]]  # shared
    ca, cb = _open(a, a.token), _open(b, b.token)
    for c, ws, mine, other in ((ca, a_ws, LIST, "only-b.yaml"), (cb, b_ws, "only-b.yaml", LIST)):
        listed = c.get("/api/lists").json()
        assert listed["workspace"] == str(ws.resolve())
        files = [i["path"] for i in listed["lists"]]
        assert mine in files and other not in files
        assert c.get(f"/api/lists/{mine}/check").status_code == 200  # a sync route with a path
        assert c.get(f"/api/lists/{other}/check").status_code == 404
        page = c.get(f"/l/{mine}")  # a route taking the request itself
        assert page.status_code == 200 and page.text == c.get(f"/l/{mine}").text
        assert c.get(f"/l/{other}").status_code == 404
    # an async route taking a form: the new list is written in the workspace of the app asked
    r = ca.post(
        "/new",
        data={"system": "kensei", "name": "Fresh", "clan": "buke", "points": "400", "commander": "hatamoto"},
        headers={"X-CSRF-Token": a.csrf, "HX-Request": "true"},
    )
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/l/Fresh.yaml", r.text[:300]
    assert (a_ws / "Fresh.yaml").exists() and not (b_ws / "Fresh.yaml").exists()


def test_a_changed_template_is_compiled_again(tmp_path):
    (tmp_path / "t.html").write_text("first {{ x }}", encoding="utf-8")

    def env():
        return jinja2.Environment(loader=jinja2.FileSystemLoader(str(tmp_path)), bytecode_cache=COMPILED)

    assert env().get_template("t.html").render(x=1) == "first 1"
    assert env().get_template("t.html").render(x=2) == "first 2"
    (tmp_path / "t.html").write_text("second {{ x }}", encoding="utf-8")
    assert env().get_template("t.html").render(x=3) == "second 3"
