"""``daimyo diff A B`` and the web builder's comparison: the same answer for every pair of the
bundled examples, entries matched by what they are, totals and verdicts before and after;
lists duplicated as variants."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from markupsafe import escape

from builder.lists.diff import diff_lines, variant_name

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))
BUKE = (ROOT / "examples" / "kensei-buke.yaml").read_text()


@pytest.fixture()
def ws(tmp_path, monkeypatch):
    root = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", root)
    monkeypatch.chdir(root)
    return root


def test_a_changed_army_reads_unit_by_unit(ws, cli):
    # nine Yari Ashigaru become twelve (5 AP each) and the Yumi Samurai go (60 AP)
    changed = BUKE.replace("    models: 9\n", "    models: 12\n").replace(
        "  - troop: Yumi Samurai           # ranged, 60 AP\n    models: 4\n", ""
    )
    assert changed != BUKE and "Yumi" not in changed
    Path("b.yaml").write_text(changed)
    r = cli("diff", "kensei-buke.yaml", "b.yaml")
    assert r.code == 1, r
    lines = r.stdout.splitlines()
    assert lines[0] == '--- kensei-buke.yaml: kensei "Buke vanguard (rulebook sample)", 200 / 200 AP, legal'
    assert lines[1] == '+++ b.yaml: kensei "Buke vanguard (rulebook sample)", 155 / 200 AP, legal'
    assert "- troops: Yumi Samurai (1 unit, 4 models, 60 AP)" in lines
    assert "~ troops: Yari Ashigaru: 1 unit, 9 models, 45 AP -> 1 unit, 12 models, 60 AP" in lines
    assert "total: 200 / 200 AP -> 155 / 200 AP" in lines
    assert not any(line.startswith("+ ") for line in lines)  # nothing added
    d = json.loads(cli("diff", "kensei-buke.yaml", "b.yaml", "--format", "json").stdout)
    assert [e["name"] for e in d["removed"]] == ["Yumi Samurai"]
    assert d["changed"] == [
        {
            "key": "Yari Ashigaru",
            "name": "Yari Ashigaru",
            "what": "troops",
            "before": "1 unit, 9 models, 45 AP",
            "after": "1 unit, 12 models, 60 AP",
            "count_before": 9,
            "count_after": 12,
        }
    ]
    assert (d["a"]["total"], d["b"]["total"]) == (200, 155)


def test_moving_troops_about_is_no_change_and_exit_0(ws, cli):
    lines = BUKE.splitlines(keepends=True)
    start = lines.index("  - troop: Samurai Yari           # 25 AP\n")
    moved = lines[:start] + lines[start + 2 : start + 4] + lines[start : start + 2] + lines[start + 4 :]
    assert "".join(moved) != BUKE
    Path("moved.yaml").write_text("".join(moved))
    r = cli("diff", "kensei-buke.yaml", "moved.yaml")
    assert r.code == 0, r
    assert "no difference in the lists' entries or settings" in r.stdout


def test_a_verdict_that_turns_is_shown_with_the_rule(ws, cli):
    Path("over.yaml").write_text(BUKE.replace("    models: 9\n", "    models: 10\n"))  # 205 of 200 AP
    d = json.loads(cli("diff", "kensei-buke.yaml", "over.yaml", "-f", "json").stdout)
    assert (d["a"]["verdict"], d["b"]["verdict"]) == ("legal", "illegal")
    assert d["b"]["total"] == 205 and d["errors_new"] and not d["errors_fixed"]
    back = json.loads(cli("diff", "over.yaml", "kensei-buke.yaml", "-f", "json").stdout)
    assert back["errors_fixed"] == d["errors_new"] and not back["errors_new"]
    text = cli("diff", "kensei-buke.yaml", "over.yaml").stdout
    assert "verdict: legal -> ILLEGAL (1 error)" in text


def test_cards_and_settings(ws, cli):
    d = json.loads(cli("diff", "satsuma-samurai.yaml", "satsuma-imperial.yaml", "-f", "json").stdout)
    assert {"key": "side", "before": "samurai", "after": "imperial"} in d["settings"]
    assert d["removed"] and d["added"] and d["same_game"]
    assert all(e["what"] == "cards" for e in d["removed"] + d["added"])
    assert sum(e["count"] for e in d["removed"]) - sum(e["count"] for e in d["added"]) == sum(
        c["count_after"] - c["count_before"] for c in d["changed"]
    )  # both decks hold 46 cards


def test_bad_input_is_one_line_and_exit_2(ws, cli):
    r = cli("diff", "kensei-buke.yaml", "nope.yaml")
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == ["nope.yaml: error: file not found (check the path)"]
    r = cli("diff", "kensei-buke.yaml", "kensei-kuge.yaml", "-f", "xml")
    assert r.code == 2 and "unknown format 'xml' (use text or json)" in r.stderr


def test_variant_names():
    assert variant_name("Buke") == "Buke (variant)"
    assert variant_name("Buke (variant)") == "Buke (variant 2)"
    assert variant_name("Buke (variant 2)") == "Buke (variant 3)"


# -- the web comparison says the same -------------------------------------------------------------

pytest.importorskip("fastapi")
pytest.importorskip("httpx")


@pytest.fixture()
def web(ws):
    from fastapi.testclient import TestClient

    from builder.web.app import create_app

    app = create_app(ws, token="t" * 24, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:  # one event loop for all its requests
        assert c.get("/?token=" + "t" * 24, follow_redirects=False).status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        yield c


def test_cli_and_web_agree_on_every_pair_of_examples(ws, cli, web):
    pairs = list(itertools.product(EXAMPLES, EXAMPLES))
    assert len(pairs) == 100
    for a, b in pairs:
        r = cli("diff", a, b, "--format", "json")
        assert r.code == (0 if a == b else 1), (a, b, r.stderr)
        got = web.get("/api/diff", params={"a": a, "b": b})
        assert got.status_code == 200, got.text
        assert got.json() == json.loads(r.stdout), (a, b)
        assert cli("diff", a, b).stdout.splitlines() == diff_lines(got.json())
        page = web.get("/compare", params={"a": a, "b": b}).text
        for e in got.json()["added"] + got.json()["removed"] + got.json()["changed"]:
            assert str(escape(e["name"])) in page


def test_compare_page_shows_before_and_after(ws, web):
    Path("b.yaml").write_text(BUKE.replace("    models: 9\n", "    models: 10\n"))
    page = web.get("/compare", params={"a": "kensei-buke.yaml", "b": "b.yaml"}).text
    assert "200 / 200 AP" in page and "205 / 200 AP" in page
    assert "1 unit, 9 models, 45 AP → 1 unit, 10 models, 50 AP" in page
    assert "ILLEGAL (1 error)" in page
    assert web.get("/compare", params={"a": "kensei-buke.yaml", "b": "../x.yaml"}).status_code in (400, 403, 404)
    assert web.get("/api/diff", params={"a": "kensei-buke.yaml", "b": "nope.yaml"}).status_code == 404


def test_duplicate_as_variant(ws, web, cli):
    r = web.post("/l/kensei-buke.yaml/variant", headers={"HX-Request": "true"})
    assert r.status_code == 204
    assert r.headers["HX-Redirect"] == "/l/kensei-buke-variant.yaml?variant_of=kensei-buke.yaml"
    text = (ws / "kensei-buke-variant.yaml").read_text()
    assert "name: Buke vanguard (rulebook sample) (variant)\n" in text
    assert "# Buke vanguard: the rulebook's sample list" in text  # comments kept
    assert (ws / "kensei-buke.yaml").read_text() == BUKE  # the original untouched
    page = web.get("/l/kensei-buke-variant.yaml?variant_of=kensei-buke.yaml").text
    assert "Compare with the original" in page
    again = web.post("/api/lists/kensei-buke-variant.yaml/variant").json()
    assert again == {"path": "kensei-buke-variant-variant.yaml"}
    assert "(variant 2)" in (ws / again["path"]).read_text()
    web.post("/l/kensei-buke.yaml/variant", headers={"HX-Request": "true"})
    assert (ws / "kensei-buke-variant-2.yaml").exists()  # the first variant is not overwritten
    d = json.loads(cli("diff", "kensei-buke.yaml", "kensei-buke-variant.yaml", "-f", "json").stdout)
    assert d["settings"] == [
        {
            "key": "name",
            "before": "Buke vanguard (rulebook sample)",
            "after": "Buke vanguard (rulebook sample) (variant)",
        }
    ]
    assert not (d["added"] or d["removed"] or d["changed"])
