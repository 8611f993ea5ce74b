"""Satsuma Rebellion's own commands: ``daimyo satsuma clash`` resolves one hand and
``daimyo satsuma simulate`` plays whole games.

The command line asks the game for them (``gs.commands``, a ``builder.systems.parts.Commands``)
and adds them under the game's id; typer is imported only when they are added.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any

from builder.errors import EXIT_INPUT, DaimyoError, UsageError, safe_terminal, unknown_format
from builder.games.satsuma.rules import role_of
from builder.i18n import N_, SOURCE_LANGUAGE, use
from builder.safeout import json_text

if TYPE_CHECKING:
    from builder.games.satsuma.rules import Clash


def format_clash(res: Clash) -> list[str]:
    """The lines ``satsuma clash`` prints for a resolved hand."""
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


class SatsumaCommands:
    """``clash`` and ``simulate``, under ``daimyo satsuma``."""

    help = N_("Satsuma Rebellion helpers.")

    def register(self, group: Any, cli: Any) -> None:
        """Add the commands to ``group`` (a typer app); ``cli`` gives the command line's helpers
        (``parse_rule_options``, ``Progress``, ``error_lines``, ``lists``)."""
        import typer  # noqa: PLC0415 - typer only when the command line builds the group; the game registers its commands without it

        @group.command("clash")
        def clash_cmd(
            attacker: str = typer.Option(..., "--attacker", "-a", help="who attacks: samurai or imperial"),
            samurai: str = typer.Option(..., "--samurai", "-s", help='the samurai hand: "CARD; CARD; ..."'),
            imperial: str = typer.Option(..., "--imperial", "-i", help='the imperial hand: "CARD; CARD; ..."'),
            format: str = typer.Option("text", "--format", "-f", help="text or json"),
            rule: list[str] = typer.Option([], "--rule", "-r", help="house rule ID=VALUE, e.g. bodyguard_suit=defense"),
            pack: list[str] = typer.Option([], "--pack", "-p", help="pack file(s) adding or changing cards"),
            escape: str = typer.Option(
                "auto",
                "--escape",
                help="the samurai defender's hand: auto (his best), use (his best with an "
                "Escape card) or leave (his best without one); see house rule "
                "escape_choice",
            ),
        ) -> None:
            """Resolve one hand: each side's best total (one card per suit), winner, casualties, next attacker."""
            try:
                if format not in ("text", "json"):
                    raise UsageError(unknown_format(format, ("text", "json")))
                from builder.games.satsuma.clash import satsuma_clash  # noqa: PLC0415 - the simulator only when `daimyo satsuma` runs it; `daimyo check` loads none

                res = satsuma_clash(attacker, samurai, imperial, cli.parse_rule_options(rule), pack, escape)
            except DaimyoError as exc:
                for line in cli.error_lines(exc):
                    sys.stderr.write(line + "\n")
                raise typer.Exit(exc.exit_code if exc.exit_code else EXIT_INPUT) from None
            if format == "json":
                with use(SOURCE_LANGUAGE):  # machine output: the same in every language
                    sys.stdout.write(json_text(res.to_json(), indent=2) + "\n")
            else:
                for line in format_clash(res):
                    sys.stdout.write(safe_terminal(line) + "\n")

        @group.command("simulate")
        def simulate_cmd(
            games: int = typer.Option(1000, "--games", "-n", help="how many games to play"),
            seed: int = typer.Option(1, "--seed", help="the master seed: the same seed plays the same games"),
            samurai: str | None = typer.Option(
                None, "--samurai", "-s", metavar="LIST", help="the samurai deck list (default: the published deck)"
            ),
            imperial: str | None = typer.Option(
                None, "--imperial", "-i", metavar="LIST", help="the imperial deck list (default: the published deck)"
            ),
            jobs: int = typer.Option(1, "--jobs", "-j", help="processes to use (0: one per core)"),
            policy: str = typer.Option(
                "best",
                "--policy",
                help="play policy: best, max, simple or none; one for both sides or samurai=P,imperial=P",
            ),
            format: str = typer.Option("text", "--format", "-f", help="text or json"),
            rule: list[str] = typer.Option([], "--rule", "-r", help="house rule ID=VALUE, e.g. bodyguard_suit=defense"),
            pack: list[str] = typer.Option([], "--pack", "-p", help="pack file(s) adding or changing cards"),
            reference: bool = typer.Option(
                False,
                "--reference",
                help="decide every clash with the full solver of 'satsuma clash' (slower; the same games)",
            ),
            readings: bool = typer.Option(
                False,
                "--readings",
                help="print how the simulation reads the rulebook where it is silent, and the policies, then exit",
            ),
        ) -> None:
            """Play whole games under the rulebook and report victory levels and imperial casualties with
            95% confidence intervals. The same seed gives the same result whatever the number of jobs."""
            from builder.games.satsuma import simulate as simu  # noqa: PLC0415 - the simulator only when `daimyo satsuma` runs it; `daimyo check` loads none

            if readings:
                if format == "json":
                    with use(SOURCE_LANGUAGE):
                        sys.stdout.write(json_text(simu.readings_json(), indent=2) + "\n")
                else:
                    for line in simu.format_readings():
                        sys.stdout.write(safe_terminal(line) + "\n")
                return
            if format not in ("text", "json"):
                raise UsageError(unknown_format(format, ("text", "json")))
            game, info = simu.prepare(
                games, jobs, policy, samurai, imperial, cli.parse_rule_options(rule), pack, reference, lists=cli.lists
            )
            bar = cli.Progress(games, "simulating", enabled=format == "text")
            try:
                tally = simu.run(game, games, seed, jobs or simu.default_jobs(), progress=bar)
            finally:
                bar.close()
            with use(SOURCE_LANGUAGE) if format == "json" else nullcontext():
                rep = simu.report(tally, game, info, seed)
            if format == "json":
                sys.stdout.write(json_text(rep, indent=2) + "\n")
            else:
                for line in simu.format_report(rep):
                    sys.stdout.write(safe_terminal(line) + "\n")


COMMANDS = SatsumaCommands()
