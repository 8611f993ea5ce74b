"""The pack editor of the web builder, through the framework's test client: a pack made from
nothing, entries checked as typed (each problem beside its field), saved with the file's
comments kept, the card face previewed, the spreadsheet downloaded and uploaded, and the
refusals (paths, names, a file changed on disk) as 4xx."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token-0123456789abcdef"
BASE = "http://127.0.0.1:8765"
HX = {"HX-Request": "true"}

CAPITAL = {
    "f_name": "Hill Fort",
    "f_type": "terrain",
    "f_subtype": "Capital",
    "f_cost": "N",
    "f_paths": "Earth; Water",
    "f_limit": "3",
    "f_speed": "0",
    "f_power": "2/1/8",
    "f_assumed": "printed on my cards",
}


@pytest.fixture()
def c(tmp_path, monkeypatch):
    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.setenv("DAIMYO_PACKS", str(tmp_path / "user-packs"))
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url=BASE) as client:  # one event loop for all its requests
        assert client.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        client.headers.update({"X-CSRF-Token": app.csrf})
        client.ws = ws
        yield client


def version(page: str) -> str:
    return re.search(r'name="version" value="([0-9a-f]+)"', page).group(1)


def errors(html: str) -> dict:
    import html as h

    return {
        m.group(1): h.unescape(m.group(2))
        for m in re.finditer(r'id="err-([a-z_]+)" hx-swap-oob="true" role="alert">([^<]*)<', html)
        if m.group(2)
    }


def test_make_a_pack_and_edit_it(c):
    r = c.post("/packs/new", data={"system": "senshiai", "name": "Club cards"}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/packs/edit/club-cards.yaml"
    pack = c.ws / "packs" / "club-cards.yaml"
    assert pack.read_text().startswith("# ")  # the commented template
    page = c.get("/packs/edit/club-cards.yaml").text
    for field in ("name", "type", "subtype", "cost", "paths", "power", "abilities"):
        assert f'name="f_{field}"' in page, field
    v = version(page)
    # as typed: each problem beside its field
    bad = {**CAPITAL, "f_paths": "Earth; Fire", "f_speed": "fast", "section": "cards", "version": v}
    r = c.post("/packs/edit/club-cards.yaml/check", data=bad, headers=HX)
    assert r.status_code == 200
    assert errors(r.text) == {"speed": "'fast' is not a whole number (speed is whole number)"}
    bad["f_speed"] = "0"
    r = c.post("/packs/edit/club-cards.yaml/check", data=bad, headers=HX)
    assert errors(r.text) == {"paths": "path 'Fire' is not one of Air, Earth, Water"}
    r = c.post("/packs/edit/club-cards.yaml/save", data=bad, headers=HX)
    assert r.status_code == 422 and "Fire" in r.text
    assert "Hill Fort" not in pack.read_text()
    good = {**CAPITAL, "section": "cards", "version": v}
    r = c.post("/packs/edit/club-cards.yaml/check", data=good, headers=HX)
    assert errors(r.text) == {} and "✓ valid" in r.text
    # the card face as typed, before it is saved; nothing is left beside the pack
    import base64

    src = re.search(r'id="card-preview" hx-swap-oob="true" src="data:image/png;base64,([^"]+)"', r.text).group(1)
    assert base64.b64decode(src).startswith(b"\x89PNG")
    assert sorted(p.name for p in pack.parent.iterdir()) == ["club-cards.yaml"]
    r = c.post("/packs/edit/club-cards.yaml/save", data=good, headers=HX)
    assert r.status_code == 204, r.text
    assert r.headers["HX-Redirect"] == "/packs/edit/club-cards.yaml?section=cards&entry=Hill+Fort"
    text = pack.read_text()
    assert "# " in text.split("cards:")[0] and "  - name: Hill Fort\n" in text  # comments kept
    from builder.packs.manage import check_pack

    assert check_pack(pack).added == {"cards": 1}
    page = c.get(r.headers["HX-Redirect"]).text
    assert 'value="Hill Fort"' in page and 'id="card-preview"' in page
    png = c.get("/packs/edit/club-cards.yaml/preview.png", params={"entry": "Hill Fort"})
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    # a second entry with the same name is refused beside the name
    r = c.post("/packs/edit/club-cards.yaml/check", data={**good, "version": version(page)}, headers=HX)
    assert errors(r.text) == {"name": "the pack already has an entry 'Hill Fort'"}
    # editing it in place (the original name given)
    r = c.post(
        "/packs/edit/club-cards.yaml/save",
        headers=HX,
        data={**good, "f_power": "3/1/8", "original": "Hill Fort", "version": version(page)},
    )
    assert r.status_code == 204 and "power: 3/1/8" in pack.read_text() and pack.read_text().count("Hill Fort") == 1
    # a file changed on disk since the page was read is not overwritten
    r = c.post(
        "/packs/edit/club-cards.yaml/save", headers=HX, data={**good, "f_name": "Other Fort", "version": version(page)}
    )
    assert r.status_code == 409 or r.status_code == 400
    assert "changed on disk" in r.text and "Other Fort" not in pack.read_text()
    # the spreadsheet, down and up
    csv_text = c.get("/packs/edit/club-cards.yaml/sheet.csv").text
    assert "Hill Fort" in csv_text
    page = c.get("/packs/edit/club-cards.yaml").text
    up = csv_text.replace("Hill Fort", "Sea Fort")
    r = c.post(
        "/packs/edit/club-cards.yaml/upload",
        headers=HX,
        data={"version": version(page)},
        files={"sheet": ("more.csv", up.encode(), "text/csv")},
    )
    assert r.status_code == 204, r.text
    assert "Sea Fort" in pack.read_text() and "Hill Fort" in pack.read_text()
    # removing an entry
    page = c.get("/packs/edit/club-cards.yaml").text
    r = c.post(
        "/packs/edit/club-cards.yaml/remove",
        headers=HX,
        data={"section": "cards", "name": "Sea Fort", "version": version(page)},
    )
    assert r.status_code == 204 and "Sea Fort" not in pack.read_text()
    assert "Club cards" in c.get("/packs").text


@pytest.mark.parametrize("file", ["../x.yaml", ".hidden.yaml", "a/b.yaml", "x.txt", "missing.yaml"])
def test_only_pack_files_of_the_workspace_packs_folder(c, file):
    r = c.get(f"/packs/edit/{file}")
    assert r.status_code in (404, 400)


def test_new_pack_refusals(c):
    assert c.post("/packs/new", data={"system": "chess", "name": "X"}, headers=HX).status_code == 400
    assert c.post("/packs/new", data={"system": "senshiai", "name": ""}, headers=HX).status_code == 400
    assert c.post("/packs/new", data={"system": "senshiai", "name": "Mine"}, headers=HX).status_code == 204
    r = c.post("/packs/new", data={"system": "senshiai", "name": "Mine"}, headers=HX)
    assert r.status_code == 400 and "exists already" in r.text


def tree(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("how", ["packs", "two links"])
def test_a_packs_folder_linked_outside_the_workspace_is_never_read_or_written(c, tmp_path, how):
    """The editor neither shows, downloads, changes nor makes a pack file that resolves outside
    the workspace, whether ``packs/`` itself is the link or a folder above what it points to."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = (ROOT / "examples" / "packs" / "senshiai-example.yaml").read_text(encoding="utf-8")
    (outside / "club.yaml").write_text(secret, encoding="utf-8")
    if how == "packs":
        (c.ws / "packs").symlink_to(outside, target_is_directory=True)
    else:  # packs -> inner/packs, and inner -> a folder outside
        (tmp_path / "far" / "packs").mkdir(parents=True)
        (tmp_path / "far" / "packs" / "club.yaml").write_text(secret, encoding="utf-8")
        (c.ws / "inner").symlink_to(tmp_path / "far", target_is_directory=True)
        (c.ws / "packs").symlink_to(Path("inner") / "packs", target_is_directory=True)
        outside = tmp_path / "far"
    before = tree(outside)
    words = "the workspace's packs folder leads outside the workspace (a symbolic link); not served"
    for r in (
        c.get("/packs/edit/club.yaml"),
        c.get("/packs/edit/club.yaml/sheet.csv"),
        c.get("/packs/edit/club.yaml/preview.png", params={"entry": "Hill Fort"}),
        c.post("/packs/edit/club.yaml/check", data={**CAPITAL, "section": "cards"}, headers=HX),
        c.post("/packs/edit/club.yaml/save", data={**CAPITAL, "section": "cards"}, headers=HX),
        c.post("/packs/edit/club.yaml/remove", data={"section": "cards", "name": "Shinobi"}, headers=HX),
        c.post(
            "/packs/edit/club.yaml/upload",
            headers=HX,
            files={"sheet": ("more.csv", b"section,name\ncards,Sea Fort\n", "text/csv")},
        ),
        c.post("/packs/new", data={"system": "senshiai", "name": "Fresh"}, headers=HX),
    ):
        assert r.status_code == 403, (r.request.url, r.status_code, r.text[:300])
        assert words in html.unescape(r.text)
    assert tree(outside) == before
    assert "club.yaml" not in c.get("/packs").text  # the Packs page lists none of them either


def test_a_sheet_of_150_cards_is_added_in_one_write_of_the_pack(c, monkeypatch):
    """The rows of an uploaded sheet go into the pack in one atomic write (a server stopped
    meanwhile leaves the pack as it was or with every row), read and written once whatever
    the number of rows: the work grows with the sheet, not with its square."""
    from builder import yamlio
    from builder.kit import edit
    from builder.packs.sheet import export_csv

    assert c.post("/packs/new", data={"system": "senshiai", "name": "Club"}, headers=HX).status_code == 204
    pack = c.ws / "packs" / "club.yaml"
    from builder.catalog.packid import read_pack

    cards = read_pack(ROOT / "examples" / "packs" / "senshiai-example.yaml")[0]["cards"]
    rows = [dict(cards[i % len(cards)], name=f"Card {i}", assumed="entered by hand") for i in range(150)]
    sheet = export_csv({"name": "Club", "system": "senshiai", "cards": rows}).encode()
    writes, parses = [], []
    real_write, real_rt = yamlio.atomic_write, edit.roundtrip_yaml

    def counted_write(path, *a, **k):
        if Path(path).suffix == ".yaml":  # not the catalog's cache
            writes.append(Path(path).name)
        return real_write(path, *a, **k)

    def counted_rt(*a, **k):
        parses.append(1)
        return real_rt(*a, **k)

    monkeypatch.setattr(yamlio, "atomic_write", counted_write)
    monkeypatch.setattr(edit, "roundtrip_yaml", counted_rt)
    page = c.get("/packs/edit/club.yaml").text
    r = c.post(
        "/packs/edit/club.yaml/upload",
        headers=HX,
        data={"version": version(page)},
        files={"sheet": ("cards.csv", sheet, "text/csv")},
    )
    assert r.status_code == 204, r.text
    assert writes == ["club.yaml"] and len(parses) == 1
    text = pack.read_text()
    assert text.count("- name: Card ") == 150 and text.startswith("# ")  # every row, comments kept
    # the same sheet again replaces the rows in place: still 150 entries, one write more
    page = c.get("/packs/edit/club.yaml").text
    again = sheet.replace(b"entered by hand", b"checked twice")
    r = c.post(
        "/packs/edit/club.yaml/upload",
        headers=HX,
        data={"version": version(page)},
        files={"sheet": ("cards.csv", again, "text/csv")},
    )
    assert r.status_code == 204 and writes == ["club.yaml"] * 2
    assert pack.read_text().count("- name: Card ") == 150 and "entered by hand" not in pack.read_text()


def test_the_card_preview_reads_art_only_from_inside_the_packs_folder(c, tmp_path):
    """The live preview draws ``art:`` from the pack's folder only: a path out of it (``..``,
    absolute, a link) draws the card as with no art; art inside the folder is drawn."""
    import base64

    from PIL import Image

    assert c.post("/packs/new", data={"system": "senshiai", "name": "Club"}, headers=HX).status_code == 204
    packs = c.ws / "packs"
    (packs / "art").mkdir()
    Image.new("RGB", (600, 400), (200, 30, 30)).save(tmp_path / "secret.png")
    Image.new("RGB", (600, 400), (200, 30, 30)).save(c.ws / "beside.png")
    Image.new("RGB", (600, 400), (30, 30, 200)).save(packs / "art" / "own.png")
    (packs / "link.png").symlink_to(tmp_path / "secret.png")
    v = version(c.get("/packs/edit/club.yaml").text)

    def preview(art: str) -> bytes:
        data = {**CAPITAL, "f_art": art, "section": "cards", "version": v}
        r = c.post("/packs/edit/club.yaml/check", data=data, headers=HX)
        assert r.status_code == 200 and "✓ valid" in r.text, r.text
        return base64.b64decode(re.search(r'src="data:image/png;base64,([^"]+)"', r.text).group(1))

    plain = preview("")
    for art in ("../../secret.png", str(tmp_path / "secret.png"), "../beside.png", "link.png"):
        assert preview(art) == plain, art
    assert preview("art/own.png") != plain
    assert sorted(p.name for p in packs.iterdir()) == ["art", "club.yaml", "link.png"]


def test_a_newcomers_card_saves_and_the_form_says_what_it_needs(c):
    """``assumed`` is marked required, says when, and starts as 'entered by hand' (a card posted
    without it gets that too); cost and paths are menus of the catalog's values, a card's several
    paths sent as several values."""
    from builder.catalog.loader import load_catalog

    assert c.post("/packs/new", data={"system": "senshiai", "name": "Club"}, headers=HX).status_code == 204
    page = c.get("/packs/edit/club.yaml").text
    label = re.search(r"<label><span>assumed(.*?)</label>", page, re.S).group(1)
    assert '<span class="sr">(required)</span>' in label and 'value="entered by hand"' in label
    assert "Required unless the entry cites the rulebook (source)" in html.unescape(label)
    cat = load_catalog("senshiai")
    cost = re.search(r'<select name="f_cost" id="f-cost">(.*?)</select>', page, re.S).group(1)
    assert (
        re.findall(r'<option value="([^"]*)"', cost)
        == ["", *cat.names("costs")]
        == ["", "N", "I", "II", "III", "IV", "V"]
    )
    paths = re.search(r'<select name="f_paths" id="f-paths" multiple size="3">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="([^"]*)"', paths) == cat.names("paths") == ["Air", "Earth", "Water"]
    card = {k: v for k, v in CAPITAL.items() if k not in ("f_assumed", "f_paths")}
    data = {**card, "f_paths": ["Earth", "Water"], "section": "cards", "version": version(page)}
    r = c.post("/packs/edit/club.yaml/check", data=data, headers=HX)
    assert errors(r.text) == {} and "✓ valid" in r.text
    r = c.post("/packs/edit/club.yaml/save", data=data, headers=HX)
    assert r.status_code == 204, r.text
    text = (c.ws / "packs" / "club.yaml").read_text()
    assert "paths:\n      - Earth\n      - Water\n" in text
    assert "assumed: entered by hand" in text
    page = c.get(r.headers["HX-Redirect"]).text
    paths = re.search(r'<select name="f_paths" id="f-paths" multiple size="3">(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="([^"]*)" selected', paths) == ["Earth", "Water"]
    assert re.search(r'<option value="N" selected>', page)


def test_a_pack_named_in_any_script_is_made_opened_and_downloaded(c):
    r = c.post("/packs/new", data={"system": "senshiai", "name": "日本の札"}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"] == "/packs/edit/%E6%97%A5%E6%9C%AC%E3%81%AE%E6%9C%AD.yaml"
    assert (c.ws / "packs" / "日本の札.yaml").is_file()
    assert c.get(r.headers["HX-Redirect"]).status_code == 200
    csv = c.get("/packs/edit/日本の札.yaml/sheet.csv")
    assert csv.status_code == 200
    assert csv.headers["content-disposition"] == (
        "attachment; filename=\"____.csv\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E3%81%AE%E6%9C%AD.csv"
    )
    (c.ws / "packs" / "club cards.yaml").write_text("system: senshiai\nname: Club\ncards: []\n", encoding="utf-8")
    assert c.get("/packs/edit/club cards.yaml").status_code == 200  # a space, as a person names a file


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name: x\ncards: []\n", "packs/odd.yaml names no game daimyo knows (system: ''); not opened"),
        ("system: chess\nname: x\n", "packs/odd.yaml names no game daimyo knows (system: 'chess'); not opened"),
        ("- a\n- b\n", "packs/odd.yaml is not a pack; not opened"),
    ],
)
def test_a_pack_of_no_known_game_is_refused_in_words(c, text, words):
    (c.ws / "packs").mkdir()
    (c.ws / "packs" / "odd.yaml").write_text(text, encoding="utf-8")
    for r in (
        c.get("/packs/edit/odd.yaml"),
        c.get("/packs/edit/odd.yaml/sheet.csv"),
        c.get("/packs/edit/odd.yaml/preview.png", params={"entry": "A"}),
        c.post("/packs/edit/odd.yaml/check", data={**CAPITAL, "section": "cards"}, headers=HX),
        c.post("/packs/edit/odd.yaml/save", data={**CAPITAL, "section": "cards"}, headers=HX),
        c.post(
            "/packs/edit/odd.yaml/upload",
            headers=HX,
            files={"sheet": ("a.csv", b"section,name,type\ncards,Q,troop\n", "text/csv")},
        ),
    ):
        assert r.status_code == 422, (r.request.url, r.status_code)
        assert words in html.unescape(r.text)
    assert (c.ws / "packs" / "odd.yaml").read_text(encoding="utf-8") == text


def test_a_section_that_is_no_list_is_not_replaced_by_an_upload(c):
    (c.ws / "packs").mkdir()
    text = "system: senshiai\nname: Mine\ncards: see the other file\n"
    (c.ws / "packs" / "mine.yaml").write_text(text, encoding="utf-8")
    r = c.post(
        "/packs/edit/mine.yaml/upload",
        headers=HX,
        files={"sheet": ("a.csv", b"section,name,type,assumed\ncards,Q,troop,x\n", "text/csv")},
    )
    assert r.status_code == 400
    assert "the pack's 'cards' is not a list of entries; not changed" in html.unescape(r.text)
    assert (c.ws / "packs" / "mine.yaml").read_text(encoding="utf-8") == text


def test_uploaded_rows_say_the_sheet_they_came_from(c):
    assert c.post("/packs/new", data={"system": "senshiai", "name": "Club"}, headers=HX).status_code == 204
    r = c.post(
        "/packs/edit/club.yaml/upload",
        headers=HX,
        files={"sheet": ("my cards.csv", b"section,name,type\ncards,Quiet Band,troop\n", "text/csv")},
    )
    assert r.status_code == 204, r.text
    text = (c.ws / "packs" / "club.yaml").read_text()
    assert "assumed: from my cards.csv" in text and "daimyo-sheet" not in text


def test_a_bad_uploaded_sheet_is_named_as_the_player_chose_it(c):
    assert c.post("/packs/new", data={"system": "senshiai", "name": "Club"}, headers=HX).status_code == 204
    for body, name, line in (
        (b"section,name,type,speed\ncards,Q,troop,fast\n", "my cards.csv", "my cards.csv:2:4: error: cards.speed:"),
        (b"junk", "my cards.xlsx", "my cards.xlsx: error: not a readable .xlsx workbook"),
    ):
        r = c.post("/packs/edit/club.yaml/upload", headers=HX, files={"sheet": (name, body, "text/csv")})
        assert r.status_code == 400 and line in html.unescape(r.text) and "daimyo-sheet" not in r.text


def test_a_file_named_packs_is_a_409_in_words(c):
    (c.ws / "packs").write_text("notes\n", encoding="utf-8")
    r = c.post("/packs/new", data={"system": "senshiai", "name": "Club"}, headers=HX)
    assert r.status_code == 409
    assert "a file named 'packs' takes the place of the workspace's packs folder (rename that file)" in html.unescape(
        r.text
    )
    assert (c.ws / "packs").read_text(encoding="utf-8") == "notes\n"


def test_a_packs_folder_that_is_a_link_to_itself_is_a_400_in_words(c):
    (c.ws / "packs").symlink_to("packs")
    for r in (
        c.get("/packs/edit/x.yaml"),
        c.post("/packs/new", data={"system": "senshiai", "name": "Club"}, headers=HX),
    ):
        assert r.status_code == 400
        assert "the workspace's packs folder cannot be looked up (a symbolic link that leads back to itself?)" in (
            html.unescape(r.text)
        )
    assert c.get("/packs").status_code == 200
