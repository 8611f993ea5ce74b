"""What an event gives out: the export (CSV or JSON), the organiser's book, the verification
of revealed lists, and backups of the whole event."""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path

from sqlalchemy import insert, select
from sqlalchemy.exc import SQLAlchemyError

from builder import yamlio
from builder.catalog.packfiles import resolve_recorded
from builder.errors import DaimyoError, UsageError, command_line
from builder.event import db
from builder.event.client import Unreachable, error_of, request_json
from builder.event.db import (
    audit,
    changes,
    drops,
    event_settings,
    events,
    openings,
    pairings,
    players,
    results,
    rounds,
    submissions,
)
from builder.event.intake import EventRefused
from builder.event.seal import verify_revealed
from builder.event.store import Event, check_new_folder, log_action, new_event_files, write_config
from builder.i18n import _
from builder.lists.dump import dump_list_yaml
from builder.render.api import render_list
from builder.render.book import total_of, verdict_of
from builder.render.bookpdf import render_book
from builder.safeout import CsvRows, json_text, spreadsheet_cell
from builder.share.api import check_imported, export_doc, parse_source_text
from builder.share.fingerprint import fingerprint

EXPORT_COLUMNS = (
    "player",
    "status",
    "version",
    "verdict",
    "legal",
    "total",
    "fingerprint",
    "commitment",
    "secret",
    "time",
)
# ``verify URL``: the revealed lists' answer, every version of every list with its secret
MAX_REVEALED_BYTES = 64 * 1024 * 1024
# ... and its submissions: each is read and checked again (milliseconds each), and 64 MiB of small
# entries would be hundreds of thousands of them. An event of 500 players handing in 20 versions
# each stays under it.
MAX_REVEALED_ENTRIES = 10_000
BACKUP_KEY = "daimyo_event_backup"
BACKUP_VERSION = 1


def export_text(ev, fmt: str) -> str:
    if fmt not in ("csv", "json"):
        raise UsageError(f"unknown format '{fmt}'", "use csv or json")
    rows = ev.rows()
    ev.log("organiser", "exported", f"{len(rows)} rows as {fmt}")
    if fmt == "json":
        return json_text(rows, indent=2) + "\n"
    out = io.StringIO()
    w = CsvRows(out)
    w.writerow(EXPORT_COLUMNS)
    for r in rows:
        w.writerow([spreadsheet_cell(r[k]) for k in EXPORT_COLUMNS])
    return out.getvalue()


def _book_doc(list_text: str, system: str, label: str) -> str:
    """A stored list as a file the book can read, its packs found by name here (or left out).
    The list itself is printed as handed in, so that its fingerprint is the one recorded."""
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


def readable(list_text: str, system: str | None) -> dict:
    """A stored list as a person reads it: ``text`` (its forum text, as ``daimyo show`` prints
    it, with its total) and ``code`` (its share code); both empty when it cannot be read again
    here (a pack it names is missing): the stored JSON is then what there is to show."""
    try:
        imp = parse_source_text(list_text, "list", system)
        imp.received = True  # packs by name only, never as files on the server
        res = check_imported(imp)
        return {
            "text": export_doc(dict(imp.doc), "text", res.summary),
            "code": export_doc(dict(imp.doc), "code"),
            "verdict": verdict_of(res),
            "total": total_of(str(imp.doc.get("system")), res.summary),
            "findings": [{"severity": f.severity, "code": f.code, "message": f.message} for f in res.findings],
        }
    except (DaimyoError, ValueError):
        return {"text": "", "code": "", "verdict": "", "total": "", "findings": []}


def list_pdf(list_text: str, system: str, name: str, paper: str = "a4") -> bytes:
    """A stored list printed as ``daimyo print`` prints it (card sheets, a roster or a setup
    sheet): the PDF's bytes."""
    with tempfile.TemporaryDirectory(prefix="daimyo-list-") as tmp:
        path = Path(tmp) / f"{_safe(name)}.yaml"
        path.write_text(_book_doc(list_text, system, name), encoding="utf-8")
        out = Path(tmp) / "list.pdf"
        render_list(path, out, force=True, paper=paper)
        return out.read_bytes()


def write_book(ev, out: str, anonymous: bool = False, force: bool = False, paper: str = "a4") -> Path:
    """The organiser's book of every player's latest list (after the reveal): one PDF with the
    contents page, each list with its verdict, findings, share code and fingerprint. For judges
    (``anonymous``) the lists are numbered, in the order of their fingerprints, without the players'
    names (a list prints as handed in: its fingerprint must stay the recorded one)."""
    info = ev.info()
    if info["phase"] != "revealed":
        raise EventRefused(
            "the lists are sealed until the reveal",
            command_line("reveal them first: 'daimyo event reveal DIR'"),
            status=409,
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
        written = render_book(
            files,
            out,
            force=force,
            paper=paper,
            title=info["name"],
            players=None if anonymous else [s["player"] for s in lists],
        )
    ev.log("organiser", "book-printed", f"{'anonymous ' if anonymous else ''}{len(files)} lists to {Path(out).name}")
    return written


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in " -_." else "_" for c in name).strip() or "player"


# -- verification ----------------------------------------------------------------------


def revealed_entries(source: str, timeout: float = 60.0) -> tuple[str, list[dict]]:
    """The revealed submissions of an event: from its folder, its server's address (``GET
    /api/reveal``) or a file that API's answer was saved to. ``(label, entries)``; UsageError
    when the source holds no such answer."""
    if source.startswith(("http://", "https://")):
        url = source.split("?", 1)[0].rstrip("/")
        for tail in ("/submit", "/organiser", "/api/reveal"):
            if url.endswith(tail):
                url = url[: -len(tail)]
        try:
            status, data = request_json(url + "/api/reveal", timeout=timeout, limit=MAX_REVEALED_BYTES)
        except Unreachable:
            raise UsageError(
                f"{url}: cannot read the revealed lists: nothing answers there",
                "is 'daimyo event serve' running there?",
            ) from None
        if status >= 300:
            raise error_of(status, data, url)
        return url, _entries(data, url)
    p = Path(source)
    try:
        is_dir, is_file = p.is_dir(), p.is_file()
    except (OSError, ValueError):
        is_dir = is_file = False
    if is_dir:
        return str(p), Event.open(p).revealed()
    if is_file:
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as exc:
            raise UsageError(f"{p}: not the JSON of revealed lists: {_first_line(exc)}") from None
        return str(p), _entries(data, str(p))
    raise UsageError(f"{source}: no event folder, file or address", "give DIR, http://HOST:PORT or FILE.json")


REVEALED_KEYS = ("list", "secret", "commitment")


def _entries(data, where: str) -> list[dict]:
    """The submissions of an ``/api/reveal`` answer, each with its list, secret and commitment."""
    hint = "give the answer of the event's /api/reveal, or the event's folder or address"
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("submissions"), list)
        or not isinstance(data.get("event"), dict)
    ):
        raise UsageError(f"{where}: not the revealed lists of an event (no 'event' and 'submissions')", hint)
    if len(data["submissions"]) > MAX_REVEALED_ENTRIES:  # refused before any is checked
        raise UsageError(
            _("{where}: {n:,} submissions, more than the {most:,} an event's revealed lists may hold").format(
                where=where, n=len(data["submissions"]), most=MAX_REVEALED_ENTRIES
            ),
            _("check the address: is it the event's?"),
        )
    out = []
    for i, e in enumerate(data["submissions"], 1):
        if not isinstance(e, dict):
            raise UsageError(f"{where}: submission {i} is not an object", hint)
        for k in REVEALED_KEYS:
            if not isinstance(e.get(k), str):
                raise UsageError(f"{where}: submission {i} has no '{k}' text", hint)
        packs = e.get("packs")
        if packs is not None and (not isinstance(packs, list) or not all(isinstance(h, str) for h in packs)):
            raise UsageError(f"{where}: submission {i}: 'packs' is not a list of hashes", hint)
        if e.get("system") is not None and not isinstance(e.get("system"), str):
            raise UsageError(f"{where}: submission {i}: 'system' is not a game's name", hint)
        out.append(e)
    return out


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def verify(source: str, timeout: float = 60.0) -> list[tuple[dict, bool, str]]:
    """Each revealed submission checked against its commitment and, where the event published
    one, its fingerprint: ``(entry, ok, why)``, ``why`` naming the fingerprint the list gives."""
    _label, entries = revealed_entries(source, timeout)
    out = []
    for e in entries:
        ok, why = verify_revealed(e)
        fp = revealed_fingerprint(e)
        shown = str(e.get("fingerprint") or "")
        if ok and fp and shown and shown != fp:
            ok, why = False, f"fingerprint {shown} shown by the event does not match the list (it gives {fp})"
        elif ok and fp:
            why += f", fingerprint {fp}"
        out.append((e, ok, why))
    return out


def revealed_fingerprint(entry: dict) -> str:
    """The fingerprint of a revealed list (its text read again, with its packs' hashes); empty
    when it cannot be read (its commitment says so)."""
    try:
        imp = parse_source_text(str(entry.get("list") or ""), "<revealed>", entry.get("system"))
        return fingerprint(dict(imp.doc), list(entry.get("packs") or []))
    except (DaimyoError, ValueError):
        return ""


# -- backups ---------------------------------------------------------------------------


def backup(ev, out: str, force: bool = False) -> int:
    """Every row of the event (its players, submissions, openings, audit log) as one JSON file,
    written atomically; the number of submissions in it."""
    with ev.engine.connect() as conn:

        def rows(table, cond):
            return [
                dict(r) for r in conn.execute(select(table).where(cond).order_by(*table.primary_key.columns)).mappings()
            ]

        # the rows that name others first, the rows they name after: a player or a list added while
        # the backup is taken is in it whole or not at all (a row is only ever added after those it names)
        taken = {
            "audit": rows(audit, audit.c.event_id == ev.id),
            "openings": rows(
                openings, openings.c.submission_id.in_(select(submissions.c.id).where(submissions.c.event_id == ev.id))
            ),
        }
        round_ids = select(rounds.c.id).where(rounds.c.event_id == ev.id)
        pairing_ids = select(pairings.c.id).where(pairings.c.round_id.in_(round_ids))
        taken["changes"] = rows(changes, changes.c.event_id == ev.id)
        taken["results"] = rows(results, results.c.pairing_id.in_(pairing_ids))
        taken["pairings"] = rows(pairings, pairings.c.round_id.in_(round_ids))
        taken["rounds"] = rows(rounds, rounds.c.event_id == ev.id)
        taken["drops"] = rows(drops, drops.c.event_id == ev.id)
        taken["event_settings"] = rows(event_settings, event_settings.c.event_id == ev.id)
        taken["submissions"] = rows(submissions, submissions.c.event_id == ev.id)
        taken["players"] = rows(players, players.c.event_id == ev.id)
        taken["events"] = rows(events, events.c.id == ev.id)
        data: dict = {BACKUP_KEY: BACKUP_VERSION, "schema": db.head_revision(), "taken": db.now()}
        data.update((k, taken[k]) for k in ("events", "players", "submissions", "openings", "audit", *DAY_KEYS))
    yamlio.atomic_write(out, json.dumps(data, ensure_ascii=False, indent=1) + "\n", force=force, mode=0o600)
    n = len(taken["submissions"])
    ev.log("organiser", "backup-taken", f"{n} submissions to {Path(out).name}")
    return n


def restore(backup_file: str, folder: str, database: str | None = None):
    """A backup restored as the event of ``folder`` (a new folder, or one whose database lacks
    the event): the same event id, players, tokens, submissions and log. A damaged backup is
    refused, and nothing is left behind."""
    try:
        data = json.loads(Path(backup_file).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise UsageError(f"{backup_file}: not an event backup: {_first_line(exc)}") from None
    if not isinstance(data, dict) or data.get(BACKUP_KEY) != BACKUP_VERSION:
        raise UsageError(f"{backup_file}: not an event backup of this daimyo ({BACKUP_KEY}: {BACKUP_VERSION})")
    _check_backup(data, backup_file)
    target = Path(folder)
    check_new_folder(target)
    if database is not None:
        db.check_url(database)
    url = database or db.sqlite_url(target)
    ev_row = data["events"][0]
    with new_event_files(target, url, str(ev_row.get("id"))) as engine:
        try:
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
                            submission_id=sid[r["submission_id"]],
                            player_id=pid[r["player_id"]],
                            at=r["at"],
                            reason=r["reason"],
                        )
                    )
                for r in data["audit"]:
                    conn.execute(insert(audit).values(**{k: v for k, v in r.items() if k != "id"}))
                _restore_day(conn, data, pid)
                log_action(
                    conn,
                    ev_row["id"],
                    "cli",
                    "backup-restored",
                    f"{len(data['submissions'])} submissions from {Path(backup_file).name}",
                )
                write_config(target, ev_row["id"], url)
        except KeyError as exc:
            raise UsageError(
                f"{backup_file}: a damaged backup: a row names {exc} that is not in it; nothing was restored"
            ) from None
        except SQLAlchemyError as exc:
            if db.database_down(exc):
                raise
            why = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
            raise UsageError(f"{backup_file}: a damaged backup: {why[:200]}; nothing was restored") from None
    return Event(db.make_engine(url, pooled=False), ev_row["id"], target), len(data["submissions"])


DAY_KEYS = ("event_settings", "rounds", "pairings", "results", "changes", "drops")


def _restore_day(conn, data: dict, pid: dict) -> None:
    """The day's rows of a backup (none in one taken before events had rounds), their ids renumbered."""
    rid, gid = {}, {}
    for r in data.get("event_settings", []):
        conn.execute(insert(event_settings).values(**r))
    for r in data.get("rounds", []):
        rid[r["id"]] = conn.execute(
            insert(rounds).values(**{k: v for k, v in r.items() if k != "id"})
        ).inserted_primary_key[0]
    for r in data.get("pairings", []):
        row = {k: v for k, v in r.items() if k != "id"}
        row.update(round_id=rid[r["round_id"]], a=pid[r["a"]], b=None if r["b"] is None else pid[r["b"]])
        gid[r["id"]] = conn.execute(insert(pairings).values(**row)).inserted_primary_key[0]
    for r in data.get("results", []):
        row = {k: v for k, v in r.items() if k != "id"}
        row["pairing_id"] = gid[r["pairing_id"]]
        conn.execute(insert(results).values(**row))
    for r in data.get("drops", []):
        row = {k: v for k, v in r.items() if k != "id"}
        row["player_id"] = pid[r["player_id"]]
        conn.execute(insert(drops).values(**row))
    for r in data.get("changes", []):
        conn.execute(insert(changes).values(**{k: v for k, v in r.items() if k != "id"}))


def _check_backup(data: dict, where: str) -> None:
    """UsageError unless every table of the backup is a list of rows whose fields are the table's."""
    tables = {"events": events, "players": players, "submissions": submissions, "openings": openings, "audit": audit}
    day_tables = {
        "event_settings": event_settings,
        "rounds": rounds,
        "pairings": pairings,
        "results": results,
        "changes": changes,
        "drops": drops,
    }
    tables.update((k, t) for k, t in day_tables.items() if k in data)  # a backup of before the day has none
    for key, table in tables.items():
        rows = data.get(key)
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise UsageError(f"{where}: a damaged backup: '{key}' is not a list of rows; nothing was restored")
        cols = set(table.columns.keys())
        need = {c.name for c in table.columns if not c.nullable and c.default is None and not c.primary_key}
        if key in ("events", "players", "submissions", "rounds", "pairings"):
            need.add("id")
        for i, r in enumerate(rows, 1):
            odd = sorted(set(r) - cols)
            missing = (
                sorted(need - set(r))
                if key != "openings"
                else sorted({"submission_id", "player_id", "at", "reason"} - set(r))
            )
            if odd or missing:
                what = f"unknown field '{odd[0]}'" if odd else f"no '{missing[0]}'"
                raise UsageError(f"{where}: a damaged backup: {key} row {i} has {what}; nothing was restored")
            for k, v in r.items():
                if v is not None and not isinstance(v, (str, int, float, bool)):
                    raise UsageError(
                        f"{where}: a damaged backup: {key} row {i}: '{k}' is not a value; nothing was restored"
                    )
    if len(data["events"]) != 1:
        raise UsageError(f"{where}: a damaged backup: it holds {len(data['events'])} events, not one")
