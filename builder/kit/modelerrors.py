"""pydantic's validation errors as located diagnostics: one per error, at the file, line and
column of the offending value, in words a person can act on (an unknown key with the allowed
ones, a missing key, a value of the wrong type). The catalog loader, the games' list documents
and the card templates validate with pydantic and report through this; pydantic itself is
imported only when an error is met."""

from __future__ import annotations

import typing

from builder.errors import Diagnostic
from builder.names import did_you_mean


def pydantic_diagnostics(exc, pos, model_cls=None, prefix: str | None = "catalog") -> list[Diagnostic]:
    """One diagnostic per pydantic error, at the line of the offending value."""
    out = []
    seen = set()
    for err in exc.errors(include_url=False):
        loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and ("[" in x or x.startswith("function-"))))
        etype = err["type"]
        msg = err["msg"]
        code = f"{prefix}.value" if prefix else None
        hint = None
        prefer_key = False
        if etype == "extra_forbidden":
            key = loc[-1] if loc else "?"
            allowed = _allowed_keys(model_cls, loc[:-1]) if model_cls else []
            msg = f"unknown key '{key}'"
            hint = did_you_mean(str(key), allowed) or (("allowed keys: " + ", ".join(allowed)) if allowed else None)
            code = f"{prefix}.unknown-key" if prefix else None
            prefer_key = True
        elif etype == "missing":
            key = loc[-1] if loc else "?"
            msg = f"missing required key '{key}'"
            code = f"{prefix}.missing" if prefix else None
            loc = loc[:-1]
        elif etype.endswith("_type") or etype.endswith("_parsing") or etype in ("model_type", "list_type", "dict_type"):
            shown = err.get("input")
            msg = f"{msg.rstrip('.')}, got {_show(shown)}"
            code = f"{prefix}.type" if prefix else None
        else:
            if msg.startswith("Value error, "):
                msg = msg[len("Value error, ") :]
            elif msg.startswith("Assertion failed, "):
                msg = msg[len("Assertion failed, ") :]
        if loc:
            where = "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in loc).lstrip(".")
            msg = f"{where}: {msg}"
        d = pos.diag(loc, msg, code=code, hint=hint, prefer_key=prefer_key)
        key = (d.file, d.line, d.col, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def _show(value) -> str:
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."


def _allowed_keys(model_cls, loc: tuple) -> list[str]:
    """Field names of the model found at ``loc`` (best effort)."""
    cls = model_cls
    for part in loc:
        if isinstance(part, int):
            continue
        field = getattr(cls, "model_fields", {}).get(part)
        if field is None:
            return []
        cls = _inner_model(field.annotation)
        if cls is None:
            return []
    if isinstance(cls, type) and issubclass(cls, _base_model()):
        return list(getattr(cls, "model_fields", {}))
    return []


def _base_model() -> typing.Any:
    """pydantic's ``BaseModel``, imported when a validation error is described."""
    from pydantic import BaseModel  # noqa: PLC0415 - pydantic only when a model is validated; `daimyo catalog list` reads the cache without it

    return BaseModel


def _inner_model(ann):
    if isinstance(ann, type) and issubclass(ann, _base_model()):
        return ann
    for arg in typing.get_args(ann) or ():
        m = _inner_model(arg)
        if m is not None:
            return m
    return None
