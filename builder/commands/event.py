"""``daimyo event``: lists handed in sealed before an event, checked, revealed, printed.

The database libraries are imported inside the commands, the web stack by ``event serve`` only.
"""

from __future__ import annotations

import csv
import functools
import io
import math
from typing import Optional

import typer

from builder.cli import echo, formats
from builder.cli_words import help_text
from builder.errors import EXIT_ILLEGAL, EXIT_INPUT, UsageError, one_line, unknown_format
from builder.findings import severity_word
from builder.i18n import _, ngettext
from builder.names import quoted
from builder.yamlio import atomic_write, begin_command

DEFAULT_PORT = 8770  # builder.event.store.DEFAULT_PORT, here for the help text


cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


ev_app = typer.Typer(
    help="Run an event: players hand in lists, sealed until the reveal.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

cli.add_typer(ev_app, name="event")


def guarded(name: str):
    """``ev_app.command(name)`` for a command whose database errors (a database stopped, a
    file that is not an event's database) end as one line and exit 2, not a traceback."""

    def wrap(fn):

        @functools.wraps(fn)
        def run(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                if type(exc).__module__.split(".")[0] in ("sqlalchemy", "psycopg", "sqlite3"):
                    from builder.event.db import db_error

                    raise db_error(exc) from None
                raise

        return ev_app.command(name)(run)

    return wrap


def _open(folder: str):
    from builder.event.store import Event

    return Event.open(folder)


@guarded("new")
def new_cmd(
    folder: str = typer.Argument(..., help="the event's folder (created)"),
    name: str = typer.Option(..., "--name", help="the event's name"),
    system: str = typer.Option(..., "--system", "-s", help="the game: senshiai, kensei, herocard, senji or satsuma"),
    points: Optional[int] = typer.Option(
        None, "--points", help="the points every list is built to (the game's own points setting)"
    ),
    setting: list[str] = typer.Option(
        [], "--setting", help="KEY=VALUE: a setting every list must have, e.g. size=50 or clan=buke"
    ),
    deadline: Optional[str] = typer.Option(
        None, "--deadline", help="ISO time after which lists can no longer be changed"
    ),
    reveal: Optional[str] = typer.Option(None, "--reveal", help="ISO time at which every list is revealed"),
    database: Optional[str] = typer.Option(
        None, "--database", help="postgresql://USER:PASSWORD@HOST/DB [default: SQLite in the folder]"
    ),
    url: Optional[str] = typer.Option(
        None,
        "--url",
        help=help_text(
            "the address players open [default: http://127.0.0.1:{DEFAULT_PORT}]", DEFAULT_PORT=DEFAULT_PORT
        ),
    ),
):
    """Create an event in a folder; prints the organiser's address with its token (shown once)."""
    from builder.event.intake import setting_value
    from builder.event.store import Event

    settings = {}
    if points is not None:
        if points <= 0:
            raise UsageError(_("--points must be positive, not {points}").format(points=points))
        settings["points"] = points
    for s in setting:
        key, eq, value = s.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise UsageError(
                _("--setting '{setting}': write KEY=VALUE").format(setting=s),
                _("e.g. {example}").format(example="--setting size=50"),
            )
        settings[key.strip()] = setting_value(value)
    ev, token = Event.create(folder, name, system, settings, deadline, reveal, database, url)
    info = ev.info()
    echo(_("event '{name}' ({game}) in {folder}").format(name=info["name"], game=info["system"], folder=folder))
    echo(_("organiser: {link}").format(link=ev.organiser_link(token)))
    echo(_("keep this address to yourself: its token is shown only now"))


@guarded("players")
def players_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    add: list[str] = typer.Option([], "--add", help="a new player (repeat for more)"),
    remove: list[str] = typer.Option([], "--remove", help="revoke a player's token (their lists are kept)"),
    format: str = typer.Option("text", "--format", "-f", help="text or csv (name,token,link)"),
):
    """Add players (each gets a private submission link, shown once) or remove them; without
    options, list the players."""

    if format not in ("text", "csv"):
        raise UsageError(unknown_format(format, ("text", "csv")))
    ev = _open(folder)
    if remove:
        ev.remove_players(remove)
        for n in remove:
            echo(_("removed {names} (their token no longer works)").format(names=n), err=True)
    added = ev.add_players(add) if add else []
    if added:
        if format == "csv":
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\n")
            w.writerow(["name", "token", "link"])
            for n, t in added:
                w.writerow([n, t, ev.player_link(t)])
            echo(buf.getvalue().rstrip("\n"))
        else:
            for n, t in added:
                echo(f"{n}: {ev.player_link(t)}")
        echo(
            ngettext(
                "{n} player added; send each their own link (the tokens are shown only now)",
                "{n} players added; send each their own link (the tokens are shown only now)",
                len(added),
            ).format(n=len(added)),
            err=True,
        )
    elif not remove:
        for p in ev.players():
            echo(_("{name} (removed)").format(name=p["name"]) if p["revoked"] else p["name"])


@guarded("token")
def token_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    player: Optional[str] = typer.Option(None, "--player", help="the player whose link was lost"),
    organiser: bool = typer.Option(False, "--organiser", help="the organiser's token instead"),
):
    """A new token and link for a player, or for the organiser; the old one stops working."""

    if bool(player) == organiser:
        raise UsageError(_("give --player NAME or --organiser"))
    ev = _open(folder)
    token = ev.new_token(None if organiser else player)
    echo(ev.organiser_link(token) if organiser else f"{player}: {ev.player_link(token)}")
    echo(_("the old token no longer works; this one is shown only now"), err=True)


@guarded("serve")
def serve_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    port: int = typer.Option(DEFAULT_PORT, "--port", help="the port (0: any free port)"),
    host: str = typer.Option("127.0.0.1", "--host", help="the address to listen on (0.0.0.0: every network)"),
):
    """Serve the event: the players' submission page, the organiser's dashboard, the JSON API."""

    if not 0 <= port <= 65535:
        raise UsageError(_("--port {port}: give a port from 0 to 65535").format(port=port), _("0 takes any free port"))

    begin_command(track=False)
    from builder.event.web.app import serve

    serve(folder, host, port, echo)


@guarded("submit")
def submit_cmd(
    url: str = typer.Argument(..., help="the event's address (or the player's link)"),
    list_: str = typer.Argument(
        ..., metavar="LIST", help="a list file in any share format, a share code, or - for stdin"
    ),
    token: Optional[str] = typer.Option(
        None, "--token", envvar="DAIMYO_EVENT_TOKEN", help="the player's token [default: the link's]"
    ),
    wait: float = typer.Option(0.0, "--wait", help="seconds to keep trying while the server does not answer yet"),
    timeout: float = typer.Option(
        60.0, "--timeout", help="seconds to give the server to answer in full before giving up"
    ),
):
    """Hand in a list; prints its verdict and commitment. Exit 0 legal, 1 illegal, 2 refused."""
    from builder.event.client import submit

    res = submit(url, list_, token, wait, timeout)
    echo(
        _("{player}: version {version}: {verdict}, {total}").format(
            player=quoted(res["player"]), version=res["version"], verdict=res["verdict"], total=res["total"]
        )
    )
    for f in res.get("findings", []):
        echo(f"  {severity_word(f['severity'])} {f['code']}: {f.get('message_translated') or f['message']}")
    if isinstance(res.get("fingerprint"), str):
        echo(_("fingerprint {fingerprint}").format(fingerprint=res["fingerprint"]))
    echo(_("commitment {commitment}").format(commitment=res["commitment"]))
    if not res["legal"]:
        raise typer.Exit(EXIT_ILLEGAL)


def _phase(folder: str, state: str):
    ev = _open(folder)
    ev.lock() if state == "locked" else ev.reveal()
    echo(
        _("event revealed: every list is public to the event")
        if state == "revealed"
        else _("event locked: no more lists are taken")
    )


@guarded("lock")
def lock_cmd(folder: str = typer.Argument(..., help="the event's folder")):
    """Take no more lists."""
    _phase(folder, "locked")


@guarded("reveal")
def reveal_cmd(folder: str = typer.Argument(..., help="the event's folder")):
    """Reveal every list with the secret of its commitment (it also locks the event)."""
    _phase(folder, "revealed")


@guarded("export")
def export_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    format: str = typer.Option("csv", "--format", "-f", help="csv or json", callback=formats("csv", "json")),
    out: Optional[str] = typer.Option(None, "--output", "-o", help="write to this file"),
    force: bool = typer.Option(False, "--force", help="replace an existing output file"),
):
    """One row per player: player, status, version, verdict, legal, total, fingerprint, commitment, time."""
    from builder.event.outputs import export_text

    text = export_text(_open(folder), format)
    if out:
        atomic_write(out, text, force=force)
        echo(_("wrote {file}").format(file=out), err=True)
    else:
        echo(text.rstrip("\n"))


@guarded("book")
def book_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    out: str = typer.Option(..., "--output", "-o", help="the PDF to write"),
    anonymous: bool = typer.Option(False, "--anonymous", help="for judges: lists numbered, no player names"),
    force: bool = typer.Option(False, "--force", help="replace an existing PDF"),
    paper: str = typer.Option("a4", "--paper", help="a4 or letter"),
):
    """The organiser's book of every player's latest list (after the reveal)."""
    from builder.event.outputs import write_book

    path = write_book(_open(folder), out, anonymous=anonymous, force=force, paper=paper)
    echo(_("wrote {file}").format(file=path))


@guarded("verify")
def verify_cmd(
    source: str = typer.Argument(..., help="the event's folder, its address, or a saved /api/reveal answer"),
    timeout: float = typer.Option(60.0, "--timeout", help="seconds to give a server to answer in full"),
):
    """Check every revealed list against its commitment. Exit 0 all match, 1 one does not."""

    from builder.event.outputs import verify

    if not math.isfinite(timeout) or not 0 < timeout <= 86400:
        raise UsageError(_("--timeout {timeout}: give seconds from 0 to 86400").format(timeout=f"{timeout:g}"))
    results = verify(source, timeout)
    bad = 0
    for e, ok, why in results:
        bad += not ok
        echo(f"{'ok' if ok else 'MISMATCH'}  {quoted(e.get('player') or '')} version {e.get('version')}: {why}")
    echo(_("{n} of {total} submissions match their commitments").format(n=len(results) - bad, total=len(results)))
    if bad:
        raise typer.Exit(EXIT_ILLEGAL)


@guarded("log")
def log_cmd(folder: str = typer.Argument(..., help="the event's folder")):
    """The audit log: every action on the event, oldest first."""

    rows = _open(folder).audit_log()
    for r in rows:  # one line a row: a player's name or reason cannot forge another
        echo(
            one_line(
                f"{r['at']}  {r['actor']}  {r['action']}"
                + (f"  {r['detail']}" if r["detail"] else "")
                + (f"  [{r['address']}]" if r["address"] else "")
            )
        )


@guarded("backup")
def backup_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    out: str = typer.Option(..., "--output", "-o", help="the backup file to write (JSON)"),
    force: bool = typer.Option(False, "--force", help="replace an existing file"),
):
    """Every row of the event in one file (restore it with 'daimyo event restore')."""
    from builder.event.outputs import backup

    n = backup(_open(folder), out, force=force)
    echo(ngettext("wrote {file} ({n} submission)", "wrote {file} ({n} submissions)", n).format(file=out, n=n))


@guarded("restore")
def restore_cmd(
    backup_file: str = typer.Argument(..., metavar="FILE", help="a backup written by 'daimyo event backup'"),
    folder: str = typer.Argument(..., help="the new event folder"),
    database: Optional[str] = typer.Option(None, "--database", help="postgresql://... [default: SQLite in the folder]"),
):
    """Restore an event from a backup into a new folder (and database)."""
    from builder.event.outputs import restore

    _ev, n = restore(backup_file, folder, database)
    echo(
        ngettext(
            "restored the event into {folder} ({n} submission)", "restored the event into {folder} ({n} submissions)", n
        ).format(folder=folder, n=n)
    )


del EXIT_INPUT


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
