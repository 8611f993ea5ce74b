"""Running the viewer under uvicorn, with one process or several on one port."""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any

import uvicorn

from builder.errors import UsageError, option
from builder.i18n import _
from builder.paths import cache_dir as daimyo_cache_dir
from builder.viewer.app import make_app
from builder.viewer.shelf import Shelf

__all__ = ["MAX_WORKERS", "CacheFolderError", "check_options", "default_cache_dir", "ready_cache_dir", "run"]

MAX_WORKERS = 64
WORKER_ENV = "DAIMYO_VIEWER_WORKER"  # what each worker process is to serve (JSON)


def run(host: str, port: int, workers: int = 1, builder: str | None = None, cache_dir: str | None = None) -> None:
    """Serve until interrupted. Several workers: that many processes share the port (and the
    folder ``cache_dir`` of the answers drawn, when given)."""
    check_options(port, workers)
    # nothing written, not even the catalogs' cache files (a cache folder that cannot be made):
    # each process builds a catalog once and keeps it in memory; its workers inherit the setting
    os.environ.setdefault("DAIMYO_CACHE_DIR", os.path.join(os.devnull, "daimyo"))
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": "warning",
        "access_log": False,
        "server_header": False,
        "timeout_graceful_shutdown": 2,
        "proxy_headers": True,
    }
    try:
        if workers == 1:
            uvicorn.run(make_app(builder, cache_dir=cache_dir), **common)
            return
        os.environ[WORKER_ENV] = json.dumps({"builder": builder, "cache_dir": cache_dir})
        uvicorn.run("builder.viewer.app:worker_app", factory=True, workers=workers, **common)
    except KeyboardInterrupt:
        pass


def check_options(port: int, workers: int) -> None:
    """UsageError for a port or a number of workers out of bounds."""
    if not 0 <= port < 65536:
        raise UsageError(_("{flag} must be between 0 and 65535, not {port}").format(flag=option("port"), port=port))
    if not 1 <= workers <= MAX_WORKERS:
        raise UsageError(
            _("{flag} must be between 1 and {most}, not {n}").format(
                flag=option("workers"), most=MAX_WORKERS, n=workers
            )
        )
    if workers > 1 and os.name == "nt":
        raise UsageError(_("{flag} above 1 needs a POSIX system (Linux, macOS)").format(flag=option("workers")))


def default_cache_dir() -> str:
    """The folder of the answers shared by the copies: ``viewer`` in daimyo's cache folder
    (``DAIMYO_CACHE_DIR``, else ``$XDG_CACHE_HOME/daimyo``, else ``~/.cache/daimyo``)."""
    return str(daimyo_cache_dir() / "viewer")


def ready_cache_dir(folder: str) -> str:
    """``folder`` as an absolute path, made if need be; CacheFolderError when answers cannot be
    written in it."""
    folder = os.path.abspath(folder)
    try:
        Shelf(folder)
        fd, probe = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise CacheFolderError(folder, exc.strerror or type(exc).__name__) from None
    return folder


class CacheFolderError(Exception):
    """A cache folder the viewer cannot write: its path and the system's reason."""

    def __init__(self, folder: str, reason: str):
        super().__init__(f"{folder}: {reason}")
        self.folder, self.reason = folder, reason
