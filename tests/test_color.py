"""`check` in colour on a terminal (plain ANSI): the verdict and each finding's severity; no
colour when the output is a pipe, when NO_COLOR is set (to any value, even empty), with
--no-color, or for TERM=dumb. Names still cannot bring their own escape sequences."""

import os
import pty
import subprocess
import sys

from conftest import ROOT

ILLEGAL = ROOT / "examples" / "kensei-buke.yaml"


def run(args, tty: bool, env=None, cwd=None):
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    environ.update(env or {})
    cmd = [sys.executable, "-m", "builder", "check", *map(str, args)]
    if not tty:
        return subprocess.run(cmd, capture_output=True, text=True, env=environ, cwd=cwd).stdout
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, stdout=slave, stderr=subprocess.DEVNULL, env=environ, cwd=cwd)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not data:
            break
        chunks.append(data)
    proc.wait()
    os.close(master)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def over(tmp_path):
    f = tmp_path / "army.yaml"
    f.write_text(
        ILLEGAL.read_text(encoding="utf-8")
        .replace("points: 200", "points: 100")
        .replace("name: Buke vanguard (rulebook sample)", 'name: "Red \\e[2J army"'),
        encoding="utf-8",
    )
    return f


def test_colour_on_a_terminal(tmp_path):
    f = over(tmp_path)
    out = run([f], tty=True)
    first = out.splitlines()[0]
    assert first.endswith(": \x1b[1;31mILLEGAL\x1b[0m (" + first.split("(", 2)[-1])
    assert "\\u001b[2J" in first and "\x1b[2J" not in out  # the name's own escape stays escaped
    assert f"{f}:" in out and ": \x1b[31merror\x1b[0m kensei.points-max: " in out
    legal = run([ILLEGAL], tty=True)
    assert ": \x1b[32mlegal\x1b[0m (0 errors" in legal.splitlines()[0]


def test_no_colour_when_piped_or_asked(tmp_path):
    f = over(tmp_path)
    for out in (
        run([f], tty=False),
        run([f], tty=True, env={"NO_COLOR": ""}),
        run([f], tty=True, env={"NO_COLOR": "1"}),
        run(["--no-color", f], tty=True),
        run([f], tty=True, env={"TERM": "dumb"}),
    ):
        assert "\x1b" not in out and ": ILLEGAL (" in out and "error kensei.points-max" in out
