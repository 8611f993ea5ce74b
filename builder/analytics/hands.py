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

from builder.analytics.deck import DeckView

MAX_HANDS = 1000


def hand_seed(seed: int, index: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"hand:{seed}:{index}".encode(), digest_size=8).digest(), "big")


def draw_hand(view: DeckView, seed: int, index: int, size: int) -> list[int]:
    """Row indexes of the cards of hand ``index`` (in the order drawn)."""
    rnd = Random(hand_seed(seed, index)).random
    left = [r.count for r in view.rows]
    total = sum(left)
    out = []
    for _ in range(min(size, total)):
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
    from builder.rulebooks import format_source

    return {"file": ld.result.file, "system": ld.result.system, "name": ld.result.name, "seed": seed,
            "size": size, "hand_size_source": format_source(view.hand_source), "deck": view.total, "hands": hands}


def judge(ld, rows) -> dict:
    """What a hand (``rows`` of the deck view) can do, as its game sees it."""
    from builder.systems import get

    return get(ld.result.system).hand_facts(ld, rows)


def satsuma_hand(ld, rows) -> dict:
    """The best hand as attacker and as defender."""
    from builder.games.satsuma import rules as core

    by_name = {}
    for e in ld.lst.entries:
        pc = e.custom if e.custom is not None else (core.play_card(e.card, ld.rules) if e.card else None)
        if pc is not None:
            by_name.setdefault(pc.name, pc)
    pcs = [by_name[r.name] for r in rows]
    out = {}
    for role in core.ROLES:
        h = core.best_hand(pcs, role)
        out[role] = {"strength": h.strength,
                     "used": [{"card": u.card, "suit": u.suit_name, "strength": u.strength} for u in h.used],
                     "escape": h.uses_suit("E")}
    return out


def herocard_hand(ld, rows) -> dict:
    """The best attack and the best block the hand can make."""
    from builder.games.herocard.rules import attack_value, block_value

    cards = {s.card.name: s.card for s in ld.lst.deck if s.card is not None}
    hand = [cards[r.name] for r in rows]
    out = {}
    for what, base, mod, fn in (("attack", "base-attack", "attack-mod", attack_value),
                                ("block", "base-block", "block-mod", block_value)):
        mods = [c for c in hand if c.kind == mod]
        best, seq = 0, []
        for b in (c for c in hand if c.kind == base):
            v = fn([b] + mods)
            if v > best or not seq:
                best, seq = v, [b.name] + [m.name for m in mods]
        out[f"best_{what}"] = {"value": best, "cards": seq}
    return out


def senshiai_hand(ld, rows) -> dict:
    """What the hand holds by type, and whether it can recruit."""
    types: dict = {}
    for r in rows:
        t = r.facts["type"][0]
        types[t] = types.get(t, 0) + 1
    recruit = any(r.facts["type"] == ("terrain",) and "Recruit" in r.facts["ability"] for r in rows)
    return {"types": types, "recruit_terrain": recruit,
            "capital": any(r.facts.get("capital") == ("yes",) for r in rows)}


def format_hands(data: dict) -> list[str]:
    from builder.systems import get

    title = f" \"{data['name']}\"" if data.get("name") else ""
    lines = [f"{data['file']}: {data['system']}{title}: {data['size']}-card hands from {data['deck']} cards, "
             f"seed {data['seed']}"]
    for h in data["hands"]:
        counts: dict = {}
        for c in h["cards"]:
            counts[c] = counts.get(c, 0) + 1
        shown = ", ".join(f"{c} x{n}" if n > 1 else c for c, n in counts.items())
        lines.append(f"hand {h['hand']}: {shown}")
        lines += get(data["system"]).hand_lines(h)
    return lines


def satsuma_hand_lines(h: dict) -> list[str]:
    lines = []
    for role in ("attacker", "defender"):
        r = h[role]
        used = ", ".join(f"{u['suit']} {u['strength']} {u['card']}" for u in r["used"]) or "nothing usable"
        lines.append(f"  as {role}: {r['strength']} ({used})")
    return lines


def herocard_hand_lines(h: dict) -> list[str]:
    lines = []
    for what in ("attack", "block"):
        b = h[f"best_{what}"]
        lines.append(f"  best {what}: {b['value']}" + (f" ({' + '.join(b['cards'])})" if b["cards"] else
                                                        f" (no Base {what.title()})"))
    return lines


def senshiai_hand_lines(h: dict) -> list[str]:
    t = ", ".join(f"{n} {k}{'s' if n != 1 else ''}" for k, n in h["types"].items())
    return [f"  {t}; Recruit terrain: {'yes' if h['recruit_terrain'] else 'no'}"
            + ("; the Capital" if h["capital"] else "")]
