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

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypedDict, TypeVar, overload, runtime_checkable

from builder.findings import Summary  # the totals a check gives, beside the result that holds them
from builder.systems.newlist import NewOption

if TYPE_CHECKING:
    from fractions import Fraction
    from types import ModuleType

    from builder.errors import Diagnostic
    from builder.findings import Finding, FindingCode
    from builder.kit.aid import Generator
    from builder.kit.deck import DeckView
    from builder.kit.deck import Row as DeckRow
    from builder.kit.facts import Loaded
    from builder.kit.fields import Field

# The types a game fills in. ``ListT``: its list as its rules load it (a ``Deck``, a
# ``KenseiList``); ``CatalogT``: the catalog its parts are handed (``builder.catalog.loader``'s
# ``Catalog``, holding the game's catalog model). Code outside the game sees a ``GameSystem``
# without them, and the game's own class names them
# (``class Kensei(GameSystem["KenseiList", "Catalog"])``), so the type checker holds each of the
# game's parts to these contracts with its own types.
ListT = TypeVar("ListT")
ListT_contra = TypeVar("ListT_contra", contravariant=True)
CatalogT_contra = TypeVar("CatalogT_contra", contravariant=True)
CatalogT = TypeVar("CatalogT")

ListData = dict[str, Any]
"""A list document as read from its file: YAML's mappings, sequences and scalars, by list key."""

Cost: TypeAlias = "int | float | Fraction"
"""What an entry costs or a list adds up to (Kensei's AP may be a fraction)."""

Where = tuple[str | int, ...]
"""Where an edit went in a list, as the path of keys and indexes to it (``("troops", 2)``)."""

Options = Mapping[str, Any]
"""The options a person gave a new list or an addition, by key (a list's name and packs, a
card's count)."""

Row = dict[str, Any]
"""A row a face shows as it is (a setting of the builder, a seat, a card's fields): plain values
by English key, which the templates and the JSON read; its keys are the part's to document."""

HouseRules = dict[str, Any]
"""The rules a check applies, by rule id (``{"max_points": 400}``): numbers, switches and words,
as the catalog's house rules coerce them."""


class Entry(Protocol):
    """An entry of a game's catalog as the faces name it (a card, a troop, a province)."""

    @property
    def name(self) -> str: ...

    @property
    def id(self) -> str: ...

    @property
    def aliases(self) -> Sequence[str]: ...


class Ability(Protocol):
    """An ability as a card or an aid prints it (``Printing.ability``): its name; its ``text``
    when the catalog has one."""

    @property
    def name(self) -> str: ...


class Tally(TypedDict):
    """A list's total as the builder's header shows it (``ListView.tally``)."""

    total: object  # a number (a whole number or a fraction); None: not known
    limit: object  # None: the list has no limit
    unit: str  # what the total counts ("AP", "cards")
    more: str  # a further short text, or ""


class PreviewLine(TypedDict):
    """The line a printed sheet gives one entry (``SheetPrinter.preview_line``)."""

    header: list[str]  # the sheet's column headings
    cells: list[object]  # the entry's cells, one a heading
    notes: list[str]  # what is printed under the line


class UnitRow(TypedDict):
    """One unit of a units list, as the builder and the list comparison show it."""

    key: str  # the entry's name as written
    name: str  # the catalog's spelling
    id: str | None
    entry: object  # the catalog entry; None when unknown
    models: int
    cost: int | Fraction | None  # None when not known
    led_by: str | None  # None: no leader
    standard: bool
    leader: bool  # it may lead a unit
    general: bool  # it leads the army
    cls: str  # its class, "" for none


class Picked(Protocol):
    """A name resolved through a list's catalog and packs (``builder.systems.base.Pick``)."""

    section: str | None  # the catalog section; None for a custom entry written in the list
    entry: Any  # the catalog entry (an ``Entry`` of the game's model); None for a custom entry
    name: str  # the catalog's spelling (or the list's, for a custom entry)
    field: str  # the list key that holds it


@runtime_checkable
class Rules(Protocol[ListT, CatalogT_contra]):
    """A game's rules, as ``daimyo check`` calls them (a game's ``rules`` module is one)."""

    def load_list(self, doc: object, catalog: CatalogT_contra) -> tuple[ListT, list[Finding]]:
        """``(list object, findings)`` from a parsed list document; ``ListError`` for wrong shapes."""
        ...

    def check(self, lst: ListT, catalog: CatalogT_contra, rules: HouseRules) -> list[Finding]:
        """Every finding of the list, as the rulebook's limits give them."""
        ...

    def summary(self, lst: ListT, catalog: CatalogT_contra, rules: HouseRules) -> Summary:
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

    def header(self, doc: ListData, summary: Summary) -> list[str]:
        """The header segments after the game's name (``40 cards``, ``clan buke``...)."""
        ...

    def keys(self, doc: ListData) -> list[str]:
        """The game's own key lines (``Commander: taisho``), after the common ones."""
        ...

    def entries(self, doc: ListData, resolver: object) -> list[str]:
        """One line per entry (``3 Overhand Thrust``)."""
        ...

    def read_facet(self, p: object, seg: str) -> bool:
        """Read a header segment into ``p.doc``; False: not a segment of this game."""
        ...

    def read_entry(self, p: object, line: str, no: int, col: int) -> None:
        """Read an entry line into ``p.doc`` (errors and warnings go to ``p``)."""
        ...

    def infer_line(self, line: str) -> str:
        """What names the entry in a line, when guessing the game of a list without a header."""
        ...


class Analytics(Protocol[ListT_contra, CatalogT_contra]):
    """What statistics, odds and sample hands ask of a game (``builder.analytics``): ``gs.analytics``."""

    @property
    def query_vocabulary(self) -> dict[str, tuple[str, ...]]:
        """Odds query field -> the values the catalog may hold."""
        ...

    def deck_view(self, lst: ListT_contra, catalog: CatalogT_contra, rules: HouseRules) -> DeckView | None: ...

    def stats_facts(self, loaded: Loaded) -> dict[str, object]: ...

    def stats_lines(self, stats: Mapping[str, object]) -> list[str]: ...

    def stats_charts(self, stats: Mapping[str, object]) -> list[tuple[str, str, list[object], object]]: ...

    def hand_facts(self, loaded: Loaded, rows: list[DeckRow]) -> dict[str, object]: ...

    def hand_lines(self, hand: Mapping[str, object]) -> list[str]: ...

    def query_value(self, field: str, raw: str) -> object: ...

    def limits(self, lst: ListT_contra, catalog: CatalogT_contra, rules: HouseRules) -> list[dict[str, object]]: ...


class Document(Protocol):
    """A game's list document (``gs.document``): its own keys in order and its pydantic model;
    used by the share schema, the editor's key order and ``builder.api``'s validation."""

    @property
    def declared(self) -> tuple[Field, ...]:
        """The fields of a game the built-in documents do not hold (a game of another package)."""
        ...

    @property
    def fields(self) -> tuple[Field, ...]: ...

    @property
    def key_order(self) -> tuple[str, ...]: ...

    @property
    def list_keys(self) -> tuple[str, ...]: ...

    def model(self) -> type: ...

    def validate(self, data: ListData, positions: object) -> list[Diagnostic]: ...


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


class Printing(Protocol[CatalogT_contra]):
    """What the printed documents ask of every game (``gs.printing``, read by ``builder.render``)."""

    @property
    def card_template(self) -> Path | None: ...

    @property
    def aid_template(self) -> Path | None: ...

    @property
    def printed_keys(self) -> tuple[str, ...]: ...

    @property
    def score_name(self) -> str: ...

    def total(self, summary: Summary) -> str: ...

    def aid_blocks(self) -> AidBlocks: ...

    def ability(self, catalog: CatalogT_contra, written: str) -> Ability | None: ...

    def counters(self, catalog: CatalogT_contra, summary: Summary) -> list[Row]: ...


class ListView(Protocol[CatalogT_contra]):
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

    def counted(self, n: float) -> str: ...

    def composition(self, summary: Summary) -> list[tuple[str, object]]: ...

    def tally(self, summary: Summary) -> Tally: ...

    def left_text(self, tally: Tally, findings: Iterable[Finding]) -> str: ...

    def total_text(self, summary: Summary) -> str: ...

    def builder_settings(self, data: ListData, catalog: CatalogT_contra) -> list[Row]: ...


class CatalogView(Protocol[CatalogT_contra]):
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

    def cost_text(self, entry: object, cost: object) -> str: ...

    def entry_facts(self, entry: object) -> str: ...

    def entry_type(self, entry: object) -> str: ...

    def offers(self, data: ListData, entry: object) -> bool: ...

    def entries(self, data: ListData, catalog: CatalogT_contra) -> list[Any]: ...

    def option_extra(self, data: ListData, entry: object) -> dict[str, object]: ...

    def option_rank(self, row: Mapping[str, object]) -> tuple[object, ...]: ...


class NewList(Protocol[CatalogT_contra]):
    """How a new list of the game starts (``gs.new_list``): ``daimyo new``, ``ListEditor.new``,
    the web builder's new-list form and an event's settings."""

    @property
    def options(self) -> frozenset[str]: ...

    @property
    def example(self) -> str: ...

    def declare(self, catalog: CatalogT_contra) -> list[NewOption]: ...

    def fields(self, catalog: CatalogT_contra) -> list[Row]: ...

    def values(self, catalog: CatalogT_contra, given: Options) -> dict[str, object]: ...

    def make(self, catalog: CatalogT_contra, options: Options) -> tuple[ListData, list[str]]: ...

    def body(self, data: ListData, catalog: CatalogT_contra, options: Options) -> list[str]: ...


class Catalog(Protocol[ListT, CatalogT_contra]):
    """Where a game's catalog and modules are (``gs.catalog``), as ``builder.catalog``'s loader
    asks; the finding codes a check may give, for the command line."""

    @property
    def folder(self) -> Path:
        """The catalog's folder (``builder.systems.catalog.data_folder`` by default)."""
        ...

    @property
    def module_name(self) -> str | None: ...

    @property
    def rules_name(self) -> str | None: ...

    def module(self) -> ModuleType:
        """The module holding the game's catalog model (``CATALOG_MODEL``)."""
        ...

    def rules(self) -> Rules[ListT, CatalogT_contra]:
        """The game's rules module."""
        ...

    def finding_codes(self, catalog: CatalogT_contra) -> dict[str, FindingCode]:
        """``{code: FindingCode}`` of every finding a check of the game may give."""
        ...


class Editing(Protocol[CatalogT_contra]):
    """How ``add`` and ``remove`` change a list of the game (``gs.editing``): the edit operations
    of ``builder.lists``, ``daimyo add``/``remove`` and the web builder's card rows."""

    @property
    def add_options(self) -> frozenset[str]:
        """The options ``add`` takes besides a name (``count``, ``models``, ``player``...)."""
        ...

    @property
    def remove_options(self) -> frozenset[str]: ...

    @property
    def edits(self) -> ModuleType | None:
        """The game's own edit operations (a module with ``from_form``); None: none."""
        ...

    @property
    def held_sections(self) -> tuple[tuple[str, str], ...]:
        """(list key, catalog section) of the cards a list holds; (): a list holds no cards."""
        ...

    def published(self, data: ListData) -> bool:
        """Whether the list is a published deck written by its name (changes make it a variant)."""
        ...

    def held(self, data: ListData, catalog: CatalogT_contra) -> list[tuple[str, str, Sequence[tuple[str, object]]]]:
        """``(list key, catalog section, [(name as written, value)])`` per held section."""
        ...

    def check_options(self, verb: str, given: Options) -> None:
        """Refuse, naming it, an option of ``add``/``remove`` that does not apply to the game."""
        ...

    def option_refusal(self, verb: str, opt: str) -> str: ...

    def resolve(self, catalog: CatalogT_contra, name: str, data: ListData | None = None) -> Picked:
        """The card ``name`` means (a ``Pick``): the games whose lists hold cards."""
        ...

    def add(
        self, data: ListData, catalog: CatalogT_contra, name: str, count: int | None = None, **options: Any
    ) -> tuple[list[str], Where | None]:
        """Add ``name`` to the list data; ``(notes, where it went)``."""
        ...

    def remove(
        self, data: ListData, catalog: CatalogT_contra, name: str, count: int | None = 1, **options: Any
    ) -> list[str]: ...


class Settings(Protocol[CatalogT_contra]):
    """What ``set KEY VALUE`` may change in a list of the game (``gs.settings``): the edit
    session's ``Set`` operation and the web builder's settings."""

    @property
    def keys(self) -> tuple[str, ...]: ...

    def value(self, catalog: CatalogT_contra, key: str, value: str) -> tuple[object, str | None]: ...

    def own(self, catalog: CatalogT_contra, key: str, value: str) -> tuple[object, str | None]: ...

    def apply(self, data: ListData, catalog: CatalogT_contra, key: str, value: str) -> tuple[list[str], Where]: ...

    def shown(self, v: object) -> str: ...

    def after(self, data: ListData, catalog: CatalogT_contra, key: str, value: object) -> list[str]: ...


class Questions(Protocol[CatalogT_contra]):
    """What adding an entry would do (``gs.questions``): ``daimyo options`` and ``daimyo why``."""

    def candidates(self, catalog: CatalogT_contra) -> Iterable[tuple[str, Entry, str | None, Cost | None]]:
        """``(section, entry, kind, printed cost)`` of every entry a list may gain."""
        ...

    def trial(
        self, data: ListData, catalog: CatalogT_contra, section: str, entry: object
    ) -> tuple[ListData, Where | None, int]:
        """A copy of ``data`` with ``entry`` added, where it went and how many were added."""
        ...

    def cost(self, before: Summary, after: Summary, entry: object, printed: Cost | None) -> Cost | None: ...

    def left(
        self, section: str, summary: Summary, data: ListData, entry: object, catalog: CatalogT_contra
    ) -> tuple[Cost | None, str | None]:
        """What is left of the list's limit after adding ``entry``, and its unit (None: no limit)."""
        ...

    def describe_addition(
        self,
        comparison: object,
        data: ListData,
        catalog: CatalogT_contra,
        name: str,
        count: int | None,
        list_data: ListData,
    ) -> tuple[str, str, str | None]: ...


class Units(Protocol[CatalogT_contra]):
    """A list made of units of models (a Kensei army): each entry of the list's first key is a
    unit with ``models``, and may carry a standard and be led by another unit."""

    standard_word: str  # what a unit's standard is called ("" when units carry none)
    leader_word: str  # what leads a unit

    def unit_rows(self, doc: object, catalog: CatalogT_contra, rules: HouseRules) -> list[UnitRow]:
        """Each unit of the list, in order, as the builder and the list comparison show it:
        ``key`` (its entry's name as written), ``name`` (the catalog's spelling), ``id`` and
        ``entry`` (the catalog entry; None when unknown), ``models``, ``cost`` (None when not
        known), ``led_by`` (None: no leader), ``standard``, ``leader`` (it may lead a unit),
        ``general`` (it leads the army) and ``cls`` (its class, "" for none)."""
        ...


class Players(Protocol[CatalogT_contra]):
    """A list that is a setup by player (Senji): one seat per player, each with parts."""

    seat_words: dict[str, str]  # the words for a seat and its parts in the builder

    def seats(self, data: ListData) -> list[Row]:
        """Each player's seat as the builder shows it (``index``, ``name``, parts)."""
        ...

    def set_part(self, data: ListData, catalog: CatalogT_contra, where: Where, field: str, value: object) -> list[str]:
        """Change ``field`` of the part at ``where`` (``("players", 0, "provinces", 2)``)."""
        ...


class SheetPrinter(Protocol[ListT_contra, CatalogT_contra]):
    """A document a game prints instead of cards (a roster, a setup sheet)."""

    kind: str  # a short word for it ("roster", "setup"), which the web's print page shows
    what: str  # what it is called in messages ("roster", "setup sheet")
    line_section: str  # the catalog section whose entries it lists one a line ("troops", "provinces")

    def render(
        self,
        doc: object,
        catalog: CatalogT_contra,
        lst: ListT_contra,
        result: object,
        out_path: Path,
        *,
        paper: tuple[float, float],
        force: bool,
        share_code: str | None,
        sources: bool,
        unit_cards: bool = False,
        **options: object,
    ) -> Path:
        """Write the document of the checked list to ``out_path``; returns the path."""
        ...

    def preview_line(self, pack_path: Path, name: str) -> PreviewLine | None:
        """The line this document gives entry ``name`` of the pack at ``pack_path`` (the pack
        editor shows it as typed): ``{"header", "cells", "notes"}``, or None when the entry is
        not one the document lists a line each."""
        ...


class UnitCards(Protocol[ListT_contra, CatalogT_contra]):
    """Cards a unit list prints beside its sheet (Kensei's unit cards), also as card images."""

    sizes: tuple[str, ...]  # the card sizes they print at (sleeve sizes)

    def data(self, lst: ListT_contra, catalog: CatalogT_contra) -> list[Row]:
        """One dict per card of the loaded list (its ``name`` first)."""
        ...

    def draw(
        self, c: object, d: Mapping[str, object], w: float, h: float, g: float, warnings: list[str], marks: bool = True
    ) -> None:
        """Draw card ``d`` on canvas ``c`` in a ``w`` x ``h`` box at the origin (``g``: the gap)."""
        ...


class Commands(Protocol):
    """Commands a game adds to the command line, in a group named by its id (``daimyo satsuma clash``)."""

    help: str  # the group's help line

    def register(self, group: object, cli: object) -> None:
        """Add the commands to ``group`` (a typer app). ``cli`` gives the command line's helpers:
        ``parse_rule_options(items)`` (``--rule ID=VALUE``), ``Progress(total, label, enabled)``,
        ``error_lines(exc)`` (a ``DaimyoError`` as the command line prints it) and ``lists`` (the
        library's ``load_list``, ``check_doc`` and ``resolve_house_rules``)."""
        ...


AidBlocks = dict[str, "Generator"]
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
        return getattr(importlib.import_module(module), name)(game)

    return make
