"""``daimyo event submit``: hand in a list to an event's server over its JSON API."""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from builder.errors import UsageError, option


def _base_and_token(url: str, token: str | None) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"'{url}' is not an event's address", "e.g. http://127.0.0.1:8770 or the link you were sent")
    token = token or urllib.parse.parse_qs(parts.query).get("token", [None])[0]
    if not token:
        raise UsageError("no token", f"give {option('token')} TOKEN, or the link you were sent")
    path = parts.path.rstrip("/")
    for tail in ("/submit", "/api/submissions"):
        if path.endswith(tail):
            path = path[: -len(tail)]
    return f"{parts.scheme}://{parts.netloc}{path}", token


def _list_text(source: str) -> str:
    from builder.event.intake import decode

    if source == "-":
        return decode(sys.stdin.buffer.read(), "<stdin>")
    p = Path(source)
    try:
        is_file = p.is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        return decode(p.read_bytes(), source)
    if source.strip().startswith("DMY"):
        return source.strip()
    raise UsageError(f"{source}: file not found", "give a list file, a share code (DMY1-...) or - for standard input")


def submit(url: str, source: str, token: str | None = None, wait: float = 0.0) -> dict:
    """Hand in ``source``; ``wait``: seconds to keep trying while nothing answers at ``url`` (a
    script that has just started the server)."""
    import time

    base, token = _base_and_token(url, token)
    body = json.dumps({"list": _list_text(source)}).encode("utf-8")
    req = urllib.request.Request(
        base + "/api/submissions",
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    until = time.monotonic() + max(0.0, wait)
    while True:
        try:
            return _send(req)
        except ConnectionRefusedError:
            if time.monotonic() >= until:
                raise UsageError(
                    f"{base}: cannot reach the event: nothing answers there", "is 'daimyo event serve' running there?"
                ) from None
            time.sleep(0.25)


def _send(req) -> dict:
    base = req.full_url.rsplit("/api/", 1)[0]
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return json.loads(resp.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        try:
            err = json.loads(exc.read().decode("utf-8"))
            text = err.get("error") or exc.reason
        except Exception:
            text = exc.reason
        raise UsageError(f"{base}: refused ({exc.code}): {text}") from None
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, ConnectionRefusedError):
            raise exc.reason from None
        raise UsageError(
            f"{base}: cannot reach the event: {exc.reason}", "is 'daimyo event serve' running there?"
        ) from None
    except OSError as exc:
        if isinstance(exc, ConnectionRefusedError):
            raise
        raise UsageError(
            f"{base}: cannot reach the event: {getattr(exc, 'reason', exc)}", "is 'daimyo event serve' running there?"
        ) from None
