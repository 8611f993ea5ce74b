"""Reproducible sample opening hands (``daimyo hand``).

Hand ``i`` (1, 2, ...) of a seed ``S`` is drawn with ``random.Random(hand_seed(S, i))``,
whose Mersenne Twister stream from an integer seed has been fixed since Python 3.2,
using only its ``random()`` method: each card is taken by picking
``x = int(random() * left)`` (``left``: the cards still in the deck) and walking the
deck's lines in list order, each line standing for as many cards as its count, to
the line holding position ``x``; one copy of that line leaves the deck. Counts are
never expanded, and hand 3 of a seed is the same whether 3 or 30 hands are asked for.
``hand_seed`` is the first 8 bytes (big-endian) of BLAKE2b of ``"hand:S:i"``.
"""

from __future__ import annotations

import hashlib
from random import Random

from builder.i18n import _
from builder.kit.deck import DeckView
from builder.rulebooks import format_source
from builder.systems import get

MAX_HANDS = 1000


def hand_seed(seed: int, index: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"hand:{seed}:{index}".encode(), digest_size=8).digest(), "big")


def draw_hand(view: DeckView, seed: int, index: int, size: int) -> list[int]:
    """Row indexes of the cards of hand ``index`` (in the order drawn)."""
    rnd = Random(hand_seed(seed, index)).random
    left = [r.count for r in view.rows]
    total = sum(left)
    out = []
    for _draw in range(min(size, total)):
        x = int(rnd() * total)
        for i, n in enumerate(left):  # noqa: B007 - the index found is used after the loop
            if x < n:
                break
            x -= n
        left[i] -= 1
        total -= 1
        out.append(i)
    return out


def sample_hands(ld, seed: int, draws: int = 1, size: int | None = None) -> dict:
    """``draws`` opening hands of a loaded card deck (``builder.analytics.stats.load``)."""
    view = ld.view
    size = view.hand_size if size is None else size
    hands = []
    for i in range(1, draws + 1):
        rows = draw_hand(view, seed, i, size)
        cards = [view.rows[r].name for r in rows]
        hand = {"hand": i, "cards": cards}
        hand.update(judge(ld, [view.rows[r] for r in rows]))
        hands.append(hand)

    return {
        "file": ld.result.file,
        "system": ld.result.system,
        "name": ld.result.name,
        "seed": seed,
        "size": size,
        "hand_size_source": format_source(view.hand_source),
        "deck": view.total,
        "hands": hands,
    }


def judge(ld, rows) -> dict:
    """What a hand (``rows`` of the deck view) can do, as its game sees it."""
    return get(ld.result.system).analytics.hand_facts(ld, rows)


def format_hands(data: dict) -> list[str]:
    title = f' "{data["name"]}"' if data.get("name") else ""
    lines = [
        f"{data['file']}: {data['system']}{title}: "
        + _("{size}-card hands from {deck} cards, seed {seed}").format(
            size=data["size"], deck=data["deck"], seed=data["seed"]
        )
    ]
    for h in data["hands"]:
        counts: dict = {}
        for c in h["cards"]:
            counts[c] = counts.get(c, 0) + 1
        shown = ", ".join(f"{c} x{n}" if n > 1 else c for c, n in counts.items())
        lines.append(_("hand {n}: {cards}").format(n=h["hand"], cards=shown))
        lines += get(data["system"]).analytics.hand_lines(h)
    return lines
