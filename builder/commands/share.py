"""CLI commands: export, import, show."""

from __future__ import annotations

from typing import Optional

import typer


def register(app) -> None:
    """Add this module's commands to the typer app."""
    from builder.cli import echo, fail
    from builder.errors import EXIT_ILLEGAL, EXIT_INPUT, EXIT_OK, DaimyoError

    def _system(system):
        if system is None:
            return None
        from builder.cli import _system as check_system

        return check_system(system)

    def _warn(imp):
        for line in imp.warnings():
            echo(line, err=True)

    @app.command("export")
    def export_cmd(
        source: str = typer.Argument(..., help="A list file (YAML, JSON, text, markdown), a share code, or - for stdin."),
        dest: Optional[str] = typer.Argument(None, metavar="[DIR]", help="--to tts: the folder to write."),
        to: str = typer.Option("text", "--to", "-t", help="text, markdown, json, yaml, code, bundle (the list with "
                                                          "its packs), or tts (Tabletop Simulator deck: sheets and "
                                                          "a saved object)"),
        out: Optional[str] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
        force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
        system: Optional[str] = typer.Option(None, "--system", "-s", help="The game, for plain card lists."),
    ):
        """Write a list as forum text, Markdown, JSON, YAML or a one-line share code."""
        from builder.share.api import FORMATS, export_doc, read_source, validate

        try:
            if to == "tts":
                from builder.errors import UsageError
                from builder.render.images import export_tts

                folder = dest or out
                if not folder:
                    raise UsageError("--to tts writes a folder", "daimyo export LIST --to tts DIR")
                path = export_tts(source, folder, force=force)
                echo(f"wrote {path}", err=True)
                return
            if dest is not None:
                from builder.errors import UsageError

                raise UsageError(f"unexpected argument '{dest}'", "only --to tts takes a folder")
            if to not in FORMATS + ("bundle",):
                from builder.errors import UsageError
                from builder.names import did_you_mean

                choices = FORMATS + ("bundle",)
                raise UsageError(f"unknown format '{to}'", did_you_mean(to, choices) or "one of " + ", ".join(choices))
            imp = read_source(source, _system(system))
            _warn(imp)
            from builder.packs.bundle import checked_with, dump_bundle, make_bundle

            if to == "bundle":
                text = dump_bundle(make_bundle(imp.doc, imp.base_dir))
            else:
                found = {e["pack"]: e for e in checked_with(imp.doc, imp.base_dir)}
                if found or imp.doc.get("checked_with"):  # the packs it is checked with, for the receiver
                    kept = [e for e in imp.doc.get("checked_with") or [] if e.get("pack") not in found]
                    imp.doc["checked_with"] = kept + list(found.values())
                res = validate(imp)
                summary = res.summary if res is not None else None
                text = export_doc(imp.doc, to, summary)
            if to == "code":
                text += "\n"
            if out:
                from builder.yamlio import atomic_write

                atomic_write(out, text, force=force)
                echo(f"wrote {out}", err=True)
            else:
                echo(text.rstrip("\n"))
        except DaimyoError as exc:
            fail(exc)

    @app.command("import")
    def import_cmd(
        source: str = typer.Argument(..., help="A file in any exported format, a share code, or - for stdin."),
        out: Optional[str] = typer.Option(None, "--output", "-o", help="Write the list (YAML) to this file."),
        force: bool = typer.Option(False, "--force", help="Replace an existing output file."),
        system: Optional[str] = typer.Option(None, "--system", "-s", help="The game, for plain card lists without a header."),
        install_packs: bool = typer.Option(False, "--install-packs", help="Install the packs a bundle carries into your packs folder."),
        force_packs: bool = typer.Option(False, "--force-packs", help="With --install-packs: replace installed packs of the same name."),
    ):
        """Read a shared list (text, Markdown, JSON, YAML, share code or bundle) and write it as a YAML list."""
        from pathlib import Path

        from builder.lists.dump import dump_list_yaml
        from builder.packs.bundle import compare_packs
        from builder.share.api import read_source

        try:
            bundle = _read_bundle(source)
            if bundle is not None:
                from builder.share.api import Imported
                from builder.share.canonical import canonical

                lst, packs, _ = bundle
                imp = Imported(canonical(lst, file=source), "bundle", source, Path(source).parent)
                if install_packs:
                    from builder.packs.bundle import install_bundle_packs

                    for line in install_bundle_packs(packs, force=force_packs, where=source):
                        echo(line, err=True)
                else:
                    for p in packs:
                        v = f" version {p['version']}" if p.get("version") is not None else ""
                        echo(f"{source}: carries pack '{p.get('name') or p.get('pack')}'{v} ({p['system']}); "
                             "install it with --install-packs", err=True)
            else:
                if install_packs:
                    from builder.errors import UsageError

                    raise UsageError("--install-packs is for bundles", "this source carries no packs")
                imp = read_source(source, _system(system))
            _warn(imp)
            if bundle is None or install_packs:
                for line in compare_packs(imp.doc, imp.base_dir, names_only=imp.format == "code"):
                    echo(f"{source if imp.format != 'code' else '<code>'}: note: {line}", err=True)
            text = dump_list_yaml(imp.doc)
            if out:
                from builder.yamlio import atomic_write

                atomic_write(out, text, force=force)
                echo(f"wrote {out} ({imp.doc['system']}, from {imp.format})", err=True)
            else:
                echo(text.rstrip("\n"))
        except DaimyoError as exc:
            fail(exc)

    def _read_bundle(source: str):
        from builder.packs.bundle import is_bundle_text, read_bundle
        from builder.paths import is_file

        if source == "-" or not is_file(source):
            return None
        try:
            with open(source, "rb") as fh:
                head = fh.read(4096).decode("utf-8", "replace")
        except OSError:
            return None
        if not is_bundle_text(head):
            return None
        return read_bundle(source)

    @app.command("show")
    def show_cmd(
        source: str = typer.Argument(..., help="A list file in any format, a share code, or - for stdin."),
        system: Optional[str] = typer.Option(None, "--system", "-s", help="The game, for plain card lists."),
        pack: list[str] = typer.Option([], "--pack", "-p", help="Pack file(s) to include in the check."),
        explain: bool = typer.Option(False, "--explain", help="Show what was counted toward each limit."),
    ):
        """Pretty-print any list, file or share code, with its check result. Exit 0 legal, 1 illegal, 2 unreadable."""
        from builder.check import format_result
        from builder.share.api import check_imported, read_source
        from builder.share.text import render_text

        try:
            imp = read_source(source, _system(system))
        except DaimyoError as exc:
            fail(exc)
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
        raise typer.Exit(EXIT_OK if res.legal else EXIT_ILLEGAL)

    del EXIT_INPUT
