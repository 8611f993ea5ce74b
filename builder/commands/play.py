"""CLI commands: play (rules helpers at the table).

``daimyo satsuma clash`` resolves one Satsuma Rebellion hand.
"""

from __future__ import annotations

import typer

from builder.errors import safe_terminal

SEED = "003_d64fd863b3930085.txt"
HAND_SIZE = 7  # each player draws 7 cards (003_d64fd863b3930085.txt:35)


def parse_hand(text: str) -> list[str]:
    """``"Honor; Bushido ;; Raiders"`` -> ["Honor", "Bushido", "Raiders"]."""
    return [part.strip() for part in (text or "").split(";") if part.strip()]


def parse_rule_options(items: list[str]) -> dict:
    """``["bodyguard_suit=defense"]`` -> {"bodyguard_suit": "defense"} (numbers/booleans as YAML reads them)."""
    from builder.errors import UsageError

    out = {}
    for item in items:
        if "=" not in item:
            raise UsageError(f"house rule '{item}' is not ID=VALUE", "e.g. --rule bodyguard_suit=defense")
        key, value = item.split("=", 1)
        from builder.yamlio import parse_yaml

        try:
            val, _ = parse_yaml(value.strip() or "''")
        except Exception:
            val = value.strip()
        out[key.strip()] = val
    return out


def satsuma_clash(attacker: str, samurai: str, imperial: str, rules_given: dict | None = None,
                  packs=()):
    """Resolve a clash from card names; raises UsageError for bad names."""
    from builder.catalog.loader import load_catalog
    from builder.errors import UsageError
    from builder.names import did_you_mean
    from builder.rules import satsuma as core

    side = (attacker or "").strip().lower()
    if side not in core.SIDES:
        raise UsageError(f"--attacker must be samurai or imperial, not '{attacker}'",
                         did_you_mean(attacker or "", core.SIDES) or None)
    cat = load_catalog("satsuma", list(packs))
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
        size = int(core.constant(cat, "hand_size", HAND_SIZE))
        if len(names) > size:
            raise UsageError(f"--{name} names {len(names)} cards; a hand holds {size} "
                             f"(each player draws {size} cards, {SEED}:35)")
        seen: dict[str, int] = {}
        for card in (core.find_card(cat, n, name) for n in names):
            seen[card.name] = seen.get(card.name, 0) + 1
        twice = [n for n, k in seen.items() if k > 1]
        if twice:
            raise UsageError(f"--{name} names {', '.join(repr(n) for n in twice)} more than once; "
                             "the published deck holds one copy of each card")
    return core.clash(side, hands["samurai"], hands["imperial"],
                      core.constant(cat, "casualties_per_loss", 1))


def format_clash(res) -> list[str]:
    from builder.rules.satsuma import role_of

    lines = []
    for side in ("samurai", "imperial"):
        hand = getattr(res, side)
        lines.append(f"{side} ({role_of(side, res.attacker)}): strength {hand.strength}")
        for u in hand.used:
            lines.append(f"  {u.suit_name:<9} {u.strength:>2}  {u.card}")
        if hand.unused:
            lines.append("  not used: " + ", ".join(hand.unused))
    lines.append(f"winner: {res.winner}")
    lines.append(f"casualties: samurai {res.casualties['samurai']}, imperial {res.casualties['imperial']}")
    nxt = f"next attacker: {res.next_attacker}"
    if res.escape_kept_defender:
        nxt += " (the samurai won with an Escape card and stay defender)"
    elif res.winner == "tie":
        nxt += " (a tie keeps the roles)"
    lines.append(nxt)
    return lines


def register(app) -> None:
    """Add this module's commands to the typer app."""
    satsuma_app = typer.Typer(help="Satsuma Rebellion helpers.", no_args_is_help=True, rich_markup_mode=None)
    app.add_typer(satsuma_app, name="satsuma")

    @satsuma_app.command("clash")
    def clash_cmd(
        attacker: str = typer.Option(..., "--attacker", "-a", help="who attacks: samurai or imperial"),
        samurai: str = typer.Option(..., "--samurai", "-s", help='the samurai hand: "CARD; CARD; ..."'),
        imperial: str = typer.Option(..., "--imperial", "-i", help='the imperial hand: "CARD; CARD; ..."'),
        format: str = typer.Option("text", "--format", "-f", help="text or json"),
        rule: list[str] = typer.Option([], "--rule", "-r", help="house rule ID=VALUE, e.g. bodyguard_suit=defense"),
        pack: list[str] = typer.Option([], "--pack", "-p", help="pack file(s) adding or changing cards"),
    ):
        """Resolve one hand: each side's best total (one card per suit), winner, casualties, next attacker."""
        import json
        import sys

        from builder.errors import EXIT_INPUT, DaimyoError, UsageError

        try:
            if format not in ("text", "json"):
                raise UsageError(f"unknown format '{format}'", "use text or json")
            res = satsuma_clash(attacker, samurai, imperial, parse_rule_options(rule), pack)
        except DaimyoError as exc:
            for line in exc.lines():
                sys.stderr.write(line + "\n")
            raise typer.Exit(exc.exit_code if exc.exit_code else EXIT_INPUT)
        if format == "json":
            sys.stdout.write(json.dumps(res.to_json(), indent=2, ensure_ascii=False) + "\n")
        else:
            for line in format_clash(res):
                sys.stdout.write(safe_terminal(line) + "\n")
