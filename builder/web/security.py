"""The guard in front of every request of ``daimyo serve`` (a plain ASGI middleware).

* Host: only the address the server was started on (or a loopback name) is answered, so a
  web page elsewhere cannot reach the server through a rebound DNS name.
* Token: a random token, given in the printed address (``?token=...``), an
  ``Authorization: Bearer`` header or an ``X-Daimyo-Token`` header; the first visit with it
  sets a cookie (HttpOnly, SameSite=Strict) and drops the token from the address. Without it
  nothing is served but a page saying how to get in.
* Cross-site requests: POST, PUT, PATCH and DELETE carry the page's ``X-CSRF-Token`` header
  (or the token itself in a header, for scripts); a request from another site
  (``Origin``/``Sec-Fetch-Site``) is refused.
* Size: request bodies over the limit are refused (413) before they are read in full.
"""

from __future__ import annotations

import hmac
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode, urlsplit

from builder.i18n import _
from builder.safeout import json_text

if TYPE_CHECKING:
    from fastapi import FastAPI
    from fastapi.templating import Jinja2Templates

    from builder.web.workspace import Workspace

COOKIE = "daimyo_token"
SAFE = ("GET", "HEAD", "OPTIONS")
PUBLIC = ("/static/", "/favicon.ico")
# pages any visitor may open: a link from a viewer ("Open in my builder") arrives without the
# cookie (SameSite=Strict); the page only offers to go on to the workspace, which asks for it
OPEN = ("/import",)
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


class BodyTooLarge(Exception):
    pass


def _eq(a: str | None, b: str) -> bool:
    return a is not None and a != "" and hmac.compare_digest(a.encode(), b.encode())


class Guard:
    # set by ``builder.web.app.create_app``: the application behind the guard, its workspace
    # and its templates
    fastapi: FastAPI
    workspace: Workspace
    templates: Jinja2Templates

    def __init__(self, app, *, token: str, csrf: str, max_body: int, host: str, gate_html, cookie: str = COOKIE):
        self.app = app
        self.cookie = cookie
        self.token = token
        self.csrf = csrf
        self.max_body = max_body
        self.any_host = host in ("0.0.0.0", "::", "")
        self.hosts = {h.lower() for h in LOOPBACK} | {host.lower(), f"[{host.lower()}]"}
        self.gate_html = gate_html  # () -> str

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        method = scope["method"].upper()
        path = scope.get("path", "")
        if not self._host_ok(headers.get("host", "")):
            return await _plain(send, 421, _("unexpected Host header: this server answers only to its own address"))
        if (path.startswith(PUBLIC) or path in OPEN) and method in SAFE:
            return await self.app(scope, receive, send)
        query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
        cookie = SimpleCookie()
        try:
            cookie.load(headers.get("cookie", ""))
        except Exception:
            cookie = SimpleCookie()
        by_cookie = _eq(cookie[self.cookie].value if self.cookie in cookie else None, self.token)
        bearer = headers.get("authorization", "")
        by_header = _eq(bearer[7:].strip() if bearer.lower().startswith("bearer ") else None, self.token) or _eq(
            headers.get("x-daimyo-token"), self.token
        )
        by_query = _eq(query.get("token"), self.token)
        if by_query and method in SAFE and not path.startswith("/api/"):
            # first visit: remember the token in a cookie and take it out of the address bar
            rest = {k: v for k, v in query.items() if k != "token"}
            location = path + ("?" + urlencode(rest) if rest else "")
            return await _send(
                send,
                303,
                b"",
                [
                    (b"location", location.encode("latin-1")),
                    (b"set-cookie", f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict".encode()),
                    (b"cache-control", b"no-store"),
                ],
            )
        if not (by_cookie or by_header or by_query):
            if path.startswith("/api/"):
                return await json_body(
                    send,
                    401,
                    {
                        "error": "missing or wrong token",
                        "hint": "send 'Authorization: Bearer TOKEN' with the token printed by 'daimyo serve'",
                    },
                )
            return await _send(
                send, 401, self.gate_html().encode("utf-8"), [(b"content-type", b"text/html; charset=utf-8")]
            )
        if method not in SAFE:
            site = headers.get("sec-fetch-site", "")
            origin = headers.get("origin")
            if site == "cross-site" or (origin and origin != "null" and not self._origin_ok(origin, headers)):
                return await json_body(send, 403, {"error": "cross-site request refused"})
            if origin == "null":
                return await json_body(send, 403, {"error": "cross-site request refused"})
            if not by_header and not _eq(headers.get("x-csrf-token"), self.csrf):
                return await json_body(
                    send,
                    403,
                    {
                        "error": "missing or wrong X-CSRF-Token header",
                        "hint": "reload the page; scripts send the token in an 'Authorization: Bearer' header",
                    },
                )
            length = headers.get("content-length")
            if length is not None:
                try:
                    too_big = int(length) > self.max_body
                except ValueError:
                    return await json_body(send, 400, {"error": "bad Content-Length"})
                if too_big:
                    return await json_body(send, 413, {"error": f"request body over {self.max_body // 1024} KiB"})
            try:
                receive = await self._buffered(receive)
            except BodyTooLarge:
                return await json_body(send, 413, {"error": f"request body over {self.max_body // 1024} KiB"})
        await self.app(scope, receive, send)

    async def _buffered(self, receive):
        """Read the whole body (at most ``max_body`` bytes, however it is sent), then replay it."""
        chunks: list[bytes] = []
        seen = 0
        last = None  # a message other than the body (a disconnect): replayed as it came
        while True:
            msg = await receive()
            if msg["type"] != "http.request":
                last = msg
                break
            body = msg.get("body", b"")
            seen += len(body)
            if seen > self.max_body:
                raise BodyTooLarge()
            chunks.append(body)
            if not msg.get("more_body", False):
                break
        sent = False

        async def replay():
            nonlocal sent
            if last is not None:
                return last
            if not sent:
                sent = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        return replay

    def _host_ok(self, host: str) -> bool:
        if self.any_host:
            return True
        h = host.lower()
        if h.startswith("["):
            name = h.split("]")[0] + "]"
        else:
            name = h.rsplit(":", 1)[0] if h.count(":") == 1 else h
        return name in self.hosts

    def _origin_ok(self, origin: str, headers) -> bool:

        o = urlsplit(origin)
        return o.netloc.lower() == headers.get("host", "").lower()


async def _send(send, status: int, body: bytes, headers):
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-length", str(len(body)).encode()),
                *headers,
                (b"x-content-type-options", b"nosniff"),
                (b"referrer-policy", b"no-referrer"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _plain(send, status: int, text: str):
    await _send(send, status, text.encode(), [(b"content-type", b"text/plain; charset=utf-8")])


async def json_body(send, status: int, data: dict):
    await _send(send, status, json_text(data).encode(), [(b"content-type", b"application/json")])
