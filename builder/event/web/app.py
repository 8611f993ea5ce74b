"""``daimyo event serve``: the players' submission page, the organiser's dashboard, the public
event page and the JSON API (its OpenAPI description at ``/openapi.json``, read at ``/docs``).

Nothing is kept in the server between requests: who is signed in is the token in a cookie or an
``Authorization: Bearer`` header, looked up (hashed) in the database on each request; a form's
CSRF token is derived from the event's secret and the signed-in token. So any number of servers
on one database serve one event.

* a submission link ``/submit?token=T`` (an organiser's ``/organiser?token=T``) sets an HttpOnly
  cookie and leaves the token out of the address;
* every form carries its CSRF token; the API takes the token as a header only (no cookie);
* request bodies over ``MAX_BODY`` are refused (413) before they are read in full; players may
  hand in a few lists a minute, and an address that keeps giving wrong tokens is slowed (429);
* every page is escaped HTML (Jinja2 autoescape) with a strict Content-Security-Policy and no
  script at all; but ``/v/CODE`` (a share code's list, with its table view, PDF and YAML), which
  is the viewer's own page (``builder.viewer.app``), with the viewer's headers.
"""

import html
import socket
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import segno
import uvicorn
from fastapi import Body, FastAPI, File, Form, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from builder import i18n
from builder.errors import DaimyoError, UsageError, option
from builder.event import day, intake, outputs
from builder.event.db import database_down
from builder.event.intake import MAX_SUBMISSION_BYTES, EventRefused, warm_up
from builder.event.seal import same
from builder.event.store import PUBLIC, Event, Who
from builder.i18n import N_, _, ngettext
from builder.limits import MAX_VIEWER_CODE_CHARS
from builder.render.book import score_name_of
from builder.safeout import json_text
from builder.viewer.app import GET, VIEWS, viewer_for
from builder.web.jsonanswer import SafeJSONResponse

MAX_BODY = MAX_SUBMISSION_BYTES + 16 * 1024  # one list file or workspace zip and the form around it
PLAYER_COOKIE, ORGANISER_COOKIE = "daimyo_event_player", "daimyo_event_organiser"
RETRY = {"retry-after": "30"}
CONFIRM = ("lock", "reveal", "remove", "player-token", "drop")  # the organiser's actions that ask again first


def confirm_texts(action: str, player: str = "") -> tuple[str, str, str]:
    """What a confirmation page says: its title, what the action does, the button that does it."""
    if action == "lock":
        return (
            _("Lock the event?"),
            _(
                "Locking takes no more lists: a player who has not handed one in, or wants to change theirs, is refused."
            ),
            _("Yes, lock: take no more lists"),
        )
    if action == "reveal":
        return (
            _("Reveal every list?"),
            _(
                "Revealing shows every player's list, verdict and secret to anyone who opens the event page. "
                "It also locks the event, and it cannot be undone."
            ),
            _("Yes, reveal every list now"),
        )
    if action == "remove":
        return (
            _("Remove {player}?").format(player=player),
            _("{player}'s link stops working at once; the lists they handed in are kept.").format(player=player),
            _("Yes, remove {player}").format(player=player),
        )
    if action == "drop":
        return (
            _("Drop {player}?").format(player=player),
            _("{player} is paired in no round from now on; the games they played are kept.").format(player=player),
            _("Yes, drop {player}").format(player=player),
        )
    return (
        _("A new link for {player}?").format(player=player),
        _("{player}'s old link stops working at once: hand them the new one.").format(player=player),
        _("Yes, make a new link for {player}").format(player=player),
    )


ROLES = {"player": N_("player"), "organiser": N_("organiser"), "public": N_("public")}
# the words of the event's state the pages show (the JSON API keeps them as they are)
WORDS = {
    "open": N_("open"),
    "locked": N_("locked"),
    "revealed": N_("revealed"),
    "in": N_("in"),
    "late": N_("late"),
    "missing": N_("missing"),
    "error": N_("error"),
    "warning": N_("warning"),
    "info": N_("info"),
    "legal": N_("legal"),
    "illegal": N_("illegal"),
}
FAVICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
    'fill="#8c2f1b"/><path d="M4 8h8M8 4v8" stroke="#fff" stroke-width="2"/></svg>'
)
HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def _language(scope: dict[str, Any]) -> str:
    """A request's language: ``?lang=`` when it names one, else the browser's ``Accept-Language``
    (the JSON API always answers in English: machine output)."""
    if scope.get("path", "").startswith("/api/"):
        return i18n.SOURCE_LANGUAGE
    asked = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"))).get("lang", "")
    if asked and i18n.normalize(asked) in {*i18n.available(), i18n.PSEUDO}:
        return i18n.normalize(asked)
    header = dict(scope.get("headers", [])).get(b"accept-language", b"").decode("latin-1")
    return i18n.language_from_header(header)


def word(value: str) -> str:
    """A word of the event's state (``open``, ``late``, ``error``...) or a role in the page's
    language (anything else, such as a player's name, as it is)."""
    known = WORDS.get(value) or ROLES.get(value)
    return _(known) if known else value


def verdict(s: dict[str, Any]) -> str:
    """A submission's verdict in the page's language, from whether it is legal and what its
    findings count (the text stored with it, as the book prints it, when they are not at hand)."""
    findings = s.get("findings")
    if "legal" not in s or findings is None:
        return str(s.get("verdict") or "")
    errs = sum(1 for f in findings if f.get("severity") == "error")
    warns = sum(1 for f in findings if f.get("severity") == "warning")
    bits = []
    if errs:
        bits.append(ngettext("{n} error", "{n} errors", errs).format(n=errs))
    if warns:
        bits.append(ngettext("{n} warning", "{n} warnings", warns).format(n=warns))
    head = _("legal") if s["legal"] else _("ILLEGAL")
    return _("{verdict} ({counts})").format(verdict=head, counts=", ".join(bits)) if bits else head


def finding_text(f: dict[str, Any]) -> str:
    """A finding's message as the event's pages show it (the findings' own words, as stored)."""
    return str(f.get("message") or "")


class Limits:
    """ASGI middleware: the security headers on every answer; bodies over ``MAX_BODY`` refused;
    each request in its language (``_language``)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return await _too_large(scope, send)
        seen = 0
        started = False

        async def limited_receive():
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    raise _BodyTooLarge()
            return msg

        async def send_with_headers(msg):
            nonlocal started
            if msg["type"] == "http.response.start":
                started = True
                own = {bytes(name).lower() for name, _value in msg.get("headers", [])}
                msg["headers"] = [*msg.get("headers", []), *(h for h in HEADERS if h[0] not in own)]
            await send(msg)

        try:
            with i18n.use(_language(scope)):
                await self.app(scope, limited_receive, send_with_headers)
        except _BodyTooLarge:
            if not started:
                await _too_large(scope, send)


class _BodyTooLarge(Exception):
    pass


async def _too_large(scope, send):
    api = scope.get("path", "").startswith("/api/")
    with i18n.use(i18n.SOURCE_LANGUAGE if api else _language(scope)):
        text = _("the request is too large: at most {n:,} bytes (hand in one list, not a collection)").format(
            n=MAX_BODY
        )
        body = (json_text({"error": text, "status": 413}) if api else _plain_page(_("Too large"), text)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json" if api else b"text/html; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _plain_page(title: str, text: str) -> str:

    lang = i18n.current_language().replace("_", "-")
    return (
        f"<!doctype html><html lang={lang}><meta charset=utf-8><title>{html.escape(title)}</title>"
        f"<link rel=stylesheet href=/style.css><main><h1>{html.escape(title)}</h1>"
        f"<p class=refused>{html.escape(text)}</p></main>"
    )


@dataclass
class EventContext:
    """What the routes of one event's app reach through ``request.app.state.context``: the event,
    its game and the templates, and the pages drawn with them."""

    ev: Event
    system: str
    env: Environment

    def page(self, name: str, status: int = 200, **ctx) -> HTMLResponse:
        info = self.ev.info()
        return HTMLResponse(self.env.get_template(name).render(event=info, **ctx), status_code=status)

    def refused_page(self, exc: EventRefused, who: Who | None = None) -> HTMLResponse:
        return self.page("refused.html", exc.status, message=exc.text(), details=getattr(exc, "details", []))

    def signed_in(self, request: Request, cookie: str, role: str) -> Who:
        token = bearer(request) or request.cookies.get(cookie)
        who = self.ev.who(token, address(request))
        if who.role != role:
            raise EventRefused(
                _("this page is the {role}'s; the token is the {holder}'s").format(
                    role=_(ROLES.get(role, role)), holder=_(ROLES.get(who.role, who.role))
                ),
                _("open your own link"),
                status=403,
            )
        return who

    def sign_in(self, request: Request, token: str, cookie: str, to: str, role: str):
        who = self.ev.who(token, address(request))
        if who.role != role:
            raise EventRefused(
                _("this link is the {role}'s; the token is the {holder}'s").format(
                    role=_(ROLES.get(role, role)), holder=_(ROLES.get(who.role, who.role))
                ),
                _("open your own link"),
                status=403,
            )
        resp = RedirectResponse(to, status_code=303)
        resp.set_cookie(
            cookie,
            token,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
            max_age=180 * 24 * 3600,
            path="/",
        )
        return resp

    def check_csrf(self, who: Who, token: str | None) -> None:
        if not token or not same(token, self.ev.csrf(who)):
            raise EventRefused(
                _("the form is out of date or from another site"), _("reload the page and try again"), status=403
            )

    def player_page(self, who: Who, result=None, refused=None, status: int = 200, text: str = "") -> Response:
        history = self.ev.history(who)
        games = [
            {**p, "opponent": p["b"] if p["a"] == who.name else p["a"], "first": p["a"] == who.name}
            for r in reversed(day.round_list(self.ev, who))
            for p in r["pairings"]
            if who.name in (p["a"], p["b"])
        ]
        return self.page(
            "submit.html",
            status,
            who=who,
            games=games,
            score_label=score_label(self.system),
            csrf=self.ev.csrf(who),
            history=history,
            shown=outputs.readable(history[0]["list"], self.system) if history else None,
            openings=self.ev.openings_of(who),
            result=result,
            refused=refused,
            text=text,
            choices=getattr(refused, "choices", []),
            max_bytes=MAX_SUBMISSION_BYTES,
            dropped=day.dropped_players(self.ev).get(who.name),
            over=day.is_over(self.ev),
        )

    def dashboard(self, who: Who, opened=None, status: int = 200) -> Response:
        board = self.ev.board(who)
        rows = board["players"]
        tally = {
            "players": sum(not r["removed"] for r in rows),
            "in": sum(r["status"] == "in" for r in rows),
            "late": sum(r["status"] == "late" for r in rows),
            "missing": sum(r["status"] == "missing" for r in rows),
            "illegal": sum(1 for r in rows if r.get("submission") and not r["submission"].get("legal")),
        }
        log = list(reversed(self.ev.audit_log(last=60)))
        return self.page(
            "organiser.html", status, who=who, csrf=self.ev.csrf(who), board=board, tally=tally, log=log, opened=opened
        )


def context(request: Request) -> EventContext:
    """The context of the event's app that got ``request``."""
    return request.app.state.context


def address(request: Request) -> str:
    return request.client.host if request.client else ""


def bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


async def on_refused(request: Request, exc: EventRefused) -> Response:
    ctx = context(request)
    if request.url.path.startswith("/api/"):
        return SafeJSONResponse(
            {"error": exc.text(), "status": exc.status, "lines": getattr(exc, "details", [])},
            status_code=exc.status,
        )
    return ctx.refused_page(exc)


async def on_database(request: Request, exc: DBAPIError) -> Response:
    """The database does not answer (PostgreSQL stopped, a network cut): 503 with a page that
    needs no database. The broken connections are dropped, so the next request, once the
    database is back, is answered as usual."""
    if not database_down(exc):
        raise exc
    text = _("the event's database cannot be reached; nothing was changed (try again in a minute)")
    if request.url.path.startswith("/api/"):
        return SafeJSONResponse({"error": text, "status": 503, "lines": []}, status_code=503, headers=RETRY)
    return HTMLResponse(_plain_page(_("Database unreachable"), text), status_code=503, headers=RETRY)


async def on_error(request: Request, exc: DaimyoError) -> Response:
    """A refusal of the library (a name given twice, a time that is not one): its line, without
    the command line's ``daimyo: error:`` before it."""
    lines = [line.removeprefix("daimyo: error: ") for line in exc.lines()]
    return await on_refused(request, EventRefused("; ".join(lines), status=400))


async def on_http(request: Request, exc: StarletteHTTPException) -> Response:
    """The web stack's own refusals (no such page, a method the address does not take, a body
    that cannot be parsed) in the event's words and shape."""
    texts = {
        404: (_("no such page here"), _("see the event page, or /docs for the API")),
        405: (
            _("this address takes no {method}").format(method=request.method),
            _("use the event's pages and forms, or see /docs"),
        ),
        400: (_("malformed request: the body cannot be read"), _('send JSON {{"list": "..."}} or the form')),
    }
    text, hint = texts.get(exc.status_code, (str(exc.detail), None))
    return await on_refused(request, EventRefused(text, hint, status=exc.status_code))


async def on_invalid(request: Request, exc: RequestValidationError) -> Response:
    bits = []
    for e in exc.errors()[:5]:
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        bits.append(f"{where or 'request'}: {e.get('msg', 'invalid')}")
    api = request.url.path.startswith("/api/")
    hint = 'send JSON {"list": "..."}' if api else _("open the page again and use its form")
    return await on_refused(
        request, EventRefused(_("malformed request: {details}").format(details="; ".join(bits)), hint, status=422)
    )


def style() -> Response:
    return Response(Path(__file__).with_name("templates").joinpath("style.css").read_text(), media_type="text/css")


def favicon() -> Response:
    return Response(FAVICON, media_type="image/svg+xml")


def home(request: Request) -> Response:
    ctx = context(request)
    return ctx.page("home.html", board=ctx.ev.board(PUBLIC), rounds=[r["round"] for r in day.round_list(ctx.ev)])


def submit_page(request: Request, token: str | None = None):
    ctx = context(request)
    if token:
        return ctx.sign_in(request, token, PLAYER_COOKIE, "/submit", "player")
    who = ctx.signed_in(request, PLAYER_COOKIE, "player")
    return ctx.player_page(who)


async def submit_form(
    request: Request,
    csrf: str = Form(""),
    text: str = Form(""),
    pick: str = Form(""),
    action: str = Form("submit"),
    upload: UploadFile | None = File(None),
):
    """Hand in a list, or (``action=check``) check it without handing it in: the text stays in
    the box either way, so that it can be fixed."""
    ctx = context(request)

    who = await run_in_threadpool(ctx.signed_in, request, PLAYER_COOKIE, "player")
    await run_in_threadpool(ctx.check_csrf, who, csrf)
    check_only = action == "check"
    try:
        if not check_only:  # locked, past the deadline, too many: before any reading
            await run_in_threadpool(ctx.ev.refuse_early, who)
        filename = upload.filename if upload is not None else None
        data = await upload.read() if upload is not None and filename else b""
        if data and text.strip():
            raise EventRefused(_("paste a list or upload a file, not both"), status=422)
        if data:  # a zip is read in a thread, its work bounded: the server answers others meanwhile
            text = await run_in_threadpool(intake.read_upload, data, filename or "", ctx.system, pick or None)
        if check_only:
            result = await run_in_threadpool(ctx.ev.check_only, who, text, address(request))
        else:
            result = await run_in_threadpool(ctx.ev.submit, who, text, "web", address(request))
    except EventRefused as exc:
        return await run_in_threadpool(
            ctx.player_page, who, refused=exc, status=exc.status, text=text if len(text) < 20000 else ""
        )
    kept = text if check_only and len(text) < 20000 else ""
    return await run_in_threadpool(ctx.player_page, who, result=result, text=kept)


def organiser_page(request: Request, token: str | None = None):
    ctx = context(request)
    if token:
        return ctx.sign_in(request, token, ORGANISER_COOKIE, "/organiser", "organiser")
    who = ctx.signed_in(request, ORGANISER_COOKIE, "organiser")
    return ctx.dashboard(who)


def organiser_open(request: Request, csrf: str = Form(""), submission: int = Form(...), reason: str = Form("")):
    ctx = context(request)
    who = ctx.signed_in(request, ORGANISER_COOKIE, "organiser")
    ctx.check_csrf(who, csrf)
    return ctx.dashboard(who, opened=ctx.ev.open_list(submission, reason, who, address(request)))


def organiser(request: Request, csrf: str) -> tuple[EventContext, Who]:
    """The context and the signed-in organiser of a posted form, its CSRF token checked."""
    ctx = context(request)
    who = ctx.signed_in(request, ORGANISER_COOKIE, "organiser")
    ctx.check_csrf(who, csrf)
    return ctx, who


def qr_svg(text: str) -> Markup:
    """A QR code of ``text`` as inline SVG (no image file, no script: the page's policy allows it)."""
    return Markup(segno.make(text, error="m", micro=False).svg_inline(scale=3, title=text))


def handout(ctx: EventContext, who: Who, people: list[tuple[str, str]], title: str) -> HTMLResponse:
    """The players' new links, each with its QR code, shown this once: to print or hand out."""
    rows = [{"name": n, "link": ctx.ev.player_link(t), "qr": qr_svg(ctx.ev.player_link(t))} for n, t in people]
    return ctx.page("handout.html", who=who, csrf=ctx.ev.csrf(who), rows=rows, title=title)


def organiser_phase(
    request: Request, action: str, csrf: str = Form(""), confirm: str = Form(""), player: str = Form("")
):
    """Lock, reveal, remove a player or give one a new link: the first press shows what it does
    and asks again (a page, no script); only the form of that page, naming the action, acts."""
    ctx, who = organiser(request, csrf)
    if action not in CONFIRM:
        raise EventRefused(_("no action '{action}'").format(action=action), status=404)
    player = " ".join(player.split())
    if action in ("remove", "player-token", "drop") and not player:
        raise EventRefused(_("name the player"), _("use the buttons of the organiser's page"), status=422)
    if confirm != action:
        title, text, button = confirm_texts(action, player)
        return ctx.page(
            "confirm.html",
            action=action,
            csrf=ctx.ev.csrf(who),
            title=title,
            text=text,
            button=button,
            player=player,
            back="/organiser/day" if action == "drop" else "/organiser",
        )
    if action == "lock":
        ctx.ev.lock(who)
    elif action == "reveal":
        ctx.ev.reveal(who)
    elif action == "remove":
        ctx.ev.remove_players([player], who)
    elif action == "drop":
        day.drop(ctx.ev, player, who)
        return RedirectResponse("/organiser/day", status_code=303)
    else:
        token = ctx.ev.new_token(player, who)
        return handout(ctx, who, [(player, token)], _("A new link for {player}").format(player=player))
    return RedirectResponse("/organiser", status_code=303)


def organiser_add(request: Request, csrf: str = Form(""), names: str = Form("")):
    """Add players, one name a line: their links and QR codes, shown this once."""
    ctx, who = organiser(request, csrf)
    wanted = [n for n in (line.strip() for line in names.splitlines()) if n]
    if not wanted:
        raise EventRefused(_("no player named"), _("write one player's name a line"), status=422)
    added = ctx.ev.add_players(wanted, who)
    return handout(ctx, who, added, _("New players: their links"))


def organiser_own_token(request: Request, csrf: str = Form(""), confirm: str = Form("")):
    """A new organiser's link: the old one stops working; this browser is signed in with the new one."""
    ctx, who = organiser(request, csrf)
    if confirm != "organiser-token":
        return ctx.page(
            "confirm.html",
            action="organiser-token",
            csrf=ctx.ev.csrf(who),
            title=_("A new organiser's link?"),
            text=_("The organiser's old link stops working at once, in every browser but this one."),
            button=_("Yes, make a new organiser's link"),
            player="",
        )
    token = ctx.ev.new_token(None, who)
    link = ctx.ev.organiser_link(token)
    resp = ctx.page("organiser_link.html", link=link, qr=qr_svg(link))
    resp.set_cookie(
        ORGANISER_COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        max_age=180 * 24 * 3600,
        path="/",
    )
    return resp


def organiser_deadline(request: Request, csrf: str = Form(""), deadline: str = Form("")) -> Response:
    ctx, who = organiser(request, csrf)
    ctx.ev.set_deadline(deadline, who)
    return RedirectResponse("/organiser", status_code=303)


def download(data: bytes | str, filename: str, media_type: str) -> Response:
    return Response(data, media_type=media_type, headers={"content-disposition": f'attachment; filename="{filename}"'})


def organiser_export(request: Request, csrf: str = Form(""), format: str = Form("csv")):
    ctx, _who = organiser(request, csrf)
    if format not in ("csv", "json"):
        raise EventRefused(_("unknown format '{format}'").format(format=format[:20]), _("use csv or json"), status=422)
    text = outputs.export_text(ctx.ev, format)
    return download(text, f"event.{format}", "text/csv" if format == "csv" else "application/json")


def organiser_backup(request: Request, csrf: str = Form("")):
    ctx, _who = organiser(request, csrf)
    with tempfile.TemporaryDirectory(prefix="daimyo-backup-") as tmp:
        out = Path(tmp) / "event-backup.json"
        outputs.backup(ctx.ev, str(out))
        data = out.read_bytes()
    return download(data, "event-backup.json", "application/json")


async def organiser_book(request: Request, csrf: str = Form(""), anonymous: str = Form(""), paper: str = Form("a4")):
    ctx, _who = await run_in_threadpool(organiser, request, csrf)
    if paper not in ("a4", "letter"):
        raise EventRefused(_("unknown paper '{paper}'").format(paper=paper[:20]), _("use a4 or letter"), status=422)
    data = await run_in_threadpool(_book_bytes, ctx, bool(anonymous), paper)
    return download(data, "book-anonymous.pdf" if anonymous else "book.pdf", "application/pdf")


def _book_bytes(ctx: EventContext, anonymous: bool, paper: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="daimyo-book-") as tmp:
        out = Path(tmp) / "book.pdf"
        outputs.write_book(ctx.ev, str(out), anonymous=anonymous, paper=paper)
        return out.read_bytes()


def _revealed(ctx: EventContext, submission_id: int) -> dict[str, Any]:
    for s in ctx.ev.revealed():
        if s["id"] == submission_id:
            return s
    raise EventRefused(_("no submission {n}").format(n=submission_id), status=404)


def revealed_list(request: Request, submission_id: int) -> Response:
    """A revealed list as a person reads it: its text, its share code and link, its PDF; the
    stored canonical JSON and its seal below, to check it by hand."""
    ctx = context(request)
    s = _revealed(ctx, submission_id)
    return ctx.page("list.html", s=s, shown=outputs.readable(s["list"], ctx.system))


async def revealed_pdf(request: Request, submission_id: int) -> Response:
    ctx = context(request)
    s = await run_in_threadpool(_revealed, ctx, submission_id)
    data = await run_in_threadpool(outputs.list_pdf, s["list"], ctx.system, s["player"])
    return Response(
        data, media_type="application/pdf", headers={"content-disposition": f'inline; filename="list-{s["id"]}.pdf"'}
    )


# -- the event's day on the pages: rounds, results, drops, standings -----------------------------


def whole(value: str, label: str, low: int = 1, high: int = 10**6) -> int:
    """A whole number posted in a form; EventRefused 422 in one line otherwise."""
    text = str(value).strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 7 and low <= int(text) <= high):
        raise EventRefused(
            _("{label}: give a whole number from {low} to {high}").format(label=label, low=low, high=high),
            status=422,
        )
    return int(text)


def score_label(system: str) -> str:
    """What a game's own score is called on the forms (victory points, casualties inflicted, a score)."""
    return score_name_of(system)


def scores(mine: str, theirs: str) -> tuple[int, int] | None:
    """Two scores posted in a form (both empty: none given)."""
    if not mine.strip() and not theirs.strip():
        return None
    if not mine.strip() or not theirs.strip():
        raise EventRefused(_("give both scores, or neither"), status=422)
    return whole(mine, _("a score"), 0, day.MAX_SCORE), whole(theirs, _("a score"), 0, day.MAX_SCORE)


def day_page(ctx: EventContext, who: Who, warnings: list[str] | None = None) -> Response:
    rounds = day.round_list(ctx.ev, who)
    standing = day.standings(ctx.ev)
    board = ctx.ev.board(who)
    dropped = {r["player"] for r in standing if r["dropped"]}
    playing = [p["player"] for p in board["players"] if not p["removed"] and p["player"] not in dropped]
    disputes = [
        (r["round"], p)
        for r in rounds
        for p in r["pairings"]
        if p["result"] and p["result"]["disputed"] and not p["result"]["confirmed_at"]
    ]
    return ctx.page(
        "day.html",
        who=who,
        csrf=ctx.ev.csrf(who),
        rounds=list(reversed(rounds)),
        standing=standing,
        settings=day.settings(ctx.ev),
        playing=playing,
        clubs={p["name"]: p.get("club") for p in ctx.ev.players() if not p["revoked"]},
        disputes=disputes,
        dropped_by=day.dropped_players(ctx.ev),
        warnings=warnings or [],
        score_label=score_label(ctx.system),
    )


def organiser_day(request: Request) -> Response:
    ctx = context(request)
    return day_page(ctx, ctx.signed_in(request, ORGANISER_COOKIE, "organiser"))


def organiser_pair(request: Request, csrf: str = Form(""), again: str = Form("")) -> Response:
    """Pair the next round, or (``again``: its number) the latest again while it has no result."""
    ctx, who = organiser(request, csrf)
    day.pair(ctx.ev, who, whole(again, _("the round"), 1, day.MAX_ROUNDS + day.MAX_TOP) if again else None)
    return RedirectResponse("/organiser/day", status_code=303)


def organiser_result(
    request: Request,
    csrf: str = Form(""),
    round: str = Form(""),
    table: str = Form(""),
    outcome: str = Form(""),
    score_a: str = Form(""),
    score_b: str = Form(""),
) -> Response:
    """The organiser enters (or corrects) a table's result: confirmed at once."""
    ctx, who = organiser(request, csrf)
    n, t = whole(round, _("the round")), whole(table, _("the table"))
    pairing = _pairing(ctx, who, n, t)
    if outcome not in ("a", "b", "draw"):
        raise EventRefused(_("choose the winner, or a draw"), status=422)
    winner = None if outcome == "draw" else pairing[outcome]
    day.enter_result(ctx.ev, who, n, t, winner=winner, draw=outcome == "draw", score=scores(score_a, score_b))
    return RedirectResponse("/organiser/day", status_code=303)


def _pairing(ctx: EventContext, who: Who, n: int, t: int) -> dict[str, Any]:
    for r in day.round_list(ctx.ev, who):
        if r["round"] == n:
            for p in r["pairings"]:
                if p["table"] == t:
                    return p
            raise EventRefused(_("round {n} has no table {table}").format(n=n, table=t), status=404)
    raise EventRefused(_("no round {n}").format(n=n), status=404)


def organiser_confirm(request: Request, csrf: str = Form(""), round: str = Form(""), table: str = Form("")) -> Response:
    ctx, who = organiser(request, csrf)
    day.confirm_result(ctx.ev, who, whole(round, _("the round")), whole(table, _("the table")))
    return RedirectResponse("/organiser/day", status_code=303)


def organiser_swap(request: Request, csrf: str = Form(""), a: str = Form(""), b: str = Form("")) -> Response:
    """Swap two players of the latest round by hand: the page then says which rules that breaks."""
    ctx, who = organiser(request, csrf)
    if not a.strip() or not b.strip():
        raise EventRefused(_("name the two players to swap"), status=422)
    _rows, warnings = day.swap(ctx.ev, a, b, who)
    return day_page(ctx, who, warnings or [_("the change breaks no pairing rule")])


def organiser_settings(
    request: Request,
    csrf: str = Form(""),
    points: str = Form(""),
    tiebreaks: str = Form(""),
    avoid_club: str = Form(""),
    fresh_tables: str = Form(""),
    first_round: str = Form("random"),
    swiss_rounds: str = Form(""),
    top: str = Form(""),
) -> Response:
    """How the day is run: the points, the tiebreaks, the pairing rules, a cut after the Swiss rounds."""
    ctx, who = organiser(request, csrf)
    change: dict[str, Any] = {
        "points": points.strip() or None,
        "tiebreaks": tiebreaks.strip() or None,
        "avoid_club": bool(avoid_club),
        "fresh_tables": bool(fresh_tables),
        "first_round": first_round,
        "swiss_rounds": whole(swiss_rounds, _("Swiss rounds"), 1, day.MAX_ROUNDS) if swiss_rounds.strip() else None,
        "top": whole(top, _("the cut"), 0, day.MAX_TOP) if top.strip() else None,
    }
    day.set_settings(ctx.ev, change, who)
    return RedirectResponse("/organiser/day", status_code=303)


def organiser_club(request: Request, csrf: str = Form(""), player: str = Form(""), club: str = Form("")) -> Response:
    ctx, who = organiser(request, csrf)
    if not player.strip():
        raise EventRefused(_("name the player"), status=422)
    day.set_club(ctx.ev, player, club, who)
    return RedirectResponse("/organiser/day", status_code=303)


def pairings_sheet(request: Request, number: int) -> Response:
    """A round's pairings, to print and pin up: anyone may read them."""
    ctx = context(request)
    for r in day.round_list(ctx.ev):
        if r["round"] == number:
            return ctx.page("sheet.html", r=r, score_label=score_label(ctx.system))
    raise EventRefused(_("no round {n}").format(n=number), status=404)


def standings_page(request: Request) -> Response:
    """The standings, to print: anyone may read them."""
    ctx = context(request)
    rounds = day.round_list(ctx.ev)
    pending = sum(
        1 for r in rounds for p in r["pairings"] if p["b"] is not None and not (p["result"] or {}).get("confirmed_at")
    )
    return ctx.page(
        "standings.html",
        standing=day.standings(ctx.ev),
        settings=day.settings(ctx.ev),
        rounds=len(rounds),
        pending=pending,
    )


def player_game(ctx: EventContext, who: Who, n: int, t: int) -> dict[str, Any]:
    """The player's own table of round ``n``; EventRefused when it is not theirs."""
    p = _pairing(ctx, who, n, t)
    if who.name not in (p["a"], p["b"]):
        raise EventRefused(_("you do not play at this table"), _("enter the result of your own game"), status=403)
    return p


def player_result(
    request: Request,
    csrf: str = Form(""),
    round: str = Form(""),
    table: str = Form(""),
    outcome: str = Form(""),
    mine: str = Form(""),
    theirs: str = Form(""),
) -> Response:
    """A player enters their game's result: they won, their opponent won, or a draw, and the
    game's own scores; it waits for the opponent (or the organiser) to confirm it."""
    ctx = context(request)
    who = ctx.signed_in(request, PLAYER_COOKIE, "player")
    ctx.check_csrf(who, csrf)
    n, t = whole(round, _("the round")), whole(table, _("the table"))
    p = player_game(ctx, who, n, t)
    opponent = p["b"] if p["a"] == who.name else p["a"]
    if outcome not in ("me", "opponent", "draw"):
        raise EventRefused(_("choose who won, or a draw"), status=422)
    given = scores(mine, theirs)
    score = None if given is None else (given if p["a"] == who.name else (given[1], given[0]))
    winner = {"me": who.name, "opponent": opponent, "draw": None}[outcome]
    day.enter_result(ctx.ev, who, n, t, winner=winner, draw=outcome == "draw", score=score)
    return RedirectResponse("/submit", status_code=303)


def player_confirm(
    request: Request, csrf: str = Form(""), round: str = Form(""), table: str = Form(""), reason: str = Form("")
) -> Response:
    """A player confirms the result their opponent entered, or (with a reason) disputes it."""
    ctx = context(request)
    who = ctx.signed_in(request, PLAYER_COOKIE, "player")
    ctx.check_csrf(who, csrf)
    n, t = whole(round, _("the round")), whole(table, _("the table"))
    player_game(ctx, who, n, t)
    if request.url.path.endswith("/dispute"):
        day.dispute_result(ctx.ev, who, n, t, reason)
    else:
        day.confirm_result(ctx.ev, who, n, t)
    return RedirectResponse("/submit", status_code=303)


def player_drop(request: Request, csrf: str = Form(""), confirm: str = Form(""), player: str = Form("")) -> Response:
    """A player drops themselves from the event: the first press shows what it does and asks
    again (a page, no script); only the form of that page acts. Recorded as the player's own."""
    ctx = context(request)
    who = ctx.signed_in(request, PLAYER_COOKIE, "player")
    ctx.check_csrf(who, csrf)
    if player.strip() and " ".join(player.split()) != who.name:
        raise EventRefused(_("a player drops only themselves"), _("the organiser drops other players"), status=403)
    if confirm != "drop":
        day.check_drop(ctx.ev, who.name, who)  # refused now, not after the confirmation
        return ctx.page(
            "confirm.html",
            action="drop",
            post_to="/submit/drop",
            csrf=ctx.ev.csrf(who),
            title=_("Drop from the event?"),
            text=_(
                "You are paired in no round from now on; the games you played are kept. A round being "
                "played is not changed: play your game in it and enter its result. It cannot be undone."
            ),
            button=_("Yes, drop me from the event"),
            player="",
            back="/submit",
            cancel=_("Cancel: back to your page"),
        )
    day.drop(ctx.ev, who.name, who)
    return RedirectResponse("/submit", status_code=303)


def docs(request: Request) -> Response:
    ctx = context(request)
    spec = request.app.openapi()
    ops = [
        {"method": m.upper(), "path": p, "summary": o.get("summary", ""), "description": o.get("description", "")}
        for p, methods in spec["paths"].items()
        for m, o in methods.items()
    ]
    return ctx.page("docs.html", ops=ops, spec=spec)


def api_event(request: Request):
    """Everyone sees each player's status and latest commitment; the organiser also their verdicts,
    totals, fingerprints and findings' codes; a player also their own list. After the reveal every
    list is public."""
    ctx = context(request)
    token = bearer(request)
    return ctx.ev.board(ctx.ev.who(token, address(request)) if token else PUBLIC)


def api_submit(request: Request, payload: dict = Body(..., examples=[{"list": "DMY1-..."}])):
    """``{"list": TEXT}``: a share code or a list in any share format. Each submission is a new
    version; the latest counts. 401 no token, 403 not a player's token, 409 locked or past the
    deadline, 413 too large, 422 not a list of the event's game, 429 too many at once."""
    ctx = context(request)
    who = ctx.ev.who(bearer(request), address(request))
    text = payload.get("list")
    if not isinstance(text, str):
        raise EventRefused(
            "malformed request: 'list' must be the list as text", 'send JSON {"list": "..."}', status=422
        )
    return ctx.ev.submit(who, text, "api", address(request))


def api_history(request: Request):
    ctx = context(request)
    who = ctx.ev.who(bearer(request), address(request))
    if who.role != "player":
        raise EventRefused("only a player has submissions; the organiser reads /api/event", status=403)
    return {"player": who.name, "submissions": ctx.ev.history(who), "opened": ctx.ev.openings_of(who)}


def api_open(request: Request, submission_id: int, payload: dict = Body(..., examples=[{"reason": "judge call"}])):
    ctx = context(request)
    who = ctx.ev.who(bearer(request), address(request))
    reason = payload.get("reason", "")
    if not isinstance(reason, str):
        raise EventRefused("malformed request: 'reason' must be text", 'send JSON {"reason": "..."}', status=422)
    return ctx.ev.open_list(submission_id, reason, who, address(request))


def api_lock(request: Request):
    ctx = context(request)
    return {"phase": ctx.ev.lock(ctx.ev.who(bearer(request), address(request)))}


def api_reveal_now(request: Request):
    ctx = context(request)
    return {"phase": ctx.ev.reveal(ctx.ev.who(bearer(request), address(request)))}


def api_revealed(request: Request):
    """What ``daimyo event verify URL`` checks: each submission's list, pack hashes, secret and commitment."""
    ctx = context(request)
    info = ctx.ev.info()
    return {"event": {k: info[k] for k in ("id", "name", "system")}, "submissions": ctx.ev.revealed()}


def api_audit(request: Request):
    ctx = context(request)
    who = ctx.ev.who(bearer(request), address(request))
    if who.role != "organiser":
        raise EventRefused("the audit log is the organiser's", status=403)
    return {"audit": ctx.ev.audit_log()}


# -- the event's day: rounds, results, drops, standings (the JSON API; the pages call the same library)


def _signed(request: Request) -> Who:
    ctx = context(request)
    return ctx.ev.who(bearer(request), address(request))


def _field(payload: dict[str, Any], key: str, kind: type, required: bool = False) -> Any:
    """A field of a JSON body, of ``kind``; EventRefused 422 in one line otherwise."""
    value = payload.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise EventRefused(
            i18n._("malformed request: '{key}' must be {kind}").format(
                key=key, kind={str: "text", int: "a whole number", bool: "true or false"}.get(kind, kind.__name__)
            ),
            status=422,
        )
    return value


def api_rounds(request: Request) -> Any:
    """Every round with its pairings and results (a dispute's reason: the organiser and the table's
    players)."""
    ctx = context(request)
    token = bearer(request)
    return {"rounds": day.round_list(ctx.ev, ctx.ev.who(token, address(request)) if token else None)}


def api_pair(request: Request, payload: dict[str, Any] = Body(default={}, examples=[{}, {"round": 2}])) -> Any:
    """The organiser pairs the next round (``{}``), or the latest again while it has no result
    (``{"round": N}``)."""
    ctx = context(request)
    return day.pair(ctx.ev, _signed(request), _field(payload, "round", int))


def api_swap(
    request: Request, number: int, payload: dict[str, Any] = Body(..., examples=[{"a": "Aiko", "b": "Bo"}])
) -> Any:
    """The organiser swaps two players of a round: its pairings and what rules the change breaks."""
    ctx = context(request)
    rows, warnings = day.swap(
        ctx.ev, _field(payload, "a", str, True), _field(payload, "b", str, True), _signed(request), number
    )
    return {"pairings": rows, "warnings": warnings}


def api_result(
    request: Request,
    number: int,
    table: int,
    payload: dict[str, Any] = Body(..., examples=[{"winner": "Aiko", "score": "12:5"}, {"draw": True}]),
) -> Any:
    """A player of the table (or the organiser) enters its result: ``winner`` (a name) or ``draw``,
    and ``score`` ``"A:B"`` (the table's first player's first). A player's waits for the opponent's
    confirmation; the organiser's is confirmed at once."""
    ctx = context(request)
    score = payload.get("score")
    if (
        isinstance(score, list)
        and len(score) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in score)
    ):
        score = f"{score[0]}:{score[1]}"
    elif score is not None and not isinstance(score, str):
        raise EventRefused(i18n._("malformed request: 'score' must be \"A:B\""), status=422)
    return day.enter_result(
        ctx.ev,
        _signed(request),
        number,
        table,
        winner=_field(payload, "winner", str),
        draw=bool(_field(payload, "draw", bool)),
        score=score,
    )


def api_confirm(request: Request, number: int, table: int) -> Any:
    """The opponent of the player who entered the result (or the organiser) confirms it."""
    return day.confirm_result(context(request).ev, _signed(request), number, table)


def api_dispute(
    request: Request, number: int, table: int, payload: dict[str, Any] = Body(..., examples=[{"reason": "I won"}])
) -> Any:
    """The opponent says the entered result is wrong, and why: the organiser is shown it."""
    ctx = context(request)
    return day.dispute_result(ctx.ev, _signed(request), number, table, _field(payload, "reason", str, True))


def api_drop(request: Request, payload: dict[str, Any] = Body(..., examples=[{"player": "Aiko"}])) -> Any:
    """The organiser (or the player themselves) drops a player from the rounds paired from now on."""
    ctx = context(request)
    return day.drop(ctx.ev, _field(payload, "player", str, True), _signed(request))


def api_standings(request: Request) -> Any:
    """The standings: points, then the event's tiebreaks, from the confirmed results."""
    ctx = context(request)
    return {"standings": day.standings(ctx.ev), "settings": day.settings(ctx.ev).as_dict()}


def api_day_settings(
    request: Request, payload: dict[str, Any] = Body(..., examples=[{"points": "3/1/0/3", "avoid_club": True}])
) -> Any:
    """The organiser changes how the day is run: ``points`` ("W/D/L/B"), ``tiebreaks`` ("sos,esos,..."),
    ``avoid_club``, ``fresh_tables``, ``first_round`` (random or seeded), ``seed_order`` (names),
    ``seed``, ``swiss_rounds``, ``top``."""
    ctx = context(request)
    kinds = {
        "points": str,
        "tiebreaks": str,
        "avoid_club": bool,
        "fresh_tables": bool,
        "first_round": str,
        "seed_order": list,
        "seed": str,
        "swiss_rounds": int,
        "top": int,
    }
    odd = sorted(set(payload) - set(kinds))
    if odd:
        raise EventRefused(
            i18n._("no setting '{key}'").format(key=odd[0]),
            i18n._("choose from {keys}").format(keys=", ".join(kinds)),
            status=422,
        )
    change = {k: _field(payload, k, kind) for k, kind in kinds.items()}
    return day.set_settings(ctx.ev, change, _signed(request)).as_dict()


def api_changes(request: Request) -> Any:
    """Every change to the rounds, results and drops: who, when, what (the organiser's token)."""
    ctx = context(request)
    if _signed(request).role != "organiser":
        raise EventRefused(i18n._("the change log is the organiser's"), status=403)
    return {"changes": day.change_log(ctx.ev)}


def create_app(folder: str | Path):
    """The event server's app for the event of ``folder``."""
    ev = Event.open(folder, migrate=True, pooled=True)
    system = ev.info()["system"]
    warm_up(system)
    env = Environment(
        loader=FileSystemLoader(str(Path(__file__).with_name("templates"))), autoescape=select_autoescape(["html"])
    )
    i18n.install_jinja(env)  # {% trans %}, _() and the current language
    env.filters["word"] = word
    env.globals.update(verdict=verdict, finding_text=finding_text, max_viewer_code=MAX_VIEWER_CODE_CHARS)
    app = FastAPI(
        default_response_class=SafeJSONResponse,
        title="daimyo event",
        version="1",
        description="Hand in lists to an event, sealed until the reveal. Send the player's or "
        "organiser's token as 'Authorization: Bearer TOKEN'.",
        docs_url=None,
        redoc_url=None,
    )
    app.state.context = EventContext(ev, system, env)
    _add_routes(app)
    return Limits(app)


def _add_routes(app: FastAPI) -> None:
    """The error answers, the pages and the JSON API, in the order they are matched."""
    app.exception_handler(EventRefused)(on_refused)
    app.exception_handler(DBAPIError)(on_database)
    app.exception_handler(DaimyoError)(on_error)
    app.exception_handler(StarletteHTTPException)(on_http)
    app.exception_handler(RequestValidationError)(on_invalid)
    app.get("/style.css", include_in_schema=False)(style)
    app.get("/favicon.ico", include_in_schema=False)(favicon)
    app.get("/", response_class=HTMLResponse, include_in_schema=False)(home)
    app.get("/submit", response_class=HTMLResponse, include_in_schema=False)(submit_page)
    app.post("/submit", response_class=HTMLResponse, include_in_schema=False)(submit_form)
    app.get("/organiser", response_class=HTMLResponse, include_in_schema=False)(organiser_page)
    app.post("/organiser/open", response_class=HTMLResponse, include_in_schema=False)(organiser_open)
    app.post("/organiser/players", response_class=HTMLResponse, include_in_schema=False)(organiser_add)
    app.post("/organiser/organiser-token", response_class=HTMLResponse, include_in_schema=False)(organiser_own_token)
    app.post("/organiser/deadline", include_in_schema=False)(organiser_deadline)
    app.post("/organiser/export", include_in_schema=False)(organiser_export)
    app.post("/organiser/backup", include_in_schema=False)(organiser_backup)
    app.post("/organiser/book", include_in_schema=False)(organiser_book)
    app.get("/organiser/day", response_class=HTMLResponse, include_in_schema=False)(organiser_day)
    app.post("/organiser/pair", include_in_schema=False)(organiser_pair)
    app.post("/organiser/result", include_in_schema=False)(organiser_result)
    app.post("/organiser/confirm-result", include_in_schema=False)(organiser_confirm)
    app.post("/organiser/swap", response_class=HTMLResponse, include_in_schema=False)(organiser_swap)
    app.post("/organiser/settings", include_in_schema=False)(organiser_settings)
    app.post("/organiser/club", include_in_schema=False)(organiser_club)
    app.post("/organiser/{action}", include_in_schema=False)(organiser_phase)
    app.get("/rounds/{number}", response_class=HTMLResponse, include_in_schema=False)(pairings_sheet)
    app.get("/standings", response_class=HTMLResponse, include_in_schema=False)(standings_page)
    app.post("/submit/result", include_in_schema=False)(player_result)
    app.post("/submit/confirm", include_in_schema=False)(player_confirm)
    app.post("/submit/dispute", include_in_schema=False)(player_confirm)
    app.post("/submit/drop", include_in_schema=False)(player_drop)
    app.get("/lists/{submission_id}", response_class=HTMLResponse, include_in_schema=False)(revealed_list)
    app.get("/lists/{submission_id}/list.pdf", include_in_schema=False)(revealed_pdf)
    view = viewer_for(base=None, configured=False)  # links to the address each request came to
    for tail, kind in VIEWS:  # a share code's list: the viewer's own pages
        app.api_route("/v/{code}" + tail, methods=GET, include_in_schema=False)(view.route(kind))
    app.get("/docs", response_class=HTMLResponse, include_in_schema=False)(docs)
    app.get("/api/event", tags=["event"], summary=N_("The event and its players, as the token's holder may see them"))(
        api_event
    )
    app.post(
        "/api/submissions",
        tags=["players"],
        status_code=201,
        summary=N_("Hand in a list (the player's token); its verdict, findings and commitment"),
    )(api_submit)
    app.get("/api/submissions", tags=["players"], summary=N_("The player's own submissions, newest first"))(api_history)
    app.post(
        "/api/submissions/{submission_id}/open",
        tags=["organiser"],
        summary=N_("Open one list before the reveal (logged and shown to its player)"),
    )(api_open)
    app.post("/api/lock", tags=["organiser"], summary=N_("Take no more lists"))(api_lock)
    app.post("/api/reveal", tags=["organiser"], summary=N_("Reveal every list with its secret"))(api_reveal_now)
    app.get("/api/reveal", tags=["event"], summary=N_("After the reveal: every submission with its list and secret"))(
        api_revealed
    )
    app.get("/api/audit", tags=["organiser"], summary=N_("The audit log (the organiser's token)"))(api_audit)
    app.get("/api/rounds", tags=["rounds"], summary="Every round's pairings and results")(api_rounds)
    app.post("/api/rounds", tags=["rounds"], summary="Pair the next round (the organiser's token)")(api_pair)
    app.post("/api/rounds/{number}/swap", tags=["rounds"], summary="Swap two players of a round by hand")(api_swap)
    app.post("/api/rounds/{number}/tables/{table}/result", tags=["rounds"], summary="Enter a game's result")(api_result)
    app.post("/api/rounds/{number}/tables/{table}/confirm", tags=["rounds"], summary="Confirm the opponent's result")(
        api_confirm
    )
    app.post("/api/rounds/{number}/tables/{table}/dispute", tags=["rounds"], summary="Dispute the opponent's result")(
        api_dispute
    )
    app.post("/api/drops", tags=["rounds"], summary="Drop a player from the rounds to come")(api_drop)
    app.get("/api/standings", tags=["rounds"], summary="The standings with the event's tiebreaks")(api_standings)
    app.post("/api/settings", tags=["organiser"], summary="How the day is run: points, tiebreaks, pairing")(
        api_day_settings
    )
    app.get("/api/changes", tags=["organiser"], summary="The change log of the day (the organiser's token)")(
        api_changes
    )


def serve(folder, host: str, port: int, echo) -> None:

    app = create_app(folder)
    ev = Event.open(folder)
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}", f"give another {option('port')}") from None
    real = sock.getsockname()[1]
    info = ev.info()
    echo(f"daimyo event: '{info['name']}' ({info['system']}, {info['phase']}) on http://{host}:{real}")
    echo("players open their own links; the organiser the address 'daimyo event new' printed")
    echo("press Ctrl-C to stop", err=False)
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    echo("daimyo event: stopped")
