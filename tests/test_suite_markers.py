"""The quick loop and the whole suite: ``pytest -m 'not slow'`` leaves the slow tests out, the
README's test command (the one CI runs) leaves none out, and every test module but the few that
are slow as a whole keeps a test in the quick loop."""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

from conftest import pytest_xdist_auto_num_workers

ROOT = Path(__file__).resolve().parent.parent

#: the modules slow as a whole: each starts processes, installs a wheel, drives the browser or
#: runs thousands of generated cases; their areas keep quick tests in other modules
SLOW_MODULES = {
    "test_collection_browser.py",
    "test_event_browser.py",
    "test_event_day_browser.py",
    "test_event_fuzz.py",
    "test_event_processes.py",
    "test_fuzz_cli.py",
    "test_packaging.py",
    "test_packs_fuzz.py",
    "test_standalone.py",
    "test_viewer_browser.py",
    "test_viewer_processes.py",
    "test_web_a11y.py",
    "test_web_browser.py",
    "test_web_browser_enter.py",
    "test_web_browser_i18n.py",
    "test_web_browser_new_options.py",
    "test_web_browser_player.py",
    "test_web_pack_art_browser.py",
    "test_web_pack_browser.py",
    "test_web_print_browser.py",
}

#: options that would leave tests out of a run
FILTERS = ("-m", "-k", "--deselect", "--ignore", "--ignore-glob", "--lf", "--last-failed", "-x", "--exitfirst")


def _left_out_by(args: list[str]) -> list[str]:
    return [a for a in args if a.split("=", 1)[0] in FILTERS or a.startswith(("-m", "-k")) or "slow" in a]


def test_the_readmes_test_command_and_the_pytest_options_run_the_slow_tests():
    spec = importlib.util.spec_from_file_location("bench_suite", ROOT / "benchmarks" / "bench_suite.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    args = bench.readme_test_command()  # the command CI runs (tests/test_readme_tour.py)
    assert args[:2] == ["-m", "pytest"], args
    assert _left_out_by(args[2:]) == [], args
    pytest_config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
    addopts = shlex.split(pytest_config["ini_options"]["addopts"])
    assert _left_out_by(addopts) == [], addopts
    assert any(m.startswith("slow:") for m in pytest_config["ini_options"]["markers"])


def test_the_check_of_the_options_finds_a_filter():
    assert _left_out_by(["-n", "auto", "-m", "not slow"]) == ["-m", "not slow"]
    assert _left_out_by(["-q", "-p", "no:anyio"]) == []
    assert _left_out_by(["-knot slow", "--deselect=tests/test_x.py"]) == ["-knot slow", "--deselect=tests/test_x.py"]


def test_every_module_keeps_a_test_in_the_quick_loop(request):
    """Of the tests collected in this run (all of them in the README's command), every module
    has one that is not slow, but the modules slow as a whole, which have none."""
    quick: dict[str, list[bool]] = {}
    for item in request.session.items:
        quick.setdefault(item.path.name, []).append(item.get_closest_marker("slow") is None)
    none_quick = {name for name, marks in quick.items() if not any(marks)}
    assert none_quick <= SLOW_MODULES, f"no test of these modules runs in the quick loop: {none_quick - SLOW_MODULES}"
    some_quick = {name for name in SLOW_MODULES & quick.keys() if any(quick[name])}
    assert not some_quick, f"listed as slow as a whole, but with quick tests: {some_quick}"


def test_the_tests_run_without_xdist_and_auto_is_a_worker_more_than_the_cores(pytestconfig):
    """``-p no:xdist`` (one process, as CONTRIBUTING's CPU measurements run) still loads the
    conftest, whose xdist hook is optional; ``-n auto`` asks it for one worker more than the cores."""
    one = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:xdist",
            "-p",
            "no:cacheprovider",
            "--collect-only",
            "-q",
            "tests/test_yamlio.py",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert one.returncode == 0, one.stdout[-2000:] + one.stderr[-2000:]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    assert pytest_xdist_auto_num_workers(pytestconfig) == cores + 1
