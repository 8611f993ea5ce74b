"""CLI commands: daimyo pack new|check|list|install|index|publish|search|update|remove|import|export,
daimyo registry add|list|remove."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import typer

from builder.catalog.packfiles import resolve_pack
from builder.catalog.packfiles import shown as shown_path
from builder.catalog.packid import read_pack
from builder.cli import echo, error_lines, fail, find_game, formats
from builder.errors import EXIT_INPUT, DaimyoError, UsageError, WouldOverwrite, one_line
from builder.i18n import _, ngettext
from builder.packs import store
from builder.packs.installer import describe, download, install, outdated, put_in_use, refuse_shadows
from builder.packs.installer import outdated as find_outdated
from builder.packs.manage import check_pack, format_pack_list, list_packs, packs_json
from builder.packs.publish import publish
from builder.packs.registries import add as add_registry
from builder.packs.registries import configured
from builder.packs.registries import remove as remove_registry
from builder.packs.registry import (
    INDEX_NAME,
    all_entries,
    build_index,
    config_file,
    dump_index,
    is_index_file,
    search,
    split_ref,
    stale_notes,
)
from builder.packs.sheet import SHEET_FORMATS, export_csv, export_xlsx, import_sheet
from builder.packs.template import render_template
from builder.paths import is_file
from builder.safeout import json_text
from builder.yamlio import atomic_write

cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


def say(line: str, err: bool = False) -> None:
    """A line that may hold text from a registry or a pack file: kept one line, with control
    and bidirectional characters escaped (a description cannot forge a line or reorder one)."""
    echo(one_line(line), err=err)


def stale() -> None:

    for line in stale_notes():
        say(line, err=True)


pack_app = typer.Typer(
    help="Your own data: pack templates, checks, spreadsheets, the packs folder.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

cli.add_typer(pack_app, name="pack")

registry_app = typer.Typer(
    help="The pack registries you use (kept in config.toml).",
    no_args_is_help=True,
    rich_markup_mode=None,
)

cli.add_typer(registry_app, name="registry")


@registry_app.command("add")
def registry_add(
    ref: str = typer.Argument(..., help="the registry's index address (http, https) or folder"),
    name: Optional[str] = typer.Option(None, "--name", help="a short name for it [default: its folder's name]"),
):
    """Add a registry: its index is fetched and checked first, then config.toml is written."""
    reg, count = add_registry(ref, name)
    echo(
        ngettext(
            "added registry '{name}' ({index}): {n} pack version",
            "added registry '{name}' ({index}): {n} pack versions",
            count,
        ).format(name=reg.name, index=reg.index, n=count)
    )


@registry_app.command("list")
def registry_list(
    format: str = typer.Option("text", "--format", "-f", help="text or json", callback=formats("text", "json")),
):
    """The registries in config.toml, by name."""

    regs = configured()
    if format == "json":
        echo(json_text([r.to_json() for r in regs], indent=2))
        return
    for r in regs:
        say(f"{r.name}\t{r.url}")
    if not regs:
        echo(_("no registry in {file}; add one with 'daimyo registry add URL|FOLDER'").format(file=config_file()))
    if os.environ.get("DAIMYO_REGISTRY") is not None:
        echo(_("note: DAIMYO_REGISTRY is set, so its registries are used instead of these"), err=True)


@registry_app.command("remove")
def registry_remove(
    name: str = typer.Argument(..., help="the registry's name (or address)"),
):
    """Remove a registry from config.toml (the packs installed from it stay)."""
    reg = remove_registry(name)
    echo(_("removed registry '{name}' ({url})").format(name=reg.name, url=reg.url))


@pack_app.command("new")
def pack_new(
    system: str = typer.Argument(..., help="senshiai, kensei, herocard, senji or satsuma"),
    out: str = typer.Option(..., "--output", "-o", help="the pack file to create"),
    name: Optional[str] = typer.Option(None, "--name", help="the pack's name [default: the file name]"),
    force: bool = typer.Option(False, "--force", help="replace an existing file"),
):
    """Write a commented pack template: every field with its meaning, allowed values and an example."""

    s = find_game(system).id
    atomic_write(out, render_template(s, name or Path(out).stem), force=force)
    echo(
        _("wrote {file}: a {game} pack template; fill it in, then 'daimyo pack check {file}'").format(file=out, game=s),
        err=True,
    )


@pack_app.command("check")
def pack_check(
    files: list[str] = typer.Argument(..., help="pack files, or pack names found in the packs folders"),
    format: str = typer.Option("text", "--format", "-f", help="text or json", callback=formats("text", "json")),
):
    """Validate packs with their system's catalog. Exit 0 when valid, 2 with one line per problem."""

    bad, reports = False, []
    for f in files:
        path = f if is_file(f) else (resolve_pack(f) or f)
        try:
            rep = check_pack(path)
        except DaimyoError as exc:
            for line in error_lines(exc):
                echo(line, err=True)
            bad = True
            continue
        shown = shown_path(path)
        reports.append(rep.to_json(shown))
        if format == "text":
            say(rep.line(shown))
    if format == "json":
        echo(json_text(reports, indent=2))
    raise typer.Exit(EXIT_INPUT if bad else 0)


@pack_app.command("list")
def pack_list(
    system: Optional[str] = typer.Option(None, "--system", "-s", help="only packs of this system"),
    format: str = typer.Option("text", "--format", "-f", help="text or json", callback=formats("text", "json")),
    outdated: bool = typer.Option(False, "--outdated", help="only installed packs a registry has a newer version of"),
):
    """The packs found by name, where, and which one wins when names clash (search order)."""

    s = find_game(system).id if system else None
    if outdated:
        ups = [u for u in find_outdated() if s is None or u.game == s]
        stale()
    if outdated:
        if format == "json":
            echo(
                json_text(
                    [
                        {
                            "name": u.name,
                            "game": u.game,
                            "version": u.current,
                            "latest": u.entry.version,
                            "registry": u.entry.registry,
                        }
                        for u in ups
                    ],
                    indent=2,
                )
            )
            return
        for u in ups:
            say(
                _("{name} ({game}): {current} in use, {latest} available from {registry}").format(
                    name=u.name,
                    game=u.game,
                    current=u.current or _("(no version)"),
                    latest=u.entry.version,
                    registry=u.entry.registry,
                )
            )
        if not ups:
            echo(_("every installed pack is up to date"))
        return
    items = list_packs(s)
    if format == "json":
        echo(json_text(packs_json(items), indent=2))
        return
    for line in format_pack_list(items):
        say(line)


@pack_app.command("install")
def pack_install(
    ref: str = typer.Argument(
        ..., help="NAME or NAME@VERSION from the registries, an http(s)/file address, or a pack file"
    ),
    system: Optional[str] = typer.Option(
        None, "--system", "-s", help="the game, when packs of several games share the name"
    ),
    force: bool = typer.Option(False, "--force", help="replace a pack made or copied by hand that has the same name"),
    replace: bool = typer.Option(
        False,
        "--replace",
        help="install a pack named like a bundled pack, or like an installed pack from elsewhere, in its place",
    ),
):
    """Install a pack into your packs folder (verified against the registry's SHA-256; earlier
    versions are kept), so that lists and --pack can name it."""

    try:
        lines = install(ref, find_game(system).id if system else None, force=force, replace=replace)
    except DaimyoError as exc:
        stale()
        fail(exc)
    stale()
    for line in lines:
        say(line, err=line.startswith("warning: "))


@pack_app.command("index")
def pack_index(
    folder: str = typer.Argument(..., help="the registry's folder of packs"),
    out: Optional[str] = typer.Option(None, "--output", "-o", help="the index to write [default: FOLDER/index.json]"),
    base_url: Optional[str] = typer.Option(
        None, "--base-url", help="absolute address of the folder, for the packs' urls [default: relative urls]"
    ),
    force: bool = typer.Option(False, "--force", help="replace an existing file that is not a registry index"),
):
    """Check every pack in a registry folder and write its index.json (for the registry's CI).
    An index written before is replaced; any other file only with --force."""

    target = out or str(Path(folder) / INDEX_NAME)
    replace = force or is_index_file(target)
    if not replace and (Path(target).exists() or Path(target).is_symlink()):
        raise WouldOverwrite(target, _("file exists and is not a registry index; not overwritten"))
    index, lines = build_index(folder, base_url)
    atomic_write(target, dump_index(index), force=replace)
    for line in lines:
        say(line, err=line.startswith("warning: "))
    n = len(index["packs"])
    echo(ngettext("wrote {file}: {n} pack version", "wrote {file}: {n} pack versions", n).format(file=target, n=n))


@pack_app.command("publish")
def pack_publish(
    pack: str = typer.Argument(..., help="the pack file (or a pack name found in the packs folders)"),
    to: str = typer.Option(..., "--to", help="the registry's folder"),
    version: Optional[str] = typer.Option(
        None, "--version", help="the version to publish [default: the next after the last one published]"
    ),
):
    """Publish a new version of a pack and its art into a registry folder, then index it:
    NAME-VERSION/NAME-VERSION.yaml, the images, index.json. Prints what changed since the last
    version; refuses an empty pack or one unchanged since then."""
    for line in publish(pack, to, version):
        say(line, err=line.startswith("warning: "))


@pack_app.command("search")
def pack_search(
    text: Optional[str] = typer.Argument(None, help="words of the name, description or authors [default: every pack]"),
    system: Optional[str] = typer.Option(None, "--system", "-s", help="only packs of this game"),
    format: str = typer.Option("text", "--format", "-f", help="text or json", callback=formats("text", "json")),
):
    """Search the registries (DAIMYO_REGISTRY or the config file): the newest version of each pack."""

    s = find_game(system).id if system else None
    found = search(all_entries(), text, s)
    stale()
    if format == "json":
        echo(json_text([e.to_json() for e in found], indent=2))
        return
    if not found:
        say(_("no packs found matching '{text}'").format(text=text) if text else _("no packs found"))
        raise typer.Exit(1)
    for e in found:
        current, _where = store.in_use(e.name)
        state = ""
        if current is not None:
            state = (
                "  " + _("[installed]")
                if current.version == e.version
                else "  " + _("[installed: {version}]").format(version=current.version)
            )
        needs = "  " + _("needs daimyo {version}").format(version=e.daimyo) if not e.compatible else ""
        say(f"{e.name} {e.version} ({e.game}){state}{needs}")
        if e.description:
            say(f"    {e.description}")
        meta = ", ".join(x for x in [", ".join(e.authors), e.licence or ""] if x)
        if meta:
            say(f"    {meta}")


@pack_app.command("update")
def pack_update(
    name: Optional[str] = typer.Argument(None, help="one installed pack [default: every one]"),
    yes: bool = typer.Option(False, "--yes", "-y", help="replace without asking"),
    lists: list[str] = typer.Option([], "--lists", help="lists or folders to report on [default: the current folder]"),
    force: bool = typer.Option(False, "--force", help="replace a pack of the same name made or copied by hand"),
    replace: bool = typer.Option(
        False, "--replace", help="install a newer version from another registry than the one in use came from"
    ),
):
    """Install the newest version of installed packs, after showing what changes for your lists.
    Exit 0 when done or nothing is outdated, 1 when updates were declined."""

    ups = outdated(name)
    stale()
    if not ups:
        say(_("every installed pack is up to date") if name is None else _("{name}: up to date").format(name=name))
        return
    readies = []
    for u in ups:
        ready = download(u.entry)
        readies.append(ready)
        for line in describe(u, ready, list(lists) or ["."]):
            say(line)
    refuse_shadows(readies, replace)  # before asking: the answer would change nothing
    if not yes:
        if not sys.stdin.isatty():
            echo(
                _("nothing replaced: pass --yes to install these updates")
                if len(ups) > 1
                else _("nothing replaced: pass --yes to install this update"),
                err=True,
            )
            raise typer.Exit(1)
        if not typer.confirm(_("Replace the versions in use (they stay installed)?"), default=False):
            echo(_("nothing replaced"))
            raise typer.Exit(1)
    for line in put_in_use(readies, force=force, replace=replace):
        say(line, err=line.startswith("warning: "))


@pack_app.command("remove")
def pack_remove(
    name: str = typer.Argument(..., help="NAME, or NAME@VERSION for one kept version"),
):
    """Remove an installed pack (every version of it, or one) from your packs folder."""

    n, v = split_ref(name)
    lines = store.remove(n, v)
    for line in lines:
        say(line)


@pack_app.command("import")
def pack_import(
    sheet: str = typer.Argument(..., help="a .csv or .xlsx spreadsheet, one row per entry"),
    out: str = typer.Option(..., "--output", "-o", help="the pack file to write"),
    system: Optional[str] = typer.Option(
        None, "--system", "-s", help="the game (unless the sheet says '# system: ...')"
    ),
    section: Optional[str] = typer.Option(
        None,
        "--section",
        help="the section of rows without a 'section' column [default: cards, troops, action_cards, provinces]",
    ),
    name: Optional[str] = typer.Option(None, "--name", help="the pack's name"),
    version: Optional[str] = typer.Option(None, "--version", help="the pack's version"),
    assumed: Optional[str] = typer.Option(
        None,
        "--assumed",
        help="where the data comes from, for rows without source or assumed [default: from SHEET]",
    ),
    force: bool = typer.Option(False, "--force", help="replace an existing file"),
):
    """Make a pack from a spreadsheet. Every bad cell is one line FILE:ROW:COLUMN; nothing is written then."""

    s = find_game(system).id if system else None
    overrides = {"version": version, "name": name}
    text, data = import_sheet(
        sheet, s, section, overrides, "" if assumed is None else assumed, default_name=Path(out).stem
    )
    atomic_write(out, text, force=force)
    n = sum(len(v) for k, v in data.items() if isinstance(v, list))
    echo(
        ngettext(
            "wrote {file}: {game} pack '{name}' with {n} entry",
            "wrote {file}: {game} pack '{name}' with {n} entries",
            n,
        ).format(file=out, game=data["system"], name=data["name"], n=n),
        err=True,
    )


@pack_app.command("export")
def pack_export(
    pack: str = typer.Argument(..., help="a pack file (or a pack name found in the packs folders)"),
    to: str = typer.Option("csv", "--to", "-t", help="csv or xlsx"),
    out: Optional[str] = typer.Option(
        None,
        "--output",
        "-o",
        help="the file to write [default: the pack's name with .csv/.xlsx; csv: - for stdout]",
    ),
    force: bool = typer.Option(False, "--force", help="replace an existing file"),
):
    """Write a pack as a spreadsheet: one row per entry, one column per field."""

    if to not in SHEET_FORMATS:
        raise UsageError(_("unknown spreadsheet format '{format}'").format(format=to), _("csv or xlsx"))
    path = pack if is_file(pack) else (resolve_pack(pack) or pack)
    data, _where = read_pack(path)

    check_pack(path)
    body = export_csv(data) if to == "csv" else export_xlsx(data)
    target = out or str(Path(Path(str(path)).name).with_suffix(f".{to}"))
    if target == "-" and isinstance(body, str):  # csv (xlsx is bytes)
        sys.stdout.write(body)
        return
    atomic_write(target, body, force=force)
    echo(_("wrote {file}").format(file=target), err=True)


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
