"""The event tour of the organiser's guide (docs/organisers.md) runs as written, in an empty folder, on SQLite: one bash session
(the server it starts in the background is stopped at the end), each command's exit code
checked (``# exit N`` in its comment, 0 otherwise)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess

import pytest
from forkcli import forked_daimyo

from conftest import ROOT

pytest.importorskip("sqlalchemy")
pytest.importorskip("uvicorn")


def tour() -> list[tuple[str, int]]:
    page = (ROOT / "docs" / "organisers.md").read_text(encoding="utf-8")
    section = page.split("# Running an event: `daimyo event`", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    out = []
    for line in block.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            m = re.search(r"#.*\bexit (\d)", line)
            out.append((line, int(m.group(1)) if m else 0))
    return out


def test_the_tour_goes_from_new_to_book():
    words = [c.split()[2] for c, _ in tour() if c.startswith("daimyo event ")]
    for w in ("new", "players", "serve", "submit", "lock", "reveal", "verify", "export", "book"):
        assert w in words, w
    assert words.index("new") < words.index("lock") < words.index("reveal") < words.index("book")


@pytest.mark.slow  # a process for every command of the tour, and a server
def test_the_event_tour_runs_as_written(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    script = ["trap 'kill $(jobs -p) 2>/dev/null' EXIT"]
    for i, (cmd, want) in enumerate(tour()):
        script.append(
            f'{cmd}\nrc=$?; if [ $rc -ne {want} ]; then echo "FAILED {i}: exit $rc, expected {want}: "{shlex.quote(cmd)} >&2; exit 1; fi'
        )
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        PYTHONPATH=str(ROOT),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    env.pop("DAIMYO_PACKS", None)
    # `daimyo` on PATH: a process for every command, forked from one that has imported daimyo
    with forked_daimyo(bin_dir, env):
        r = subprocess.run(
            ["bash", "-c", "\n".join(script)], cwd=work, env=env, capture_output=True, text=True, timeout=600
        )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    assert "3 of 3 submissions match their commitments" in r.stdout
    assert re.search(r'"Bo": version 1: ILLEGAL \(\d errors?\)', r.stdout) and '"Bo": version 2: legal' in r.stdout
    for pdf in ("book.pdf", "judges.pdf"):
        assert (work / pdf).read_bytes().startswith(b"%PDF")
    assert "player Bo  list-submitted  version 2: legal" in r.stdout
