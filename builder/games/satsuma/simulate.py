"""Run many Satsuma Rebellion games and summarise them (``daimyo satsuma simulate``).

The games themselves are played by ``builder.games.satsuma.sim.play_game``; this module
loads the decks (the published ones or list files), spreads the games over processes
and adds up what they report. Game ``i`` always plays from ``game_seed(seed, i)`` and
the tallies are sums, so a run gives the same numbers whatever the number of jobs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError, Diagnostic, UsageError, option
from builder.games.satsuma import rules as core
from builder.games.satsuma import sim
from builder.i18n import L_
from builder.kit.confidence import mean_interval, wilson
from builder.names import did_you_mean
from builder.rulebooks import format_source, humanize

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from builder.catalog.loader import Catalog

GAME = "satsuma"  # the game these simulations play

MAX_DECK = 10_000  # cards per side a simulation accepts


class IllegalDeck(DaimyoError):
    """A deck list that ``daimyo check`` finds illegal (exit 1)."""

    exit_code = 1


@dataclass
class SideInfo:
    side: str
    name: str
    file: str | None  # None: the published deck
    cards: int
    policy: str
    rules: dict = field(default_factory=dict)  # the house rules this side's deck was read with

    def to_json(self) -> dict:
        return {"side": self.side, "name": self.name, "list": self.file, "cards": self.cards, "policy": self.policy}


@dataclass
class Tally:
    """What a set of games adds up to (every field a sum, so tallies merge in any order)."""

    games: int = 0
    unfinished: int = 0
    hands: int = 0
    hands_sq: int = 0
    imperial: dict = field(default_factory=dict)  # imperial casualties at the end -> games
    victory: dict = field(default_factory=dict)  # victory level -> games
    samurai_wins: int = 0
    ties: int = 0
    escapes: int = 0
    reshuffles: list = field(default_factory=lambda: [0, 0])

    def add(self, g: sim.Game) -> None:
        self.games += 1
        self.hands += g.hands
        self.hands_sq += g.hands * g.hands
        if g.victory is None:
            self.unfinished += 1
        else:
            self.victory[g.victory] = self.victory.get(g.victory, 0) + 1
            self.imperial[g.imperial_casualties] = self.imperial.get(g.imperial_casualties, 0) + 1
        self.samurai_wins += g.samurai_wins
        self.ties += g.ties
        self.escapes += g.escapes
        self.reshuffles[0] += g.reshuffles[0]
        self.reshuffles[1] += g.reshuffles[1]

    def merge(self, o: Tally) -> None:
        self.games += o.games
        self.unfinished += o.unfinished
        self.hands += o.hands
        self.hands_sq += o.hands_sq
        for k, v in o.imperial.items():
            self.imperial[k] = self.imperial.get(k, 0) + v
        for k, v in o.victory.items():
            self.victory[k] = self.victory.get(k, 0) + v
        self.samurai_wins += o.samurai_wins
        self.ties += o.ties
        self.escapes += o.escapes
        self.reshuffles[0] += o.reshuffles[0]
        self.reshuffles[1] += o.reshuffles[1]


def play_range(game: sim.Sim, seed: int, start: int, stop: int) -> Tally:
    """Games ``start`` .. ``stop - 1`` of the run ``seed``."""
    t = Tally()
    for i in range(start, stop):
        t.add(sim.play_game(game, sim.game_seed(seed, i)))
    return t


def _work(args: tuple[sim.Sim, int, int, int]) -> tuple[int, Tally]:
    game, seed, start, stop = args
    return stop - start, play_range(game, seed, start, stop)


def run(game: sim.Sim, games: int, seed: int, jobs: int = 1, progress: Callable[[int], object] | None = None) -> Tally:
    """Play ``games`` games; ``progress(done)`` is called as chunks finish."""
    jobs = max(1, jobs)
    chunk = max(20, min(2000, games // (jobs * 8) or 1))
    parts = [(game, seed, a, min(games, a + chunk)) for a in range(0, games, chunk)]
    total = Tally()
    done = 0
    if jobs == 1 or len(parts) == 1:
        for p in parts:
            n, t = _work(p)
            total.merge(t)
            done += n
            if progress:
                progress(done)
        return total
    import multiprocessing  # noqa: PLC0415 - the process pool only when a simulation is split over processes

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(min(jobs, len(parts))) as pool:
        for n, t in pool.imap_unordered(_work, parts):
            total.merge(t)
            done += n
            if progress:
                progress(done)
    return total


# -- decks -------------------------------------------------------------------------------


def _published(catalog: Catalog, side: str, rules: dict) -> list[core.PlayCard]:
    return [core.play_card(c, rules) for c in catalog.entries("cards") if c.side == side]


def load_side(
    path: str | None, side: str, given_rules: dict, packs: Sequence[str] = (), lists: Any = None
) -> tuple[list, str, Catalog, dict]:
    """``(cards, name, catalog, rules)`` of one side: its list file or the published deck. A list
    file is read and checked with ``lists`` (``load_list``, ``check_doc``, ``resolve_house_rules``:
    the library's, handed over by the command)."""
    if path is None:
        catalog = load_catalog(GAME, list(packs))
        rules = _rules(catalog, given_rules)
        return _published(catalog, side, rules), f"published {side} deck", catalog, rules
    if lists is None:
        raise TypeError("load_side reads a list file with the library's list functions: pass lists=")
    doc = lists.load_list(path)
    if doc.system != GAME:
        raise UsageError(
            L_(
                "--{side} {path}: a {system} list; the simulation plays Satsuma Rebellion decks",
                side=side,
                path=path,
                system=doc.system,
            )
        )
    catalog = load_catalog(GAME, list(doc.packs) + list(packs))
    result = lists.check_doc(doc, catalog=catalog)
    lst, _ = core.load_list(doc, catalog)
    if lst.side != side:
        raise UsageError(
            L_("--{side} {path}: this is the {side2} deck", side=side, path=path, side2=lst.side),
            L_("pass it as --{side}", side=lst.side),
        )
    errors = [f for f in result.findings if f.severity == "error"]
    if errors:
        raise IllegalDeck([Diagnostic(doc.file, f.line or 0, f.col or 0, f.message, code=f.code) for f in errors])
    if lst.total() > MAX_DECK:
        raise UsageError(
            L_(
                "--{side} {path}: {total} cards; the simulation takes decks of at most {MAX_DECK:,} cards",
                side=side,
                path=path,
                total=lst.total(),
                MAX_DECK=MAX_DECK,
            )
        )
    rules = _rules(catalog, {**lists.resolve_house_rules(doc, catalog), **given_rules})
    name = doc.name or ("published" if lst.deck == "standard" else "variant") + f" {side} deck"
    return core.deck_cards(lst, rules), name, catalog, rules


def _rules(catalog: Catalog, given: dict) -> dict:
    try:
        return catalog.resolve_rules(given)
    except (KeyError, ValueError) as exc:
        raise UsageError(str(exc.args[0])) from None


def parse_policies(text: str) -> tuple[str, str]:
    """``best`` (both sides), ``samurai=best,imperial=simple`` or ``best,simple``."""
    names = list(sim.POLICIES)
    parts = [p.strip() for p in (text or "").split(",") if p.strip()]
    if not parts or len(parts) > 2:
        raise UsageError(
            L_("{option} '{text}': give one policy or one per side", option=option("policy"), text=text),
            L_("e.g. {option} best or {option} samurai=best,imperial=simple", option=option("policy")),
        )
    out: dict[str, str] = {}
    side: str | None  # None: the one policy of both sides
    for i, part in enumerate(parts):
        if "=" in part:
            side, value = (x.strip().lower() for x in part.split("=", 1))
            if side not in core.SIDES:
                raise UsageError(
                    L_("{option} '{text}': unknown side '{side}'", option=option("policy"), text=text, side=side),
                    did_you_mean(side, core.SIDES) or L_("samurai or imperial"),
                )
        else:
            side, value = (core.SIDES[i] if len(parts) == 2 else None), part.lower()
        if value not in sim.POLICIES:
            raise UsageError(
                L_("{option} '{text}': unknown policy '{value}'", option=option("policy"), text=text, value=value),
                did_you_mean(value, names) or L_("one of {values}", values=", ".join(names)),
            )
        if side is None:
            out = {"samurai": value, "imperial": value}
        else:
            out[side] = value
    return out.get("samurai", "best"), out.get("imperial", "best")


GAME_RULES = ("escape_choice", "discard_timing")  # house rules of the game itself, not of one deck


def game_rules(s_rules: dict, i_rules: dict, given: dict) -> dict:
    """The house rules of the whole game: a value given on the command line, else the one both lists
    agree (a list not naming a rule takes its default); two lists agreeing different values is an error."""
    out = {}
    for key in GAME_RULES:
        if key in given or s_rules.get(key) == i_rules.get(key):
            out[key] = s_rules.get(key)
        else:
            raise UsageError(
                L_(
                    "the samurai list agrees {key}={value}, the imperial list {key}={value2}",
                    key=key,
                    value=s_rules.get(key),
                    value2=i_rules.get(key),
                ),
                L_("choose one with {option} {key}=VALUE", option=option("rule"), key=key),
            )
    return out


def setup(
    samurai: str | None,
    imperial: str | None,
    policies: tuple[str, str],
    rules: dict,
    packs: Sequence[str] = (),
    evaluator: str = "fast",
    lists: Any = None,
) -> tuple[sim.Sim, list[SideInfo]]:
    s_cards, s_name, cat, s_rules = load_side(samurai, "samurai", rules, packs, lists)
    i_cards, i_name, _, i_rules = load_side(imperial, "imperial", rules, packs, lists)
    agreed = game_rules(s_rules, i_rules, rules)
    game = sim.Sim(
        sim.SideDeck.build("samurai", s_cards),
        sim.SideDeck.build("imperial", i_cards),
        policies=policies,
        hand_size=int(core.constant(cat, "hand_size", core.HAND_SIZE)),
        max_discard=int(core.constant(cat, "max_discard", 3)),
        end=int(core.constant(cat, "end_casualties", core.END_CASUALTIES)),
        casualties_per_loss=int(core.constant(cat, "casualties_per_loss", 1)),
        victory=core.victory_table(cat),
        evaluator=evaluator,
        escape_choice=agreed.get("escape_choice") or "needed",
        discard_timing=agreed.get("discard_timing") or "before_redraw",
    )
    info = [
        SideInfo("samurai", s_name, samurai, len(s_cards), policies[0], s_rules),
        SideInfo("imperial", i_name, imperial, len(i_cards), policies[1], i_rules),
    ]
    return game, info


# -- the report ---------------------------------------------------------------------------


def report(t: Tally, game: sim.Sim, info: list[SideInfo], seed: int) -> dict:
    finished = t.games - t.unfinished
    levels = [row[2] for row in game.victory]
    victory = []
    for level in levels:
        n = t.victory.get(level, 0)
        lo, hi = wilson(n, finished)
        victory.append({"result": level, "games": n, "share": n / finished if finished else 0.0, "ci95": [lo, hi]})
    top = max(t.imperial, default=0)
    casualties = []
    for k in range(0, top + 1):
        n = t.imperial.get(k, 0)
        lo, hi = wilson(n, finished)
        casualties.append(
            {"imperial_casualties": k, "games": n, "share": n / finished if finished else 0.0, "ci95": [lo, hi]}
        )
    ic_sum = sum(k * n for k, n in t.imperial.items())
    ic_sq = sum(k * k * n for k, n in t.imperial.items())
    ic_mean, ic_lo, ic_hi = mean_interval(ic_sum, ic_sq, finished)
    h_mean, h_lo, h_hi = mean_interval(t.hands, t.hands_sq, t.games)
    return {
        "games": t.games,
        "seed": seed,
        "finished": finished,
        "unfinished": t.unfinished,
        "decks": [i.to_json() for i in info],
        "policies": {i.side: {"name": i.policy, "description": sim.POLICIES[i.policy]} for i in info},
        "victory": victory,
        "imperial_casualties": casualties,
        "mean_imperial_casualties": {"mean": ic_mean, "ci95": [ic_lo, ic_hi]},
        "mean_hands": {"mean": h_mean, "ci95": [h_lo, h_hi]},
        "hands": {
            "total": t.hands,
            "samurai_wins": t.samurai_wins,
            "ties": t.ties,
            "imperial_wins": t.hands - t.samurai_wins - t.ties,
            "escape_kept_defender": t.escapes,
        },
        "reshuffles_per_game": {
            "samurai": t.reshuffles[0] / t.games if t.games else 0.0,
            "imperial": t.reshuffles[1] / t.games if t.games else 0.0,
        },
        # the game's house rules, then the samurai deck's (Bodyguard is a samurai card)
        "house_rules": {
            "escape_choice": game.escape_choice,
            "discard_timing": game.discard_timing,
            **{k: v for k, v in sorted(info[0].rules.items()) if k not in GAME_RULES},
        },
        "readings": readings(),
    }


def readings() -> list[dict]:
    """The simulator's readings of the rulebook, each source as a player reads it (and exact)."""
    return [{**r, "source": format_source(r["source"]), "ref": r["source"]} for r in sim.READINGS]


def house_rules() -> list[dict]:
    """The catalog's house rules the simulation follows where the rulebook is silent."""
    rules = load_catalog("satsuma").house_rules()
    return [
        {
            "id": k,
            "title": rules[k].title,
            "default": rules[k].default,
            "reading": humanize(rules[k].reading),
            "alternatives": [a.value for a in rules[k].alternatives],
            "source": format_source(rules[k].source) if rules[k].source else "",
        }
        for k in sim.HOUSE_RULES
        if k in rules
    ]


def readings_json() -> dict:
    """What ``--readings --format json`` prints: the house rules, the readings and the policies."""
    return {"house_rules": house_rules(), "readings": readings(), "policies": sim.POLICIES}


def format_readings() -> list[str]:
    lines = [
        "Where the rulebook is silent, 'daimyo satsuma simulate' follows these house rules "
        "(change one with --rule ID=VALUE; all of them: daimyo rules satsuma):"
    ]
    for h in house_rules():
        lines.append(f"{h['id']} = {h['default']}: {h['title']} (or {', '.join(map(str, h['alternatives']))})")
        lines.append(f"    {h['reading']} ({h['source']})")
    lines.append("and reads it so:")
    for r in readings():
        lines.append(f"{r['id']}: {r['title']}")
        lines.append(f"    {r['reading']} ({r['source']})")
    lines.append("Policies (--policy):")
    for name, text in sim.POLICIES.items():
        lines.append(f"{name}: {text}")
    return lines


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def format_report(rep: dict) -> list[str]:
    lines = [f"Satsuma Rebellion: {rep['games']:,} games, seed {rep['seed']}"]
    for d in rep["decks"]:
        src = f" ({d['list']})" if d["list"] else ""
        lines.append(f"  {d['side']:<8} {d['name']}{src}, {d['cards']} cards, policy {d['policy']}")
    if rep["unfinished"]:
        lines.append(
            f"  {rep['unfinished']:,} games stopped unfinished after {sim.MAX_HANDS:,} hands (not counted below)"
        )
    lines.append("victory (share of games, 95% confidence interval, Wilson):")
    width = max(len(v["result"]) for v in rep["victory"])
    for v in rep["victory"]:
        lo, hi = v["ci95"]
        lines.append(f"  {v['result']:<{width}}  {v['games']:>9,}  {_pct(v['share']):>6}  [{_pct(lo)}, {_pct(hi)}]")
    lines.append("imperial casualties when the game ends:")
    for c in rep["imperial_casualties"]:
        if not c["games"]:
            continue
        lo, hi = c["ci95"]
        bar = "#" * round(40 * c["share"])
        lines.append(
            f"  {c['imperial_casualties']:>3}  {c['games']:>9,}  {_pct(c['share']):>6}  [{_pct(lo)}, {_pct(hi)}]  {bar}"
        )
    m = rep["mean_imperial_casualties"]
    lines.append(f"mean imperial casualties: {m['mean']:.2f} [{m['ci95'][0]:.2f}, {m['ci95'][1]:.2f}]")
    m = rep["mean_hands"]
    lines.append(f"mean game length: {m['mean']:.2f} hands [{m['ci95'][0]:.2f}, {m['ci95'][1]:.2f}]")
    h = rep["hands"]
    if h["total"]:
        lines.append(
            f"hands won: samurai {_pct(h['samurai_wins'] / h['total'])}, "
            f"imperial {_pct(h['imperial_wins'] / h['total'])}, ties {_pct(h['ties'] / h['total'])}; "
            f"Escape kept the samurai defender {h['escape_kept_defender']:,} times"
        )
    lines.append(
        "house rules: " + ", ".join(f"{k}={v}" for k, v in rep["house_rules"].items()) + " (see daimyo rules satsuma)"
    )
    lines.append(
        "readings of the rulebook where it is silent: "
        + ", ".join(r["id"] for r in rep["readings"])
        + " (see --readings)"
    )
    return lines


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def prepare(
    games: int,
    jobs: int,
    policy: str,
    samurai: str | None,
    imperial: str | None,
    rules: dict,
    packs: Sequence[str] = (),
    reference: bool = False,
    lists: Any = None,
) -> Any:
    """``setup`` for a run of ``games`` games on ``jobs`` processes (0: one per core), the counts and
    the policy text (``best``, or ``samurai=P,imperial=P``) checked first."""
    if games < 1 or games > 100_000_000:
        raise UsageError(
            L_("{option} {games}: give a number of games from 1 to 100,000,000", option=option("games"), games=games)
        )
    if jobs < 0 or jobs > 1024:
        raise UsageError(
            L_("{option} {jobs}: give 1 to 1024 processes, or 0 for one per core", option=option("jobs"), jobs=jobs)
        )
    return setup(
        samurai,
        imperial,
        parse_policies(policy),
        rules,
        packs,
        evaluator="reference" if reference else "fast",
        lists=lists,
    )
