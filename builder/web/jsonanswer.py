"""The JSON answers of the web builder and the event server, written by ``builder.safeout``:
non-ASCII text as it is, the characters that would reorder or hide what is shown as escapes."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from builder.safeout import json_text

__all__ = ["SafeJSONResponse"]


class SafeJSONResponse(JSONResponse):
    """FastAPI's JSON answer, its body made by ``json_text`` (the default answer of the apps)."""

    def render(self, content: Any) -> bytes:
        return json_text(content, separators=(",", ":")).encode("utf-8")
