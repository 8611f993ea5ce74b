"""Every command block of the README runs as written, in order, from a fresh folder.

Each ``sh`` and ``python`` block of README.md is accounted for here: run by this file, run by the
test named beside it (which reads the same block from the README), or left out for a reason
stated beside it. A block added to the README without a place here fails
``test_every_block_is_accounted_for``, so no block can go untried.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from eventservers import free_port
from forkcli import forked_daimyo

from conftest import ROOT

#: the README section (its ``## `` or ``### `` heading) of each command block -> how it is tried
RUN_HERE = "run here"
BLOCKS = {
    "Quick start": "run by .ci/run on a new clone (install, demo, the suite); tests/test_packaging.py installs the wheel",
    "Building in the browser: `daimyo serve`": RUN_HERE,
    "A tour of the commands": "tests/test_readme_tour.py",
    "Running an event: `daimyo event`": "tests/test_event_tour.py",
    "Using daimyo from Python": "tests/test_library_api.py",
    "Packs: your own cards, troops and boards": RUN_HERE,
    "Measurements": "not run: each benchmark takes minutes (benchmarks/, run on demand)",
}


def readme_blocks() -> list[tuple[str, str, str]]:
    """(section heading, language, body) of each fenced block of the README, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    out = []
    heading = ""
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"#{2,3} (.+)", line)
        if m:
            heading = m.group(1).strip()
        fence = re.match(r"```(\w*)\s*$", line)
        if fence:
            body = []
            i += 1
            while not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((heading, fence.group(1), "".join(body)))
        i += 1
    return out


def command_blocks() -> list[tuple[str, str, str]]:
    return [b for b in readme_blocks() if b[1] in ("sh", "python")]


def test_every_block_is_accounted_for():
    found = [heading for heading, _, _ in command_blocks()]
    assert len(found) >= 7, found
    unknown = [h for h in found if h not in BLOCKS]
    assert not unknown, f"README command blocks with no test and no reason in {__name__}: {unknown}"
    gone = [h for h in BLOCKS if h not in found]
    assert not gone, f"sections listed here that hold no command block any more: {gone}"
    for heading, how in BLOCKS.items():
        if how.startswith("tests/"):
            test_file = ROOT / how.split()[0]
            assert test_file.is_file(), how
            # the named test reads this section's block from the README
            assert heading in test_file.read_text(encoding="utf-8"), (heading, how)


def test_the_quick_start_says_how_to_put_daimyo_on_path():
    """The tour types ``daimyo``; the quick start says how that name comes onto PATH."""
    quick = (ROOT / "README.md").read_text(encoding="utf-8").split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "source .venv/bin/activate" in quick
    assert ".venv\\Scripts\\activate" in quick


def block(heading: str) -> str:
    bodies = [body for h, _, body in command_blocks() if h == heading]
    assert len(bodies) == 1, heading
    return bodies[0]


@pytest.fixture
def fresh(tmp_path):
    """A fresh folder, its own config and data folders, and ``daimyo`` on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        PYTHONPATH=str(ROOT),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        COLUMNS="100",
    )
    for name in ("DAIMYO_PACKS", "DAIMYO_REGISTRY", "DAIMYO_VIEWER"):
        env.pop(name, None)
    with forked_daimyo(bin_dir, env):
        yield work, env


def run_block(script: str, work: Path, env: dict) -> subprocess.CompletedProcess:
    """The block as one bash script, stopping at the first command that fails."""
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script], cwd=work, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow  # a process per command
def test_the_packs_block_runs_in_order_from_a_fresh_folder(fresh):
    work, env = fresh
    script = block("Packs: your own cards, troops and boards")
    r = run_block(script, work, env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    # what the comments promise
    assert "ok, senshiai pack 'My cards' version 1" in r.stdout
    assert "cards 3 added" in r.stdout
    assert "(wins)" in r.stdout
    deck = (work / "deck.yaml").read_text(encoding="utf-8")
    assert "River Ronin: 3" in deck, deck
    friend = (work / "friends-deck.yaml").read_text(encoding="utf-8")
    assert "River Ronin: 3" in friend
    check = subprocess.run(
        ["bash", "-c", "daimyo check friends-deck.yaml"], cwd=work, env=env, capture_output=True, text=True
    )
    assert "packs: My cards 1 (" in check.stdout, check.stdout


@pytest.mark.slow  # starts the web server
def test_the_serve_block_serves_the_examples(fresh):
    """``daimyo serve examples/`` (the project folder's examples, copied to a fresh folder) prints
    an address that opens the workspace page listing them."""
    work, env = fresh
    shutil.copytree(ROOT / "examples", work / "examples")
    lines = [ln for ln in block("Building in the browser: `daimyo serve`").splitlines() if ln.strip()]
    command = lines[0].split("#", 1)[0].strip()
    assert command.startswith(".venv/bin/daimyo serve examples/"), command
    command = command.replace(".venv/bin/daimyo", "daimyo") + f" --port {free_port()}"
    proc = subprocess.Popen(
        ["bash", "-c", "exec " + command],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        address = None
        seen = []
        assert proc.stdout is not None
        for line in proc.stdout:
            seen.append(line)
            m = re.search(r"open (http://127\.0\.0\.1:\d+/\?token=\S+)", line)
            if m:
                address = m.group(1)
                break
        assert address, "".join(seen)
        page, status = "", 0
        # the token is kept in a cookie, as a browser keeps it
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        for _ in range(600):  # the address is printed as the server starts to listen
            try:
                with browser.open(address, timeout=30) as resp:
                    page, status = resp.read().decode("utf-8"), resp.status
                break
            except urllib.error.HTTPError:
                raise
            except urllib.error.URLError:
                time.sleep(0.1)
        assert status == 200, "".join(seen)
        for name in ("kensei-buke.yaml", "senshiai-northern-host.yaml"):
            assert name in page
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
