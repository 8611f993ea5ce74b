"""The event's day on its database: settings, rounds paired, results entered and confirmed,
drops and standings. The library behind ``daimyo event pair|result|standings|drop|settings`` and
the event server's pages and API for them.

Every function takes the ``Event`` and who acts (a ``Who``, or a token as a player's page has
it); each is one transaction that first takes the event's row (``Event.claim``), so two servers
on one PostgreSQL pairing a round, or two players of one table entering their result, at once,
do one after the other. Every change is written to the change log (who, when, what) and the
audit log in the same transaction. Refusals are ``EventRefused`` (exit 2 on the command line, a
4xx on a server) with one line for a person.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from builder.errors import command_line
from builder.event import db
from builder.event.db import changes, drops, event_settings, events, pairings, players, results, rounds
from builder.event.intake import EventRefused
from builder.event.pairing import Entrant, Options, Pair, club_key, pair_elimination, pair_swiss, pair_top_cut
from builder.event.standings import TIEBREAKS, Game, Points, Standing, Table
from builder.event.standings import standings as rank_players
from builder.event.store import CLI, Event, Who, clean_text, log_action
from builder.i18n import _

__all__ = [
    "MAX_POINTS",
    "MAX_ROUNDS",
    "MAX_SCORE",
    "MAX_TOP",
    "DaySettings",
    "DayState",
    "change_log",
    "check_drop",
    "confirm_result",
    "dispute_result",
    "drop",
    "dropped_players",
    "enter_result",
    "is_over",
    "pair",
    "pairings_of",
    "parse_points",
    "parse_score",
    "parse_tiebreaks",
    "plan",
    "round_list",
    "set_club",
    "set_settings",
    "settings",
    "standings",
    "swap",
]

Row = dict[str, Any]  # a row or a record as the functions here pass it

MAX_POINTS = 1000  # points for a win, a draw, a loss or a bye
MAX_SCORE = 100000  # a game's own score (victory points, ...)
MAX_ROUNDS = 30  # Swiss rounds before a cut
MAX_TOP = 256  # players in a single elimination cut
MAX_CLUB = 80
MAX_SEED = 64
MAX_REASON = 300


@dataclass
class DaySettings:
    """How the day is run: points for a win, a draw, a loss and a bye; the tiebreaks in order;
    the pairing options; round 1 random (``seed``) or by ``seed_order``; a single elimination
    cut of the ``top`` players after ``swiss_rounds``."""

    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3
    tiebreaks: list[str] = field(default_factory=lambda: list(TIEBREAKS))
    avoid_club: bool = False
    fresh_tables: bool = False
    first_round: str = "random"
    seed_order: list[str] = field(default_factory=list)
    seed: str = ""
    swiss_rounds: int | None = None
    top: int | None = None

    @property
    def points(self) -> Points:
        return Points(self.win, self.draw, self.loss, self.bye)

    def as_dict(self) -> Row:
        return asdict(self)


def _who(ev: Event, who: Who | str | None) -> Who:
    return who if isinstance(who, Who) else ev.who(who)


def _organiser(who: Who, what: str) -> None:
    if who.role != "organiser":
        raise EventRefused(_("only the organiser {what}").format(what=what), status=403)


def _record(
    conn: Connection, ev: Event, who: Who, action: str, detail: str, rnd: int | None = None, table: int | None = None
) -> None:
    conn.execute(
        insert(changes).values(
            event_id=ev.id, at=db.now(), actor=who.actor, action=action, round=rnd, table_no=table, detail=detail[:2000]
        )
    )
    where = (f"round {rnd}" if rnd else "") + (f" table {table}" if table else "")
    log_action(conn, ev.id, who.actor, action, (where + ": " if where else "") + detail)


# -- settings ----------------------------------------------------------------------------------


def settings(ev: Event, conn: Connection | None = None) -> DaySettings:
    if conn is None:
        with ev.engine.connect() as c:
            return settings(ev, c)
    r = conn.execute(select(event_settings).where(event_settings.c.event_id == ev.id)).mappings().first()
    if r is None:
        return DaySettings()
    return DaySettings(
        win=r["win"],
        draw=r["draw"],
        loss=r["loss"],
        bye=r["bye"],
        tiebreaks=[t for t in r["tiebreaks"].split(",") if t],
        avoid_club=bool(r["avoid_club"]),
        fresh_tables=bool(r["fresh_tables"]),
        first_round=r["first_round"],
        seed_order=json.loads(r["seed_order"]),
        seed=r["seed"],
        swiss_rounds=r["swiss_rounds"],
        top=r["top"],
    )


def _store_settings(conn: Connection, ev: Event, s: DaySettings) -> None:
    values = dict(
        win=s.win,
        draw=s.draw,
        loss=s.loss,
        bye=s.bye,
        tiebreaks=",".join(s.tiebreaks),
        avoid_club=s.avoid_club,
        fresh_tables=s.fresh_tables,
        first_round=s.first_round,
        seed_order=json.dumps(s.seed_order, ensure_ascii=False),
        seed=s.seed,
        swiss_rounds=s.swiss_rounds,
        top=s.top,
        updated=db.now(),
    )
    done = conn.execute(update(event_settings).where(event_settings.c.event_id == ev.id).values(**values))
    if done.rowcount == 0:
        conn.execute(insert(event_settings).values(event_id=ev.id, **values))


def parse_points(text: str) -> tuple[int, int, int, int]:
    """``W/D/L/B`` (e.g. ``3/1/0/3``): points for a win, a draw, a loss and a bye."""
    bits = str(text).split("/")
    try:
        w, d, lo, b = (int(x.strip()) for x in bits)
    except ValueError:
        raise EventRefused(
            _("points '{text}': write WIN/DRAW/LOSS/BYE").format(text=text), _("e.g. 3/1/0/3"), status=422
        ) from None
    if not all(0 <= x <= MAX_POINTS for x in (w, d, lo, b)):
        raise EventRefused(
            _("points '{text}': each must be from 0 to {most}").format(text=text, most=MAX_POINTS), status=422
        )
    if not w >= d >= lo or w == lo:
        raise EventRefused(
            _(
                "points '{text}': a win must give more than a loss, and a draw neither more than a win nor less than a loss"
            ).format(text=text),
            status=422,
        )
    return w, d, lo, b


def parse_tiebreaks(text: str) -> list[str]:
    """A comma-separated order of tiebreaks from sos, esos, h2h, diff and seed ("" or none: none)."""
    names = [t.strip().lower() for t in str(text).split(",") if t.strip()]
    if names == ["none"]:
        return []
    for t in names:
        if t not in TIEBREAKS:
            raise EventRefused(
                _("unknown tiebreak '{name}'").format(name=t),
                _("choose from {names}").format(names=", ".join(TIEBREAKS)),
                status=422,
            )
    if len(set(names)) != len(names):
        raise EventRefused(_("tiebreaks '{text}': each may be given once").format(text=text), status=422)
    return names


def set_settings(ev: Event, change: Row, who: Who | str | None = CLI) -> DaySettings:
    """Change some of the settings (the keys of ``DaySettings``, or ``points`` as ``W/D/L/B``
    text and ``tiebreaks`` as comma-separated text); the settings as they are then."""
    who = _who(ev, who)
    _organiser(who, _("sets how the day is run"))
    with ev.engine.begin() as conn:
        ev.claim(conn)
        s = settings(ev, conn)
        said = []
        for key, value in change.items():
            if value is None:
                continue
            said.append(f"{key}={value}")
            _apply(conn, ev, s, key, value)
        if s.top is not None and s.swiss_rounds is None:
            raise EventRefused(
                _("a top cut needs the number of Swiss rounds before it"), _("give the Swiss rounds too"), status=422
            )
        _store_settings(conn, ev, s)
        if said:
            _record(conn, ev, who, "settings-changed", ", ".join(said))
    return s


def _apply(conn: Connection, ev: Event, s: DaySettings, key: str, value: Any) -> None:
    if key == "points":
        s.win, s.draw, s.loss, s.bye = parse_points(value) if isinstance(value, str) else tuple(value)
    elif key == "tiebreaks":
        s.tiebreaks = parse_tiebreaks(value) if isinstance(value, str) else parse_tiebreaks(",".join(value))
    elif key in ("avoid_club", "fresh_tables"):
        setattr(s, key, bool(value))
    elif key == "first_round":
        if value not in ("random", "seeded"):
            raise EventRefused(_("round 1 '{value}': give random or seeded").format(value=value), status=422)
        s.first_round = value
    elif key == "seed_order":
        names = [clean_text(str(n)) for n in (value.split(",") if isinstance(value, str) else value)]
        names = [n for n in names if n]
        have = {p["name"] for p in ev.players(conn) if not p["revoked"]}
        for n in names:
            if n not in have:
                raise EventRefused(_("no player '{name}' in the event").format(name=n), status=422)
        if len(set(names)) != len(names):
            raise EventRefused(_("the seeding names a player twice"), status=422)
        s.seed_order = names
    elif key == "seed":
        seed = clean_text(str(value))
        if not 0 < len(seed) <= MAX_SEED:
            raise EventRefused(_("the seed: give 1 to {most} characters").format(most=MAX_SEED), status=422)
        s.seed = seed
    elif key == "swiss_rounds":
        if not 1 <= int(value) <= MAX_ROUNDS:
            raise EventRefused(
                _("Swiss rounds: give 1 to {most}, not {value}").format(most=MAX_ROUNDS, value=value), status=422
            )
        s.swiss_rounds = int(value)
    elif key == "top":
        top = int(value)
        if top == 0:
            s.top = s.swiss_rounds = None
            return
        if not 2 <= top <= MAX_TOP or top & (top - 1):
            raise EventRefused(
                _("top {value}: a cut is 2, 4, 8, ... up to {most} players").format(value=value, most=MAX_TOP),
                status=422,
            )
        s.top = top
    else:  # pragma: no cover - the callers name only the keys above
        raise EventRefused(_("no setting '{key}'").format(key=key), status=422)


def set_club(ev: Event, name: str, club: str | None, who: Who | str | None = CLI) -> None:
    """A player's club or team ("" or None: none)."""
    who = _who(ev, who)
    _organiser(who, _("sets a player's club"))
    club = clean_text(str(club or "")) or None
    if club is not None and len(club) > MAX_CLUB:
        raise EventRefused(_("a club's name: give 1 to {most} characters").format(most=MAX_CLUB), status=422)
    with ev.engine.begin() as conn:
        pid = _player_id(conn, ev, name)
        conn.execute(update(players).where(players.c.id == pid).values(club=club))
        _record(conn, ev, who, "club-set", f"{name}: {club or '-'}")


# -- reading the day ---------------------------------------------------------------------------


def _player_id(conn: Connection, ev: Event, name: str) -> int:
    name = clean_text(str(name))
    pid = conn.execute(
        select(players.c.id).where(players.c.event_id == ev.id, players.c.name == name, players.c.revoked.is_(None))
    ).scalar()
    if pid is None:
        raise EventRefused(
            _("no player '{name}' in the event").format(name=name),
            command_line(_("see 'daimyo event players DIR'")),
            status=404,
        )
    return int(pid)


@dataclass
class DayState:
    """Everything the day's functions read, in one transaction."""

    settings: DaySettings
    people: dict[int, Row]
    dropped: dict[int, int]  # player id: rounds paired when they dropped
    rounds: list[Row]  # each with its "pairings", each with its "result" (or None)

    def name(self, pid: int | None) -> str | None:
        return None if pid is None else self.people[pid]["name"]

    @property
    def last(self) -> int:
        return self.rounds[-1]["number"] if self.rounds else 0

    def games(self, before: int | None = None, confirmed: bool = True) -> list[Game]:
        out = []
        for r in self.rounds:
            if before is not None and r["number"] >= before:
                continue
            for p in r["pairings"]:
                res = p["result"]
                ok = res is not None and (res["confirmed_at"] is not None or not confirmed)
                out.append(
                    Game(
                        r["number"],
                        p["a"],
                        p["b"],
                        res["outcome"] if ok else None,
                        res["score_a"] if ok else None,
                        res["score_b"] if ok else None,
                        elimination=r["kind"] == "elimination",
                    )
                )
        return out

    def seeds(self) -> dict[int, int]:
        first = next((r for r in self.rounds if r["number"] == 1), None)
        order = json.loads(first["draw"]) if first and first["draw"] else []
        return {pid: i + 1 for i, pid in enumerate(order)}

    def standing(self, before: int | None = None) -> list[Standing]:
        seeds = self.seeds()
        played = {pid for g in self.games() for pid in (g.a, g.b)}
        table = [
            Table(pid, p["name"], seeds.get(pid), pid in self.dropped)
            for pid, p in self.people.items()
            if not p["revoked"] or pid in played
        ]
        return rank_players(table, self.games(before), self.settings.points, self.settings.tiebreaks)


def _read(conn: Connection, ev: Event) -> DayState:
    people = {p["id"]: p for p in ev.players(conn)}
    dropped = dict(conn.execute(select(drops.c.player_id, drops.c.after_round).where(drops.c.event_id == ev.id)).all())
    rs = [
        dict(r)
        for r in conn.execute(select(rounds).where(rounds.c.event_id == ev.id).order_by(rounds.c.number)).mappings()
    ]
    by_round: dict[int, list[Row]] = {r["id"]: [] for r in rs}
    if rs:
        cols = [c.label(f"r_{c.name}") for c in results.c if c.name not in ("id", "pairing_id")]
        rows = conn.execute(
            select(pairings, results.c.id.label("result_id"), *cols)
            .select_from(pairings.outerjoin(results, results.c.pairing_id == pairings.c.id))
            .where(pairings.c.round_id.in_(list(by_round)))
            .order_by(pairings.c.round_id, pairings.c.table_no)
        ).mappings()
        for m in rows:
            p = {"id": m["id"], "table": m["table_no"], "a": m["a"], "b": m["b"]}
            p["result"] = None if m["result_id"] is None else {k[2:]: v for k, v in m.items() if k.startswith("r_")}
            by_round[m["round_id"]].append(p)
    for r in rs:
        r["pairings"] = by_round[r["id"]]
    return DayState(settings(ev, conn), people, dropped, rs)


def _result_view(day: DayState | _Names, p: Row, who: Who | None) -> Row | None:
    """A pairing's result as ``who`` may see it; ``day`` gives the players' names (``name(id)``)."""
    res = p["result"]
    if res is None:
        return None
    at_table = who is not None and who.role == "player" and who.player_id in (p["a"], p["b"])
    out = {
        "winner": day.name(p["a"] if res["outcome"] == "a" else p["b"]) if res["outcome"] != "draw" else None,
        "draw": res["outcome"] == "draw",
        "score": [res["score_a"], res["score_b"]] if res["score_a"] is not None else None,
        "entered_by": res["entered_by"],
        "entered_at": res["entered_at"],
        "confirmed_by": res["confirmed_by"],
        "confirmed_at": res["confirmed_at"],
        "disputed": res["disputed_at"] is not None,
    }
    if res["disputed_at"] is not None and (at_table or (who is not None and who.role == "organiser")):
        out.update({"disputed_by": res["disputed_by"], "disputed_at": res["disputed_at"], "dispute": res["dispute"]})
    return out


def round_list(ev: Event, who: Who | str | None = None) -> list[Row]:
    """Every round with its pairings and their results as ``who`` may see them (the reason of a
    dispute: the organiser and the table's players): ``[{round, kind, method, pairings: [{round,
    table, a, b, result}]}]``."""
    w = None if who is None else _who(ev, who)
    with ev.engine.connect() as conn:
        day = _read(conn, ev)
    return [
        {
            "round": r["number"],
            "kind": r["kind"],
            "method": r["method"],
            "created": r["created"],
            "pairings": [
                {
                    "round": r["number"],
                    "table": p["table"],
                    "a": day.name(p["a"]),
                    "b": day.name(p["b"]),
                    "result": _result_view(day, p, w),
                }
                for p in r["pairings"]
            ],
        }
        for r in day.rounds
    ]


def pairings_of(ev: Event, number: int | None = None) -> list[Row]:
    """One round's pairings (the latest without ``number``): ``[{round, table, a, b}]``, ``b``
    None for the bye."""
    all_rounds = round_list(ev)
    if not all_rounds:
        raise EventRefused(
            _("no round is paired yet"), command_line(_("pair one with 'daimyo event pair DIR'")), status=404
        )
    n = all_rounds[-1]["round"] if number is None else number
    for r in all_rounds:
        if r["round"] == n:
            return [{k: p[k] for k in ("round", "table", "a", "b")} for p in r["pairings"]]
    raise EventRefused(
        _("no round {n}: the event has {last} so far").format(n=n, last=all_rounds[-1]["round"]), status=404
    )


def standings(ev: Event) -> list[Row]:
    """Every player, best first: ``{rank, player, points, sos, esos, [h2h], score_diff, seed,
    wins, draws, losses, byes, dropped}``, counting the confirmed results only."""
    with ev.engine.connect() as conn:
        day = _read(conn, ev)
    return [s.row(day.settings.tiebreaks) for s in day.standing()]


def change_log(ev: Event) -> list[Row]:
    """Every change to the day, oldest first: ``{at, actor, action, round, table, detail}``."""
    with ev.engine.connect() as conn:
        rows = conn.execute(select(changes).where(changes.c.event_id == ev.id).order_by(changes.c.id)).mappings()
        return [
            {
                "at": r["at"],
                "actor": r["actor"],
                "action": r["action"],
                "round": r["round"],
                "table": r["table_no"],
                "detail": r["detail"],
            }
            for r in rows
        ]


# -- pairing -----------------------------------------------------------------------------------


def pair(ev: Event, who: Who | str | None = CLI, number: int | None = None) -> Row:
    """Pair the next round (or pair round ``number`` again: the latest, while it has no result).
    The round as ``round_list`` gives it."""
    who = _who(ev, who)
    _organiser(who, _("pairs the rounds"))
    with ev.engine.begin() as conn:
        ev.claim(conn)
        day = _read(conn, ev)
        n = day.last + 1 if number is None else number
        if not 1 <= n <= day.last + 1:
            raise EventRefused(
                _("round {n}: the next round to pair is {next}").format(n=n, next=day.last + 1), status=409
            )
        if n <= day.last:
            _unpair(conn, day, n)
            day = _read(conn, ev)
        else:
            _previous_done(day)
        if n == 1 and day.settings.first_round == "random" and not day.settings.seed:
            day.settings.seed = secrets.token_hex(8)  # drawn now, recorded: the draw can be made again
            _store_settings(conn, ev, day.settings)
        kind, method, draw, made = plan(day, n)
        rid = conn.execute(
            insert(rounds).values(
                event_id=ev.id,
                number=n,
                kind=kind,
                created=db.now(),
                method=method,
                draw=json.dumps(draw) if draw is not None else None,
            )
        ).inserted_primary_key[0]
        for p in made:
            conn.execute(insert(pairings).values(round_id=rid, table_no=p.table, a=p.a, b=p.b))
        _record(
            conn,
            ev,
            who,
            "round-paired" if n > day.last else "round-paired-again",
            f"{method}: " + "; ".join(f"{p.table} {day.name(p.a)} v {day.name(p.b) or 'bye'}" for p in made),
            n,
        )
    return next(r for r in round_list(ev, who) if r["round"] == n)


def _unpair(conn: Connection, day: DayState, n: int) -> None:
    r = day.rounds[-1]
    if n != r["number"]:
        raise EventRefused(
            _("round {n} is not the latest: only round {last} can be paired again").format(n=n, last=r["number"]),
            status=409,
        )
    if any(p["result"] is not None for p in r["pairings"]):
        raise EventRefused(
            _("round {n} has results: it cannot be paired again").format(n=n),
            command_line(_("change a table by hand with --swap, or correct a result with 'daimyo event result'")),
            status=409,
        )
    conn.execute(delete(pairings).where(pairings.c.round_id == r["id"]))
    conn.execute(delete(rounds).where(rounds.c.id == r["id"]))


def _previous_done(day: DayState) -> None:
    if not day.rounds:
        return
    r = day.rounds[-1]
    open_tables = [
        p["table"]
        for p in r["pairings"]
        if p["b"] is not None and (p["result"] is None or p["result"]["confirmed_at"] is None)
    ]
    if open_tables:
        raise EventRefused(
            _("round {n} is not over: table {tables} has no confirmed result").format(
                n=r["number"], tables=", ".join(map(str, open_tables[:10]))
            ),
            command_line(_("enter or confirm them with 'daimyo event result'")),
            status=409,
        )


def _active(day: DayState) -> list[int]:
    return [pid for pid, p in day.people.items() if not p["revoked"] and pid not in day.dropped]


def plan(day: DayState, n: int) -> tuple[str, str, list[int] | None, list[Pair]]:
    """Round ``n``'s pairing from the day as it stands: its kind, how it was paired, round 1's
    order (the draw or the seeding) and the pairs. Reads nothing and writes nothing."""
    s = day.settings
    active = _active(day)
    if s.top and s.swiss_rounds and n > s.swiss_rounds:
        return ("elimination", "single elimination", None, _pair_cut(day, n, active))
    if len(active) < 2:
        raise EventRefused(_("{count} players to pair: a round needs at least 2").format(count=len(active)), status=409)
    opts = Options(avoid_club=s.avoid_club, fresh_tables=s.fresh_tables)
    if n == 1:
        order, method = _first_order(day, active)
        opts = Options(s.avoid_club, s.fresh_tables, fold=s.first_round == "seeded")
        entrants = [_entrant(day, pid, i, 0) for i, pid in enumerate(order)]
        return "swiss", method, order, pair_swiss(entrants, opts)
    ranked = [st for st in day.standing() if st.id in set(active)]
    entrants = [_entrant(day, st.id, i, st.points) for i, st in enumerate(ranked)]
    return "swiss", "by score", None, pair_swiss(entrants, opts)


def _first_order(day: DayState, active: list[int]) -> tuple[list[int], str]:
    s = day.settings
    if s.first_round == "seeded":
        place = {name: i for i, name in enumerate(s.seed_order)}
        order = sorted(
            active, key=lambda pid: (place.get(day.people[pid]["name"], len(place)), day.people[pid]["name"].casefold())
        )
        return order, "seeded"
    order = sorted(active)
    random.Random(s.seed).shuffle(order)
    return order, f"random draw, seed {s.seed}"


def _entrant(day: DayState, pid: int, rank: int, points: int) -> Entrant:
    opp: set[int] = set()
    tables: set[int] = set()
    byes = 0
    for r in day.rounds:
        for p in r["pairings"]:
            if pid not in (p["a"], p["b"]):
                continue
            if p["b"] is None:
                byes += r["kind"] == "swiss"
            else:
                opp.add(p["b"] if p["a"] == pid else p["a"])
                tables.add(p["table"])
    person = day.people[pid]
    return Entrant(pid, person["name"], rank, points, person.get("club"), byes, frozenset(opp), frozenset(tables))


def _pair_cut(day: DayState, n: int, active: list[int]) -> list[Pair]:
    s = day.settings
    assert s.top is not None and s.swiss_rounds is not None
    if n == s.swiss_rounds + 1:
        ranked = [st.id for st in day.standing() if st.id in set(active)]
        if len(ranked) < s.top:
            raise EventRefused(
                _("a top {top} cut needs {top} players; {count} are still playing").format(
                    top=s.top, count=len(ranked)
                ),
                command_line(_("set a smaller cut with 'daimyo event settings DIR --top N'")),
                status=409,
            )
        return pair_top_cut(ranked, s.top)
    last = day.rounds[-1]
    if len(last["pairings"]) == 1:
        raise EventRefused(
            _("the final is played: the event is over"), command_line(_("see 'daimyo event standings DIR'")), status=409
        )
    winners: list[int | None] = []
    for p in last["pairings"]:
        res = p["result"]
        w = p["a"] if p["b"] is None or res["outcome"] == "a" else p["b"]
        winners.append(None if w in day.dropped else w)
    return pair_elimination(winners)


# -- changing pairings by hand ----------------------------------------------------------------


def swap(
    ev: Event, a: str, b: str, who: Who | str | None = CLI, number: int | None = None
) -> tuple[list[Row], list[str]]:
    """Swap two players of a round (the latest without ``number``): each takes the other's place.
    The round's pairings and a warning for each rule the change breaks (a rematch, a second bye,
    one club, a table played at before). A table with a result is not changed."""
    who = _who(ev, who)
    _organiser(who, _("changes the pairings"))
    with ev.engine.begin() as conn:
        ev.claim(conn)
        day = _read(conn, ev)
        if not day.rounds:
            raise EventRefused(
                _("no round is paired yet"), command_line(_("pair one with 'daimyo event pair DIR'")), status=409
            )
        n = day.last if number is None else number
        r = next((x for x in day.rounds if x["number"] == n), None)
        if r is None:
            raise EventRefused(_("no round {n}").format(n=n), status=404)
        ia, ib = _player_id(conn, ev, a), _player_id(conn, ev, b)
        pa = next((p for p in r["pairings"] if ia in (p["a"], p["b"])), None)
        pb = next((p for p in r["pairings"] if ib in (p["a"], p["b"])), None)
        for name, p in ((a, pa), (b, pb)):
            if p is None:
                raise EventRefused(_("{name} is not paired in round {n}").format(name=name, n=n), status=409)
        assert pa is not None and pb is not None
        if pa is pb:
            raise EventRefused(_("{a} and {b} already play each other").format(a=a, b=b), status=409)
        if pa["result"] is not None or pb["result"] is not None:
            raise EventRefused(
                _("round {n} has a result at table {table}: it cannot be changed").format(
                    n=n, table=pa["table"] if pa["result"] is not None else pb["table"]
                ),
                status=409,
            )
        for p in (pa, pb):
            for side in ("a", "b"):
                p[side] = {ia: ib, ib: ia}.get(p[side], p[side])
            if p["a"] is None:  # a bye is always its player's "a"
                p["a"], p["b"] = p["b"], None
            conn.execute(update(pairings).where(pairings.c.id == p["id"]).values(a=p["a"], b=p["b"]))
        _record(conn, ev, who, "pairing-swapped", f"{a} <-> {b}", n)
        warnings = _warnings(day, r, (pa, pb))
    return pairings_of(ev, n), warnings


def _warnings(day: DayState, r: Row, changed: Sequence[Row]) -> list[str]:
    s = day.settings
    if r["kind"] != "swiss":
        return []
    earlier = DayState(s, day.people, day.dropped, [x for x in day.rounds if x["number"] < r["number"]])
    out = []
    for p in changed:
        x = _entrant(earlier, p["a"], 0, 0)
        if p["b"] is None:
            if x.byes:
                out.append(_("{name} gets a second bye").format(name=x.name))
            continue
        y = _entrant(earlier, p["b"], 0, 0)
        if y.id in x.opponents:
            out.append(_("{a} and {b} played each other before").format(a=x.name, b=y.name))
        if s.avoid_club and club_key(x.club) and club_key(x.club) == club_key(y.club):
            out.append(_("{a} and {b} are of one club ({club})").format(a=x.name, b=y.name, club=x.club))
        if s.fresh_tables:
            for e in (x, y):
                if p["table"] in e.tables:
                    out.append(_("{name} played at table {table} before").format(name=e.name, table=p["table"]))
        for e in (x, y):
            if e.id in day.dropped:
                out.append(_("{name} has dropped").format(name=e.name))
    return out


# -- results -----------------------------------------------------------------------------------


def parse_score(text: str) -> tuple[int, int]:
    """``A:B``: the game's own scores of the table's first and second player."""
    a, sep, b = str(text).partition(":")
    try:
        sa, sb = int(a.strip()), int(b.strip())
    except ValueError:
        sa = sb = -1
    if not sep or not (0 <= sa <= MAX_SCORE and 0 <= sb <= MAX_SCORE):
        raise EventRefused(
            _("score '{text}': write A:B, each a whole number from 0 to {most}").format(text=text, most=MAX_SCORE),
            _("the first player's score first, as the pairings list them"),
            status=422,
        )
    return sa, sb


@dataclass
class _Names:
    names: dict[int, str]

    def name(self, pid: int | None) -> str | None:
        return None if pid is None else self.names[pid]


def _table(conn: Connection, ev: Event, n: int, table: int) -> tuple[Row, Row, _Names]:
    """One table of one round (its round, its pairing with its result, its players' names), read
    alone: what entering a result needs, however large the event."""
    cols = [c.label(f"r_{c.name}") for c in results.c if c.name not in ("id", "pairing_id")]
    m = (
        conn.execute(
            select(rounds.c.id.label("rid"), rounds.c.kind, pairings, results.c.id.label("result_id"), *cols)
            .select_from(
                rounds.outerjoin(
                    pairings, (pairings.c.round_id == rounds.c.id) & (pairings.c.table_no == table)
                ).outerjoin(results, results.c.pairing_id == pairings.c.id)
            )
            .where(rounds.c.event_id == ev.id, rounds.c.number == n)
        )
        .mappings()
        .first()
    )
    if m is None:
        raise EventRefused(_("no round {n}").format(n=n), status=404)
    if m["id"] is None:
        raise EventRefused(_("round {n} has no table {table}").format(n=n, table=table), status=404)
    r = {"id": m["rid"], "kind": m["kind"], "number": n}
    p = {"id": m["id"], "table": m["table_no"], "a": m["a"], "b": m["b"]}
    p["result"] = None if m["result_id"] is None else {k[2:]: v for k, v in m.items() if k.startswith("r_")}
    if p["b"] is None:
        raise EventRefused(
            _("table {table} of round {n} is a bye: it needs no result").format(table=table, n=n), status=409
        )
    names = _Names(
        dict(conn.execute(select(players.c.id, players.c.name).where(players.c.id.in_([p["a"], p["b"]]))).all())
    )
    return r, p, names


def _view(p: Row, names: _Names, who: Who, n: int, table: int) -> Row:
    """The table as ``round_list`` shows it."""
    return {
        "round": n,
        "table": table,
        "a": names.name(p["a"]),
        "b": names.name(p["b"]),
        "result": _result_view(names, p, who),
    }


def _hold(conn: Connection, ev: Event) -> None:
    """Take the event's row for this transaction, as ``Event.claim`` does, without reading it."""
    conn.execute(update(events).where(events.c.id == ev.id).values(state=events.c.state))


def _at_table(who: Who, p: Row) -> None:
    if who.role == "player" and who.player_id not in (p["a"], p["b"]):
        raise EventRefused(_("you do not play at this table"), _("enter the result of your own game"), status=403)
    if who.role not in ("player", "organiser"):
        raise EventRefused(_("sign in with your own link first"), status=401)


def enter_result(
    ev: Event,
    who: Who | str | None,
    number: int,
    table: int,
    winner: str | None = None,
    draw: bool = False,
    score: str | tuple[int, int] | None = None,
) -> Row:
    """A game's result: the winner's name or a draw, and the game's own scores (``A:B``, the
    table's first player's first). A player's entry waits for their opponent's (or the
    organiser's) confirmation; the organiser's is confirmed at once, over any other."""
    who = _who(ev, who)
    if (winner is None) == (not draw):
        raise EventRefused(_("give the winner or a draw, not both or neither"), status=422)
    sa, sb = (None, None) if score is None else (parse_score(score) if isinstance(score, str) else score)
    with ev.engine.begin() as conn:
        _hold(conn, ev)
        r, p, day = _table(conn, ev, number, table)
        _at_table(who, p)
        if draw and r["kind"] == "elimination":
            raise EventRefused(_("an elimination game has a winner: it cannot be a draw"), status=422)
        outcome = "draw"
        if winner is not None:
            w = clean_text(str(winner))
            if w not in (day.name(p["a"]), day.name(p["b"])):
                raise EventRefused(
                    _("'{name}' does not play at table {table}: {a} or {b} won").format(
                        name=w, table=table, a=day.name(p["a"]), b=day.name(p["b"])
                    ),
                    status=422,
                )
            outcome = "a" if w == day.name(p["a"]) else "b"
        old = p["result"]
        if old is not None and old["confirmed_at"] is not None and who.role != "organiser":
            raise EventRefused(
                _("the result of table {table} is confirmed: only the organiser changes it").format(table=table),
                status=409,
            )
        now = db.now()
        values = dict(
            outcome=outcome,
            score_a=sa,
            score_b=sb,
            entered_by=who.actor,
            entered_at=now,
            confirmed_by=who.actor if who.role == "organiser" else None,
            confirmed_at=now if who.role == "organiser" else None,
            disputed_by=None,
            disputed_at=None,
            dispute=None,
        )
        if old is None:
            conn.execute(insert(results).values(pairing_id=p["id"], **values))
        else:
            conn.execute(update(results).where(results.c.pairing_id == p["id"]).values(**values))
        said = "draw" if outcome == "draw" else f"{winner} won"
        if sa is not None:
            said += f", {sa}:{sb}"
        _record(conn, ev, who, "result-entered" if old is None else "result-changed", said, number, table)
    p["result"] = values
    return _view(p, day, who, number, table)


def confirm_result(ev: Event, who: Who | str | None, number: int, table: int) -> Row:
    """The opponent of the player who entered the result (or the organiser) confirms it."""
    who = _who(ev, who)
    with ev.engine.begin() as conn:
        _hold(conn, ev)
        _r, p, names = _table(conn, ev, number, table)
        _at_table(who, p)
        res = p["result"]
        if res is None:
            raise EventRefused(_("table {table} has no result to confirm yet").format(table=table), status=409)
        if res["confirmed_at"] is not None:
            raise EventRefused(_("the result of table {table} is confirmed already").format(table=table), status=409)
        if who.role == "player" and res["entered_by"] == who.actor:
            raise EventRefused(_("you entered this result: your opponent or the organiser confirms it"), status=403)
        change = dict(confirmed_by=who.actor, confirmed_at=db.now(), disputed_by=None, disputed_at=None, dispute=None)
        conn.execute(update(results).where(results.c.pairing_id == p["id"]).values(**change))
        _record(conn, ev, who, "result-confirmed", "", number, table)
    res.update(change)
    return _view(p, names, who, number, table)


def dispute_result(ev: Event, who: Who | str | None, number: int, table: int, reason: str) -> Row:
    """The opponent says the entered result is wrong: shown to the organiser, who enters the
    right one (the player who entered it may also enter it again)."""
    who = _who(ev, who)
    reason = clean_text(str(reason or ""))[:MAX_REASON]
    if not reason:
        raise EventRefused(_("say what is wrong with the result"), _("the organiser is shown it"), status=422)
    with ev.engine.begin() as conn:
        _hold(conn, ev)
        _r, p, names = _table(conn, ev, number, table)
        _at_table(who, p)
        if who.role != "player":
            raise EventRefused(_("the organiser enters the right result instead"), status=403)
        res = p["result"]
        if res is None or res["confirmed_at"] is not None:
            raise EventRefused(
                _("table {table} has no result waiting for confirmation").format(table=table),
                _("ask the organiser"),
                status=409,
            )
        if res["entered_by"] == who.actor:
            raise EventRefused(_("you entered this result: enter the right one instead"), status=403)
        change = dict(disputed_by=who.actor, disputed_at=db.now(), dispute=reason)
        conn.execute(update(results).where(results.c.pairing_id == p["id"]).values(**change))
        _record(conn, ev, who, "result-disputed", reason, number, table)
    res.update(change)
    return _view(p, names, who, number, table)


# -- drops -------------------------------------------------------------------------------------


def _over(day: DayState) -> bool:
    """The final of the cut is played: its one game has a confirmed result."""
    if not day.rounds or day.rounds[-1]["kind"] != "elimination" or len(day.rounds[-1]["pairings"]) != 1:
        return False
    (final,) = day.rounds[-1]["pairings"]
    return final["b"] is None or (final["result"] is not None and final["result"]["confirmed_at"] is not None)


def is_over(ev: Event) -> bool:
    """Whether the event is over: the final of its cut is played (a Swiss event pairs on as
    long as the organiser pairs rounds)."""
    with ev.engine.connect() as conn:
        return _over(_read(conn, ev))


def drop(ev: Event, name: str, who: Who | str | None = CLI) -> Row:
    """Take a player out of the rounds paired from now on; their games are kept. The organiser,
    or the player themselves; refused once the event is over."""
    who = _who(ev, who)
    with ev.engine.begin() as conn:
        ev.claim(conn)
        pid = _player_id(conn, ev, name)
        day = _read(conn, ev)
        _may_drop(day, pid, who)
        conn.execute(
            insert(drops).values(event_id=ev.id, player_id=pid, after_round=day.last, at=db.now(), actor=who.actor)
        )
        _record(conn, ev, who, "player-dropped", str(day.name(pid)), day.last or None)
    return {"player": day.name(pid), "after_round": day.last}


def check_drop(ev: Event, name: str, who: Who | str | None = CLI) -> None:
    """EventRefused, as ``drop`` would refuse, when ``who`` may not drop ``name`` now; nothing
    is written (a page asks for confirmation only of a drop that can be done)."""
    who = _who(ev, who)
    with ev.engine.connect() as conn:
        _may_drop(_read(conn, ev), _player_id(conn, ev, name), who)


def _may_drop(day: DayState, pid: int, who: Who) -> None:
    if who.role != "organiser" and who.player_id != pid:
        raise EventRefused(_("only the organiser, or the player themselves, drops a player"), status=403)
    if pid in day.dropped:
        raise EventRefused(
            _("{name} dropped after round {n} already").format(name=day.name(pid), n=day.dropped[pid]), status=409
        )
    if _over(day):
        raise EventRefused(
            _("the final is played: the event is over, and nobody drops from it"),
            command_line(_("see 'daimyo event standings DIR'")),
            status=409,
        )


def dropped_players(ev: Event) -> dict[str, Row]:
    """Every dropped player by name: ``{after_round, at, by, themselves}``, ``by`` who dropped
    them (``organiser`` or ``player NAME``) and ``themselves`` whether it was the player."""
    with ev.engine.connect() as conn:
        names = {p["id"]: p["name"] for p in ev.players(conn)}
        rows = conn.execute(select(drops).where(drops.c.event_id == ev.id)).mappings().all()
    return {
        names[r["player_id"]]: {
            "after_round": r["after_round"],
            "at": r["at"],
            "by": r["actor"],
            "themselves": r["actor"] == f"player {names[r['player_id']]}",
        }
        for r in rows
    }
