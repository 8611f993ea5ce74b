"""What a single command costs at start-up: only the command it runs is built, and a check from
the catalog cache imports no pydantic (tests/test_list_models.py). Timing itself is measured in
benchmarks/bench_startup.py, never here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from builder.cli import app, app_for

from conftest import ROOT

FULL = "import sys; from builder.cli import app; app(prog_name='daimyo')"


def test_a_command_runs_with_only_its_own_command_built():
    one = app_for(["check", "army.yaml"])
    assert one is not app and [c.callback.__name__ for c in one.registered_commands] == ["check"]
    assert one.registered_groups == []
    group = app_for(["catalog", "list", "kensei"])
    assert [g.name for g in group.registered_groups] == ["catalog"] and group.registered_commands == []
    for args in ([], ["--help"], ["--version"], ["chek"]):
        assert app_for(args) is app  # help, root options and unknown names see every command
    assert len(app.registered_commands) > 10  # the app itself is untouched


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--help"],
        ["check"],
        ["catalog", "list", "kensei", "--where", "x"],
        ["rules", "kensei", "--bogus"],
        ["catalog"],
        ["chek"],
    ],
)
def test_the_one_command_app_says_what_the_whole_app_says(args, tmp_path):
    env = {"DAIMYO_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "COLUMNS": "100"}
    whole = subprocess.run([sys.executable, "-c", FULL, *args], capture_output=True, text=True, cwd=ROOT, env=env)
    daimyo = Path(sys.executable).parent / "daimyo"
    one = subprocess.run([str(daimyo), *args], capture_output=True, text=True, cwd=ROOT, env=env)
    assert (one.returncode, one.stdout, one.stderr) == (whole.returncode, whole.stdout, whole.stderr)
