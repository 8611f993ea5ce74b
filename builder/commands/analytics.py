"""CLI commands: ``stats`` and ``hand``."""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import Optional

import typer

from builder.analytics.hands import MAX_HANDS, format_hands, sample_hands
from builder.analytics.stats import format_stats, list_stats, load
from builder.errors import UsageError, safe_terminal, unknown_format
from builder.i18n import SOURCE_LANGUAGE, _, use
from builder.kit.layout import paper_size
from builder.render.charts import render_stats
from builder.safeout import json_text


class Progress:
    """A one-line progress bar on standard error, drawn only when it is a terminal."""

    def __init__(self, total: int, label: str, enabled: bool = True, stream=None):
        self.stream = stream or sys.stderr
        self.total = max(1, total)
        self.label = label
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(enabled and isatty is not None and isatty())
        self.shown = -1

    def __call__(self, done: int) -> None:
        if not self.enabled:
            return
        pct = int(100 * done / self.total)
        if pct == self.shown:
            return
        self.shown = pct
        filled = pct * 30 // 100
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {pct:3d}% {done:,}/{self.total:,}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.shown >= 0:
            self.stream.write("\r" + " " * (len(self.label) + 60) + "\r")
            self.stream.flush()


cli = typer.Typer()  # this module's commands and groups; register() puts them on the app


@cli.command("stats")
def stats_cmd(
    list_file: str = typer.Argument(..., metavar="LIST", help="The list document."),
    odds: list[str] = typer.Option(
        [],
        "--odds",
        help='exact draw odds, e.g. "suit=Force >= 2 in 7" (repeat for several; see docs/analytics.md)',
    ),
    format: str = typer.Option("text", "--format", "-f", help="text or json"),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="also write charts to this PDF"),
    paper: str = typer.Option("a4", "--paper", help="a4 or letter (or WxH in mm) for --output"),
    force: bool = typer.Option(False, "--force", help="replace an existing output file"),
    pack: list[str] = typer.Option([], "--pack", "-p", help="extra pack file(s)"),
):
    """Statistics of a list: counts by type, cost, path, suit, attribute and card kind (card games),
    points by troop class and type against every limit with the room left (Kensei), exact draw odds."""

    if format not in ("text", "json"):
        raise UsageError(unknown_format(format, ("text", "json")))
    if output is not None:
        paper_size(paper)
    with use(SOURCE_LANGUAGE) if format == "json" else nullcontext():  # JSON: the same in every language
        st = list_stats(list_file, odds, pack)
    written = None
    if output is not None:
        written = render_stats(st, output, paper=paper, force=force)
    if format == "json":
        sys.stdout.write(json_text(st, indent=2, default=str) + "\n")
    else:
        for line in format_stats(st):
            sys.stdout.write(safe_terminal(line) + "\n")
    if written is not None:
        sys.stderr.write(_("wrote {file}").format(file=written) + "\n")


@cli.command("hand")
def hand_cmd(
    list_file: str = typer.Argument(..., metavar="LIST", help="The deck list (Senshiai, HeroCard, Satsuma)."),
    seed: int = typer.Option(..., "--seed", help="the seed: the same seed gives the same hands everywhere"),
    draws: int = typer.Option(1, "--draws", "-n", help="how many sample hands"),
    size: Optional[int] = typer.Option(
        None, "--size", help="cards per hand (default: the opening hand, Senshiai 6, HeroCard 7, Satsuma 7)"
    ),
    format: str = typer.Option("text", "--format", "-f", help="text or json"),
    pack: list[str] = typer.Option([], "--pack", "-p", help="extra pack file(s)"),
):
    """Reproducible sample opening hands; Satsuma hands show the best total in each role, HeroCard
    hands their best attack and block."""

    if format not in ("text", "json"):
        raise UsageError(unknown_format(format, ("text", "json")))
    if draws < 1 or draws > MAX_HANDS:
        raise UsageError(_("--draws {n}: give 1 to {most} hands").format(n=draws, most=f"{MAX_HANDS:,}"))
    if size is not None and (size < 1 or size > 1000):
        raise UsageError(_("--size {n}: give 1 to 1,000 cards").format(n=size))
    ld = load(list_file, pack)
    if ld.view is None:
        raise UsageError(
            _("{file}: a {game} list has no cards to draw").format(file=ld.result.file, game=ld.result.system),
            _("hands are for Senshiai, HeroCard and Satsuma decks"),
        )
    if ld.view.total == 0:
        raise UsageError(_("{file}: the deck has no known card to draw").format(file=ld.result.file))
    with use(SOURCE_LANGUAGE) if format == "json" else nullcontext():
        data = sample_hands(ld, seed, draws, size)
    if format == "json":
        sys.stdout.write(json_text(data, indent=2) + "\n")
    else:
        for line in format_hands(data):
            sys.stdout.write(safe_terminal(line) + "\n")


def register(app) -> None:
    """Add this module's commands and command groups to the typer app."""
    app.registered_commands += cli.registered_commands
    app.registered_groups += cli.registered_groups
