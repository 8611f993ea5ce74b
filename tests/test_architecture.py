"""Dependencies point one way: cli -> everything; render and rules -> catalog; catalog -> neither."""

import ast
import functools
import re
from pathlib import Path

import pytest
from pysource import parsed

PKG = Path(__file__).resolve().parent.parent / "builder"


def imports_of(path: Path) -> set[str]:
    return set(_imports_of(path))


@functools.cache  # the sources do not change during a run; several tests read each module
def _imports_of(path: Path) -> frozenset[str]:
    tree = parsed(path.read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            # ``from builder import state`` imports the module builder.state
            where = PKG.parent / node.module.replace(".", "/")
            subs = [a.name for a in node.names if (where / f"{a.name}.py").is_file() or (where / a.name).is_dir()]
            out.update(f"{node.module}.{name}" for name in subs)
            if len(subs) < len(node.names):
                out.add(node.module)
    return frozenset(out)


def modules(sub: str):
    return sorted((PKG / sub).rglob("*.py"))


# Each game's package (builder/games/<id>/) holds modules of each kind: they follow the rules of
# the layer the kind belongs to (catalog models, rules, system description, printed blocks).
GAME_KINDS = {
    "catalog": ("catalog.py", "terms.py"),
    "rules": ("rules.py", "sim.py"),
    "systems": ("system.py", "text.py", "analytics.py", "packs.py", "printing.py", "view.py", "units.py"),
    "render": ("roster.py", "setup_sheet.py"),
}


def game_modules(kind: str):
    return sorted(p for p in (PKG / "games").rglob("*.py") if p.name in GAME_KINDS[kind])


def test_catalog_imports_neither_rules_nor_render_nor_cli():
    for path in modules("catalog") + game_modules("catalog"):
        bad = {
            m
            for m in imports_of(path)
            if m.startswith(
                ("builder.rules", "builder.render", "builder.cli", "builder.commands", "reportlab", "typer")
            )
            or (m.startswith("builder.games.") and m.endswith((".rules", ".sim")))
        }
        assert not bad, f"{path.name} imports {bad}"


def test_rules_core_is_pure():
    for path in modules("rules") + game_modules("rules"):
        bad = {
            m
            for m in imports_of(path)
            if m.startswith(
                ("builder.render", "builder.cli", "builder.commands", "reportlab", "typer", "ruamel", "PIL")
            )
        }
        assert not bad, f"{path.name} imports {bad}"


KIT_PRINTING = {"blocks.py", "pdfbase.py", "rladapter.py", "fonts.py", "layout.py"}  # the kit's print toolkit


def test_only_render_imports_reportlab():
    for path in PKG.rglob("*.py"):
        if "render" in path.parts or path in game_modules("render"):
            continue
        if path.parent == PKG / "kit" and path.name in KIT_PRINTING:
            continue
        assert not {m for m in imports_of(path) if m.startswith("reportlab")}, path


@pytest.fixture(scope="module")
def startup_modules() -> set[str]:
    """The modules a fresh interpreter holds once it has imported ``builder.cli`` and the command
    app (what every ``daimyo`` command loads before it runs; a plain check loads less)."""
    import subprocess
    import sys

    code = "import sys, builder.cli, builder.commands.app; print('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_startup_imports_stay_light(startup_modules):
    """`daimyo --version` must not pull in reportlab, pillow or ruamel.yaml."""
    assert "builder.cli" in startup_modules
    assert not [m for m in ("reportlab", "PIL", "ruamel.yaml") if m in startup_modules]


WEB_STACK = ("fastapi", "starlette", "uvicorn", "jinja2", "multipart", "python_multipart", "pypdfium2", "httpx")


def test_only_the_web_package_and_serve_import_the_web_stack():
    """The web stack is imported by ``builder/web/`` and ``builder/viewer/`` and, inside their
    functions, by ``daimyo serve`` and ``daimyo viewer``."""
    for path in PKG.rglob("*.py"):
        if {"web", "viewer"} & set(path.relative_to(PKG).parts) or path.name == "serve.py":
            continue
        bad = {m for m in imports_of(path) if m.split(".")[0] in WEB_STACK or m.startswith("builder.web")}
        bad -= RASTERISERS.get(path.relative_to(PKG).as_posix(), set())
        assert not bad, f"{path.relative_to(PKG)} imports {bad}"


# card images (print shops, Tabletop Simulator) are the PDF's cards rasterised by PDFium
RASTERISERS = {"render/images.py": {"pypdfium2"}}


def test_rasterisers_import_pdfium_only_inside_functions():
    for rel, mods in RASTERISERS.items():
        tree = ast.parse((PKG / rel).read_text())
        top = {a.name for node in tree.body if isinstance(node, ast.Import) for a in node.names}
        top |= {node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.module}
        assert not top & mods, f"{rel} imports {top & mods} at module level (slow start-up)"


def test_serve_imports_the_web_stack_only_inside_the_command():
    path = PKG / "commands" / "serve.py"
    tree = ast.parse(path.read_text())
    top = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            top.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            top.add(node.module)
    assert not {m for m in top if m.split(".")[0] in WEB_STACK or m.startswith("builder.web")}, top


def test_web_package_stays_out_of_the_library_core():
    """The rules, catalog, render and share code never import the web package."""
    for sub in ("rules", "catalog", "render", "share", "lists", "games"):
        for path in modules(sub):
            assert not {m for m in imports_of(path) if m.startswith("builder.web")}, path


def test_cli_startup_does_not_load_the_web_stack(startup_modules):
    assert "builder.cli" in startup_modules
    assert not [m for m in startup_modules if m.split(".")[0] in WEB_STACK or m.startswith("builder.web")]


def test_analytics_is_pure_computation():
    """Statistics, odds, hands and the simulation driver compute; the CLI prints, render draws."""
    for path in modules("analytics"):
        bad = {
            m
            for m in imports_of(path)
            if m.startswith(("builder.render", "builder.cli", "builder.commands", "reportlab", "typer", "PIL"))
        }
        assert not bad, f"{path.name} imports {bad}"


def test_library_never_imports_the_command_line():
    """The CLI and the web builder are faces on the library; the library imports neither. A game's
    own commands (its ``commands`` part, ``games/<id>/commands.py``) are typer commands, handed
    their group and helpers by the command line, which they never import."""
    for sub in ("lists", "systems", "rules", "catalog", "share", "render", "games"):
        for path in modules(sub):
            face = ("builder.cli", "builder.commands", "builder.web")
            if not (sub == "games" and path.name == "commands.py"):
                face += ("typer",)
            bad = {m for m in imports_of(path) if m.startswith(face)}
            assert not bad, f"{sub}/{path.name} imports {bad}"
    for name in ("api.py", "check.py"):
        assert not {m for m in imports_of(PKG / name) if m.startswith(("builder.cli", "builder.commands"))}


def test_game_systems_do_not_print():
    for path in modules("systems") + game_modules("systems"):
        bad = {m for m in imports_of(path) if m.startswith(("builder.render", "reportlab", "PIL"))}
        assert not bad, f"{path.relative_to(PKG)} imports {bad}"


# -- what is game-specific lives in builder/systems/ ----------------------------------------------

BUILT_IN_IDS = {"senshiai", "kensei", "herocard", "senji", "satsuma"}

# Parts of builder/ still being moved onto the GameSystem classes. Each entry is temporary: this
# list only ever shrinks, and the test fails when an entry no longer needs its exemption.
NOT_YET_MOVED: dict[str, str] = {}


def _exempt(rel: str) -> str | None:
    for prefix in NOT_YET_MOVED:
        if rel == prefix or rel.startswith(prefix + "/"):
            return prefix
    return None


def _names_a_system(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in BUILT_IN_IDS


def per_system_code(path: Path) -> list[str]:
    """Comparisons with a game's id, and dict, set, tuple or list literals holding game ids."""
    out = []
    for node in ast.walk(parsed(path.read_text())):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                if _names_a_system(side) or (
                    isinstance(side, (ast.Tuple, ast.List, ast.Set)) and any(_names_a_system(e) for e in side.elts)
                ):
                    out.append(f"{node.lineno}: compares with a game id")
                    break
        elif isinstance(node, ast.Dict) and any(k is not None and _names_a_system(k) for k in node.keys):
            out.append(f"{node.lineno}: a table keyed by game ids")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_names_a_system(e) for e in node.elts):
            out.append(f"{node.lineno}: a collection of game ids")
        elif isinstance(node, ast.Call) and any(k.arg in BUILT_IN_IDS for k in node.keywords):
            out.append(f"{node.lineno}: a table keyed by game ids")
        elif isinstance(node, ast.match_case) and _names_a_system(getattr(node.pattern, "value", None)):
            out.append(f"{node.lineno}: a case per game id")
    return sorted(dict.fromkeys(out), key=lambda h: int(h.split(":")[0]))


def test_game_specific_code_lives_in_the_game_systems():
    """No ``system == "kensei"`` branch and no table keyed by game ids outside builder/systems/:
    a new game is a GameSystem subclass, not a change in ten modules."""
    found, still_needed = [], set()
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        if rel.startswith(("systems/", "games/")):
            continue
        hits = per_system_code(path)
        prefix = _exempt(rel)
        if prefix is not None:
            still_needed.update([prefix] if hits else [])
            continue
        found += [f"builder/{rel}:{h}" for h in hits]
    assert not found, "game-specific code outside builder/systems/:\n" + "\n".join(found)
    assert still_needed == set(NOT_YET_MOVED), f"no longer needs its exemption: {set(NOT_YET_MOVED) - still_needed}"


def test_the_scan_finds_what_it_forbids(tmp_path):
    """The scan above catches each form it forbids (a known-bad module) and passes a clean one."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        'if system == "kensei":\n    pass\n'
        'x = {"senji": 1}\n'
        'y = doc.system in ("senshiai", "herocard")\n'
        'Z = ("satsuma",)\n'
        "w = dict(herocard=2)\n"
    )
    assert [h.split(":")[0] for h in per_system_code(bad)] == ["1", "3", "4", "4", "5", "6"]
    good = tmp_path / "good.py"
    good.write_text('gs = find_system(doc.system)\nif gs.prints == "cards":\n    pass\nx = {"cards": 1}\n')
    assert per_system_code(good) == []


# -- the command line parses and prints; the library does the work ---------------------------------

MAX_LOGIC_LINES = 30

# Commands still holding more than that; temporary, emptied as their logic moves into the library.
LONG_FOR_NOW: dict[str, str] = {}


def logic_lines(fn, source_lines: list[str]) -> int:
    """A function's own statements, each counted once however the formatter wraps it: no
    docstring, no nested functions."""
    body = fn.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    nested = {
        ln
        for n in ast.walk(fn)
        if n is not fn and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        for ln in range(n.lineno, n.end_lineno + 1)
    }
    return len(
        {st.lineno for top in body for st in ast.walk(top) if isinstance(st, ast.stmt) and st.lineno not in nested}
    )


def test_command_functions_stay_short():
    """Every function of the command-line modules has at most 30 statements: argument parsing
    and printing; what a command does is a library call."""
    long, still_needed = [], set()
    for path in [PKG / "cli.py", *modules("commands")]:
        text = path.read_text()
        for fn in ast.walk(parsed(text)):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = logic_lines(fn, text.splitlines())
                key = f"{path.relative_to(PKG).as_posix()}:{fn.name}"
                if n > MAX_LOGIC_LINES:
                    (still_needed.add(key) if key in LONG_FOR_NOW else long.append(f"{key} ({n} lines)"))
    assert not long, "command functions doing the library's work:\n" + "\n".join(long)
    assert still_needed == set(LONG_FOR_NOW), f"short now, drop the exemption: {set(LONG_FOR_NOW) - still_needed}"


def test_logic_lines_counts_statements_only():
    src = 'def f():\n    """doc"""\n    a = 1\n\n    # note\n    def g():\n        return 2\n    return (a +\n            g())\n'
    fn = ast.parse(src).body[0]
    assert logic_lines(fn, src.splitlines()) == 2  # a = 1, and the return wrapped over two lines


# words that stand for one game's kind of list or document: a part of the game says it instead
PART_WORDS = re.compile(r"""\b(?:layout|prints)\s*(?:==|!=)\s*["'](?:units|players|cards|roster|setup)["']""")
PART_WORDS_LEFT: set[str] = set()


def test_no_word_stands_for_a_games_part():
    """``gs.units``, ``gs.players`` and ``gs.sheet`` say what a game has, not a compared word."""
    found = {path.relative_to(PKG).as_posix() for path in PKG.rglob("*.py") if PART_WORDS.search(path.read_text())}
    assert found == PART_WORDS_LEFT, f"compare a part with None instead: {sorted(found - PART_WORDS_LEFT)}"
    assert PART_WORDS.search('if gs.layout == "units":') and not PART_WORDS.search("if gs.units is not None:")


# -- a game is small parts, each reached by the layer that uses it ---------------------------------

# What the game object itself may hold: its identity, its parts, and the members of the builder's
# web view and of editing that are not yet parts of their own. The bound only goes down.
GAME_MEMBERS_MAX = 29
PART_MEMBERS_MAX = 12  # a part is a small Protocol: about a dozen members at most

# Each part, and the modules of builder/ (outside builder/games/ and builder/systems/) that may reach
# it on a game: a module of another layer asking for it is reaching past its own part.
PART_USERS = {
    # the check, an event's intake, a pack's preview check, a list loaded to print or count
    "rules": (
        "check.py",
        "lists/check.py",
        "event/",
        "packs/editor.py",
        "render/api.py",
        "analytics/",
        "viewer/play.py",
    ),
    "text": ("share/",),
    "document": ("share/", "lists/", "api.py"),  # the share schema, the editor's key order, validation
    "analytics": ("analytics/", "render/charts.py", "kit/facts.py"),  # the statistics and their PDF; the limits rows
    "packs": ("packs/", "catalog/loader.py"),  # templates; the loader refuses art a game never prints
    "printing": ("render/", "viewer/play.py"),  # the PDFs; the table view's counters
    "sheet": ("render/", "packs/", "web/printing.py", "web/pack_editor.py"),
    "unit_cards": ("render/", "viewer/play.py"),  # the cards; the viewer's stat lines
    "view": ("web/", "lists/diff.py", "commands/edit.py"),  # the builder's pages, a comparison's rows
    # the catalog beside a list, 'daimyo options', the sections a collection holds
    "browse": ("web/", "commands/edit.py", "lists/collection.py"),
    "questions": ("lists/options.py", "commands/edit.py"),
    "settings": ("lists/ops.py", "web/"),  # the Set operation, the builder's settings
    # add and remove, the cards a list holds: the edit operations and session, the comparison,
    # 'daimyo add'/'remove', the builder's card rows
    "editing": ("lists/", "commands/edit.py", "web/guide.py", "web/views.py"),
    # the catalog's folder (the loader), the finding codes of a catalog (the command line)
    "catalog": ("catalog/loader.py", "commands/app.py"),
    "new_list": (
        "lists/new.py",
        "commands/edit.py",
        "web/",
        "event/intake.py",
    ),  # a new list (every face's), the help of 'daimyo new', the form, an event
    "units": ("web/", "lists/"),
    "players": ("web/", "lists/"),
}
GAME_NAMES = {"gs", "game"}  # the names a module gives the game object it asks
GAME_GETTERS = {"get", "find_system", "game", "_game"}  # registry lookups: get(system).text


def _is_game(node) -> bool:
    """``gs``, ``game``, ``ed.game``, ``get(system)``, ``find_system(name)``: an expression that
    is a game object."""
    if isinstance(node, ast.Name):
        return node.id in GAME_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in GAME_NAMES
    if isinstance(node, ast.Call):
        f = node.func
        return (f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)) in GAME_GETTERS
    return False


def parts_reached(source: str) -> list[tuple[int, str]]:
    """(line, part) of every part of a game the source reaches (``gs.text``, ``get(s).analytics``)."""
    return sorted(
        (node.lineno, node.attr)
        for node in ast.walk(parsed(source))
        if isinstance(node, ast.Attribute) and node.attr in PART_USERS and _is_game(node.value)
    )


def test_each_layer_reaches_only_its_own_parts_of_a_game():
    wrong = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()
        if rel.startswith(("systems/", "games/")):
            continue
        for line, name in parts_reached(path.read_text()):
            if not any(rel == u or (u.endswith("/") and rel.startswith(u)) for u in PART_USERS[name]):
                wrong.append(f"builder/{rel}:{line}: reaches the game's '{name}' part (used by {PART_USERS[name]})")
    assert not wrong, "\n".join(wrong)


def test_the_part_scan_sees_each_way_of_reaching_a_game():
    src = (
        "gs.text.header(d, s)\nget(system).analytics.deck_view(l, c, r)\ned.game.units.unit_rows(d, c, r)\n"
        "find_system(n).printing.total(s)\nrow.text\nget(system).name\n"
    )
    assert parts_reached(src) == [(1, "text"), (2, "analytics"), (3, "units"), (4, "printing")]


def _public(cls) -> set[str]:
    """The public members of a class (a Protocol's declared attributes too)."""
    names = set(dir(cls)) | set(getattr(cls, "__annotations__", {}))
    return {n for n in names if not n.startswith("_")}


def oversized(cls, bound: int) -> list[str]:
    """The public members of ``cls`` when there are more than ``bound``; [] otherwise."""
    members = sorted(_public(cls))
    return members if len(members) > bound else []


def test_the_game_object_and_each_part_stay_small():
    """GameSystem holds at most GAME_MEMBERS_MAX public members; each part of every registered
    game (the toy games too) at most PART_MEMBERS_MAX, and a game's part adds no public member
    its base part lacks (what a layer may call is what the part declares)."""
    from builder.systems import list_systems, parts, register, unregister
    from builder.systems.base import GameSystem

    assert not oversized(GameSystem, GAME_MEMBERS_MAX)
    import toyunits

    import toygame

    protocols = {
        "text": parts.TextForm,
        "analytics": parts.Analytics,
        "document": parts.Document,
        "packs": parts.Packs,
        "printing": parts.Printing,
        "view": parts.ListView,
        "browse": parts.CatalogView,
        "questions": parts.Questions,
        "new_list": parts.NewList,
        "settings": parts.Settings,
        "editing": parts.Editing,
        "catalog": parts.Catalog,
        "units": parts.Units,
        "players": parts.Players,
        "sheet": parts.SheetPrinter,
        "unit_cards": parts.UnitCards,
    }
    register(toygame.SYSTEM)
    register(toyunits.SYSTEM)
    try:
        games = list(list_systems())
        assert {"toygame", "toyunits"} <= {g.id for g in games}
        for gs in games:
            for name in PART_USERS:
                if name == "rules":
                    continue
                p = getattr(gs, name)
                if p is None:
                    continue
                own = _public(type(p))
                assert not oversized(type(p), PART_MEMBERS_MAX), (gs.id, name)
                base = _public(protocols[name])
                assert own <= base | {"game"}, (gs.id, name, sorted(own - base))
    finally:
        unregister("toygame")
        unregister("toyunits")


def test_the_bounds_fail_one_past():
    """A class at a bound passes; one public member more fails."""
    at = type("At", (), {f"m{i}": i for i in range(PART_MEMBERS_MAX)})
    past = type("Past", (at,), {"one_more": 0})
    assert oversized(at, PART_MEMBERS_MAX) == []
    assert len(oversized(past, PART_MEMBERS_MAX)) == PART_MEMBERS_MAX + 1


# -- the import contracts of pyproject.toml ------------------------------------------------------

CORE = (
    "builder.errors",
    "builder.findings",
    "builder.names",
    "builder.limits",
    "builder.paths",
    "builder.yamlio",
    "builder.yamlload",
    "builder.yamlpos",
    "builder.yamlparse",
    "builder.rulebooks",
    "builder.state",
    "builder.i18n",
    "builder.safeout",
)


def _contracts() -> dict[str, dict]:
    import tomllib

    data = tomllib.loads((PKG.parent / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["type"]: c for c in data["tool"]["importlinter"]["contracts"]}


def test_the_layers_are_declared_with_the_kit_below_the_games():
    layers = [[m.strip() for m in layer.split(":")] for layer in _contracts()["layers"]["layers"]]
    assert [layer[0] for layer in layers] == [
        "builder.cli",
        "builder.api",
        "builder.games",
        "builder.kit",
        "builder.errors",
    ]
    assert tuple(layers[-1]) == CORE


def test_no_import_goes_up_a_layer_breaks_the_games_fence_or_closes_a_cycle():
    contracts = _contracts()
    assert "ignore_imports" not in contracts["layers"]  # no import goes up a layer
    assert "ignore_imports" not in contracts["forbidden"]  # no layer imports a game's package
    assert "ignore_imports" not in contracts["acyclic_siblings"]  # no import closes a cycle


GAMES = sorted(p.name for p in (PKG / "games").iterdir() if (p / "__init__.py").is_file())


def other_games_imported(path: Path, game: str) -> set[str]:
    """The modules of games other than ``game`` that the module at ``path`` imports."""
    return {
        m
        for m in imports_of(path)
        if m.startswith("builder.games.") and m.split(".")[2] in GAMES and m.split(".")[2] != game
    }


def test_no_game_imports_another_game():
    """What two games share lives below them (``builder.kit``, ``builder.systems``): each game's
    package can be read, changed or removed without touching another's."""
    assert set(GAMES) >= BUILT_IN_IDS
    for game in GAMES:
        for path in sorted((PKG / "games" / game).rglob("*.py")):
            bad = other_games_imported(path, game)
            assert not bad, f"games/{game}/{path.name} imports {sorted(bad)}: move what they share into builder.kit"


def test_the_games_are_declared_independent_without_exceptions():
    contract = _contracts()["independence"]
    assert sorted(contract["modules"]) == [f"builder.games.{g}" for g in GAMES]
    assert "ignore_imports" not in contract


def test_the_game_scan_sees_an_import_of_another_game(tmp_path):
    mod = tmp_path / "rules.py"
    mod.write_text("def f():\n    from builder.games.senshiai.rules import check\n")
    assert other_games_imported(mod, "herocard") == {"builder.games.senshiai.rules"}
    assert other_games_imported(mod, "senshiai") == set()


def test_the_kit_imports_only_itself_and_the_core():
    """The toolkit the games build on sits below them: no game, registry, catalog or library."""
    for path in modules("kit"):
        bad = {m for m in imports_of(path) if m.startswith("builder") and not m.startswith(("builder.kit", *CORE))}
        assert not bad, f"kit/{path.name} imports {bad}"


def test_the_import_contracts_hold():
    import pytest

    pytest.importorskip("importlinter", reason="import-linter is one of the gates (pip install -e '.[gates]')")
    import subprocess
    import sys

    lint = Path(sys.executable).parent / "lint-imports"
    if not lint.exists():
        pytest.skip("lint-imports is not installed beside this Python")
    out = subprocess.run([str(lint)], capture_output=True, text=True, cwd=PKG.parent)
    assert out.returncode == 0, out.stdout[-3000:]
    assert "4 kept, 0 broken" in out.stdout


# Imports sit at the top of a module. A module that lives behind a heavy library (printing,
# the web, events, spreadsheets) imports it at its top; only the entry points that would load it
# for nothing defer it. What is left inside functions says why on its line
# (a noqa comment for PLC0415 with its reason, which ruff checks) or sits in a module listed in
# pyproject.toml. The count may only fall.
LOCAL_IMPORTS_AT_MOST = 60


def local_imports(tree: ast.AST) -> list[ast.stmt]:
    """The import statements inside a function (at any depth) of a module's syntax tree."""
    found: list[ast.stmt] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


def test_imports_inside_functions_do_not_grow():
    counts = {p: len(local_imports(parsed(p.read_text()))) for p in PKG.rglob("*.py")}
    total = sum(counts.values())
    most = sorted(counts.items(), key=lambda kv: -kv[1])[:5]
    assert total <= LOCAL_IMPORTS_AT_MOST, (
        f"{total} imports inside functions in builder/ (at most {LOCAL_IMPORTS_AT_MOST}): move them to the "
        f"top of the module; most in {[(p.relative_to(PKG).as_posix(), n) for p, n in most]}"
    )


def test_the_local_import_count_sees_nested_functions_and_methods():
    tree = ast.parse(
        "import os\n"
        "def f():\n    import re\n    def g():\n        from json import dumps\n"
        "class C:\n    import sys\n    def m(self):\n        import io\n"
    )
    assert [ast.unparse(n) for n in local_imports(tree)] == ["import re", "from json import dumps", "import io"]
