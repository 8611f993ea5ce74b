"""No class in ``builder/`` is built inside a function: a class is defined once, at the top level
of its module (or inside another class), where a reader finds it and a test can import it. What
a class would close over is handed to its constructor; a class whose base lives behind a heavy
library (reportlab, pydantic, the network stack) sits in a module that imports that library at
its top, and the module is imported when it is first needed.

``ALLOWED`` names a class that must be made inside a function, with the reason (none today)."""

from __future__ import annotations

import ast
from pathlib import Path

from pysource import parsed

ROOT = Path(__file__).resolve().parent.parent

#: "path:function:class" -> why the class is made inside that function
ALLOWED: dict[str, str] = {}

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def local_classes(tree: ast.AST) -> list[str]:
    """``function:class`` of each class built inside a function of a module's syntax tree (at any
    depth, methods and nested functions too): a ``class`` statement, or ``type(name, bases, ns)``."""
    found: list[str] = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if function is not None and isinstance(child, ast.ClassDef):
                found.append(f"{function}:{child.name}")
            elif (
                function is not None
                and isinstance(child, ast.Call)
                and isinstance(child.func, ast.Name)
                and child.func.id == "type"
                and len(child.args) == 3
            ):
                found.append(f"{function}:type()")
            inner = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = child.name
            elif isinstance(child, ast.Lambda):
                inner = "<lambda>"
            visit(child, inner)

    visit(tree, None)
    return found


def builder_local_classes() -> list[str]:
    out = []
    for path in sorted((ROOT / "builder").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        out += [f"{rel}:{name}" for name in local_classes(parsed(path.read_text(encoding="utf-8")))]
    return out


def test_no_class_is_built_inside_a_function():
    new = [k for k in builder_local_classes() if k not in ALLOWED]
    assert new == [], (
        f"classes built inside functions: {new}; define each at the top of its module and pass what it "
        "used of the function to its constructor"
    )


def test_every_allowed_local_class_is_still_there_and_says_why():
    found = builder_local_classes()
    assert [k for k in ALLOWED if k not in found] == []
    assert all(why.strip() for why in ALLOWED.values())


def test_the_scan_finds_a_class_built_in_a_function():
    tree = ast.parse(
        "class Top:\n"
        "    class Inner:\n        pass\n"
        "    def method(self):\n        class InMethod:\n            pass\n"
        "def factory(code):\n"
        "    class QR(object):\n"
        "        def draw(self):\n            return code\n"
        "    return QR()\n"
        "def outer():\n    def inner():\n        class Deep:\n            pass\n"
        "async def serve():\n    class Handler:\n        pass\n"
        "def dynamic():\n    return type('Made', (object,), {})\n"
        "if True:\n    class AtTop:\n        pass\n"
        "make = lambda: type('L', (), {})\n"
    )
    assert local_classes(tree) == [
        "method:InMethod",
        "factory:QR",
        "inner:Deep",
        "serve:Handler",
        "dynamic:type()",
        "<lambda>:type()",
    ]


def test_a_class_built_in_a_function_of_builder_fails_the_rule(tmp_path, monkeypatch):
    """The rule itself fails on a module of ``builder/`` holding a class made by a factory."""
    (tmp_path / "builder").mkdir()
    (tmp_path / "builder" / "book.py").write_text(
        "from reportlab.platypus import Flowable\n\n\n"
        "def marker(sink):\n"
        "    class Marker(Flowable):\n"
        "        def draw(self):\n"
        "            sink.append(self.canv.getPageNumber())\n\n"
        "    return Marker()\n",
        encoding="utf-8",
    )
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert builder_local_classes() == ["builder/book.py:marker:Marker"]
    try:
        test_no_class_is_built_inside_a_function()
    except AssertionError as exc:
        assert "builder/book.py:marker:Marker" in str(exc)
    else:  # pragma: no cover - the rule missed it
        raise AssertionError("a class built inside a function passed the rule")
