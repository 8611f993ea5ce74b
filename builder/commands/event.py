"""``daimyo event``: lists handed in sealed before an event, checked, revealed, printed.

The database libraries are imported when a command runs (``_event``), the web stack by ``event serve`` only.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any, Optional, TypeVar, cast

import typer

from builder.cli import echo, formats
from builder.cli_words import help_text
from builder.errors import EXIT_ILLEGAL, EXIT_INPUT, UsageError, one_line, unknown_format
from builder.findings import severity_word
from builder.i18n import _, ngettext
from builder.names import quoted
from builder.safeout import CsvRows, json_text, spreadsheet_cell
from builder.yamlio import atomic_write, begin_command

DEFAULT_PORT = 8770  # builder.event.store.DEFAULT_PORT, here for the help text


cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


ev_app = typer.Typer(
    help="Run an event: players hand in lists, sealed until the reveal.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

cli.add_typer(ev_app, name="event")


F = TypeVar("F", bound=Callable[..., Any])


def _event() -> ModuleType:
    """``builder.event.commands``, what the commands call: imported when one of them runs (it
    brings the database's libraries), so ``daimyo --help`` loads none."""
    from builder.event import commands  # noqa: PLC0415 - the event's modules (SQLAlchemy) only when an event command runs; `daimyo --help` loads none

    return commands


def guarded(name: str) -> Callable[[F], F]:
    """``ev_app.command(name)`` for a command whose database errors (a database stopped, a
    file that is not an event's database) end as one line and exit 2, not a traceback."""

    def wrap(fn: F) -> F:

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                if type(exc).__module__.split(".")[0] in ("sqlalchemy", "psycopg", "sqlite3"):
                    raise _event().db_error(exc) from None
                raise

        return cast(F, ev_app.command(name)(run))

    return wrap


def _open(folder: str):
    return _event().Event.open(folder)


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
    setting_value = _event().setting_value
    Event = _event().Event

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
    club: list[str] = typer.Option(
        [], "--club", help="NAME=CLUB: a player's club or team, kept apart by pairings that avoid one club"
    ),
):
    """Add players (each gets a private submission link, shown once) or remove them; without
    options, list the players."""

    if format not in ("text", "csv"):
        raise UsageError(unknown_format(format, ("text", "csv")))
    clubs = _clubs(club)
    ev = _open(folder)
    if remove:
        ev.remove_players(remove)
        for n in remove:
            echo(_("removed {names} (their token no longer works)").format(names=n), err=True)
    added = ev.add_players(add) if add else []
    if added:
        if format == "csv":
            buf = io.StringIO()
            w = CsvRows(buf)
            w.writerow(["name", "token", "link"])
            for n, t in added:
                w.writerow([spreadsheet_cell(n), t, ev.player_link(t)])
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
    if clubs:
        _set_clubs(ev, clubs)
    if not (added or remove or clubs):
        for p in ev.players():
            label = p["name"] + (f" [{p['club']}]" if p.get("club") else "")
            echo(_("{name} (removed)").format(name=label) if p["revoked"] else label)


def _clubs(given: list[str]) -> list[tuple[str, str]]:
    out = []
    for c in given:
        name, eq, value = c.partition("=")
        if not eq or not name.strip():
            raise UsageError(_("--club '{text}': write NAME=CLUB").format(text=c), _("e.g. --club 'Aiko=Kyoto Dojo'"))
        out.append((name.strip(), value.strip()))
    return out


def _set_clubs(ev: Any, clubs: list[tuple[str, str]]) -> None:
    for name, value in clubs:
        _day().set_club(ev, name, value)
        echo(_("{name}: club {club}").format(name=name, club=value or "-"), err=True)


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
    from builder.event.web.app import serve  # noqa: PLC0415 - the event's web stack only when the event is served

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
    from builder.event.client import submit  # noqa: PLC0415 - the client alone (no database) only when a list is handed in; `daimyo --help` loads none

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
    export_text = _event().export_text

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
    write_book = _event().write_book

    path = write_book(_open(folder), out, anonymous=anonymous, force=force, paper=paper)
    echo(_("wrote {file}").format(file=path))


@guarded("verify")
def verify_cmd(
    source: str = typer.Argument(..., help="the event's folder, its address, or a saved /api/reveal answer"),
    timeout: float = typer.Option(60.0, "--timeout", help="seconds to give a server to answer in full"),
):
    """Check every revealed list against its commitment. Exit 0 all match, 1 one does not."""

    verify = _event().verify

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
    backup = _event().backup

    n = backup(_open(folder), out, force=force)
    echo(ngettext("wrote {file} ({n} submission)", "wrote {file} ({n} submissions)", n).format(file=out, n=n))


@guarded("restore")
def restore_cmd(
    backup_file: str = typer.Argument(..., metavar="FILE", help="a backup written by 'daimyo event backup'"),
    folder: str = typer.Argument(..., help="the new event folder"),
    database: Optional[str] = typer.Option(None, "--database", help="postgresql://... [default: SQLite in the folder]"),
):
    """Restore an event from a backup into a new folder (and database)."""
    restore = _event().restore

    _ev, n = restore(backup_file, folder, database)
    echo(
        ngettext(
            "restored the event into {folder} ({n} submission)", "restored the event into {folder} ({n} submissions)", n
        ).format(folder=folder, n=n)
    )


# -- the event's day: settings, rounds, results, drops, standings --------------------------------


def _positive(value: int | None, flag: str) -> None:
    if value is not None and value < 1:
        raise UsageError(_("{flag} {value}: give a number from 1").format(flag=flag, value=value))


def _table_text(p: dict[str, Any]) -> str:
    if p["b"] is None:
        return _("Table {table}: {a} has a bye").format(table=p["table"], a=p["a"])
    line = _("Table {table}: {a} v {b}").format(table=p["table"], a=p["a"], b=p["b"])
    res = p.get("result")
    if res is not None:
        said = _("draw") if res["draw"] else _("{name} won").format(name=res["winner"])
        if res["score"]:
            said += f" {res['score'][0]}:{res['score'][1]}"
        state = (
            _("confirmed")
            if res["confirmed_at"]
            else (
                _("disputed: {reason}").format(reason=res.get("dispute") or "")
                if res["disputed"]
                else _("waiting for confirmation")
            )
        )
        line += f"  ({said}, {state})"
    return line


def _day() -> Any:
    """``builder.event.day``, imported when a command of the day runs (it brings the database's libraries)."""
    return _event().day


def _rows_out(rows: list[dict[str, Any]], keys: list[str], format: str, text: Callable[[], Any]) -> None:
    if format == "json":
        echo(json_text(rows, indent=2))
    elif format == "csv":
        buf = io.StringIO()
        w = CsvRows(buf)
        w.writerow(keys)
        for r in rows:
            w.writerow(["" if r.get(k) is None else spreadsheet_cell(r.get(k)) for k in keys])
        echo(buf.getvalue().rstrip("\n"))
    else:
        for line in text():
            echo(line)


@guarded("pair")
def pair_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    round_: Optional[int] = typer.Option(
        None, "--round", help="pair this round again (the latest, while it has no result) [default: the next]"
    ),
    format: str = typer.Option(
        "text", "--format", "-f", help="text, json or csv", callback=formats("text", "json", "csv")
    ),
    swap: Optional[tuple[str, str]] = typer.Option(
        None, "--swap", metavar="A B", help="swap two players of the round by hand (a warning when it breaks a rule)"
    ),
    show: bool = typer.Option(False, "--show", help="show the round's pairings and results; pair nothing"),
) -> None:
    """Pair the next Swiss round (or the elimination cut); JSON: [{round, table, a, b}], b null for a bye."""
    day = _day()
    _positive(round_, "--round")
    ev = _open(folder)
    if swap and show:
        raise UsageError(_("give --swap or --show, not both"))
    if swap:
        rows, warnings = day.swap(ev, swap[0], swap[1], number=round_)
        for w in warnings:
            echo(_("warning: {what}").format(what=w), err=True)
    elif show:
        rows = day.pairings_of(ev, round_)
    else:
        rnd = day.pair(ev, number=round_)
        rows = [{k: p[k] for k in ("round", "table", "a", "b")} for p in rnd["pairings"]]
        echo(_("round {n} paired ({method})").format(n=rnd["round"], method=rnd["method"]), err=True)
    results = {}
    if format == "text":
        n = rows[0]["round"] if rows else round_
        for r in day.round_list(ev, day.CLI):  # as the organiser sees it: a dispute's reason too
            if r["round"] == n:
                results = {p["table"]: p["result"] for p in r["pairings"]}
    _rows_out(
        rows,
        ["round", "table", "a", "b"],
        format,
        lambda: (
            [_("Round {n}").format(n=rows[0]["round"]) if rows else ""]
            + ["  " + _table_text({**p, "result": results.get(p["table"])}) for p in rows]
        ),
    )


@guarded("result")
def result_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    round_: int = typer.Option(..., "--round", help="the round"),
    table: int = typer.Option(..., "--table", help="the table"),
    winner: Optional[str] = typer.Option(None, "--winner", help="the winner's name"),
    draw: bool = typer.Option(False, "--draw", help="the game was a draw"),
    score: Optional[str] = typer.Option(
        None, "--score", metavar="A:B", help="the game's own scores, the table's first player's first"
    ),
) -> None:
    """Enter (or correct) a game's result as the organiser: confirmed at once."""
    day = _day()
    _positive(round_, "--round")
    _positive(table, "--table")
    if (winner is None) == (not draw):
        raise UsageError(_("give --winner NAME or --draw"))
    if score is not None:
        day.parse_score(score)  # refused before the event is opened
    p = day.enter_result(_open(folder), day.CLI, round_, table, winner=winner, draw=draw, score=score)
    echo(_("round {n}").format(n=round_) + " " + _table_text(p))


@guarded("standings")
def standings_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    format: str = typer.Option(
        "text", "--format", "-f", help="text, json or csv", callback=formats("text", "json", "csv")
    ),
) -> None:
    """The standings: points, then the event's tiebreaks (confirmed results only)."""
    day = _day()
    ev = _open(folder)
    rows = day.standings(ev)
    tiebreaks = day.settings(ev).tiebreaks
    keys = ["rank", "player", "points", "sos", "esos", *(["h2h"] if "h2h" in tiebreaks else [])]
    keys += ["score_diff", "seed", "wins", "draws", "losses", "byes", "dropped"]

    def text() -> Any:
        yield _("Rank  Points  SOS  ESOS  Diff  Player")
        for r in rows:
            yield (
                f"{r['rank']:>4}  {r['points']:>6}  {r['sos']:>3}  {r['esos']:>4}  {r['score_diff']:>4}  "
                + r["player"]
                + (" " + _("(dropped)") if r["dropped"] else "")
            )

    _rows_out(rows, keys, format, text)


@guarded("drop")
def drop_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    name: str = typer.Argument(..., help="the player who leaves the event"),
) -> None:
    """Take a player out of the rounds paired from now on; their games are kept."""
    day = _day()
    d = day.drop(_open(folder), name)
    echo(_("{name} dropped after round {n}: not paired from now on").format(name=d["player"], n=d["after_round"]))


@guarded("settings")
def settings_cmd(
    folder: str = typer.Argument(..., help="the event's folder"),
    points: Optional[str] = typer.Option(
        None, "--points", metavar="W/D/L/B", help="points for a win, draw, loss and bye, e.g. 3/1/0/3"
    ),
    tiebreaks: Optional[str] = typer.Option(
        None,
        "--tiebreaks",
        help="their order from sos, esos, h2h, diff and seed, e.g. sos,esos,h2h,diff,seed (none: none)",
    ),
    avoid_club: Optional[bool] = typer.Option(None, "--avoid-club/--allow-club", help="keep players of one club apart"),
    fresh_tables: Optional[bool] = typer.Option(
        None, "--fresh-tables/--any-tables", help="no player at a table they played at"
    ),
    first_round: Optional[str] = typer.Option(None, "--first-round", help="random (a seeded draw) or seeded"),
    seeds: Optional[str] = typer.Option(
        None, "--seeds", help="the seeding for round 1: names, comma-separated, best first"
    ),
    seed: Optional[str] = typer.Option(None, "--seed", help="the random draw's seed [default: drawn and recorded]"),
    swiss_rounds: Optional[int] = typer.Option(None, "--swiss-rounds", help="Swiss rounds before the top cut"),
    top: Optional[int] = typer.Option(
        None, "--top", help="single elimination of the top N after the Swiss rounds (0: none)"
    ),
    format: str = typer.Option("text", "--format", "-f", help="text or json", callback=formats("text", "json")),
) -> None:
    """How the day is run: points, tiebreaks, pairing options, round 1, a top cut. Without
    options, show them."""
    day = _day()
    if points is not None:
        day.parse_points(points)
    if tiebreaks is not None:
        day.parse_tiebreaks(tiebreaks)
    ev = _open(folder)
    change = dict(
        points=points,
        tiebreaks=tiebreaks,
        avoid_club=avoid_club,
        fresh_tables=fresh_tables,
        first_round=first_round,
        seed_order=seeds,
        seed=seed,
        swiss_rounds=swiss_rounds,
        top=top,
    )
    s = day.set_settings(ev, change) if any(v is not None for v in change.values()) else day.settings(ev)
    if format == "json":
        echo(json_text(s.as_dict(), indent=2))
        return
    yes, no = _("yes"), _("no")
    echo(_("points: win {w}, draw {d}, loss {l}, bye {b}").format(w=s.win, d=s.draw, l=s.loss, b=s.bye))
    echo(_("tiebreaks: {names}").format(names=", ".join(s.tiebreaks) or _("none")))
    echo(_("avoid one club: {v}").format(v=yes if s.avoid_club else no))
    echo(_("fresh tables: {v}").format(v=yes if s.fresh_tables else no))
    first = (
        _("seeded: {names}").format(names=", ".join(s.seed_order) or "-")
        if s.first_round == "seeded"
        else _("random draw, seed {seed}").format(seed=s.seed or _("drawn when paired"))
    )
    echo(_("round 1: {how}").format(how=first))
    if s.top:
        echo(_("top {top} single elimination after {n} Swiss rounds").format(top=s.top, n=s.swiss_rounds))


del EXIT_INPUT


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
