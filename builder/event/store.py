"""Every action on an event, on its database. The library behind ``daimyo event``.

``Event.open(folder)`` reads the folder's ``event.json`` and connects to the event's database;
each method is one transaction, so several processes (``daimyo event serve`` twice on one
PostgreSQL) can act on one event at once. Every action that changes something, and every
opening of a list before the reveal, is written to the audit log in the same transaction.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import urllib.parse
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from builder import yamlio
from builder.errors import DaimyoError, UsageError, command_line, option
from builder.event import db
from builder.event.db import audit, events, openings, players, submissions
from builder.event.intake import Checked, EventRefused, check_submission, findings_json, setting_key
from builder.event.seal import commitment, csrf_token, new_secret, new_token, token_hash
from builder.i18n import _
from builder.systems import find_system

CONFIG = "event.json"
DEFAULT_PORT = 8770
MAX_PLAYERS_NAME = 80
SUBMISSIONS_PER_MINUTE = 12  # per player: resubmitting to fix a list, not a flood
CHECKS_PER_MINUTE = 30  # per player: lists checked without handing them in (each a row of the audit log)
FAILED_SIGNINS_PER_MINUTE = 30  # per address: guessing tokens is pointless, and slowed further


@dataclass
class Who:
    """Who a request or command acts as: the organiser, a player, or the public."""

    role: str  # organiser, player, public
    name: str = ""
    player_id: int | None = None
    token_hash: str = ""

    @property
    def actor(self) -> str:
        return (
            "organiser" if self.role == "organiser" else (f"player {self.name}" if self.role == "player" else self.role)
        )


PUBLIC = Who("public")
CLI = Who("organiser", "cli")


def _time_option(text: str | None, label: str) -> str | None:
    if text is None or not str(text).strip():
        return None
    try:
        return db.stamp(db.parse_time(str(text)))
    except (ValueError, OverflowError):  # not a time, or one past the years a time can hold in UTC
        raise UsageError(
            f"{label}: '{text}' is not a time", "write it as ISO 8601, e.g. 2026-12-05T18:00+01:00"
        ) from None


def read_config(folder: str | os.PathLike) -> dict:
    path = Path(folder) / CONFIG
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(
            f"{folder}: no event here (no {CONFIG})",
            command_line(f"create one with 'daimyo event new {folder} --name ...'"),
        ) from None
    except (OSError, ValueError, RecursionError) as exc:
        raise UsageError(
            f"{path}: not an event file: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
        ) from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("event"), str)
        or not isinstance(data.get("database"), str)
    ):
        raise UsageError(f"{path}: not an event file (it needs 'event' and 'database')")
    return data


class Event:
    """One event on its database."""

    def __init__(self, engine, event_id: str, folder: Path | None = None):
        self.engine, self.id, self.folder = engine, event_id, folder

    # -- opening and creating ------------------------------------------------------------

    @classmethod
    def open(cls, folder: str | os.PathLike, migrate: bool = False, pooled: bool = False) -> Event:
        """The event of ``folder``; ``pooled``: keep connections open between uses (a server)."""
        cfg = read_config(folder)
        url = db.check_url(cfg["database"], f"{Path(folder) / CONFIG}: database")
        sqlite = db.sqlite_path(url)
        if sqlite is not None and not sqlite.exists():  # never made anew, empty, in its place
            raise UsageError(
                f"{folder}: the event's database {sqlite} is missing",
                "restore it from a backup with 'daimyo event restore', or put the file back",
            )
        engine = db.make_engine(url, pooled)
        ev = cls(engine, cfg["event"], Path(folder))
        try:
            if migrate or db.current_revision(engine) != db.head_revision():
                db.migrate(engine)
            row = ev.row()
        except SQLAlchemyError as exc:
            engine.dispose()
            raise db.db_error(exc, cfg["database"]) from None
        if row is None:
            raise UsageError(
                f"{folder}: event {cfg['event']} is not in its database",
                "restore it with 'daimyo event restore' or create it again",
            )
        return ev

    @classmethod
    def create(
        cls,
        folder: str | os.PathLike,
        name: str,
        system: str,
        settings: dict | None = None,
        deadline: str | None = None,
        reveal: str | None = None,
        database: str | None = None,
        url: str | None = None,
    ) -> tuple[Event, str]:
        """A new event in ``folder`` (created; it must hold no event yet). Returns the event and
        the organiser's token, shown this once."""
        folder = Path(folder)
        check_new_folder(folder)
        if database is not None:
            db.check_url(database)
        if not name.strip() or len(name) > 200:
            raise UsageError(f"{option('name')}: give the event a name of 1 to 200 characters")
        game = find_system(system)

        settings = {setting_key(game.id, k): v for k, v in (settings or {}).items()}
        dl, rv = _time_option(deadline, option("deadline")), _time_option(reveal, option("reveal"))
        if dl and rv and rv < dl:
            raise UsageError(
                f"{option('reveal')} is before {option('deadline')}", "lists are revealed after they are all in"
            )
        base = (url or f"http://127.0.0.1:{DEFAULT_PORT}").rstrip("/")
        _check_base_url(base)
        url_db = database or db.sqlite_url(folder)
        event_id = secrets.token_hex(8)
        token = new_token()
        with new_event_files(folder, url_db, event_id) as engine, engine.begin() as conn:
            conn.execute(
                insert(events).values(
                    id=event_id,
                    name=name.strip(),
                    system=game.id,
                    settings=json.dumps(settings),
                    deadline=dl,
                    reveal_at=rv,
                    state="open",
                    created=db.now(),
                    secret=new_secret(),
                    organiser_hash=token_hash(token),
                    base_url=base,
                )
            )
            log_action(conn, event_id, "cli", "event-created", f"{name.strip()} ({game.id})")
            write_config(folder, event_id, url_db)
        return cls(db.make_engine(url_db, pooled=False), event_id, folder), token

    # -- reading -------------------------------------------------------------------------

    def row(self, conn=None):
        if conn is None:
            with self.engine.connect() as c:
                return self.row(c)
        return conn.execute(select(events).where(events.c.id == self.id)).mappings().first()

    def info(self, conn=None) -> dict:
        r = dict(self.row(conn))
        r["settings"] = json.loads(r["settings"])
        r["phase"] = self.phase(r)
        return r

    @staticmethod
    def phase(r) -> str:
        """open, locked or revealed: a reveal time that has passed reveals (and so locks)."""
        if r["state"] == "revealed" or (r["reveal_at"] and db.now() >= r["reveal_at"]):
            return "revealed"
        return "locked" if r["state"] == "locked" else "open"

    def organiser_link(self, token: str) -> str:
        return f"{self.row()['base_url']}/organiser?token={token}"

    def player_link(self, token: str) -> str:
        return f"{self.row()['base_url']}/submit?token={token}"

    def who(self, token: str | None, address: str = "") -> Who:
        """The organiser or the player a token signs in; EventRefused 401/403 otherwise."""
        if not token:
            raise EventRefused(
                _("no token"), _("open the link you were given, or send 'Authorization: Bearer TOKEN'"), status=401
            )
        h = token_hash(token)
        with self.engine.connect() as conn:
            org = conn.execute(select(events.c.organiser_hash).where(events.c.id == self.id)).scalar()
            if secrets.compare_digest(org, h):
                return Who("organiser", "organiser", None, h)
            p = (
                conn.execute(select(players).where(players.c.token_hash == h, players.c.event_id == self.id))
                .mappings()
                .first()
            )
            if p is not None and p["revoked"] is None:
                return Who("player", p["name"], p["id"], h)
        with self.engine.begin() as conn:
            failed = conn.execute(
                select(func.count())
                .select_from(audit)
                .where(
                    audit.c.event_id == self.id,
                    audit.c.action == "sign-in-refused",
                    audit.c.address == address,
                    audit.c.at >= db.stamp(datetime.now(UTC) - timedelta(minutes=1)),
                )
            ).scalar()
            if failed >= FAILED_SIGNINS_PER_MINUTE:  # refused without a row more: a flood fills no log
                raise EventRefused(_("too many refused tokens from this address"), _("wait a minute"), status=429)
            log_action(
                conn,
                self.id,
                "public",
                "sign-in-refused",
                "revoked token" if p is not None else "unknown token",
                address,
            )
        if p is not None:
            raise EventRefused(_("this token was revoked"), _("ask the organiser for a new link"), status=403)
        raise EventRefused(_("this token is not one of this event's"), _("open the link you were given"), status=403)

    def csrf(self, who: Who) -> str:
        return csrf_token(self.row()["secret"], who.token_hash)

    # -- players -------------------------------------------------------------------------

    def add_players(self, names: list[str], who: Who = CLI) -> list[tuple[str, str]]:
        """New players, each with a new token: ``[(name, token)]``, the tokens shown this once."""
        clean = []
        for n in names:
            n = clean_text(str(n))
            if not n or len(n) > MAX_PLAYERS_NAME:
                raise UsageError(f"player name '{n[:40]}': give 1 to {MAX_PLAYERS_NAME} characters")
            if n in clean:
                raise UsageError(f"player '{n}' is given twice")
            clean.append(n)
        out = []
        with self.engine.begin() as conn:
            have = {
                r
                for r in conn.execute(
                    select(players.c.name).where(players.c.event_id == self.id, players.c.revoked.is_(None))
                ).scalars()
            }
            for n in clean:
                if n in have:
                    raise UsageError(
                        f"player '{n}' is in the event already",
                        f"give another name, or {option('remove')} the player first",
                    )
                token = new_token()
                conn.execute(
                    insert(players).values(event_id=self.id, name=n, token_hash=token_hash(token), created=db.now())
                )
                log_action(conn, self.id, who.actor, "player-added", n)
                out.append((n, token))
        return out

    def remove_players(self, names: list[str], who: Who = CLI) -> None:
        """Revoke the players' tokens; their submissions are kept."""
        with self.engine.begin() as conn:
            for n in names:
                n = " ".join(str(n).split())
                r = conn.execute(
                    update(players)
                    .where(players.c.event_id == self.id, players.c.name == n, players.c.revoked.is_(None))
                    .values(revoked=db.now())
                )
                if r.rowcount == 0:
                    raise UsageError(f"no player '{n}' in the event", command_line("see 'daimyo event export DIR'"))
                log_action(conn, self.id, who.actor, "player-removed", n)

    def new_token(self, player: str | None = None, who: Who = CLI) -> str:
        """A new token for a player (a lost link) or, without ``player``, for the organiser; the old
        one stops working at once. Shown this once."""
        token = new_token()
        with self.engine.begin() as conn:
            if player is None:
                conn.execute(update(events).where(events.c.id == self.id).values(organiser_hash=token_hash(token)))
                log_action(conn, self.id, who.actor, "organiser-token-replaced", "")
                return token
            name = " ".join(str(player).split())
            r = conn.execute(
                update(players)
                .where(players.c.event_id == self.id, players.c.name == name, players.c.revoked.is_(None))
                .values(token_hash=token_hash(token))
            )
            if r.rowcount == 0:
                raise UsageError(f"no player '{name}' in the event", command_line("see 'daimyo event players DIR'"))
            log_action(conn, self.id, who.actor, "player-token-replaced", name)
        return token

    def set_deadline(self, deadline: str | None, who: Who = CLI) -> str | None:
        """Set the time after which a handed-in list can no longer be changed (ISO 8601, a time
        without a zone is UTC), or clear it with ``None`` or an empty text; the stored time."""
        if who.role != "organiser":
            raise EventRefused("only the organiser sets the deadline", status=403)
        dl = _time_option(deadline, "deadline")
        with self.engine.begin() as conn:
            r = self.claim(conn)
            if r["reveal_at"] and dl and r["reveal_at"] < dl:
                raise UsageError(
                    f"deadline {dl[:16].replace('T', ' ')} UTC is after the reveal "
                    f"({r['reveal_at'][:16].replace('T', ' ')} UTC)",
                    "lists are revealed after they are all in: give an earlier deadline",
                )
            conn.execute(update(events).where(events.c.id == self.id).values(deadline=dl))
            log_action(conn, self.id, who.actor, "deadline-set", dl or "none")
        return dl

    def players(self, conn=None) -> list[dict]:
        if conn is None:
            with self.engine.connect() as c:
                return self.players(c)
        return [
            dict(r)
            for r in conn.execute(
                select(players).where(players.c.event_id == self.id).order_by(players.c.id)
            ).mappings()
        ]

    # -- submissions ---------------------------------------------------------------------

    def submit(self, who: Who, text: str, source: str = "web", address: str = "") -> dict:
        """Check and store a list as the player's next version; the stored submission (with its
        commitment) or EventRefused. The phase, the deadline and the rate limit are read once
        before the (slow) check, to refuse early, and again in the transaction that writes it."""
        if who.role != "player":
            raise EventRefused(_("only a player hands in a list"), _("use the player's own link"), status=403)
        with self.engine.connect() as conn:
            r = self.row(conn)
            late = self._may_hand_in(conn, r, who)
        checked = check_submission(text, r["system"], json.loads(r["settings"]))
        return self._store(who, checked, late, source, address)

    def check_only(self, who: Who, text: str, address: str = "") -> dict:
        """Check a player's list without handing it in: its verdict, total and findings, nothing
        stored but a line of the audit log (which the rate limit counts: at most
        ``CHECKS_PER_MINUTE`` a minute)."""
        if who.role != "player":
            raise EventRefused("only a player checks a list here", "use the player's own link", status=403)
        since = db.stamp(datetime.now(UTC) - timedelta(minutes=1))
        with self.engine.connect() as conn:
            r = self.row(conn)
            recent = conn.execute(
                select(func.count())
                .select_from(audit)
                .where(
                    audit.c.event_id == self.id,
                    audit.c.action == "list-checked",
                    audit.c.actor == who.actor,
                    audit.c.at >= since,
                )
            ).scalar()
        if recent >= CHECKS_PER_MINUTE:
            raise EventRefused(f"{recent} lists checked this last minute", "wait a minute before the next", status=429)
        c = check_submission(text, r["system"], json.loads(r["settings"]))
        self.log(who.actor, "list-checked", f"{c.verdict}, {c.total} (not handed in)", address)
        return {
            "checked_only": True,
            "legal": c.legal,
            "verdict": c.verdict,
            "total": c.total,
            "format": c.format,
            "findings": c.findings,
            "fingerprint": c.fingerprint,
        }

    def refuse_early(self, who: Who) -> None:
        """EventRefused when ``who`` may not hand in a list now (the phase, the deadline, the rate
        limit): what a server asks before it reads an upload."""
        if who.role != "player":
            raise EventRefused(_("only a player hands in a list"), _("use the player's own link"), status=403)
        with self.engine.connect() as conn:
            self._may_hand_in(conn, self.row(conn), who)

    def _may_hand_in(self, conn, r, who: Who) -> bool:
        """Whether the list is late; EventRefused when the event takes no list of ``who`` now."""
        phase = self.phase(r)
        if phase != "open":
            raise EventRefused(_("the event is {phase}: no more lists are taken").format(phase=_(phase)), status=409)
        late = bool(r["deadline"] and db.now() > r["deadline"])
        since = db.stamp(datetime.now(UTC) - timedelta(minutes=1))
        recent = conn.execute(
            select(func.count())
            .select_from(submissions)
            .where(submissions.c.player_id == who.player_id, submissions.c.created >= since)
        ).scalar()
        if recent >= SUBMISSIONS_PER_MINUTE:
            raise EventRefused(
                _("{recent} lists handed in this last minute").format(recent=recent),
                _("wait a minute before the next"),
                status=429,
            )
        if late:
            had = conn.execute(
                select(func.count()).select_from(submissions).where(submissions.c.player_id == who.player_id)
            ).scalar()
            if had:
                raise EventRefused(
                    _("the deadline has passed: your list can no longer be changed"),
                    _("your latest list counts; ask the organiser"),
                    status=409,
                )
        return late

    def claim(self, conn: Connection) -> Any:
        """Take the event's row for this transaction, then read it: a write to it first, so that
        SQLite takes its write lock now and PostgreSQL locks the row. A lock, a reveal or another
        list of the event waits for this transaction to end, and what it reads stays true until
        it commits."""
        conn.execute(update(events).where(events.c.id == self.id).values(state=events.c.state))
        return self.row(conn)

    def _store(self, who: Who, c: Checked, late: bool, source: str, address: str) -> dict:
        secret = new_secret()
        com = commitment(c.canonical, c.packs, secret)
        for _attempt in range(20):  # two submissions of one player at once: the second takes the next version
            try:
                with self.engine.begin() as conn:
                    r = self.claim(conn)
                    late = self._may_hand_in(conn, r, who)  # locked, or past the deadline, while it was checked
                    version = (
                        conn.execute(
                            select(func.max(submissions.c.version)).where(submissions.c.player_id == who.player_id)
                        ).scalar()
                        or 0
                    ) + 1
                    row = dict(
                        event_id=self.id,
                        player_id=who.player_id,
                        version=version,
                        created=db.now(),
                        source=source,
                        format=c.format,
                        list_text=c.list_text,
                        canonical=c.canonical,
                        packs=json.dumps(c.packs),
                        legal=c.legal,
                        verdict=c.verdict,
                        total=c.total,
                        findings=findings_json(c.findings),
                        fingerprint=c.fingerprint,
                        secret=secret,
                        commitment=com,
                        late=late,
                    )
                    row["id"] = conn.execute(insert(submissions).values(**row)).inserted_primary_key[0]
                    log_action(
                        conn,
                        self.id,
                        who.actor,
                        "list-submitted",
                        f"version {version}: {c.verdict}, {c.total}, commitment {com}",
                        address,
                    )
                return self._public_submission(row, who.name, own=True)
            except IntegrityError:
                continue
        raise EventRefused(_("the list could not be stored: too many at once"), _("hand it in again"), status=503)

    def _public_submission(
        self, row, player: str, own: bool = False, organiser: bool = False, revealed: bool = False
    ) -> dict:
        findings = json.loads(row["findings"])
        out = {
            "id": row["id"],
            "player": player,
            "version": row["version"],
            "time": row["created"],
            "commitment": row["commitment"],
            "late": bool(row["late"]),
        }
        if own or organiser or revealed:
            out.update(
                {
                    "legal": bool(row["legal"]),
                    "verdict": row["verdict"],
                    "total": row["total"],
                    "format": row["format"],
                }
            )
        if own or revealed:  # the fingerprint takes no secret: before the reveal, a guess could be confirmed with it
            out["fingerprint"] = row["fingerprint"]
            out["findings"] = (
                findings if (own or revealed) else [{"severity": f["severity"], "code": f["code"]} for f in findings]
            )
        if own or revealed:
            out["list"] = row["list_text"]
        if revealed:
            out.update({"secret": row["secret"], "packs": json.loads(row["packs"]), "system": None})
        return out

    def history(self, who: Who) -> list[dict]:
        """A player's own submissions, newest first, and (for each) who opened it before the reveal."""
        with self.engine.connect() as conn:
            rows = (
                conn.execute(
                    select(submissions)
                    .where(submissions.c.player_id == who.player_id)
                    .order_by(submissions.c.version.desc())
                )
                .mappings()
                .all()
            )
        return [self._public_submission(r, who.name, own=True) for r in rows]

    def openings_of(self, who: Who) -> list[dict]:
        with self.engine.connect() as conn:
            rows = (
                conn.execute(
                    select(openings, submissions.c.version)
                    .join(submissions, submissions.c.id == openings.c.submission_id)
                    .where(openings.c.player_id == who.player_id)
                    .order_by(openings.c.id)
                )
                .mappings()
                .all()
            )
        return [{"at": r["at"], "version": r["version"], "reason": r["reason"]} for r in rows]

    def latest(self, conn) -> dict[int, dict]:
        """Each player's latest submission, by player id."""
        newest = (
            select(submissions.c.player_id, func.max(submissions.c.version).label("v"))
            .where(submissions.c.event_id == self.id)
            .group_by(submissions.c.player_id)
            .subquery()
        )
        rows = (
            conn.execute(
                select(submissions).join(
                    newest, (submissions.c.player_id == newest.c.player_id) & (submissions.c.version == newest.c.v)
                )
            )
            .mappings()
            .all()
        )
        return {r["player_id"]: dict(r) for r in rows}

    def board(self, who: Who) -> dict:
        """The event as ``who`` may see it: its players, each with their latest submission
        (commitments for everyone; verdicts, totals and findings' codes for the organiser; the
        lists and their secrets for everyone once revealed)."""
        with self.engine.connect() as conn:
            info = self.info(conn)
            revealed = info["phase"] == "revealed"
            latest = self.latest(conn)
            counts = dict(
                conn.execute(
                    select(submissions.c.player_id, func.count())
                    .where(submissions.c.event_id == self.id)
                    .group_by(submissions.c.player_id)
                ).all()
            )
            people = self.players(conn)
        rows = []
        for p in people:
            s = latest.get(p["id"])
            if p["revoked"] and s is None:
                continue
            entry = {
                "player": p["name"],
                "player_id": p["id"],
                "removed": bool(p["revoked"]),
                "versions": counts.get(p["id"], 0),
                "status": "missing" if s is None else ("late" if s["late"] else "in"),
            }
            if s is not None:
                sub = self._public_submission(
                    s,
                    p["name"],
                    organiser=who.role == "organiser",
                    revealed=revealed,
                    own=who.role == "player" and who.player_id == p["id"],
                )
                if revealed:
                    sub["system"] = info["system"]
                entry["submission"] = sub
            rows.append(entry)
        ev = {k: info[k] for k in ("id", "name", "system", "settings", "deadline", "reveal_at", "phase", "created")}
        return {"event": ev, "players": rows}

    def open_list(self, submission_id: int, reason: str, who: Who, address: str = "") -> dict:
        """The organiser opens one list before the reveal: logged, and shown to its player."""
        if who.role != "organiser":
            raise EventRefused(_("only the organiser opens a list before the reveal"), status=403)
        if not 0 < submission_id < 2**31:  # no row has such an id, and no database takes it as one
            raise EventRefused(
                _("no submission {submission_id} in this event").format(submission_id=submission_id), status=404
            )
        reason = clean_text(str(reason or ""))[:300]
        if not reason:
            raise EventRefused(_("say why the list is opened"), _("the player is shown the reason"), status=422)
        with self.engine.begin() as conn:
            s = (
                conn.execute(
                    select(submissions).where(submissions.c.id == submission_id, submissions.c.event_id == self.id)
                )
                .mappings()
                .first()
            )
            if s is None:
                raise EventRefused(
                    _("no submission {submission_id} in this event").format(submission_id=submission_id), status=404
                )
            name = conn.execute(select(players.c.name).where(players.c.id == s["player_id"])).scalar()
            if self.phase(self.row(conn)) != "revealed":
                conn.execute(
                    insert(openings).values(submission_id=s["id"], player_id=s["player_id"], at=db.now(), reason=reason)
                )
                log_action(conn, self.id, who.actor, "list-opened", f"{name} version {s['version']}: {reason}", address)
        return self._public_submission(s, name, own=True)

    # -- the event's phases --------------------------------------------------------------

    def lock(self, who: Who = CLI) -> str:
        return self._phase_to("locked", who)

    def reveal(self, who: Who = CLI) -> str:
        return self._phase_to("revealed", who)

    def _phase_to(self, state: str, who: Who) -> str:
        if who.role != "organiser":
            raise EventRefused(_("only the organiser locks or reveals the event"), status=403)
        with self.engine.begin() as conn:
            phase = self.phase(self.claim(conn))
            if phase == state:
                raise EventRefused(_("the event is {state} already").format(state=_(state)), status=409)
            if phase == "revealed":
                raise EventRefused(_("the event is revealed: it cannot be locked again"), status=409)
            conn.execute(update(events).where(events.c.id == self.id).values(state=state))
            log_action(conn, self.id, who.actor, f"event-{state}", "")
        return state

    # -- reading everything --------------------------------------------------------------

    def rows(self) -> list[dict]:
        """One row per player's latest submission (and per missing player): ``daimyo event export``.
        Before the reveal its fingerprint and secret are left empty: the commitment alone seals it."""
        b = self.board(CLI)
        out = []
        for p in b["players"]:
            s = p.get("submission") or {}
            out.append(
                {
                    "player": p["player"],
                    "status": p["status"],
                    "version": s.get("version", ""),
                    "verdict": s.get("verdict", ""),
                    "legal": s.get("legal", ""),
                    "total": s.get("total", ""),
                    "fingerprint": s.get("fingerprint", ""),
                    "commitment": s.get("commitment", ""),
                    "secret": s.get("secret", ""),
                    "time": s.get("time", ""),
                }
            )
        return out

    def latest_lists(self) -> list[dict]:
        """The player, latest list text and check of every player who handed one in."""
        with self.engine.connect() as conn:
            latest = self.latest(conn)
            names = {p["id"]: p["name"] for p in self.players(conn)}
        return [{"player": names[pid], **s} for pid, s in sorted(latest.items(), key=lambda kv: names[kv[0]].lower())]

    def revealed(self) -> list[dict]:
        """Every submission (all versions) with its list and secret: after the reveal only."""
        with self.engine.connect() as conn:
            info = self.info(conn)
            if info["phase"] != "revealed":
                raise EventRefused(_("the lists are sealed until the reveal"), status=403)
            names = {p["id"]: p["name"] for p in self.players(conn)}
            rows = (
                conn.execute(select(submissions).where(submissions.c.event_id == self.id).order_by(submissions.c.id))
                .mappings()
                .all()
            )
        out = []
        for r in rows:
            s = self._public_submission(r, names[r["player_id"]], revealed=True)
            s["system"] = info["system"]
            out.append(s)
        return out

    def audit_log(self, last: int | None = None) -> list[dict]:
        """The audit log, oldest first; ``last``: only its newest ``last`` rows (the dashboard's),
        read as those alone however long the log has grown."""
        query = select(audit).where(audit.c.event_id == self.id)
        if last is not None:
            query = query.order_by(audit.c.id.desc()).limit(last)
        with self.engine.connect() as conn:
            rows = [dict(r) for r in conn.execute(query.order_by(audit.c.id)).mappings()]
        return sorted(rows, key=lambda r: r["id"])

    def log(self, actor: str, action: str, detail: str = "", address: str = "") -> None:
        with self.engine.begin() as conn:
            log_action(conn, self.id, actor, action, detail, address)


def clean_text(text: str) -> str:
    """A name or a reason as one line: runs of white space as one space, control characters
    (which no database column of text takes in full, and no page shows) left out."""
    return " ".join("".join(c for c in text if c.isprintable() or c.isspace()).split())


def check_new_folder(folder: Path) -> None:
    """UsageError unless ``folder`` can become a new event's: missing, or a folder without one."""
    try:
        if (folder / CONFIG).exists():
            raise UsageError(f"{folder}: already holds an event", "give another folder")
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"{folder}: is a file, not a folder", "give the name of a new folder for the event")
    except OSError as exc:
        raise UsageError(f"{folder}: {exc.strerror or exc}", "give the name of a new folder for the event") from None


def _check_base_url(base: str) -> None:
    try:
        parts = urllib.parse.urlsplit(base)
        parts.port  # noqa: B018 - a port that is not a number is refused here
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in base):
        raise UsageError(
            f"{option('url')}: '{base}' is not an address players can open", "e.g. https://event.example.org"
        )


def write_config(folder: Path, event_id: str, url: str) -> None:
    """The folder's ``event.json``, readable by its owner alone (0600: it may hold the database's
    password), written atomically and never over another."""
    text = json.dumps({"event": event_id, "database": url}, indent=2) + "\n"
    try:
        yamlio.atomic_write(folder / CONFIG, text, force=False, mode=0o600)
    except DaimyoError:
        if (folder / CONFIG).exists():  # written by another command since this one began
            raise UsageError(f"{folder}: another event was made here meanwhile", "give another folder") from None
        raise


def _config_of_another(folder: Path, event_id: str) -> bool:
    try:
        return json.loads((folder / CONFIG).read_text(encoding="utf-8")).get("event") != event_id
    except (OSError, ValueError, AttributeError):
        return False


@contextlib.contextmanager
def new_event_files(folder: Path, url: str, event_id: str):
    """The engine of a new event's database, migrated; when what follows fails, nothing is left
    behind: the folder if it was made here, else the SQLite file if it was. A database that cannot
    be reached or used is a UsageError."""
    made = [p for p in [folder, *folder.parents] if not p.exists()]
    sqlite = db.sqlite_path(url)
    new_files = (
        [sqlite, sqlite.with_name(sqlite.name + "-wal"), sqlite.with_name(sqlite.name + "-shm")]
        if sqlite is not None and not sqlite.exists()
        else []
    )
    engine = None
    try:
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:
            raise UsageError(f"{folder}: cannot make the folder: {exc.strerror or exc}") from None
        if sqlite is not None and not sqlite.parent.is_dir():
            raise UsageError(f"{db.shown(url)}: no folder {sqlite.parent}", db.DATABASE_HINT)
        if sqlite is not None and not new_files:
            db.existing_sqlite_ok(sqlite)
        engine = db.make_engine(url, pooled=False)
        try:
            db.migrate(engine)
            yield engine
        except SQLAlchemyError as exc:
            raise db.db_error(exc, url) from None
    except BaseException:
        if engine is not None:
            engine.dispose()
        if made and _config_of_another(folder, event_id):
            pass  # another command made an event in this new folder meanwhile: it is theirs
        elif made:
            shutil.rmtree(made[-1], ignore_errors=True)
        else:
            for f in new_files:
                with contextlib.suppress(OSError):
                    f.unlink()
        raise


def log_action(conn, event_id: str, actor: str, action: str, detail: str = "", address: str = "") -> None:
    """Add a line to the event's audit log (``detail`` and ``address`` cut to their columns' size)."""
    conn.execute(
        insert(audit).values(
            event_id=event_id, at=db.now(), actor=actor, action=action, detail=detail[:2000], address=address[:64]
        )
    )
