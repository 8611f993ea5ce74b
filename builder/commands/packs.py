"""CLI commands: daimyo pack new|check|list|install|import|export."""

from __future__ import annotations

from typing import Optional

import typer


def register(app) -> None:
    """Add the ``pack`` command group to the typer app."""
    from builder.cli import echo, error_lines
    from builder.errors import EXIT_INPUT, DaimyoError

    pack_app = typer.Typer(help="Your own data: pack templates, checks, spreadsheets, the packs folder.",
                           no_args_is_help=True, rich_markup_mode=None)
    app.add_typer(pack_app, name="pack")

    @pack_app.command("new")
    def pack_new(
        system: str = typer.Argument(..., help="senshiai, kensei, herocard, senji or satsuma"),
        out: str = typer.Option(..., "--output", "-o", help="the pack file to create"),
        name: Optional[str] = typer.Option(None, "--name", help="the pack's name [default: the file name]"),
        force: bool = typer.Option(False, "--force", help="replace an existing file"),
    ):
        """Write a commented pack template: every field with its meaning, allowed values and an example."""
        from pathlib import Path

        from builder.cli import _system
        from builder.packs.template import render_template
        from builder.yamlio import atomic_write

        s = _system(system)
        atomic_write(out, render_template(s, name or Path(out).stem), force=force)
        echo(f"wrote {out}: a {s} pack template; fill it in, then 'daimyo pack check {out}'")

    @pack_app.command("check")
    def pack_check(
        files: list[str] = typer.Argument(..., help="pack files, or pack names found in the packs folders"),
        format: str = typer.Option("text", "--format", "-f", help="text or json"),
    ):
        """Validate packs with their system's catalog. Exit 0 when valid, 2 with one line per problem."""
        import json

        from builder.packs.manage import check_pack, shown as shown_path
        from builder.packs.resolve import resolve_pack
        from builder.paths import is_file

        if format not in ("text", "json"):
            echo(f"daimyo: error: unknown format '{format}' (use text or json)", err=True)
            raise typer.Exit(EXIT_INPUT)
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
                echo(rep.line(shown))
        if format == "json":
            echo(json.dumps(reports, indent=2, ensure_ascii=False))
        raise typer.Exit(EXIT_INPUT if bad else 0)

    @pack_app.command("list")
    def pack_list(
        system: Optional[str] = typer.Option(None, "--system", "-s", help="only packs of this system"),
        format: str = typer.Option("text", "--format", "-f", help="text or json"),
    ):
        """The packs found by name, where, and which one wins when names clash (search order)."""
        import json

        from builder.cli import _system
        from builder.packs.manage import format_pack_list, list_packs, packs_json

        s = _system(system) if system else None
        items = list_packs(s)
        if format == "json":
            echo(json.dumps(packs_json(items), indent=2, ensure_ascii=False))
            return
        for line in format_pack_list(items):
            echo(line)

    @pack_app.command("install")
    def pack_install(
        file: str = typer.Argument(..., help="a pack file"),
        force: bool = typer.Option(False, "--force", help="replace an installed pack of the same name with other content"),
    ):
        """Copy a pack into your packs folder, so that lists and --pack can name it without a path."""
        from builder.packs.manage import install_pack

        target, what = install_pack(file, force=force)
        echo(f"{file}: {what}: {target}")

    @pack_app.command("import")
    def pack_import(
        sheet: str = typer.Argument(..., help="a .csv or .xlsx spreadsheet, one row per entry"),
        out: str = typer.Option(..., "--output", "-o", help="the pack file to write"),
        system: Optional[str] = typer.Option(None, "--system", "-s", help="the game (unless the sheet says '# system: ...')"),
        section: Optional[str] = typer.Option(None, "--section", help="the section of rows without a 'section' column [default: cards, troops, action_cards, provinces]"),
        name: Optional[str] = typer.Option(None, "--name", help="the pack's name"),
        version: Optional[str] = typer.Option(None, "--version", help="the pack's version"),
        assumed: Optional[str] = typer.Option(None, "--assumed", help="where the data comes from, for rows without source or assumed [default: from SHEET]"),
        force: bool = typer.Option(False, "--force", help="replace an existing file"),
    ):
        """Make a pack from a spreadsheet. Every bad cell is one line FILE:ROW:COLUMN; nothing is written then."""
        from pathlib import Path

        from builder.cli import _system
        from builder.packs.sheet import import_sheet
        from builder.yamlio import atomic_write

        s = _system(system) if system else None
        overrides = {"version": version, "name": name}
        text, data = import_sheet(sheet, s, section, overrides, "" if assumed is None else assumed,
                                  default_name=Path(out).stem)
        atomic_write(out, text, force=force)
        n = sum(len(v) for k, v in data.items() if isinstance(v, list))
        echo(f"wrote {out}: {data['system']} pack '{data['name']}' with {n} entr{'y' if n == 1 else 'ies'}")

    @pack_app.command("export")
    def pack_export(
        pack: str = typer.Argument(..., help="a pack file (or a pack name found in the packs folders)"),
        to: str = typer.Option("csv", "--to", "-t", help="csv or xlsx"),
        out: Optional[str] = typer.Option(None, "--output", "-o", help="the file to write [default: the pack's name with .csv/.xlsx; csv: - for stdout]"),
        force: bool = typer.Option(False, "--force", help="replace an existing file"),
    ):
        """Write a pack as a spreadsheet: one row per entry, one column per field."""
        import sys
        from pathlib import Path

        from builder.errors import UsageError
        from builder.packs.identity import read_pack
        from builder.packs.resolve import resolve_pack
        from builder.packs.sheet import SHEET_FORMATS, export_csv, export_xlsx
        from builder.paths import is_file
        from builder.yamlio import atomic_write

        if to not in SHEET_FORMATS:
            raise UsageError(f"unknown spreadsheet format '{to}'", "csv or xlsx")
        path = pack if is_file(pack) else (resolve_pack(pack) or pack)
        data, _ = read_pack(path)
        from builder.packs.manage import check_pack

        check_pack(path)
        body = export_csv(data) if to == "csv" else export_xlsx(data)
        target = out or str(Path(Path(str(path)).name).with_suffix(f".{to}"))
        if target == "-" and to == "csv":
            sys.stdout.write(body)
            return
        atomic_write(target, body, force=force)
        echo(f"wrote {target}")
