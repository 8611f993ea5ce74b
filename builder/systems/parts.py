"""The parts a game is made of, each a small ``typing.Protocol`` used by one layer.

A game (``builder.systems.base.GameSystem``) is one object composed of these parts. The parts
every game has are reached as its attributes (``gs.rules``); a part only some games have is
``None`` on a game without it: a game has a units editor (``gs.units``) or it has not, a seat
per player (``gs.players``), a document printed instead of cards (``gs.sheet``). Code outside
the game asks ``if gs.units is not None`` and calls the part; it never compares a game's id or a
word standing for one game.

========================  =====================================  ==========================
part                      used by                                every game?
========================  =====================================  ==========================
``Rules``                 ``builder.check``, analytics           yes (``gs.rules``)
``TextForm``              ``builder.share.text``                 yes (the game itself)
``Analytics``             ``builder.analytics``                  yes (the game itself)
``Units``                 the web builder, list comparison       ``gs.units`` or None
``Players``               the web builder, list comparison       ``gs.players`` or None
``SheetPrinter``          ``builder.render.api``                 ``gs.sheet`` or None (cards)
``AidBlocks``             ``builder.render.aids``                ``gs.aid_blocks()``
``Commands``              ``builder.commands.games`` (the CLI)   ``gs.commands`` or None
========================  =====================================  ==========================
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Rules(Protocol):
    """A game's rules, as ``daimyo check`` calls them (a game's ``rules`` module is one)."""

    def load_list(self, doc: Any, catalog: Any) -> tuple[Any, list]:
        """``(list object, findings)`` from a parsed list document; ``ListError`` for wrong shapes."""
        ...

    def check(self, lst: Any, catalog: Any, rules: dict) -> list:
        """Every finding of the list, as the rulebook's limits give them."""
        ...

    def summary(self, lst: Any, catalog: Any, rules: dict) -> dict:
        """The list's totals (cards, points, ...) as ``check`` reports them."""
        ...


class TextForm(Protocol):
    """How a list of the game is written as text for forums and chats (``builder.share.text``)."""

    text_labels: tuple[str, ...]
    text_headings: tuple[str, ...]
    text_infers: bool

    @property
    def text_example(self) -> str: ...

    def text_header(self, doc: dict, summary: dict) -> list[str]: ...

    def text_keys(self, doc: dict) -> list[str]: ...

    def text_entries(self, doc: dict, resolver: Any) -> list[str]: ...

    def read_facet(self, p: Any, seg: str) -> bool: ...

    def read_entry(self, p: Any, line: str, no: int, col: int) -> None: ...

    def infer_line(self, line: str) -> str: ...


class Analytics(Protocol):
    """What statistics, odds and sample hands ask of a game (``builder.analytics``)."""

    query_vocabulary: dict[str, tuple[str, ...]]

    def deck_view(self, lst: Any, catalog: Any, rules: dict) -> Any: ...

    def stats_facts(self, loaded: Any) -> dict: ...

    def stats_lines(self, stats: dict) -> list[str]: ...

    def stats_charts(self, stats: dict) -> list[tuple[str, str, list, object]]: ...

    def hand_facts(self, loaded: Any, rows: Any) -> dict: ...

    def hand_lines(self, hand: dict) -> list[str]: ...

    def query_value(self, field: str, raw: str) -> Any: ...


class Units(Protocol):
    """A list made of units of models (a Kensei army): each entry of the list's first key is a
    unit with ``models``, and may carry a standard and be led by another unit."""

    standard_word: str  # what a unit's standard is called ("" when units carry none)
    leader_word: str  # what leads a unit

    def unit_costs(self, doc: Any, catalog: Any, rules: dict) -> list:
        """``(loaded entry, cost, cost known)`` of each unit, in the order of the list."""
        ...


class Players(Protocol):
    """A list that is a setup by player (Senji): one seat per player, each with parts."""

    seat_words: dict[str, str]  # the words for a seat and its parts in the builder

    def seats(self, data: dict) -> list[dict]:
        """Each player's seat as the builder shows it (``index``, ``name``, parts)."""
        ...

    def set_part(self, data: Any, catalog: Any, where: tuple, field: str, value: Any) -> list[str]:
        """Change ``field`` of the part at ``where`` (``("players", 0, "provinces", 2)``)."""
        ...


class SheetPrinter(Protocol):
    """A document a game prints instead of cards (a roster, a setup sheet)."""

    kind: str  # a short word for it ("roster", "setup"), which the web's print page shows
    what: str  # what it is called in messages ("roster", "setup sheet")
    line_section: str  # the catalog section whose entries it lists one a line ("troops", "provinces")

    def render(self, doc: Any, catalog: Any, lst: Any, result: Any, out_path: Path, *, paper: tuple,
               force: bool, share_code: str | None, sources: bool, unit_cards: bool = False,
               **options: Any) -> Path:
        """Write the document of the checked list to ``out_path``; returns the path."""
        ...

    def preview_line(self, pack_path: Path, name: str) -> dict | None:
        """The line this document gives entry ``name`` of the pack at ``pack_path`` (the pack
        editor shows it as typed): ``{"header", "cells", "notes"}``, or None when the entry is
        not one the document lists a line each."""
        ...


class UnitCards(Protocol):
    """Cards a unit list prints beside its sheet (Kensei's unit cards), also as card images."""

    sizes: tuple[str, ...]  # the card sizes they print at (sleeve sizes)

    def data(self, lst: Any, catalog: Any) -> list[dict]:
        """One dict per card of the loaded list (its ``name`` first)."""
        ...

    def draw(self, c: Any, d: dict, w: float, h: float, g: float, warnings: list[str], marks: bool = True) -> None:
        """Draw card ``d`` on canvas ``c`` in a ``w`` x ``h`` box at the origin (``g``: the gap)."""
        ...


class Commands(Protocol):
    """Commands a game adds to the command line, in a group named by its id (``daimyo satsuma clash``)."""

    help: str  # the group's help line

    def register(self, group: Any, cli: Any) -> None:
        """Add the commands to ``group`` (a typer app). ``cli`` gives the command line's helpers:
        ``parse_rule_options(items)`` (``--rule ID=VALUE``), ``Progress(total, label, enabled)``,
        ``error_lines(exc)`` (a ``DaimyoError`` as the command line prints it) and ``lists`` (the
        library's ``load_list``, ``check_doc`` and ``resolve_house_rules``)."""
        ...


AidBlocks = dict[str, Callable[[dict, Any], list]]
"""A game's generated player-aid blocks, by the name ``generated:`` gives in its aid template."""
