"""Printed pages in the reader's language: `daimyo print --lang es` of a Kensei roster and `--lang
fr` of a Senji setup sheet, read back from the PDF; the pseudo-locale finds no fixed word left
unmarked on any game's print; translated names of a game's overlay are read as the catalog's
keys."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest

from builder import i18n
from builder.catalog import overlay
from builder.catalog.loader import load_catalog

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EXAMPLE_OF = {
    "kensei": "kensei-buke",
    "senji": "senji-three-daimyo",
    "senshiai": "senshiai-northern-host",
    "herocard": "herocard-samurai",
    "satsuma": "satsuma-samurai",
}


def daimyo(*args: str, cwd: Path | None = None, via: str | None = None) -> subprocess.CompletedProcess:
    """The command line as a user runs it (``--lang`` is read by its entry point): ``python -m
    builder ARGS``, or ``via ARGS`` (the ``forked`` command)."""
    command = [via] if via else [sys.executable, "-m", "builder"]
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=cwd or ROOT, timeout=300)


@pytest.fixture(scope="module")
def forked(forked_command):
    """``daimyo`` as processes forked from one that has imported daimyo (the run's one server,
    conftest's ``forked_command``), for the
    pseudo-locale's prints and refusals of every game: each is still a process of its own that
    reads ``--lang`` at its entry point, without the interpreter's start. The Spanish, French and
    English prints and the Spanish refusals run in fresh interpreters, and are slow."""
    return str(forked_command)


@functools.cache
def output_of(*args: str) -> str:
    """What ``daimyo ARGS`` prints, run once per test process and in it (in English, as the
    command line prints it): the export and check of an example list, which the print, player
    aid and event book checks below each read as the data of the page."""
    return run_cli(*args).stdout


def pdf_text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def png_of(pdf: Path, page: int = 1) -> Path | None:
    """Page ``page`` as a PNG beside the PDF (to look at), or None without pdftoppm."""
    if not shutil.which("pdftoppm"):
        return None
    out = pdf.with_suffix("")
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(out)],
        check=True,
    )
    return out.with_suffix(".png")


# -- Spanish and French pages ----------------------------------------------------------------


@pytest.mark.slow  # fresh interpreters of daimyo
def test_a_kensei_roster_prints_in_spanish(tmp_path):
    out = tmp_path / "roster.pdf"
    run = daimyo("--lang", "es", "print", str(EXAMPLES / "kensei-buke.yaml"), "-o", str(out))
    assert run.returncode == 0, run.stderr
    text = " ".join(pdf_text(out).split())
    for words in (
        "Lista de ejército de Kensei",
        "Tamaño de batalla",
        "Nivel de comandante",
        "Límites de creación del ejército",
        "Validación (daimyo check)",
        "PE/miniatura",
        "imprime al 100 %",
        "página 1 de",
        "Vanguardia",  # the battle size's name from the Spanish overlay
        "Samurái Yari",  # a troop's display name from the Spanish overlay
        "Puntos totales dentro del",  # a restriction's name from the overlay
    ):
        assert words in text, words
    for english in ("Kensei army roster", "Battle size", "Army-building limits", "page 1 of"):
        assert english not in text, english
    png = png_of(out)
    assert png is None or png.stat().st_size > 1000


@pytest.mark.slow  # fresh interpreters of daimyo
def test_a_senji_setup_sheet_prints_in_french(tmp_path):
    out = tmp_path / "setup.pdf"
    run = daimyo("--lang", "fr", "print", str(EXAMPLES / "senji-three-daimyo.yaml"), "-o", str(out))
    assert run.returncode == 0, run.stderr
    text = " ".join(pdf_text(out).split())
    for words in (
        "Feuille de mise en place de Senji",
        "Familles et provinces",
        "Joueurs et provinces de départ",
        "Chaque joueur prend",
        "famille rouge",  # the family colour from the French overlay
        "Forteresse",
        "Source :",
        "page 1 sur",
    ):
        assert words in text, words
    for english in ("Senji setup sheet", "Families and provinces", "Each player takes", "page 1 of"):
        assert english not in text, english
    png = png_of(out)
    assert png is None or png.stat().st_size > 1000


@pytest.mark.slow  # fresh interpreters of daimyo
def test_english_stays_the_default(tmp_path):
    out = tmp_path / "roster.pdf"
    run = daimyo("print", str(EXAMPLES / "kensei-buke.yaml"), "-o", str(out))
    assert run.returncode == 0, run.stderr
    text = pdf_text(out)
    assert "Kensei army roster" in text and "Vanguard" in text and "Lista de ejército" not in text


# -- the pseudo-locale: no fixed word left unmarked -----------------------------------------------


def one_game_quick(quick: str) -> list:
    """Every game, only ``quick`` in the quick loop (``-m 'not slow'``): a sweep of the games keeps
    one case there, a different game for each sweep."""
    return [pytest.param(s, marks=() if s == quick else pytest.mark.slow) for s in sorted(EXAMPLE_OF)]


WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
# the program, its commands and units, written as they are typed in any language
PROGRAM_WORDS = {"daimyo", "check", "import", "export", "CODE", "LIST", "QR", "SHA", "mm", "pt", "x", "n"}


def outside_brackets(text: str) -> str:
    """``text`` with every ``[...]`` (a marked string in the pseudo-locale) blanked, nested or
    across lines."""
    out, depth = [], 0
    for ch in text:
        if ch == "[":
            depth += 1
            out.append(" ")
        elif ch == "]" and depth:
            depth -= 1
            out.append(" ")
        else:
            out.append(" " if depth else ch)
    return "".join(out)


def words_of(value) -> set[str]:
    out: set[str] = set()
    if isinstance(value, str):
        out.update(WORD.findall(value))
    elif isinstance(value, dict):
        for v in value.values():
            out |= words_of(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            out |= words_of(v)
    return out


def data_words(system: str, lst: Path, printed: str) -> set[str]:
    """The words of a print that are data, not fixed words: the list and its packs, the catalog's
    names, the whole record of every entry the page names (its rules text), the check's findings
    (translated with the findings), the rulebook's edition and the program's own words. The
    rulebook's title and section names a citation prints are translated, so they are not data."""
    doc = json.loads(output_of("export", str(lst), "--to", "json") or "{}")
    packs = [str((lst.parent / p).resolve()) for p in doc.get("packs", [])]
    words = words_of(lst.read_text(encoding="utf-8")) | set(PROGRAM_WORDS)
    for pack in packs:
        words |= words_of(Path(pack).read_text(encoding="utf-8"))
    catalog = load_catalog(system, packs)
    flat = " ".join(printed.split()).casefold()
    for section in catalog.sections():
        for rec in catalog.records(section):
            names = [rec.get("name"), rec.get("id"), *(rec.get("aliases") or [])]
            words |= words_of(names)
            if any(isinstance(n, str) and n.casefold() in flat for n in names):
                words |= words_of(rec)
    check = json.loads(output_of("check", str(lst), "--format", "json") or "{}")
    words |= words_of(_without_sources(check))
    from builder.rulebooks import registry

    for book in registry().values():
        if book.system == system:
            words |= words_of([book.edition])
    return words


def _without_sources(value):
    """The check's JSON without its citations' words (``source_text``): a printed citation names
    the rulebook's sections in the page's language, so they are not data."""
    if isinstance(value, dict):
        return {k: _without_sources(v) for k, v in value.items() if k != "source_text"}
    if isinstance(value, list):
        return [_without_sources(v) for v in value]
    return value


def unmarked(printed: str, data: set[str]) -> list[str]:
    """Runs of Latin letters outside brackets that are not data: fixed words left unmarked (the
    share code, wrapped over lines, and the data words as printed or in capitals are data)."""
    code = "".join(re.findall(r"DMY[0-9]-[A-Za-z0-9_\-\n]+", printed))
    text = " ".join(t for t in outside_brackets(printed).split() if not (code and len(t) > 1 and t in code))
    known = data | {d.upper() for d in data}
    return sorted({w for w in WORD.findall(text) if w not in known})


# the quick loop checks one game's print, the suite every game's
@pytest.mark.parametrize("system", one_game_quick("kensei"))
def test_the_pseudo_locale_print_has_no_unmarked_fixed_word(tmp_path, system, forked):
    lst = EXAMPLES / f"{EXAMPLE_OF[system]}.yaml"
    out = tmp_path / f"{system}.pdf"
    run = daimyo("--lang", "en_XA", "print", str(lst), "-o", str(out), via=forked)
    assert run.returncode == 0, run.stderr
    printed = pdf_text(out)
    assert "[" in printed and "]" in printed  # the pseudo-locale was used
    left = unmarked(printed, data_words(system, lst, printed))
    assert not left, f"{system}: fixed words printed without translation: {left}"


# the quick loop checks one game's aid, the suite every game's
@pytest.mark.parametrize("system", one_game_quick("senshiai"))
def test_the_pseudo_locale_player_aid_has_no_unmarked_fixed_word(tmp_path, system, forked):
    """A player aid's words come from its YAML template (extracted into the print catalog) and
    its generated tables; the catalog's own data it tabulates (suits, limits) is data."""
    out = tmp_path / f"aid-{system}.pdf"
    run = daimyo("--lang", "en_XA", "aid", system, "-o", str(out), via=forked)
    assert run.returncode == 0, run.stderr
    printed = pdf_text(out)
    lst = EXAMPLES / f"{EXAMPLE_OF[system]}.yaml"
    data = data_words(system, lst, printed) | words_of(load_catalog(system, []).raw)
    left = unmarked(printed, data)
    assert not left, f"{system} aid: fixed words printed without translation: {left}"


def test_the_pseudo_locale_event_book_has_no_unmarked_fixed_word(tmp_path, forked):
    """The organiser's book: its own words are marked; each list's text form (``Notes:``,
    ``Packs:``, the keys a text list is read back by) is the list's data."""
    lists = [EXAMPLES / f"{EXAMPLE_OF[s]}.yaml" for s in sorted(EXAMPLE_OF)]
    out = tmp_path / "book.pdf"
    run = daimyo("--lang", "en_XA", "print", *map(str, lists), "--book", "-o", str(out), via=forked)
    assert run.returncode == 0, run.stderr
    printed = pdf_text(out)
    data: set[str] = set()
    for system, lst in zip(sorted(EXAMPLE_OF), lists, strict=True):
        data |= data_words(system, lst, printed) | words_of(output_of("export", str(lst), "--to", "text"))
        # the file name, cut to its column, and the list's total as the check's CSV gives it
        data |= {p for w in words_of(lst.name) for k in range(1, len(w) + 1) for p in (w[:k], w[k - 1 :])}
        data |= words_of(output_of("check", str(lst), "--format", "csv"))
    left = unmarked(printed, data)
    assert not left, f"book: fixed words printed without translation: {left}"


def test_the_pseudo_locale_check_finds_an_unmarked_word(tmp_path, monkeypatch):
    """The check above fails when one printed string is not marked: the setup sheet's heading
    'Families and provinces' printed as it is."""
    from builder.games.senji import setup_sheet
    from builder.render import api

    real = setup_sheet._
    monkeypatch.setattr(setup_sheet, "_", lambda m: m if m == "Families and provinces" else real(m))
    lst = EXAMPLES / "senji-three-daimyo.yaml"
    with i18n.use(i18n.PSEUDO):
        out = api.render_list(lst, tmp_path / "senji.pdf")
    printed = pdf_text(out)
    left = unmarked(printed, data_words("senji", lst, printed))
    assert left == ["Families"], left


# -- the printed statistics ------------------------------------------------------------------------------


def stats_data(system: str, lst: Path, printed: str) -> set[str]:
    """The data of a list's printed statistics: what ``data_words`` counts, the values counted
    (a card's type, ability or cost, a troop's class, a suit, who may play it, a player and
    family), the limits' groups, the file name in the footer and the points' abbreviation."""
    st = json.loads(daimyo("stats", str(lst), "--format", "json").stdout)
    values: list = [v["value"] for block in st.get("counts", ()) for v in block["values"]]
    values += [v["value"] for block in st.get("points", ()) for v in block["values"]]
    values += [s["suit"] for s in st.get("suits", ())] + [r for s in st.get("suits", ()) for r in s["roles"]]
    values += [w for p in st.get("players", ()) for w in (p["name"], p["family"])]
    values += [r.get("group") or "" for r in st.get("limits", ())]
    return data_words(system, lst, printed) | words_of([str(v) for v in values]) | {lst.name, "stats", "AP"}


# the quick loop checks one game's statistics, the suite every game's
@pytest.mark.parametrize("system", one_game_quick("senji"))
def test_the_pseudo_locale_statistics_have_no_unmarked_fixed_word(tmp_path, system, forked):
    """``daimyo stats LIST -o`` (the pages ``print --stats`` adds): headings, table words, the
    fields counted and the rules' limits are marked; the values counted are data."""
    lst = EXAMPLES / f"{EXAMPLE_OF[system]}.yaml"
    out = tmp_path / f"stats-{system}.pdf"
    run = daimyo("--lang", "en_XA", "stats", str(lst), "-o", str(out), via=forked)
    assert run.returncode == 0, run.stderr
    printed = pdf_text(out)
    left = unmarked(printed, stats_data(system, lst, printed))
    assert not left, f"{system} statistics: fixed words printed without translation: {left}"


def test_the_statistics_check_finds_an_unmarked_word(tmp_path, monkeypatch):
    """The check above fails when one heading of the statistics is printed as it is."""
    from builder.analytics.stats import list_stats
    from builder.render import charts

    real = charts._
    monkeypatch.setattr(charts, "_", lambda m: m if m == "Limits: value against bound" else real(m))
    lst = EXAMPLES / "senji-three-daimyo.yaml"
    with i18n.use(i18n.PSEUDO):
        out = charts.render_stats(list_stats(lst), tmp_path / "stats.pdf")
    printed = pdf_text(Path(out))
    assert unmarked(printed, stats_data("senji", lst, printed)) == ["Limits", "against", "bound", "value"]


def test_the_pseudo_locale_alignment_sheet_has_no_unmarked_fixed_word(tmp_path, forked):
    """``daimyo print-test``: its titles and instructions are marked (a word printed as written,
    not accented, is not); the instructions are wrapped to the paper in another language."""
    out = tmp_path / "test-sheet.pdf"
    run = daimyo("--lang", "en_XA", "print-test", "-o", str(out), via=forked)
    assert run.returncode == 0, run.stderr
    printed = pdf_text(out)
    assert "[dàîmýö düplé" in printed
    assert plain_words(printed, PROGRAM_WORDS | {"long"}) == []  # the duplex edge, as typed
    english = tmp_path / "english.pdf"
    assert daimyo("print-test", "-o", str(english), via=forked).returncode == 0
    assert "Hold the sheet against a window or lamp and look at the BACK side (page 2)." in pdf_text(english)


# -- errors: a bad print option in the reader's language ----------------------------------------------

# letters the pseudo-locale accents: an English word holding one and printed as written was not marked
ACCENTED = set("AEIOUaeiouCcNnSsYyTt")


def plain_words(text: str, data: set[str]) -> list[str]:
    """The words of ``text`` printed as written (not accented by the pseudo-locale) that are not
    data: an error message's words left unmarked, wherever they stand in the brackets."""
    text = re.sub(r"--[a-z][a-z-]*", " ", text)  # an option, typed as it is in any language
    return sorted({w for w in re.findall(r"[A-Za-z]{2,}", text) if set(w) & ACCENTED and w not in data})


def _refused(tmp_path: Path, lang: str, *args: str, via: str | None = None) -> subprocess.CompletedProcess:
    """``daimyo --lang LANG ARGS`` with no printer profile saved: ``python -m builder``, or ``via``
    (the ``forked`` command)."""
    env = {**os.environ, "DAIMYO_PRINTERS": str(tmp_path / "printers.json")}  # no profile saved
    command = [via] if via else [sys.executable, "-m", "builder"]
    return subprocess.run(
        [*command, "--lang", lang, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        env=env,
    )


@pytest.mark.parametrize(
    ("args", "data"),
    [
        (["print", "kensei-buke.yaml", "--cut-machine", "zund"], {"zund", "silhouette", "cricut"}),
        (["print", "kensei-buke.yaml", "--printer", "nope"], {"nope"}),
        (["print", "kensei-buke.yaml", "--paper", "zz"], {"zz"}),
        (["print", "kensei-buke.yaml", "senji-three-daimyo.yaml"], set()),
        (["print", "senshiai-northern-host.yaml", "--paper", "60x60"], set()),
        (["aid", "kensei", "--players", "3"], {"kensei"}),
    ],
)
def test_a_refused_print_is_told_in_the_readers_language(tmp_path, args, data, forked):
    """The pseudo-locale accents every word of a refused print's message but its data (the values
    given, the game): each message and hint is marked; the exit code is the usage error's, 2."""
    args = [str(EXAMPLES / a) if a.endswith(".yaml") else a for a in args]
    run = _refused(tmp_path, "en_XA", *args, "-o", str(tmp_path / "out.pdf"), via=forked)
    assert run.returncode == 2, run.stderr
    said = run.stdout + run.stderr
    assert said.strip().startswith("[") and "Traceback" not in said, said
    assert plain_words(said, data) == [], said


def test_the_refused_print_check_finds_an_unmarked_word():
    """The check above finds a word printed as written: the printer profiles' "none yet" as it
    read before it was marked."""
    said = "[dàîmýö: érrör: [ñö prîñŧér pröfîlé 'nope' (šàvéd: none yet)]]"
    assert plain_words(said, {"nope"}) == ["none", "yet"]
    assert plain_words(said.replace("none yet", "[ñöñé ýéŧ]"), {"nope"}) == []


@pytest.mark.slow  # fresh interpreters of daimyo
def test_a_refused_print_in_spanish(tmp_path):
    run = _refused(tmp_path, "es", "print", str(EXAMPLES / "kensei-buke.yaml"), "--printer", "nope", "-o", "x.pdf")
    assert run.returncode == 2
    assert "no hay perfil de impresora 'nope' (guardados: ninguno todavía)" in run.stderr, run.stderr
    english = _refused(tmp_path, "en", "print", str(EXAMPLES / "kensei-buke.yaml"), "--printer", "nope", "-o", "x.pdf")
    assert english.returncode == 2
    assert "no printer profile 'nope' (saved: none yet)" in english.stderr, english.stderr
    # the refusals of the image exports, whose functions also unpack a checked list
    tts = _refused(tmp_path, "es", "export", str(EXAMPLES / "senji-three-daimyo.yaml"), "--to", "tts", "t")
    assert tts.returncode == 2 and tts.stderr.count("\n") == 1, tts.stderr
    assert "Tabletop Simulator" in tts.stderr and "have no card deck" not in tts.stderr, tts.stderr
    images = _refused(tmp_path, "es", "print", str(EXAMPLES / "senji-three-daimyo.yaml"), "--to", "images", "i")
    assert images.returncode == 2 and images.stderr.count("\n") == 1, images.stderr
    assert "have no cards to print as images" not in images.stderr, images.stderr


# -- overlays ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("system", "lang"), [("kensei", "es"), ("senji", "fr")])
def test_the_shipped_overlay_names_every_entry(system, lang):
    catalog = load_catalog(system, [])
    assert overlay.problems(catalog, lang) == []
    table = overlay.overlay(catalog, lang)
    missing = [
        (section, rec["name"])
        for section in catalog.sections()
        for rec in catalog.records(section)
        if not table.get((section, rec["id"]), {}).get("name")
    ]
    assert not missing, missing
    texts = {"kensei": ("abilities", "titles", "armour"), "senji": ("samurai",)}[system]
    for section in texts:
        for rec in catalog.records(section):
            if (rec.get("text") or rec.get("ability") or "").strip():
                assert table[(section, rec["id"])].get("text"), (section, rec["name"])
    header = (ROOT / "catalog" / system / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8")
    assert "assumed:" in header and "Where the terms come from" in header


def _kensei_list(tmp_path: Path, troop: str) -> Path:
    text = (EXAMPLES / "kensei-sohei.yaml").read_text(encoding="utf-8")
    assert "troop: Monk Naginata" in text
    p = tmp_path / "alias.yaml"
    p.write_text(text.replace("troop: Monk Naginata", f"troop: {troop}"), encoding="utf-8")
    return p


def test_a_translated_name_in_a_list_is_read_as_its_key(tmp_path, forked):
    base = json.loads(daimyo("check", str(EXAMPLES / "kensei-sohei.yaml"), "--format", "json", via=forked).stdout)
    lst = _kensei_list(tmp_path, "Monje Naginata")  # the Spanish overlay's name of Monk Naginata
    run = daimyo("check", str(lst), "--format", "json", via=forked)
    assert run.returncode == 0, run.stdout + run.stderr
    got = json.loads(run.stdout)[0]
    assert got["legal"] is True and got["summary"] == base[0]["summary"]
    shared = daimyo("export", str(lst), "--to", "text", via=forked)
    assert "Monk Naginata" in shared.stdout and "Monje" not in shared.stdout  # written with the key


def test_an_unknown_translated_name_gets_did_you_mean(tmp_path, forked):
    lst = _kensei_list(tmp_path, "Campesinoss")  # close only to the Spanish name of Peasants
    english = daimyo("check", str(lst), via=forked)
    assert "did you mean 'Campesinos'" not in english.stdout + english.stderr  # in English: English names only
    run = daimyo("--lang", "es", "check", str(lst), via=forked)
    assert run.returncode != 0
    said = run.stdout + run.stderr
    assert "tropa desconocida: 'Campesinoss'; ¿querías decir 'Campesinos'?" in said, said


def test_a_pack_carries_its_own_translations(tmp_path, forked):
    """A pack's ``i18n:`` section names its entries in a language: shown on the page in that
    language, and read as the key in a list."""
    (tmp_path / "packs").mkdir()
    pack = (EXAMPLES / "packs" / "senshiai-example.yaml").read_text(encoding="utf-8")
    pack += "\ni18n:\n  es:\n    cards:\n      Samurai Guard: {name: Guardia samurái, aliases: [Guardia del samurái]}\n"
    (tmp_path / "packs" / "senshiai-example.yaml").write_text(pack, encoding="utf-8")
    deck = (EXAMPLES / "senshiai-northern-host.yaml").read_text(encoding="utf-8")
    (tmp_path / "deck.yaml").write_text(deck.replace("Samurai Guard: 2", "Guardia del samurái: 2"), encoding="utf-8")
    run = daimyo("check", str(tmp_path / "deck.yaml"), via=forked)
    assert run.returncode == 0, run.stdout + run.stderr
    out = tmp_path / "deck.pdf"
    run = daimyo("--lang", "es", "print", str(tmp_path / "deck.yaml"), "-o", str(out), via=forked)
    assert run.returncode == 0, run.stderr
    assert "Guardia samurái" in pdf_text(out)


def test_show_uses_the_overlay_names(forked):
    run = daimyo("--lang", "es", "show", str(EXAMPLES / "kensei-buke.yaml"), via=forked)
    assert run.returncode == 0, run.stderr
    assert "5x Samurái Yari" in run.stdout
    run = daimyo("show", str(EXAMPLES / "kensei-buke.yaml"), via=forked)
    assert "5x Samurai Yari" in run.stdout
