"""What a single command costs at start-up: only the command it runs is built, and a check from
the catalog cache imports no pydantic (tests/test_list_models.py). Timing itself is measured in
benchmarks/bench_startup.py, never here."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from forkcli import TYPER_ROUTE as FORK_TYPER_ROUTE

from builder.commands.app import app, app_for

from conftest import ROOT

FULL = "from builder.commands.app import app, register_commands; register_commands(); app(prog_name='daimyo')"


def test_a_command_runs_with_only_its_own_command_built():
    one = app_for(["check", "army.yaml"])
    assert one is not app and [c.callback.__name__ for c in one.registered_commands] == ["check"]
    assert one.registered_groups == []
    group = app_for(["catalog", "list", "kensei"])
    assert [g.name for g in group.registered_groups] == ["catalog"] and group.registered_commands == []
    for args in ([], ["--help"], ["--version"], ["chek"]):
        assert app_for(args) is app  # help, root options and unknown names see every command
    assert len(app.registered_commands) > 10  # the app itself is untouched


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--help"],
        ["check"],
        ["catalog", "list", "kensei", "--where", "x"],
        ["rules", "kensei", "--bogus"],
        ["catalog"],
        ["chek"],
    ],
)
@pytest.mark.slow  # fresh interpreters of daimyo
def test_the_one_command_app_says_what_the_whole_app_says(args, tmp_path):
    env = {"DAIMYO_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "COLUMNS": "100"}
    whole = subprocess.run([sys.executable, "-c", FULL, *args], capture_output=True, text=True, cwd=ROOT, env=env)
    daimyo = Path(sys.executable).parent / "daimyo"
    one = subprocess.run([str(daimyo), *args], capture_output=True, text=True, cwd=ROOT, env=env)
    assert (one.returncode, one.stdout, one.stderr) == (whole.returncode, whole.stdout, whole.stderr)


def test_the_command_table_names_what_each_command_module_adds():
    """``COMMAND_TABLE`` (which module a call imports for a command name) is what the modules add,
    and with the commands of the app module itself it is every command and group of the app."""
    import importlib

    import typer
    from typer.main import get_command_name

    from builder.commands.app import COMMAND_MODULES, COMMAND_TABLE, CORE_COMMANDS, register_commands
    from builder.systems import ids

    def names(t) -> list[str]:
        cmds = [c.name or get_command_name(c.callback.__name__) for c in t.registered_commands]
        return cmds + [g.name for g in t.registered_groups]

    # games.py adds no command of its own: it hooks the games' own groups to the app (``add_late``)
    assert set(COMMAND_MODULES) - set(COMMAND_TABLE.values()) == {"games"}
    added = {}
    for mod in sorted(set(COMMAND_TABLE.values())):
        alone = typer.Typer()
        importlib.import_module(f"builder.commands.{mod}").register(alone)
        added.update(dict.fromkeys(names(alone), mod))
    assert added == COMMAND_TABLE
    register_commands()
    games = set(ids())  # the games' own command groups, added to the app by earlier calls
    whole = [n for n in names(app) if n not in CORE_COMMANDS and n not in games]
    assert sorted(whole) == sorted(COMMAND_TABLE) and len(whole) == len(set(whole))
    assert {n for n in names(app) if n not in games} - set(COMMAND_TABLE) == set(CORE_COMMANDS)


@pytest.mark.slow  # fresh interpreters of daimyo
def test_a_command_imports_only_the_module_that_adds_it():
    code = (
        "import sys; from builder.commands.app import app_for; one = app_for(sys.argv[1:]); "
        "print(sorted(m for m in sys.modules if m.startswith('builder.commands.')))"
    )
    for args, modules in [
        (["stats", "army.yaml"], ["builder.commands.analytics", "builder.commands.app"]),
        (["pack", "list"], ["builder.commands.app", "builder.commands.packs"]),
        (["catalog", "list", "kensei"], ["builder.commands.app"]),
    ]:
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
        assert r.stdout.strip() == repr(modules), r
    r = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True, cwd=ROOT)
    assert all(f"builder.commands.{m}" in r.stdout for m in ("edit", "printing", "games", "diff")), r


# -- the quick route of `daimyo check` ----------------------------------------------------------

#: builder.cli.main with its quick route turned off: every call goes through the typer app
TYPER_ROUTE = (
    "import sys; import builder.cli as cli; sys.argv[0] = 'daimyo'; "
    "cli.quick_check_args = lambda args: None; cli.main()"
)
PROFILES = str(ROOT / "examples" / "packs" / "kensei-profiles.yaml")


@pytest.fixture(scope="module")
def lists(tmp_path_factory):
    """A legal list, an illegal one (over its points), a list with a warning, a list with an
    unknown key, an unreadable one, a missing file and a bad pack, by name."""
    folder = tmp_path_factory.mktemp("lists")
    legal = (ROOT / "examples" / "kensei-buke.yaml").read_text(encoding="utf-8")
    files = {
        "legal": legal,
        "illegal": legal.replace("points: 200", "points: 150"),
        "warned": (ROOT / "examples" / "satsuma-samurai.yaml").read_text(encoding="utf-8"),
        "unknown": legal.replace("clan: buke", "clan: buke\nbogus_field: 1"),
        "broken": "system: kensei\nclan: [\n",
        "badpack": "system: kensei\nname: [\n",
    }
    for name, text in files.items():
        (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    named = {name: str(folder / f"{name}.yaml") for name in files}
    named["missing"] = str(folder / "missing.yaml")
    return named


QUICK = [  # taken by the quick route
    ["check", "{legal}"],
    ["check", "{legal}", "{illegal}"],
    ["check", "{illegal}", "--format", "json"],
    ["check", "--format=csv", "{legal}", "{illegal}"],
    ["check", "-f", "json", "{legal}", "--strict"],
    ["check", "{warned}"],
    ["check", "{warned}", "--strict"],
    ["check", "{warned}", "--strict", "--strict", "-f", "csv"],
    ["check", "{legal}", "--explain", "--no-color"],
    ["check", "{illegal}", "--explain", "-f", "json"],
    ["check", "{legal}", "--format", "xml"],
    ["check", "--format=", "{legal}"],
    ["check", "{legal}", "-f", "json", "-f", "text"],
    ["check", "{missing}"],
    ["check", "{broken}", "{legal}"],
    ["check", "{unknown}", "{warned}", "-f", "csv"],
    ["check", "{broken}", "--format", "json"],
    ["check", "{legal}", "--pack", PROFILES],
    ["check", "-p", PROFILES, "{legal}", "--pack=" + PROFILES, "-f", "csv"],
    ["check", "{legal}", "--pack", "{badpack}"],
    ["check", "{legal}", "--pack", "{missing}"],
    ["check", "{legal}", "--pack=nosuchpack"],
    ["check", "{legal}", "--collection"],
    ["check", "--collection", "-f", "json", "{legal}", "{illegal}"],
    ["check", ""],
]
TYPER = [  # left to the typer app
    ["check"],
    ["check", "--help"],
    ["check", "{legal}", "--help"],
    ["check", "{legal}", "--bogus"],
    ["check", "{legal}", "--format"],
    ["check", "{legal}", "-f", "--strict"],
    ["check", "{legal}", "--pack", "-x"],
    ["check", "--strict=yes", "{legal}"],
    ["check", "-fjson", "{legal}"],
    ["check", "{legal}", "-f=json"],
    ["check", "--", "{legal}"],
    ["check", "-h"],
    ["chek", "{legal}"],
    ["catalog", "list", "kensei", "--where", "x"],
    [],
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One catalog cache for the module's processes: the first check of a game fills it (the
    cold path), the others read it, as a player's checks do."""
    return tmp_path_factory.mktemp("cache")


def _env(cache) -> dict[str, str]:
    return {
        "DAIMYO_CACHE_DIR": str(cache),
        "DAIMYO_COLLECTION": str(Path(cache) / "collection.yaml"),  # none: nothing owned
        "PATH": "/usr/bin:/bin",
        "COLUMNS": "100",
        "NO_COLOR": "",
    }


def _run(prefix: list[str], args: list[str], env: dict[str, str]) -> tuple:
    r = subprocess.run([*prefix, *args], capture_output=True, text=True, cwd=ROOT, env=env)
    return r.returncode, r.stdout, r.stderr


@pytest.fixture(scope="module")
def forked(forked_command):
    """``daimyo`` as processes forked from one that has imported daimyo (the run's one server,
    conftest's ``forked_command``): each call is still a process of its own, with the
    environment it is given, without the interpreter's start."""
    return str(forked_command)


#: the two calls compared as fresh processes (the installed ``daimyo`` and ``python -c``); the
#: others are compared as forked processes, the same code without the interpreter's start
FRESH = (QUICK[0], TYPER[0])


@pytest.mark.parametrize(
    "args, on_quick_route",
    [
        pytest.param(a, a in QUICK, marks=pytest.mark.slow if a in FRESH else ())  # fresh interpreters: slow
        for a in (*QUICK, *TYPER)
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else "",
)
def test_check_says_the_same_on_the_quick_route_and_through_typer(args, on_quick_route, lists, cache, forked):
    from builder.cli import quick_check_args

    fresh = args in FRESH
    args = [a.format(**lists) for a in args]
    assert (quick_check_args(args) is not None) == on_quick_route
    env = _env(cache)
    if fresh:
        quick = _run([str(Path(sys.executable).parent / "daimyo")], args, env)
        typer_route = _run([sys.executable, "-c", TYPER_ROUTE], args, env)
    else:
        quick = _run([forked], args, env)
        typer_route = _run([forked], args, {**env, FORK_TYPER_ROUTE: "1"})
    assert quick == typer_route
    assert quick[2] or quick[1]  # every call says something


def test_the_quick_route_reads_its_options_as_typer_does():
    from builder.cli import quick_check_args

    assert quick_check_args(["check", "a.yaml"]) == (["a.yaml"], "text", [], False, False, False, False)
    assert quick_check_args(
        ["check", "-f", "csv", "a.yaml", "--pack=p1", "b.yaml", "-p", "p2", "--strict", "--explain", "--no-color"]
    ) == (["a.yaml", "b.yaml"], "csv", ["p1", "p2"], True, True, True, False)
    assert quick_check_args(["check", "--format=a=b", "x"]) == (["x"], "a=b", [], False, False, False, False)
    assert quick_check_args(["check", "a.yaml", "--collection"]) == (["a.yaml"], "text", [], False, False, False, True)


def test_the_quick_route_leaves_shell_completion_to_typer(monkeypatch):
    from builder.cli import quick_check_args

    monkeypatch.setenv("_DAIMYO_COMPLETE", "bash_complete")
    assert quick_check_args(["check", "a.yaml"]) is None


@pytest.mark.slow  # a fresh interpreter of daimyo
def test_a_quick_check_imports_neither_typer_nor_the_command_modules(lists):
    code = (
        "import sys; import builder.cli as cli; sys.argv = ['daimyo', 'check', sys.argv[1]]\n"
        "try:\n    cli.main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click') "
        "or m.startswith('builder.commands')))"
    )
    r = subprocess.run([sys.executable, "-c", code, lists["legal"]], capture_output=True, text=True, cwd=ROOT)
    assert r.stdout.splitlines()[-1] == "0 []", r


@pytest.mark.slow  # a fresh interpreter of daimyo
def test_a_check_loads_none_of_the_parts_of_a_game_it_does_not_ask():
    """A game's view, catalog browser, printing, text form and own edits are made when first asked
    for: checking a list of every game imports none of their modules."""
    files = sorted(str(p) for p in (ROOT / "examples").glob("*.yaml"))
    games = {Path(f).name.split("-")[0] for f in files}
    assert games == {"herocard", "kensei", "satsuma", "senji", "senshiai"}
    code = (
        "import sys; import builder.cli as cli; sys.argv = ['daimyo', 'check', *sys.argv[1:]]\n"
        "try:\n    cli.main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        "print(code, sorted(m for m in sys.modules if m.startswith('builder.games.')))"
    )
    r = subprocess.run([sys.executable, "-c", code, *files], capture_output=True, text=True, cwd=ROOT)
    code, _, listed = r.stdout.splitlines()[-1].partition(" ")
    modules = ast.literal_eval(listed)
    assert code == "0" and {m.split(".")[2] for m in modules} == games, r  # every game's list was checked
    assert [m for m in modules if m.rsplit(".", 1)[-1] in ("view", "printing", "text", "edits")] == [], modules


@pytest.mark.parametrize("args", [["check", "examples/kensei-buke.yaml"], ["catalog", "list", "kensei"]])
@pytest.mark.slow  # fresh interpreters of daimyo
def test_a_command_that_hashes_no_pack_loads_no_openssl(args):
    """Loading OpenSSL for hashlib costs a new process about 7 ms: a check of a list that names no
    pack and a look at the catalog hash nothing once the catalog is in the cache (the first run
    builds it), so they do not load it."""
    code = (
        "import sys; import builder.cli as cli; sys.argv = ['daimyo', *sys.argv[1:]]\n"
        "try:\n    cli.main()\nexcept SystemExit as exc:\n    code = exc.code\n"
        "print(code, sorted(m for m in sys.modules if m in ('hashlib', '_hashlib')))"
    )
    for _ in range(2):
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
    assert r.stdout.splitlines()[-1] == "0 []", r
