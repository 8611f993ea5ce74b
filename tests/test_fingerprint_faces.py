"""One fingerprint for a list on every face: ``check --format csv`` and ``json``, ``print --book``,
``show`` of the file and of its share code, an event's submission answer, pages, export,
``/api/reveal``, book and ``event verify``, and the web builder's Share tab, for a list using a
pack installed into the packs folder, one using a bundled pack and one using none; and the
fingerprint recomputed by hand from docs/fingerprint.md."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
FP_TEXT = r"[0-9a-f]{4}(?: [0-9a-f]{4}){4}"  # 20 hex digits in five groups of four
FP = re.compile(FP_TEXT)

CLUB = (
    "system: senshiai\nname: Club cards\nversion: '1'\n"
    "cards:\n  - {name: Club Samurai, type: troop, speed: 1, power: 2/1/3, assumed: test}\n"
)
INSTALLED = "system: senshiai\nname: Club deck\npacks: [Club cards]\ncards: {Club Samurai: 3, Warriors: 2}\n"
NONE = "system: senshiai\nname: Plain deck\ncards: {Warriors: 4, Militiamen: 2}\n"


@pytest.fixture
def lists(tmp_path, monkeypatch, cli):
    """A workspace with the three lists (the bundled pack's list beside the example packs), the
    Club pack installed into a packs folder of the test's own, as ``daimyo pack install`` does."""
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "user-packs"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club.yaml").write_text(CLUB, encoding="utf-8")
    r = cli("pack", "install", tmp_path / "club.yaml")
    assert r.code == 0, r.stderr
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLES / "packs", ws / "packs")
    files = {
        "installed": ws / "club-deck.yaml",
        "bundled": ws / "senshiai-northern-host.yaml",
        "none": ws / "plain-deck.yaml",
    }
    files["installed"].write_text(INSTALLED, encoding="utf-8")
    shutil.copy(EXAMPLES / "senshiai-northern-host.yaml", files["bundled"])
    files["none"].write_text(NONE, encoding="utf-8")
    return ws, files


def by_hand(path: Path, pack_hashes: list[str]) -> str:
    """docs/fingerprint.md, followed by hand: the canonical list as ``daimyo export --to json``
    writes it, without checked_with and packs, with the packs' full content hashes."""
    from builder.share.api import export_source

    canon = json.loads(export_source(str(path), "json"))
    canon.pop("checked_with", None)
    canon.pop("packs", None)
    body = {"list": canon, "packs": pack_hashes} if pack_hashes else canon
    blob = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    digest = hashlib.sha256(blob).hexdigest()
    return " ".join(digest[i : i + 4] for i in range(0, 20, 4))


def pdf_text(path) -> str:
    from pypdf import PdfReader

    return "\n".join(p.extract_text() for p in PdfReader(str(path)).pages)


def book_fingerprints(path) -> list[str]:
    """The fingerprint printed on each list's page of a book, in the order of the lists."""
    return [m.group(1) for m in re.finditer(rf"Fingerprint ({FP_TEXT})", pdf_text(path))]


def test_every_face_shows_one_fingerprint_per_list(cli, lists, tmp_path):
    ws, files = lists
    names = list(files)
    paths = [files[n] for n in names]

    # check --format csv: the organiser's spreadsheet
    r = cli("check", *paths, "--format", "csv")
    assert r.code in (0, 1), r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    want = {n: row["fingerprint"] for n, row in zip(names, rows, strict=True)}
    assert all(FP.fullmatch(v) for v in want.values()), want
    assert len(set(want.values())) == 3

    # check --format json: the same value, and the packs' hashes it covers
    data = json.loads(cli("check", *paths, "--format", "json").stdout)
    assert {n: d["fingerprint"] for n, d in zip(names, data, strict=True)} == want
    hashes = {n: [p["hash"] for p in d.get("packs") or []] for n, d in zip(names, data, strict=True)}
    assert len(hashes["installed"]) == 1 and len(hashes["bundled"]) == 1 and hashes["none"] == []
    assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes["installed"] + hashes["bundled"])

    # recomputed by hand as docs/fingerprint.md says
    assert {n: by_hand(files[n], hashes[n]) for n in names} == want

    # print --book: each list's page
    book = tmp_path / "book.pdf"
    assert cli("print", *paths, "--book", "-o", book).code == 0
    assert book_fingerprints(book) == [want[n] for n in names]

    # share views: daimyo show of the file and of its share code
    for n in names:
        shown = cli("show", files[n]).stdout
        assert f"fingerprint {want[n]}" in shown, (n, shown)
        code = cli("export", files[n], "--to", "code").stdout.strip()
        assert f"fingerprint {want[n]}" in cli("show", code).stdout, n

    # the web builder: the list's Share tab
    from builder.web.app import create_app

    token = "test-token-0123456789abcdef"
    app = create_app(ws, token=token, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as web:
        assert web.get(f"/?token={token}", follow_redirects=False).status_code == 303
        for n in names:
            page = web.get(f"/l/{files[n].name}/share")
            assert page.status_code == 200, page.text
            assert re.search(r'id="fingerprint">([^<]*)<', page.text).group(1) == want[n], n

    # an event: every list handed in by a player (as its share code for one of them)
    folder = str(tmp_path / "league")
    r = cli("event", "new", folder, "--name", "League", "--system", "senshiai")
    assert r.code == 0, r.stderr
    r = cli("event", "players", folder, *[a for n in names for a in ("--add", n)], "--format", "csv")
    tokens = {row["name"]: row["token"] for row in csv.DictReader(io.StringIO(r.stdout))}
    from builder.event.web.app import create_app as event_app

    with TestClient(event_app(folder), base_url="http://127.0.0.1:8766") as srv:
        for n in names:
            text = files[n].read_text(encoding="utf-8")
            if n == "bundled":
                text = cli("export", files[n], "--to", "code").stdout.strip()
            r = srv.post("/api/submissions", json={"list": text}, headers={"Authorization": f"Bearer {tokens[n]}"})
            assert r.status_code == 201, r.text
            assert r.json()["fingerprint"] == want[n], n  # what the player is shown
        assert cli("event", "reveal", folder).code == 0
        revealed = srv.get("/api/reveal")
        assert revealed.status_code == 200
        subs = revealed.json()["submissions"]
        assert {s["player"]: s["fingerprint"] for s in subs} == want
        for s in subs:  # the public page of each list
            page = srv.get(f"/lists/{s['id']}").text
            assert f"<code>{want[s['player']]}</code>" in page
    saved = tmp_path / "revealed.json"
    saved.write_bytes(revealed.content)

    # event export, CSV and JSON
    rows = list(csv.DictReader(io.StringIO(cli("event", "export", folder, "--format", "csv").stdout)))
    assert {x["player"]: x["fingerprint"] for x in rows} == want
    rows = json.loads(cli("event", "export", folder, "--format", "json").stdout)
    assert {x["player"]: x["fingerprint"] for x in rows} == want

    # event book, with players' names and for judges
    ebook = tmp_path / "event.pdf"
    assert cli("event", "book", folder, "-o", ebook).code == 0
    assert sorted(book_fingerprints(ebook)) == sorted(want.values())
    judges = tmp_path / "judges.pdf"
    assert cli("event", "book", folder, "-o", judges, "--anonymous").code == 0
    assert book_fingerprints(judges) == sorted(want.values())

    # event verify, from the folder and from the saved reveal: each list's fingerprint recomputed
    for source in (folder, saved):
        r = cli("event", "verify", source)
        assert r.code == 0, r.stdout
        for n in names:
            line = next(ln for ln in r.stdout.splitlines() if f'"{n}"' in ln or f" {n} " in ln)
            assert line.startswith("ok") and line.endswith(f"fingerprint {want[n]}"), line


def test_verify_names_a_fingerprint_the_event_shows_wrongly(cli, lists, tmp_path):
    _ws, files = lists
    folder = str(tmp_path / "league")
    assert cli("event", "new", folder, "--name", "League", "--system", "senshiai").code == 0
    r = cli("event", "players", folder, "--add", "Aiko", "--format", "csv")
    token = next(csv.DictReader(io.StringIO(r.stdout)))["token"]
    from builder.event.web.app import create_app as event_app

    with TestClient(event_app(folder), base_url="http://127.0.0.1:8766") as srv:
        text = files["installed"].read_text(encoding="utf-8")
        assert srv.post(
            "/api/submissions", json={"list": text}, headers={"Authorization": f"Bearer {token}"}
        ).is_success
        assert cli("event", "reveal", folder).code == 0
        data = srv.get("/api/reveal").json()
    right = data["submissions"][0]["fingerprint"]
    data["submissions"][0]["fingerprint"] = "0000 0000 0000 0000 0000"
    saved = tmp_path / "revealed.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    r = cli("event", "verify", saved)
    assert r.code == 1
    assert (
        f"fingerprint 0000 0000 0000 0000 0000 shown by the event does not match the list (it gives {right})"
        in r.stdout
    )


def test_the_fingerprint_covers_the_installed_pack_content(cli, lists, tmp_path):
    _ws, files = lists

    def value():
        r = cli("check", files["installed"], "--format", "csv")
        return next(csv.DictReader(io.StringIO(r.stdout)))["fingerprint"]

    before = value()
    changed = tmp_path / "club2.yaml"
    changed.write_text(CLUB.replace("'1'", "'2'").replace("power: 2/1/3", "power: 3/1/3"), encoding="utf-8")
    assert cli("pack", "install", changed).code == 0
    after = value()
    assert after != before  # the list's text is the same; the pack it uses changed


def test_the_spreadsheet_takes_fingerprint_and_code_of_the_list_as_read(cli, monkeypatch):
    """``check --format csv`` reads each file once: its fingerprint and share code are those of
    the list as it was read for its check, the same as ``--format json`` and ``export --to
    code`` give."""
    from builder.lists import document

    path = EXAMPLES / "kensei-buke.yaml"
    reads: list[str] = []
    original = document.load_list

    def counted(p, *args, **kwargs):
        reads.append(str(p))
        return original(p, *args, **kwargs)

    monkeypatch.setattr(document, "load_list", counted)
    monkeypatch.setattr("builder.clicheck.load_list", counted)
    row = next(csv.DictReader(io.StringIO(cli("check", path, "--format", "csv").stdout)))
    assert reads == [str(path)]
    assert row["fingerprint"] == json.loads(cli("check", path, "--format", "json").stdout)[0]["fingerprint"]
    assert FP.fullmatch(row["fingerprint"]), row
    assert row["share_code"] == cli("export", path, "--to", "code").stdout.strip()
