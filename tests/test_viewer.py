"""The viewer (``daimyo viewer``): a list read from its link alone, cacheable by ETag, with its
table view, YAML and PDF; hostile codes answered 400 or 404 with a clear page, never 500, and
without more memory than a normal list; and the table view file references nothing outside
itself."""

from __future__ import annotations

import base64
import re
import tracemalloc
import zlib

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient

from builder.limits import MAX_VIEWER_BODY, MAX_VIEWER_CODE_CHARS
from builder.share.api import export_doc, export_source, read_source
from builder.share.code import PREFIX

from conftest import ROOT

BUKE = ROOT / "examples" / "kensei-buke.yaml"


@pytest.fixture(scope="module")
def client():
    from builder.viewer.app import make_app

    with TestClient(make_app(base="https://lists.example.org"), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def code() -> str:
    return export_source(str(BUKE), "code").strip()


def _code_of(payload: bytes) -> str:
    crc = zlib.crc32(PREFIX.encode("ascii") + payload).to_bytes(4, "little")
    return PREFIX + base64.urlsafe_b64encode(payload + crc).decode("ascii").rstrip("=")


def bomb() -> str:
    """A well-formed code (checksum and all) of a Senshiai list whose compressed body expands to
    4 MB of zeros: short enough for the viewer's length bound, refused by its body bound."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = c.compress(b"\0" * (4 << 20)) + c.flush()
    return _code_of(bytes([0x80]) + body)


def unknown_game() -> str:
    """A well-formed code of a list of a game that is not installed here."""
    return _code_of(bytes([0x07, 6]) + b"nogame" + b"\x00")


def unknown_pack_code() -> str:
    doc = {"system": "senshiai", "name": "Packed", "packs": ["no-such-pack"], "cards": {"Warriors": 3}}
    return export_doc(doc, "code")


def test_a_list_is_shown_from_its_code_with_its_preview_and_buttons(client, code):
    r = client.get(f"/v/{code}")
    assert r.status_code == 200
    html = r.text
    assert '<meta property="og:title" content="Buke vanguard (rulebook sample) · Kensei">' in html
    assert '<meta property="og:description" content="legal · 200 / 200 AP · Kensei">' in html
    assert f'<meta property="og:url" content="https://lists.example.org/v/{code}">' in html
    for href in ("/table", "/list.pdf", "/list.yaml"):
        assert f'href="/v/{code}{href}"' in html
    assert f'href="http://127.0.0.1:8765/import?code={code}"' in html  # Open in my builder
    assert "5 × Samurai Yari</h3>" in html and '<th scope="col">MOV</th>' in html  # the stat lines
    assert re.search(r"<svg[^>]*viewBox", html)  # the QR code of the link


def test_answers_carry_an_etag_are_immutable_and_304_when_unchanged(client, code):
    r = client.get(f"/v/{code}")
    tag = r.headers["etag"]
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "Accept-Language" in r.headers["vary"]
    again = client.get(f"/v/{code}", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    assert client.get(f"/v/{code}", headers={"If-None-Match": '"other"'}).status_code == 200
    assert client.get(f"/v/{code}/table").headers["etag"] != tag  # each answer its own tag
    head = client.head(f"/v/{code}")  # a link preview asking for the headers alone
    assert head.status_code == 200 and head.headers["etag"] == tag and head.content == b""


def test_the_table_view_yaml_and_pdf_of_a_code(client, code):
    t = client.get(f"/v/{code}/table")
    assert t.status_code == 200 and 'data-counter="round"' in t.text
    y = client.get(f"/v/{code}/list.yaml")
    assert y.status_code == 200 and y.text.startswith("system: kensei\nname: Buke vanguard (rulebook sample)\n")
    assert y.headers["content-disposition"] == 'attachment; filename="Buke-vanguard-rulebook-sample.yaml"'


@pytest.mark.slow  # draws a roster
def test_the_pdf_of_a_code(client, code):
    p = client.get(f"/v/{code}/list.pdf")
    assert p.status_code == 200 and p.content.startswith(b"%PDF-") and p.headers["content-type"] == "application/pdf"


HOSTILE = {
    "garbage": ("hello-world", 400, "This is not a link to a list"),
    "damaged": ("DMY1-AAAAAAAAAAAA", 400, "share code damaged"),
    "newer": ("DMY9-AAAAAAAA", 400, "newer than this daimyo reads"),
    "sixty thousand characters": ("DMY1-" + "A" * 60_000, 400, "a viewer reads codes of at most"),
    "just past the bound": ("DMY1-" + "A" * (MAX_VIEWER_CODE_CHARS - 4), 400, "a viewer reads codes of at most"),
    "at the bound": ("DMY1-" + "A" * (MAX_VIEWER_CODE_CHARS - 5), 400, "share code damaged"),  # read, not refused
    "a code bomb": (None, 400, f"share code expands to more than {MAX_VIEWER_BODY:,} bytes"),
    "unknown game": (None, 404, "which is not installed here"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_code_gets_a_clear_page_and_no_more_memory_than_a_list(client, code, name):
    given, status, words = HOSTILE[name]
    given = given or (bomb() if name == "a code bomb" else unknown_game())
    tracemalloc.start()
    try:
        client.get(f"/v/{code}/table?fresh={name}")  # warm: the catalog and templates loaded
        client.get("/v/not-a-code")  # and the error page's
        client.get(f"/v/{unknown_pack_code()}")  # and Senshiai's catalog (the code bomb's game)
        tracemalloc.reset_peak()
        normal = client.get(f"/v/{export_source(str(ROOT / 'examples' / 'kensei-kuge.yaml'), 'code').strip()}")
        normal_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        r = client.get(f"/v/{given}")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert normal.status_code == 200
    assert r.status_code == status, r.text[:300]
    assert words in r.text and "<h1>" in r.text and "Traceback" not in r.text
    assert r.headers["content-type"].startswith("text/html")
    assert peak <= max(normal_peak, 1 << 20) + len(given) * 8, (peak, normal_peak)


def test_the_code_bomb_is_within_the_length_bound():
    assert len(bomb()) <= MAX_VIEWER_CODE_CHARS  # refused for what it expands to, not its length


def test_a_list_naming_packs_this_viewer_lacks_is_404_with_the_list_and_its_packs(client):
    r = client.get(f"/v/{unknown_pack_code()}")
    assert r.status_code == 404
    assert "This viewer does not have the packs the list names: no-such-pack" in r.text
    assert "<td>no-such-pack</td>" in r.text and "not known here" in r.text
    assert ">Packed</h1>" in r.text


def test_deep_paths_and_other_addresses_are_404(client, code):
    r = client.get(f"/v/{code}/" + "/".join(["a"] * 2000))
    assert r.status_code == 404 and "This viewer shows lists at /v/" in r.text
    assert client.get("/nothing").status_code == 404
    assert client.get("/healthz").text == "ok"


def test_the_home_page_opens_a_pasted_link_or_code(client, code):
    r = client.get("/v", params={"code": f"https://elsewhere.example/v/{code}"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/v/{code}"
    assert client.get("/").status_code == 200


# -- the table view file ---------------------------------------------------------------------

EXTERNAL = re.compile(
    r"""(?:src|href|action|poster|srcset)\s*=\s*["']?(?!data:|#)([^"'\s>]+)|url\(\s*["']?(?!data:|#)([^)"']+)|@import""",
    re.I,
)


@pytest.mark.parametrize(
    "example",
    [
        "kensei-buke.yaml",
        pytest.param("senshiai-northern-host.yaml", marks=pytest.mark.slow),
        pytest.param("herocard-samurai.yaml", marks=pytest.mark.slow),
        pytest.param("senji-three-daimyo.yaml", marks=pytest.mark.slow),
        pytest.param("satsuma-imperial.yaml", marks=pytest.mark.slow),
    ],
)
def test_the_table_view_references_nothing_outside_itself(cli, tmp_path, example):
    out = tmp_path / "list.html"
    r = cli("export", ROOT / "examples" / example, "--to", "html", "-o", out)
    assert r.code == 0, r.stderr
    html = out.read_text(encoding="utf-8")
    assert len(html.encode()) < 300 * 1024
    assert not [m.group(0) for m in EXTERNAL.finditer(html)]
    assert not re.search(r"https?://", html)  # no address of any kind (not even in a script)
    assert "default-src 'none'" in html  # and the page may fetch nothing
    assert 'rel="manifest" href="data:application/manifest+json;base64,' in html


def test_the_reference_check_finds_an_outside_file():
    assert EXTERNAL.search('<img src="x.png">') and EXTERNAL.search("a{background:url(x.png)}")
    assert not EXTERNAL.search('<link rel="icon" href="data:image/svg+xml,x"><a href="#main">')


@pytest.mark.parametrize(
    "args, words",
    [
        (["--workers", "0"], "--workers must be between 1 and 64, not 0"),
        (["--workers", "65"], "--workers must be between 1 and 64, not 65"),
        (["--port", "65536"], "--port must be between 0 and 65535, not 65536"),
    ],
)
def test_the_viewer_command_refuses_bad_bounds_in_one_line(cli, args, words):
    r = cli("viewer", *args)
    assert r.code == 2
    assert r.stderr.strip().splitlines()[-1] == f"daimyo: error: {words}"


def test_the_answers_kept_are_bounded_in_number_and_size(client, monkeypatch):
    from builder.viewer import app as viewer_app

    monkeypatch.setattr(viewer_app, "KEPT", 3)
    viewer_app._ANSWERS.clear()
    doc = {"system": "senshiai", "name": "Deck", "cards": {"Warriors": 3}}
    for i in range(5):
        assert client.get(f"/v/{export_doc({**doc, 'name': f'Deck {i}'}, 'code')}").status_code == 200
    assert len(viewer_app._ANSWERS) == 3  # the oldest dropped
    monkeypatch.setattr(viewer_app, "KEPT_BYTES", 1000)  # a page is bigger: drawn, not kept
    viewer_app._ANSWERS.clear()
    assert client.get(f"/v/{export_doc(doc, 'code')}").status_code == 200
    assert not viewer_app._ANSWERS


@pytest.mark.slow  # draws a deck
def test_a_list_naming_packs_this_viewer_lacks_still_prints(client):
    p = client.get(f"/v/{unknown_pack_code()}/list.pdf")
    assert p.status_code == 404 and p.content.startswith(b"%PDF-")  # checked and printed without them


def test_a_list_s_own_words_are_shown_as_text_never_as_markup(client):
    evil = '</script><script>alert(1)</script><img src=x onerror=alert(2)>"'
    code = export_doc({"system": "senshiai", "name": evil, "notes": evil, "cards": {"Warriors": 3}}, "code")
    for path in (f"/v/{code}", f"/v/{code}/table"):
        html = client.get(path).text
        assert "<script>alert(1)" not in html and "<img src=x" not in html
        assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _qr_texts() -> list[str]:
    """Texts of every QR code version at its edges: the longest each holds at level L and one
    byte more; and, up to the versions of links, the lengths where segno raises the error
    level. A link's characters throughout."""
    from segno import consts

    chars = "https://lists.example.org/v/DMY1-" + "AbC9_-xyZ0" * 300
    lengths = {1, 2, 104, 2953}
    for version in range(1, 41):
        count_bits = 8 if version < 10 else 16
        levels = (consts.ERROR_LEVEL_L, consts.ERROR_LEVEL_M, consts.ERROR_LEVEL_Q, consts.ERROR_LEVEL_H)
        for level in levels if version <= 12 else levels[:1]:
            n = (consts.SYMBOL_CAPACITY[version][level] - 4 - count_bits) // 8
            lengths |= {n, n + 1}
    return [chars[:n] for n in sorted(lengths) if 0 < n <= len(chars)]


def test_the_qr_code_of_a_link_is_segnos_to_the_byte():
    """The viewer draws a link's QR code from what each version has in common; its SVG is
    segno's, byte for byte, for links of every version and error level, and for texts segno
    packs otherwise (digits, capitals, beyond ASCII) or refuses (too long)."""
    import segno

    from builder.viewer.qr import qr_svg

    title = 'QR code of the link <&> "here"'
    texts = _qr_texts() + ["12345", "HTTPS://LISTS.EXAMPLE.ORG/V/", "https://listes.example.org/v/é", "a" * 2954]
    for text in texts:
        try:
            expected = segno.make(text, error="l", micro=False, mask=0).svg_inline(
                scale=1, light="#fff", omitsize=True, title=title
            )
        except segno.DataOverflowError:
            with pytest.raises(segno.DataOverflowError):
                qr_svg(text, title)
            continue
        assert qr_svg(text, title) == expected, len(text)


def test_a_page_in_a_language_does_not_look_for_the_languages_again(client, monkeypatch):
    """The languages with a catalog are found once per process: a request in a language (its
    Accept-Language read, its page drawn) does not search the locale folder again."""
    from pathlib import Path

    from builder import i18n

    assert i18n.available()[0] == "en"
    fresh = export_doc({**read_source(str(BUKE)).doc, "name": "Looked for once"}, "code")
    looked: list[str] = []
    glob = Path.glob
    monkeypatch.setattr(Path, "glob", lambda self, pattern: looked.append(pattern) or glob(self, pattern))
    r = client.get(f"/v/{fresh}/table", headers={"Accept-Language": "fr, ja;q=0.5"})
    assert r.status_code == 200 and '<html lang="fr">' in r.text
    assert looked == []
