"""Running the viewer under uvicorn, with one process or several on one port."""

from __future__ import annotations

import json
import os
from typing import Any

import uvicorn

from builder.errors import UsageError, option
from builder.i18n import _
from builder.viewer.app import make_app

__all__ = ["MAX_WORKERS", "check_options", "run"]

MAX_WORKERS = 64
WORKER_ENV = "DAIMYO_VIEWER_WORKER"  # what each worker process is to serve (JSON)


def run(host: str, port: int, workers: int = 1, builder: str | None = None) -> None:
    """Serve until interrupted. Several workers: that many processes share the port."""
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
            uvicorn.run(make_app(builder), **common)
            return
        os.environ[WORKER_ENV] = json.dumps({"builder": builder})
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
