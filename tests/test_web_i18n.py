"""The web builder's and the event server's pages in every language: each page drawn in the
pseudo-locale (``Accept-Language: en-XA``: every marked string accented and bracketed) shows no
English word outside brackets but data (names, numbers, codes); the language follows the browser
and then the language menu, remembered per workspace; ``<html lang>`` names the language shown;
and English pages stay as they were."""

from __future__ import annotations

import html as htmlmod
import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from builder.i18n import Text
from builder.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "i18n-token-0123456789abcdef"
PSEUDO = {"Accept-Language": "en-XA"}
GAMES = {
    "kensei": "kensei-buke.yaml",
    "senshiai": "senshiai-northern-host.yaml",
    "herocard": "herocard-samurai.yaml",
    "senji": "senji-three-daimyo.yaml",
    "satsuma": "satsuma-imperial.yaml",
}

# -- finding text left unmarked --------------------------------------------------------------------

# what a person does not read as prose, or reads as it was written: scripts, styles, code, keys,
# the text of a list being edited, and what is marked as being in a language of its own
# (``lang="en"``: the JSON API's own descriptions; the language menu's names of the languages)
_DROP = re.compile(
    r"<(script|style|pre|textarea|code|kbd)\b.*?</\1>|<(?!html)(\w+)\b[^>]*\slang=\"[^\"]+\"[^>]*>.*?</\2>", re.S | re.I
)
_ATTR = re.compile(r'\s(?:title|aria-label|placeholder|alt|hx-confirm|data-t-[a-z-]+)="([^"]*)"', re.I)
_TAG = re.compile(r"<[^>]*>")
_URL = re.compile(r"https?://\S+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")


def _unbracket(text: str) -> str:
    """``text`` without its bracketed runs (nested brackets too): what the pseudo-locale marked."""
    out, depth = [], 0
    for ch in text:
        if ch == "[":
            depth += 1
            out.append("\n")
        elif ch == "]" and depth:
            depth -= 1
            out.append("\n")
        elif not depth:
            out.append(ch)
    return "".join(out)


def readable(page: str) -> str:
    """What a person reads of an HTML page: its text and the attributes shown as text."""
    page = _DROP.sub(" ", page)
    attrs = " \n ".join(_ATTR.findall(page))
    return htmlmod.unescape(_TAG.sub(" \n ", page) + " \n " + attrs)


class Data:
    """The data a page shows as it is (names, rules text from the catalogs, file names): a run
    of text found in it is not an unmarked string."""

    def __init__(self, strings):
        self.strings = sorted({s.strip() for s in strings if s and len(s.strip()) > 1}, key=len, reverse=True)
        self.corpus = "\n".join(self.strings)

    def add(self, strings):
        return Data(list(self.strings) + list(strings))

    def holds(self, run: str) -> bool:
        run = run.strip(" \t.…:;,·—-()'\"")
        return not _WORD.search(run) or run in self.corpus or all(w in WORDS_OF_DATA for w in _WORD.findall(run))


def unmarked(page: str, data: Data) -> list[str]:
    """The runs of ``page``'s text outside brackets with an English word that is not data."""
    bad = []
    for line in _unbracket(readable(page)).splitlines():
        line = _URL.sub("", line)  # an address is data (a placeholder's example registry)
        if not _WORD.search(line) or data.holds(line):
            continue
        rest = line
        for d in data.strings:
            if d in rest:
                rest = rest.replace(d, "\n")
        for run in rest.splitlines():
            if _WORD.search(run) and not data.holds(run):
                bad.append(line.strip()[:160])
                break
    return bad


# words that are data wherever they stand: the program's and the games' names, units, formats,
# HTTP methods
WORDS_OF_DATA = {
    "daimyo",
    "DMY",
    "YAML",
    "JSON",
    "PDF",
    "PNG",
    "CSV",
    "KiB",
    "mm",
    "GET",
    "POST",
    "PUT",
    "DELETE",
    "UTC",
    "Senshiai",
    "Kensei",
    "HeroCard",
    "Senji",
    "Satsuma",
}


def _strings(value, out: set[str]) -> set[str]:
    if isinstance(value, bool):
        out.add(str(value).lower())
    elif isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.add(str(k))
            _strings(v, out)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            _strings(v, out)
    return out


def catalog_data(ws: Path) -> set[str]:
    """Every string of every game's catalog (with the workspace's packs), as written and as the
    pages show rules text (``humanize``), the games' names, and the workspace's file names."""
    from builder.catalog.loader import load_catalog
    from builder.rulebooks import format_source, humanize
    from builder.systems import get, ids

    out: set[str] = set()
    packs = sorted(str(p) for p in (ws / "packs").glob("*.yaml"))
    for sid in ids():
        gs = get(sid)
        out.update({gs.name, gs.title, sid})
        mine = [p for p in packs if f"system: {sid}" in Path(p).read_text()]
        model = load_catalog(sid, mine).model.model_dump()
        out |= _strings(model, set())
    out |= {humanize(s) for s in list(out)}
    out |= {format_source(s) for s in list(out) if ":" in s}
    for f in ws.rglob("*"):
        rel = f.relative_to(ws).as_posix()
        out.update({rel, f.name, f.stem})
        if f.suffix in (".yaml", ".yml"):
            out |= _strings(yaml.safe_load(f.read_text()), set())
    return out


# Text the pages show that other parts of daimyo compose, in their own message domains (the
# games' view parts, the check's findings, the pack registries): each a pattern of the English
# they give. Findings go through the web builder's one hook (``views.finding_text``), tested
# below by a stand-in that marks them.
FOREIGN = [
    re.compile(p)
    for p in (
        # a troop's profile: the rulebook's stat abbreviations, kept as printed in every language
        # (the catalogs' overlays keep them too: catalog/kensei/i18n/es.yaml)
        r"^(MOV|AT|INI|HO|WO|DEF|AP)\b.*$",
        # Satsuma's roles as values of the deck's counts: the words an odds query names them by
        r"^(attacker|defender): [\d.]+%$",
    )
]


def foreign(line: str) -> bool:
    return any(p.match(line.strip()) for p in FOREIGN)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    ws = tmp_path_factory.mktemp("i18n") / "ws"
    shutil.copytree(ROOT / "examples", ws)
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        c.ws = ws
        c.app_ = app
        yield c


def zip_of(ws: Path, changed: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("kensei-buke.yaml", changed)
        z.writestr("brand-new.yaml", (ws / "kensei-kuge.yaml").read_text())
    return buf.getvalue()


def every_page(c) -> dict[str, object]:
    """Every page of the web builder (and the fragments htmx asks for) as a person sees them."""
    got: dict[str, object] = {}

    def get(url, **kw):
        got[url] = c.get(url, **kw)

    get("/")
    for f in GAMES.values():
        for tail in ("", "/print", "/print/previews?sent=1", "/share", "/stats", "/catalog"):
            get(f"/l/{f}{tail}")
    (c.ws / "fix-me.yaml").write_text(  # an illegal list: its findings
        "system: kensei\nname: Fix me\nclan: buke\npoints: 200\ncommander: hatamoto\ntroops:\n"
        "  - troop: Taisho Buke\n  - troop: Samurai Yari\n    models: 5\n  - troop: Yumi Samurai\n    models: 8\n"
    )
    get("/l/fix-me.yaml")
    get("/l/fix-me.yaml/print/previews?sent=1")
    get("/l/kensei-buke.yaml/entry?section=troops&name=Samurai%20Yari")
    get("/l/herocard-samurai.yaml/catalog?can=no")
    get("/l/kensei-buke.yaml?variant_of=kensei-kuge.yaml")
    get("/packs")
    for pack in sorted((c.ws / "packs").glob("*.yaml")):
        get(f"/packs/edit/{pack.name}")
    get("/compare")
    get("/compare?a=kensei-buke.yaml&b=kensei-kuge.yaml")
    get("/compare?a=kensei-buke.yaml&b=senji-three-daimyo.yaml")
    get("/api/docs")
    get("/l/no-such-list.yaml")  # an error page
    get("/l/.hidden.yaml")  # refused
    get("/l/notes.txt")
    got["flash"] = c.get("/l/no-such-list.yaml", headers={"HX-Request": "true"})
    got["gate"] = c.get("/", cookies={}, headers={"Cookie": ""})
    changed = (c.ws / "kensei-buke.yaml").read_text().replace("name:", "name: Changed", 1)
    got["restore"] = c.post("/restore", files={"zip": ("backup.zip", zip_of(c.ws, changed), "application/zip")})
    got["edit"] = c.post("/l/herocard-samurai.yaml/edit", data={"op": "add", "item": "Overhand Thrust", "count": "1"})
    # lists that still need things: the guide's counters
    for form in (
        {"system": "kensei", "name": "Empty army", "clan": "buke", "points": "200"},
        {"system": "senji", "name": "Empty setup", "players": "3"},
    ):
        made = c.post("/new", data=form, follow_redirects=False)
        assert made.status_code == 303, made.text
        get(made.headers["location"])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("another.yaml", (c.ws / "kensei-kuge.yaml").read_text())
    got["restored"] = c.post("/restore", files={"zip": ("b.zip", buf.getvalue(), "application/zip")})
    got["refused zip"] = c.post("/restore", files={"zip": ("b.zip", b"not a zip", "application/zip")})
    return got


def pseudo_pages(c, monkeypatch) -> dict[str, object]:
    from builder.web import views

    # findings are worded by the findings' own domain: a stand-in marks what goes through the hook
    monkeypatch.setattr(views, "finding_text", lambda f: "[" + str(f.message if hasattr(f, "message") else f) + "]")
    c.headers.update(PSEUDO)
    try:
        return every_page(c)
    finally:
        c.headers.pop("Accept-Language")


def test_every_web_page_is_marked_for_translation(site, monkeypatch):
    pages = pseudo_pages(site, monkeypatch)
    data = Data(catalog_data(site.ws) | PRODUCT_NAMES)
    bad = {}
    for url, r in pages.items():
        assert r.status_code < 500, (url, r.status_code)
        if "text/html" not in r.headers.get("content-type", ""):
            continue
        assert (
            'lang="en-XA"' in r.text
            or url in ("flash", "edit")
            or "/catalog" in url
            or "/entry" in url
            or "previews" in url
        ), url
        found = [line for line in unmarked(r.text, data) if not foreign(line)]
        if found:
            bad[url] = found[:8]
    assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)
    # the pages drawn hold the guide's counters, findings, the restore's two pages and an error
    drawn = "".join(r.text for r in pages.values())
    for piece in (
        'class="need-label"',
        'class="finding f-error"',
        'id="restore-form"',
        'class="restored"',
        "alert-error",
    ):
        assert piece in drawn, piece


PRODUCT_NAMES = {"MakePlayingCards", "DriveThruCards", "The Game Crafter", "Tabletop Simulator", "English"}


def test_the_check_finds_one_string_left_unmarked(site, monkeypatch):
    """The same page with one word no longer marked (the top bar's "Compare") fails the check."""
    import jinja2

    env = site.app_.templates.env
    source = env.loader.get_source(env, "base.html")[0]
    assert "{{ _('Compare') }}" in source
    data = Data(catalog_data(site.ws) | PRODUCT_NAMES)
    site.headers.update(PSEUDO)
    try:
        before = unmarked(site.get("/").text, data)
        assert not [line for line in before if not foreign(line)]
        loader = env.loader
        monkeypatch.setattr(
            env,
            "loader",
            jinja2.ChoiceLoader(
                [jinja2.DictLoader({"base.html": source.replace("{{ _('Compare') }}", "Compare")}), loader]
            ),
        )
        env.cache.clear()
        after = unmarked(site.get("/").text, data)
    finally:
        site.headers.pop("Accept-Language")
        env.cache.clear()
    assert [line.strip() for line in after if not foreign(line)] == ["Compare"]


# -- choosing the language -------------------------------------------------------------------------


@pytest.fixture()
def fresh(tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(ROOT / "examples", ws)
    app = create_app(ws, token=TOKEN, port=8765)
    with TestClient(app, base_url="http://127.0.0.1:8765") as c:
        assert c.get(f"/?token={TOKEN}", follow_redirects=False).status_code == 303
        c.headers.update({"X-CSRF-Token": app.csrf})
        c.ws = ws
        yield c


def html_lang(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


@pytest.mark.parametrize(
    ("header", "lang", "word"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.5", "fr", "Vos listes"),
        ("es-419,es;q=0.8", "es", "Tus listas"),
        ("ja", "ja", "あなたのリスト"),
        ("de-DE,de;q=0.9", "en", "Your lists"),
        ("", "en", "Your lists"),
    ],
)
def test_the_browser_language_chooses_the_page_language(fresh, header, lang, word):
    r = fresh.get("/", headers={"Accept-Language": header} if header else {})
    assert r.status_code == 200
    assert html_lang(r.text) == lang
    assert f"<h1>{word}</h1>" in r.text


def test_a_list_page_in_french_drawn_in_a_worker_thread(fresh):
    """The list page is drawn in a worker thread (a plain route): it is in the request's language,
    and the rows kept from an English answer are not shown in a French one."""
    english = fresh.get("/l/kensei-buke.yaml")
    french = fresh.get("/l/kensei-buke.yaml", headers={"Accept-Language": "fr"})
    assert ">Build</a>" in english.text and "Duplicate unit</button>" in english.text
    assert html_lang(french.text) == "fr"
    assert ">Construire</a>" in french.text and ">Imprimer</a>" in french.text
    assert "Dupliquer : unité</button>" in french.text and "Duplicate unit" not in french.text
    again = fresh.get("/l/kensei-buke.yaml")
    assert again.text.count("Duplicate unit</button>") == english.text.count("Duplicate unit</button>")


def test_the_language_menu_is_remembered_for_the_workspace(fresh):
    page = fresh.get("/", headers={"Accept-Language": "fr"}).text
    assert '<select name="lang" id="lang-menu"' in page
    assert '<option value="fr" lang="fr" selected>Français</option>' in page
    assert '<option value="es" lang="es" >Español</option>' in page
    r = fresh.post("/language", data={"lang": "es"}, headers={"HX-Request": "true"})
    assert r.status_code == 204 and r.headers["HX-Refresh"] == "true"
    settings = json.loads((fresh.ws / ".daimyo" / "settings.json").read_text())
    assert settings == {"language": "es"}
    # the workspace's choice wins over the browser's, on every page
    for url in ("/", "/l/senji-three-daimyo.yaml", "/packs", "/l/no-such.yaml"):
        r = fresh.get(url, headers={"Accept-Language": "fr"})
        assert html_lang(r.text) == "es", url
    assert "<h1>Tus listas</h1>" in fresh.get("/").text
    r = fresh.post("/language", data={"lang": "en"}, headers={"HX-Request": "true"})
    assert html_lang(fresh.get("/", headers={"Accept-Language": "fr"}).text) == "en"


def test_an_unknown_language_is_refused_in_words(fresh):
    r = fresh.post("/language", data={"lang": "xx"}, headers={"HX-Request": "true", "Accept-Language": "fr"})
    assert r.status_code == 400
    assert "pas de langue &#39;xx&#39; ici (choisissez parmi : en, es, fr, ja)" in r.text
    assert not (fresh.ws / ".daimyo" / "settings.json").exists()


def test_an_unreadable_settings_file_is_forgotten(fresh):
    (fresh.ws / ".daimyo").mkdir(exist_ok=True)
    (fresh.ws / ".daimyo" / "settings.json").write_text("{not json")
    r = fresh.get("/", headers={"Accept-Language": "fr"})
    assert r.status_code == 200 and html_lang(r.text) == "fr"
    assert fresh.post("/language", data={"lang": "ja"}, headers={"HX-Request": "true"}).status_code == 204
    assert json.loads((fresh.ws / ".daimyo" / "settings.json").read_text()) == {"language": "ja"}


def test_the_json_api_stays_english(fresh):
    fresh.post("/language", data={"lang": "fr"}, headers={"HX-Request": "true"})
    headers = {"Authorization": f"Bearer {TOKEN}", "Accept-Language": "fr"}
    english = fresh.get("/api/lists/kensei-buke.yaml", headers={"Authorization": f"Bearer {TOKEN}"}).json()
    assert fresh.get("/api/lists/kensei-buke.yaml", headers=headers).json() == english
    missing = fresh.get("/api/lists/no-such.yaml", headers=headers)
    assert missing.status_code == 404 and missing.json()["error"] == "no list 'no-such.yaml' in the workspace"
    # its description page is a page, in the page's language
    assert "<h1>L’API JSON</h1>" in fresh.get("/api/docs", headers=headers).text


def test_english_pages_are_as_they_were(fresh):
    page = fresh.get("/").text
    assert '<html lang="en">' in page
    assert "<h1>Your lists</h1>" in page and ">+ New list</a>" in page
    assert '<span class="badge legal">legal</span>' in page
    list_page = fresh.get("/l/herocard-samurai.yaml").text
    assert "↶ Undo</button>" in list_page and 'title="Undo (Ctrl+Z)"' in list_page
    assert 'data-t-copied="Copied ✓"' in list_page


def test_the_statistics_page_fails_the_check_with_a_field_name_left_unmarked(site, monkeypatch):
    """The statistics page's chart and table headings are the card games' field names, shown in
    the page's language: one of them no longer translated (Satsuma's "Usable by") is found."""
    from builder.web import words

    data = Data(catalog_data(site.ws) | PRODUCT_NAMES)
    url = "/l/satsuma-imperial.yaml/stats"
    site.headers.update(PSEUDO)
    try:
        page = site.get(url).text
        assert "[Üšàblé bý]" in page and "[Šüîŧš ŧö çhööšé fröm]" in page
        assert not [line for line in unmarked(page, data) if not foreign(line)]
        translated = Text.translated  # "Usable by" left in English, as an unmarked heading would be
        monkeypatch.setattr(words, "known", lambda: frozenset(words.GAME_WORDS) - {"Usable by"})
        monkeypatch.setattr(
            Text, "translated", lambda t, lang=None: t.template if t.template == "Usable by" else translated(t, lang)
        )
        after = site.get(url).text
    finally:
        site.headers.pop("Accept-Language")
    assert sorted({line.split(" attacker")[0].split(" defender")[0] for line in unmarked(after, data)}) == ["Usable by"]
