"""Pairing and standings against an oracle: random events (4 to 64 players, 3 to 8 rounds, random
results, drops and clubs) paired round after round by the library's own planning
(``builder.event.day.plan`` on the day as it stands), each round checked with networkx as the
oracle on the graph of allowed pairs, and the standings recomputed from the recorded results.
Then the rules one at a time, on small events a person can check by hand."""

from __future__ import annotations

import json
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.event.day import DaySettings, DayState, plan
from builder.event.pairing import (
    COMPLETE_UP_TO,
    Entrant,
    Options,
    bracket_order,
    club_key,
    pair_elimination,
    pair_swiss,
    pair_top_cut,
)
from builder.event.standings import Game, Points, Table, standings

from conftest import examples

BYE = "bye"


def people(n: int, clubs: list[str | None]) -> dict[int, dict]:
    return {i: {"id": i, "name": f"P{i:02d}", "revoked": None, "club": clubs[i]} for i in range(1, n + 1)}


def perfect(graph: nx.Graph) -> bool:
    """Whether every node of ``graph`` can be paired along its edges (the oracle)."""
    m = nx.max_weight_matching(graph, maxcardinality=True)
    return 2 * len(m) == graph.number_of_nodes()


def allowed(day: DayState, active: list[int], rematch: bool, second_bye: bool, club: bool, bye_to=None) -> nx.Graph:
    """The graph of the pairs a round may have: no rematch, no second bye, no one club, each
    when asked; ``bye_to``: only these players may have the bye."""
    met, byes = set(), set()
    for r in day.rounds:
        for p in r["pairings"]:
            if p["b"] is None:
                byes.add(p["a"])
            else:
                met.add(frozenset((p["a"], p["b"])))
    g = nx.Graph()
    g.add_nodes_from(active)
    for i, x in enumerate(active):
        for y in active[i + 1 :]:
            if rematch and frozenset((x, y)) in met:
                continue
            cx, cy = club_key(day.people[x]["club"]), club_key(day.people[y]["club"])
            if club and cx and cx == cy:
                continue
            g.add_edge(x, y)
    if len(active) % 2:
        g.add_node(BYE)
        for x in active:
            if (second_bye and x in byes) or (bye_to is not None and x not in bye_to):
                continue
            g.add_edge(x, BYE)
    return g, met, byes


def check_round(day: DayState, active: list[int], pairs, ranking: list[int]) -> None:
    seen = [p.a for p in pairs] + [p.b for p in pairs if p.b is not None]
    assert sorted(seen) == sorted(active), "every active player paired exactly once"
    assert sorted(p.table for p in pairs) == list(range(1, len(pairs) + 1))
    assert sum(p.b is None for p in pairs) == len(active) % 2
    levels = [(True, False, False), (True, True, False)]
    if day.settings.avoid_club:
        levels.append((True, True, True))
    strictest = None
    for rematch, second_bye, club in levels:
        g, met, byes = allowed(day, active, rematch, second_bye, club)
        if not perfect(g):
            break
        strictest = (rematch, second_bye, club)
        for p in pairs:
            if p.b is None:
                assert not (second_bye and p.a in byes), f"an avoidable second bye to {p.a}"
            else:
                assert frozenset((p.a, p.b)) not in met, f"an avoidable rematch {p.a} v {p.b}"
                cx = club_key(day.people[p.a]["club"])
                assert not (club and cx and cx == club_key(day.people[p.b]["club"])), "an avoidable club pair"
    bye = next((p.a for p in pairs if p.b is None), None)
    # the bye's rank counts after the number of one-club pairs: checked where there need be none
    if bye is not None and strictest is not None and (strictest[2] or not day.settings.avoid_club):
        _g, _met, byes = allowed(day, active, *strictest)
        below = ranking[ranking.index(bye) + 1 :]
        for q in below:
            if strictest[1] and q in byes:
                continue
            g, *_ = allowed(day, active, *strictest, bye_to={q})
            assert not perfect(g), f"the bye to {bye}, while {q}, ranked lower, could have it"


def check_tables(day: DayState, pairs) -> None:
    """No player at a table they played at, while some seating avoids it (the oracle: a perfect
    bipartite matching of the games and the tables fresh to both their players)."""
    played: dict[int, set[int]] = {}
    for r in day.rounds:
        for p in r["pairings"]:
            if p["b"] is not None:
                for pid in (p["a"], p["b"]):
                    played.setdefault(pid, set()).add(p["table"])
    games = [p for p in pairs if p.b is not None]
    g = nx.Graph()
    g.add_nodes_from((("g", k) for k in range(len(games))), bipartite=0)
    g.add_nodes_from((("t", t) for t in range(1, len(games) + 1)), bipartite=1)
    for k, p in enumerate(games):
        for t in range(1, len(games) + 1):
            if t not in played.get(p.a, ()) and t not in played.get(p.b, ()):
                g.add_edge(("g", k), ("t", t))
    m = nx.bipartite.maximum_matching(g, top_nodes=[("g", k) for k in range(len(games))])
    if len(m) == 2 * len(games):
        stale = [p for p in games if p.table in played.get(p.a, ()) or p.table in played.get(p.b, ())]
        assert not stale, f"avoidably seated at a table played at: {stale}"


def recompute(day: DayState, pts: Points) -> dict[int, dict]:
    """The standings' numbers from the recorded results, counted anew."""
    tally = {pid: {"points": 0, "opp": [], "diff": 0} for pid in day.people}
    for r in day.rounds:
        for p in r["pairings"]:
            if p["b"] is None:
                tally[p["a"]]["points"] += pts.bye
                continue
            res = p["result"]
            a, b = tally[p["a"]], tally[p["b"]]
            a["opp"].append(p["b"])
            b["opp"].append(p["a"])
            got = {"a": (pts.win, pts.loss), "b": (pts.loss, pts.win), "draw": (pts.draw, pts.draw)}[res["outcome"]]
            a["points"] += got[0]
            b["points"] += got[1]
            if res["score_a"] is not None:
                a["diff"] += res["score_a"] - res["score_b"]
                b["diff"] += res["score_b"] - res["score_a"]
    for t in tally.values():
        t["sos"] = sum(tally[o]["points"] for o in t["opp"])
    for t in tally.values():
        t["esos"] = sum(tally[o]["sos"] for o in t["opp"])
    return tally


def play(day: DayState, rng: random.Random, n: int, kind, method, draw, pairs) -> None:
    rows = []
    for p in pairs:
        res = None
        if p.b is not None:
            c = rng.random()
            scored = rng.random() < 0.7
            res = {
                "outcome": "a" if c < 0.45 else ("b" if c < 0.9 else "draw"),
                "score_a": rng.randint(0, 20) if scored else None,
                "score_b": None,
                "confirmed_at": "2026-12-05T12:00:00Z",
            }
            if scored:
                res["score_b"] = rng.randint(0, 20)
        rows.append({"id": 1000 * n + p.table, "table": p.table, "a": p.a, "b": p.b, "result": res})
    day.rounds.append(
        {
            "id": n,
            "number": n,
            "kind": kind,
            "method": method,
            "draw": json.dumps(draw) if draw else None,
            "pairings": rows,
        }
    )


@pytest.mark.slow  # 50 generated events of up to 64 players and 8 rounds: 7-18 s
@settings(max_examples=examples(50))
@given(
    players=st.integers(4, 64),
    rounds=st.integers(3, 8),
    seed=st.integers(0, 2**32),
    clubs=st.integers(0, 6),
    avoid=st.booleans(),
    fresh=st.booleans(),
    drop_count=st.integers(0, 4),
    tiebreaks=st.permutations(["sos", "esos", "diff", "seed"]),
)
def test_random_events_pair_by_the_rules_and_rank_by_the_results(
    players, rounds, seed, clubs, avoid, fresh, drop_count, tiebreaks
):
    rng = random.Random(seed)
    names = [None] + [f"Club {k}" for k in range(clubs)]
    club_of = [None] + [rng.choice(names) for _ in range(players)]
    pts = Points(*rng.choice([(3, 1, 0, 3), (2, 1, 0, 2), (1, 0, 0, 1), (3, 1, 0, 1)]))
    s = DaySettings(*pts.__dict__.values(), tiebreaks=tiebreaks, avoid_club=avoid, fresh_tables=fresh, seed=str(seed))
    day = DayState(s, people(players, club_of), {}, [])
    drops_at = {pid: rng.randint(2, rounds) for pid in rng.sample(sorted(day.people), drop_count)}
    for n in range(1, rounds + 1):
        for pid, when in drops_at.items():
            if when == n:
                day.dropped[pid] = n - 1
        active = [pid for pid in day.people if pid not in day.dropped]
        if len(active) < 2:
            break
        if n == 1:
            ranking = []
        else:
            ranking = [row.id for row in day.standing() if row.id in set(active)]
        kind, method, draw, pairs = plan(day, n)
        if n == 1:
            ranking = draw
            assert sorted(draw) == sorted(active) and method == f"random draw, seed {seed}"
        check_round(day, active, pairs, ranking)
        if fresh:
            check_tables(day, pairs)
        play(day, rng, n, kind, method, draw, pairs)
    tally = recompute(day, pts)
    table = day.standing()
    assert sorted(st.id for st in table) == sorted(day.people)
    for st_ in table:
        t = tally[st_.id]
        assert (st_.points, st_.sos, st_.esos, st_.score_diff) == (t["points"], t["sos"], t["esos"], t["diff"])
        assert st_.dropped == (st_.id in day.dropped)
    seeds = {pid: i + 1 for i, pid in enumerate(json.loads(day.rounds[0]["draw"]))}

    def key(st_):
        t = tally[st_.id]
        by = {"sos": -t["sos"], "esos": -t["esos"], "diff": -t["diff"], "seed": seeds[st_.id]}
        return (-t["points"], *(by[k] for k in tiebreaks))

    assert [key(x) for x in table] == sorted(key(x) for x in table)
    assert [x.rank for x in table] == list(range(1, len(table) + 1))  # the seed breaks every tie


def test_a_round_is_the_same_for_the_same_seed_and_differs_for_another():
    def first(seed):
        day = DayState(DaySettings(seed=seed), people(12, [None] * 13), {}, [])
        return plan(day, 1)

    assert first("abc") == first("abc")
    assert first("abc")[2] != first("abd")[2]


def entrants(n, **kw):
    return [Entrant(i, f"P{i}", i, **{k: v(i) for k, v in kw.items()}) for i in range(n)]


def test_first_meets_second_in_a_score_group_and_the_bye_goes_to_the_last():
    pairs = pair_swiss(entrants(5))
    assert [(p.table, p.a, p.b) for p in pairs] == [(1, 0, 1), (2, 2, 3), (3, 4, None)]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one():
    pairs = pair_swiss(entrants(5, byes=lambda i: int(i == 4)))
    assert [p.a for p in pairs if p.b is None] == [3]


def test_a_second_bye_is_given_only_when_nobody_else_can_have_it():
    # three players who all had a bye: one of them has a second
    pairs = pair_swiss(entrants(3, byes=lambda i: 1))
    assert [p.a for p in pairs if p.b is None] == [2]


def test_no_rematch_while_one_can_be_avoided_even_across_score_groups():
    # 0 and 1 lead and met; 2 and 3 met: 0-2 and 1-3 (or 0-3, 1-2) instead
    met = {0: {1}, 1: {0}, 2: {3}, 3: {2}}
    pairs = pair_swiss(entrants(4, opponents=lambda i: frozenset(met[i]), points=lambda i: 3 if i < 2 else 0))
    assert {frozenset((p.a, p.b)) for p in pairs} == {frozenset((0, 2)), frozenset((1, 3))}


def test_a_rematch_only_when_every_pairing_has_one():
    pairs = pair_swiss(entrants(2, opponents=lambda i: frozenset({1 - i})))
    assert [(p.a, p.b) for p in pairs] == [(0, 1)]


def test_the_least_sum_of_squared_score_differences_without_a_rematch():
    pts = [6, 3, 3, 0]
    pairs = pair_swiss(entrants(4, points=lambda i: pts[i], opponents=lambda i: frozenset({1 - i} if i < 2 else set())))
    assert {frozenset((p.a, p.b)) for p in pairs} == {frozenset((0, 2)), frozenset((1, 3))}


@pytest.mark.parametrize("avoid", [True, False])
def test_players_of_one_club_are_kept_apart_only_when_asked(avoid):
    club = ["Kyoto", " kyoto ", None, None]
    pairs = pair_swiss(entrants(4, club=lambda i: club[i]), Options(avoid_club=avoid))
    together = any({p.a, p.b} == {0, 1} for p in pairs)
    assert together is (not avoid)


def test_seeded_round_one_meets_the_top_half_with_the_bottom_half():
    pairs = pair_swiss(entrants(8), Options(fold=True))
    assert [(p.a, p.b) for p in pairs] == [(0, 4), (1, 5), (2, 6), (3, 7)]


@pytest.mark.parametrize("fresh", [True, False])
def test_fresh_tables_seat_no_player_where_they_played(fresh):
    played = {0: {1}, 1: {1}, 2: {2}, 3: {2}}
    pairs = pair_swiss(entrants(4, tables=lambda i: frozenset(played[i])), Options(fresh_tables=fresh))
    seats = {p.a: p.table for p in pairs}
    if fresh:
        assert seats == {0: 2, 2: 1}
    else:
        assert seats == {0: 1, 2: 2}


def test_the_bracket_keeps_the_first_two_seeds_apart_until_the_final():
    assert bracket_order(2) == [1, 2]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    cut = pair_top_cut([10, 11, 12, 13, 14, 15, 16, 17, 18], 8)
    assert [(p.a, p.b) for p in cut] == [(10, 17), (13, 14), (11, 16), (12, 15)]
    assert [(p.a, p.b) for p in pair_elimination([10, 13, 11, None])] == [(10, 13), (11, None)]


@pytest.mark.parametrize(
    "n",
    [
        COMPLETE_UP_TO,
        pytest.param(COMPLETE_UP_TO + 1, marks=pytest.mark.slow),
        pytest.param(256, marks=pytest.mark.slow),
    ],
)
def test_the_largest_events_pair_every_player_without_a_rematch(n):
    rng = random.Random(n)
    ps = [
        Entrant(i, f"P{i}", i, points=3 * ((n - i) // 40), opponents=frozenset({i ^ 1}), byes=int(i == n - 1))
        for i in range(n)
    ]
    pairs = pair_swiss(ps, Options())
    assert sorted([p.a for p in pairs] + [p.b for p in pairs if p.b is not None]) == list(range(n))
    assert not any(p.b is not None and p.b == p.a ^ 1 for p in pairs)
    assert all(p.a != n - 1 for p in pairs if p.b is None)
    del rng


def test_standings_break_ties_in_the_events_order():
    players = [Table(1, "Aiko", 1), Table(2, "Bo", 2), Table(3, "Chen", 3), Table(4, "Dai", 4)]
    games = [
        Game(1, 1, 2, "a", 10, 0),  # Aiko beat Bo by 10
        Game(1, 3, 4, "a", 5, 4),  # Chen beat Dai by 1
        Game(2, 1, 3, "b", 2, 3),  # Chen beat Aiko
        Game(2, 2, 4, "a", 1, 0),  # Bo beat Dai
    ]
    pts = Points(3, 1, 0, 3)
    by_sos = standings(players, games, pts, ["sos", "diff"])
    assert [(s.player, s.points, s.sos) for s in by_sos] == [
        ("Chen", 6, 3),
        ("Aiko", 3, 9),
        ("Bo", 3, 3),
        ("Dai", 0, 9),
    ]
    by_diff = standings(players, games, pts, ["diff"])
    assert [s.player for s in by_diff] == ["Chen", "Aiko", "Bo", "Dai"]
    assert [s.score_diff for s in by_diff] == [2, 9, -9, -2]
    h2h = standings(players, games, pts, ["h2h"])
    assert [(s.player, s.h2h) for s in h2h][1:3] == [("Aiko", 3), ("Bo", 0)]
    none = standings(players, games, pts, [])
    assert [(s.player, s.rank) for s in none] == [("Chen", 1), ("Aiko", 2), ("Bo", 2), ("Dai", 4)]
    seed = standings(players, games, pts, ["seed"])
    assert [s.player for s in seed] == ["Chen", "Aiko", "Bo", "Dai"]
    esos = standings(players, games, pts, ["esos"])
    assert [(s.player, s.esos) for s in esos][1:3] == [("Bo", 18), ("Aiko", 6)]


def test_a_bye_scores_as_the_event_says_and_a_cut_ranks_above_the_rest():
    players = [Table(i, n, i) for i, n in enumerate(["Aiko", "Bo", "Chen", "Dai", "Eri"], 1)]
    games = [Game(1, 5, None), Game(1, 1, 2, "a"), Game(1, 3, 4, "draw")]
    rows = standings(players, games, Points(3, 1, 0, 2))
    assert {s.player: s.points for s in rows} == {"Aiko": 3, "Eri": 2, "Chen": 1, "Dai": 1, "Bo": 0}
    games += [Game(2, 1, 4, "b", elimination=True), Game(2, 5, 3, "a", elimination=True)]
    rows = standings(players, games, Points(3, 1, 0, 2))
    assert [(s.player, s.elimination) for s in rows] == [("Eri", 1), ("Dai", 1), ("Aiko", 0), ("Chen", 0), ("Bo", None)]
