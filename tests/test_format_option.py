"""Every command with a ``--format`` option refuses a format it does not write: one line naming
it, exit 2, and nothing written (``xml`` is no command's format)."""

from __future__ import annotations

import pytest


def format_commands() -> list[tuple[list[str], list[str]]]:
    """(command path, arguments that fill its required parameters) of every command of the whole
    app, the games' command groups too, that has a ``--format`` option."""
    from typer.main import get_command

    from builder.commands.app import app_for

    out = []

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in sorted(subs.items()):
                walk(sub, [*path, name])
            return
        if not any("--format" in getattr(p, "opts", ()) for p in cmd.params):
            return
        fill: list[str] = []
        for p in cmd.params:
            if not p.required or "--format" in getattr(p, "opts", ()):
                continue
            value = "1" if getattr(p.type, "name", "") in ("int", "integer", "float") else "x"
            if p.param_type_name == "argument":
                fill.append(value)
            else:
                fill += [p.opts[0], value]
        out.append((path, fill))

    walk(get_command(app_for([])), [])
    return out


COMMANDS = format_commands()


def test_every_command_with_a_format_option_is_found():
    paths = {" ".join(p) for p, _ in COMMANDS}
    assert {"check", "pack search", "pack list", "pack check"} <= paths, paths
    assert len(paths) >= 10


@pytest.mark.parametrize("path, fill", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_an_unknown_format_is_one_line_and_exit_2(cli, tmp_path, monkeypatch, path, fill):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DAIMYO_REGISTRY", str(tmp_path))  # no index there: the format is refused first
    r = cli(*path, "--format", "xml", *fill)
    assert r.code == 2, r
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "'xml'" in lines[0] and "format" in lines[0], r
    assert r.stdout == "" and list(tmp_path.iterdir()) == [], r
