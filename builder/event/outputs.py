"""What an event gives out: the export (CSV or JSON), the organiser's book, the verification
of revealed lists, and backups of the whole event."""

from __future__ import annotations

import csv
import io
import json
import tempfile
from pathlib import Path

from sqlalchemy import insert, select

from builder.errors import UsageError
from builder.event import db
from builder.event.db import audit, events, openings, players, submissions
from builder.event.intake import EventRefused

EXPORT_COLUMNS = ("player", "status", "version", "verdict", "legal", "total", "fingerprint", "commitment", "time")
BACKUP_KEY = "daimyo_event_backup"
BACKUP_VERSION = 1


def export_text(ev, fmt: str) -> str:
    if fmt not in ("csv", "json"):
        raise UsageError(f"unknown format '{fmt}'", "use csv or json")
    rows = ev.rows()
    ev.log("organiser", "exported", f"{len(rows)} rows as {fmt}")
    if fmt == "json":
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=EXPORT_COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: _cell(r[k]) for k in EXPORT_COLUMNS})
    return out.getvalue()


def _cell(v):
    """A spreadsheet cell that a spreadsheet will not run as a formula."""
    if isinstance(v, str) and v[:1] in ("=", "+", "-", "@"):
        return "'" + v
    return v


def _book_doc(list_text: str, system: str, label: str) -> str:
    """A stored list as a file the book can read, its packs found by name here (or left out).
    The list itself is printed as handed in, so that its fingerprint is the one recorded."""
    from builder.catalog.packfiles import resolve_recorded
    from builder.lists.dump import dump_list_yaml
    from builder.share.api import parse_source_text

    doc = dict(parse_source_text(list_text, label, system).doc)
    kept = [
        str(p)
        for p in (resolve_recorded(pk, doc, None, system, names_only=True) for pk in doc.get("packs") or [])
        if p is not None
    ]
    doc.pop("packs", None)
    if kept:
        doc["packs"] = kept
    return dump_list_yaml(doc)


def write_book(ev, out: str, anonymous: bool = False, force: bool = False, paper: str = "a4") -> Path:
    """The organiser's book of every player's latest list (after the reveal): one PDF with the
    contents page, each list with its verdict, findings, share code and fingerprint. For judges
    (``anonymous``) the lists are numbered, in the order of their fingerprints, without the players'
    names (a list prints as handed in: its fingerprint must stay the recorded one)."""
    from builder.render.book import render_book

    info = ev.info()
    if info["phase"] != "revealed":
        raise EventRefused(
            "the lists are sealed until the reveal", "reveal them first: 'daimyo event reveal DIR'", status=409
        )
    lists = ev.latest_lists()
    if not lists:
        raise EventRefused("no list was handed in", status=409)
    if anonymous:
        lists = sorted(lists, key=lambda s: s["fingerprint"])
    with tempfile.TemporaryDirectory(prefix="daimyo-book-") as tmp:
        files = []
        for i, s in enumerate(lists, 1):
            label = f"List {i:02d}" if anonymous else s["player"]
            stem = f"List {i:02d}" if anonymous else f"{i:02d} {_safe(s['player'])}"
            path = Path(tmp) / f"{stem}.yaml"
            path.write_text(_book_doc(s["list_text"], info["system"], label), encoding="utf-8")
            files.append(path)
        written = render_book(files, out, force=force, paper=paper)
    ev.log("organiser", "book-printed", f"{'anonymous ' if anonymous else ''}{len(files)} lists to {Path(out).name}")
    return written


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in " -_." else "_" for c in name).strip() or "player"


# -- verification ----------------------------------------------------------------------


def revealed_entries(source: str) -> tuple[str, list[dict]]:
    """The revealed submissions of an event: from its folder, its server's address (``GET
    /api/reveal``) or a file that API's answer was saved to. ``(label, entries)``."""
    if source.startswith(("http://", "https://")):
        import urllib.error
        import urllib.request

        url = source.split("?", 1)[0].rstrip("/")
        for tail in ("/submit", "/organiser", "/api/reveal"):
            if url.endswith(tail):
                url = url[: -len(tail)]
        try:
            with urllib.request.urlopen(url + "/api/reveal", timeout=30) as resp:
                data = json.loads(resp.read(64 * 1024 * 1024).decode("utf-8"))
        except urllib.error.HTTPError as exc:
            raise UsageError(f"{url}: {exc.code}: {_error_text(exc)}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise UsageError(f"{url}: cannot read the revealed lists: {getattr(exc, 'reason', exc)}") from None
        return url, data.get("submissions", [])
    p = Path(source)
    if p.is_dir():
        from builder.event.store import Event

        return str(p), Event.open(p).revealed()
    if p.is_file():
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise UsageError(f"{p}: not the JSON of revealed lists: {exc}") from None
        return str(p), data.get("submissions", []) if isinstance(data, dict) else []
    raise UsageError(f"{source}: no event folder, file or address", "give DIR, http://HOST:PORT or FILE.json")


def _error_text(exc) -> str:
    try:
        return json.loads(exc.read().decode("utf-8")).get("error", exc.reason)
    except Exception:
        return str(exc.reason)


def verify(source: str) -> list[tuple[dict, bool, str]]:
    from builder.event.seal import verify_revealed

    _label, entries = revealed_entries(source)
    return [(e, *verify_revealed(e)) for e in entries]


# -- backups ---------------------------------------------------------------------------


def backup(ev, out: str, force: bool = False) -> int:
    """Every row of the event (its players, submissions, openings, audit log) as one JSON file,
    written atomically; the number of submissions in it."""
    from builder.yamlio import atomic_write

    with ev.engine.connect() as conn:

        def rows(table, cond):
            return [
                dict(r) for r in conn.execute(select(table).where(cond).order_by(*table.primary_key.columns)).mappings()
            ]

        data = {
            BACKUP_KEY: BACKUP_VERSION,
            "schema": db.head_revision(),
            "taken": db.now(),
            "events": rows(events, events.c.id == ev.id),
            "players": rows(players, players.c.event_id == ev.id),
            "submissions": rows(submissions, submissions.c.event_id == ev.id),
            "openings": rows(
                openings, openings.c.submission_id.in_(select(submissions.c.id).where(submissions.c.event_id == ev.id))
            ),
            "audit": rows(audit, audit.c.event_id == ev.id),
        }
    atomic_write(out, json.dumps(data, ensure_ascii=False, indent=1) + "\n", force=force)
    ev.log("organiser", "backup-taken", f"{len(data['submissions'])} submissions to {Path(out).name}")
    return len(data["submissions"])


def restore(backup_file: str, folder: str, database: str | None = None):
    """A backup restored as the event of ``folder`` (a new folder, or one whose database lacks
    the event): the same event id, players, tokens, submissions and log."""
    from builder.event.store import CONFIG, Event, _log
    from builder.yamlio import atomic_write

    try:
        data = json.loads(Path(backup_file).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"{backup_file}: not an event backup: {exc}") from None
    if not isinstance(data, dict) or data.get(BACKUP_KEY) != BACKUP_VERSION or len(data.get("events") or []) != 1:
        raise UsageError(f"{backup_file}: not an event backup of this daimyo ({BACKUP_KEY}: {BACKUP_VERSION})")
    target = Path(folder)
    if (target / CONFIG).exists():
        raise UsageError(f"{folder}: already holds an event; nothing was restored", "restore into a new folder")
    target.mkdir(parents=True, exist_ok=True)
    url = database or db.sqlite_url(target)
    engine = db.make_engine(url, pooled=False)
    db.migrate(engine)
    ev_row = data["events"][0]
    with engine.begin() as conn:
        if conn.execute(select(events.c.id).where(events.c.id == ev_row["id"])).first() is not None:
            raise UsageError(f"event {ev_row['id']} is in that database already; nothing was restored")
        conn.execute(insert(events).values(**ev_row))
        pid, sid = {}, {}  # the backup's row ids, renumbered in the target database
        for r in data["players"]:
            row = {k: v for k, v in r.items() if k != "id"}
            pid[r["id"]] = conn.execute(insert(players).values(**row)).inserted_primary_key[0]
        for r in data["submissions"]:
            row = {k: v for k, v in r.items() if k != "id"}
            row["player_id"] = pid[r["player_id"]]
            sid[r["id"]] = conn.execute(insert(submissions).values(**row)).inserted_primary_key[0]
        for r in data["openings"]:
            conn.execute(
                insert(openings).values(
                    submission_id=sid[r["submission_id"]], player_id=pid[r["player_id"]], at=r["at"], reason=r["reason"]
                )
            )
        for r in data["audit"]:
            conn.execute(insert(audit).values(**{k: v for k, v in r.items() if k != "id"}))
        _log(
            conn,
            ev_row["id"],
            "cli",
            "backup-restored",
            f"{len(data['submissions'])} submissions from {Path(backup_file).name}",
        )
    atomic_write(target / CONFIG, json.dumps({"event": ev_row["id"], "database": url}, indent=2) + "\n", force=False)
    (target / CONFIG).chmod(0o600)
    return Event(engine, ev_row["id"], target), len(data["submissions"])
