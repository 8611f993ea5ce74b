"""Standings from an event's games: points for a win, a draw, a loss and a bye as the event sets
them, then the tiebreaks in the event's order. Pure functions: no database.

* ``sos``: strength of schedule, the sum of the points of every opponent played (a bye is no
  opponent; an opponent met twice counts twice);
* ``esos``: extended SOS, the sum of the SOS of every opponent played;
* ``h2h``: head to head, among the players still tied when it is reached: the points each took
  in the games between them;
* ``diff``: the game score difference, the sum of (own score - opponent's score) over the games
  whose scores were given;
* ``seed``: the place in round 1's draw or seeding (players who came later after, by name).

Swiss rounds give the points; the players of a single elimination cut rank above the others, by
the elimination games they won, then by their Swiss order. Players every criterion ties share a
rank, listed by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["TIEBREAKS", "Game", "Points", "Standing", "Table", "standings"]

TIEBREAKS = ("sos", "esos", "h2h", "diff", "seed")


@dataclass(frozen=True)
class Points:
    win: int = 3
    draw: int = 1
    loss: int = 0
    bye: int = 3


@dataclass(frozen=True)
class Game:
    """A game that counts: ``outcome`` a, b or draw (a bye: ``b`` None and no outcome)."""

    round: int
    a: int
    b: int | None
    outcome: str | None = None
    score_a: int | None = None
    score_b: int | None = None
    elimination: bool = False


@dataclass
class Table:
    """Who takes part: their id, name, round 1 place (None: came later) and whether they dropped."""

    id: int
    name: str
    seed: int | None = None
    dropped: bool = False


@dataclass
class Standing:
    player: str
    id: int
    rank: int = 0
    points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    sos: int = 0
    esos: int = 0
    h2h: int | None = None
    score_diff: int = 0
    seed: int | None = None
    dropped: bool = False
    elimination: int | None = None  # elimination games won, for a player of the cut
    opponents: list[int] = field(default_factory=list)

    def row(self, tiebreaks: Sequence[str]) -> dict[str, Any]:
        """The machine form: stable English keys (``h2h`` only when the event breaks ties by it)."""
        out = {
            "rank": self.rank,
            "player": self.player,
            "points": self.points,
            "sos": self.sos,
            "esos": self.esos,
            "score_diff": self.score_diff,
            "seed": self.seed,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "dropped": self.dropped,
        }
        if "h2h" in tiebreaks:
            out["h2h"] = self.h2h
        if self.elimination is not None:
            out["elimination"] = self.elimination
        return out


def _tally(players: Sequence[Table], games: Sequence[Game], pts: Points) -> dict[int, Standing]:
    by_id = {p.id: Standing(p.name, p.id, seed=p.seed, dropped=p.dropped) for p in players}
    for g in games:
        if g.elimination:
            continue
        a = by_id.get(g.a)
        if g.b is None:
            if a is not None:
                a.byes += 1
                a.points += pts.bye
            continue
        b = by_id.get(g.b)
        if a is None or b is None or g.outcome not in ("a", "b", "draw"):
            continue
        a.opponents.append(b.id)
        b.opponents.append(a.id)
        if g.outcome == "draw":
            a.draws, b.draws = a.draws + 1, b.draws + 1
            a.points, b.points = a.points + pts.draw, b.points + pts.draw
        else:
            w, lo = (a, b) if g.outcome == "a" else (b, a)
            w.wins, lo.losses = w.wins + 1, lo.losses + 1
            w.points, lo.points = w.points + pts.win, lo.points + pts.loss
        if g.score_a is not None and g.score_b is not None:
            a.score_diff += g.score_a - g.score_b
            b.score_diff += g.score_b - g.score_a
    for s in by_id.values():
        s.sos = sum(by_id[o].points for o in s.opponents)
    for s in by_id.values():
        s.esos = sum(by_id[o].sos for o in s.opponents)
    return by_id


def _h2h(group: list[Standing], games: Sequence[Game], pts: Points) -> None:
    ids = {s.id for s in group}
    for s in group:
        s.h2h = 0
    by_id = {s.id: s for s in group}
    for g in games:
        if g.elimination or g.b is None or g.a not in ids or g.b not in ids or g.outcome is None:
            continue
        a, b = by_id[g.a], by_id[g.b]
        if g.outcome == "draw":
            a.h2h, b.h2h = (a.h2h or 0) + pts.draw, (b.h2h or 0) + pts.draw
        else:
            w, lo = (a, b) if g.outcome == "a" else (b, a)
            w.h2h, lo.h2h = (w.h2h or 0) + pts.win, (lo.h2h or 0) + pts.loss


KEYS: dict[str, Callable[[Standing], tuple[Any, ...]]] = {
    "sos": lambda s: (-s.sos,),
    "esos": lambda s: (-s.esos,),
    "h2h": lambda s: (-(s.h2h or 0),),
    "diff": lambda s: (-s.score_diff,),
    "seed": lambda s: (s.seed is None, s.seed or 0),
}


def _order(group: list[Standing], criteria: list[str], games: Sequence[Game], pts: Points) -> list[list[Standing]]:
    """``group`` split into its ranks by ``criteria`` in turn: a list of tied groups, best first."""
    if not criteria or len(group) <= 1:
        return [sorted(group, key=lambda s: (s.player.casefold(), s.id))]
    head, rest = criteria[0], criteria[1:]
    if head == "h2h":
        _h2h(group, games, pts)
    key = KEYS[head]
    out: list[list[Standing]] = []
    for k in sorted({key(s) for s in group}):
        out.extend(_order([s for s in group if key(s) == k], rest, games, pts))
    return out


def standings(
    players: Sequence[Table], games: Sequence[Game], pts: Points = Points(), tiebreaks: Sequence[str] = TIEBREAKS
) -> list[Standing]:
    """Every player, best first, each with their rank (shared when every criterion ties)."""
    by_id = _tally(players, games, pts)
    groups: list[list[Standing]] = []
    for points in sorted({s.points for s in by_id.values()}, reverse=True):
        groups.extend(_order([s for s in by_id.values() if s.points == points], list(tiebreaks), games, pts))
    ranked = [s for g in groups for s in g]
    swiss_place = {s.id: i for i, s in enumerate(ranked)}
    cut = {g.a for g in games if g.elimination} | {g.b for g in games if g.elimination and g.b is not None}
    if cut:
        for s in ranked:
            if s.id in cut:
                s.elimination = sum(
                    1
                    for g in games
                    if g.elimination
                    and ((g.a == s.id and (g.outcome == "a" or g.b is None)) or (g.b == s.id and g.outcome == "b"))
                )
        top = sorted((s for s in ranked if s.id in cut), key=lambda s: (-(s.elimination or 0), swiss_place[s.id]))
        rest = [[s for s in g if s.id not in cut] for g in groups]  # Swiss ties still share a rank
        groups = [[s] for s in top] + [g for g in rest if g]
    rank = 1
    for g in groups:
        for s in g:
            s.rank = rank
        rank += len(g)
    return [s for g in groups for s in g]
