"""Rules core and checks for Satsuma Rebellion (003_d64fd863b3930085.txt).

The core is pure: it works on ``PlayCard`` tuples (a name and its usable
suit/strength options) and plain values.

* ``play_card(card, rules)`` / ``play_cards(catalog, names, side, rules)``: catalog
  cards to ``PlayCard`` with the house rule for unknown suits applied.
* ``usable_options(card, role)``: the options a role may use (the attacker uses no
  Defense or Escape card, the defender no Attack card; lines 47-48).
* ``best_hand(cards, role)``: the exact best total, one card per suit, each card
  counted once as one of its options (lines 44-48); a dynamic programme over the
  set of suits already filled (2^8 states), ``O(cards x 256 x options)``.
* ``clash(attacker, samurai_cards, imperial_cards)``: both hands, the winner, the
  casualties and ``next_attacker`` (lines 38-52).
* ``GameState``/``apply_clash``/``is_game_over``/``victory_level``: the end at nine
  samurai casualties and the victory table (lines 6-15).
* ``card_faces(catalog, rules, side=None)``: what a printed card face shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import TYPE_CHECKING, Any

from builder.errors import ListError
from builder.findings import Finding, codes, error, info, warning
from builder.games.satsuma.catalog import parse_printed
from builder.i18n import L_, N_
from builder.names import did_you_mean, normalize
from builder.rules.limits import limit

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import HouseRules

SEED = "003_d64fd863b3930085.txt"
SIDES = ("samurai", "imperial")
ROLES = ("attacker", "defender")
SUIT_LETTERS = ("F", "R", "L", "A", "D", "M", "W", "E")
SUIT_NAMES = {
    "F": "Force",
    "R": "Reserves",
    "L": "Leader",
    "A": "Attack",
    "D": "Defense",
    "M": "Morale",
    "W": "Weapons",
    "E": "Escape",
}
LETTER_OF = {v.lower(): k for k, v in SUIT_NAMES.items()}
FORBIDDEN = {"attacker": frozenset({"D", "E"}), "defender": frozenset({"A"})}
SRC_FORBIDDEN = {"attacker": f"{SEED}:47", "defender": f"{SEED}:48"}
HAND_SIZE = 7
END_CASUALTIES = 9


# -- the pure core -------------------------------------------------------------


@dataclass(frozen=True)
class PlayCard:
    """A card as the rules see it: its name and usable (suit letter, strength) options."""

    name: str
    options: tuple[tuple[str, int], ...]
    printed: str = ""
    side: str | None = None


@dataclass(frozen=True)
class Use:
    card: str
    suit: str  # letter
    strength: int

    @property
    def suit_name(self) -> str:
        return SUIT_NAMES.get(self.suit, self.suit)


@dataclass(frozen=True)
class Hand:
    role: str
    strength: int
    used: tuple[Use, ...]
    unused: tuple[str, ...]  # names of the cards not counted

    def uses_suit(self, letter: str) -> bool:
        return any(u.suit == letter for u in self.used)

    def to_json(self) -> dict:
        return {
            "strength": self.strength,
            "used": [{"card": u.card, "suit": u.suit_name, "strength": u.strength} for u in self.used],
        }


def usable_options(card: PlayCard, role: str) -> tuple[tuple[str, int], ...]:
    """The options of ``card`` that ``role`` may count (known suits, not forbidden)."""
    if role not in ROLES:
        raise ValueError(f"role must be attacker or defender, not {role!r}")
    bad = FORBIDDEN[role]
    return tuple((s, v) for s, v in card.options if s in SUIT_NAMES and s not in bad)


def _canonical(cards: Sequence[PlayCard]) -> list[PlayCard]:
    return sorted(cards, key=lambda c: (normalize(c.name), c.options, c.printed))


def best_hand(cards: Sequence[PlayCard], role: str, escape: bool | None = None) -> Hand:
    """The highest total strength of ``cards`` for ``role``: one card per suit.

    Exact: dynamic programming over the set of suits used so far. Among equal
    totals the choice is deterministic and independent of the order of ``cards``.
    ``escape``: True for the best hand using an Escape card, False for the best without
    one (None: the best of all; raises ValueError when no hand uses Escape).
    """
    order = _canonical(cards)
    bit = {s: 1 << i for i, s in enumerate(SUIT_LETTERS)}
    # best[mask] = (strength, chosen) with chosen a tuple of (card index, suit, strength)
    best: dict[int, tuple[int, tuple]] = {0: (0, ())}
    for i, card in enumerate(order):
        opts = usable_options(card, role)
        if not opts:
            continue
        nxt = dict(best)
        for mask, (val, chosen) in best.items():
            for suit, strength in opts:
                b = bit[suit]
                if mask & b:
                    continue
                nm = mask | b
                cand = val + strength
                if nm not in nxt or cand > nxt[nm][0]:
                    nxt[nm] = (cand, chosen + ((i, suit, strength),))
        best = nxt
    masks = sorted(best)
    if escape is not None:
        e = bit["E"]
        masks = [m for m in masks if bool(m & e) == escape]
        if not masks:
            raise ValueError(f"no usable Escape card for the {role}")
    top_mask = max(masks, key=lambda m: best[m][0])  # first mask reaching the maximum
    total, chosen = best[top_mask]
    used_idx = {i for i, _, _ in chosen}
    uses = sorted((Use(order[i].name, s, v) for i, s, v in chosen), key=lambda u: SUIT_LETTERS.index(u.suit))
    unused = tuple(sorted(order[i].name for i in range(len(order)) if i not in used_idx))
    return Hand(role=role, strength=total, used=tuple(uses), unused=unused)


def best_strength_brute(cards: Sequence[PlayCard], role: str) -> int:
    """Reference solver: try every option (or none) for every card. Exponential; tests only."""
    choices = [((None, 0),) + usable_options(c, role) for c in cards]
    top = 0
    for combo in product(*choices):
        suits = [s for s, _ in combo if s is not None]
        if len(suits) == len(set(suits)):
            top = max(top, sum(v for _, v in combo))
    return top


def escape_totals(cards: Sequence[PlayCard], role: str) -> tuple[int, int | None]:
    """``(highest total without an Escape card, highest total of a hand using one)`` of ``cards`` for
    ``role``, the second None when no hand can use Escape: the dynamic programme of ``best_hand``
    over the sets of suits used, its best value split by whether the set holds Escape."""
    best = {0: 0}
    for card in cards:
        opts = [(SUIT_INDEX[s], v) for s, v in usable_options(card, role)]
        if not opts:
            continue
        nxt = dict(best)
        for mask, val in best.items():
            for s, v in opts:
                b = 1 << s
                if not mask & b and val + v > nxt.get(mask | b, -1 << 62):
                    nxt[mask | b] = val + v
        best = nxt
    e = 1 << SUIT_INDEX["E"]
    without = max(v for m, v in best.items() if not m & e)
    with_escape = [v for m, v in best.items() if m & e]
    return without, (max(with_escape) if with_escape else None)


ESCAPE_CHOICES = ("highest", "needed", "free")


def choose_escape(
    rule: str, prefer_defender: bool | None, imperial: int, without: int, with_escape: int | None
) -> tuple[int, bool]:
    """The samurai defender's hand: ``(total counted, Escape used)``.

    ``without``/``with_escape``: his highest totals without and with an Escape card (``escape_totals``);
    ``prefer_defender``: True to stay defender after a win (use Escape), False to attack next (leave it
    out), None for no preference (Escape only when the highest total needs it, as ``clash`` shows).
    ``rule`` is the house rule ``escape_choice``: ``highest`` (a hand of the highest total; among
    several, he picks), ``needed`` (no choice), ``free`` (any hand, even of a lower total)."""
    top = without if with_escape is None or with_escape <= without else with_escape
    needed = top != without
    if prefer_defender is None or rule == "needed" or top <= imperial:
        return top, needed
    if rule == "free":
        if with_escape is not None and with_escape > imperial and without > imperial:
            return (with_escape, True) if prefer_defender else (without, False)
        return top, needed
    if prefer_defender and with_escape == top:
        return top, True
    return top, needed


@dataclass(frozen=True)
class Clash:
    attacker: str  # samurai | imperial
    samurai: Hand
    imperial: Hand
    winner: str  # samurai | imperial | tie
    casualties: dict = field(default_factory=dict)  # {"samurai": 0|1, "imperial": 0|1}
    next_attacker: str = "samurai"
    escape_kept_defender: bool = False

    def to_json(self) -> dict:
        return {
            "samurai": self.samurai.to_json(),
            "imperial": self.imperial.to_json(),
            "winner": self.winner,
            "casualties": dict(self.casualties),
            "next_attacker": self.next_attacker,
        }


def role_of(side: str, attacker: str) -> str:
    return "attacker" if side == attacker else "defender"


def next_attacker(attacker: str, winner: str, samurai_hand: Hand | None = None) -> str:
    """Who attacks the next hand (lines 38-42, 51-52).

    The winner attacks; a tie keeps the roles; a samurai defender who won the hand
    using an Escape card stays defender.
    """
    escape = samurai_hand is not None and samurai_hand.uses_suit("E")
    return _next_attacker(attacker, winner, escape)


def _next_attacker(attacker: str, winner: str, samurai_escape: bool) -> str:
    if winner == "tie":
        return attacker
    if winner == "samurai" and attacker == "imperial" and samurai_escape:
        return "imperial"
    return winner


def decide(
    attacker: str, samurai_strength: int, imperial_strength: int, samurai_escape: bool, casualties_per_loss: int = 1
) -> tuple[str, int, int, str]:
    """The outcome of a hand from both totals: ``(winner, samurai casualties, imperial casualties,
    next attacker)`` (lines 38-42, 49-52). ``clash`` and the game simulator both decide here."""
    if samurai_strength > imperial_strength:
        winner, sc, ic = "samurai", 0, casualties_per_loss
    elif imperial_strength > samurai_strength:
        winner, sc, ic = "imperial", casualties_per_loss, 0
    else:
        winner, sc, ic = "tie", casualties_per_loss, casualties_per_loss
    return winner, sc, ic, _next_attacker(attacker, winner, samurai_escape)


def clash(
    attacker: str,
    samurai_cards: Sequence[PlayCard],
    imperial_cards: Sequence[PlayCard],
    casualties_per_loss: int = 1,
    samurai_escape: bool | None = None,
) -> Clash:
    """Resolve one hand: higher total wins, the loser takes a casualty, a tie gives both one.

    ``samurai_escape``: the samurai counts his best hand with (True) or without (False) an Escape
    card, as the house rule ``escape_choice`` may let him (``choose_escape``); None: his best hand."""
    if attacker not in SIDES:
        raise ValueError(f"attacker must be samurai or imperial, not {attacker!r}")
    sam = best_hand(samurai_cards, role_of("samurai", attacker), samurai_escape)
    imp = best_hand(imperial_cards, role_of("imperial", attacker))
    winner, sc, ic, nxt = decide(attacker, sam.strength, imp.strength, sam.uses_suit("E"), casualties_per_loss)
    kept = winner == "samurai" and nxt == "imperial"
    return Clash(attacker, sam, imp, winner, {"samurai": sc, "imperial": ic}, nxt, kept)


# -- the fast exact path ---------------------------------------------------------
#
# ``best_hand`` explains a hand (which card counts in which suit). A game simulation
# only needs the total and whether the counted hand uses Escape, millions of times.
# ``compile_options`` turns each card into per-role tuples of (suit index, strength)
# once; ``hand_total`` then solves a hand with one pass over the cards that have a
# single usable option (the best one per suit counts) and tries every choice of the
# few cards with two usable options (2^d sums of 8 numbers, d <= 7).
#
# Escape: ``best_hand`` counts, among the hands of the highest total, the one with the
# smallest suit set in the order F R L A D M W E; Escape is the last suit, so it is
# counted exactly when no hand of the highest total does without it. ``hand_total``
# answers the same by solving the hand a second time without its Escape options.
# tests/test_satsuma_analytics.py checks both answers against ``best_hand``.

SUIT_INDEX = {s: i for i, s in enumerate(SUIT_LETTERS)}
ESCAPE = SUIT_INDEX["E"]


def compile_options(card: PlayCard) -> dict[str, tuple[tuple[int, int], ...]]:
    """``{"attacker": ((suit index, strength), ...), "defender": (...)}`` of a card."""
    return {role: tuple((SUIT_INDEX[s], v) for s, v in usable_options(card, role)) for role in ROLES}


def _settle(best: list, duals: list) -> list:
    """Place in ``best`` (changed) every two-option card that can gain in one suit only, as if it were
    a single-option card of that suit, until none is left; return the cards that gain in both suits.

    Exact: a card that gains nothing in a suit never will (placing cards only raises ``best``), so
    it may be placed in its other suit, or left out when it gains nowhere."""
    while True:
        rest = []
        moved = False
        for d in duals:
            (s, v), (s2, v2) = d
            g, g2 = v - best[s], v2 - best[s2]
            if g > 0 and g2 > 0 and s != s2:
                rest.append(d)
            elif g > 0 or g2 > 0:
                if g2 > g:
                    s, v = s2, v2
                best[s] = v
                moved = True
        if not moved or not rest:
            return rest
        duals = rest


def solve_duals(best: list, duals: list) -> int:
    """The best total of per-suit singles ``best`` plus cards with two options each."""
    if len(duals) == 1:
        (a, av), (b, bv) = duals[0]
        return sum(best) + max(0, av - best[a], bv - best[b])
    if len(duals) == 2:  # the four choices, each counting only the suits it changes
        gain = 0
        o2 = duals[1]
        for s1, v1 in duals[0]:
            g1 = v1 - best[s1]
            for s2, v2 in o2:
                if s1 != s2:
                    g2 = v2 - best[s2]
                    g = (g1 if g1 > 0 else 0) + (g2 if g2 > 0 else 0)
                else:
                    g = (v1 if v1 > v2 else v2) - best[s1]
                if g > gain:
                    gain = g
        return sum(best) + gain
    best = best[:]
    duals = _settle(best, duals)
    if not duals:
        return sum(best)
    m = 0
    for (a, _), (b, _) in duals:
        k = (1 << a) | (1 << b)
        if m & k:
            break
        m |= k
    else:  # no suit in common between two of the cards: each card on its own
        return sum(best) + sum(max(0, av - best[a], bv - best[b]) for (a, av), (b, bv) in duals)
    top = 0
    n = len(duals)
    for pick in range(1 << n):
        b = best[:]
        for j in range(n):
            s, v = duals[j][(pick >> j) & 1]
            if v > b[s]:
                b[s] = v
        t = sum(b)
        if t > top:
            top = t
    return top


def resolve(best: list, duals: list, escape_option: bool) -> tuple[int, bool]:
    """``(best total, Escape counted)`` from the best single-option card per suit ``best`` (not
    changed) and the options of the two-option cards; ``escape_option``: one of them offers Escape."""
    if not escape_option and best[ESCAPE] <= 0:
        if len(duals) == 1:
            (a, av), (b, bv) = duals[0]
            return sum(best) + max(0, av - best[a], bv - best[b]), False
        return solve_duals(best, duals), False
    return _with_duals(best, duals, escape_option)


def _solve_dp(opts_list: Sequence[Any]) -> int:
    """Any number of options per card: the dynamic programme of ``best_hand`` (totals only)."""
    best = {0: 0}
    for opts in opts_list:
        nxt = dict(best)
        for mask, val in best.items():
            for s, v in opts:
                if not mask & (1 << s):
                    nm = mask | (1 << s)
                    if val + v > nxt.get(nm, -1 << 62):
                        nxt[nm] = val + v
        best = nxt
    return max(best.values())


def hand_total(opts_list: Sequence[Any]) -> tuple[int, bool]:
    """``(best total, Escape counted)`` of a hand given each card's usable options for its role
    (from ``compile_options``); the same answer as ``best_hand``."""
    best = [0, 0, 0, 0, 0, 0, 0, 0]
    duals = None
    for opts in opts_list:
        if len(opts) == 1:
            s, v = opts[0]
            if v > best[s]:
                best[s] = v
        elif opts:
            if len(opts) != 2:
                return _total_dp(opts_list)
            if duals is None:
                duals = [opts]
            else:
                duals.append(opts)
    if duals is None:
        return sum(best), best[ESCAPE] > 0
    return _with_duals(best, duals)


def _total_dp(opts_list: Sequence[Any]) -> tuple[int, bool]:
    total = _solve_dp(opts_list)
    if not any(o[0] == ESCAPE for opts in opts_list for o in opts):
        return total, False
    return total, _solve_dp([tuple(o for o in c if o[0] != ESCAPE) for c in opts_list]) < total


def _with_duals(best: list, duals: list, escape_option: bool | None = None) -> tuple[int, bool]:
    """The total and Escape answer from the best single-option card per suit and the two-option cards
    (``escape_option``: whether a two-option card offers Escape, when the caller knows)."""
    total = solve_duals(best, duals)
    if escape_option is None:
        escape_option = any(o[0] == ESCAPE for d in duals for o in d)
    if best[ESCAPE] <= 0 and not escape_option:
        return total, False
    best = best[:]
    best[ESCAPE] = 0
    rest = []
    for d in duals:  # each card out of Escape: a card of two options with none of Escape stays as it is
        (s, v), (s2, v2) = d
        if s2 == ESCAPE:
            if s == ESCAPE:
                continue
        elif s != ESCAPE:
            rest.append(d)
            continue
        else:
            s, v = s2, v2
        if v > best[s]:
            best[s] = v
    return total, (solve_duals(best, rest) if rest else sum(best)) < total


@dataclass(frozen=True)
class RoleTable:
    """A deck compiled for one role: card ``i`` has ``opts[i]``; a card with one usable option has it
    also as ``suit[i]``, ``value[i]``; ``suit[i]`` is -1 with no usable option, -2 with several.
    ``mask[i]`` has bit ``s`` set for each suit ``s`` the card offers; ``escape[i]`` is true when
    one of its usable options is Escape; ``duo[i]`` flattens the options of a two-option card."""

    suit: tuple
    value: tuple
    opts: tuple
    mask: tuple = ()
    escape: tuple = ()
    duo: tuple = ()  # (suit, strength, suit, strength) of a card with exactly two options, else None

    @classmethod
    def build(cls, cards: Sequence[PlayCard], role: str) -> RoleTable:
        opts = tuple(compile_options(c)[role] for c in cards)
        suit = tuple(o[0][0] if len(o) == 1 else (-1 if not o else -2) for o in opts)
        value = tuple(o[0][1] if len(o) == 1 else 0 for o in opts)
        mask = tuple(sum({1 << s for s, _ in o}) for o in opts)
        escape = tuple(any(s == ESCAPE for s, _ in o) for o in opts)
        duo = tuple(o[0] + o[1] if len(o) == 2 else None for o in opts)
        return cls(suit, value, opts, mask, escape, duo)


def table_total(hand: Sequence[int], t: RoleTable) -> tuple[int, bool]:
    """``hand_total`` of the cards ``hand`` (indexes into a ``RoleTable``): the same answer, faster."""
    best = [0, 0, 0, 0, 0, 0, 0, 0]
    duals = None
    S, V = t.suit, t.value
    for c in hand:
        s = S[c]
        if s >= 0:
            v = V[c]
            if v > best[s]:
                best[s] = v
        elif s == -2:
            if duals is None:
                duals = [c]
            else:
                duals.append(c)
    if duals is None:
        return sum(best), best[ESCAPE] > 0
    O = t.opts
    opts = [O[c] for c in duals]
    for o in opts:
        if len(o) != 2:
            return _total_dp([O[x] for x in hand])
    E = t.escape
    return resolve(best, opts, any(E[c] for c in duals))


def hand_value(cards: Sequence[PlayCard], role: str) -> tuple[int, bool]:
    """``(best total, Escape counted)`` of ``cards`` for ``role``: ``best_hand`` without the details."""
    return hand_total([compile_options(c)[role] for c in cards])


@dataclass(frozen=True)
class GameState:
    samurai_casualties: int = 0
    imperial_casualties: int = 0
    attacker: str = "samurai"  # the samurai attack in the first turn (line 39)
    turn: int = 1


def apply_clash(state: GameState, result: Clash) -> GameState:
    return replace(
        state,
        samurai_casualties=state.samurai_casualties + result.casualties["samurai"],
        imperial_casualties=state.imperial_casualties + result.casualties["imperial"],
        attacker=result.next_attacker,
        turn=state.turn + 1,
    )


def is_game_over(samurai_casualties: int, end: int = END_CASUALTIES) -> bool:
    """The game ends when the samurai player has ``end`` (9) casualty markers (line 6)."""
    return samurai_casualties >= end


DEFAULT_VICTORY = (
    (None, 7, "Greater Imperial Victory"),
    (8, 8, "Historically Equivalent"),
    (9, None, "Greater Samurai Moral Victory"),
)


def victory_level(imperial_casualties: int, table: Sequence[tuple[Any, Any, str]] = DEFAULT_VICTORY) -> str:
    """The victory level from the imperial casualties at the end (lines 9-12)."""
    for lo, hi, result in table:
        if (lo is None or imperial_casualties >= lo) and (hi is None or imperial_casualties <= hi):
            return result
    raise ValueError(f"no victory level for {imperial_casualties} imperial casualties")


# -- catalog to core -------------------------------------------------------------


def unknown_suit_letter(rules: dict) -> str | None:
    """The suit letter an unknown printed suit plays as under ``bodyguard_suit`` (None: unusable)."""
    value = (rules or {}).get("bodyguard_suit", "none")
    return LETTER_OF.get(str(value).lower())


def play_card(card: Any, rules: dict | None = None) -> PlayCard:
    """A catalog card as the core sees it, the house rule for unknown suits applied."""
    mapped = unknown_suit_letter(rules or {})
    opts = []
    for o in card.options:
        if o.suit in SUIT_NAMES:
            opts.append((o.suit, o.strength))
        elif mapped is not None:
            opts.append((mapped, o.strength))
    return PlayCard(card.name, tuple(opts), card.printed, card.side)


def victory_table(catalog: Catalog) -> tuple:
    rows = getattr(catalog.model, "victory", None) or []
    return tuple((v.min, v.max, v.result) for v in rows) or DEFAULT_VICTORY


def constant(catalog: Catalog, name: str, default: int) -> int:
    c = getattr(catalog.model, "constants", None)
    return getattr(c, name).value if c is not None else default


def find_card(catalog: Catalog, name: str, side: str | None = None) -> Any:
    """The catalog card called ``name``; raises LookupError with a did-you-mean message."""
    card = catalog.find("cards", name)
    if card is None:
        names = [c.name for c in catalog.entries("cards") if side is None or c.side == side]

        hint = did_you_mean(name, names)
        raise LookupError(f"unknown {side + ' ' if side else ''}card '{name}'" + (f"; {hint}" if hint else ""))
    if side is not None and card.side != side:
        hint = did_you_mean(name, [c.name for c in catalog.entries("cards") if c.side == side])
        raise LookupError(
            f"'{card.name}' is a card of the {card.side} deck, not the {side} deck" + (f"; {hint}" if hint else "")
        )
    return card


def play_cards(catalog: Catalog, names: Sequence[str], side: str, rules: dict | None = None) -> list[PlayCard]:
    return [play_card(find_card(catalog, n, side), rules) for n in names]


def card_faces(catalog: Catalog, rules: dict | None = None, side: str | None = None) -> list[dict]:
    """Everything a printed card face shows, in catalog order."""
    out = []
    mapped = unknown_suit_letter(rules or {})
    for c in catalog.entries("cards"):
        if side is not None and c.side != side:
            continue
        opts = []
        for o in c.options:
            known = o.suit in SUIT_NAMES
            opts.append(
                {
                    "letter": o.suit,
                    "suit": SUIT_NAMES.get(o.suit),
                    "strength": o.strength,
                    "known": known,
                    "plays_as": o.suit if known else mapped,
                }
            )
        out.append(
            {
                "name": c.name,
                "side": c.side,
                "printed": c.printed,
                "options": opts,
                "unknown_suit": c.unknown_suit,
                "source": c.source,
            }
        )
    return out


# -- list documents ----------------------------------------------------------------


@dataclass
class DeckEntry:
    name: str
    count: int
    loc: tuple
    card: Any = None  # the catalog card (None when unknown or custom)
    custom: PlayCard | None = None  # a card written in the list: {printed: F5, count: 1}


@dataclass
class SatsumaList:
    side: str
    deck: str  # standard | variant
    entries: list[DeckEntry]
    agreed: dict = field(default_factory=dict)

    def total(self) -> int:
        return sum(e.count for e in self.entries)


_KEYS = ("side", "deck", "cards")
_CARD_KEYS = ("printed", "count")


def _read_custom(
    doc: Any, name: Any, value: dict[str, Any], loc: tuple[Any, ...], side: Any, diags: list[Any]
) -> DeckEntry | None:
    """A custom card of ``cards:`` (``{printed: F5, count: 1}``), or None when it is wrong (said
    in ``diags``)."""
    bad = False
    for k in value:
        if k not in _CARD_KEYS:
            diags.append(
                doc.positions.diag(
                    loc + (k,),
                    L_("unknown key '{k}' in custom card '{name}'", k=k, name=name),
                    hint=did_you_mean(str(k), _CARD_KEYS) or L_("keys: printed, count"),
                    prefer_key=True,
                )
            )
            bad = True
    count = value.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        diags.append(
            doc.diag(
                loc + ("count",),
                L_(
                    "custom card '{name}': count must be a whole number 1 or more, not {count!r}",
                    name=name,
                    count=count,
                ),
            )
        )
        bad = True
    printed = value.get("printed")
    if "printed" not in value:
        diags.append(doc.diag(loc, L_("custom card '{name}' needs 'printed:' such as 'F5 or M3'", name=name)))
        bad = True
    else:
        try:
            opts = parse_printed(str(printed))
        except ValueError as exc:
            diags.append(doc.diag(loc + ("printed",), L_("custom card '{name}': {exc}", name=name, exc=exc)))
            bad = True
    if not bad:
        pc = PlayCard(str(name), tuple((o.suit, o.strength) for o in opts), str(printed), side)
        return DeckEntry(str(name), count, loc, custom=pc)
    return None


def load_list(doc: Any, catalog: Catalog) -> tuple[SatsumaList, list[Finding]]:
    body = doc.body()
    diags = []
    for key in body:
        if key not in _KEYS:
            hint = did_you_mean(str(key), _KEYS) or "keys: " + ", ".join(_KEYS)
            diags.append(
                doc.positions.diag(
                    (key,), L_("unknown key '{key}' in a satsuma deck", key=key), hint=hint, prefer_key=True
                )
            )
    side = body.get("side")
    if "side" not in body:
        diags.append(doc.diag((), L_("missing required key 'side'"), hint=L_("side: samurai or side: imperial")))
    elif not isinstance(side, str) or side.strip().lower() not in SIDES:
        diags.append(
            doc.diag(
                ("side",),
                L_("side must be samurai or imperial, not {side!r}", side=side),
                hint=did_you_mean(str(side), SIDES) or None,
            )
        )
    else:
        side = side.strip().lower()
    has_deck, has_cards = "deck" in body, "cards" in body
    if has_deck and has_cards:
        diags.append(
            doc.positions.diag(("cards",), L_("give either 'deck: standard' or 'cards:', not both"), prefer_key=True)
        )
    elif not has_deck and not has_cards:
        diags.append(
            doc.diag(
                (),
                L_("missing 'deck: standard' or 'cards:'"),
                hint=L_("deck: standard plays the published deck of the side"),
            )
        )
    if has_deck and not (isinstance(body["deck"], str) and body["deck"].strip().lower() == "standard"):
        diags.append(
            doc.diag(
                ("deck",),
                L_("deck must be 'standard', not {deck!r}", deck=body["deck"]),
                hint=L_("write a variant deck under 'cards:' instead"),
            )
        )
    entries: list[DeckEntry] = []
    if has_cards:
        cards = body["cards"]
        if not isinstance(cards, dict):
            diags.append(
                doc.diag(
                    ("cards",),
                    L_("'cards' must be a mapping of card names to counts"),
                    hint=L_("e.g. cards: {Bushido: 1, Honor: 1}"),
                )
            )
            cards = {}
        for name, value in cards.items():
            loc = ("cards", name)
            if isinstance(value, bool) or not isinstance(value, (int, dict)):
                diags.append(
                    doc.diag(
                        loc,
                        L_("card '{name}': the count must be a whole number, not {value!r}", name=name, value=value),
                        hint=L_("or a custom card: {printed: F5, count: 1}"),
                    )
                )
                continue
            if isinstance(value, int):
                if value < 1:
                    diags.append(
                        doc.diag(
                            loc,
                            L_("card '{name}': count {value} must be 1 or more", name=name, value=value),
                            hint=L_("remove the line to leave the card out"),
                        )
                    )
                    continue
                entries.append(DeckEntry(str(name), value, loc))
                continue
            custom = _read_custom(doc, name, value, loc, side, diags)
            if custom is not None:
                entries.append(custom)
    if diags:
        raise ListError(diags)
    findings: list[Finding] = []
    if has_deck:
        for c in catalog.entries("cards"):
            if c.side == side:
                entries.append(DeckEntry(c.name, 1, ("deck",), card=c))
    else:
        for e in entries:
            if e.custom is not None:
                continue
            card = catalog.find("cards", e.name)
            if card is None:
                names = [c.name for c in catalog.entries("cards") if c.side == side]
                hint = did_you_mean(e.name, names)
                findings.append(
                    error(
                        "satsuma.unknown-name",
                        L_("unknown card '{name}'; {hint}", name=e.name, hint=hint)
                        if hint
                        else L_("unknown card '{name}'", name=e.name),
                        loc=e.loc,
                        source=f"{SEED}:62-155",
                    )
                )
            else:
                e.card = card
    lst = SatsumaList(
        side=side, deck="standard" if has_deck else "variant", entries=entries, agreed=dict(doc.house_rules)
    )
    return lst, findings


def _check_custom(e: Any, catalog: Catalog, letters: str) -> list[Finding]:
    """A custom card of the list (``printed:``): what it replaces, its suits and strengths."""
    out: list[Finding] = []
    known = catalog.find("cards", e.name)
    if known is not None:
        out.append(
            info(
                "satsuma.custom-card",
                L_(
                    "custom card '{name}' printed '{printed}' replaces the catalog card printed '{known}'",
                    name=e.name,
                    printed=e.custom.printed,
                    known=known.printed,
                ),
                loc=e.loc,
                source=known.source,
            )
        )
    for suit, strength in e.custom.options:
        if suit not in SUIT_NAMES:
            out.append(
                error(
                    "satsuma.unknown-suit",
                    L_(
                        "custom card '{name}' uses suit '{suit}', none of the eight suits ({letters})",
                        name=e.name,
                        suit=suit,
                        letters=letters,
                    ),
                    loc=e.loc + ("printed",),
                    source=f"{SEED}:20-28",
                    value=suit,
                )
            )
        if strength <= 0:
            out.append(
                error(
                    "satsuma.strength",
                    L_(
                        "custom card '{name}' has strength {strength}; strengths are positive",
                        name=e.name,
                        strength=strength,
                    ),
                    loc=e.loc + ("printed",),
                    source=f"{SEED}:19",
                    value=strength,
                    bound=1,
                )
            )
    return out


def check(lst: SatsumaList, catalog: Catalog, rules: HouseRules) -> list[Finding]:
    out: list[Finding] = []
    letters = ", ".join(f"{k} {v}" for k, v in SUIT_NAMES.items())
    mapped = unknown_suit_letter(rules)
    agreed = "bodyguard_suit" in lst.agreed
    for e in lst.entries:
        if e.card is not None and e.card.side != lst.side:
            hint = did_you_mean(e.name, [c.name for c in catalog.entries("cards") if c.side == lst.side])
            out.append(
                error(
                    "satsuma.wrong-side",
                    L_(
                        "'{name}' is a card of the {side} deck, not the {deck} deck; {hint}",
                        name=e.card.name,
                        side=e.card.side,
                        deck=lst.side,
                        hint=hint,
                    )
                    if hint
                    else L_(
                        "'{name}' is a card of the {side} deck, not the {deck} deck",
                        name=e.card.name,
                        side=e.card.side,
                        deck=lst.side,
                    ),
                    loc=e.loc,
                    source=e.card.source,
                    value=e.card.side,
                    bound=lst.side,
                )
            )
        if e.card is not None and e.card.unknown_suit:
            bad = [o.printed for o in e.card.options if o.suit not in SUIT_NAMES]
            if mapped is None:
                how = L_("it has no usable option (house rule bodyguard_suit=none)")
            else:
                how = L_(
                    "it plays as {suit} (house rule bodyguard_suit={rule})",
                    suit=SUIT_NAMES[mapped],
                    rule=rules.get("bodyguard_suit"),
                )
            sev = info if agreed else warning
            out.append(
                sev(
                    "satsuma.unknown-suit",
                    L_(
                        "'{name}' is printed '{printed}': suit '{suit}' is none of the eight suits ({letters}); {how}",
                        name=e.card.name,
                        printed=e.card.printed,
                        suit=bad[0][0],
                        letters=letters,
                        how=how,
                    ),
                    loc=e.loc,
                    source=e.card.source,
                    value=bad[0][0],
                    base="house rule bodyguard_suit",
                )
            )
        if e.custom is not None:
            out += _check_custom(e, catalog, letters)
    total = lst.total()
    hand = constant(catalog, "hand_size", HAND_SIZE)
    if total < hand:
        out.append(
            error(
                "satsuma.deck-size",
                L_("deck has {n} cards < the hand of {hand} cards each player draws", n=total, hand=hand),
                loc=("cards",) if lst.deck == "variant" else ("deck",),
                source=f"{SEED}:35",
                value=total,
                bound=hand,
                base="hand size",
            )
        )
    if lst.deck == "variant":
        published = sum(1 for c in catalog.entries("cards") if c.side == lst.side)
        if total != published:
            out.append(
                info(
                    "satsuma.variant-size",
                    L_(
                        "variant deck of {n} cards; the published {side} deck has {published}",
                        n=total,
                        side=lst.side,
                        published=published,
                    ),
                    loc=("cards",),
                    value=total,
                    base=f"published {lst.side} deck",
                )
            )
    return out


def deck_cards(lst: SatsumaList, rules: dict | None = None) -> list[PlayCard]:
    """The deck as core cards (each copy once), unknown names left out."""
    out = []
    for e in lst.entries:
        pc = e.custom if e.custom is not None else (play_card(e.card, rules) if e.card is not None else None)
        if pc is not None:
            out.extend([pc] * e.count)
    return out


def summary(lst: SatsumaList, catalog: Catalog, rules: HouseRules) -> dict:
    usable = 0  # counted per entry: a count as large as written is never expanded into a list
    for e in lst.entries:
        pc = e.custom if e.custom is not None else (play_card(e.card, rules) if e.card is not None else None)
        if pc is not None and pc.options:
            usable += e.count
    return {"cards": lst.total(), "side": lst.side, "deck": lst.deck, "usable_cards": usable}


def limits(lst: SatsumaList, catalog: Catalog, rules: HouseRules) -> list[dict]:
    """The deck holds at least one hand."""
    hand, source = hand_size(catalog)
    return [limit(L_("cards in the deck, at least one hand"), "min", lst.total(), hand, "cards", source)]


def hand_size(catalog: Catalog) -> tuple[int, str]:
    """Cards each player draws for a clash and where the rulebook says so."""
    return int(constant(catalog, "hand_size", HAND_SIZE)), f"{SEED}:35"


# -- finding codes ---------------------------------------------------------------------------------

FINDING_CODES = codes(
    "satsuma",
    {
        "unknown-name": ("error", N_("a card the catalog and the list's packs do not know"), f"{SEED}:62-155"),
        "wrong-side": ("error", N_("a card of the other side's deck"), f"{SEED}:62-155"),
        "custom-card": ("info", N_("a custom card printed over the catalog card of the same name")),
        "unknown-suit": ("error", N_("a custom card with a suit that is none of the eight"), f"{SEED}:20-28"),
        "strength": ("error", N_("a custom card's strength is not positive"), f"{SEED}:19"),
        "deck-size": ("error", N_("the deck holds fewer cards than the hand each player draws"), f"{SEED}:35"),
        "variant-size": ("info", N_("a variant deck of another size than the published deck")),
    },
)
