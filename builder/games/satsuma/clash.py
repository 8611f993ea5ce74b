"""One Satsuma Rebellion clash from card names (``daimyo satsuma clash``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builder.catalog.loader import load_catalog
from builder.errors import UsageError, option
from builder.games.satsuma import rules as core
from builder.i18n import L_
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
    side = (attacker or "").strip().lower()
    if side not in core.SIDES:
        raise UsageError(
            L_("{option} must be samurai or imperial, not '{attacker}'", option=option("attacker"), attacker=attacker),
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
            raise UsageError(
                L_("--{name} names no cards", name=name), L_('separate card names with ";", e.g. "Honor; Bushido"')
            )
        try:
            hands[name] = core.play_cards(cat, names, name, rules)
        except LookupError as exc:
            raise UsageError(f"--{name}: {exc.args[0]}") from None
        size = int(core.constant(cat, "hand_size", core.HAND_SIZE))
        if len(names) > size:
            raise UsageError(
                L_(
                    "--{name} names {n} cards; a hand holds {size} (each player draws {size} cards, {SEED}:35)",
                    name=name,
                    n=len(names),
                    size=size,
                    SEED=core.SEED,
                )
            )
        seen: dict[str, int] = {}
        for card in (core.find_card(cat, n, name) for n in names):
            seen[card.name] = seen.get(card.name, 0) + 1
        twice = [n for n, k in seen.items() if k > 1]
        if twice:
            raise UsageError(
                L_(
                    "--{name} names {value} more than once; the published deck holds one copy of each card",
                    name=name,
                    value=", ".join(repr(n) for n in twice),
                )
            )
    per_loss = core.constant(cat, "casualties_per_loss", 1)
    choice = (escape or "auto").strip().lower()
    if choice not in ("auto", "use", "leave"):
        raise UsageError(
            L_("{option} must be auto, use or leave, not '{escape}'", option=option("escape"), escape=escape),
            did_you_mean(escape or "", ["auto", "use", "leave"]) or None,
        )
    if choice == "auto":
        return core.clash(side, hands["samurai"], hands["imperial"], per_loss)
    if side == "samurai":
        raise UsageError(
            L_(
                "{option} {choice}: the samurai attack, and the attacker may not use Escape cards ({SEED}:47)",
                option=option("escape"),
                choice=choice,
                SEED=core.SEED,
            )
        )
    want = choice == "use"
    without, with_e = core.escape_totals(hands["samurai"], "defender")
    if want and with_e is None:
        raise UsageError(L_("{option} use: the samurai hand has no Escape card to use", option=option("escape")))
    rule = rules.get("escape_choice", "needed")
    top = max(without, with_e if with_e is not None else without)
    if rule != "free" and (with_e if want else without) != top:
        raise UsageError(
            L_(
                "{option} {choice}: under the house rule escape_choice={rule} the samurai count their highest total, {top}",
                option=option("escape"),
                choice=choice,
                rule=rule,
                top=top,
            ),
            L_("agree the house rule escape_choice=free to allow it"),
        )
    if rule == "needed" and want != (top != without):
        raise UsageError(
            L_(
                "{option} {choice}: under the house rule escape_choice=needed the samurai do not choose",
                option=option("escape"),
                choice=choice,
            )
        )
    return core.clash(side, hands["samurai"], hands["imperial"], per_loss, samurai_escape=want)
