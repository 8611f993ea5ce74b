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
``TextForm``              ``builder.share.text``                 yes (``gs.text``)
``Analytics``             ``builder.analytics``                  yes (``gs.analytics``)
``Document``              share schema, editor, ``builder.api``  yes (``gs.document``)
``Packs``                 ``builder.packs``                      yes (``gs.packs``)
``Printing``              ``builder.render``                     yes (``gs.printing``)
``ListView``              the web builder, list comparison       yes (``gs.view``)
``CatalogView``           the web builder, ``daimyo options``    yes (``gs.browse``)
``Questions``             ``daimyo options``, ``daimyo why``     yes (``gs.questions``)
``NewList``               ``daimyo new``, editor, web, events    yes (``gs.new_list``)
``Settings``              the ``Set`` operation, the web         yes (``gs.settings``)
``Editing``               ``builder.lists``, the web, the CLI    yes (``gs.editing``)
``Catalog``               ``builder.catalog``, api, the CLI      yes (``gs.catalog``)
``Units``                 the web builder, list comparison       ``gs.units`` or None
``Players``               the web builder, list comparison       ``gs.players`` or None
``SheetPrinter``          ``builder.render.api``                 ``gs.sheet`` or None (cards)
``UnitCards``             ``builder.render.images``              ``gs.unit_cards`` or None
``Commands``              ``builder.commands.games`` (the CLI)   ``gs.commands`` or None
========================  =====================================  ==========================

The parts every game has are declared on the game's class with ``part`` (``text =
part(KenseiText)``): the part is made from the game when first asked for. Their defaults are in
``builder/systems/<part>.py`` (``TextPart``, ``AnalyticsPart``, ``DocumentPart``, ``PacksPart``,
``PrintingPart``, ``ViewPart``, ``BrowsePart``, ``QuestionsPart``, ``NewListPart``, ``SettingsPart``,
``EditingPart`` and ``CatalogPart``); a game's own are in its package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, overload, runtime_checkable

from builder.systems.newlist import NewOption


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
    """How a list of the game is written as text for forums and chats (``builder.share.text``):
    ``gs.text``."""

    @property
    def labels(self) -> tuple[str, ...]:
        """More names a text header may call the game by."""
        ...

    @property
    def headings(self) -> tuple[str, ...]:
        """Keys whose empty line ('Deck:') heads the entries below it."""
        ...

    @property
    def infers(self) -> bool:
        """Whether a card list without a header may be of this game (its catalog decides)."""
        ...

    @property
    def example(self) -> str:
        """A header to write, for the hint under a header that cannot be read."""
        ...

    @property
    def collection(self) -> str:
        """The list key holding the main entries (written ``KEY: none`` when present but empty)."""
        ...

    def header(self, doc: dict, summary: dict) -> list[str]:
        """The header segments after the game's name (``40 cards``, ``clan buke``...)."""
        ...

    def keys(self, doc: dict) -> list[str]:
        """The game's own key lines (``Commander: taisho``), after the common ones."""
        ...

    def entries(self, doc: dict, resolver: Any) -> list[str]:
        """One line per entry (``3 Overhand Thrust``)."""
        ...

    def read_facet(self, p: Any, seg: str) -> bool:
        """Read a header segment into ``p.doc``; False: not a segment of this game."""
        ...

    def read_entry(self, p: Any, line: str, no: int, col: int) -> None:
        """Read an entry line into ``p.doc`` (errors and warnings go to ``p``)."""
        ...

    def infer_line(self, line: str) -> str:
        """What names the entry in a line, when guessing the game of a list without a header."""
        ...


class Analytics(Protocol):
    """What statistics, odds and sample hands ask of a game (``builder.analytics``): ``gs.analytics``."""

    @property
    def query_vocabulary(self) -> dict[str, tuple[str, ...]]:
        """Odds query field -> the values the catalog may hold."""
        ...

    def deck_view(self, lst: Any, catalog: Any, rules: dict) -> Any: ...

    def stats_facts(self, loaded: Any) -> dict: ...

    def stats_lines(self, stats: dict) -> list[str]: ...

    def stats_charts(self, stats: dict) -> list[tuple[str, str, list, object]]: ...

    def hand_facts(self, loaded: Any, rows: Any) -> dict: ...

    def hand_lines(self, hand: dict) -> list[str]: ...

    def query_value(self, field: str, raw: str) -> Any: ...

    def limits(self, lst: Any, catalog: Any, rules: dict) -> list[dict]: ...


class Document(Protocol):
    """A game's list document (``gs.document``): its own keys in order and its pydantic model;
    used by the share schema, the editor's key order and ``builder.api``'s validation."""

    @property
    def declared(self) -> tuple:
        """The fields of a game the built-in documents do not hold (a game of another package)."""
        ...

    @property
    def fields(self) -> tuple: ...

    @property
    def key_order(self) -> tuple[str, ...]: ...

    @property
    def list_keys(self) -> tuple[str, ...]: ...

    def model(self) -> Any: ...

    def validate(self, data: dict, positions: Any) -> list: ...


class Packs(Protocol):
    """What a pack template of the game documents (``gs.packs``, read by ``builder.packs``)."""

    @property
    def sections(self) -> tuple[str, ...]: ...

    @property
    def docs(self) -> dict[str, dict[str, str]]: ...

    @property
    def values_from(self) -> dict[tuple[str, str], str]: ...

    @property
    def menus(self) -> dict[tuple[str, str], str]: ...

    @property
    def art_sections(self) -> tuple[str, ...] | None: ...


class Printing(Protocol):
    """What the printed documents ask of every game (``gs.printing``, read by ``builder.render``)."""

    @property
    def card_template(self) -> Path | None: ...

    @property
    def aid_template(self) -> Path | None: ...

    @property
    def printed_keys(self) -> tuple[str, ...]: ...

    def total(self, summary: dict) -> str: ...

    def aid_blocks(self) -> AidBlocks: ...

    def ability(self, catalog: Any, written: str) -> Any: ...


class ListView(Protocol):
    """How the web builder shows a list of the game (``gs.view``): its heading, the words for its
    entries and counts, its total and what is left of its limit, the settings it offers."""

    @property
    def list_title(self) -> str: ...

    @property
    def cost_unit(self) -> str: ...

    @property
    def count_words(self) -> tuple[str, str]: ...

    @property
    def entry_words(self) -> tuple[str, str]: ...

    @property
    def fixed_keys(self) -> tuple[str, ...]: ...

    def counted(self, n: Any) -> str: ...

    def composition(self, summary: dict) -> list[tuple[str, object]]: ...

    def tally(self, summary: dict) -> dict: ...

    def left_text(self, tally: dict, findings: Any) -> str: ...

    def total_text(self, summary: dict) -> str: ...

    def builder_settings(self, data: dict, catalog: Any) -> list[dict]: ...


class CatalogView(Protocol):
    """The catalog beside a list in the web builder (``gs.browse``): what is offered, how an
    entry's cost and facts read, its type for the filter and the order of the rows."""

    @property
    def sections(self) -> tuple[str, ...]: ...

    @property
    def type_field(self) -> str: ...

    @property
    def type_label(self) -> str: ...

    @property
    def priced(self) -> bool: ...

    def cost_text(self, entry: Any, cost: Any) -> str: ...

    def entry_facts(self, entry: Any) -> str: ...

    def entry_type(self, entry: Any) -> str: ...

    def offers(self, data: dict, entry: Any) -> bool: ...

    def entries(self, data: dict, catalog: Any) -> list: ...

    def option_extra(self, data: dict, entry: Any) -> dict: ...

    def option_rank(self, row: dict) -> tuple: ...


class NewList(Protocol):
    """How a new list of the game starts (``gs.new_list``): ``daimyo new``, ``ListEditor.new``,
    the web builder's new-list form and an event's settings."""

    @property
    def options(self) -> frozenset: ...

    @property
    def example(self) -> str: ...

    def declare(self, catalog: Any) -> list[NewOption]: ...

    def fields(self, catalog: Any) -> list[dict]: ...

    def values(self, catalog: Any, given: Mapping[str, Any]) -> dict: ...

    def make(self, catalog: Any, options: dict) -> tuple[dict, list[str]]: ...

    def body(self, data: dict, catalog: Any, options: dict) -> list[str]: ...


class Catalog(Protocol):
    """Where a game's catalog and modules are (``gs.catalog``), as ``builder.catalog``'s loader
    asks; the finding codes a check may give, for the command line."""

    @property
    def folder(self) -> Path | None:
        """The catalog's folder; None: ``catalog/<id>`` of the installation."""
        ...

    @property
    def module_name(self) -> str | None: ...

    @property
    def rules_name(self) -> str | None: ...

    def module(self) -> Any:
        """The module holding the game's catalog model (``CATALOG_MODEL``)."""
        ...

    def rules(self) -> Any:
        """The game's rules module."""
        ...

    def finding_codes(self, catalog: Any) -> dict:
        """``{code: FindingCode}`` of every finding a check of the game may give."""
        ...


class Editing(Protocol):
    """How ``add`` and ``remove`` change a list of the game (``gs.editing``): the edit operations
    of ``builder.lists``, ``daimyo add``/``remove`` and the web builder's card rows."""

    @property
    def add_options(self) -> frozenset:
        """The options ``add`` takes besides a name (``count``, ``models``, ``player``...)."""
        ...

    @property
    def remove_options(self) -> frozenset: ...

    @property
    def edits(self) -> Any:
        """The game's own edit operations (a module with ``from_form``); None: none."""
        ...

    @property
    def held_sections(self) -> tuple[tuple[str, str], ...]:
        """(list key, catalog section) of the cards a list holds; (): a list holds no cards."""
        ...

    def published(self, data: dict) -> bool:
        """Whether the list is a published deck written by its name (changes make it a variant)."""
        ...

    def held(self, data: dict, catalog: Any) -> list:
        """``(list key, catalog section, [(name as written, value)])`` per held section."""
        ...

    def check_options(self, verb: str, given: dict) -> None:
        """Refuse, naming it, an option of ``add``/``remove`` that does not apply to the game."""
        ...

    def option_refusal(self, verb: str, opt: str) -> str: ...

    def resolve(self, catalog: Any, name: str, data: Any = None) -> Any:
        """The card ``name`` means (a ``Pick``): the games whose lists hold cards."""
        ...

    def add(
        self, data: Any, catalog: Any, name: Any, count: int | None = None, **options: Any
    ) -> tuple[list[str], tuple | None]:
        """Add ``name`` to the list data; ``(notes, where it went)``."""
        ...

    def remove(self, data: Any, catalog: Any, name: str, count: int | None = 1, **options: Any) -> list[str]: ...


class Settings(Protocol):
    """What ``set KEY VALUE`` may change in a list of the game (``gs.settings``): the edit
    session's ``Set`` operation and the web builder's settings."""

    @property
    def keys(self) -> tuple[str, ...]: ...

    def value(self, catalog: Any, key: str, value: str) -> tuple[object, str | None]: ...

    def own(self, catalog: Any, key: str, value: str) -> tuple[object, str | None]: ...

    def apply(self, data: Any, catalog: Any, key: str, value: str) -> tuple[list[str], tuple]: ...

    def shown(self, v: Any) -> str: ...

    def after(self, data: Any, catalog: Any, key: str, value: Any) -> list[str]: ...


class Questions(Protocol):
    """What adding an entry would do (``gs.questions``): ``daimyo options`` and ``daimyo why``."""

    def candidates(self, catalog: Any) -> Any:
        """``(section, entry, kind, printed cost)`` of every entry a list may gain."""
        ...

    def trial(self, data: dict, catalog: Any, section: str, entry: Any) -> tuple[dict, tuple | None, int]:
        """A copy of ``data`` with ``entry`` added, where it went and how many were added."""
        ...

    def cost(self, before: dict, after: dict, entry: Any, printed: Any) -> Any: ...

    def left(self, section: str, summary: dict, data: dict, entry: Any, catalog: Any) -> tuple: ...

    def describe_addition(
        self, comparison: Any, data: Any, catalog: Any, name: str, count: Any, list_data: Any
    ) -> tuple[str, str, str | None]: ...


class Units(Protocol):
    """A list made of units of models (a Kensei army): each entry of the list's first key is a
    unit with ``models``, and may carry a standard and be led by another unit."""

    standard_word: str  # what a unit's standard is called ("" when units carry none)
    leader_word: str  # what leads a unit

    def unit_rows(self, doc: Any, catalog: Any, rules: dict) -> list[dict]:
        """Each unit of the list, in order, as the builder and the list comparison show it:
        ``key`` (its entry's name as written), ``name`` (the catalog's spelling), ``id`` and
        ``entry`` (the catalog entry; None when unknown), ``models``, ``cost`` (None when not
        known), ``led_by`` (None: no leader), ``standard``, ``leader`` (it may lead a unit),
        ``general`` (it leads the army) and ``cls`` (its class, "" for none)."""
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

    def render(
        self,
        doc: Any,
        catalog: Any,
        lst: Any,
        result: Any,
        out_path: Path,
        *,
        paper: tuple,
        force: bool,
        share_code: str | None,
        sources: bool,
        unit_cards: bool = False,
        **options: Any,
    ) -> Path:
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


P_co = TypeVar("P_co", covariant=True)


class part(Generic[P_co]):
    """A part of a game, declared on its class: ``text = part(KenseiText)``. The part is made
    from the game (``KenseiText(game)``) when first asked for, once per game object. A part
    named as ``"module:Class"`` (``view = part("builder.games.kensei.view:KenseiView")``) has
    its module imported only then: a check imports no view, printing or text form. A name that
    starts with a dot is a module of the game's own package (``view = part(".view:KenseiView")``
    in ``builder/games/kensei/system.py`` is ``builder.games.kensei.view:KenseiView``)."""

    @overload
    def __init__(self: part[Any], make: str) -> None: ...

    @overload
    def __init__(self, make: Callable[[Any], P_co]) -> None: ...

    def __init__(self, make: Callable[[Any], P_co] | str):
        self.target = make if isinstance(make, str) else None
        self.make: Callable[[Any], P_co] = _imported(make) if isinstance(make, str) else make

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        if self.target is not None and self.target.startswith("."):
            package = owner.__module__.rpartition(".")[0]
            if not package:
                raise TypeError(
                    f"part '{self.target}' of {owner.__name__}: a module named from the game's package "
                    f"needs the game in a package; name the module in full"
                )
            self.make = _imported(package + self.target)

    def __get__(self, game: Any, owner: type | None = None) -> P_co:
        if game is None:
            return self  # type: ignore[return-value]  # the declaration itself, asked on the class
        made = self.make(game)
        game.__dict__[self.name] = made
        return made


def _imported(target: str) -> Callable[[Any], Any]:
    """``make`` of the part named ``"module:Class"``: imports the module when the part is made."""
    module, _, name = target.partition(":")

    def make(game: Any) -> Any:
        import importlib

        return getattr(importlib.import_module(module), name)(game)

    return make
