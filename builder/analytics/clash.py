"""One Satsuma Rebellion clash from card names (``daimyo satsuma clash``)."""

from __future__ import annotations

from builder.errors import option

GAME = "satsuma"  # the game whose clashes these are


def parse_hand(text: str) -> list[str]:
    """``"Honor; Bushido ;; Raiders"`` -> ["Honor", "Bushido", "Raiders"]."""
    return [part.strip() for part in (text or "").split(";") if part.strip()]


def satsuma_clash(attacker: str, samurai: str, imperial: str, rules_given: dict | None = None,
                  packs=()):
    """Resolve a clash from card names; raises UsageError for bad names."""
    from builder.catalog.loader import load_catalog
    from builder.errors import UsageError
    from builder.names import did_you_mean
    from builder.rules import satsuma as core

    side = (attacker or "").strip().lower()
    if side not in core.SIDES:
        raise UsageError(f"{option('attacker')} must be samurai or imperial, not '{attacker}'",
                         did_you_mean(attacker or "", core.SIDES) or None)
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
            raise UsageError(f"--{name} names {len(names)} cards; a hand holds {size} "
                             f"(each player draws {size} cards, {core.SEED}:35)")
        seen: dict[str, int] = {}
        for card in (core.find_card(cat, n, name) for n in names):
            seen[card.name] = seen.get(card.name, 0) + 1
        twice = [n for n, k in seen.items() if k > 1]
        if twice:
            raise UsageError(f"--{name} names {', '.join(repr(n) for n in twice)} more than once; "
                             "the published deck holds one copy of each card")
    return core.clash(side, hands["samurai"], hands["imperial"],
                      core.constant(cat, "casualties_per_loss", 1))
