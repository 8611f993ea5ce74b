"""``daimyo serve``: the local web builder. The web stack is imported only when it runs."""

from __future__ import annotations

from typing import Optional

import typer

DEFAULT_PORT = 8765
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _free_port(host: str, start: int, tries: int = 20) -> int | None:
    import socket

    for port in range(start, start + tries):
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    return None


def _any_port(host: str) -> int | None:
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, 0))
        except OSError:
            return None
        return s.getsockname()[1]


def register(app) -> None:
    from builder.cli import echo, fail

    @app.command("serve")
    def serve_cmd(
        folder: str = typer.Argument(".", help="the workspace: the folder of list files to serve [default: here]"),
        port: Optional[int] = typer.Option(None, "--port", help=f"the port [default: {DEFAULT_PORT}, or the next free one; 0: any free port]"),
        host: str = typer.Option("127.0.0.1", "--host", help="the address to listen on; anything but 127.0.0.1 "
                                                           "lets other machines try to connect"),
        open_browser: bool = typer.Option(False, "--open", help="open the builder in the web browser"),
        token: Optional[str] = typer.Option(None, "--token", envvar="DAIMYO_TOKEN",
                                            help="the access token [default: a new random one]"),
    ):
        """Build, check, print and share lists in the web browser (a local server, offline).

        Prints the address to open, with its access token. Stop it with Ctrl-C.
        """
        from pathlib import Path

        from builder.errors import DaimyoError, UsageError
        from builder.yamlio import begin_command

        begin_command(track=False)  # a server's requests are not one command's inputs and outputs
        try:
            root = Path(folder)
            if not root.is_dir():
                raise UsageError(f"{folder}: no such folder", "give the folder that holds your list files")
            if token is not None and len(token) < 16:
                raise UsageError("--token must be at least 16 characters long")
            if port is not None and not 0 <= port < 65536:
                raise UsageError(f"--port must be between 1 and 65535 (0: any free port), not {port}")
            chosen = port if port else _free_port(host, DEFAULT_PORT)
            if port == 0:
                chosen = _any_port(host)
            elif port is not None and _free_port(host, port, 1) is None:
                raise UsageError(f"port {port} is in use or cannot be used on {host}", "choose another with --port")
            if chosen is None:
                raise UsageError(f"no free port from {DEFAULT_PORT} on {host}", "choose one with --port")
            try:
                import uvicorn

                from builder.web.app import create_app
            except ModuleNotFoundError as exc:
                raise UsageError(f"the web builder needs {exc.name}, which is not installed",
                                 "reinstall daimyo: pip install .") from None
            app = create_app(root, token=token, host=host, port=chosen)
        except DaimyoError as exc:
            fail(exc)
        shown = f"[{host}]" if ":" in host else host
        if host in ("0.0.0.0", "::"):
            shown = "127.0.0.1"
        url = f"http://{shown}:{chosen}/?token={app.token}"
        if host not in LOOPBACK:
            echo(f"daimyo serve: warning: listening on {host}: other machines on the network can reach this "
                 "server; only the token keeps them out", err=True)
        echo(f"daimyo serve: the lists of {app.workspace.root}")
        echo(f"open {url}")
        echo("press Ctrl-C to stop")
        if open_browser:
            import webbrowser

            webbrowser.open(url)
        config = uvicorn.Config(app, host=host, port=chosen, log_level="warning", access_log=False,
                                server_header=False, timeout_graceful_shutdown=2)
        server = uvicorn.Server(config)
        try:
            server.run()
        except KeyboardInterrupt:
            pass
        echo("daimyo serve: stopped")
