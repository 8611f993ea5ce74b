"""What a process keeps between calls: every cache is registered in ``builder.state`` with a name,
a bound and a lifetime, and ``clear_all()`` makes the process answer as a fresh one."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from pysource import parsed

from builder import state

ROOT = Path(__file__).resolve().parent.parent
BUILDER = ROOT / "builder"

#: module-level state that is not a cache, each with the reason it stays where it is ("path:name")
ALLOWED = {
    # uploads a person is choosing what to restore from: kept HELD_FOR seconds, not answers kept
    "builder/web/backup.py:held": "restores waiting for the person's choice, by random key",
    # registries filled as the code is imported (the code's own tables, not answers kept)
    "builder/commands/app.py:_LATE": "finders of a game's command groups, added at import",
    "builder/commands/app.py:_REGISTERED": "whether every command module is on the app",
    "builder/commands/games.py:_AT": "where the games' groups go among the app's groups",
    "builder/games/kensei/aid.py:BLOCKS": "the game's aid blocks, by name",
    "builder/games/satsuma/aid.py:BLOCKS": "the game's aid blocks, by name",
    "builder/games/senji/aid.py:BLOCKS": "the game's aid blocks, by name",
    "builder/games/senshiai/aid.py:BLOCKS": "the game's aid blocks, by name",
    "builder/render/aids.py:GENERATORS": "the aid blocks every game may use, by name",
    "builder/systems/__init__.py:_LOADED": "the games loaded or registered (register() adds one)",
    "builder/systems/__init__.py:global _FOUND": "the games' entry points, read once (refresh() reads them again)",
    "builder/cli_words.py:_HELP_TEXTS": "the command options' help texts with values, by their English",
    # the state of the one command running, reset by begin_command (it holds file locks)
    "builder/yamlio.py:_READ": "files the running command read",
    "builder/yamlio.py:_EDITING": "files the running command edits, with their locks",
    "builder/yamlio.py:global _TRACK": "whether the running command tracks its reads",
    # what a command reports once it ends
    "builder/packs/registry.py:STALE": "registries read from their last good copy, for the command's warning",
    # the fast YAML loader (builder/yamlload.py), imported on first use so that ruamel is imported
    # only when YAML is parsed
}
#: the most module-level mutable values and ``global`` statements outside ``builder/state.py`` that
#: are not in ALLOWED (a new cache registers with ``state.cache`` or ``state.memo`` instead)
UNREGISTERED_MAX = 0

_MUTABLE_CALLS = {"dict", "list", "set", "OrderedDict", "defaultdict", "deque", "Counter", "WeakKeyDictionary"}
_MUTABLE_CALLS |= {"WeakValueDictionary", "WeakSet"}
_FUNCTOOLS = {"cache", "lru_cache"}


def _call_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = node.value
        registry = (owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", None)) == "state"
        return None if registry else node.attr
    return None


def process_state() -> list[str]:
    """``path:name`` of each module-level mutable value (an empty dict, list or set, or a call making
    one), each ``functools`` cache and each ``global`` statement in builder/, outside the registry."""
    found = []
    for path in sorted(BUILDER.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel == "builder/state.py":
            continue
        tree = parsed(path.read_text(encoding="utf-8"))
        for node in tree.body:
            target, value = None, None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign):
                target, value = node.target, node.value
            if not isinstance(target, ast.Name) or value is None:
                continue
            empty = isinstance(value, (ast.Dict, ast.List, ast.Set)) and not (
                getattr(value, "keys", None) or getattr(value, "elts", None)
            )
            made = isinstance(value, ast.Call) and not value.args and _call_name(value) in _MUTABLE_CALLS
            wrapped = isinstance(value, ast.Call) and _call_name(value.func) in _FUNCTOOLS
            if empty or made or wrapped:
                found.append(f"{rel}:{target.id}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                found.append(f"{rel}:global {','.join(node.names)}")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [f"{rel}:{node.name}" for d in node.decorator_list if _call_name(d) in _FUNCTOOLS]
    return found


def test_every_cache_of_the_process_is_registered_with_a_bound_and_a_lifetime():
    found = process_state()
    unregistered = [f for f in found if f not in ALLOWED]
    assert len(unregistered) <= UNREGISTERED_MAX, (
        "register these with builder.state (state.cache or state.memo), or say in ALLOWED why they are not caches: "
        + ", ".join(unregistered)
    )
    stale = sorted(set(ALLOWED) - set(found))
    assert stale == [], f"ALLOWED names state that is gone: {stale}"


def _registering_modules() -> list[str]:
    out = []
    for path in sorted(BUILDER.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "state.cache(" in text or "state.memo(" in text or "state.register(" in text:
            if path.name != "state.py":
                out.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return out


def test_the_registry_knows_each_cache_by_name_bound_and_lifetime():
    for module in _registering_modules():
        importlib.import_module(module)
    entries = state.entries()
    names = [e.name for e in entries]
    assert len(names) >= 30 and len(set(names)) == len(names)
    for e in entries:
        assert e.lifetime in state.LIFETIMES, e
        assert e.bound is None or e.bound >= 1, e
        assert e.doc and e.size() >= 0, e
    # a cache keyed by something finite by construction says so; the others are bounded
    unbounded = sorted(e.name for e in entries if e.bound is None)
    assert unbounded == [
        "catalog.folder_files",
        "catalog.model_attributes",
        "catalog.model_classes",
        "commands.alone",
        "fonts.charmaps",
        "rulebooks.patterns",
        "systems.list_models",
        "web.routes",
        "web.words",
    ]


def test_a_cache_with_an_unknown_lifetime_or_no_room_is_refused():
    with pytest.raises(ValueError, match="lifetime 'forever' is not one of"):
        state.cache("test.forever", bound=1, lifetime="forever", doc="x")
    with pytest.raises(ValueError, match="bound 0 is not a positive number"):
        state.cache("test.empty", bound=0, lifetime=state.VALUE, doc="x")
    with pytest.raises(ValueError, match="registered twice"):
        state.cache("names.normalize", bound=1, lifetime=state.VALUE, doc="another")


def test_clear_all_empties_every_cache_and_the_next_check_says_the_same(cli, fresh_state):
    example = ROOT / "examples" / "kensei-buke.yaml"
    first = cli("check", str(example), "--format", "json")
    filled = {name for name, n in state.stats().items() if n}
    assert {"catalog.loaded", "names.normalize", "rules.rulesets"} <= filled
    assert [e for e in state.entries() if e.bound is not None and e.size() > e.bound] == []
    state.clear_all()
    assert set(state.stats().values()) == {0}
    again = cli("check", str(example), "--format", "json")
    assert (again.code, again.stdout) == (first.code, first.stdout)
