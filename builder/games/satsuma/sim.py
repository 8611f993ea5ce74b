"""Whole games of Satsuma Rebellion (003_d64fd863b3930085.txt), played by two policies.

Pure and deterministic: ``play_game(sim, seed)`` plays one game from an integer seed;
the same seed gives the same game on every platform and Python version (see *Random
numbers*). The hands are decided by the rules core (``builder.games.satsuma.rules``):
the totals by its exact solver (``hand_total``, the fast path of ``best_hand``; with
``evaluator="reference"`` by ``clash`` itself) and the outcome by ``decide``, the code
``daimyo satsuma clash`` runs.

A game (lines 6-15, 29-52)
--------------------------
Each hand: both players draw 7 cards (a deck that runs out is rebuilt from its
discard pile), each may discard up to 3 cards and draw as many again, the hands are
compared (each side's best total, one card per suit, the attacker without Defense and
Escape, the defender without Attack), the loser takes a casualty (both on a tie), and
every card goes to its owner's discard pile. The samurai attack first; then the winner
of a hand attacks, a tie keeps the roles, and a samurai defender who won using an
Escape card stays defender. The game ends when the samurai have 9 casualties; the
imperial casualties give the victory level.

Where the rulebook is silent, the simulator follows the catalog's house rules
``escape_choice`` (may a card be left out: the Escape rule) and ``discard_timing`` (are
the discards shuffled into a deck rebuilt during the replacement draw), and the readings
in ``READINGS``, each with the lines it reads.

Random numbers
--------------
Each game owns a ``random.Random(seed)`` (Mersenne Twister seeded from an integer:
its stream has not changed since Python 3.2) and uses only its ``random()`` method:
decks are shuffled by ``shuffle`` (Fisher-Yates: for ``i`` from ``n - 1`` down to 1,
swap card ``i`` with card ``int(random() * (i + 1))``), the samurai deck first, and
cards are drawn from the end of the list. ``random.shuffle``, ``randrange``
and ``choice`` are not used: their algorithms are not promised stable. The seed of
game ``i`` of a run is ``game_seed(master, i)``, a BLAKE2b hash of both, so a game
does not depend on which process plays it or how many games run before it.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from math import floor
from random import Random
from typing import TYPE_CHECKING, Any

from builder import state
from builder.games.satsuma import rules as core

if TYPE_CHECKING:
    from collections.abc import Callable

SEED = core.SEED

READINGS = (
    {
        "id": "roles-before-discard",
        "title": "Roles are known when discarding",
        "reading": "The attacker and defender of a hand follow from the hand before (the winner attacks), "
        "so both players know their role when they choose their discards.",
        "source": f"{SEED}:29-33, {SEED}:38-42",
    },
    {
        "id": "discards-unseen",
        "title": "Discards are chosen without seeing the other hand",
        "reading": "Hands are revealed only in the clash, so each player discards knowing only his own hand and role.",
        "source": f"{SEED}:37, {SEED}:43",
    },
    {
        "id": "escape-samurai-only",
        "title": "The Escape rule is the samurai's",
        "reading": "Only a samurai defender who won using an Escape card remains defender; the rule names "
        "the samurai player only, so an Escape card in an imperial variant deck counts as a suit "
        "and nothing more. Whether a card may be left out is the house rule escape_choice.",
        "source": f"{SEED}:41-42",
    },
    {
        "id": "short-deck",
        "title": "A deck and its discard pile both empty",
        "reading": "A player who must draw when his deck and discard pile are both empty draws nothing more "
        "(only variant decks of fewer than 10 cards get there).",
        "source": f"{SEED}:36",
    },
    {
        "id": "end-check",
        "title": "When the game ends",
        "reading": "The casualties of a hand are taken together (on a tie both sides take one), then the game "
        "ends if the samurai have 9 or more; the imperial casualties at that moment give the "
        "victory level.",
        "source": f"{SEED}:6-15, {SEED}:50-52",
    },
    {
        "id": "hand-cap",
        "title": "Games that would never end",
        "reading": "A game still running after 1,000 hands is stopped and counted as unfinished (a variant "
        "samurai deck that never loses would otherwise play forever).",
        "source": f"{SEED}:6",
    },
)
HOUSE_RULES = ("escape_choice", "discard_timing")  # the readings that are house rules (daimyo rules satsuma)

MAX_HANDS = 1000

POLICIES = {
    "best": "Count the best hand of the role with the rules core; discard up to 3 cards it does not count "
    "(cards the role may not use first), then, while discards are left, counted cards of strength "
    "2 or less, weakest first. A samurai defender who wins the hand uses an Escape card, or leaves "
    "it out, as the house rule escape_choice allows, to take the role (defender or attacker) in "
    "which the samurai inflict more imperial casualties before the end (role values estimated "
    "from 2,000 dealt hands per role).",
    "max": "The discards of 'best'; the hand counted is always the rules core's best hand (Escape only "
    "when the highest total needs it): Escape is never used on purpose.",
    "simple": "Discard up to 3 cards of a suit the role may not use (Defense and Escape when attacking, "
    "Attack when defending); keep everything else.",
    "none": "Keep the seven cards drawn.",
}
WEAK = 2  # the 'best' policy replaces counted cards of this strength or less


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``master`` (64 bits of BLAKE2b)."""
    h = hashlib.blake2b(f"satsuma-game:{master}:{index}".encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big")


@dataclass(frozen=True)
class SideDeck:
    """One side's deck, compiled: card ``i`` is ``cards[i]``; ``tables`` are its
    ``core.RoleTable`` as attacker and as defender."""

    side: str
    cards: tuple  # PlayCard per copy
    tables: tuple  # (attacker RoleTable, defender RoleTable)

    @classmethod
    def build(cls, side: str, cards: Sequence[core.PlayCard]) -> SideDeck:
        return cls(side, tuple(cards), tuple(core.RoleTable.build(cards, role) for role in core.ROLES))

    def __len__(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class Sim:
    samurai: SideDeck
    imperial: SideDeck
    policies: tuple = ("best", "best")  # samurai, imperial
    hand_size: int = core.HAND_SIZE
    max_discard: int = 3
    end: int = core.END_CASUALTIES
    casualties_per_loss: int = 1
    victory: tuple = core.DEFAULT_VICTORY
    evaluator: str = "fast"  # or "reference": every clash through core.clash
    weak: tuple = (None, None)  # the 'best' policy's weak strength per side (None: WEAK)
    max_hands: int = MAX_HANDS
    escape_choice: str = "needed"  # house rule escape_choice (core.ESCAPE_CHOICES)
    discard_timing: str = "before_redraw"  # house rule discard_timing: or "after_redraw"
    # by samurai casualties: True when the samurai, winning as defender, would rather stay defender;
    # computed by role_preference for the samurai policy 'best' when not given
    prefer_defender: tuple = ()

    def __post_init__(self) -> None:
        if self.escape_choice not in core.ESCAPE_CHOICES:
            raise ValueError(f"escape_choice must be one of {', '.join(core.ESCAPE_CHOICES)}")
        if self.discard_timing not in DISCARD_TIMINGS:
            raise ValueError(f"discard_timing must be one of {', '.join(DISCARD_TIMINGS)}")
        if self.policies[0] == "best" and not self.prefer_defender:
            object.__setattr__(self, "prefer_defender", role_preference(self))


DISCARD_TIMINGS = ("before_redraw", "after_redraw")
PILOT_HANDS = 2000  # hands dealt per role to value the roles (role_preference)


def role_outcomes(sim: Sim, hands: int = PILOT_HANDS) -> dict:
    """``{"attacker": (win, tie, loss), "defender": (...)}``: the samurai's share of hands won, tied and
    lost in each role, from ``hands`` pairs of hands dealt from the full decks (fixed seed), both sides
    discarding by their policies and counting the rules core's best hand.

    The answer depends only on the decks' tables and the numbers below, so it is kept for Sims that
    share them (the same decks set up again, a Sim copied with another house rule)."""
    key = (sim.samurai.tables, sim.imperial.tables, sim.hand_size, sim.max_discard, sim.policies, sim.weak, hands)
    out = _ROLE_OUTCOMES.get(key)
    if out is None:
        if len(_ROLE_OUTCOMES) >= _ROLE_OUTCOMES_MAX:
            _ROLE_OUTCOMES.clear()
        out = _ROLE_OUTCOMES[key] = _role_outcomes(sim, hands)
    return dict(out)


_ROLE_OUTCOMES_MAX = 64
_ROLE_OUTCOMES: dict = state.cache(
    "satsuma.role_outcomes",
    bound=_ROLE_OUTCOMES_MAX,
    lifetime=state.VALUE,
    doc="role_outcomes by decks' tables and numbers",
)


def _role_outcomes(sim: Sim, hands: int) -> dict:
    h = hashlib.blake2b(b"satsuma-roles", digest_size=8)
    rnd = Random(int.from_bytes(h.digest(), "big")).random
    size, lim = sim.hand_size, sim.max_discard
    total = core.table_total
    sides = []  # per side: the deck in order, the positions shuffled, its tables, policy and weak strength
    for side, deck in enumerate((sim.samurai, sim.imperial)):
        n = len(deck)
        policy = "best" if sim.policies[side] == "max" else sim.policies[side]
        steps = range(n - 1, max(0, n - 1 - size - lim), -1)  # only the cards drawn need shuffling
        sides.append((list(range(n)), steps, deck.tables, policy, sim.weak[side]))
    out = {}
    for samurai_role in (0, 1):  # 0: the samurai attack
        won = tied = 0
        roles = (samurai_role, 1 - samurai_role)
        for _ in range(hands):
            totals = [0, 0]
            for side in (0, 1):
                base, steps, tables, policy, weak = sides[side]
                table = tables[roles[side]]
                pile = base[:]
                for i in steps:
                    j = floor(rnd() * (i + 1))  # int(random() * (i + 1)), as in shuffle
                    pile[i], pile[j] = pile[j], pile[i]
                hand = pile[-size:]
                del pile[-size:]
                drop = discards(policy, hand, table, lim, weak)
                if drop:
                    for p in sorted(drop, reverse=True):
                        hand.pop(p)
                    if pile:
                        hand.extend(pile[-len(drop) :])
                totals[side] = total(hand, table)[0]
            won += totals[0] > totals[1]
            tied += totals[0] == totals[1]
        out[core.ROLES[samurai_role]] = (won / hands, tied / hands, (hands - won - tied) / hands)
    return out


def role_values(outcomes: dict, end: int, per_loss: int = 1) -> list[tuple[float, float]]:
    """``[(value attacking, value defending)]`` by samurai casualties ``0 .. end - 1``: the imperial
    casualties the samurai may still expect to inflict, hands won, tied and lost as in ``outcomes``.

    With ``k`` losses left (each adds ``per_loss``): attacking, a win keeps the attack, a tie keeps the
    roles and costs a loss, a loss makes the samurai defender; defending, a win makes him attacker
    (the Escape rule aside), a tie or a loss keeps him defender."""
    (wa, ta, la), (wd, td, ld) = outcomes["attacker"], outcomes["defender"]
    big = 1e9
    va, vd = [0.0], [0.0]
    losses = -(-end // per_loss)
    for k in range(1, losses + 1):
        a = big if wa >= 1 else (wa * per_loss + ta * (per_loss + va[k - 1]) + la * vd[k - 1]) / (1 - wa)
        d = wd * (per_loss + a) + td * (per_loss + vd[k - 1]) + ld * vd[k - 1]
        va.append(a)
        vd.append(d)
    return [(va[-(-(end - sc) // per_loss)], vd[-(-(end - sc) // per_loss)]) for sc in range(end)]


def role_preference(sim: Sim) -> tuple:
    """By samurai casualties: True when, having won a hand as defender, the samurai expect more
    imperial casualties defending the next hand than attacking it (``role_values``)."""
    if sim.end <= 0:
        return ()
    values = role_values(role_outcomes(sim), sim.end, max(1, sim.casualties_per_loss))
    return tuple(d > a for a, d in values)


@dataclass
class Game:
    imperial_casualties: int
    samurai_casualties: int
    hands: int
    victory: str | None  # None: unfinished (hand cap)
    samurai_wins: int = 0
    ties: int = 0
    escapes: int = 0  # hands after which the samurai stayed defender by the Escape rule
    reshuffles: tuple = (0, 0)
    trace: list = field(default_factory=list)  # with trace=True: one dict per hand


def shuffle(cards: list, rnd: Callable[[], float]) -> None:
    """Fisher-Yates in place: for i = n-1 down to 1, swap card i with card ``int(random() * (i + 1))``
    (``floor`` of that product, never negative, is the same number, and a cheaper call)."""
    for i, m in _swaps(len(cards)):
        j = floor(rnd() * m)
        cards[i], cards[j] = cards[j], cards[i]


@state.memo("satsuma.shuffle_steps", bound=256, lifetime=state.VALUE, doc="the steps of a shuffle, by deck size")
def _swaps(n: int) -> tuple:
    """``(i, float(i + 1))`` for i = n-1 down to 1: the steps of ``shuffle`` (a float times a float is
    the float times the integer, without converting it on every step)."""
    return tuple((i, float(i + 1)) for i in range(n - 1, 0, -1))


def _draw(pile: list, disc: list, n: int, out: list, rnd: Callable[[], float]) -> int:
    """Draw ``n`` cards from the end of ``pile`` into ``out``; when it runs out, the discard pile is
    shuffled into a new deck. Returns how often that happened."""
    if n <= 0:
        return 0
    if len(pile) >= n:
        out.extend(pile[-n:])
        del pile[-n:]
        return 0
    rebuilt = 0
    while n > 0:
        if not pile:
            if not disc:
                break
            pile.extend(disc)
            disc.clear()
            shuffle(pile, rnd)
            rebuilt += 1
        k = min(n, len(pile))
        out.extend(pile[-k:])
        del pile[-k:]
        n -= k
    return rebuilt


def counted(hand: Sequence[int], table: core.RoleTable) -> dict[int, int]:
    """``{position in hand: strength counted}`` of one best hand (any one of the best)."""
    best, who, _ = _assign(hand, table)
    return {who[s]: best[s] for s in range(8) if who[s] >= 0}


def _assign(hand: Sequence[int], table: core.RoleTable) -> tuple[list, list, list]:
    """``(strength per suit, position per suit or -1, positions of cards with no usable option)``
    of one best hand: the best single-option card per suit, every choice of the other cards."""
    best = [0, 0, 0, 0, 0, 0, 0, 0]
    who = [-1, -1, -1, -1, -1, -1, -1, -1]
    dead = []
    duals = None
    S, V = table.suit, table.value
    pos = 0
    for c in hand:
        s = S[c]
        if s >= 0:
            v = V[c]
            if v > best[s]:
                best[s] = v
                who[s] = pos
        elif s == -1:
            dead.append(pos)
        elif duals is None:
            duals = [(pos, table.opts[c])]
        else:
            duals.append((pos, table.opts[c]))
        pos += 1
    if duals is None:
        return best, who, dead
    best, who = _place_duals(best, who, duals)
    return best, who, dead


def _place_duals(best: list, who: list, duals: list) -> tuple[list, list]:
    """``_assign`` once the single-option cards are placed in ``best`` and ``who`` (changed):
    ``duals`` are ``(position, options)`` of the cards with several options."""
    for _, o in duals:  # (a loop: a generator is a call of its own)
        if len(o) != 2:
            break
    else:
        # a card that gains in one suit only is placed there like a single-option card (a card that
        # gains nothing in a suit never will: placing cards only raises the best strengths), in hand
        # order, until only cards gaining in both of their suits are left
        while True:
            rest = []
            moved = False
            for p, o in duals:
                (s, v), (s2, v2) = o
                g, g2 = v - best[s], v2 - best[s2]
                if g > 0 and g2 > 0 and s != s2:
                    rest.append((p, o))
                elif g > 0 or g2 > 0:
                    if g2 > g:
                        s, v = s2, v2
                    best[s] = v
                    who[s] = p
                    moved = True
            if not moved or not rest:
                break
            duals = rest
        if not rest:
            return best, who
        duals = rest
    top, tb, tw = -1, best, who
    for pick in itertools.product(*[range(len(o)) for _, o in duals]):
        b, w = best[:], who[:]
        for (p, o), k in zip(duals, pick, strict=False):
            s, v = o[k]
            if v > b[s]:
                b[s] = v
                w[s] = p
        t = sum(b)
        if t > top:
            top, tb, tw = t, b, w
    return tb, tw


def discards(policy: str, hand: Sequence[int], table: core.RoleTable, limit: int, weak: int | None = None) -> list[int]:
    """The positions in ``hand`` that ``policy`` discards (at most ``limit``)."""
    if policy == "none" or limit <= 0:
        return []
    if policy == "simple":
        return [pos for pos, c in enumerate(hand) if table.suit[c] == -1][:limit]
    return _best_discards(hand, table, limit, weak)  # best, max


def _best_discards(hand: Sequence[int], table: core.RoleTable, limit: int, weak: int | None = None) -> list[int]:
    S, V = table.suit, table.value
    best = [0, 0, 0, 0, 0, 0, 0, 0]
    who = [-1, -1, -1, -1, -1, -1, -1, -1]
    out = []
    duals = False
    pos = 0
    for c in hand:  # the common case of _assign inline: single-option cards
        s = S[c]
        if s >= 0:
            v = V[c]
            if v > best[s]:
                best[s] = v
                who[s] = pos
        elif s == -1:
            out.append(pos)
        else:
            duals = True
        pos += 1
    if len(out) >= limit:
        return out[:limit]
    if duals:
        best, who, out = _assign(hand, table)
    used = set(who)
    used.update(out)
    for pos in range(len(hand)):
        if pos not in used:
            out.append(pos)
            if len(out) == limit:
                return out
    if weak is None:
        weak = WEAK
    low = [(best[s], who[s]) for s in range(8) if who[s] >= 0 and best[s] <= weak]
    if low:
        low.sort()
        for _, pos in low[: limit - len(out)]:
            out.append(pos)
    return out


def play_game(sim: Sim, seed: int, trace: bool = False, observe: Callable[..., object] | None = None) -> Game:
    """Play one game from ``seed`` (see the module docstring).

    ``trace``: keep one dict per hand in ``Game.trace``. ``observe(piles, discards, held)``,
    when given, is called once the hands are complete and again once they are discarded
    (tests check there that every card is in exactly one place).

    With ``sim.evaluator == "reference"`` the game is played by ``play_reference``: every clash
    through ``core.clash`` and every discard through ``discards``; otherwise by the fast loop below,
    which makes the same decisions from the same numbers (tests compare the two game by game).
    The game's state is kept in locals: each hand is a deal per side (``_play_side``), the samurai
    defender's Escape when he wins (``_samurai_defence``) and the outcome (``core.decide``, looked
    up in ``_outcomes``).
    """
    if sim.evaluator == "reference":
        return play_reference(sim, seed, trace, observe)
    rnd = Random(seed).random
    piles = [list(range(len(sim.samurai))), list(range(len(sim.imperial)))]
    shuffle(piles[0], rnd)
    shuffle(piles[1], rnd)
    discs: list[list[int]] = [[], []]
    sam_disc, imp_disc = discs
    rebuilt = [0, 0]
    log: list[dict[str, Any]] = []
    plans = _plans(sim, piles, discs, rebuilt, rnd)
    per_loss, end, max_hands = sim.casualties_per_loss, sim.end, sim.max_hands
    prefer = sim.prefer_defender if sim.policies[0] == "best" and sim.escape_choice != "needed" else ()
    quick_escape = bool(prefer) and not trace  # the trace records the Escape of every hand
    play, outcomes = _play_side, _outcomes(per_loss)
    sc = ic = hands = wins = ties = escapes = 0
    attacker = 0  # 0 samurai, 1 imperial (line 39)
    while sc < end:
        if hands >= max_hands:
            return Game(ic, sc, hands, None, wins, ties, escapes, tuple(rebuilt), log)
        hands += 1
        sp, ip = plans[attacker]
        # the samurai's Escape matters to his total only as defender, and then is weighed below
        # when he wins (quick_escape)
        sam_hand, st, esc, best, left, fix = play(sp, attacker == 0 or quick_escape)
        imp = play(ip, True)
        imp_hand, it = imp[0], imp[1]
        held = [sam_hand, imp_hand]
        if observe is not None:
            observe(piles, discs, held)
        if attacker and st > it and prefer:
            st, esc = _samurai_defence(sim, sp[0], sam_hand, best, left, fix, st, it, esc, prefer[sc])
        s_cas, i_cas, won, tied, kept, nxt_code, winner, nxt = outcomes[attacker][
            0 if st > it else (1 if it > st else 2)
        ][esc]
        sc += s_cas
        ic += i_cas
        wins += won
        ties += tied
        escapes += kept
        if trace:
            decks = (sim.samurai, sim.imperial)
            who_att = "imperial" if attacker else "samurai"
            log.append(_hand_record(hands, who_att, decks, held, st, it, winner, s_cas, i_cas, nxt, esc))
        attacker = nxt_code
        sam_disc.extend(sam_hand)  # every card held goes to its owner's discard pile
        imp_disc.extend(imp_hand)
        if observe is not None:
            observe(piles, discs, ([], []))
    return Game(ic, sc, hands, core.victory_level(ic, sim.victory), wins, ties, escapes, tuple(rebuilt), log)


@state.memo(
    "satsuma.hand_outcomes", bound=16, lifetime=state.VALUE, doc="core.decide tabulated, by casualties per loss"
)
def _outcomes(per_loss: int) -> tuple[tuple[tuple[tuple[Any, ...], ...], ...], ...]:
    """``core.decide`` for every hand, looked up ``[attacker][samurai higher, imperial higher, tie][samurai
    Escape]`` (attacker 0 samurai, 1 imperial): ``(samurai casualties, imperial casualties, samurai won,
    tied, samurai kept the defence by Escape, next attacker 0 or 1, winner, next attacker)``. The outcome
    of a hand depends on which total is higher, not by how much."""
    out = []
    for attacker in core.SIDES:
        by_order = []
        for st, it in ((1, 0), (0, 1), (0, 0)):
            by_esc = []
            for esc in (False, True):
                winner, s_cas, i_cas, nxt = core.decide(attacker, st, it, esc, per_loss)
                kept = winner == "samurai" and nxt == "imperial"
                row = (s_cas, i_cas, int(winner == "samurai"), int(winner == "tie"), int(kept))
                by_esc.append((*row, core.SIDES.index(nxt), winner, nxt))
            by_order.append(tuple(by_esc))
        out.append(tuple(by_order))
    return tuple(out)


def _plans(
    sim: Sim, piles: list[list[int]], discs: list[list[int]], rebuilt: list[int], rnd: Callable[[], float]
) -> tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]:
    """By attacker (0 samurai, 1 imperial): the samurai's plan and the imperial's, everything
    ``_play_side`` reads of a side in its role, taken once a game: ``(table, suit, value, duo, mask,
    opts, escape, policy code, weak strength, pile, discard pile, side, reshuffle counts, random,
    hand size, discard limit, discards before the replacement draw)``."""
    game = (sim.hand_size, sim.max_discard, sim.discard_timing == "before_redraw")
    by_side = []
    for side, deck in enumerate((sim.samurai, sim.imperial)):
        code, w = _POLICY_CODE[sim.policies[side]], sim.weak[side]
        own = (code, WEAK if w is None else w, piles[side], discs[side], side, rebuilt, rnd, *game)
        by_side.append([(t, t.suit, t.value, t.duo, t.mask, t.opts, t.escape, *own) for t in deck.tables])
    (s_att, s_def), (i_att, i_def) = by_side
    return ((s_att, i_def), (s_def, i_att))


def _play_side(plan: tuple[Any, ...], plain: bool) -> tuple[list[int], int, bool, list[int], list[int] | None, bool]:
    """One side's hand with its ``plan`` (``_plans``): dealt from the end of its pile (rebuilt from
    its discard pile when it runs out), scanned in one pass and its discards chosen by the side's
    policy; ``_replace_and_count`` replaces them and counts the hand played (``plain``: Escape does
    not matter to the total)."""
    _t, S, V, DU, M, O, _e, p, thr, pile, disc, side, rebuilt, rnd, size, lim, _first = plan
    if len(pile) >= size:
        hand = pile[-size:]
        del pile[-size:]
    else:
        hand = []
        rebuilt[side] += _draw(pile, disc, size, hand, rnd)
    # one pass: the best single-option card per suit (best, who), the cards that cannot count
    # (dead), the single-option cards beaten in their suit (idle), the two-option cards (duals)
    best = [0, 0, 0, 0, 0, 0, 0, 0]
    who = [-1, -1, -1, -1, -1, -1, -1, -1]
    dead = []
    idle = []
    duals = None
    pos = 0
    for c in hand:
        s = S[c]
        if s >= 0:
            v = V[c]
            if v > best[s]:
                if who[s] >= 0:
                    idle.append(who[s])
                best[s] = v
                who[s] = pos
            else:
                idle.append(pos)
        elif s == -1:
            dead.append(pos)
        elif duals is None:
            duals = [pos]
        else:
            duals.append(pos)
        pos += 1
    drop = cleared = None
    every_idle = True  # every idle card is among the discards
    if p == 2 and lim > 0:  # best
        if len(dead) >= lim:
            drop = dead[:lim]
        else:
            b2, w2 = best, who  # the counted hand
            if duals is not None:
                # two-option cards with no suit in common are placed one by one: each takes
                # the option gaining most over the single-option cards (the first on a tie);
                # otherwise _assign tries every choice
                m = 0
                for q in duals:
                    c = hand[q]
                    if m & M[c] or DU[c] is None:
                        b2, w2 = _place_duals(best[:], who[:], [(x, O[hand[x]]) for x in duals])
                        used = set(w2)
                        used.update(dead)
                        idle = [q for q in range(pos) if q not in used]
                        break
                    m |= M[c]
                else:
                    b2, w2 = best[:], who[:]
                    for q in duals:
                        s, v, s2, v2 = DU[hand[q]]
                        g, g2 = v - b2[s], v2 - b2[s2]
                        if g2 > g:
                            s, v, g = s2, v2, g2
                        if g > 0:
                            if w2[s] >= 0:
                                idle.append(w2[s])
                            b2[s] = v
                            w2[s] = q
                        else:
                            idle.append(q)
            if len(idle) > 1:
                idle.sort()
            drop = dead + idle
            n = len(drop)
            if n > lim:
                del drop[lim:]
                every_idle = False
            elif n < lim:
                # then counted cards of strength <= thr, weakest first
                low = None
                s = 0
                for v in b2:
                    if 0 < v <= thr:
                        if low is None:
                            low = [(v, w2[s], s)]
                        else:
                            low.append((v, w2[s], s))
                    s += 1
                if low is not None:
                    low.sort()
                    cleared = low[: lim - n]
                    for x in cleared:
                        drop.append(x[1])
    elif p == 1 and lim > 0:  # simple
        drop = dead[:lim]
    if not drop and duals is None:  # nothing to replace or to place
        return hand, sum(best), best[7] > 0, best, None, False
    return _replace_and_count(plan, plain, hand, best, who, duals, drop, cleared, every_idle)


def _replace_and_count(
    plan: tuple[Any, ...],
    plain: bool,
    hand: list[int],
    best: list[int],
    who: list[int],
    duals: list[int] | None,
    drop: list[int] | None,
    cleared: list[tuple[int, int, int]] | None,
    every_idle: bool,
) -> tuple[list[int], int, bool, list[int], list[int] | None, bool]:
    """The discards go (before or after the replacement draw: the house rule ``discard_timing``) and
    as many cards are drawn; then the hand played is counted. The best single-option card per suit is
    kept up to date through the discards and the cards drawn, then the two-option cards (left) are
    placed; a discard that leaves the best of a suit unknown solves the hand again (fix). Returns the
    hand, its total, whether Escape counts, and best, left and fix for ``_samurai_defence``."""
    t, S, V, DU, _m, O, E, _p, _thr, pile, disc, side, rebuilt, rnd, _size, _lim, first = plan
    left = None  # the two-option cards of the hand played
    fix = False  # a discard leaves the best per suit unknown: solve the hand again
    if drop:
        if duals is None:
            if cleared is not None:  # weak single-option cards: no other card of the suit is kept
                for x in cleared:
                    best[x[2]] = 0
        else:
            for q in drop:
                s = S[hand[q]]
                if s >= 0 and who[s] == q:
                    if every_idle:  # no other single-option card of this suit is kept
                        best[s] = 0
                    else:
                        fix = True
            left = []  # (a loop: a comprehension is a call of its own)
            for q in duals:
                if q not in drop:
                    left.append(hand[q])
        drop.sort(reverse=True)
        k = len(drop)
        if first:
            disc.extend(map(hand.pop, drop))  # from the last position down
        else:
            gone = list(map(hand.pop, drop))
        if len(pile) >= k:
            new = pile[-k:]
            del pile[-k:]
        else:
            new = []
            rebuilt[side] += _draw(pile, disc, k, new, rnd)
        if not first:
            disc.extend(gone)
        hand.extend(new)
        for c in new:
            s = S[c]
            if s >= 0:
                v = V[c]
                if v > best[s]:
                    best[s] = v
            elif s == -2:
                if left is None:
                    left = [c]
                else:
                    left.append(c)
    elif duals is not None:
        left = list(map(hand.__getitem__, duals))
    total = sum(best)
    e = False
    if fix:
        total, e = core.table_total(hand, t)
    elif left:
        c = left[0]
        if len(left) == 1 and DU[c] is not None and (plain or (best[7] <= 0 and not E[c])):
            # one card on its own, and Escape does not matter (not the samurai defender's,
            # weighed later, or none in the hand): the total of core.resolve
            a, av, b, bv = DU[c]
            g, g2 = av - best[a], bv - best[b]
            if g2 > g:
                g = g2
            if g > 0:
                total += g
        else:
            for c in left:
                if DU[c] is None:
                    total, e = core.table_total(hand, t)
                    fix = True  # the samurai defender's Escape choice solves it again too
                    break
            else:
                if plain:
                    # only a samurai defender's Escape matters, and with ``prefer`` only
                    # when he wins: the Escape choice weighs it then
                    total = core.solve_duals(best, list(map(O.__getitem__, left)))
                else:
                    total, e = core.resolve(best, list(map(O.__getitem__, left)), any(map(E.__getitem__, left)))
    else:
        e = best[7] > 0
    return hand, total, e, best, left, fix


def _samurai_defence(
    sim: Sim,
    tdef: core.RoleTable,
    hand: list[int],
    b: list[int],
    left: list[int] | None,
    fix: bool,
    st: int,
    it: int,
    esc: bool,
    prefer: bool,
) -> tuple[int, bool]:
    """A samurai defender who wins: Escape used or left out on purpose (``core.choose_escape``),
    from his ``hand`` counted with the table ``tdef`` as best per suit ``b``, two-option cards
    ``left`` and ``fix`` (``_replace_and_count``); the samurai's total and whether Escape counts."""
    echoice = sim.escape_choice
    if left and not fix:
        E = tdef.escape
        for c in left:
            if E[c]:
                break
        else:
            left = None  # no two-option card offers Escape
    if fix:
        without, with_e = core.escape_totals([sim.samurai.cards[c] for c in hand], "defender")
        st, esc = core.choose_escape(echoice, prefer, it, without, with_e)
    elif left:
        without, with_e = _escape_split(b, left, tdef)
        st, esc = core.choose_escape(echoice, prefer, it, without, with_e)
    elif b[7] > 0:  # single-option Escape cards only: the best one adds its strength, alone
        st, esc = core.choose_escape(echoice, prefer, it, st - b[7], st)
    return st, esc


def _hand_record(
    hand: int,
    attacker: str,
    decks: Any,
    held: Any,
    st: int,
    it: int,
    winner: str,
    s_cas: int,
    i_cas: int,
    nxt: str,
    esc: bool,
) -> dict:
    """One hand of ``Game.trace``: who attacked, the cards held, the totals and the outcome."""
    return {
        "hand": hand,
        "attacker": attacker,
        "samurai": [decks[0].cards[c].name for c in held[0]],
        "imperial": [decks[1].cards[c].name for c in held[1]],
        "samurai_strength": st,
        "imperial_strength": it,
        "winner": winner,
        "casualties": {"samurai": s_cas, "imperial": i_cas},
        "next_attacker": nxt,
        "samurai_escape": esc,
    }


def _escape_split(best: list, left: Any, t: core.RoleTable) -> tuple[int, int | None]:
    """``core.escape_totals`` of a hand given as the best single-option card per suit ``best`` and its
    two-option cards ``left``: the total without Escape, and the best total with an Escape card (the
    best single Escape card with everything else out of Escape, or a two-option card in Escape with
    the others out of it)."""
    O, E = t.opts, t.escape

    def without(skip: object) -> int:
        b = best[:]
        b[7] = 0
        rest = []
        for c in left:
            if c == skip:
                continue
            if E[c]:
                for s, v in O[c]:
                    if s != 7 and v > b[s]:
                        b[s] = v
            else:
                rest.append(O[c])
        return core.solve_duals(b, rest) if rest else sum(b)

    base = without(None)
    with_e = best[7] + base if best[7] > 0 else None
    for c in left:
        if E[c]:
            x = max(v for s, v in O[c] if s == 7) + without(c)
            if with_e is None or x > with_e:
                with_e = x
    return base, with_e


_POLICY_CODE = {"none": 0, "simple": 1, "best": 2, "max": 2}


def play_reference(sim: Sim, seed: int, trace: bool = False, observe: Callable[..., object] | None = None) -> Game:
    """The reference game loop: plain code, every discard chosen by ``discards`` and every clash
    resolved by ``core.clash`` (the ``daimyo satsuma clash`` command)."""
    rnd = Random(seed).random
    decks = (sim.samurai, sim.imperial)
    piles = [list(range(len(sim.samurai))), list(range(len(sim.imperial)))]
    shuffle(piles[0], rnd)
    shuffle(piles[1], rnd)
    discs: list[list[int]] = [[], []]
    rebuilt = [0, 0]
    log: list = []
    sc = ic = 0
    attacker = 0  # 0 samurai, 1 imperial (line 39)
    hands = wins = ties = escapes = 0
    names = ("samurai", "imperial")
    while sc < sim.end:
        if hands >= sim.max_hands:
            return Game(ic, sc, hands, None, wins, ties, escapes, tuple(rebuilt), log)
        hands += 1
        held = []
        for side in (0, 1):
            table = decks[side].tables[0 if attacker == side else 1]
            pile, disc = piles[side], discs[side]
            hand: list = []
            rebuilt[side] += _draw(pile, disc, sim.hand_size, hand, rnd)
            drop = discards(sim.policies[side], hand, table, sim.max_discard, sim.weak[side])
            gone = [hand.pop(p) for p in sorted(drop, reverse=True)]
            if sim.discard_timing == "before_redraw":  # the discards may be shuffled into the new deck
                disc.extend(gone)
                rebuilt[side] += _draw(pile, disc, len(drop), hand, rnd)
            else:
                rebuilt[side] += _draw(pile, disc, len(drop), hand, rnd)
                disc.extend(gone)
            held.append(hand)
        if observe is not None:
            observe(piles, discs, held)
        who = names[attacker]
        res = core.clash(
            who, [decks[0].cards[c] for c in held[0]], [decks[1].cards[c] for c in held[1]], sim.casualties_per_loss
        )
        st, it = res.samurai.strength, res.imperial.strength
        esc = res.samurai.uses_suit("E")
        winner, s_cas, i_cas, nxt = res.winner, res.casualties["samurai"], res.casualties["imperial"], res.next_attacker
        if attacker == 1 and sim.policies[0] == "best" and sim.escape_choice != "needed" and sim.prefer_defender:
            # the samurai defender may use an Escape card, or leave it out, on purpose
            without, with_e = core.escape_totals([decks[0].cards[c] for c in held[0]], "defender")
            st, esc = core.choose_escape(sim.escape_choice, sim.prefer_defender[sc], it, without, with_e)
            winner, s_cas, i_cas, nxt = core.decide(who, st, it, esc, sim.casualties_per_loss)
        sc += s_cas
        ic += i_cas
        if winner == "samurai":
            wins += 1
            if nxt == "imperial":
                escapes += 1
        elif winner == "tie":
            ties += 1
        if trace:
            log.append(_hand_record(hands, who, decks, held, st, it, winner, s_cas, i_cas, nxt, esc))
        attacker = 0 if nxt == "samurai" else 1
        discs[0].extend(held[0])
        discs[1].extend(held[1])
        if observe is not None:
            observe(piles, discs, ([], []))
    return Game(ic, sc, hands, core.victory_level(ic, sim.victory), wins, ties, escapes, tuple(rebuilt), log)
