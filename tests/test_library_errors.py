"""Library errors are typed and never name command-line flags; the command line translates them.

The library names an option of the call that went wrong with ``builder.errors.option``: a
Python caller reads the parameter (``'force'``), ``daimyo`` the flag (``--force``), and a hint
that only a command-line user can follow is left out of the library's message.
"""

from __future__ import annotations

import ast
import re

import pytest
from pysource import parsed

from builder.errors import DaimyoError, UsageError, WouldOverwrite, command_line, option

from conftest import ROOT

FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]+")

# Text the library writes into documents for people who use the command line (a pack
# template's comments, a bundle's header, the print-test page's instructions, a report's
# key to its options); no error message is among them.
DOCUMENTS = {
    "builder/games/satsuma/simulate.py": [
        "Policies (--policy):",
        " (see --readings)",
        "(change one with --rule ID=VALUE;",
    ],
    "builder/demo.py": ["(pass --force to replace it, or give another folder with -o)"],
    "builder/packs/bundle.py": ["'daimyo export LIST --to bundle'", "('--install-packs' installs"],
    "builder/packs/template.py": [
        "daimyo check LIST --pack THIS-FILE",
        "name it without a path: --pack NAME",
        "daimyo pack export THIS-FILE --to csv",
        "lists and --pack may name it",
    ],
    "builder/render/cards/alignment.py": ["daimyo print LIST --offset X,Y", "(and --duplex ", "--scale-x 100/W"],
    "builder/kit/pdfbase.py": [" --to code"],
    "builder/share/api.py": ["'daimyo export LIST --to bundle'", "install it with --install-packs"],
    "builder/games/satsuma/edits.py": ["('daimyo add --variant' writes it out)"],
    # the web API's descriptions name the command that gives the same answer
    "builder/web/analytics_view.py": ["'daimyo stats LIST --format json'", "'daimyo hand LIST --seed N --format json'"],
    "builder/web/compare.py": ["'daimyo diff A B --format json'"],
}


def _strings(path):
    """Every string constant of a module but its docstrings and the hints it marks as for the
    command line only (``command_line(...)``): (line, text)."""
    tree = parsed(path.read_text(encoding="utf-8"))
    docs = set()
    strings = []
    for node in ast.walk(tree):  # one walk: a module's tree is large and there are many modules
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                strings.append(node)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "command_line":
            docs.update(id(n) for arg in node.args for n in ast.walk(arg))
        else:
            body = getattr(node, "body", None)
            if (
                isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
            ):
                docs.add(id(body[0].value))
    for node in strings:
        if id(node) not in docs:
            yield node.lineno, node.value


def test_library_code_names_no_command_line_flag():
    found = []
    for path in sorted((ROOT / "builder").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if (
            rel.startswith("builder/commands/")
            or rel == "builder/cli.py"
            or (rel.startswith("builder/games/") and path.name == "commands.py")
        ):  # a game's own commands
            continue
        allowed = DOCUMENTS.get(rel, [])
        for line, text in _strings(path):
            if FLAG.search(text) and not any(a in text for a in allowed):
                found.append(f"{rel}:{line}: {text[:80]!r}")
    assert found == [], "flags named outside the command line (use builder.errors.option):\n" + "\n".join(found)


def test_the_document_allowances_are_all_still_needed():
    for rel, texts in DOCUMENTS.items():
        strings = [t for _, t in _strings(ROOT / rel)]
        for a in texts:
            assert any(a in t for t in strings), (rel, a)


def test_an_option_reads_as_a_parameter_in_the_library_and_as_a_flag_on_the_command_line():
    exc = UsageError(
        f"{option('max_hero_points')} must be at least 1, not 0",
        command_line(f"e.g. daimyo new herocard {option('max_hero_points')} 30"),
    )
    assert exc.lines() == ["daimyo: error: 'max_hero_points' must be at least 1, not 0"]
    assert exc.lines(flags=True) == [
        "daimyo: error: --max-hero-points must be at least 1, not 0 (e.g. daimyo new herocard --max-hero-points 30)"
    ]
    assert "--" not in str(exc)


def test_an_output_that_exists_is_a_typed_error(tmp_path):
    from builder.yamlio import atomic_write

    out = tmp_path / "out.txt"
    out.write_text("mine")
    with pytest.raises(DaimyoError) as info:
        atomic_write(out, "new", force=False)
    assert out.read_text() == "mine"
    (line,) = info.value.lines()
    assert line.endswith("file exists; not overwritten (pass 'force' to replace it)") and "--" not in line
    assert info.value.lines(flags=True)[0].endswith("(pass --force to replace it)")
    w = WouldOverwrite(out)
    assert isinstance(w, UsageError) and w.path == out and w.exit_code == 2


def test_the_command_line_names_the_flag(cli, tmp_path):
    out = tmp_path / "army.yaml"
    out.write_text("mine")
    r = cli("new", "kensei", "--clan", "buke", "--points", "200", "-o", str(out))
    assert r.code == 2 and out.read_text() == "mine"
    assert r.stderr.strip().endswith("(pass --force to replace it)"), r.stderr
    r = cli("new", "kensei", "--points", "200", "-o", str(tmp_path / "b.yaml"))
    assert r.code == 2
    assert r.stderr.strip() == (
        "daimyo: error: clan is required for kensei lists (one of kuge, buke, sohei, otokodate, kuroi-te, hattori)"
    ), r.stderr


def test_the_library_leaves_out_a_command_line_hint():
    from builder.render.bookpdf import render_book

    with pytest.raises(UsageError) as info:
        render_book([], "book.pdf")
    assert info.value.lines() == ["daimyo: error: no lists given"]
