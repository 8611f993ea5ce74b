"""No function in ``builder/`` grows past ``MAX_LINES``: a route, a command or a step of the
library reads from top to bottom on one screen or two. A function's length is the lines of its
body, from its first statement (its docstring) to its last; its signature is not counted (a
command's signature is its options and their help, declared rather than run).

``LONGER`` lists the functions that are longer today, outside the faces (the web builder, the
event server and the command line have none): each may shrink, none may grow, and one that
is split leaves the list. None is longer today: a long function is split into named steps."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from pysource import parsed

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 120
FACES = ("builder/web/", "builder/event/web/", "builder/commands/", "builder/cli.py")

#: path:function -> its length now (the body's lines), for a function longer than MAX_LINES
LONGER: dict[str, int] = {}


def lengths(root: Path = ROOT) -> dict[str, int]:
    """Every function (nested ones too) of ``builder/`` over ``MAX_LINES``, by path:name (the
    project's own sources parsed once a run; a folder of a test's making each time it is asked)."""
    return dict(_project_lengths()) if root == ROOT else _scan(root)


@functools.cache  # read by each test below
def _project_lengths() -> dict[str, int]:
    return _scan(ROOT)


def _scan(root: Path) -> dict[str, int]:
    out: dict[str, int] = {}
    for path in sorted((root / "builder").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
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


def _module_with(body_lines: int) -> str:
    """A module whose function ``step`` (its signature on three lines) and method ``C.run`` each
    have a body of ``body_lines`` lines: a docstring and assignments."""
    body = ['    """A step."""'] + [f"    x{i} = {i}" for i in range(body_lines - 1)]
    method = ["    " + line for line in body]
    return "\n".join(["def step(", "    a,", "):", *body, "", "", "class C:", "    def run(self):", *method, ""])


def test_a_function_one_line_past_the_limit_fails(tmp_path):
    """A body of ``MAX_LINES`` lines passes; one line more fails, for a function and a method."""
    (tmp_path / "builder").mkdir()
    module = tmp_path / "builder" / "steps.py"
    module.write_text(_module_with(MAX_LINES), encoding="utf-8")
    assert lengths(tmp_path) == {}
    module.write_text(_module_with(MAX_LINES + 1), encoding="utf-8")
    found = lengths(tmp_path)
    assert found == {"builder/steps.py:step": MAX_LINES + 1, "builder/steps.py:run": MAX_LINES + 1}
    assert [k for k in found if k not in LONGER] == list(found)  # none is allowed: the rule fails


def test_a_nested_function_counts_on_its_own_and_in_the_function_around_it(tmp_path):
    (tmp_path / "builder").mkdir()
    inner = ["    def inner():"] + ["    " + line for line in _module_with(MAX_LINES + 1).splitlines()[3:]][
        : MAX_LINES + 1
    ]
    (tmp_path / "builder" / "nested.py").write_text("\n".join(["def outer():", *inner, "    return inner", ""]))
    assert lengths(tmp_path) == {"builder/nested.py:inner": MAX_LINES + 1, "builder/nested.py:outer": MAX_LINES + 3}
