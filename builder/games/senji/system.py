"""Senji: the starting setup of a 3-6 player game: players with a family, a samurai card and
provinces (with units, a samurai figure, a fortress)."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from builder.catalog.loader import load_catalog
from builder.errors import DaimyoError, EditRefused, UnknownEntry, UsageError, command_line, option
from builder.games.senji.packs import SenjiPacks
from builder.games.senji.rules import constants, printed_name, setup_for
from builder.i18n import L_, Ln_, Text
from builder.names import did_you_mean, normalize
from builder.systems.base import GameSystem
from builder.systems.editing import EditingPart
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.parts import part
from builder.systems.questions import QuestionsPart

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from builder.catalog.loader import Catalog
    from builder.games.senji.analytics import SenjiAnalytics
    from builder.games.senji.printing import SenjiPrinting
    from builder.games.senji.rules import SenjiList
    from builder.games.senji.text import SenjiText
    from builder.games.senji.view import SenjiBrowse, SenjiView
    from builder.systems.parts import Cost, Entry, ListData, Options, PreviewLine, Row, Summary, Where


def _written(value: object) -> str:
    return str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else ""


class SenjiSetupSheet:
    """The setup sheet Senji prints instead of cards (the ``SheetPrinter`` part)."""

    kind = "setup"
    what = "setup sheet"
    line_section = "provinces"

    def render(
        self,
        doc: Any,
        catalog: Catalog,
        lst: SenjiList,
        result: Any,
        out_path: Path,
        *,
        unit_cards: bool = False,
        card: object = None,
        **options: Any,
    ) -> Path:
        from builder.games.senji.setup_sheet import render_setup  # noqa: PLC0415 - the setup sheet (reportlab) only when printing; `daimyo check` loads none

        return render_setup(doc, catalog, lst, result, out_path, **options)

    def preview_line(self, pack_path: Path, name: str) -> PreviewLine | None:
        """Province ``name`` on the setup sheet: named first, with its fortress and a unit."""
        header = ["#", "Province (naming order)", "Fortress", "Units", "Samurai"]
        try:
            catalog = load_catalog("senji", [str(pack_path)])
            if catalog.find("provinces", name) is None:
                return None
            return {
                "header": header,
                "cells": ["1", printed_name(catalog, "provinces", name), "1", "1", ""],
                "notes": [],
            }
        except DaimyoError:
            return None


class SenjiPlayers:
    """A Senji setup's seats, one per player (the ``Players`` part): each player's family,
    samurai card and provinces, as the builder shows and changes them."""

    def __init__(self, game: Senji) -> None:
        self.game = game

    seat_words = {
        "add_to": "Samurai cards and provinces from the catalog go to",
        "add_to_any": "the player who needs one",
        "family": "family",
        "card": "samurai card",
        "no_card": "no samurai card yet",
        "parts": "provinces",
        "no_parts": "No provinces yet: add them from the catalog.",
        "count": "units",
        "figure": "samurai",
        "figure_in": "samurai figure in",
    }

    def seats(self, data: ListData) -> list[Row]:
        """Each player of the setup as the builder shows it: ``index``, ``name``, ``family``,
        ``samurai`` and ``provinces`` (``index``, ``name``, ``units``, ``samurai`` figure)."""
        out = []
        for i, p in enumerate(data.get("players") or []):
            if not isinstance(p, dict):
                continue
            provinces = []
            for j, pr in enumerate(p.get("provinces") or []):
                m = pr if isinstance(pr, dict) else {"province": pr}
                units = m.get("units")
                provinces.append(
                    {
                        "index": j,
                        "name": _written(m.get("province")) or "?",
                        "units": units if isinstance(units, int) and not isinstance(units, bool) else 0,
                        "samurai": m.get("samurai") is True,
                    }
                )
            out.append(
                {
                    "index": i,
                    "name": _written(p.get("name")) or f"Player {i + 1}",
                    "family": _written(p.get("family")),
                    "samurai": _written(p.get("samurai")),
                    "provinces": provinces,
                }
            )
        return out

    def set_part(self, data: ListData, catalog: Catalog, where: Where, field: str, value: object) -> list[str]:
        """A player's ``name``, ``family`` or ``samurai`` card (``where``: ("players", i)), or a
        province's ``units`` or ``samurai`` figure (("players", i, "provinces", j)); the field
        ``remove`` takes that player or that province off the setup."""
        players = self.game._players(data)
        try:
            i = int(where[1])
            p = players[i]
        except (IndexError, TypeError, ValueError):
            raise EditRefused(L_("no such player in the setup")) from None
        value = "" if value is None else str(value).strip()
        if len(where) == 2:
            if field == "remove":  # this player, whatever the others are called
                del players[i]
                return [L_("removed player {n}, {who}", n=i + 1, who=self.game._who(p))]
            if field == "name":
                if not value:
                    raise UsageError(L_("a player needs a name"))
                p["name"] = value[:100]
                return [L_("player {n} is called {name}", n=i + 1, name=p["name"])]
            if field in ("family", "samurai"):
                section = "families" if field == "family" else "samurai"
                if not value:
                    if field in p:
                        del p[field]
                    if field == "family":
                        return [L_("{who}: no family", who=self.game._who(p))]
                    return [L_("{who}: no samurai", who=self.game._who(p))]
                entry = catalog.find(section, value)
                if entry is None:
                    raise UnknownEntry(
                        L_("unknown {field} '{value}'", field=field, value=value),
                        catalog.did_you_mean(section, value) or None,
                    )
                p[field] = entry.name
                if field == "family":
                    return [L_("{who}: family {name}", who=self.game._who(p), name=entry.name)]
                return [L_("{who}: samurai {name}", who=self.game._who(p), name=entry.name)]
            raise UsageError(L_("a player has no setting '{field}'", field=field), L_("name, family or samurai"))
        try:
            pr = (p.get("provinces") or [])[int(where[3])]
        except (IndexError, TypeError, ValueError):
            raise EditRefused(L_("no such province of that player")) from None
        if field == "remove":  # this province of this player, not one of the same name elsewhere
            del p["provinces"][int(where[3])]
            return [
                L_(
                    "removed {name} from {who}'s provinces",
                    name=_written(pr.get("province") if isinstance(pr, dict) else pr),
                    who=self.game._who(p),
                )
            ]
        if not isinstance(pr, dict):
            j = int(where[3])
            pr = p["provinces"][j] = _map(data, {"province": pr}, flow=True)
        name = _written(pr.get("province"))
        if field == "units":
            try:
                n = int(value or 0)
            except ValueError:
                raise UsageError(L_("units must be a whole number, not '{value}'", value=value)) from None
            if not 0 <= n <= 99:
                raise UsageError(L_("units must be between 0 and 99, not {n}", n=n))
            if n:
                pr["units"] = n
            elif "units" in pr:
                del pr["units"]
            return [Ln_("{name}: {n} unit", "{name}: {n} units", n, name=name)]
        if field == "samurai":
            on = value.lower() in ("1", "true", "on", "yes")
            if on:
                pr["samurai"] = True
            elif "samurai" in pr:
                del pr["samurai"]
            if on:
                return [L_("{name}: the samurai figure", name=name)]
            return [L_("{name}: no samurai figure", name=name)]
        raise UsageError(L_("a province has no setting '{field}'", field=field), L_("units or samurai"))


class SenjiQuestions(QuestionsPart):
    """What adding an entry to a Senji list would do (``gs.questions``)."""

    def candidates(self, catalog: Catalog) -> Iterator[tuple[str, Entry, str | None, Cost | None]]:
        for section in ("families", "samurai", "provinces"):
            for e in catalog.entries(section):
                yield section, e, section, None

    def trial(self, data: ListData, catalog: Catalog, section: str, entry: Any) -> tuple[ListData, Where | None, int]:
        trial = {**data, "players": copy.deepcopy(data.get("players"))}
        _notes, target = self.game.editing.add(trial, catalog, entry.name, trial=True)
        return trial, target, 1

    def left(
        self, section: str, summary: Summary, data: ListData, entry: object, catalog: Catalog
    ) -> tuple[Cost | None, str | None]:
        if section != "provinces":
            return None, None
        most = constants(catalog)["starting_provinces"]
        fewest = min(
            (len(p.get("provinces") or []) for p in data.get("players") or [] if isinstance(p, dict)), default=0
        )
        return most - fewest, "provinces"

    def describe_addition(
        self, comparison: Any, data: ListData, catalog: Catalog, name: str, count: int | None, list_data: ListData
    ) -> tuple[str, str, str | None]:
        target: tuple = getattr(comparison, "target", None) or ()
        note = comparison.notes[-1]
        what: str = note.removeprefix("added ")
        if isinstance(note, Text) and note.template == "added {what}":  # its words, in any language
            what = note.params["what"]
        if len(target) == 3 and target[2] == "samurai":  # a samurai card: say whose it would be
            p = (data.get("players") or [])[target[1]]
            _section, entry = self.game.resolve(catalog, name)
            was = _written(((list_data.get("players") or [])[target[1]] or {}).get("samurai"))
            if was:
                what = L_(
                    "{name} as {who}'s samurai card (instead of {was})", name=entry.name, who=self.game._who(p), was=was
                )
            else:
                what = L_("{name} as {who}'s samurai card", name=entry.name, who=self.game._who(p))
        n = len(data.get("players") or [])
        # "1 players" in English as before; another language chooses its form by the count
        return what, Ln_("the setup would have {n} players", "the setup would have {n} players", n), None


class SenjiNewList(NewListPart):
    """How a new Senji list starts (``gs.new_list``): its options and the fields of the new-list form."""

    options = frozenset({"players"})
    example = "Friday game"

    def declare(self, catalog: Catalog) -> list[NewOption]:
        c = constants(catalog)
        return [
            NewOption(
                "players",
                L_("Players"),
                "number",
                help=L_("the number of players"),
                start=c["players_min"],
                min=c["players_min"],
                max=c["players_max"],
                required=True,
            )
        ]

    def body(self, data: ListData, catalog: Catalog, options: Options) -> list[str]:
        n = options["players"]
        setup = setup_for(n, catalog)
        out = {f.id for f in setup[0]} if setup else set()
        families = [f for f in catalog.entries("families") if f.id not in out][:n]
        data["players"] = [
            {"name": f"Player {i + 1}", "family": f.name, "provinces": []} for i, f in enumerate(families)
        ]
        return [
            "families " + ", ".join(f.name for f in families) + f" (those in play with {n} players); "
            "give each player a samurai card and three provinces"
        ]


class SenjiEditing(EditingPart):
    """How add and remove change a setup: a family makes a player; a samurai card or a province
    goes to a player (``--player``, else the one who lacks it most)."""

    add_options = frozenset({"player", "count"})
    remove_options = frozenset()

    def option_refusal(self, verb: str, opt: str) -> str:
        if verb == "remove":
            return f"{option(opt)} does not apply to 'remove' of a senji setup: it takes a player, family, samurai or province"
        return super().option_refusal(verb, opt)

    def add(
        self,
        data: ListData,
        catalog: Catalog,
        name: str,
        count: int | None = None,
        *,
        player: str | None = None,
        trial: bool = False,
        **options: Any,
    ) -> tuple[list[str], Where | None]:
        section, entry = self.game.resolve(catalog, name)
        players = self.game._players(data)
        if section == "families":
            if count is not None:
                raise UsageError(L_("{option} gives the units on a province, not a family", option=option("count")))
            taken = {normalize(_written(p.get("family"))) for p in players}
            label = player or f"Player {len(players) + 1}"
            item = {"name": label, "family": entry.name, "provinces": []}
            players.append(_map(data, item))
            if normalize(entry.name) in taken:
                note = L_(
                    "added player {name} with the {family} family (another player has that family already)",
                    name=label,
                    family=entry.name,
                )
            else:
                note = L_("added player {name} with the {family} family", name=label, family=entry.name)
            return [note], ("players", len(players) - 1)
        if section == "samurai":
            if count is not None:
                raise UsageError(
                    L_("{option} gives the units on a province, not a samurai card", option=option("count"))
                )
            if player is None and all(p.get("samurai") is not None for p in players):
                raise EditRefused(
                    L_("every player has a samurai card already"),
                    L_(
                        "choose the player whose card it replaces{command_line}",
                        command_line=command_line(f" with {option('player')}"),
                    ),
                )
            i, p = self.game._player(players, player, lambda p: p.get("samurai") is not None)
            old = p.get("samurai")
            p["samurai"] = entry.name
            if old:
                note = L_(
                    "{who} takes {name} as samurai card (instead of {old})",
                    who=self.game._who(p),
                    name=entry.name,
                    old=old,
                )
            else:
                note = L_("{who} takes {name} as samurai card", who=self.game._who(p), name=entry.name)
            return [note], ("players", i, "samurai")
        if count is not None and count < 1:
            raise UsageError(
                L_("{option} must be at least 1, not {count}", option=option("count"), count=count),
                L_("the units on the province"),
            )
        i, p = self.game._player(players, player, lambda p: len(p.get("provinces") or []))
        provinces = p.get("provinces")
        if not isinstance(provinces, list):
            provinces = p["provinces"] = _seq(data)
        item = {"province": entry.name}
        if count is not None:
            item["units"] = count
        provinces.append(_map(data, item, flow=True))
        where = L_("{name} to {who}'s provinces", name=entry.name, who=self.game._who(p))
        if count is not None:
            where = Ln_("{where} with {n} unit", "{where} with {n} units", count, where=where)
        return [L_("added {what}", what=where)], (
            "players",
            i,
            "provinces",
            len(provinces) - 1,
        )

    def remove(self, data: ListData, catalog: Catalog, name: str, count: int | None = 1, **options: Any) -> list[str]:
        players = self.game._players(data)
        want = normalize(name)
        try:
            section, entry = self.game.resolve(catalog, name)
            want_id = entry.id
        except UnknownEntry:
            section, entry, want_id = None, None, None

        def same(written: object, sec: Any) -> bool:
            text = _written(written)
            if not text:
                return False
            if normalize(text) == want:
                return True
            other = catalog.find(sec, text) if want_id is not None and sec == section else None
            return other is not None and other.id == want_id

        for p in players:
            for j, pr in enumerate(p.get("provinces") or []):
                written = pr.get("province") if isinstance(pr, dict) else pr
                if same(written, "provinces"):
                    del p["provinces"][j]
                    return [L_("removed {name} from {who}'s provinces", name=_written(written), who=self.game._who(p))]
        for p in players:
            if same(p.get("samurai"), "samurai"):
                old = p.pop("samurai")
                return [L_("removed {name}, {who}'s samurai card", name=old, who=self.game._who(p))]
        for i, p in enumerate(players):
            if normalize(_written(p.get("name"))) == want or same(p.get("family"), "families"):
                del players[i]
                return [L_("removed player {who}", who=self.game._who(p))]
        listed = [
            _written(x)
            for p in players
            for x in [
                p.get("name"),
                p.get("family"),
                p.get("samurai"),
                *[(pr.get("province") if isinstance(pr, dict) else pr) for pr in p.get("provinces") or []],
            ]
        ]
        raise UnknownEntry(
            L_("no '{name}' in the setup", name=name), did_you_mean(name, [x for x in listed if x]) or None
        )


class Senji(GameSystem["SenjiList", "Catalog"]):
    id = "senji"
    name = "Senji"
    title = "Senji (board game, 3-6 players)"
    kind = "setup"
    entries = ("players",)
    what = "setup"
    noun = "card"

    def __init__(self) -> None:
        self.players = SenjiPlayers(self)  # a Senji setup is one seat per player
        self.sheet = SenjiSetupSheet()

    def resolve(self, catalog: Catalog, name: str) -> tuple[str, Any]:
        """``(section, entry)`` of a family, samurai card or province called ``name``."""
        for section in ("provinces", "samurai", "families"):
            entry = catalog.find(section, name)
            if entry is not None:
                return section, entry

        cands = [c for s in ("provinces", "samurai", "families") for c in catalog.suggest(s, name)]
        raise UnknownEntry(
            L_("unknown family, samurai or province '{name}'", name=name),
            did_you_mean(name, cands) or L_("see 'daimyo catalog list senji provinces' (or samurai, families)"),
        )

    def _players(self, data: ListData) -> list[dict[str, Any]]:
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
            raise EditRefused(
                L_("the setup has no 'players:' list of players to edit"), L_("add 'players: []' to the file")
            )
        return players

    def _player(
        self, players: list[dict[str, Any]], who: str | None, prefer: Callable[[dict[str, Any]], object]
    ) -> tuple[int, dict[str, Any]]:
        """The player named ``who`` (name or family); without a name, the first by ``prefer``."""
        if who is not None:
            for i, p in enumerate(players):
                if normalize(who) in (normalize(_written(p.get("name"))), normalize(_written(p.get("family")))):
                    return i, p

            names = [_written(p.get("name")) for p in players if p.get("name") is not None]
            raise UnknownEntry(
                L_("no player '{who}' in the setup", who=who),
                did_you_mean(who, names) or L_("players: {values}", values=", ".join(names)),
            )
        if not players:
            raise EditRefused(L_("the setup has no players yet"), L_("add a family first: daimyo add setup.yaml red"))
        i = min(range(len(players)), key=lambda k: (prefer(players[k]), k))
        return i, players[i]

    def _who(self, p: dict[str, Any]) -> str:
        return _written(p.get("name")) or _written(p.get("family")) or L_("the player")

    # -- the parts it changes (``builder.systems.parts``) ------------------------------------------
    text: part[SenjiText] = part(".text:SenjiText")
    analytics: part[SenjiAnalytics] = part(".analytics:SenjiAnalytics")
    new_list = part(SenjiNewList)
    questions = part(SenjiQuestions)
    view: part[SenjiView] = part(".view:SenjiView")
    browse: part[SenjiBrowse] = part(".view:SenjiBrowse")
    printing: part[SenjiPrinting] = part(".printing:SenjiPrinting")
    packs = part(SenjiPacks)
    editing = part(SenjiEditing)  # a player by family, a samurai card or province to a player


def _map(data: object, item: dict, flow: bool = False) -> dict:
    """``item`` as a round-trip mapping when ``data`` is one (so it is written like its neighbours)."""
    if not hasattr(data, "ca"):
        return item
    from ruamel.yaml.comments import CommentedMap  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

    m = CommentedMap(item)
    if flow:
        m.fa.set_flow_style()
    return m


def _seq(data: object) -> list:
    if not hasattr(data, "ca"):
        return []
    from ruamel.yaml.comments import CommentedSeq  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

    return CommentedSeq()


SYSTEM = Senji()
