"""``daimyo serve``: the local web builder. The web stack is imported only when it runs."""

from __future__ import annotations

import webbrowser
from typing import Optional

import typer

from builder.cli import echo
from builder.cli_words import help_text
from builder.errors import UsageError, option
from builder.i18n import _
from builder.yamlio import begin_command

DEFAULT_PORT = 8765  # the same as builder.web.launch.DEFAULT_PORT, kept here for the help text


cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


@cli.command("serve")
def serve_cmd(
    folder: str = typer.Argument(
        ".",
        show_default=False,
        help="the workspace: the folder of list files to serve (default: the current folder)",
    ),
    port: Optional[int] = typer.Option(
        None,
        "--port",
        help=help_text(
            "the port [default: {DEFAULT_PORT}, or the next free one; 0: any free port]", DEFAULT_PORT=DEFAULT_PORT
        ),
    ),
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        help="the address to listen on; anything but 127.0.0.1 lets other machines try to connect",
    ),
    open_browser: bool = typer.Option(False, "--open", help="open the builder in the web browser"),
    token: Optional[str] = typer.Option(
        None, "--token", envvar="DAIMYO_TOKEN", help="the access token [default: a new random one]"
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        help="server processes answering on the port (POSIX "
        "systems); one suits a player's machine, more a "
        "club's shared server with many players at once",
    ),
):
    """Build, check, print and share lists in the web browser (a local server, offline).

    Prints the address to open, with its access token. Stop it with Ctrl-C.
    """

    begin_command(track=False)  # a server's requests are not one command's inputs and outputs

    from builder.web.launch import prepare  # noqa: PLC0415 - the web builder: imported by this command alone

    launch = prepare(folder, host=host, port=port, token=token, workers=workers)
    if launch.warning:
        echo(_("daimyo serve: warning: {message}").format(message=launch.warning), err=True)
    echo(_("daimyo serve: the lists of {folder}").format(folder=launch.root))
    echo(_("open {url}").format(url=launch.url))
    echo(_("press Ctrl-C to stop"))
    if open_browser:
        webbrowser.open(launch.url)
    launch.run()
    echo(_("daimyo serve: stopped"))


@cli.command("viewer")
def viewer_cmd(
    port: int = typer.Option(8780, "--port", help="the port to listen on"),
    host: str = typer.Option(
        "127.0.0.1", "--host", help="the address to listen on (0.0.0.0: every address, behind a reverse proxy)"
    ),
    workers: int = typer.Option(1, "--workers", help="server processes answering on the port (POSIX systems)"),
    builder: str = typer.Option(
        "http://127.0.0.1:8765",
        "--builder",
        help="the address of the local builder that 'Open in my builder' goes to (daimyo serve's)",
    ),
    cache_dir: Optional[str] = typer.Option(
        None,
        "--cache-dir",
        help="the folder of the pages drawn, shared by every copy on this host "
        "(default: viewer in daimyo's cache folder, ~/.cache/daimyo/viewer)",
    ),
    no_cache: bool = typer.Option(False, "--no-cache", help="keep no folder of pages: each copy draws its own"),
) -> None:
    """Show lists to anyone from their links (/v/SHARE-CODE): a stateless web viewer.

    It keeps no data of its own, so any number of copies can run behind a load balancer; the
    copies on one host share a folder of the pages drawn (--cache-dir), so each link is drawn once.
    Links name it with DAIMYO_VIEWER or viewer = "https://..." in config.toml (docs/viewer.md).
    """

    begin_command(track=False)
    from builder.viewer.serve import (  # noqa: PLC0415 - the web stack: imported by this command alone
        CacheFolderError,
        check_options,
        default_cache_dir,
        ready_cache_dir,
        run,
    )

    check_options(port, workers)
    if cache_dir is not None and no_cache:
        raise UsageError(
            _("{a} and {b} cannot be used together: give one of them").format(
                a=option("cache-dir"), b=option("no-cache")
            )
        )
    folder = None
    if not no_cache:
        try:
            folder = ready_cache_dir(cache_dir or default_cache_dir())
        except CacheFolderError as exc:
            if cache_dir is not None:
                raise UsageError(
                    _("{flag} {folder} cannot be written ({reason}): give a folder you can write, or {off}").format(
                        flag=option("cache-dir"), folder=exc.folder, reason=exc.reason, off=option("no-cache")
                    )
                ) from None
            echo(
                _(
                    "daimyo viewer: warning: the cache folder {folder} cannot be written ({reason}); "
                    "each copy draws its own pages (give {flag})"
                ).format(folder=exc.folder, reason=exc.reason, flag="--cache-dir"),
                err=True,
            )
    echo(f"daimyo viewer: open http://{host}:{port}/ (Ctrl-C stops it)")
    run(host=host, port=port, workers=workers, builder=builder, cache_dir=folder)


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
