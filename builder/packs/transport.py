"""The network side of a pack download (:func:`builder.packs.registry.fetch`): urllib's handlers
made to connect through the download's deadline and to check every redirect. Imported only when
a pack is downloaded, so that no other command loads the network stack."""

from __future__ import annotations

import functools
import http.client
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from builder import limits


class Redirects(urllib.request.HTTPRedirectHandler):
    """Follows at most ``MAX_REDIRECTS`` redirects, each one first shown to ``check(target, new)``
    (the address it leads to, and the address as the server wrote it), which may refuse it."""

    max_redirections = limits.MAX_REDIRECTS
    max_repeats = 1

    def __init__(self, check: Callable[[str, str], None]) -> None:
        super().__init__()
        self.check = check

    def http_error_302(self, req: Any, fp: Any, code: int, msg: str, headers: Any) -> Any:
        new = headers.get("location") or headers.get("uri")
        if new is not None:
            self.check(urljoin(req.full_url, new), new)
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


class DeadlineConnection(http.client.HTTPConnection):
    """An http connection whose sockets are made by ``connect`` (the download's deadline)."""

    def __init__(self, *args: Any, connect: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._create_connection = connect


class DeadlineSecureConnection(http.client.HTTPSConnection):
    """An https connection whose sockets are made by ``connect`` (the download's deadline)."""

    def __init__(self, *args: Any, connect: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._create_connection = connect


class DeadlineHandler(urllib.request.HTTPHandler):
    """Opens http addresses through :class:`DeadlineConnection`."""

    def __init__(self, connect: Callable[..., Any]) -> None:
        super().__init__()
        self.connect = connect

    def http_open(self, req: Any) -> Any:
        return self.do_open(functools.partial(DeadlineConnection, connect=self.connect), req)


class DeadlineSecureHandler(urllib.request.HTTPSHandler):
    """Opens https addresses through :class:`DeadlineSecureConnection`."""

    def __init__(self, connect: Callable[..., Any]) -> None:
        super().__init__()
        self.connect = connect

    def https_open(self, req: Any) -> Any:
        return self.do_open(
            functools.partial(DeadlineSecureConnection, connect=self.connect),
            req,
            context=getattr(self, "_context", None),
        )
