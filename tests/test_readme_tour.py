"""The command tour (docs/tour.md) runs as written: every command, in order, in an empty folder."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
from forkcli import forked_daimyo

from conftest import ROOT


def tour_commands() -> list[tuple[str, int]]:
    """(command, expected exit code) of the command tour; ``# ... exit N`` in a command's
    comment gives its code, 0 otherwise."""
    page = (ROOT / "docs" / "tour.md").read_text(encoding="utf-8")
    section = page.split("# A tour of the commands", 1)[1]
    return commands_of(re.search(r"```sh\n(.*?)```", section, re.S).group(1))


def commands_of(block: str) -> list[tuple[str, int]]:
    """(command, expected exit code) of each command of a block: ``# ... exit N`` in a command's
    comment gives its code, 0 otherwise; comment lines are left out."""
    out = []
    for line in block.replace("\\\n", " ").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        comment = line.split(" # ", 1)[1] if " # " in line else ""
        m = re.search(r"\bexit (\d)", comment)
        out.append((line, int(m.group(1)) if m else 0))
    return out


def test_the_tour_is_long_and_covers_every_system():
    cmds = " ".join(c for c, _ in tour_commands())
    assert len(tour_commands()) >= 30
    for word in (
        "new kensei",
        "new senshiai",
        "new herocard",
        "new senji",
        "new satsuma",
        "print ",
        "aid ",
        "export ",
        "import ",
        "show ",
        "why ",
        "catalog list",
        "rules ",
    ):
        assert word in cmds, word


@pytest.mark.slow  # a process for every command of the tour
def test_every_tour_command_runs_as_written(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        PYTHONPATH=str(ROOT),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        COLUMNS="100",
    )
    env.pop("DAIMYO_PACKS", None)
    failures = []
    # `daimyo` on PATH: a process for every command, forked from one that has imported daimyo
    with forked_daimyo(bin_dir, env):
        for cmd, want in tour_commands():
            r = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=120)
            if r.returncode != want:
                failures.append(f"{cmd}\n  exit {r.returncode}, expected {want}\n  {(r.stdout + r.stderr)[-800:]}")
            elif "Traceback" in r.stderr or "internal error" in r.stderr:
                failures.append(f"{cmd}\n  {r.stderr[-800:]}")
    assert not failures, "\n".join(failures)
    assert (work / "roster.pdf").read_bytes().startswith(b"%PDF")
    assert (work / "deck.pdf").read_bytes().startswith(b"%PDF")
    assert (work / "copy.yaml").is_file()


def analytics_examples() -> list[tuple[list[str], list[str]]]:
    """(command arguments, output lines shown) of each ``$ daimyo ...`` example of the analytics
    page (docs/stats.md); '...' stands for lines left out."""
    import shlex

    page = (ROOT / "docs" / "stats.md").read_text(encoding="utf-8")
    section = page.split("# Deck analytics and Satsuma simulation", 1)[1].split("\n## ", 1)[0]
    out = []
    for block in re.findall(r"```\n(\$ daimyo .*?)```", section, re.S):
        lines = block.replace("\\\n", " ").splitlines()
        out.append((shlex.split(lines[0][2:])[1:], lines[1:]))
    return out


@pytest.mark.slow  # the README's simulation, at its full size
def test_readme_analytics_examples_are_what_the_commands_print(cli, monkeypatch):
    """The stats example and the simulation result of docs/stats.md are what the commands print now:
    every line shown, in order ('...' skips lines)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "100")
    examples = analytics_examples()
    assert [args[0] for args, _ in examples] == ["stats", "satsuma"]
    for args, shown in examples:
        r = cli(*args)
        assert r.code == 0, r
        printed = r.stdout.splitlines()
        at = 0
        for line in shown:
            if line.strip() == "...":
                continue
            assert line in printed[at:], (
                f"daimyo {' '.join(args)}: docs/stats.md line not printed (in this order): {line!r}"
            )
            at = printed.index(line, at) + 1


def test_ci_and_the_suite_benchmark_run_the_readmes_test_command():
    """The quick start's test command is the one ``.ci/run`` runs after the gates, and the one
    ``benchmarks/bench_suite.py`` times: a change to one is a change to all three."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_suite", ROOT / "benchmarks" / "bench_suite.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    args = bench.readme_test_command()
    assert args[:2] == ["-m", "pytest"] and "-n" in args, args
    quick_start = (ROOT / "README.md").read_text(encoding="utf-8").split("## ", 2)[1]
    assert ".venv/bin/python " + " ".join(args) in quick_start
    ci = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    runs = [ln.split("#", 1)[0].strip() for ln in ci if ln.startswith(".venv/bin/python -m pytest")]
    assert runs == [".venv/bin/python " + " ".join(args)], runs
