"""Shell completion: `daimyo --install-completion` and `--show-completion` (the command line
library's own), completing command names and options; it imports nothing heavy at start-up."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

DAIMYO = str(Path(sys.executable).parent / "daimyo")  # the installed command: completion is keyed by its name


def daimyo(*args, env=None):
    environ = {**os.environ, **(env or {})}
    return subprocess.run([DAIMYO, *args], capture_output=True, text=True, env=environ)


def from_bash(*args, env=None):
    """``daimyo ARGS`` typed in bash: the completion options find the shell among the command's
    parents, as they do in a terminal, whatever shell (or none) runs the tests. The status is
    kept in a variable so that bash does not replace itself with the command."""
    environ = {**os.environ, **(env or {})}
    script = '"$0" "$@"; status=$?; exit $status'
    return subprocess.run(["bash", "-c", script, DAIMYO, *args], capture_output=True, text=True, env=environ)


@pytest.mark.slow  # fresh interpreters of daimyo
def test_show_completion_prints_a_script_for_the_shell():
    r = from_bash("--show-completion")
    assert r.returncode == 0, r.stderr
    assert (
        "_DAIMYO_COMPLETE=complete_bash" in r.stdout and "complete -o default -F _daimyo_completion daimyo" in r.stdout
    )


@pytest.mark.slow  # fresh interpreters of daimyo
def test_install_completion_writes_the_script_and_sources_it(tmp_path):
    r = from_bash("--install-completion", env={"HOME": str(tmp_path), "SHELL": "/bin/bash"})
    assert r.returncode == 0, r.stderr
    script = tmp_path / ".bash_completions" / "daimyo.sh"
    assert script.is_file() and "_daimyo_completion" in script.read_text(encoding="utf-8")
    assert f"source '{script}'" in (tmp_path / ".bashrc").read_text(encoding="utf-8")


@pytest.mark.slow  # fresh interpreters of daimyo
def test_completion_completes_commands_and_options():
    r = daimyo(env={"_DAIMYO_COMPLETE": "complete_bash", "COMP_WORDS": "daimyo ch", "COMP_CWORD": "1"})
    assert r.stdout.split() == ["check"]
    r = daimyo(env={"_DAIMYO_COMPLETE": "complete_bash", "COMP_WORDS": "daimyo check --no", "COMP_CWORD": "2"})
    assert r.stdout.split() == ["--no-color"]
    r = daimyo(env={"_DAIMYO_COMPLETE": "complete_bash", "COMP_WORDS": "daimyo pri", "COMP_CWORD": "1"})
    assert r.stdout.split() == ["print", "print-test", "printer"]


@pytest.mark.slow  # fresh interpreters of daimyo
def test_help_names_the_completion_options():
    r = daimyo("--help")
    assert "--install-completion" in r.stdout and "--show-completion" in r.stdout


def test_completion_loads_nothing_heavy():
    code = (
        "import sys, builder.commands.app; heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('rich', 'reportlab', 'PIL', 'ruamel', 'pydantic')]; print(','.join(sorted(heavy)))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and "rich" not in r.stdout.split(",")
