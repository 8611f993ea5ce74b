"""One Satsuma Rebellion clash from card names (``daimyo satsuma clash``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builder.errors import UsageError, option
from builder.names import did_you_mean

if TYPE_CHECKING:
    from collections.abc import Sequence

    from builder.games.satsuma.rules import Clash

GAME = "satsuma"  # the game whose clashes these are


def parse_hand(text: str) -> list[str]:
    """``"Honor; Bushido ;; Raiders"`` -> ["Honor", "Bushido", "Raiders"]."""
    return [part.strip() for part in (text or "").split(";") if part.strip()]


def satsuma_clash(
    attacker: str,
    samurai: str,
    imperial: str,
    rules_given: dict | None = None,
    packs: Sequence[str] = (),
    escape: str = "auto",
) -> Clash:
    """Resolve a clash from card names; raises UsageError for bad names. ``escape``: ``auto`` (each
    side's best hand), ``use`` or ``leave`` (the samurai defender's best hand with or without an
    Escape card, as the house rule ``escape_choice`` allows)."""
    from builder.catalog.loader import load_catalog
    from builder.games.satsuma import rules as core

    side = (attacker or "").strip().lower()
    if side not in core.SIDES:
        raise UsageError(
            f"{option('attacker')} must be samurai or imperial, not '{attacker}'",
            did_you_mean(attacker or "", core.SIDES) or None,
        )
    cat = load_catalog(GAME, list(packs))
    try:
        rules = cat.resolve_rules(rules_given or {})
    except (KeyError, ValueError) as exc:
        raise UsageError(exc.args[0]) from None
    hands = {}
    for name, text in (("samurai", samurai), ("imperial", imperial)):
        names = parse_hand(text)
        if not names:
            raise UsageError(f"--{name} names no cards", 'separate card names with ";", e.g. "Honor; Bushido"')
        try:
            hands[name] = core.play_cards(cat, names, name, rules)
        except LookupError as exc:
            raise UsageError(f"--{name}: {exc.args[0]}") from None
        size = int(core.constant(cat, "hand_size", core.HAND_SIZE))
        if len(names) > size:
            raise UsageError(
                f"--{name} names {len(names)} cards; a hand holds {size} "
                f"(each player draws {size} cards, {core.SEED}:35)"
            )
        seen: dict[str, int] = {}
        for card in (core.find_card(cat, n, name) for n in names):
            seen[card.name] = seen.get(card.name, 0) + 1
        twice = [n for n, k in seen.items() if k > 1]
        if twice:
            raise UsageError(
                f"--{name} names {', '.join(repr(n) for n in twice)} more than once; "
                "the published deck holds one copy of each card"
            )
    per_loss = core.constant(cat, "casualties_per_loss", 1)
    choice = (escape or "auto").strip().lower()
    if choice not in ("auto", "use", "leave"):
        raise UsageError(
            f"{option('escape')} must be auto, use or leave, not '{escape}'",
            did_you_mean(escape or "", ["auto", "use", "leave"]) or None,
        )
    if choice == "auto":
        return core.clash(side, hands["samurai"], hands["imperial"], per_loss)
    if side == "samurai":
        raise UsageError(
            f"{option('escape')} {choice}: the samurai attack, and the attacker may not use Escape cards "
            f"({core.SEED}:47)"
        )
    want = choice == "use"
    without, with_e = core.escape_totals(hands["samurai"], "defender")
    if want and with_e is None:
        raise UsageError(f"{option('escape')} use: the samurai hand has no Escape card to use")
    rule = rules.get("escape_choice", "needed")
    top = max(without, with_e if with_e is not None else without)
    if rule != "free" and (with_e if want else without) != top:
        raise UsageError(
            f"{option('escape')} {choice}: under the house rule escape_choice={rule} the samurai count "
            f"their highest total, {top}",
            "agree the house rule escape_choice=free to allow it",
        )
    if rule == "needed" and want != (top != without):
        raise UsageError(
            f"{option('escape')} {choice}: under the house rule escape_choice=needed the samurai do not choose"
        )
    return core.clash(side, hands["samurai"], hands["imperial"], per_loss, samurai_escape=want)
