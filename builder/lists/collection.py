"""What a player owns, per game: the collection behind ``daimyo collection``, ``check
--collection`` and the web builder's "Owned only" filter.

The collection is one YAML file, ``collection.yaml`` in the configuration folder (the folder of
``config.toml`` and the user packs; ``DAIMYO_COLLECTION`` names another file). Its top-level keys
are game ids; under each, a catalog section of the entries a list picks (the sections the
builder's catalog shows: ``cards``, ``troops``, ``action_cards``, ``samurai``...) maps a name to
what is owned of it (copies of a card, models of a troop), and ``expansions`` maps the name of a
pack of the game to how many of it are owned::

    senshiai:
      cards:
        Warriors: 3
      expansions:
        Senshiai example cards: 1
    kensei:
      troops:
        Yari Ashigaru: 10

No catalog of the five games records what a box or an expansion holds (the rulebooks print no
box contents), so an expansion is a pack: owning it N times owns each entry the pack writes, N
times (N copies of each card, N models of each troop). A box with several copies of a card is
written as the card with its copies, beside or instead of the expansion.

What a list uses of an entry is counted as the game holds it: copies of a card in a deck (a
published deck's cards too), models of a troop (one for a troop written without models), and,
in a setup by player, each family, samurai and province a player names, once. Entries written in
the list itself (custom cards) and names the catalog does not know are not counted: they are no
one's to own, and the check already reports an unknown name.

The file is read with the line and column of every value (a bad value is one located line,
exit 2) and written atomically, its comments and order kept.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from builder.catalog.loader import load_catalog
from builder.catalog.packfiles import config_dir, pack_files, read_header, resolve_pack, search_dirs
from builder.errors import DaimyoError, Diagnostic, UnknownEntry, UsageError
from builder.findings import Finding
from builder.i18n import _
from builder.kit.edit import dump_roundtrip, load_roundtrip
from builder.limits import MAX_NUMBER
from builder.lists.check import resolve_house_rules
from builder.names import did_you_mean, normalize
from builder.safeout import from_spreadsheet
from builder.systems import find_system, get, ids, is_system
from builder.yamlio import Positions, atomic_write, parse_yaml, read_for_edit, read_text

__all__ = [
    "CODE",
    "CSV_COLUMNS",
    "EXPANSIONS",
    "FILE_NAME",
    "Change",
    "Collection",
    "Holding",
    "Need",
    "Short",
    "Use",
    "apply_changes",
    "change_for",
    "collection_notes",
    "collection_path",
    "collection_sections",
    "game_id",
    "needs",
    "owned_counts",
    "parse_collection",
    "read_collection",
    "read_csv_changes",
    "resolve_name",
    "shortfall",
    "used_by",
]

FILE_NAME = "collection.yaml"
EXPANSIONS = "expansions"
#: the code of ``check --collection``'s note (an information, never an error)
CODE = "collection.short"
_DIAG = "collection"


def collection_path() -> Path:
    """The collection file: ``DAIMYO_COLLECTION``, or ``collection.yaml`` in the configuration
    folder."""
    env = os.environ.get("DAIMYO_COLLECTION")
    if env:
        return Path(env).expanduser()
    return config_dir() / FILE_NAME


def collection_sections(system: str) -> tuple[str, ...]:
    """The catalog sections of ``system`` whose entries a collection holds: those the builder's
    catalog offers beside a list."""
    return tuple(get(system).browse.sections)


@dataclass
class Holding:
    """What is owned of one game: ``entries`` (section -> name as written -> copies) and
    ``expansions`` (pack name -> how many)."""

    entries: dict[str, dict[str, int]] = field(default_factory=dict)
    expansions: dict[str, int] = field(default_factory=dict)

    def empty(self) -> bool:
        return not any(self.entries.values()) and not self.expansions


@dataclass
class Collection:
    """The collection file as read: ``games`` by id, and where each value was written."""

    file: str
    games: dict[str, Holding] = field(default_factory=dict)
    positions: Positions | None = None

    def holding(self, system: str) -> Holding:
        return self.games.get(system) or Holding()

    def add_notes(self, res: Any, doc: Any) -> None:
        """``check --collection``: this collection's notes among a check result's findings, and
        the list's shortfall (``collection_short``)."""
        notes, shorts = collection_notes(doc, self)
        res.findings = sorted([*res.findings, *notes], key=lambda f: (f.rank, f.line or 0, f.col or 0, f.code))
        res.collection_short = [s.to_json() for s in shorts]

    def at(self, *path: object) -> tuple[int, int]:
        return self.positions.at(tuple(path), prefer_key=True) if self.positions is not None else (0, 0)

    def rows(self, system: str | None = None) -> list[dict[str, Any]]:
        """One row per entry and expansion owned (``game``, ``section``, ``name``, ``copies``),
        in the file's order; of ``system`` alone when given."""
        out: list[dict[str, Any]] = []
        for game, h in self.games.items():
            if system is not None and game != system:
                continue
            for section, names in h.entries.items():
                out.extend({"game": game, "section": section, "name": n, "copies": c} for n, c in names.items())
            out.extend({"game": game, "section": EXPANSIONS, "name": n, "copies": c} for n, c in h.expansions.items())
        return out


# -- reading ----------------------------------------------------------------------------------


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_NUMBER


def read_collection(path: str | os.PathLike[str] | None = None) -> Collection:
    """The collection in ``path`` (the collection file by default); an empty one when the file
    does not exist. A bad value raises a DaimyoError with one located line per problem."""
    p = Path(path) if path is not None else collection_path()
    if not p.exists():
        return Collection(str(p))
    return parse_collection(read_text(p, _DIAG), str(p))


def parse_collection(text: str, shown: str) -> Collection:
    """The collection written in ``text`` (the file ``shown``); DaimyoError as ``read_collection``."""
    data, pos = parse_yaml(text, shown, _DIAG)
    coll = Collection(shown, positions=pos)
    diags: list[Diagnostic] = []

    def bad(at: tuple[Any, ...], message: str, hint: str | None = None) -> None:
        diags.append(pos.diag(at, message, code=_DIAG, hint=hint, prefer_key=True))

    if data is None:
        return coll
    if not isinstance(data, dict):
        raise DaimyoError(
            Diagnostic(shown, 1, 1, _("a collection is a mapping of game ids"), code=_DIAG, hint=_("e.g. 'senshiai:'"))
        )
    for game, body in data.items():
        if not isinstance(game, str) or game not in ids():
            bad(
                (game,),
                _("unknown game '{game}'").format(game=game),
                did_you_mean(str(game), ids()) or _("use one of {games}").format(games=", ".join(ids())),
            )
            continue
        system = get(game).id
        holding = coll.games.setdefault(system, Holding())
        if body is None:
            continue
        if not isinstance(body, dict):
            bad((game,), _("'{game}' holds sections of entries, each a mapping of names to copies").format(game=game))
            continue
        sections = collection_sections(system)
        for section, names in body.items():
            if section != EXPANSIONS and section not in sections:
                known = [*sections, EXPANSIONS]
                bad(
                    (game, section),
                    _("'{section}' is no section of {game} a collection holds").format(section=section, game=system),
                    did_you_mean(str(section), known) or _("use {sections}").format(sections=", ".join(known)),
                )
                continue
            if names is None:
                continue
            if not isinstance(names, dict):
                bad((game, section), _("'{section}' maps names to copies (e.g. 'Warriors: 3')").format(section=section))
                continue
            into = holding.expansions if section == EXPANSIONS else holding.entries.setdefault(section, {})
            seen: dict[str, str] = {}
            for name, copies in names.items():
                if not isinstance(name, str) or not name.strip():
                    bad((game, section, name), _("a name must be text, not {value}").format(value=repr(name)))
                    continue
                if not _count(copies):
                    bad(
                        (game, section, name),
                        _("'{name}': copies must be a whole number from 0 to {most}, not {value}").format(
                            name=name, most=f"{MAX_NUMBER:,}", value=repr(copies)
                        ),
                    )
                    continue
                key = normalize(name)
                if key in seen:
                    bad(
                        (game, section, name),
                        _("'{name}' is written twice (also as '{other}')").format(name=name, other=seen[key]),
                        _("write each name once, with its copies"),
                    )
                    continue
                seen[key] = name
                into[name] = copies
    if diags:
        raise DaimyoError(diags)
    return coll


# -- names --------------------------------------------------------------------------------------


def _game_packs(system: str) -> list[Path]:
    """The pack files of ``system`` in the workspace, the user packs folders and daimyo's bundled
    examples: what a name given to the collection may be, besides a catalog entry."""
    out: list[Path] = []
    for _where, folder in search_dirs():
        for f in pack_files(folder):
            if (read_header(f).system or "") == system:
                out.append(f)
    return out


def resolve_name(system: str, name: str) -> tuple[str, str]:
    """``(section, name as the catalog spells it)`` of an entry of ``system`` named ``name`` (its
    catalog, then each of its packs found), or ``("expansions", pack name)`` for a pack of the
    game; UnknownEntry with the nearest names otherwise."""
    sections = collection_sections(system)
    cat = load_catalog(system)
    for section in sections:
        e = cat.find(section, name)
        if e is not None:
            return section, e.name
    pack = resolve_pack(name, system=system, names_only=True)
    if pack is not None and (read_header(pack).system or "") == system:
        return EXPANSIONS, read_header(pack).name or pack.stem
    names = [n for s in sections for n in cat.names(s)]
    for f in _game_packs(system):
        try:
            with_pack = load_catalog(system, [str(f)])
        except DaimyoError:
            continue
        for section in sections:
            e = with_pack.find(section, name)
            if e is not None:
                return section, e.name
        names.extend(n for s in sections for n in with_pack.names(s))
        names.append(read_header(f).name or f.stem)
    hint = did_you_mean(name, sorted(set(names)))
    raise UnknownEntry(
        _("no {game} entry or pack is named '{name}'").format(game=system, name=name),
        hint or _("'daimyo catalog list {game}' lists the entries").format(game=system),
    )


# -- changing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """Add (``copies`` > 0) or remove (``copies`` < 0) copies of one entry or expansion."""

    system: str
    section: str
    name: str
    copies: int


def _find_key(mapping: Any, name: str) -> str | None:
    key = normalize(name)
    for k in mapping or {}:
        if isinstance(k, str) and normalize(k) == key:
            return k
    return None


def _step(tree: Any, ch: Change) -> None:
    game = tree.get(ch.system)
    if not isinstance(game, dict):
        game = tree[ch.system] = CommentedMap()
    names = game.get(ch.section)
    if not isinstance(names, dict):
        names = game[ch.section] = CommentedMap()
    key = _find_key(names, ch.name) or ch.name
    have = names.get(key, 0)
    have = have if _count(have) else 0
    new = have + ch.copies
    if new < 0:
        raise UsageError(
            _("the collection holds {have} of '{name}' ({game}); {n} cannot be removed").format(
                have=have, name=ch.name, game=ch.system, n=-ch.copies
            ),
            _("remove {have} or fewer").format(have=have) if have else None,
        )
    if new > MAX_NUMBER:
        raise UsageError(
            _("'{name}' would have {n} copies; a collection holds at most {most} of an entry").format(
                name=ch.name, n=f"{new:,}", most=f"{MAX_NUMBER:,}"
            )
        )
    if new == 0:
        names.pop(key, None)
        if not names:
            game.pop(ch.section, None)
        if not game:
            tree.pop(ch.system, None)
    else:
        names[key] = new


def apply_changes(changes: Sequence[Change], path: str | os.PathLike[str] | None = None) -> Collection:
    """Apply every change to the collection file, all or none (a change that cannot be made
    leaves the file as it was), and give the collection written. Comments and order are kept."""
    p = Path(path) if path is not None else collection_path()
    text = read_for_edit(p, _DIAG) if p.exists() else ""
    parse_collection(text, str(p))  # a bad file is refused before anything is written to it
    tree = load_roundtrip(text, str(p)) if text.strip() else None
    if tree is None:
        tree = CommentedMap()
    for ch in changes:
        _step(tree, ch)
    out = dump_roundtrip(tree) if tree else "{}\n"
    if not p.exists():  # a new file says what it is: a comment of one line, whatever the language
        head = _("What you own, per game: 'daimyo collection add GAME NAME' writes it (docs: collection.md)")
        out = "# " + " ".join(head.split()) + "\n" + out
    atomic_write(p, out)
    return read_collection(p)


# -- what is owned, what is used ----------------------------------------------------------------


def _key(section: str, name: str) -> tuple[str, str]:
    return section, normalize(name)


def _pack_entries(system: str, name: str, sections: Iterable[str]) -> list[tuple[str, str]]:
    """``(section, name)`` of each entry the pack ``name`` of ``system`` writes; UsageError when no
    such pack is found."""
    pack = resolve_pack(name, system=system, names_only=True)
    if pack is None:
        raise UsageError(
            _("the collection's expansion '{name}' is no {game} pack found in the packs folders").format(
                name=name, game=system
            ),
            _("install it, or remove it: 'daimyo collection remove {game} \"{name}\"'").format(game=system, name=name),
        )
    cat = load_catalog(system, [str(pack)])
    real = str(pack)
    out = []
    for section in sections:
        for e in cat.entries(section):
            if cat.from_pack.get((section, e.id)) == real:
                out.append((section, e.name))
    return out


def owned_counts(coll: Collection, system: str, catalog: Any) -> dict[tuple[str, str], int]:
    """What is owned of each entry of ``system``, keyed ``(section, normalized name)``: the entries
    written with their copies plus each expansion's entries times the expansion's count. Names are
    matched through ``catalog`` (aliases and spellings) when it knows them."""
    h = coll.holding(system)
    out: dict[tuple[str, str], int] = {}

    def own(section: str, name: str, n: int) -> None:
        e = catalog.find(section, name) if catalog is not None else None
        k = _key(section, e.name if e is not None else name)
        out[k] = out.get(k, 0) + n

    for section, names in h.entries.items():
        for name, n in names.items():
            own(section, name, n)
    for pack, n in h.expansions.items():
        if n:
            for section, name in _pack_entries(system, pack, collection_sections(system)):
                own(section, name, n)
    return out


@dataclass
class Use:
    """What a list uses of one entry: ``count`` of it, first written at ``loc`` (a path into the
    list)."""

    section: str
    name: str
    count: int
    loc: tuple[Any, ...] | None = None


def used_by(doc: Any, catalog: Any) -> dict[tuple[str, str], Use]:
    """What the list ``doc`` uses of each catalog entry, keyed ``(section, normalized name)``, in
    the order the list writes them (see the module's notes for what is counted)."""
    gs = get(doc.system)
    out: dict[tuple[str, str], Use] = {}

    def use(section: str, entry: Any, n: int, loc: tuple[Any, ...] | None) -> None:
        if entry is None or n <= 0:
            return
        k = _key(section, entry.name)
        hit = out.get(k)
        if hit is None:
            out[k] = Use(section, entry.name, n, loc)
        else:
            hit.count += n

    data = doc.data
    for key, section, items in gs.editing.held(data, catalog):
        holder = data.get(key)
        for i, (written, value) in enumerate(items):
            n = value if isinstance(value, int) and not isinstance(value, bool) else 1
            if isinstance(value, dict):  # a card written in the list itself: no one's to own
                continue
            # where the list writes it: its key, its place in a list, or (a published deck
            # named by a word) nowhere of its own
            at = (key, written) if isinstance(holder, dict) else (key, i) if isinstance(holder, list) else None
            use(section, catalog.find(section, str(written)), n, at)
    sections = collection_sections(doc.system)
    if gs.units is not None:
        rules = resolve_house_rules(doc, catalog)
        for i, row in enumerate(gs.units.unit_rows(doc, catalog, rules)):
            entry = row["entry"]
            if entry is None:
                continue
            for section in sections:
                found = catalog.find(section, row["name"])
                if found is not None and getattr(found, "id", None) == getattr(entry, "id", None):
                    use(section, found, int(row["models"]), ("troops", i))
                    break
    if gs.players is not None:
        for seat in gs.players.seats(data):
            i = seat["index"]
            named: list[tuple[Any, tuple[Any, ...]]] = [
                (seat.get("family"), (i, "family")),
                (seat.get("samurai"), (i, "samurai")),
            ]
            named += [(pr["name"], (i, "provinces", pr["index"])) for pr in seat.get("provinces") or []]
            for name, at in named:
                if not name:
                    continue
                section, entry = catalog.find_any(str(name), list(sections))
                if section is not None:
                    use(section, entry, 1, ("players", *at))
    return out


@dataclass(frozen=True)
class Short:
    """An entry used beyond what is owned: ``used`` of it, ``owned`` of it."""

    section: str
    name: str
    used: int
    owned: int
    loc: tuple[Any, ...] | None = None

    @property
    def missing(self) -> int:
        return self.used - self.owned

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "used": self.used, "owned": self.owned}


def shortfall(used: dict[tuple[str, str], Use], owned: dict[tuple[str, str], int]) -> list[Short]:
    """The entries used beyond what is owned, in the order they are used."""
    out = []
    for k, u in used.items():
        have = owned.get(k, 0)
        if u.count > have:
            out.append(Short(u.section, u.name, u.count, have, u.loc))
    return out


def collection_notes(doc: Any, coll: Collection, catalog: Any = None) -> tuple[list[Finding], list[Short]]:
    """``check --collection``: a note (severity info) for each entry the checked list ``doc`` uses
    beyond what ``coll`` holds, and the shortfall itself. ``catalog``: the list's (by default the
    one its check read it with)."""
    if catalog is None:
        loaded = getattr(doc, "loaded", None)
        if loaded is None:
            catalog = load_catalog(doc.system, list(doc.packs))
        else:
            catalog = loaded[1]
    shorts = shortfall(used_by(doc, catalog), owned_counts(coll, doc.system, catalog))
    notes = []
    for s in shorts:
        f = Finding(
            "info",
            CODE,
            _("the list uses {used} of '{name}'; the collection holds {owned} ({missing} short)").format(
                used=s.used, name=s.name, owned=s.owned, missing=s.missing
            ),
            loc=s.loc,
        )
        if s.loc is not None:
            f.line, f.col = doc.at(s.loc)
        notes.append(f)
    return notes, shorts


@dataclass(frozen=True)
class Need:
    """What fielding lists together needs of one entry beyond what is owned."""

    system: str
    section: str
    name: str
    needed: int
    owned: int

    @property
    def missing(self) -> int:
        return self.needed - self.owned

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.system,
            "section": self.section,
            "name": self.name,
            "needed": self.needed,
            "owned": self.owned,
            "missing": self.missing,
        }


def needs(docs: Sequence[Any], coll: Collection, each: bool = False) -> list[Need]:
    """What is missing to field every list of ``docs`` (checked documents, or read ones) together:
    per entry, the sum of what the lists of its game use (``each``: the most any one list uses,
    for lists fielded one at a time), against what ``coll`` holds. In the order the lists use them."""
    per_game: dict[str, dict[tuple[str, str], Use]] = {}
    catalogs: dict[str, Any] = {}
    for doc in docs:
        loaded = getattr(doc, "loaded", None)
        catalog = loaded[1] if loaded is not None else load_catalog(doc.system, list(doc.packs))
        catalogs.setdefault(doc.system, catalog)
        total = per_game.setdefault(doc.system, {})
        for k, u in used_by(doc, catalog).items():
            hit = total.get(k)
            if hit is None:
                total[k] = Use(u.section, u.name, u.count, u.loc)
            else:
                hit.count = max(hit.count, u.count) if each else hit.count + u.count
    out = []
    for system, used in per_game.items():
        for s in shortfall(used, owned_counts(coll, system, catalogs[system])):
            out.append(Need(system, s.section, s.name, s.used, s.owned))
    return out


def game_id(name: str) -> str:
    """The id of the game ``name`` names (id, name or alias)."""
    return find_system(name.strip()).id


# -- a spreadsheet of what is owned ---------------------------------------------------------------

#: the columns ``collection import`` reads (``section`` may be given too, as ``collection list
#: --format csv`` writes it)
CSV_COLUMNS = ("game", "name", "copies")
#: rows one import reads at most
MAX_IMPORT_ROWS = 100_000


def _find_owned(coll: Collection, system: str, name: str) -> tuple[str, str] | None:
    """``(section, name as written)`` of an entry or expansion the collection holds by ``name``."""
    h = coll.holding(system)
    for section, names in [*h.entries.items(), (EXPANSIONS, h.expansions)]:
        key = _find_key(names, name)
        if key is not None:
            return section, key
    return None


def change_for(coll: Collection, system: str, name: str, copies: int) -> Change:
    """The change adding (``copies`` > 0) or removing copies of ``name`` of ``system``: a name the
    collection holds is taken as it is written there; any other is looked up (``resolve_name``)."""
    held = _find_owned(coll, system, name)
    section, written = held if held is not None else resolve_name(system, name)
    return Change(system, section, written, copies)


def read_csv_changes(path: str | os.PathLike[str], coll: Collection) -> list[Change]:
    """The additions a CSV file of ``game,name,copies`` rows gives (a first row naming the
    columns is optional; ``section`` may be a column too). Every row is checked before any is
    taken: a bad row is a DaimyoError with one ``FILE:LINE`` line per bad row."""
    shown = str(path)
    text = read_text(path, _DIAG)
    reader = csv.reader(io.StringIO(text))
    rows, lines = [], []
    try:
        for row in reader:
            rows.append(row)
            lines.append(reader.line_num)
    except csv.Error as exc:
        raise DaimyoError(
            Diagnostic(shown, reader.line_num, 1, _("not CSV: {why}").format(why=exc), code=_DIAG)
        ) from None
    diags: list[Diagnostic] = []
    columns = {c: i for i, c in enumerate(CSV_COLUMNS)}
    first = 0
    if rows and {c.strip().lower() for c in rows[0]} >= set(CSV_COLUMNS):
        columns = {c.strip().lower(): i for i, c in enumerate(rows[0])}
        first = 1
    if len(rows) - first > MAX_IMPORT_ROWS:
        raise DaimyoError(Diagnostic(shown, 0, 0, _("more than {n} rows").format(n=f"{MAX_IMPORT_ROWS:,}"), code=_DIAG))
    out: list[Change] = []
    for row, no in zip(rows[first:], lines[first:], strict=True):
        if not any(cell.strip() for cell in row):
            continue

        def cell(col: str, row: list[str] = row) -> str:
            i = columns.get(col)
            return from_spreadsheet(row[i].strip()) if i is not None and i < len(row) else ""

        def bad(message: str, hint: str | None = None, no: int = no) -> None:
            diags.append(Diagnostic(shown, no, 1, message, code=_DIAG, hint=hint))

        game, name, copies = cell("game"), cell("name"), cell("copies")
        if not game or not name:
            bad(_("a row needs a game and a name (columns: game,name,copies)"))
            continue
        if not is_system(game):
            bad(_("unknown game '{game}'").format(game=game), did_you_mean(game, ids()) or None)
            continue
        try:
            n = int(copies) if copies else 1
        except ValueError:
            n = -1
        if not 1 <= n <= MAX_NUMBER:
            bad(
                _("copies must be a whole number from 1 to {most}, not '{value}'").format(
                    most=f"{MAX_NUMBER:,}", value=copies
                )
            )
            continue
        try:
            out.append(change_for(coll, game_id(game), name, n))
        except DaimyoError as exc:
            bad(exc.diagnostics[0].message)
    if diags:
        raise DaimyoError(diags)
    if not out:
        raise DaimyoError(
            Diagnostic(
                shown, 0, 0, _("no rows to import"), code=_DIAG, hint=_("write one row per entry: game,name,copies")
            )
        )
    return out
