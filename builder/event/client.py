"""``daimyo event submit`` and ``daimyo event verify URL``: an event's server over its JSON API.

Whatever answers at the address (an event's server, another web server, something that is not
HTTP at all, a server that trickles or cuts its answer), a command ends with its answer or with
one line saying what went wrong: every request has a total time limit (``timeout``), its answer
a size limit, and an answer that is not the JSON object an event gives is refused as such.
"""

from __future__ import annotations

import http.client
import json
import math
import socket
import ssl
import sys
import threading
import time
import urllib.parse
from pathlib import Path

from builder.errors import UsageError, one_line, option
from builder.event.intake import MAX_SUBMISSION_BYTES, decode
from builder.i18n import _

DEFAULT_TIMEOUT = 60.0  # seconds for one request, answer and all
MAX_ANSWER_BYTES = 1024 * 1024  # a submission's answer: its findings and list, a few kilobytes
SERVE_HINT = "is 'daimyo event serve' running there?"


class Unreachable(Exception):
    """Nothing listens at the address (the connection was refused): worth trying again."""


def _base_and_token(url: str, token: str | None) -> tuple[str, str]:
    parts = _split(url)
    token = token or urllib.parse.parse_qs(parts.query).get("token", [None])[0]
    if not token:
        raise UsageError("no token", f"give {option('token')} TOKEN, or the link you were sent")
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in token) or len(token) > 200:
        raise UsageError("the token is not one an event gives", "copy it again from the link you were sent")
    path = parts.path.rstrip("/")
    for tail in ("/submit", "/api/submissions"):
        if path.endswith(tail):
            path = path[: -len(tail)]
    return f"{parts.scheme}://{parts.netloc}{path}", token


def _split(url: str) -> urllib.parse.SplitResult:
    bad = UsageError(f"'{url}' is not an event's address", "e.g. http://127.0.0.1:8770 or the link you were sent")
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port  # ValueError when it is not a port
    except ValueError:
        raise bad from None
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url):
        raise bad
    del port
    return parts


def _list_text(source: str) -> str:
    if source == "-":  # no more than the server takes, and one byte to tell that there is more
        data = sys.stdin.buffer.read(MAX_SUBMISSION_BYTES + 1)
        if len(data) > MAX_SUBMISSION_BYTES:
            raise UsageError(
                _("<stdin>: too large: over {n:,} bytes").format(n=MAX_SUBMISSION_BYTES),
                _("hand in one list, not a collection"),
            )
        return decode(data, "<stdin>")
    p = Path(source)
    try:
        is_file = p.is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise UsageError(f"{source}: cannot read: {exc.strerror or exc}") from None
        return decode(data, source)
    if source.strip().startswith("DMY"):
        return source.strip()
    try:
        if p.is_dir():
            raise UsageError(f"{source}: is a folder, not a list file", "give a list file or a share code")
    except (OSError, ValueError):
        pass
    raise UsageError(f"{source}: file not found", "give a list file, a share code (DMY1-...) or - for standard input")


def request_json(
    url: str,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    limit: int = MAX_ANSWER_BYTES,
) -> tuple[int, object]:
    """``(status, JSON)`` of one request; UsageError for anything else (no answer in ``timeout``
    seconds, an answer that is not HTTP, larger than ``limit`` bytes, or not JSON); Unreachable
    when nothing listens there."""
    parts = _split(url)
    where = f"{parts.scheme}://{parts.netloc}"
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = cls(parts.hostname or "", parts.port, timeout=max(0.1, timeout))
    cut = threading.Event()

    def give_up():  # the time is up: the socket is shut, whatever the request is waiting for
        cut.set()
        sock = conn.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(max(0.1, timeout), give_up)
    timer.daemon = True
    timer.start()
    try:
        conn.request(method, path, body=body, headers=dict(headers or {}, **{"User-Agent": "daimyo-event"}))
        resp = conn.getresponse()
        status, ctype = resp.status, resp.getheader("content-type", "")
        raw = resp.read(limit + 1)
    except ConnectionRefusedError:
        raise Unreachable() from None
    except (OSError, http.client.HTTPException, ssl.SSLError, ValueError) as exc:
        if cut.is_set() or isinstance(exc, (socket.timeout, TimeoutError)):
            raise UsageError(f"{where}: no answer within {timeout:g} seconds", SERVE_HINT) from None
        if isinstance(exc, http.client.HTTPException):
            why = f"its answer is not HTTP an event gives ({type(exc).__name__}"
            why += f": {str(exc)[:80]})" if str(exc) else ")"
            raise UsageError(f"{where}: {why}", "check the address: is it the event's?") from None
        reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or str(exc) or type(exc).__name__
        raise UsageError(f"{where}: cannot reach the event: {reason}", SERVE_HINT) from None
    finally:
        timer.cancel()
        conn.close()
    if cut.is_set():
        raise UsageError(f"{where}: no answer within {timeout:g} seconds", SERVE_HINT)
    if len(raw) > limit:
        raise UsageError(f"{where}: the answer is larger than {limit:,} bytes", "check the address: is it the event's?")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        kind = "an HTML page" if "html" in ctype.lower() or raw.lstrip()[:1] == b"<" else "not JSON"
        if status >= 400:
            raise UsageError(
                f"{where}: refused ({status}), answering {kind}", "check the address: is it the event's?"
            ) from None
        raise UsageError(
            f"{where}: the answer is {kind}, not an event's", "check the address: is it the event's?"
        ) from None
    return status, data


def error_of(status: int, data: object, where: str) -> UsageError:
    """What a server's refusal says: its ``error`` line, or its status."""
    text = data.get("error") if isinstance(data, dict) else None
    if not isinstance(text, str) or not text.strip():
        text = "its answer gives no reason"

    return UsageError(f"{where}: refused ({status}): {one_line(text.strip())[:500]}")


SUBMISSION_KEYS = {"player": str, "version": int, "verdict": str, "total": str, "commitment": str, "legal": bool}


def submit(
    url: str, source: str, token: str | None = None, wait: float = 0.0, timeout: float = DEFAULT_TIMEOUT
) -> dict:
    """Hand in ``source``; ``wait``: seconds to keep trying while nothing answers at ``url`` (a
    script that has just started the server); ``timeout``: seconds for one try."""
    for name, value in (("wait", wait), ("timeout", timeout)):
        if not math.isfinite(value) or value < 0 or value > 24 * 3600:
            raise UsageError(f"{option(name)} {value:g}: give seconds from 0 to 86400")
    if timeout == 0:
        raise UsageError(f"{option('timeout')} 0: give a positive number of seconds")
    base, token = _base_and_token(url, token)
    body = json.dumps({"list": _list_text(source)}).encode("utf-8")
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    until = time.monotonic() + wait
    while True:
        try:
            status, data = request_json(base + "/api/submissions", "POST", body, headers, timeout)
            break
        except Unreachable:
            if time.monotonic() >= until:
                raise UsageError(f"{base}: cannot reach the event: nothing answers there", SERVE_HINT) from None
            time.sleep(0.25)
    if status >= 300:
        raise error_of(status, data, base)
    if not isinstance(data, dict) or any(not isinstance(data.get(k), t) for k, t in SUBMISSION_KEYS.items()):
        raise UsageError(f"{base}: the answer is not a submission's", "check the address: is it the event's?")
    findings = data.get("findings")
    data["findings"] = [
        f
        for f in (findings if isinstance(findings, list) else [])
        if isinstance(f, dict) and all(isinstance(f.get(k), str) for k in ("severity", "code", "message"))
    ]
    return data
