"""The builder page's changes (``POST /l/F/edit``, ``/undo``, ``/redo``) are handed straight to
their route functions in front of the framework (``builder.web.app.PageEdits``): the answers,
good and bad, are exactly those the framework's own routes give, and every other request still
goes through the framework."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.web.app import PageEdits, create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "page-edits-token-0123456789"
REL = "kensei-buke.yaml"
SHOWN = ("content-type", "content-security-policy", "cache-control", "hx-trigger", "x-daimyo-flash")


def workspace(tmp_path: Path, name: str) -> Path:
    ws = tmp_path / name
    ws.mkdir()
    shutil.copy(ROOT / "examples" / REL, ws / REL)
    return ws


def clients(tmp_path: Path):
    """(through the guard and the fast path, straight to the framework's routes), each on its own
    copy of the list."""
    front = create_app(workspace(tmp_path, "front"), token=TOKEN, port=8765)
    c = TestClient(front, base_url="http://127.0.0.1:8765")
    c.headers.update({"Authorization": f"Bearer {TOKEN}", "HX-Request": "true"})
    framework = create_app(workspace(tmp_path, "framework"), token=TOKEN, port=8765).fastapi
    f = TestClient(framework, base_url="http://127.0.0.1:8765")
    f.headers.update({"HX-Request": "true"})
    return c, f


def same(a, b) -> None:
    assert a.status_code == b.status_code, (a.text[:300], b.text[:300])
    assert a.text == b.text
    assert {k: a.headers.get(k) for k in SHOWN} == {k: b.headers.get(k) for k in SHOWN}


def test_changes_undo_and_redo_answer_as_the_framework_routes_do(tmp_path):
    c, f = clients(tmp_path)
    version = c.get(f"/api/lists/{REL}").json()["version"]
    assert f.get(f"/api/lists/{REL}").json()["version"] == version  # the same list on both
    steps = [
        ("/edit", {"op": "models", "index": "2", "delta": "1"}),
        ("/edit", {"op": "models", "index": "2", "value": "7"}),
        ("/edit", {"op": "set", "key": "name", "value": "Renamed"}),
        ("/edit", {"op": "add", "item": "Yari Ashigaru", "models": "6"}),
        ("/undo", {}),
        ("/redo", {}),
        ("/edit", {"op": "remove", "index": "0"}),
        ("/undo", {}),
    ]
    for route, form in steps:
        a = c.post(f"/l/{REL}{route}", data={**form, "version": version})
        b = f.post(f"/l/{REL}{route}", data={**form, "version": version})
        assert a.status_code == 200, a.text[:300]
        same(a, b)
        version = c.get(f"/api/lists/{REL}").json()["version"]
    assert (tmp_path / "front" / REL).read_text() == (tmp_path / "framework" / REL).read_text()
    assert "name: Renamed" in (tmp_path / "front" / REL).read_text()


@pytest.mark.parametrize(
    "route, body, status",
    [
        (f"/l/{REL}/edit", {"op": "models", "index": "2", "delta": "1", "version": "0" * 16}, 409),  # stale page
        (f"/l/{REL}/edit", {"op": "models", "index": "99", "delta": "1"}, 400),  # no such entry
        (f"/l/{REL}/edit", {"op": "nonsense"}, 400),
        (f"/l/{REL}/undo", {}, 409),  # nothing to undo yet
        (f"/l/{REL}/redo", {}, 409),
        ("/l/missing.yaml/edit", {"op": "models", "index": "0", "delta": "1"}, 404),
        ("/l/.trash/old.yaml/edit", {"op": "models", "index": "0", "delta": "1"}, 403),
        ("/l/notes.txt/edit", {"op": "models", "index": "0", "delta": "1"}, 400),
    ],
)
def test_refusals_answer_as_the_framework_routes_do(tmp_path, route, body, status):
    c, f = clients(tmp_path)
    before = (tmp_path / "front" / REL).read_text()
    a, b = c.post(route, data=body), f.post(route, data=body)
    assert a.status_code == status, a.text[:300]
    same(a, b)
    assert a.headers["x-daimyo-flash"] == "1"  # shown in the page's flash, not in place of the list
    assert (tmp_path / "front" / REL).read_text() == before


def test_a_body_that_is_not_utf8_is_refused_as_the_framework_refuses_it(tmp_path):
    c, f = clients(tmp_path)
    kind = {"Content-Type": "application/x-www-form-urlencoded"}
    a = c.post(f"/l/{REL}/edit", content=b"op=set&key=name&value=\xff\xfe", headers=kind)
    b = f.post(f"/l/{REL}/edit", content=b"op=set&key=name&value=\xff\xfe", headers=kind)
    assert a.status_code == 400
    same(a, b)
    assert "not UTF-8" in a.text


@pytest.mark.parametrize(
    "body, kind",
    [
        (b"garbage", "multipart/form-data"),  # no boundary
        (b'--xx\r\nContent-Disposition: form-data; name="op"\r\n\r\nset', "multipart/form-data; boundary=xx"),
    ],
)
def test_a_form_the_parser_refuses_is_answered_as_the_framework_answers_it(tmp_path, body, kind):
    c, f = clients(tmp_path)
    before = (tmp_path / "front" / REL).read_text()
    a = c.post(f"/l/{REL}/edit", content=body, headers={"Content-Type": kind})
    b = f.post(f"/l/{REL}/edit", content=body, headers={"Content-Type": kind})
    assert 400 <= a.status_code < 500, a.text[:300]  # never a server error
    same(a, b)
    assert (tmp_path / "front" / REL).read_text() == before


def test_only_the_page_changes_skip_the_framework(tmp_path):
    app = create_app(workspace(tmp_path, "ws"), token=TOKEN, port=8765)
    front = app.app
    assert isinstance(front, PageEdits)
    reached: list[str] = []
    framework = front.app

    async def counting(scope, receive, send):
        reached.append(f"{scope['method']} {scope['path']}")
        await framework(scope, receive, send)

    front.app = counting
    c = TestClient(app, base_url="http://127.0.0.1:8765")
    c.headers.update({"Authorization": f"Bearer {TOKEN}", "HX-Request": "true"})
    version = c.get(f"/api/lists/{REL}").json()["version"]
    assert c.post(f"/l/{REL}/edit", data={"op": "models", "index": "2", "delta": "1", "version": version}).is_success
    assert c.post(f"/l/{REL}/undo", data={}).is_success
    assert c.get(f"/l/{REL}").is_success
    assert c.post(f"/l/{REL}/rename", data={"to": "renamed.yaml"}).status_code == 204  # htmx: a redirect
    assert reached == [f"GET /api/lists/{REL}", f"GET /l/{REL}", f"POST /l/{REL}/rename"]


def test_numbers_are_shown_as_a_person_reads_them():
    """``num`` (every count, cost and total the pages show) keeps whole numbers whole and gives
    fractions and other decimals one place, whatever the type it is given."""
    from fractions import Fraction

    from builder.web.views import num

    shown = [num(v) for v in (5, Fraction(7, 2), Fraction(6, 2), 3.0, 2.25, 2.26, -1.0)]
    assert shown == [5, 3.5, 3, 3, 2.2, 2.3, -1]
    assert [type(v) for v in shown] == [int, float, int, int, float, float, int]
    assert num(True) is True and num(None) is None and num("12 AP") == "12 AP"
