"""The project stands alone: its tests need nothing outside the repository.

Tests that compare the catalog with the rulebook texts find them through
``DAIMYO_RULEBOOKS`` (or ``../shared/seeds``) and are skipped with a reason otherwise.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow  # runs pytest again in a child process

RULEBOOK_TESTS = [
    "tests/test_catalog_kensei.py::test_exactly_123_abilities_with_text_and_appendix_source",
    "tests/test_satsuma.py::test_both_decks_exactly_as_printed",
    "tests/test_render_documents.py::test_aid_templates_cite_existing_seed_lines",
]


def test_rulebook_tests_skip_with_a_reason_when_the_texts_are_absent(tmp_path):
    env = dict(os.environ, DAIMYO_RULEBOOKS=str(tmp_path / "nowhere"), DAIMYO_CACHE_DIR=str(tmp_path / "c"))
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", *RULEBOOK_TESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert r.stdout.count("SKIPPED [1]") == len(RULEBOOK_TESTS), r.stdout[-2000:]
    assert "rulebook texts not available: set DAIMYO_RULEBOOKS" in r.stdout


def test_no_test_reads_files_outside_the_repository():
    """Only conftest knows where the rulebooks may be; every other test asks it."""
    outside = re.compile(r"""(\.\./shared|ROOT\.parent\b|parent\.parent\.parent|["']shared["']\s*/)""")
    offenders = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path.name in ("conftest.py", "test_standalone.py"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if outside.search(line):
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_ci_gives_the_rulebooks_and_also_runs_a_clone_with_nothing_beside_it():
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "DAIMYO_RULEBOOKS" in run and "../shared/seeds" in run
    assert "git clone" in run and "-u DAIMYO_RULEBOOKS" in run
