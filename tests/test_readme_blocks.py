"""Every command block of the README and of the documentation pages (docs/) runs as written.

Each ``sh`` and ``python`` block of README.md and of every page under docs/ is accounted for here:
run by this file, run by the test named beside it (which reads the same block from its page), or
left out for a reason stated beside it. A block added to a page without a place here fails
``test_every_block_is_accounted_for``, so no block can go untried. The README's short examples are
lines of the documentation's tours (``test_the_readmes_examples_are_lines_of_the_tours``); those
that need no server also run here, in order, from a fresh folder.
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
from test_readme_tour import commands_of

from conftest import ROOT

#: "PAGE: heading" (the page's path from the project folder, the ``#``-``###`` heading above the
#: block) of each command block -> how it is tried
RUN_HERE = "run here"
EXCERPT = "run here, in order; each line stands in a tour of docs/ (checked here)"
FIRST_LIST = "run here: a game's first list, in a fresh folder"
BLOCKS = {
    "README.md: Quick start": "run by .ci/run on a new clone (install, demo, the suite); tests/test_packaging.py installs the wheel",
    "README.md: Building a list on the command line": EXCERPT,
    "README.md: Building in the browser: `daimyo serve`": RUN_HERE,
    "README.md: Your own cards: packs": EXCERPT,
    "README.md: Running an event": "each line stands in the organiser's guide's tour (checked here), which "
    "tests/test_event_tour.py runs with the server these lines start",
    "README.md: Using daimyo from Python": RUN_HERE,
    "docs/tour.md: A tour of the commands": "tests/test_readme_tour.py",
    "docs/organisers.md: Running an event: `daimyo event`": "tests/test_event_tour.py",
    "docs/event.md: The day: rounds, results and standings": "tests/test_event_day.py",
    "docs/library.md: Using daimyo from Python": "tests/test_library_api.py",
    "docs/packs.md: Packs: your own cards, troops and boards": RUN_HERE,
    "docs/collection.md: Building from your collection": RUN_HERE,
    "docs/packs.md: Art, publishing and registries in one path": RUN_HERE,
    "docs/games/herocard.md: HeroCard: Rise of the Shogun": FIRST_LIST,
    "docs/games/kensei.md: Kensei": FIRST_LIST,
    "docs/games/satsuma.md: Satsuma Rebellion": FIRST_LIST,
    "docs/games/senji.md: Senji": FIRST_LIST,
    "docs/games/senshiai.md: Senshiai": FIRST_LIST,
    "docs/fingerprint.md: Computing it by hand": "not run as written: LIST stands for a list, and the shell "
    "form needs jq; tests/test_fingerprint_faces.py follows the same steps in Python",
    "docs/measurements.md: Measurements": "not run: each benchmark takes minutes (benchmarks/, run on demand)",
    "docs/viewer.md: Links": "not run as written: army.yaml and the link stand for the reader's own; "
    "tests/test_share_link.py runs export --to link and import of the link, tests/test_viewer.py export --to html",
}


def pages() -> list[Path]:
    """README.md and every page of the documentation site."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def page_blocks(path: Path) -> list[tuple[str, str, str]]:
    """("PAGE: heading", language, body) of each fenced block of one page, in order."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(ROOT).as_posix()
    out = []
    heading = ""
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"#{1,3} (.+)", line)
        if m:
            heading = m.group(1).strip()
        fence = re.match(r"```(\w*)\s*$", line)
        if fence:
            body = []
            i += 1
            while not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            out.append((f"{name}: {heading}", fence.group(1), "".join(body)))
        i += 1
    return out


def command_blocks() -> list[tuple[str, str, str]]:
    return [b for path in pages() for b in page_blocks(path) if b[1] in ("sh", "python")]


def test_every_block_is_accounted_for():
    found = [heading for heading, _, _ in command_blocks()]
    assert len(found) >= 12, found
    unknown = [h for h in found if h not in BLOCKS]
    assert not unknown, f"command blocks with no test and no reason in {__name__}: {unknown}"
    gone = [h for h in BLOCKS if h not in found]
    assert not gone, f"sections listed here that hold no command block any more: {gone}"
    for heading, how in BLOCKS.items():
        if how.startswith("tests/"):
            test_file = ROOT / how.split()[0]
            assert test_file.is_file(), how
            # the named test reads this section's block from its page
            page, title = heading.split(": ", 1)
            source = test_file.read_text(encoding="utf-8")
            assert title in source and Path(page).name in source, (heading, how)


def test_the_quick_start_says_how_to_put_daimyo_on_path():
    """The tour types ``daimyo``; the quick start says how that name comes onto PATH."""
    quick = (ROOT / "README.md").read_text(encoding="utf-8").split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "source .venv/bin/activate" in quick
    assert ".venv\\Scripts\\activate" in quick


def test_the_readme_is_a_short_guide():
    """The README is what a newcomer needs; the rest is in the documentation pages."""
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) < 250


def block(heading: str) -> str:
    bodies = [body for h, _, body in command_blocks() if h == heading]
    assert len(bodies) == 1, heading
    return bodies[0]


def readme_examples() -> list[str]:
    """The README's blocks that show a few lines of a tour."""
    return [h for h, how in BLOCKS.items() if h.startswith("README.md: ") and "stands in" in how]


def test_the_readmes_examples_are_lines_of_the_tours():
    """Each line of the README's short examples is a line of a block of docs/ that a test runs, so
    every command the README shows is run there (and the README's copy cannot drift from it)."""
    tested = {
        line.rstrip()
        for heading, _, body in command_blocks()
        if heading.startswith("docs/") and (BLOCKS[heading] == RUN_HERE or BLOCKS[heading].startswith("tests/"))
        for line in body.splitlines()
    }
    assert len(readme_examples()) >= 3
    for heading in readme_examples():
        stray = [ln for ln in block(heading).splitlines() if ln.strip() and ln.rstrip() not in tested]
        assert not stray, f"{heading}: lines in no tested block of docs/: {stray}"


def _env(tmp_path: Path, bin_dir: Path) -> dict[str, str]:
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        PYTHONPATH=str(ROOT),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        COLUMNS="100",
    )
    for name in ("DAIMYO_PACKS", "DAIMYO_REGISTRY", "DAIMYO_VIEWER", "DAIMYO_COLLECTION"):
        env.pop(name, None)
    return env


@pytest.fixture(scope="module")
def forked(forked_command):
    """The ``daimyo`` launcher of the run's one server (conftest's ``forked_command``): each call
    is a process forked from it, and gets the environment, folder and files of the shell that
    runs it; the server itself runs no command."""
    return forked_command


@pytest.fixture
def fresh(tmp_path, forked):
    """A fresh folder, its own config and data folders, and ``daimyo`` on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shutil.copy2(forked, bin_dir / "daimyo")
    work = tmp_path / "work"
    work.mkdir()
    yield work, _env(tmp_path, bin_dir)


def run_block(script: str, work: Path, env: dict) -> subprocess.CompletedProcess:
    """The block as one bash script, stopping at the first command that fails."""
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", script], cwd=work, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow  # a process per command
def test_the_packs_block_runs_in_order_from_a_fresh_folder(fresh):
    work, env = fresh
    script = block("docs/packs.md: Packs: your own cards, troops and boards")
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


@pytest.mark.slow  # a process per command
def test_the_collection_block_runs_in_order_from_a_fresh_folder(fresh):
    work, env = fresh
    r = run_block(block("docs/collection.md: Building from your collection"), work, env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    # the collection file in the configuration folder, as the page says
    coll = Path(env["XDG_CONFIG_HOME"]) / "daimyo" / "collection.yaml"
    assert "Yari Ashigaru: 8" in coll.read_text(encoding="utf-8")
    out = r.stdout.splitlines()
    # what the comments and the page promise
    assert "vanguard.yaml: kensei: legal (0 errors, 0 warnings)" in out
    page = (ROOT / "docs" / "collection.md").read_text(encoding="utf-8")
    note = "  vanguard.yaml:10:5: info collection.short: the list uses 9 of 'Yari Ashigaru'; the collection holds 8 (1 short)"
    assert note in out and note.strip() in page
    assert "kensei: 7 more 'Yari Ashigaru' (needed 15, owned 8)" in out  # 9 + 6 together
    assert "kensei: 1 more 'Yari Ashigaru' (needed 9, owned 8)" in out  # --each: the most of one list
    assert "kensei: 5 more 'Samurai Yari' (needed 10, owned 5)" in out


@pytest.mark.slow  # a process per command
def test_the_art_path_block_runs_in_order_from_a_fresh_folder(fresh):
    """Made, published with its art, added as a registry, installed and printed: the deck's
    PDF holds the pack's image."""
    import io

    from PIL import Image
    from pypdf import PdfReader

    work, env = fresh
    r = run_block(block("docs/packs.md: Art, publishing and registries in one path"), work, env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    assert "published My cards 1 (senshiai): registry/my-cards-1/my-cards-1.yaml" in r.stdout
    assert "  with 1 image: art/ronin.png" in r.stdout
    assert "added registry 'registry' (" in r.stdout and "My cards 1 (senshiai): installed from" in r.stdout
    images = [Image.open(io.BytesIO(i.data)) for p in PdfReader(work / "deck.pdf").pages for i in p.images]
    [art] = [im.convert("RGB") for im in images]  # the pack's picture, cropped to its art box
    assert all(abs(a - b) < 25 for a, b in zip(art.getpixel((2, 2)), (178, 34, 34), strict=True))
    assert min(art.getpixel((art.width // 2, art.height // 2))) > 220  # the white disc in its middle


@pytest.mark.slow  # starts the web server
def test_the_serve_block_serves_the_examples(fresh):
    """``daimyo serve examples/`` (the project folder's examples, copied to a fresh folder) prints
    an address that opens the workspace page listing them."""
    work, env = fresh
    shutil.copytree(ROOT / "examples", work / "examples")
    lines = [ln for ln in block("README.md: Building in the browser: `daimyo serve`").splitlines() if ln.strip()]
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


@pytest.mark.slow  # a process per command
@pytest.mark.parametrize("heading", [h for h, how in BLOCKS.items() if how == EXCERPT])
def test_the_readmes_examples_run_in_order_from_a_fresh_folder(fresh, heading):
    work, env = fresh
    failures = []
    for cmd, want in commands_of(block(heading)):
        r = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=120)
        if r.returncode != want or "Traceback" in r.stderr:
            failures.append(f"{cmd}\n  exit {r.returncode}, expected {want}\n  {(r.stdout + r.stderr)[-800:]}")
    assert not failures, "\n".join(failures)
    made = {
        "README.md: Building a list on the command line": "roster.pdf",
        "README.md: Your own cards: packs": "deck.pdf",
    }
    assert (work / made[heading]).read_bytes().startswith(b"%PDF")


def test_the_readmes_python_example_runs(tmp_path, monkeypatch, capsys):
    code = block("README.md: Using daimyo from Python")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    legal, share = capsys.readouterr().out.split()
    assert legal == "True" and share.startswith("DMY1-")


@pytest.mark.parametrize("heading", [h for h, how in BLOCKS.items() if how == FIRST_LIST])
def test_each_game_pages_first_command_starts_a_list(fresh, heading):
    work, env = fresh
    (cmd,) = [line for line in block(heading).splitlines() if line.strip()]
    r = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    written = work / cmd.split(" -o ", 1)[1].split()[0]
    system = heading.split("/")[-1].split(".md")[0]
    assert f"system: {system}" in written.read_text(encoding="utf-8")
