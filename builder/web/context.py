"""What every route of an app reaches through ``request.app.state.context``: the workspace, its
edit session, the templates, the PDF cache, and the page and error answers drawn with them.

``create_app`` builds one :class:`AppContext` per app; the route functions are plain module-level
functions (``routes_pages``, ``routes_api`` and the other route modules) that find it from the
request, so that one function serves every app of the process."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from builder.web.common import describe
from builder.web.editing import Conflict, Editor
from builder.web.jsonanswer import SafeJSONResponse
from builder.web.printing import PdfCache
from builder.web.workspace import Workspace

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "object-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


@dataclass
class AppContext:
    """One app's workspace, edit session, templates and drawn PDFs."""

    ws: Workspace
    editor: Editor
    templates: Jinja2Templates
    pdfs: PdfCache

    def page(self, request: Request, name: str, status: int = 200, **ctx) -> HTMLResponse:
        # drawn here, in the thread the route runs in, rather than by the framework's template
        # response (which draws in the same way and then passes the template to test clients)
        html = self.templates.env.get_template(name).render(request=request, workspace=self.ws.root.name, **ctx)
        return HTMLResponse(
            html, status_code=status, headers={"Content-Security-Policy": CSP, "Cache-Control": "no-store"}
        )

    def failure(self, request: Request, exc: Exception):
        """An error as the pages (a whole page, or a flash for htmx) and the API (JSON) answer it."""
        status, message, lines = describe(exc)
        if request.url.path.startswith("/api/"):
            return SafeJSONResponse({"error": message, "details": lines}, status_code=status)
        if is_htmx(request):
            resp = self.page(
                request, "_flash.html", status=status, message=message, lines=lines, conflict=isinstance(exc, Conflict)
            )
            resp.headers["X-Daimyo-Flash"] = "1"  # app.js shows it in #flash, whatever asked
            return resp
        return self.page(request, "error.html", status=status, message=message, lines=lines)


def context(request: Request) -> AppContext:
    """The context of the app that got ``request``."""
    return request.app.state.context


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


async def off_loop(fn, *args):
    """Run blocking work (reading, checking, writing lists) in a worker thread: the event loop
    keeps answering every other request meanwhile."""
    return await run_in_threadpool(fn, *args)
