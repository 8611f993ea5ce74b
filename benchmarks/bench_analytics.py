"""Speed of the analytics: Satsuma games, the clash solver, draw odds.

Measures, each as the best of three runs (the machine may be shared):

* Satsuma Rebellion games per second on one core (the published decks, both sides
  playing the 'best' policy), in CPU time and wall time;
* games per second with all cores (``--jobs`` = the cores this process may use), wall
  time, and the same run's result checked equal to the one-core run;
* games per second when every clash goes through the full solver of ``satsuma clash``
  (``--reference``), for comparison;
* hands per second solved by the fast exact path (``table_total``) and by ``best_hand``;
* odds queries per second (parse and answer, Senshiai example deck).

Goal: >= 5,000 Satsuma games per second on one core.

Simulator speed-up (shuffle by ``floor`` over a per-size step table, the samurai defender's single
two-option card counted in place, the pilot hands behind the role values dealt from prepared deck
data and kept per decks and numbers): what ``daimyo satsuma simulate --games 2000 --seed 1`` computes
(published decks, policy best/best), CPU seconds in fresh processes, three runs each alternating
before/after on a shared 2-core machine, the same report every run:

    set-up (decks, role values)   before 0.332 0.265 0.446   after 0.236 0.249 0.315
    2,000 games                   before 0.704 0.711 0.928   after 0.648 0.643 0.651

and in one process, best of five interleaved runs of 2,000 games: escape_choice needed
1.079 -> 0.964 s (89%), free 0.667 -> 0.613 s (92%); role values 0.194 -> 0.156 s
(a second Sim with the same decks and numbers reuses them: no cost).

Game loop in named steps, its state in locals (``play_game`` keeps the game's counts in locals; a
hand is two steps per side reading a plan of the side's tables taken once a game; the outcome is
looked up in a table made by ``core.decide``; no comprehension or generator left in the hot path,
the rules core's Escape split included): 3,000 games (published decks, policy best/best, seed 1),
CPU seconds, best of 5 runs in one process, then the best of 4 fresh processes alternating the
three versions on a shared 2-core machine, the same games in every version:

    one play_game of 274 lines (before the split into steps)   0.639
    split into named steps                                      0.725
    named steps, state in locals                                0.604

and this benchmark's one-core line with 3,000 games, two runs each, alternating: split into steps
4,234 and 4,063 games/s CPU, state in locals 5,091 and 4,880.
Run: ``.venv/bin/python benchmarks/bench_analytics.py [GAMES]``
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def best_of(fn, runs: int = 3) -> tuple[float, float]:
    """(best CPU seconds, best wall seconds) of ``fn()``."""
    cpu = wall = float("inf")
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu = min(cpu, time.process_time() - c0)
        wall = min(wall, time.perf_counter() - w0)
    return cpu, wall


def main() -> None:
    from builder.analytics import odds
    from builder.analytics.stats import load
    from builder.games.satsuma import rules as core
    from builder.games.satsuma import simulate

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    print("load average before: {:.2f} {:.2f} {:.2f} (the machine may be shared)".format(*os.getloadavg()))
    c0 = time.process_time()
    game, _ = simulate.setup(None, None, ("best", "best"), {})
    setup_cpu = time.process_time() - c0
    cores = simulate.default_jobs()
    print(
        f"Satsuma Rebellion, published decks, policy best/best, {games:,} games per run "
        f"(set-up with the role values for Escape: {setup_cpu * 1000:.0f} ms CPU)"
    )

    one = {}

    def run_one():
        one["t"] = simulate.run(game, games, 1, jobs=1)

    cpu, wall = best_of(run_one)
    print(f"  one core:  {games / cpu:8,.0f} games/s CPU time, {games / wall:8,.0f} games/s wall (goal >= 5,000)")
    many = {}

    def run_all():
        many["t"] = simulate.run(game, games * cores, 1, jobs=cores)

    mx, _ = simulate.setup(None, None, ("max", "max"), {})
    cpu_max, _ = best_of(lambda: simulate.run(mx, games, 1, jobs=1))
    print(f"  one core, policy max (Escape never on purpose): {games / cpu_max:8,.0f} games/s CPU time")
    _, wall_all = best_of(run_all, 2)
    check = simulate.run(game, games * cores, 1, jobs=1) if cores > 1 else many["t"]
    same = "same result as one job" if check == many["t"] else "DIFFERENT RESULT FROM ONE JOB"
    print(f"  {cores} core{'s' * (cores != 1)}: {games * cores / wall_all:8,.0f} games/s wall ({same})")
    ref, _ = simulate.setup(None, None, ("best", "best"), {}, evaluator="reference")
    n_ref = max(200, games // 10)
    cpu_ref, _ = best_of(lambda: simulate.run(ref, n_ref, 1, jobs=1))
    print(f"  reference solver for every clash: {n_ref / cpu_ref:8,.0f} games/s CPU time")

    rnd = random.Random(5)
    deck = list(game.samurai.cards)
    hands = [rnd.sample(range(len(deck)), 7) for _ in range(3000)]
    table = game.samurai.tables[1]
    cpu_fast, _ = best_of(lambda: [core.table_total(h, table) for h in hands])
    cpu_slow, _ = best_of(lambda: [core.best_hand([deck[i] for i in h], "defender") for h in hands])
    print(f"  hands solved: fast path {len(hands) / cpu_fast:10,.0f}/s, best_hand {len(hands) / cpu_slow:8,.0f}/s")

    ld = load(ROOT / "examples" / "senshiai-northern-host.yaml")
    queries = [
        "type=terrain and ability=Recruit >= 1 in 6",
        "capital=yes >= 1",
        "cost <= I >= 2 in 6",
        "(path=Water or path=Air) and not type=event = 0 in 6",
        "type=troop >= 3 in 12",
    ]
    n = 400

    def ask():
        for _ in range(n):
            for q in queries:
                odds.answer(q, ld.view)

    cpu_q, _ = best_of(ask)
    print(f"  odds queries: {n * len(queries) / cpu_q:10,.0f}/s (parse and exact answer)")
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
