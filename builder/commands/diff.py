"""CLI command: ``diff`` (two lists side by side)."""

from __future__ import annotations

import sys

import typer

from builder.errors import UsageError, safe_terminal, unknown_format
from builder.lists.diff import diff_files, diff_lines, with_translations
from builder.safeout import json_text

cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


@cli.command("diff")
def diff_cmd(
    a: str = typer.Argument(..., metavar="A", help="The first list (the one before)."),
    b: str = typer.Argument(..., metavar="B", help="The second list (the one after)."),
    format: str = typer.Option("text", "--format", "-f", help="text or json"),
    pack: list[str] = typer.Option([], "--pack", "-p", help="extra pack file(s) for both lists"),
):
    """Compare two lists: entries added, removed and changed, settings, the total and the verdict
    before and after. Exit 0 when the lists hold the same, 1 when they differ, 2 on bad input."""

    if format not in ("text", "json"):
        raise UsageError(unknown_format(format, ("text", "json")))
    d = diff_files(a, b, pack)
    if format == "json":
        sys.stdout.write(json_text(with_translations(d), indent=2) + "\n")
    else:
        for line in diff_lines(d):
            sys.stdout.write(safe_terminal(line) + "\n")
    raise typer.Exit(0 if d["same"] else 1)


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
