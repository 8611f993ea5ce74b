"""What the web app's route modules share: an error's status and message, a posted form, the
redirect after a post and a list's view. Kept below ``builder.web.app`` so that the route
modules it registers (analytics, compare, packs, pack editor) need not import the app back."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qsl, quote

from fastapi import Request
from fastapi.responses import RedirectResponse, Response

from builder.errors import DaimyoError, ListError
from builder.i18n import _
from builder.web.editing import Editor
from builder.web.views import list_view
from builder.web.workspace import Refused, Workspace
from builder.yamlio import read_text


def describe(exc: Exception) -> tuple[int, str, list[str]]:
    """(HTTP status, message, further lines) of an error, as the pages and the API answer it."""
    if isinstance(exc, Refused):
        return exc.status, exc.message + (f" ({exc.hint})" if exc.hint else ""), []
    if isinstance(exc, DaimyoError):
        lines = [line.removeprefix("daimyo: error: ") for line in exc.lines()]
        status = 422 if isinstance(exc, ListError) else 400
        return status, lines[0] if lines else "bad input", lines[1:]
    return 500, f"{type(exc).__name__}", []


MAX_FIELDS = 1000  # fields of one posted form


async def read_form(request: Request, multi: tuple[str, ...] = ()) -> dict:
    """The fields of a posted form (the last value of each; a list of values for ``multi``).

    A URL-encoded form (what the pages and htmx send) is read straight from the body, already
    read whole by the guard in front of the app; others (files) go through the framework's
    parser."""
    out: dict = {k: [] for k in multi}
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        body = (await request.body()).decode("utf-8")  # not UTF-8: refused (400) by the app's handler
        try:
            items = parse_qsl(body, keep_blank_values=True, max_num_fields=MAX_FIELDS)
        except ValueError:
            raise Refused(_("a form of more than {n} fields").format(n=MAX_FIELDS)) from None
    else:
        items = [(k, v) for k, v in (await request.form()).multi_items() if isinstance(v, str)]
    for k, v in items:
        if k in multi:
            out[k].append(v)
        else:
            out[k] = v
    return out


def redirect(request: Request, url: str):
    """The answer after a post: an htmx redirect for htmx, a 303 to ``url`` otherwise."""
    if request.headers.get("hx-request") == "true":
        return Response(status_code=204, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)


def load_view(
    ws: Workspace,
    path: str,
    editor: Editor | None = None,
    text: str | None = None,
    known: tuple | None = None,
    checked: Path | None = None,
):
    """(doc, catalog, result, view) of a list; the editor's state of the same text is reused.
    ``text``: the list's text as the editor has just written it (not read again); ``known``: its
    doc, catalog and check result as the editor has them (not looked up again); ``checked``: the
    list's file as the editor resolved it, with the packs of ``known`` checked (``Outcome.path``)."""

    rel = ws.clean(path)
    if checked is not None and known is not None and text is not None:
        p = checked  # resolved and its packs checked by the change just made
    else:
        p = ws.resolve(path)
        if text is None:
            text = read_text(p, display=rel)
        if known is None and editor is not None:
            known = editor.known(rel, text)
        ws.check_packs(p, text, known[0] if known else None)
    doc, catalog, res, view = list_view(rel, p, text, known)
    if editor is not None and known is None:
        editor.remember(rel, text, doc, catalog, res)
    return doc, catalog, res, view


def attachment(name: str) -> str:
    """The ``Content-Disposition`` of a download named ``name``: in plain ASCII (any other
    character as '_') for old clients, and in full (``filename*``, RFC 6266) for the others; a
    name of any letters never fails the answer."""

    plain = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in name)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


__all__ = ["MAX_FIELDS", "attachment", "describe", "load_view", "read_form", "redirect"]
