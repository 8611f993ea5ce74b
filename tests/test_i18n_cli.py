"""The command line in other languages: findings said from their code and parameters, the
same codes and exit codes whatever the language, JSON unchanged but for the translated message,
and (through the pseudo-locale) no string a person reads left unmarked."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sweeps import quick_first

from builder import i18n

TOP = Path(__file__).resolve().parent.parent
PACKS = TOP / "examples" / "packs"

# an illegal list of each game: several findings each, of the kinds the game's check gives
ILLEGAL = {
    "kensei": """\
system: kensei
name: Broken vanguard
clan: buke
points: 200
commander: Hatamoto
troops:
  - troop: Taisho Buke
  - troop: Samurai Yari
    models: 20
  - troop: Nonexistent Guy
""",
    "senshiai": f"""\
system: senshiai
name: Broken host
packs: [{PACKS / "senshiai-example.yaml"}]
size: 50
cards:
  Rice Fields: 4
  Warriors: 6
  Nonexistent Card: 1
""",
    "herocard": f"""\
system: herocard
name: Broken hero
hero: Samurai
max_hero_points: 30
packs: [{PACKS / "herocard-example.yaml"}]
attributes: [Warrior's Strength, Overhand Thrust]
deck:
  Overhand Thrust: 5
  Nonexistent Card: 1
""",
    "senji": f"""\
system: senji
name: Broken start
packs: [{PACKS / "senji-board.yaml"}]
players:
  - name: Aiko
    family: yellow
    samurai: Baba
    provinces:
      - {{province: Owari, units: 2, samurai: true}}
  - name: Kenji
    family: yellow
    samurai: Nobody
    provinces:
      - {{province: Owari, units: 9}}
""",
    "satsuma": """\
system: satsuma
name: Broken rebels
side: samurai
cards:
  Nonexistent Card: 1
  Sorrow: 2
""",
}

# a finding of each game as it reads in Spanish and in French (from the catalogs)
SAID = {
    ("kensei", "es"): "tropa desconocida: 'Nonexistent Guy'",
    ("kensei", "fr"): "troupe inconnue : 'Nonexistent Guy'",
    ("senshiai", "es"): "carta desconocida 'Nonexistent Card'; añádela en un paquete",
    ("senshiai", "fr"): "carte inconnue 'Nonexistent Card' ; ajoutez-la dans une extension",
    ("herocard", "es"): "es una carta de acción, no de atributo; ponla en 'deck'",
    ("herocard", "fr"): "est une carte d'action, pas une carte d'attribut ; mettez-la sous 'deck'",
    ("senji", "es"): "2 jugadores; Senji es para 3 a 6 jugadores",
    ("senji", "fr"): "2 joueurs ; Senji se joue de 3 à 6 joueurs",
    ("satsuma", "es"): "carta desconocida 'Nonexistent Card'",
    ("satsuma", "fr"): "carte inconnue 'Nonexistent Card'",
}
VERDICT = {"en": "ILLEGAL", "es": "ILEGAL", "fr": "ILLÉGALE"}


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    folder = tmp_path_factory.mktemp("illegal")
    out = {}
    for game, text in ILLEGAL.items():
        path = folder / f"{game}.yaml"
        path.write_text(text, encoding="utf-8")
        out[game] = path
    return out


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DAIMYO_LANG", "LC_ALL", "LC_MESSAGES")}
    env["LANG"] = "C.UTF-8"
    return env


@pytest.fixture(scope="module")
def forked(forked_command):
    """``daimyo`` as processes forked from one that has imported daimyo (the run's one server,
    conftest's ``forked_command``), for
    the comparisons of many commands in each language: each call is still a process of its own
    that reads ``--lang`` at its entry point, without the interpreter's start. The usage errors
    and the help below run in fresh interpreters (``python -m builder``), and are slow."""
    return str(forked_command)


def daimyo(*args: str, cwd: Path, via: str | None = None) -> subprocess.CompletedProcess:
    """``python -m builder ARGS``, or ``via ARGS`` (the ``forked`` command)."""
    command = [via] if via else [sys.executable, "-m", "builder"]
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=cwd, env=_env(), timeout=120)


def codes_of(text: str) -> list[str]:
    return re.findall(r"^  \S+:\d+:\d+: \S+ ([a-z]+\.[a-z0-9-]+):", text, re.M)


@pytest.mark.parametrize("game", quick_first(sorted(ILLEGAL)))
def test_check_speaks_spanish_and_french_with_the_same_codes_and_exit_code(game, lists, forked):
    english = daimyo("check", lists[game].name, cwd=lists[game].parent, via=forked)
    assert english.returncode == 1, english.stdout + english.stderr
    assert f": {VERDICT['en']} (" in english.stdout
    want = codes_of(english.stdout)
    assert len(want) >= 1, english.stdout
    for lang in ("es", "fr"):
        out = daimyo("--lang", lang, "check", lists[game].name, cwd=lists[game].parent, via=forked)
        assert out.returncode == english.returncode, out.stdout + out.stderr
        assert codes_of(out.stdout) == want, out.stdout
        assert f"{VERDICT[lang]} (" in out.stdout, out.stdout
        assert SAID[(game, lang)] in out.stdout, out.stdout
        assert out.stdout != english.stdout


@pytest.mark.parametrize("game", quick_first(sorted(ILLEGAL)))
def test_json_is_the_same_in_every_language_but_for_the_translated_message(game, lists, forked):
    english = daimyo("check", "--format", "json", lists[game].name, cwd=lists[game].parent, via=forked)
    assert english.returncode == 1
    assert "message_translated" not in english.stdout
    for lang in ("es", "fr", "ja"):
        out = daimyo("--lang", lang, "check", "-f", "json", lists[game].name, cwd=lists[game].parent, via=forked)
        assert out.returncode == english.returncode
        rows = json.loads(out.stdout)
        findings = [f for r in rows for f in r["findings"]]
        assert findings and all("message_translated" in f for f in findings)
        assert any(f["message_translated"] != f["message"] for f in findings)
        for f in findings:
            del f["message_translated"]
            f.pop("source_text_translated", None)
        assert json.dumps(rows, indent=2, ensure_ascii=False) + "\n" == english.stdout


def test_csv_does_not_change_with_the_language(lists, forked):
    names = [p.name for p in lists.values()]
    english = daimyo("check", "--format", "csv", *names, cwd=lists["kensei"].parent, via=forked)
    spanish = daimyo("--lang", "es", "check", "--format", "csv", *names, cwd=lists["kensei"].parent, via=forked)
    assert english.returncode == spanish.returncode == 1
    assert spanish.stdout == english.stdout


def test_a_finding_keeps_its_template_and_parameters(lists):
    from builder.check import check_file

    for path in lists.values():
        res = check_file(path)
        assert res.findings
        for f in res.findings:
            assert f.template, f"{f.code}: '{f.message}' was made without a template"
            with i18n.use("en"):
                assert f.translated() == f.message  # English: the template and its parameters give the message
    # a parameter a person reads is a translated word, never parsed back from the English
    res = check_file(lists["kensei"])
    unknown = next(f for f in res.findings if f.code == "kensei.unknown-troop")
    assert unknown.template == "unknown {what} '{name}'"
    assert unknown.params["name"] == "Nonexistent Guy"
    assert isinstance(unknown.params["what"], i18n.Text) and unknown.params["what"].template == "troop"
    with i18n.use("fr"):
        assert unknown.translated() == "troupe inconnue : 'Nonexistent Guy'"


@pytest.mark.slow  # fresh interpreters of daimyo
def test_usage_errors_in_spanish_keep_their_exit_code(tmp_path):
    out = daimyo("--lang", "es", "check", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip() == "daimyo: error: falta el argumento 'files' (consulta 'daimyo check --help')"
    out = daimyo("--lang", "fr", "check", "--bogus", "x.yaml", cwd=tmp_path)
    assert out.returncode == 2
    assert "pas d'option : --bogus" in out.stderr
    out = daimyo("--lang", "es", "check", "missing.yaml", cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip() == "missing.yaml: error: archivo no encontrado (revisa la ruta)"


@pytest.mark.slow  # fresh interpreters of daimyo
def test_help_in_french_and_japanese(tmp_path):
    out = daimyo("--lang", "fr", "check", "--help", cwd=tmp_path)
    assert out.returncode == 0
    assert out.stdout.startswith("Utilisation : ") and " check [OPTIONS]" in out.stdout.splitlines()[0]
    assert "Vérifie des listes selon les règles." in out.stdout
    assert "Affiche ce message et quitte." in out.stdout
    out = daimyo("--lang", "ja", "--help", cwd=tmp_path)
    assert out.returncode == 0
    assert out.stdout.startswith("使い方: ")
    assert "コマンド" in out.stdout


# -- the pseudo-locale: every string a person reads is marked ------------------------------------


def unmarked(text: str, data: set[str]) -> list[str]:
    """The words of ``text`` (as the pseudo-locale renders it) that are neither inside a marked
    string (bracketed) nor data: names, codes, paths, options, numbers."""
    prev = None
    while prev != text:
        prev, text = text, re.sub(r"\[[^\[\]]*\]", " ", text)
    text = re.sub(r"\[[^\]\n]*$", " ", text, flags=re.M)  # a marked help cut short in a command list
    text = re.sub(r"(?<![\w-])--?[A-Za-z][\w-]*", " ", text)  # options
    text = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text)  # quoted: a name or a value as written
    text = re.sub(r"\S*[/\\]\S*|\S+\.(?:yaml|json|txt|pdf)\b", " ", text)  # paths
    text = re.sub(r"\b[a-z]+\.[a-z0-9-]+\b", " ", text)  # finding codes
    text = re.sub(r"\b\w+=\S*", " ", text)  # house rules as agreed (ID=VALUE)
    text = re.sub(r"<[^>]*>|\{[^}]*\}", " ", text)  # metavars and usage placeholders
    words = re.findall(r"(?<!\w)[A-Za-z][A-Za-z'_-]*[A-Za-z](?!\w)", text)
    return [w for w in words if w not in data and not w.isupper()]


def _data_words(*texts: str) -> set[str]:
    words: set[str] = set()
    for t in texts:
        words.update(re.findall(r"[A-Za-z][A-Za-z'_-]*[A-Za-z]", t))
    return words


def _rulebook_titles() -> str:
    books = yaml.safe_load((TOP / "catalog" / "rulebooks.yaml").read_text(encoding="utf-8"))
    titles = []
    for b in books.get("rulebooks", books) if isinstance(books, dict) else books:
        titles.append(b.get("title", ""))
        titles += [s.get("title", "") for s in b.get("sections", [])]
    return " ".join(titles)


def _commands() -> list[tuple[list[str], set[str]]]:
    """Every command and subcommand of the app: the words that name it, and the names of its
    parameters (which its help shows as they are)."""
    from typer.main import get_command

    from builder.commands.app import app_for, register_commands

    register_commands()
    root = get_command(app_for([]))
    out: list[tuple[list[str], set[str]]] = [([], set())]

    def walk(cmd, path):
        for name, sub in sorted((getattr(cmd, "commands", None) or {}).items()):
            out.append(([*path, name], {p.name for p in sub.params if p.name}))
            walk(sub, [*path, name])

    walk(root, [])
    return out


def _game_words() -> set[str]:
    """The games' ids and the keys of the options they declare for a new list (data in the help
    of ``new``)."""
    from builder.catalog.loader import load_catalog
    from builder.systems import list_systems

    words = set()
    for gs in list_systems():
        words.add(gs.id)
        words |= {o.key for o in gs.new_list.declare(load_catalog(gs.id))}
    return words


def test_the_pseudo_locale_finds_no_unmarked_string_in_help_check_and_errors(lists, cli):
    problems: dict[str, list[str]] = {}
    commands = _commands()
    assert len(commands) > 40
    names = _data_words(" ".join(" ".join(c) for c, _params in commands)) | _game_words()
    with i18n.use(i18n.PSEUDO):
        for cmd, params in commands:
            res = cli(*cmd, "--help")
            text = res.stdout + res.stderr
            assert res.code == 0, (cmd, text)
            # the usage line (after its marked "Usage:") names the program, its arguments and
            # subcommands: data
            head, _sep, rest = text.partition("\n")
            words = unmarked(rest, names | params | _data_words(head) | {"daimyo"})
            if words:
                problems[" ".join(cmd) + " --help"] = sorted(set(words))
        titles = _rulebook_titles()
        for game, path in lists.items():
            data = _data_words(path.read_text(encoding="utf-8"), titles, game, str(path))
            data |= _data_words(
                " ".join(p["name"] for p in json.loads(cli("check", "-f", "json", str(path)).stdout)[0]["packs"])
            )
            for args in (("check", str(path)), ("check", "--explain", str(path))):
                res = cli(*args)
                assert res.code == 1, res.stdout + res.stderr
                words = unmarked(res.stdout + res.stderr, data)
                if words:
                    problems[" ".join(args[:-1]) + " " + game] = sorted(set(words))
        for game in ("kensei", "senji"):
            res = cli("rules", game, "--codes")
            words = unmarked(res.stdout, _data_words(titles))
            if words:
                problems[f"rules {game} --codes"] = sorted(set(words))
        errors = [
            ("check",),
            ("check", "--bogus", "x.yaml"),
            ("check", "-f", "xml", str(lists["kensei"])),
            ("check", str(lists["kensei"].parent / "missing.yaml")),
            ("rules", "chess"),
            ("nonsense",),
        ]
        for args in errors:
            res = cli(*args)
            assert res.code == 2, (args, res.stdout, res.stderr)
            words = unmarked(res.stderr, names | _data_words(" ".join(args)) | {"daimyo"})
            if words:
                problems[" ".join(args)] = sorted(set(words))
    assert not problems, problems


def test_the_pseudo_locale_check_finds_an_unmarked_string():
    """The scan above reports a message made without ``_()``/``L_()``: here, one finding of a
    check result written as plain text."""
    from builder.check import format_result
    from builder.findings import CheckResult, Finding
    from builder.i18n import L_

    res = CheckResult(
        file="army.yaml",
        system="kensei",
        name="Test",
        summary={"points": 100, "limit": 200},
        house_rules={},
        findings=[
            Finding("error", "kensei.points-max", L_("total {n} > {limit}", n=220, limit=200)),
            Finding("error", "kensei.units-min", "too few units in the army"),  # not marked
        ],
    )
    with i18n.use(i18n.PSEUDO):
        text = "\n".join(format_result(res))
    assert unmarked(text, {"Test"}) == ["too", "few", "units", "in", "the", "army"]


def test_every_help_text_is_in_the_templates():
    """A help text is translated where it is shown, so the pseudo-locale brackets it even when
    ``scripts/i18n.py extract`` cannot read it (an f-string): it must be a message of the
    templates too, or no translator ever sees it."""
    from babel.messages.pofile import read_po
    from typer.main import get_command

    from builder.cli_words import help_template
    from builder.commands.app import app_for, register_commands

    known: set[str] = set()
    for pot in i18n.LOCALE_DIR.glob("*.pot"):
        with pot.open("rb") as fh:
            known |= {m.id for m in read_po(fh) if isinstance(m.id, str)}
    register_commands()
    missing = []

    def walk(cmd, path):
        texts = [getattr(cmd, "help", None)] + [getattr(p, "help", None) for p in cmd.params]
        for t in texts:
            english = help_template(t) if isinstance(t, str) else t  # a help with values: its template
            if isinstance(english, str) and english and english not in known:
                missing.append((" ".join(path), english[:60]))
        for name, sub in sorted((getattr(cmd, "commands", None) or {}).items()):
            walk(sub, [*path, name])

    with i18n.use("en"):
        walk(get_command(app_for([])), ["daimyo"])
    assert not missing, "\n".join(sorted({t for _c, t in missing}))


@pytest.mark.parametrize(
    "args",
    [
        ("rules", "kensei", "--format", "json"),
        ("rules", "kensei", "--codes", "--format", "json"),
        ("stats", str(TOP / "examples" / "kensei-buke.yaml"), "--format", "json"),
        ("hand", str(TOP / "examples" / "senshiai-northern-host.yaml"), "--seed", "3", "--format", "json"),
    ],
)
def test_other_json_outputs_do_not_change_with_the_language(args, tmp_path, forked):
    english = daimyo(*args, cwd=tmp_path, via=forked)
    assert english.returncode == 0, english.stderr
    for lang in ("es", "fr", "ja"):
        out = daimyo("--lang", lang, *args, cwd=tmp_path, via=forked)
        assert out.returncode == 0, out.stderr
        assert out.stdout == english.stdout, (lang, args)


# -- the pseudo-locale: diff, stats, hand, the catalog, why and options ----------------------------

EXAMPLES = TOP / "examples"
# each game's example list, an entry of its catalog to ask ``why`` about, and (card games) an
# entry that is already in the deck
ASKED = {
    "kensei": ("kensei-buke.yaml", "Samurai Yari"),
    "senshiai": ("senshiai-northern-host.yaml", "Warriors"),
    "herocard": ("herocard-samurai.yaml", "Overhand Thrust"),
    "senji": ("senji-three-daimyo.yaml", "Owari"),
    "satsuma": ("satsuma-imperial.yaml", "Imperial Guard"),
}


def _catalog_words(game: str) -> set[str]:
    """What a game's catalog holds as data: its sections, the keys of its entries and their
    short values (names, ids, aliases, types, titles), and its suits and clans by name."""
    from builder.catalog.loader import load_catalog

    cat = load_catalog(game, [str(p) for p in sorted(PACKS.glob("*.yaml")) if f"system: {game}" in p.read_text()])
    out: set[str] = set(cat.sections())

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                out.add(str(k))
                if k == "name":  # a name, however long ("Unique, legendary and leader profiles once")
                    out.add(str(x))
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, str) and len(v) <= 40:
            out.add(v)

    walk(cat.model.model_dump())
    for sec in cat.sections():
        walk(list(cat.records(sec)))
    words = _data_words(" ".join(out))
    return words | {part for w in words for part in w.split("'") if part}  # "Scholar's": "Scholar" too


def _entry_words(game: str, name: str) -> set[str]:
    """Every word of one catalog entry as written (``catalog show`` prints its fields as data)."""
    from builder.catalog.loader import load_catalog

    cat = load_catalog(game)
    for sec in cat.sections():
        e = cat.find_record(sec, name)
        if e is not None:
            return _data_words(json.dumps(e, default=str))
    raise AssertionError(name)


def _scan_faces(cli, ws: Path, lists: dict[str, Path]) -> dict[str, list[str]]:
    """The pseudo-locale's words left unmarked in diff, stats, hand, catalog list and show, why
    and options of every game (``ws``: a copy of the examples)."""
    titles = _rulebook_titles()
    problems: dict[str, list[str]] = {}

    def scan(args, data, codes=(0, 1)):
        res = cli(*map(str, args))
        assert res.code in codes, (args, res.stdout, res.stderr)
        words = unmarked(res.stdout + res.stderr, data)
        if words:
            problems[" ".join(str(a) for a in args[:3])] = sorted(set(words))

    with i18n.use(i18n.PSEUDO):
        for game, (file, name) in ASKED.items():
            path = ws / file
            data = (
                _catalog_words(game)
                | _data_words(path.read_text(encoding="utf-8"), lists[game].read_text(encoding="utf-8"), titles)
                | {game, "daimyo"}
            )
            scan(("diff", path, lists[game]), data)
            scan(("diff", lists[game], path), data)
            scan(("stats", path), data)
            if game in ("senshiai", "herocard", "satsuma"):
                scan(("hand", path, "--seed", "3", "--draws", "2"), data)
            scan(("catalog", "list", game), data)
            shown = "yellow" if game == "senji" else name  # Senji's provinces come from a pack
            scan(("catalog", "show", game, shown), data | _entry_words(game, shown))
            scan(("why", path, name), data)
            scan(("options", path), data)
        one, other = ws / ASKED["kensei"][0], ws / ASKED["senji"][0]
        scan(
            ("diff", one, other),
            _catalog_words("kensei")
            | _catalog_words("senji")
            | _data_words(one.read_text(encoding="utf-8"), other.read_text(encoding="utf-8"), titles)
            | {"daimyo"},
        )
        scan(
            ("stats", ws / ASKED["senshiai"][0], "--odds", "type=troop >= 2 in 6"),
            _catalog_words("senshiai") | _data_words(titles),
        )
    return problems


def test_the_pseudo_locale_finds_no_unmarked_string_in_diff_stats_hand_catalog_why_and_options(lists, cli, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLES, ws)
    problems = _scan_faces(cli, ws, lists)
    assert not problems, json.dumps(problems, indent=1)


def test_the_pseudo_locale_scan_of_the_faces_finds_an_unmarked_string(lists, cli, tmp_path, monkeypatch):
    """The scan above reports a sentence of ``daimyo diff`` written without ``_()``: here the
    comparison's total line, its words given as they are."""
    from builder.lists import diff

    ws = tmp_path / "ws"
    shutil.copytree(EXAMPLES, ws)
    real = diff._
    monkeypatch.setattr(diff, "_", lambda m: m if m.startswith("total:") else real(m))
    problems = _scan_faces(cli, ws, lists)
    assert problems and all(words == ["total"] for key, words in problems.items()), problems
    assert all(key.startswith("diff ") for key in problems), problems


def test_the_language_of_a_change_note_follows_the_reader():
    """A change's note keeps its words: English as it always read (and in JSON), said in the
    language of whoever shows it."""
    from builder.lists.editor import ListEditor

    ed = ListEditor.open(str(EXAMPLES / "herocard-samurai.yaml"))
    res = ed.why("Overhand Thrust", None)
    note = res.notes[-1]
    assert note == "added 1 Overhand Thrust (4 in the action deck)"
    assert json.dumps([note]) == '["added 1 Overhand Thrust (4 in the action deck)"]'
    with i18n.use("es"):
        assert i18n.tr(note) == "se añadieron 1 Overhand Thrust (4 en el mazo de acción)"
    with i18n.use("fr"):
        assert i18n.tr(note) == "1 Overhand Thrust ajouté(s) (4 dans le paquet d'action)"


def test_diff_and_catalog_show_in_spanish_and_french(tmp_path, forked):
    buke, kuge = EXAMPLES / "kensei-buke.yaml", EXAMPLES / "kensei-kuge.yaml"
    english = daimyo("diff", str(buke), str(kuge), cwd=tmp_path, via=forked)
    assert english.returncode == 1
    assert "- troops: Samurai Yari (1 unit, 5 models, 25 AP)" in english.stdout
    assert "total: 200 / 200 AP -> 195 / 200 AP" in english.stdout
    spanish = daimyo("--lang", "es", "diff", str(buke), str(kuge), cwd=tmp_path, via=forked)
    assert spanish.returncode == 1
    assert "- troops: Samurai Yari (1 unidad, 5 miniaturas, 25 PE)" in spanish.stdout
    assert "total: 200 / 200 PE -> 195 / 200 PE" in spanish.stdout
    assert "veredicto: legal -> legal" in spanish.stdout
    # JSON: the English words, with the reader's beside them
    js = json.loads(daimyo("--lang", "fr", "diff", "-f", "json", str(buke), str(kuge), cwd=tmp_path, via=forked).stdout)
    gone = next(e for e in js["removed"] if e["name"] == "Samurai Yari")
    assert gone["text"] == "1 unit, 5 models, 25 AP"
    assert gone["text_translated"] == "1 unité, 5 figurines, 25 PA"
    plain = json.loads(daimyo("diff", "-f", "json", str(buke), str(kuge), cwd=tmp_path, via=forked).stdout)
    assert "text_translated" not in json.dumps(plain)
    french = daimyo("--lang", "fr", "catalog", "show", "kensei", "Samurai Yari", cwd=tmp_path, via=forked)
    assert "\n  défini dans : " in french.stdout and ", ligne 136" in french.stdout
    assert "  leader: non" in french.stdout  # the field's key as the catalog writes it, its value said
