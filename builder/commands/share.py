"""CLI commands: export, import, show."""

from __future__ import annotations

from typing import Optional

import typer

from builder.check import format_result
from builder.cli import echo, fail, find_game
from builder.errors import EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK, DaimyoError, UsageError
from builder.i18n import L_, _
from builder.render.images import export_tts
from builder.share.api import check_imported, export_source, import_source, read_source, validate
from builder.share.fingerprint import fingerprint
from builder.share.text import render_text
from builder.yamlio import atomic_write

cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


def _system(system):
    if system is None:
        return None

    return find_game(system).id


def _warn(imp):
    for line in imp.warnings():
        echo(line, err=True)


@cli.command("export")
def export_cmd(
    source: str = typer.Argument(..., help="A list file (YAML, JSON, text, markdown), a share code, or - for stdin."),
    dest: Optional[str] = typer.Argument(None, metavar="[DIR]", help="--to tts: the folder to write."),
    to: str = typer.Option(
        "text",
        "--to",
        "-t",
        help="text, markdown, json, yaml, code, bundle (the list with "
        "its packs), or tts (Tabletop Simulator deck: sheets and "
        "a saved object)",
    ),
    out: Optional[str] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
    system: Optional[str] = typer.Option(None, "--system", "-s", help="The game, for plain card lists."),
    base_url: Optional[str] = typer.Option(
        None,
        "--base-url",
        help="--to tts: the web address the folder is uploaded to; the saved object loads its images from there.",
    ),
):
    """Write a list as forum text, Markdown, JSON, YAML or a one-line share code."""

    if to == "tts":
        if not (dest or out):
            raise UsageError(_("--to tts writes a folder"), L_("daimyo export LIST --to tts DIR"))
        echo(_("wrote {file}").format(file=export_tts(source, dest or out, force=force, base_url=base_url)), err=True)
        return
    if base_url is not None:
        raise UsageError(_("--base-url is for --to tts"), L_("daimyo export LIST --to tts DIR --base-url URL"))
    if dest is not None:
        raise UsageError(_("unexpected argument '{argument}'").format(argument=dest), _("only --to tts takes a folder"))
    text = export_source(source, to, _system(system), on_read=_warn)
    _write(text, out, force, _("wrote {file}").format(file=out))


def _write(text: str, out, force: bool, said: str) -> None:
    if out:
        atomic_write(out, text, force=force)
        echo(said, err=True)
    else:
        echo(text.rstrip("\n"))


def readable(imp) -> None:
    """Raise the check's reading errors of an imported list (ListError); packs missing here
    are no such error (the import says which)."""

    validate(imp)


@cli.command("import")
def import_cmd(
    source: str = typer.Argument(..., help="A file in any exported format, a share code, or - for stdin."),
    out: Optional[str] = typer.Option(None, "--output", "-o", help="Write the list (YAML) to this file."),
    force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
    system: Optional[str] = typer.Option(
        None, "--system", "-s", help="The game, for plain card lists without a header."
    ),
    install_packs: bool = typer.Option(
        False,
        "--install-packs",
        help="Install the packs a bundle carries, or those another list names from the configured registries.",
    ),
    force_packs: bool = typer.Option(
        False, "--force-packs", help="With --install-packs: replace installed packs of the same name."
    ),
):
    """Read a shared list (text, Markdown, JSON, YAML, share code or bundle) and write it as a YAML list."""

    text, imp = import_source(
        source, _system(system), install_packs, force_packs, note=lambda line: echo(line, err=True)
    )
    readable(imp)  # a list that 'check' cannot read is said so and not written
    _write(
        text,
        out,
        force,
        _("wrote {file} ({system}, from {format})").format(file=out, system=imp.doc["system"], format=imp.format),
    )


@cli.command("show")
def show_cmd(
    source: str = typer.Argument(..., help="A list file in any format, a share code, or - for stdin."),
    system: Optional[str] = typer.Option(None, "--system", "-s", help="The game, for plain card lists."),
    pack: list[str] = typer.Option([], "--pack", "-p", help="Pack file(s) to include in the check."),
    explain: bool = typer.Option(False, "--explain", help="Show what was counted toward each limit."),
):
    """Pretty-print any list, file or share code, with its check result. Exit 0 legal, 1 illegal, 2 unreadable."""

    imp = read_source(source, _system(system))
    try:
        res = check_imported(imp, pack)
    except DaimyoError as exc:
        _warn(imp)
        echo(render_text(imp.doc).rstrip("\n"))
        echo("")
        fail(exc)
    _warn(imp)
    echo(render_text(imp.doc, summary=res.summary).rstrip("\n"))
    echo("")
    for line in format_result(res, explain):
        echo(line)

    echo(_("fingerprint {fingerprint}").format(fingerprint=fingerprint(imp.doc, res.packs)))
    raise typer.Exit(EXIT_OK if res.legal else EXIT_ILLEGAL)


del EXIT_INPUT


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
