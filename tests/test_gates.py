"""What keeps the suite and the command line in shape: one place turns a library error into the
command line's lines and exit code, and Hypothesis runs the same cases on every run."""

from __future__ import annotations

import re

from hypothesis import settings

from conftest import FUZZ, ROOT, examples


def test_one_place_translates_library_errors_for_the_command_line():
    """A command lets a DaimyoError go: the top-level group prints it and exits with its code.
    No command repeats that with its own ``except DaimyoError: fail(exc)``."""
    repeated = []
    for path in [ROOT / "builder" / "cli.py", *sorted((ROOT / "builder" / "commands").glob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"except DaimyoError as exc:\n(\s+)_?fail\(exc\)\n", text):
            line = text[: m.start()].count("\n") + 1
            repeated.append(f"{path.relative_to(ROOT)}:{line}")
    # the one place: DaimyoGroup._guard in builder/commands/app.py (``builder.cli.main`` prints one
    # escaping the quick route of ``daimyo check``, or the app, the same way)
    assert repeated == ["builder/commands/app.py:" + str(_guard_line())], repeated


def _guard_line() -> int:
    text = (ROOT / "builder" / "commands" / "app.py").read_text(encoding="utf-8")
    start = text.index("def _guard(")
    return text[: text.index("except DaimyoError as exc:", start)].count("\n") + 1


def test_a_library_error_in_a_command_is_one_located_line_and_its_exit_code(cli, tmp_path):
    bad = tmp_path / "army.yaml"
    bad.write_text("system: kensei\nclan: [\n", encoding="utf-8")
    r = cli("catalog", "list", "nosuchgame")
    assert r.code == 2 and r.stdout == "", r
    assert r.stderr.count("\n") == 1 and "nosuchgame" in r.stderr, r
    r = cli("stats", bad)
    assert r.code == 2 and r.stderr.count("\n") == 1, r  # the unclosed [ is found at the end of the file
    assert r.stderr.startswith(f"{bad}:3:1: error: YAML syntax"), r


def test_hypothesis_runs_the_same_cases_unless_fuzzing():
    profile = settings.default
    if FUZZ:
        assert not profile.derandomize and examples(10) == 10 * FUZZ
    else:
        assert profile.derandomize and profile.database is None and profile.deadline is None
        assert examples(10) == 10
