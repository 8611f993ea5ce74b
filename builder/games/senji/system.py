"""Senji: the starting setup of a 3-6 player game: players with a family, a samurai card and
provinces (with units, a samurai figure, a fortress)."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from builder.errors import EditRefused, UnknownEntry
from builder.games.senji.packs import SenjiPacks
from builder.games.senji.rules import constants, setup_for, written_text
from builder.i18n import L_, Ln_, Text
from builder.names import did_you_mean, normalize
from builder.systems.base import GameSystem
from builder.systems.newlist import NewListPart, NewOption
from builder.systems.parts import part
from builder.systems.questions import QuestionsPart

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from builder.catalog.loader import Catalog
    from builder.games.senji.analytics import SenjiAnalytics
    from builder.games.senji.edits import SenjiEditing, SenjiPlayers
    from builder.games.senji.printing import SenjiPrinting
    from builder.games.senji.rules import SenjiList  # noqa: F401 - named as a string in the class's base
    from builder.games.senji.setup_sheet import SenjiSetupSheet
    from builder.games.senji.text import SenjiText
    from builder.games.senji.view import SenjiBrowse, SenjiView
    from builder.systems.parts import Cost, Entry, ListData, Options, Summary, Where


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
            was = written_text(((list_data.get("players") or [])[target[1]] or {}).get("samurai"))
            if was:
                what = L_(
                    "{name} as {who}'s samurai card (instead of {was})",
                    name=entry.name,
                    who=self.game.who_is(p),
                    was=was,
                )
            else:
                what = L_("{name} as {who}'s samurai card", name=entry.name, who=self.game.who_is(p))
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


class Senji(GameSystem["SenjiList", "Catalog"]):
    id = "senji"
    name = "Senji"
    title = "Senji (board game, 3-6 players)"
    kind = "setup"
    entries = ("players",)
    what = "setup"
    noun = "card"

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

    def player_list(self, data: ListData) -> list[dict[str, Any]]:
        """The setup's players (``players:``); refused when the list has no list of players to edit."""
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
            raise EditRefused(
                L_("the setup has no 'players:' list of players to edit"), L_("add 'players: []' to the file")
            )
        return players

    def find_player(
        self, players: list[dict[str, Any]], who: str | None, prefer: Callable[[dict[str, Any]], object]
    ) -> tuple[int, dict[str, Any]]:
        """The player named ``who`` (name or family); without a name, the first by ``prefer``."""
        if who is not None:
            for i, p in enumerate(players):
                if normalize(who) in (normalize(written_text(p.get("name"))), normalize(written_text(p.get("family")))):
                    return i, p

            names = [written_text(p.get("name")) for p in players if p.get("name") is not None]
            raise UnknownEntry(
                L_("no player '{who}' in the setup", who=who),
                did_you_mean(who, names) or L_("players: {values}", values=", ".join(names)),
            )
        if not players:
            raise EditRefused(L_("the setup has no players yet"), L_("add a family first: daimyo add setup.yaml red"))
        i = min(range(len(players)), key=lambda k: (prefer(players[k]), k))
        return i, players[i]

    def who_is(self, p: dict[str, Any]) -> str:
        """How the notes name player ``p``: its name, else its family."""
        return written_text(p.get("name")) or written_text(p.get("family")) or L_("the player")

    # -- the parts it changes (``builder.systems.parts``) ------------------------------------------
    players: part[SenjiPlayers] = part(".edits:SenjiPlayers")  # a Senji setup is one seat per player
    sheet: part[SenjiSetupSheet] = part(".setup_sheet:SenjiSetupSheet")  # printed instead of cards
    text: part[SenjiText] = part(".text:SenjiText")
    analytics: part[SenjiAnalytics] = part(".analytics:SenjiAnalytics")
    new_list = part(SenjiNewList)
    questions = part(SenjiQuestions)
    view: part[SenjiView] = part(".view:SenjiView")
    browse: part[SenjiBrowse] = part(".view:SenjiBrowse")
    printing: part[SenjiPrinting] = part(".printing:SenjiPrinting")
    packs = part(SenjiPacks)
    editing: part[SenjiEditing] = part(
        ".edits:SenjiEditing"
    )  # a player by family, a samurai card or province to a player


SYSTEM = Senji()
