"""CLI commands: play (rules helpers at the table).

``daimyo satsuma clash`` resolves one Satsuma Rebellion hand.
"""

from __future__ import annotations

import typer

from builder.errors import safe_terminal


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


def format_clash(res) -> list[str]:
    from builder.games.satsuma.rules import role_of

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
        escape: str = typer.Option("auto", "--escape",
                                   help="the samurai defender's hand: auto (his best), use (his best with an "
                                        "Escape card) or leave (his best without one); see house rule "
                                        "escape_choice"),
    ):
        """Resolve one hand: each side's best total (one card per suit), winner, casualties, next attacker."""
        import json
        import sys

        from builder.cli import error_lines
        from builder.errors import EXIT_INPUT, DaimyoError, UsageError

        try:
            if format not in ("text", "json"):
                raise UsageError(f"unknown format '{format}'", "use text or json")
            from builder.games.satsuma.clash import satsuma_clash

            res = satsuma_clash(attacker, samurai, imperial, parse_rule_options(rule), pack, escape)
        except DaimyoError as exc:
            for line in error_lines(exc):
                sys.stderr.write(line + "\n")
            raise typer.Exit(exc.exit_code if exc.exit_code else EXIT_INPUT) from None
        if format == "json":
            sys.stdout.write(json.dumps(res.to_json(), indent=2, ensure_ascii=False) + "\n")
        else:
            for line in format_clash(res):
                sys.stdout.write(safe_terminal(line) + "\n")
