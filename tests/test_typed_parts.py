"""The game contracts are typed: the part Protocols name few ``Any``, a part named by its module
carries the class it makes as its type, and each game's class names the list and catalog its
rules really give (the type checker holds the game's parts to the contracts with them)."""

import ast
import inspect
import re
import typing
from pathlib import Path

import pytest

import builder.systems.parts as parts
from builder.check import load_checked
from builder.systems import get, ids
from builder.systems.parts import part

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# ``Any`` written in the contracts of ``builder/systems/parts.py`` (its Protocols, TypedDicts and
# type aliases; the ``part`` descriptor itself is left out). It may go down, never up: a seam a
# game implements is typed, or it says why it cannot be.
ANY_MAX = 8


def _any_in_contracts() -> list[str]:
    tree = ast.parse(Path(parts.__file__).read_text(encoding="utf-8"))
    found = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "part":
            continue
        if isinstance(node, ast.FunctionDef | ast.If | ast.ImportFrom | ast.Import):
            continue  # the descriptor's loader, the imports of names for the type checker
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id == "Any":
                where = node.name if isinstance(node, ast.ClassDef) else ast.unparse(node).split("=")[0].strip()
                found.append(f"{where} (line {sub.lineno})")
    return found


def test_the_part_contracts_name_at_most_the_recorded_number_of_any():
    found = _any_in_contracts()
    assert len(found) <= ANY_MAX, f"{len(found)} Any in the part contracts (at most {ANY_MAX}): {found}"


def test_the_any_count_sees_an_any_written_in_a_protocol():
    # the count is of the module's text: one more Any in a Protocol is one more counted
    tree = ast.parse("class P(Protocol):\n    def f(self, x: Any) -> dict[str, Any]: ...\n")
    assert sum(isinstance(n, ast.Name) and n.id == "Any" for n in ast.walk(tree)) == 2
    assert _any_in_contracts(), "the contracts hold a few Any still (the rows shown to a person)"


def _declared(cls: type) -> list[tuple[str, part, object]]:
    """(attribute, part, its annotation as written) of every part in force on ``cls``: declared
    along its classes, the most derived declaration of each (a game overrides a shared part)."""
    found: dict[str, tuple[str, part, object]] = {}
    for klass in reversed(cls.__mro__):
        notes = inspect.get_annotations(klass)  # as written: strings, with the postponed annotations
        for attr, value in klass.__dict__.items():
            if isinstance(value, part):
                found[attr] = (attr, value, notes.get(attr))
    return list(found.values())


@pytest.mark.parametrize("system", ids())
def test_a_part_named_by_its_module_is_typed_as_the_class_it_names(system):
    gs = get(system)
    named = [(a, p, note) for a, p, note in _declared(type(gs)) if p.target is not None]
    if type(gs).__module__.startswith("builder.games."):
        assert named, "the built-in games name their heavy parts by module (a check imports none of them)"
    for attr, p, note in named:
        klass = p.target.rpartition(":")[2]
        assert note == f"part[{klass}]", (
            f"{type(gs).__name__}.{attr} = part({p.target!r}) is annotated {note!r}: "
            f"write '{attr}: part[{klass}] = part({p.target!r})' with {klass} imported under TYPE_CHECKING"
        )
        made = getattr(gs, attr)
        assert type(made).__name__ == klass


def _example(system: str) -> Path:
    return sorted(EXAMPLES.glob(f"{system}-*.yaml"))[0]


@pytest.mark.parametrize("system", ids())
def test_a_game_names_the_list_and_catalog_its_rules_give(system):
    gs = get(system)
    declared = [b for b in type(gs).__orig_bases__ if typing.get_origin(b) is not None]
    assert declared, f"{type(gs).__name__} names no list and catalog type on its class"
    list_name, catalog_name = (
        a.__forward_arg__ if isinstance(a, typing.ForwardRef) else a.__name__ for a in typing.get_args(declared[0])
    )
    _doc, catalog, lst, _result = load_checked(_example(system))
    assert type(lst).__name__ == list_name
    assert type(catalog).__name__ == catalog_name


def test_the_typed_declaration_keeps_the_part_unloaded_until_asked():
    # naming the class for the type checker imports nothing: the module named is loaded only
    # when the part is made (the check path imports no view, printing or text form)
    source = (ROOT / "builder" / "games" / "kensei" / "system.py").read_text(encoding="utf-8")
    checked_only = re.search(r"^if TYPE_CHECKING:\n((?:    .*\n|\n)+)", source, re.M)
    assert checked_only and "from builder.games.kensei.view import" in checked_only.group(1)
    assert "\nfrom builder.games.kensei.view import" not in source
