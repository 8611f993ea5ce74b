"""Pairing a round: Swiss by score with the lowest cost found by maximum-weight matching
(networkx's ``max_weight_matching``), tables (fresh ones when asked), and single elimination.

Pure functions of the players as they stand: no database. ``builder.event.day`` reads the event,
calls these and stores what they give. The rules, in the words an organiser checks a round by
(docs/event.md, "Pairing"): a Swiss pairing is the one that, among every way to pair the round,
has in this order

1. the fewest rematches;
2. the fewest second byes (a bye to a player who had one);
3. the fewest pairs of one club (when the event avoids them);
4. the bye (odd player count) to the lowest-ranked player, among those the above allow;
5. the lowest sum of squared score differences (points, as the standings count them);
6. the lowest sum of squared rank distances: first meets second, third fourth, and so on (round
   1 seeded: the top half meets the bottom half, first against the first of the bottom half).

Each level is weighted so that no amount of a lower one outweighs one of a higher one, and the
matching maximises ``TOP - cost`` over perfect matchings (every player paired, the bye a node of
its own), so it finds the lexicographically least cost exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

__all__ = [
    "COMPLETE_UP_TO",
    "WINDOW",
    "Entrant",
    "Options",
    "Pair",
    "bracket_order",
    "club_key",
    "pair_elimination",
    "pair_swiss",
    "pair_top_cut",
]

COMPLETE_UP_TO = 128  # players: up to this many, every pair is a candidate
WINDOW = 32  # above it, each player's candidates first: the players this many places around them


@dataclass(frozen=True)
class Entrant:
    """A player to pair: ``rank`` is their place in the standings (0 first), or in the seeding or
    the draw for round 1."""

    id: int
    name: str
    rank: int
    points: int = 0
    club: str | None = None
    byes: int = 0
    opponents: frozenset[int] = field(default_factory=frozenset)
    tables: frozenset[int] = field(default_factory=frozenset)


@dataclass(frozen=True)
class Options:
    avoid_club: bool = False
    fresh_tables: bool = False
    fold: bool = False  # round 1 seeded: the top half meets the bottom half


@dataclass(frozen=True)
class Pair:
    table: int
    a: int
    b: int | None  # None: a bye


def club_key(club: str | None) -> str:
    """A club as pairings compare it: case and runs of spaces do not count; "" for none."""
    return " ".join((club or "").split()).casefold()


@dataclass(frozen=True)
class _Cost:
    rematch: int = 0
    second_bye: int = 0
    club: int = 0
    bye_rank: int = 0
    score: int = 0
    rank: int = 0

    @property
    def breaks_a_rule(self) -> bool:
        return bool(self.rematch or self.second_bye or self.club)


def _edge_cost(x: Entrant, y: Entrant, n: int, opts: Options) -> _Cost:
    dist = abs(x.rank - y.rank)
    if opts.fold:
        dist = abs(dist - n // 2)
    same_club = opts.avoid_club and bool(club_key(x.club)) and club_key(x.club) == club_key(y.club)
    return _Cost(
        rematch=int(y.id in x.opponents or x.id in y.opponents),
        club=int(same_club),
        score=(x.points - y.points) ** 2,
        rank=dist * dist,
    )


def _bye_cost(x: Entrant, n: int) -> _Cost:
    return _Cost(second_bye=int(x.byes > 0), bye_rank=n - 1 - x.rank)


def _scale(players: Sequence[Entrant]) -> tuple[int, ...]:
    """The weight of one unit of each level: more than every lower level can add up to."""
    n = len(players) + 1
    spread = max(p.points for p in players) - min(p.points for p in players)
    score = n**3  # more than the rank distances add up to: at most n pairs of at most n^2 each
    bye = score * (n * spread * spread + 1)  # more than the score differences add up to
    club = bye * (n + 1)  # the bye's rank is below n
    second_bye = club * (n + 1)  # at most n pairs of one club
    return (second_bye * 2, second_bye, club, bye, score)  # rematches; there is one bye


def _weight(c: _Cost, scale: tuple[int, ...]) -> int:
    return (
        c.rematch * scale[0]
        + c.second_bye * scale[1]
        + c.club * scale[2]
        + c.bye_rank * scale[3]
        + c.score * scale[4]
        + c.rank  # the unit
    )


def pair_swiss(entrants: Sequence[Entrant], opts: Options = Options()) -> list[Pair]:
    """Pair a Swiss round: every entrant once, the bye (if the count is odd) as ``b=None``, on
    tables 1, 2, ... in the order of each pair's better-ranked player (the bye last)."""
    players = sorted(entrants, key=lambda p: (p.rank, p.id))
    players = [Entrant(**{**p.__dict__, "rank": i}) for i, p in enumerate(players)]  # ranks 0..n-1
    if not players:
        return []
    if len(players) == 1:
        return [Pair(1, players[0].id, None)]
    matched = _match(players, opts, sparse=len(players) > COMPLETE_UP_TO)
    if matched is None:
        matched = _match(players, opts, sparse=False)
        assert matched is not None
    games = sorted(((x, y) if x.rank < y.rank else (y, x) for x, y in matched[0]), key=lambda g: g[0].rank)
    tables = _tables(games, opts.fresh_tables)
    out = [Pair(t, x.id, y.id) for t, (x, y) in zip(tables, games, strict=True)]
    if matched[1] is not None:
        out.append(Pair(len(games) + 1, matched[1].id, None))
    return out


def _match(
    players: list[Entrant], opts: Options, sparse: bool
) -> tuple[list[tuple[Entrant, Entrant]], Entrant | None] | None:
    """The least-cost pairing, ``([(x, y)], bye player or None)``; on the sparse graph, None when
    it leaves someone unpaired or breaks a rule the complete graph might avoid."""
    n = len(players)
    scale = _scale(players)
    bye = n  # the bye's node
    costs: dict[tuple[int, int], _Cost] = {}
    for i in range(n):
        for j in range(i + 1, n):
            c = _edge_cost(players[i], players[j], n, opts)
            if sparse:
                dist = j - i if not opts.fold else abs(j - i - n // 2)
                if dist > WINDOW or c.breaks_a_rule:
                    continue
            costs[(i, j)] = c
        if n % 2:
            c = _bye_cost(players[i], n)
            if not (sparse and c.breaks_a_rule):
                costs[(i, bye)] = c
    weights = {k: _weight(c, scale) for k, c in costs.items()}
    top = max(weights.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(n + n % 2))
    graph.add_weighted_edges_from((i, j, top - w) for (i, j), w in weights.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n + n % 2:
        return None
    pairs, bye_player = [], None
    for u, v in matching:
        i, j = min(u, v), max(u, v)
        if j == bye:
            bye_player = players[i]
        else:
            pairs.append((players[i], players[j]))
    return pairs, bye_player


def _tables(games: list[tuple[Entrant, Entrant]], fresh: bool) -> list[int]:
    """Each game's table: 1, 2, ... in order; with ``fresh``, the tables that put the fewest
    players at a table they played at, then each game nearest its place in that order."""
    natural = list(range(1, len(games) + 1))
    if not fresh or all(t not in x.tables and t not in y.tables for t, (x, y) in zip(natural, games, strict=True)):
        return natural
    k = len(games)
    for window in [WINDOW, k] if k > WINDOW else [k]:
        graph = nx.Graph()
        big = k * k + 1
        for g, (x, y) in enumerate(games):
            for t in range(max(1, g + 1 - window), min(k, g + 1 + window) + 1):
                stale = (t in x.tables) + (t in y.tables)
                graph.add_edge(("g", g), ("t", t), weight=stale * big + abs(t - (g + 1)))
        top = max(d["weight"] for _u, _v, d in graph.edges(data=True)) + 1
        for _u, _v, d in graph.edges(data=True):
            d["weight"] = top - d["weight"]
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matching) != k:
            continue
        out = [0] * k
        for u, v in matching:
            g, t = (u, v) if u[0] == "g" else (v, u)
            out[g[1]] = t[1]
        stale_total = sum((t in x.tables) + (t in y.tables) for t, (x, y) in zip(out, games, strict=True))
        if stale_total == 0 or window >= k:
            return out
    return natural  # pragma: no cover - the last window holds every table


def bracket_order(n: int) -> list[int]:
    """Seeds 1..n (a power of two) in bracket order: neighbours meet, first and second only in
    the final. ``bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]``."""
    order = [1]
    while len(order) < n:
        size = 2 * len(order)
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return order


def pair_top_cut(ranked: Sequence[int], top: int) -> list[Pair]:
    """The first elimination round: the ``top`` first of ``ranked`` (ids in standings order),
    first against last, in bracket order on tables 1, 2, ..."""
    seeds = list(ranked[:top])
    order = bracket_order(top)
    return [Pair(t + 1, seeds[order[2 * t] - 1], seeds[order[2 * t + 1] - 1]) for t in range(top // 2)]


def pair_elimination(winners: Sequence[int | None]) -> list[Pair]:
    """The next elimination round from the winners of the last one, by table (None: nobody goes
    on from that table): the winners of tables 1 and 2 meet at table 1, of 3 and 4 at table 2; a
    winner whose opponent-to-be is missing (dropped) goes on with a bye."""
    out = []
    for t in range(0, len(winners) - 1, 2):
        x, y = winners[t], winners[t + 1]
        if x is None and y is None:
            continue
        if x is None or y is None:
            one = x if x is not None else y
            assert one is not None
            out.append(Pair(t // 2 + 1, one, None))
        else:
            out.append(Pair(t // 2 + 1, x, y))
    return out
