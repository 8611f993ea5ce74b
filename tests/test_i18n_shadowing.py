"""The translation function ``_`` is never shadowed: a function of ``builder/`` that calls
``_("...")`` binds no local ``_`` of its own (``a, _ = pair``, ``for _ in ...``), which would make
every ``_()`` call in it a call of that value, or an error before it is bound."""

from __future__ import annotations

import ast
from pathlib import Path

from pysource import parsed

ROOT = Path(__file__).resolve().parent.parent
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _own_nodes(scope: ast.AST):
    """The nodes of ``scope``'s own body: nested functions and comprehensions have scopes of
    their own."""
    for child in ast.iter_child_nodes(scope):
        if isinstance(child, _SCOPES):
            continue
        yield child
        yield from _own_nodes(child)


def shadowed(source: str) -> list[str]:
    """``name:line`` of each function that binds ``_`` and calls ``_()`` in its own scope."""
    out = []
    for fn in ast.walk(parsed(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        own = list(_own_nodes(fn))
        binds = any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in own)
        binds |= any(isinstance(a, ast.arg) and a.arg == "_" for a in ast.walk(fn.args))
        calls = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_" for n in own)
        if binds and calls:
            out.append(f"{fn.name}:{fn.lineno}")
    return out


def test_no_function_shadows_the_translation_function():
    found = {
        path.relative_to(ROOT).as_posix(): names
        for path in sorted((ROOT / "builder").rglob("*.py"))
        if (names := shadowed(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"these functions bind `_` and call _() (name the value otherwise): {found}"


def test_the_scan_finds_a_shadowed_translation_function():
    assert shadowed("def f(p):\n    a, _ = p\n    return _('x')\n") == ["f:1"]
    assert shadowed("def f(n):\n    for _ in range(n):\n        pass\n    return _('x')\n") == ["f:1"]
    assert shadowed("def f(p):\n    return [_('x') for _ in p]\n") == []  # the comprehension's own _
    assert shadowed("def f(p):\n    a, _b = p\n    return _('x')\n") == []
