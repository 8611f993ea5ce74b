"""The tables of an event database and how a database is opened and migrated.

Times are stored as ISO 8601 text in UTC (``2026-11-25T14:02:41.123456Z``): the same on SQLite
and PostgreSQL, and they sort as they read. Migrations are Alembic's, shipped in
``builder/event/migrations``; ``open_engine`` brings a database to the newest one.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
)
from sqlalchemy import event as sa_event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.pool import NullPool

from builder.errors import UsageError, one_line, option

metadata = MetaData()

events = Table(
    "events",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", Text, nullable=False),
    Column("system", String(32), nullable=False),
    Column("settings", Text, nullable=False, default="{}"),  # JSON: list keys every list must match
    Column("deadline", String(40)),
    Column("reveal_at", String(40)),
    Column("state", String(16), nullable=False, default="open"),  # open, locked, revealed
    Column("created", String(40), nullable=False),
    Column("secret", String(64), nullable=False),  # keys the CSRF tokens of the event's forms
    Column("organiser_hash", String(64), nullable=False, unique=True),
    Column("base_url", Text, nullable=False),
)

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False, index=True),
    Column("name", Text, nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", String(40), nullable=False),
    Column("revoked", String(40)),
    Column("club", Text),  # the club or team a player comes with: pairings may keep them apart
)

submissions = Table(
    "submissions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False, index=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created", String(40), nullable=False),
    Column("source", String(16), nullable=False),  # web, api
    Column("format", String(16), nullable=False),  # the share format it came in
    Column("list_text", Text, nullable=False),  # the canonical list as indented JSON
    Column("canonical", Text, nullable=False),  # the canonical list as sorted compact JSON
    Column("packs", Text, nullable=False),  # JSON: content hashes of the packs checked with
    Column("legal", Boolean, nullable=False),
    Column("verdict", Text, nullable=False),
    Column("total", Text, nullable=False),
    Column("findings", Text, nullable=False),  # JSON: [{severity, code, message}]
    Column("fingerprint", String(32), nullable=False),
    Column("secret", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("late", Boolean, nullable=False),
    UniqueConstraint("player_id", "version", name="uq_submission_version"),
)

openings = Table(  # a list opened by the organiser before the reveal: shown to its player
    "openings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("submission_id", Integer, ForeignKey("submissions.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("at", String(40), nullable=False),
    Column("reason", Text, nullable=False),
)

audit = Table(
    "audit",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(32), nullable=False, index=True),
    Column("at", String(40), nullable=False),
    Column("actor", Text, nullable=False),  # organiser, player NAME, cli, public
    Column("action", String(40), nullable=False),
    Column("detail", Text, nullable=False, default=""),
    Column("address", String(64), nullable=False, default=""),
)

event_settings = Table(  # how the event's day is run: one row per event, made when first changed
    "event_settings",
    metadata,
    Column("event_id", String(32), ForeignKey("events.id"), primary_key=True),
    Column("win", Integer, nullable=False),  # points for a win, a draw, a loss and a bye
    Column("draw", Integer, nullable=False),
    Column("loss", Integer, nullable=False),
    Column("bye", Integer, nullable=False),
    Column("tiebreaks", Text, nullable=False),  # their order, comma-separated: sos,esos,h2h,diff,seed
    Column("avoid_club", Boolean, nullable=False),
    Column("fresh_tables", Boolean, nullable=False),
    Column("first_round", String(16), nullable=False),  # random or seeded
    Column("seed_order", Text, nullable=False),  # JSON: the players' names in seed order (seeded)
    Column("seed", String(64), nullable=False),  # the random draw's seed ("" until first drawn)
    Column("swiss_rounds", Integer),  # single elimination of the top ``top`` after these rounds
    Column("top", Integer),
    Column("updated", String(40), nullable=False),
)

rounds = Table(
    "rounds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # swiss or elimination
    Column("created", String(40), nullable=False),
    Column("method", Text, nullable=False),  # how it was paired: random draw (its seed), seeded, by score
    Column("draw", Text),  # JSON: round 1's order of player ids (the draw or the seeds)
    UniqueConstraint("event_id", "number", name="uq_round_number"),
)

pairings = Table(
    "pairings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("round_id", Integer, ForeignKey("rounds.id"), nullable=False, index=True),
    Column("table_no", Integer, nullable=False),
    Column("a", Integer, ForeignKey("players.id"), nullable=False),
    Column("b", Integer, ForeignKey("players.id")),  # None: a bye
    UniqueConstraint("round_id", "table_no", name="uq_pairing_table"),
)

results = Table(
    "results",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("pairing_id", Integer, ForeignKey("pairings.id"), nullable=False, unique=True),
    Column("outcome", String(8), nullable=False),  # a, b (the winner) or draw
    Column("score_a", Integer),  # the game's own scores, when given
    Column("score_b", Integer),
    Column("entered_by", Text, nullable=False),
    Column("entered_at", String(40), nullable=False),
    Column("confirmed_by", Text),
    Column("confirmed_at", String(40)),
    Column("disputed_by", Text),
    Column("disputed_at", String(40)),
    Column("dispute", Text),  # why, in the disputing player's words
)

changes = Table(  # every change to the rounds, pairings, results and drops: who, when, what
    "changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(32), nullable=False, index=True),
    Column("at", String(40), nullable=False),
    Column("actor", Text, nullable=False),
    Column("action", String(40), nullable=False),
    Column("round", Integer),
    Column("table_no", Integer),
    Column("detail", Text, nullable=False),
)

drops = Table(
    "drops",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False, index=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, unique=True),
    Column("after_round", Integer, nullable=False),  # the rounds paired when the player dropped
    Column("at", String(40), nullable=False),
    Column("actor", Text, nullable=False),
)

TABLES = (events, players, submissions, openings, audit)  # in the order rows may be inserted
DAY_TABLES = (event_settings, rounds, pairings, results, changes, drops)  # the event's day, in that order too


def now() -> str:
    return stamp(datetime.now(UTC))


def stamp(t: datetime) -> str:
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str) -> datetime:
    """An ISO 8601 time; one without a zone is UTC. ValueError when it is none."""
    t = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{(Path(folder).resolve() / 'event.db').as_posix()}"


def sqlite_path(url: str) -> Path | None:
    """The file of a ``sqlite:///PATH`` URL; None for another database or SQLite in memory."""
    if not url.startswith("sqlite:///") or url in ("sqlite:///", "sqlite:///:memory:"):
        return None
    return Path(url[len("sqlite:///") :].split("?", 1)[0])


def private_sqlite(url: str) -> None:
    """An event's SQLite file (and its journals) readable by its owner alone (0600): it holds the
    lists and their secrets before the reveal. Made so before SQLite first opens it (SQLite gives
    its -wal and -shm files the database file's permissions); an older file is made so too."""
    path = sqlite_path(url)
    if path is None:
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.close(fd)
        return
    except FileExistsError:
        pass
    except OSError:
        return  # the folder is missing or not writable: opening the database says so
    if not is_sqlite_file(path):
        return  # someone's other file: not touched (opening it says it is no database)
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            if p.stat().st_mode & 0o077 and p.stat().st_uid == os.getuid():
                p.chmod(0o600)
        except OSError:
            pass


def is_sqlite_file(path: Path) -> bool:
    """Whether ``path`` is a SQLite database, asked of SQLite itself (read-only). Never by opening
    the file directly: closing a file this process opened drops every POSIX lock the process
    holds on it, SQLite's own included, and another process could then delete the WAL that this
    one's connections still write to."""
    try:
        if path.stat().st_size == 0:
            return False
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            conn.execute("PRAGMA schema_version").fetchone()
        return True
    except (OSError, sqlite3.Error):
        return False


def existing_sqlite_ok(path: Path) -> None:
    """UsageError unless the existing file ``path`` is an event database (a new event may share
    one): a user's other file, empty or not, is never written into."""
    if not is_sqlite_file(path):
        raise UsageError(f"{path}: exists and is not a SQLite database; not touched", DATABASE_HINT)

    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as exc:
        raise UsageError(f"{path}: cannot read the database: {exc}; not touched", DATABASE_HINT) from None
    if "events" not in names or "alembic_version" not in names:
        raise UsageError(f"{path}: a SQLite database of something else than events; not touched", DATABASE_HINT)


def _sqlite_pragmas(dbapi_conn, _record):
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # readers never wait for the writer
    cur.execute("PRAGMA synchronous=FULL")  # an acknowledged submission survives a crash
    cur.execute("PRAGMA busy_timeout=30000")  # several processes take turns to write
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


DATABASE_HINT = "give postgresql://USER:PASSWORD@HOST/DB, or leave it out for SQLite in the event's folder"


def shown(url: str) -> str:
    """A database URL as a message may show it: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        head = str(url).split("://", 1)[0]
        return f"{head[:20]}://..." if "://" in str(url) else str(url)[:40]


def check_url(url: str, label: str = "") -> str:
    """``url`` when it names a database an event runs on (``sqlite:///PATH`` or
    ``postgresql://...``); UsageError otherwise, before anything is made."""
    label = label or option("database")
    u = str(url)
    ok = u.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")) or (
        u.startswith("sqlite:///") and sqlite_path(u) is not None
    )
    if ok:
        try:
            parsed = make_url("postgresql://" + u.split("://", 1)[1] if u.startswith("postgres") else u)
            parsed.port  # noqa: B018 - a port that is not a number is refused here
        except Exception:
            ok = False
    if not ok or any(c.isspace() for c in u):
        raise UsageError(f"{label}: '{shown(u)}' is not a database an event runs on", DATABASE_HINT)
    return u


def db_error(exc: BaseException, url: str | None = None):
    """A database's error as one line for a person (a UsageError): what failed, never a
    password."""
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    where = f" {shown(url)}" if url else ""
    if database_down(exc):
        return UsageError(
            f"cannot use the event's database{where}: {one_line(text)[:300]}",
            "is the database server running, and the address right?",
        )
    return UsageError(f"the event's database{where} refused: {one_line(text)[:300]}", "is it an event's database?")


def make_engine(url: str, pooled: bool = True):
    """An engine for ``url`` (sqlite:///PATH or postgresql://...); psycopg 3 drives PostgreSQL.
    ``pooled=False`` (a command that runs and ends): each connection is closed once used."""
    check_url(url, "the event's database")
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith("sqlite"):
        private_sqlite(url)
        extra = {} if pooled else {"poolclass": NullPool}
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, **extra)
        sa_event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    wait = {"connect_timeout": 10}  # a host that does not answer is given up after 10 seconds
    if not pooled:
        return create_engine(url, poolclass=NullPool, connect_args=wait)
    # no ping on each checkout (a round trip per query); connections are renewed every half hour,
    # and all of them at once after one is found cut (the database restarted)
    return create_engine(url, pool_size=10, max_overflow=10, pool_recycle=1800, connect_args=wait)


def database_down(exc: BaseException) -> bool:
    """Whether a database error says the database cannot be reached or used now (stopped, a cut
    connection, a locked or unreadable SQLite file), not that a statement was wrong."""
    return isinstance(exc, (OperationalError, InterfaceError)) or (
        isinstance(exc, DBAPIError) and bool(exc.connection_invalidated)
    )


def migrate(engine) -> None:
    """Bring the database to the newest schema (Alembic ``upgrade head``)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def head_revision() -> str:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    if head is None:
        raise RuntimeError("the event database migrations have no head revision")
    return head


def current_revision(engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
