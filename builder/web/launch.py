"""Starting the web builder: the port, the address to open and the server loop.

Only ``daimyo serve`` imports this module; the web stack is imported when a server is made.
"""

from __future__ import annotations

import gc
import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from builder.errors import UsageError, option
from builder.i18n import _
from builder.yamlio import begin_command

if TYPE_CHECKING:
    from fastapi import FastAPI

DEFAULT_PORT = 8765
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _family(host: str) -> int:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def free_port(host: str, start: int, tries: int = 20) -> int | None:
    """The first port from ``start`` that can be bound on ``host`` (``tries`` ports at most).

    The port is tried as the server binds it (address reuse on POSIX systems): connections of
    a server that has just stopped, still waiting to close, do not keep a restarted one from
    its port (and from the address and cookie the browser knows)."""
    for port in range(start, start + tries):
        with socket.socket(_family(host), socket.SOCK_STREAM) as s:
            if os.name != "nt":  # on Windows the option would let two servers share a port
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    return None


def any_port(host: str) -> int | None:
    """A free port the system chooses, or None when ``host`` cannot be bound."""
    with socket.socket(_family(host), socket.SOCK_STREAM) as s:
        try:
            s.bind((host, 0))
        except OSError:
            return None
        return s.getsockname()[1]


def choose_port(host: str, port: int | None) -> int:
    """The port to listen on: ``port`` if free, any free one for 0, else the first free from
    the default. Raises UsageError when none can be had."""
    if port is not None and not 0 <= port < 65536:
        raise UsageError(
            _("{option} must be between 1 and 65535 (0: any free port), not {port}").format(
                option=option("port"), port=port
            )
        )
    if port == 0:
        chosen = any_port(host)
    elif port is not None:
        if free_port(host, port, 1) is None:
            raise UsageError(
                _("port {port} is in use or cannot be used on {host}").format(port=port, host=host),
                _("choose another with {option}").format(option=option("port")),
            )
        chosen = port
    else:
        chosen = free_port(host, DEFAULT_PORT)
    if chosen is None:
        raise UsageError(
            _("no free port from {port} on {host}").format(port=DEFAULT_PORT, host=host),
            _("choose one with {option}").format(option=option("port")),
        )
    return chosen


DEFAULT_WORKERS = 1  # one process: a player's edits take a few milliseconds each (see benchmarks/bench_web.py)
MAX_WORKERS = 32
_WORKER_ENV = "DAIMYO_SERVE_WORKER"  # what each of several server processes is to serve (JSON)


@dataclass
class Launch:
    """A server ready to run: the application, where it listens and what to tell the user."""

    app: FastAPI
    host: str
    port: int
    url: str
    root: Path
    warning: str | None
    workers: int = DEFAULT_WORKERS

    def run(self) -> None:
        """Serve until interrupted (Ctrl-C stops it cleanly). Several workers: that many
        processes answer on the one port, each with the same token."""
        import uvicorn  # noqa: PLC0415 - the web stack only once the arguments are checked; a missing one is answered in one line

        app: Any = self.app
        try:
            if self.workers <= 1:
                collect_less()
                uvicorn.Server(
                    uvicorn.Config(
                        app,
                        host=self.host,
                        port=self.port,
                        log_level="warning",
                        access_log=False,
                        server_header=False,
                        timeout_graceful_shutdown=2,
                    )
                ).run()
                return

            os.environ[_WORKER_ENV] = json.dumps(
                {"root": str(self.root), "token": app.token, "csrf": app.csrf, "host": self.host, "port": self.port}
            )
            uvicorn.run(
                "builder.web.launch:worker_app",
                factory=True,
                workers=self.workers,
                host=self.host,
                port=self.port,
                log_level="warning",
                access_log=False,
                server_header=False,
                timeout_graceful_shutdown=2,
            )
        except KeyboardInterrupt:
            pass


GC_THRESHOLD = (10_000, 10, 10)  # Python's default: (700, 10, 10)


def collect_less() -> None:
    """Run the cyclic garbage collector less often in a server process. An edit makes and drops
    tens of thousands of objects (parsed lists, trees, views), so with Python's default the
    collector ran a few times per edit and now and then went through every object the server
    keeps (the catalogs, the kept rows): 70-80 ms at once, one request's answer held up by it
    (``benchmarks/bench_web.py``). Almost all of those objects are freed by their reference
    counts; the collector is only for cycles, which wait a little longer."""

    gc.set_threshold(*GC_THRESHOLD)


def worker_app():
    """The application of one of several server processes (``daimyo serve --workers N``): the
    workspace, token and form token its parent chose, the lists' history shared."""

    from builder.web.app import create_app  # noqa: PLC0415 - the web stack only once the arguments are checked; a missing one is answered in one line

    begin_command(track=False)  # as 'daimyo serve' does: requests are not one command's inputs
    collect_less()
    given = json.loads(os.environ[_WORKER_ENV])
    return create_app(
        given["root"], token=given["token"], host=given["host"], port=given["port"], csrf=given["csrf"], shared=True
    )


def prepare(
    folder: str,
    host: str = "127.0.0.1",
    port: int | None = None,
    token: str | None = None,
    workers: int = DEFAULT_WORKERS,
) -> Launch:
    """Check the arguments, choose the port and build the application for the workspace ``folder``."""
    root = Path(folder)
    if not root.is_dir():
        raise UsageError(
            _("{folder}: no such folder").format(folder=folder), _("give the folder that holds your list files")
        )
    if token is not None and len(token) < 16:
        raise UsageError(_("{option} must be at least 16 characters long").format(option=option("token")))
    if not 1 <= workers <= MAX_WORKERS:
        raise UsageError(
            _("{option} must be between 1 and {most}, not {workers}").format(
                option=option("workers"), most=MAX_WORKERS, workers=workers
            )
        )
    if workers > 1 and os.name == "nt":
        raise UsageError(
            _("{option} above 1 needs a POSIX system (Linux, macOS)").format(option=option("workers")),
            _("serve with one process"),
        )
    chosen = choose_port(host, port)
    try:
        import uvicorn  # noqa: F401, PLC0415 - the web stack only once the arguments are checked; a missing one is answered in one line

        from builder.web.app import create_app  # noqa: PLC0415 - the web stack only once the arguments are checked; a missing one is answered in one line
    except ModuleNotFoundError as exc:
        raise UsageError(
            _("the web builder needs {name}, which is not installed").format(name=exc.name),
            _("reinstall daimyo: pip install ."),
        ) from None
    app = create_app(root, token=token, host=host, port=chosen, shared=workers > 1)
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    warning = None
    if host not in LOOPBACK:
        warning = (
            f"listening on {host}: other machines on the network can reach this server; only the token keeps them out"
        )
    return Launch(
        app, host, chosen, f"http://{shown}:{chosen}/?token={app.token}", app.workspace.root, warning, workers
    )
