"""No function in ``builder/`` grows past ``MAX_LINES``: a route, a command or a step of the
library reads from top to bottom on one screen or two. A function's length is the lines of its
body, from its first statement (its docstring) to its last; its signature is not counted (a
command's signature is its options and their help, declared rather than run).

``LONGER`` lists the functions that are longer today, outside the faces (the web builder, the
event server and the command line have none): each may shrink, none may grow, and one that
is split leaves the list."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 120
FACES = ("builder/web/", "builder/event/web/", "builder/commands/", "builder/cli.py")

#: path:function -> its length now (the body's lines): the catalog's build, the games' rule
#: readers, checks and simulation, the printing of a book, a sheet of cards and a print shop's
#: files, and the canonical form's value reader are longer today
LONGER = {
    "builder/games/kensei/catalog.py:cross_check": 197,
    "builder/games/kensei/roster.py:draw_unit_card": 160,  # its words in the language printed
    "builder/games/kensei/rules.py:load_list": 161,
    "builder/games/satsuma/sim.py:play_game": 274,
    "builder/games/senji/rules.py:check": 238,
    "builder/render/bookpdf.py:render_book": 206,  # its words in the language printed, the players named
    "builder/render/cards/sheet.py:render_cards": 135,  # its words in the language printed
    "builder/share/canonical.py:_value": 126,
}


@functools.cache  # read by each test below: the sources parsed once a run
def lengths() -> dict[str, int]:
    """Every function (nested ones too) of ``builder/`` over ``MAX_LINES``, by path:name (not to
    be changed by its callers)."""
    out: dict[str, int] = {}
    for path in sorted((ROOT / "builder").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = (node.end_lineno or node.lineno) - node.body[0].lineno + 1
                if n > MAX_LINES:
                    out[f"{rel}:{node.name}"] = max(n, out.get(f"{rel}:{node.name}", 0))
    return out


def test_no_function_grows_past_the_limit():
    found = lengths()
    new = {k: v for k, v in found.items() if k not in LONGER}
    assert new == {}, f"functions over {MAX_LINES} lines: split them ({new})"
    grown = {k: (LONGER[k], v) for k, v in found.items() if k in LONGER and v > LONGER[k]}
    assert grown == {}, f"longer than their recorded length (recorded, now): {grown}"


def test_the_faces_have_no_long_function():
    assert [k for k in lengths() if k.startswith(FACES)] == []
    assert [k for k in LONGER if k.startswith(FACES)] == []


def test_the_list_of_longer_functions_is_current():
    """A function that was split (or shortened under the limit) leaves ``LONGER``."""
    found = lengths()
    assert [k for k in LONGER if k not in found] == []
