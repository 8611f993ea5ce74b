"""CLI commands: export, import, show."""

from __future__ import annotations

from typing import Optional

import typer

from builder import i18n
from builder.check import format_result
from builder.cli import echo, fail, find_game
from builder.errors import EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK, DaimyoError, UsageError
from builder.i18n import L_, _
from builder.render.images import export_tts
from builder.share.api import Imported, check_imported, export_source, import_source, read_source, validate
from builder.share.canonical import DisplayResolver, canonical
from builder.share.fingerprint import fingerprint
from builder.share.link import link_of, viewer_base
from builder.share.text import render_text
from builder.yamlio import atomic_write

cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


def _system(system: str | None) -> str | None:
    if system is None:
        return None

    return find_game(system).id


def _warn(imp: Imported) -> None:
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
        help="text, markdown, json, yaml, code, link (the address that opens the list in a "
        "viewer), html (a table view for a phone, one file), bundle (the list with "
        "its packs), or tts (Tabletop Simulator deck: sheets and "
        "a saved object)",
    ),
    out: Optional[str] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
    system: Optional[str] = typer.Option(None, "--system", "-s", help="The game, for plain card lists."),
    base_url: Optional[str] = typer.Option(
        None,
        "--base-url",
        help="--to tts: the web address the folder is uploaded to; the saved object loads its images from there. "
        "--to link: the viewer's address [default: DAIMYO_VIEWER, or viewer in config.toml].",
    ),
):
    """Write a list as forum text, Markdown, JSON, YAML, a one-line share code, a link or a table view."""

    if to == "tts":
        if not (dest or out):
            raise UsageError(_("--to tts writes a folder"), L_("daimyo export LIST --to tts DIR"))
        echo(_("wrote {file}").format(file=export_tts(source, dest or out, force=force, base_url=base_url)), err=True)
        return
    if to == "link":
        base = viewer_base(base_url)  # refused before the list is read when no viewer is known
        if dest is not None:
            raise UsageError(_("unexpected argument '{arg}'").format(arg=dest), _("only --to tts takes a folder"))
        code = export_source(source, "code", _system(system), on_read=_warn).strip()
        _write(link_of(code, base) + "\n", out, force, f"wrote {out}")
        return
    if base_url is not None:
        raise UsageError(
            _("--base-url is for --to tts and --to link"), L_("daimyo export LIST --to link --base-url URL")
        )
    if dest is not None:
        raise UsageError(_("unexpected argument '{argument}'").format(argument=dest), _("only --to tts takes a folder"))
    if to == "html":
        from builder.viewer.table import table_of  # noqa: PLC0415 - the table view: loaded by this format alone

        imp = read_source(source, _system(system))
        _warn(imp)
        _write(table_of(imp), out, force, _("wrote {file}").format(file=out))
        return
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
    source: str = typer.Argument(
        ..., help="A file in any exported format, a share code, a link to a list, or - for stdin."
    ),
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
    # in another language the entries show their translated names (the list itself keeps its keys)
    doc = imp.doc
    if i18n.current_language() != i18n.SOURCE_LANGUAGE:
        try:
            doc = canonical(dict(doc), resolver=DisplayResolver.shown(doc["system"]))
        except DaimyoError:  # shown with its keys rather than not at all
            doc = imp.doc
    echo(render_text(doc, summary=res.summary).rstrip("\n"))
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
