"""An underscore name stays inside its module: what modules share has a public name.

The scan reads every module of ``builder/`` and refuses:
- importing another module's underscore name (``from builder.x import _y``, relative imports
  included; a package's ``__init__`` re-exports only public names too);
- reaching one through an imported module or class (``import builder.x as m; m._y``,
  ``builder.x._y``, ``SomeClass._y``);
- reaching an underscore attribute of an object that the module does not define itself
  (``session._undo = ...`` outside the session's module). ``self``, ``cls`` and ``super()`` are
  the object's own; a class may override and call its base's underscore hooks.

Tests may still look inside a module; ``builder/`` may not.
"""

from __future__ import annotations

import ast
from pathlib import Path

from pysource import parsed

PKG = Path(__file__).resolve().parent.parent / "builder"

# Modules whose purpose is reaching a library's internals: the reportlab adapter.
FOREIGN_INTERNALS = {"kit/rladapter.py"}


def _private(name: str) -> bool:
    # ``_`` alone is gettext's name for "translate this" (builder.i18n._), public by convention
    return name.startswith("_") and name != "_" and not (name.startswith("__") and name.endswith("__"))


def module_name(path: Path, pkg: Path = PKG) -> str:
    parts = list(path.relative_to(pkg.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_from(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute name of the module ``node`` imports from."""
    if not node.level:
        return node.module or ""
    here = module.split(".") if is_package else module.split(".")[:-1]
    here = here[: len(here) - (node.level - 1)]
    return ".".join(here + ([node.module] if node.module else []))


def _own_private_attributes(tree: ast.Module) -> set[str]:
    """The underscore attributes the module defines: its functions and methods, what its
    classes declare in their body or ``__slots__``, and what it sets on ``self`` or ``cls``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.Assign):
                    targets = stmt.targets
                elif isinstance(stmt, ast.AnnAssign):
                    targets = [stmt.target]
                else:
                    continue
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            out.add(name.id)
                    if isinstance(target, ast.Name) and target.id == "__slots__" and stmt.value is not None:
                        out.update(
                            c.value
                            for c in ast.walk(stmt.value)
                            if isinstance(c, ast.Constant) and isinstance(c.value, str)
                        )
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for attr in ast.walk(target):
                    if (
                        isinstance(attr, ast.Attribute)
                        and isinstance(attr.value, ast.Name)
                        and attr.value.id in ("self", "cls")
                    ):
                        out.add(attr.attr)
    return {name for name in out if _private(name)}


def private_reaches(source: str, module: str, is_package: bool = False) -> list[str]:
    """Each place where ``source`` (the module ``module``) uses another module's underscore name."""
    tree = parsed(source)
    bound: dict[str, str] = {}  # a local name -> the builder module or object it stands for
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _imported_from(node, module, is_package)
            if base != "builder" and not base.startswith("builder."):
                continue
            for alias in node.names:
                if _private(alias.name):
                    out.append(f"line {node.lineno}: from {base} import {alias.name}")
                else:
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "builder" or alias.name.startswith("builder."):
                    local = alias.asname or alias.name.split(".")[0]
                    bound[local] = alias.name if alias.asname else local
    own = _own_private_attributes(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        root: ast.expr = node.value
        chain: list[str] = []
        while isinstance(root, ast.Attribute):
            chain.append(root.attr)
            root = root.value
        if isinstance(root, ast.Name) and root.id in bound:
            where = ".".join([bound[root.id], *reversed(chain)])
            out.append(f"line {node.lineno}: {where}.{node.attr}")
        elif (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")) or (
            isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) == "super"
        ):
            continue
        elif node.attr not in own:
            out.append(f"line {node.lineno}: {ast.unparse(node)} (an underscore attribute another module defines)")
    return out


def violations(pkg: Path = PKG) -> list[str]:
    out = []
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(pkg).as_posix()
        if rel in FOREIGN_INTERNALS:
            continue
        found = private_reaches(path.read_text(encoding="utf-8"), module_name(path, pkg), path.name == "__init__.py")
        out += [f"builder/{rel}: {hit}" for hit in found]
    return out


def test_no_module_uses_another_modules_underscore_names():
    found = violations()
    assert not found, (
        "underscore names used across modules (give the shared name a public one where it is "
        "defined):\n" + "\n".join(found)
    )


def test_the_scan_finds_each_way_of_reaching_a_private_name():
    def hits(source: str, module: str = "builder.share.text", is_package: bool = False) -> int:
        return len(private_reaches(source, module, is_package))

    # imported by name: absolute, relative, and re-exported by a package's __init__
    assert hits("from builder.kit.textform import q, _mask") == 1
    assert hits("from ..kit.textform import _mask") == 1
    assert hits("from .edit import _rt", "builder.kit", is_package=True) == 1
    # reached through the module or a class of it
    assert hits("import builder.kit.textform as tf\ntf._mask('x')") == 1
    assert hits("from builder.kit import textform\ntextform._mask('x')") == 1
    assert hits("import builder.kit.textform\nbuilder.kit.textform._mask('x')") == 1
    assert hits("from builder.lists.editor import ListEditor\nListEditor._read") == 1
    # another module's object's state
    assert hits("def step(s, old):\n    s._undo, s._redo = old._undo, old._redo\n") == 4
    # another library's internals too (the reportlab adapter is the one module allowed them)
    assert hits("import json\njson._default_decoder") == 1
    # none of these: public names, the module's own state, a base class's hooks
    own = (
        "class A:\n    _kept: int = 0\n    __slots__ = ('_model',)\n"
        "    def __init__(self):\n        self._x = 1\n"
        "    def _hook(self):\n        return super()._hook()\n"
        "def f(a, b):\n    return a._x, a._kept, b._model, a._hook()\n"
    )
    assert hits(own) == 0
    assert hits("from builder.kit.textform import q, mask\nfrom builder import errors\nerrors.DaimyoError") == 0


def test_the_scan_reads_every_module_it_is_given(tmp_path):
    pkg = tmp_path / "builder"
    (pkg / "web").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "web" / "__init__.py").write_text("from builder.web.common import _describe\n")
    (pkg / "web" / "common.py").write_text("def _describe():\n    return 1\n")
    assert violations(pkg) == ["builder/web/__init__.py: line 1: from builder.web.common import _describe"]
