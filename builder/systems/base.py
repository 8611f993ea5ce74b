"""``GameSystem``: what every game answers, with defaults; each game's module overrides a few hooks.

The hooks work on a list's data: a ruamel round-trip tree when a file is edited (comments
survive), plain dicts when ``options`` tries an entry. They raise a ``UsageError`` subclass
(``UnknownEntry``, ``EditRefused``) for what cannot be done; they never print.
"""

from __future__ import annotations

import importlib
from fractions import Fraction
from pathlib import Path
from types import ModuleType

from builder.errors import EditRefused, UsageError, option
from builder.systems.parts import AidBlocks, Commands, Players, Rules, SheetPrinter, UnitCards, Units

COMMON_KEYS = ("system", "name", "author", "notes", "packs", "house_rules")  # builder.kit.fields.COMMON
TEXT_KEYS = ("name", "author", "notes")
YAML11_WORDS = {"yes", "no", "on", "off", "y", "n"}
UNSET = ("none", "null", "off", "-")


def fmt(v) -> str:
    """A number as people write it (``25``, not ``25.0``)."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def plural(n, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def text_value(value: str):
    """``value`` to write as YAML text (quoted when YAML 1.1 would read it as true/false)."""
    if value.strip().lower() in YAML11_WORDS:
        from ruamel.yaml.scalarstring import SingleQuotedScalarString

        return SingleQuotedScalarString(value)
    return value


def whole(key: str, value: str, example: str) -> int:
    """``value`` as a whole number of at least 1, or a UsageError naming ``key``."""
    try:
        n = int(value)
    except ValueError:
        raise UsageError(f"{key} must be a whole number, not '{value}'", f"e.g. {example}") from None
    if n < 1:
        raise UsageError(f"{key} must be at least 1, not {n}")
    return n


class GameSystem:
    """One game. Subclasses set the class attributes and override the hooks they need.

    ``entries``: list keys holding what ``add`` adds; ``document``: the fields of the game's list
    document (``builder.systems.documents``), which give ``key_order`` (the system's own list keys
    in the order they are written) and the pydantic ``list_model``; ``set_keys``: what ``set`` may change; ``what``: what a list
    of the game is called (army, deck, hero, setup); ``prints``: cards, roster or setup;
    ``add_options``/``remove_options``: the options ``add``/``remove`` take besides a name.
    """

    id: str = ""
    name: str = ""
    title: str = ""
    aliases: tuple[str, ...] = ()
    kind: str = "deck"
    entries: tuple[str, ...] = ()
    set_keys: tuple[str, ...] = TEXT_KEYS
    what: str = "list"
    noun: str = "card"
    # the game's own edit operations (``builder/games/<id>/edits.py``: typed operations and
    # ``from_form``), besides the add, remove, set, house rule and part every game has; None: none
    edits: ModuleType | None = None
    add_options: frozenset = frozenset({"count"})
    remove_options: frozenset = frozenset({"count", "all"})
    new_options: frozenset = frozenset()
    pack_sections: tuple[str, ...] = ()  # the catalog sections a pack template documents first
    pack_docs: dict[str, dict[str, str]] = {}  # section -> entry field -> what it means
    pack_values_from: dict[tuple[str, str], str] = {}  # (section, field) -> the section naming its values
    card_template: Path | None = None  # None: templates/cards/<id>.yaml of the installation
    aid_template: Path | None = None  # the player aid; None: templates/aids/<id>.yaml of the installation
    query_vocabulary: dict[str, tuple[str, ...]] = {}  # odds query field -> values the catalog may hold
    catalog_dir: Path | None = None  # None: catalog/<id> of the installation
    catalog_module_name: str | None = None  # None: the ``catalog`` module beside the game's own module
    rules_module_name: str | None = None  # None: the ``rules`` module beside the game's own module
    # the parts only some games have (``builder.systems.parts``); None: the game has none
    units: Units | None = None  # a list of units of models, edited unit by unit
    players: Players | None = None  # a setup by player, one seat each
    sheet: SheetPrinter | None = None  # a document printed instead of cards (a roster, a setup sheet)
    unit_cards: UnitCards | None = None  # cards of the units printed beside the sheet, also as images
    commands: Commands | None = None  # the game's own commands (``daimyo <id> ...``)

    def __repr__(self) -> str:
        return f"<GameSystem {self.id}>"

    # -- modules and data --------------------------------------------------------------------

    def _beside(self, name: str) -> str:
        """The module ``name`` in the game's package; the game's own module when it is not in a
        package (a game in one module holds its catalog model and rules itself)."""
        module = type(self).__module__
        package = module.rpartition(".")[0]
        return f"{package}.{name}" if package else module

    def catalog_module(self) -> ModuleType:
        """The module holding the game's catalog model (``CATALOG_MODEL``)."""
        return importlib.import_module(self.catalog_module_name or self._beside("catalog"))

    def rules_module(self) -> ModuleType:
        return importlib.import_module(self.rules_module_name or self._beside("rules"))

    @property
    def rules(self) -> Rules:
        """The game's rules (``load_list``, ``check``, ``summary``): what ``daimyo check`` calls."""
        return self.rules_module()

    @property
    def prints(self) -> str:
        """What a list of the game prints as: ``cards``, or its sheet's kind (``roster``, ``setup``)."""
        return "cards" if self.sheet is None else self.sheet.kind

    @property
    def layout(self) -> str:
        """How the web builder lays a list out: ``units``, ``players`` or ``cards`` (from the parts)."""
        return "units" if self.units is not None else "players" if self.players is not None else "cards"

    def aid_blocks(self) -> AidBlocks:
        """The game's own generated player-aid blocks, by name (none by default)."""
        return {}

    def ability(self, catalog, written: str):
        """The catalog ability a card's ability text names (``Recruit: 2`` names Recruit); None."""
        return catalog.find("abilities", str(written).split(":")[0].strip())

    def load_catalog(self, packs=()):
        """The catalog of this system with ``packs`` (file paths) applied."""
        from builder.catalog.loader import load_catalog

        return load_catalog(self.id, list(packs))

    @property
    def document(self) -> tuple:
        """The fields (``builder.kit.fields.Field``) of the game's own list keys, in order: a
        built-in game's from ``builder.systems.documents``, another game's ``share_fields``."""
        from builder.systems.documents import document

        own = document(self.id)
        return tuple(self.share_fields) if own is None else own

    @property
    def key_order(self) -> tuple[str, ...]:
        """The system's own list keys in the order they are written (from ``document``)."""
        return tuple(f.key for f in self.document)

    def list_model(self):
        """The pydantic model of a list document of this game (built on first use)."""
        from builder.systems.documents import list_model

        return list_model(self.id, self.document)

    def validate_document(self, data: dict, positions) -> list:
        """Diagnostics (file:line:col) for what ``data`` breaks in the list model; [] when it fits."""
        from builder.systems.documents import validate

        return validate(self.list_model(), data, positions)

    @property
    def list_keys(self) -> tuple[str, ...]:
        """Every key a list of this system may hold, in the order they are written."""
        return COMMON_KEYS + self.key_order

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "title": self.title, "aliases": list(self.aliases),
                "kind": self.kind, "entries": list(self.entries), "keys": list(self.list_keys),
                "set_keys": list(self.set_keys), "prints": self.prints}

    # -- how a builder shows a list (the web builder's pages and API) -----------------------------

    list_title: str = "Deck"  # the heading of the list in the builder
    cost_unit: str = ""  # what a cost is counted in, after the number ("AP"); "" for a card's printed cost
    type_field: str = "type"  # the catalog field the builder's filter by type reads
    browse_sections: tuple[str, ...] = ()  # the catalog sections shown beside the list, to add from
    held_sections: tuple[tuple[str, str], ...] = ()  # (list key, catalog section) of the cards a list holds
    fixed_keys: tuple[str, ...] = ()  # list keys whose cards follow from another choice (no +/- of their own)
    count_words: tuple[str, str] = ("copy", "copies")  # what an entry's count counts, one and many
    entry_words: tuple[str, str] = ("card", "cards")  # what an entry of a list is, one and many
    type_label: str = "Type"  # the name of the catalog filter by ``entry_type``
    priced: bool = True  # whether catalog entries have a cost to show and filter by
    name_example: str = ""  # a name for a new list, shown as an example in the new-list form

    def cost_text(self, entry, cost) -> str:
        """An entry's cost as the builder shows it beside the entry (``25 AP``, ``cost II``);
        "" without a cost."""
        if cost is None:
            return ""
        return f"{fmt(cost)} {self.cost_unit}" if self.cost_unit else f"cost {fmt(cost)}"

    def entry_facts(self, entry) -> str:
        """The few printed facts a player picks an entry by, shown beside its name in the
        builder (a Satsuma card's suits and strengths); "" for none."""
        return ""

    def counted(self, n) -> str:
        """``n`` with the word of what an entry's count counts: ``1 copy``, ``5 models``."""
        return f"{fmt(n)} {self.count_words[0] if n == 1 else self.count_words[1]}"

    def composition(self, summary: dict) -> list[tuple[str, object]]:
        """The builder's breakdown of a list (label, value) from its check summary; [] when the
        builder's count of entries by type says enough."""
        return []

    def tally(self, summary: dict) -> dict:
        """The list's total as the builder's header shows it: ``total``, ``limit`` (None: none),
        ``unit`` and ``more`` (a further short text, or "")."""
        return {"total": summary.get("cards"), "limit": None, "unit": "cards", "more": ""}

    def left_text(self, tally: dict, findings) -> str:
        """What the builder's header says is left of the list's limit: ``5 AP left``,
        ``3 cards over`` ("" when the list has no limit, or its total is unknown)."""
        total, limit = tally.get("total"), tally.get("limit")
        if not isinstance(total, (int, float, Fraction)) or not isinstance(limit, (int, float, Fraction)):
            return ""
        left = limit - total
        return f"{fmt(abs(left))} {tally['unit']} {'left' if left >= 0 else 'over'}"

    def total_text(self, summary: dict) -> str:
        """The one-line total a person reads in a list of lists: ``380 / 400 AP``, ``46 cards``."""
        t = self.tally(summary or {})
        total = "?" if t["total"] is None else fmt(t["total"])
        text = f"{total} / {fmt(t['limit'])} {t['unit']}" if t["limit"] is not None else f"{total} {t['unit']}"
        return text + (f", {t['more']}" if t["more"] else "")

    def entry_type(self, entry) -> str:
        """What kind of entry a catalog entry is, for the builder's filter ("" when unknown)."""
        return str(getattr(entry, self.type_field, None) or "") if entry is not None else ""

    def offers(self, data: dict, entry) -> bool:
        """Whether the builder offers ``entry`` to this list at all (a Satsuma side's cards)."""
        return True

    def browse(self, data: dict, catalog) -> list:
        """``(section, entry)`` of what the builder shows beside the list, one row per name."""
        out, seen = [], set()
        for section in self.browse_sections:
            for e in catalog.entries(section):
                if self.offers(data, e) and (section, e.name) not in seen:
                    seen.add((section, e.name))
                    out.append((section, e))
        return out

    def published(self, data: dict) -> bool:
        """Whether the list is a published deck written by its name (changes make it a variant)."""
        return False

    def held(self, data: dict, catalog) -> list:
        """The cards a list holds: ``(list key, catalog section, [(name as written, value)])``
        per key of ``held_sections`` (value: a number of copies, or a custom card's mapping)."""
        out = []
        for key, section in self.held_sections:
            holder = data.get(key)
            items = list(holder.items()) if isinstance(holder, dict) else [(a, 1) for a in (holder or [])]
            out.append((key, section, items))
        return out

    def builder_settings(self, data: dict, catalog) -> list[dict]:
        """The list-level values the builder offers to change (name, notes aside): ``key``,
        ``label``, ``value`` and ``choices`` (value, label) or a ``type``."""
        return []

    def option_extra(self, data: dict, entry) -> dict:
        """More facts of a catalog row beside the list (a troop's cost per model, its clans)."""
        return {}

    def option_rank(self, row: dict) -> tuple:
        """The order of the catalog rows: what can be added first, then by name."""
        return (not row["can"], row["name"])

    def new_fields(self, catalog) -> list[dict]:
        """The fields a builder's new-list form asks for (``new_options``): ``key``, ``label``,
        ``value`` (the default) and ``choices`` (value, label), with a ``prompt`` when the user must
        choose (no default), or a ``type`` with ``min``/``max``."""
        return []

    # -- reading and checking ------------------------------------------------------------------

    def load_list(self, doc, catalog):
        """``(list object, findings)`` from a parsed document; ``ListError`` for wrong shapes."""
        return self.rules.load_list(doc, catalog)

    def check(self, lst, catalog, rules: dict) -> list:
        return self.rules.check(lst, catalog, rules)

    def summary(self, lst, catalog, rules: dict) -> dict:
        return self.rules.summary(lst, catalog, rules)

    def finding_codes(self, catalog=None) -> dict:
        """Every finding code a check of this system may give: ``{code: FindingCode}`` (severity,
        meaning, rulebook source), those of the rules module and, with ``catalog`` (default: the
        system's own catalog), those of its declarative restrictions."""
        from builder.rules.codes import from_restrictions, registry

        out = registry(getattr(self.rules, "FINDING_CODES", {}))
        if catalog is None:
            catalog = self.load_catalog()
        restrictions = getattr(catalog.model, "restrictions", None)
        for code, fc in from_restrictions(self.id, restrictions).items():
            out.setdefault(code, fc)
        return dict(sorted(out.items()))

    # -- editing hooks ----------------------------------------------------------------------------

    def refuse(self, verb: str, what: str = "") -> UsageError:
        return EditRefused(f"'{verb}' is not supported for {self.id}" + (f" ({what})" if what else ""))

    def check_options(self, verb: str, given: dict) -> None:
        """Refuse options of ``add``/``remove`` (``given``: option -> value, None or False when
        not given) that do not apply to this system, naming the option."""
        allowed = self.add_options if verb == "add" else self.remove_options
        for opt, value in given.items():
            if value is None or value is False or opt in allowed:
                continue
            raise UsageError(self.option_refusal(verb, opt))

    def option_refusal(self, verb: str, opt: str) -> str:
        flag = option(opt)
        if opt in ("models", "led_by", "standard"):
            return f"{flag} applies to kensei troops, not {self.id} {self.noun}s"
        if opt == "variant":
            return f"{option('variant')} applies to satsuma decks"
        if opt == "player":
            return f"{flag} applies to senji setups"
        return f"{flag} does not apply to {self.id} lists"

    def new(self, catalog, options: dict) -> tuple[dict, list[str]]:
        """The data of a new list and notes for a person (``options`` as ``daimyo new`` takes)."""
        data: dict = {"system": self.id}
        if options.get("name"):
            data["name"] = options["name"]
        if options.get("packs"):
            data["packs"] = list(options["packs"])
        notes = self.new_body(data, catalog, options)
        return data, notes

    def new_body(self, data: dict, catalog, options: dict) -> list[str]:
        return []

    def add(self, data, catalog, name: str, count: int | None = None, **options) -> tuple[list[str], tuple | None]:
        """Add ``name`` to the list data; ``(notes, where it went)``."""
        raise self.refuse("add")

    def remove(self, data, catalog, name: str, count: int | None = 1, **options) -> list[str]:
        raise self.refuse("remove")

    def set_value(self, catalog, key: str, value: str) -> tuple[object, str | None]:
        """The value to write for ``set KEY VALUE`` (None: remove the key) and a note, if any."""
        from builder.names import did_you_mean

        if key not in self.set_keys:
            raise UsageError(f"cannot set '{key}' in a {self.id} {self.what}",
                             did_you_mean(key, self.set_keys) or "one of " + ", ".join(self.set_keys))
        if key in TEXT_KEYS:
            return (text_value(value) if value.strip() else None), None
        return self.set_own(catalog, key, value)

    def set_own(self, catalog, key: str, value: str) -> tuple[object, str | None]:
        raise UsageError(f"cannot set '{key}'")  # pragma: no cover - set_keys lists what is handled

    def set(self, data, catalog, key: str, value: str) -> tuple[list[str], tuple]:
        """Apply ``set KEY VALUE`` to the list data; ``(notes, where)``."""
        from builder.kit.edit import delete_key, set_key_ordered

        v, note = self.set_value(catalog, key, value)
        if v is None:
            if key in data:
                delete_key(data, key)
            notes = [f"removed {key}"]
        else:
            set_key_ordered(data, key, v, self.list_keys)
            notes = [f"set {key} = {self.shown(v)}"]
        if note:
            notes.append(note)
        return notes + self.after_set(data, catalog, key, v), (key,)

    def shown(self, v) -> str:
        return str(v)

    def after_set(self, data, catalog, key: str, value) -> list[str]:
        """What else changes when ``key`` was set (e.g. a new hero's attribute cards)."""
        return []

    # -- questions: options and why -----------------------------------------------------------------

    def candidates(self, catalog):
        """``(section, entry, kind, printed cost)`` of every entry a list may gain."""
        return iter(())

    def trial(self, data: dict, catalog, section: str, entry) -> tuple[dict, tuple | None, int]:
        """A copy of the plain ``data`` with ``entry`` added (``data`` untouched), where it went and
        how many were added (models or copies)."""
        import copy

        trial = {k: (copy.deepcopy(v) if isinstance(v, (dict, list)) else v) for k, v in data.items()}
        _notes, target = self.add(trial, catalog, entry.name, None, variant=True, check_side=False, trial=True)
        return trial, target, 1

    def cost(self, before: dict, after: dict, entry, printed):
        """What adding ``entry`` costs (the printed cost of a card by default)."""
        return printed

    def left(self, section: str, summary: dict, data: dict, entry, catalog):
        """What is left after an addition, and its unit (None, None: no limit)."""
        return None, None

    def describe_addition(self, comparison, data, catalog, name: str, count, list_data) -> tuple[str, str, str | None]:
        """``(what was added, the state after, a note)`` for the lines of ``daimyo why``."""
        return name, "", None

    # -- the text form (forums, chats): header facets, key lines, entry lines ----------------------

    text_labels: tuple[str, ...] = ()  # more names a text header may call the game by
    text_headings: tuple[str, ...] = ()  # keys whose empty line ('Deck:') heads the entries below it
    text_infers: bool = True  # a card list without a header may be of this game (its catalog decides)
    share_fields: tuple = ()  # the share schema's fields of a game the built-in schema does not hold

    @property
    def collection(self) -> str:
        """The list key holding the main entries (written ``KEY: none`` when present but empty)."""
        return self.entries[0]

    @property
    def text_example(self) -> str:
        return f"write e.g. 'My {self.what} - {self.name} - 40 cards'"

    def text_header(self, doc: dict, summary: dict) -> list[str]:
        """The header segments after the game's name (``40 cards``, ``clan buke``...)."""
        held = doc.get(self.collection)
        return [f"{sum(held.values())} cards"] if isinstance(held, dict) else []

    def text_keys(self, doc: dict) -> list[str]:
        """The game's own key lines (``Commander: taisho``), after the common ones."""
        return []

    def text_entries(self, doc: dict, resolver) -> list[str]:
        """One line per entry (``3 Overhand Thrust``)."""
        from builder.kit.textform import q

        held = doc.get(self.collection, {})
        if not isinstance(held, dict):
            return []
        return [f"{n.get('count', 1)} {q(name)} (printed: {n.get('printed')})" if isinstance(n, dict)
                else f"{n} {q(name)}" for name, n in held.items()]

    def read_facet(self, p, seg: str) -> bool:
        """Read a header segment into ``p.doc``; False: not a segment of this game."""
        from builder.kit.textform import _CARDS

        return bool(_CARDS.match(seg))

    def read_entry(self, p, line: str, no: int, col: int) -> None:
        """Read an entry line into ``p.doc`` (errors and warnings go to ``p``)."""
        p.card_line(line, no, col)

    def infer_line(self, line: str) -> str:
        """What names the entry in a line, when guessing the game of a list without a header."""
        return line

    # -- printing ---------------------------------------------------------------------------------

    @property
    def printed_keys(self) -> tuple[str, ...]:
        """The list keys whose cards a card sheet prints, in order (a game without a ``sheet``)."""
        return self.entries

    def total(self, summary: dict) -> str:
        """What a list adds up to, as a tournament organiser reads it (from its check summary)."""
        return f"{summary['cards']} cards" if "cards" in summary else ""

    # -- analytics (stats, hand, odds) ------------------------------------------------------------

    def deck_view(self, lst, catalog, rules: dict):
        """The list as a deck of cards to count and draw from (a ``DeckView``); None: not a deck."""
        return None

    def stats_facts(self, loaded) -> dict:
        """What ``daimyo stats`` adds for this game (``loaded``: ``builder.analytics.stats.Loaded``),
        with its ``limits`` rows."""
        return {"limits": self.limits(loaded.lst, loaded.catalog, loaded.rules)}

    def stats_lines(self, stats: dict) -> list[str]:
        """The text lines of those facts."""
        return []

    def stats_charts(self, stats: dict) -> list[tuple[str, str, list, object]]:
        """The same facts drawn in a PDF: ``(heading, "table", rows with a header row, column
        widths as parts of the width)`` or ``(heading, "bars", (label, value) pairs, unit)``."""
        return []

    def hand_facts(self, loaded, rows) -> dict:
        """What a sample opening hand (``rows`` of the deck view) can do."""
        return {}

    def hand_lines(self, hand: dict) -> list[str]:
        return []

    def query_value(self, field: str, raw: str):
        """A short form of an odds query value (a Satsuma suit letter), or None."""
        return None

    # -- rules facts ------------------------------------------------------------------------------

    def limits(self, lst, catalog, rules: dict) -> list[dict]:
        """Every limit of the list with its value, bound and room left, as the check measures it."""
        limits = getattr(self.rules, "limits", None)
        return limits(lst, catalog, rules) if limits is not None else []


class Pick:
    """A name resolved through the list's catalog and packs."""

    def __init__(self, section: str | None, entry, name: str, field: str):
        self.section = section  # catalog section; None for a custom entry written in the list
        self.entry = entry
        self.name = name  # the catalog's spelling (or the list's, for a custom entry)
        self.field = field  # the list key that holds it


def same_as(pick: Pick, catalog):
    """A test: does a name written in the list name the picked entry?"""
    from builder.names import normalize

    want = normalize(pick.name)

    def same(written) -> bool:
        if not isinstance(written, (str, int, float)) or isinstance(written, bool):
            return False
        if normalize(str(written)) == want:
            return True
        if pick.section is None:
            return False
        other = catalog.find(pick.section, str(written))
        return other is not None and other.id == pick.entry.id

    return same


def loc_of(data, pick: Pick, catalog):
    """Where the picked entry is written in ``data``: (field, key) or (field, index)."""
    same = same_as(pick, catalog)
    holder = data.get(pick.field)
    if isinstance(holder, list):
        for i, a in enumerate(holder):
            if same(a):
                return (pick.field, i)
        return None
    if isinstance(holder, dict):
        for k in holder:
            if same(k):
                return (pick.field, k)
    return None


__all__ = [
    "COMMON_KEYS",
    "TEXT_KEYS",
    "UNSET",
    "GameSystem",
    "Pick",
    "fmt",
    "loc_of",
    "plural",
    "same_as",
    "text_value",
    "whole",
]
