"""Senji's parts that change a setup: its seats (``gs.players``) and how add and remove change
it (``gs.editing``). Each is made from the game when first asked for, so the edit toolkit
(ruamel.yaml) loads only with them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from builder.errors import EditRefused, UnknownEntry, UsageError, command_line, option
from builder.games.senji.rules import written_text
from builder.i18n import L_, Ln_
from builder.names import did_you_mean, normalize
from builder.systems.editing import EditingPart

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import ListData, Row, Where


class SenjiPlayers:
    """A Senji setup's seats, one per player (the ``Players`` part): each player's family,
    samurai card and provinces, as the builder shows and changes them."""

    def __init__(self, game: Any) -> None:
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
                        "name": written_text(m.get("province")) or "?",
                        "units": units if isinstance(units, int) and not isinstance(units, bool) else 0,
                        "samurai": m.get("samurai") is True,
                    }
                )
            out.append(
                {
                    "index": i,
                    "name": written_text(p.get("name")) or f"Player {i + 1}",
                    "family": written_text(p.get("family")),
                    "samurai": written_text(p.get("samurai")),
                    "provinces": provinces,
                }
            )
        return out

    def set_part(self, data: ListData, catalog: Catalog, where: Where, field: str, value: object) -> list[str]:
        """A player's ``name``, ``family`` or ``samurai`` card (``where``: ("players", i)), or a
        province's ``units`` or ``samurai`` figure (("players", i, "provinces", j)); the field
        ``remove`` takes that player or that province off the setup."""
        players = self.game.player_list(data)
        try:
            i = int(where[1])
            p = players[i]
        except (IndexError, TypeError, ValueError):
            raise EditRefused(L_("no such player in the setup")) from None
        value = "" if value is None else str(value).strip()
        if len(where) == 2:
            if field == "remove":  # this player, whatever the others are called
                del players[i]
                return [L_("removed player {n}, {who}", n=i + 1, who=self.game.who_is(p))]
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
                        return [L_("{who}: no family", who=self.game.who_is(p))]
                    return [L_("{who}: no samurai", who=self.game.who_is(p))]
                entry = catalog.find(section, value)
                if entry is None:
                    raise UnknownEntry(
                        L_("unknown {field} '{value}'", field=field, value=value),
                        catalog.did_you_mean(section, value) or None,
                    )
                p[field] = entry.name
                if field == "family":
                    return [L_("{who}: family {name}", who=self.game.who_is(p), name=entry.name)]
                return [L_("{who}: samurai {name}", who=self.game.who_is(p), name=entry.name)]
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
                    name=written_text(pr.get("province") if isinstance(pr, dict) else pr),
                    who=self.game.who_is(p),
                )
            ]
        if not isinstance(pr, dict):
            j = int(where[3])
            pr = p["provinces"][j] = _map(data, {"province": pr}, flow=True)
        name = written_text(pr.get("province"))
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
        players = self.game.player_list(data)
        if section == "families":
            if count is not None:
                raise UsageError(L_("{option} gives the units on a province, not a family", option=option("count")))
            taken = {normalize(written_text(p.get("family"))) for p in players}
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
            i, p = self.game.find_player(players, player, lambda p: p.get("samurai") is not None)
            old = p.get("samurai")
            p["samurai"] = entry.name
            if old:
                note = L_(
                    "{who} takes {name} as samurai card (instead of {old})",
                    who=self.game.who_is(p),
                    name=entry.name,
                    old=old,
                )
            else:
                note = L_("{who} takes {name} as samurai card", who=self.game.who_is(p), name=entry.name)
            return [note], ("players", i, "samurai")
        if count is not None and count < 1:
            raise UsageError(
                L_("{option} must be at least 1, not {count}", option=option("count"), count=count),
                L_("the units on the province"),
            )
        i, p = self.game.find_player(players, player, lambda p: len(p.get("provinces") or []))
        provinces = p.get("provinces")
        if not isinstance(provinces, list):
            provinces = p["provinces"] = _seq(data)
        item = {"province": entry.name}
        if count is not None:
            item["units"] = count
        provinces.append(_map(data, item, flow=True))
        where = L_("{name} to {who}'s provinces", name=entry.name, who=self.game.who_is(p))
        if count is not None:
            where = Ln_("{where} with {n} unit", "{where} with {n} units", count, where=where)
        return [L_("added {what}", what=where)], (
            "players",
            i,
            "provinces",
            len(provinces) - 1,
        )

    def remove(self, data: ListData, catalog: Catalog, name: str, count: int | None = 1, **options: Any) -> list[str]:
        players = self.game.player_list(data)
        want = normalize(name)
        try:
            section, entry = self.game.resolve(catalog, name)
            want_id = entry.id
        except UnknownEntry:
            section, entry, want_id = None, None, None

        def same(written: object, sec: Any) -> bool:
            text = written_text(written)
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
                    return [
                        L_("removed {name} from {who}'s provinces", name=written_text(written), who=self.game.who_is(p))
                    ]
        for p in players:
            if same(p.get("samurai"), "samurai"):
                old = p.pop("samurai")
                return [L_("removed {name}, {who}'s samurai card", name=old, who=self.game.who_is(p))]
        for i, p in enumerate(players):
            if normalize(written_text(p.get("name"))) == want or same(p.get("family"), "families"):
                del players[i]
                return [L_("removed player {who}", who=self.game.who_is(p))]
        listed = [
            written_text(x)
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


def _map(data: object, item: dict, flow: bool = False) -> dict:
    """``item`` as a round-trip mapping when ``data`` is one (so it is written like its neighbours)."""
    if not hasattr(data, "ca"):
        return item

    m = CommentedMap(item)
    if flow:
        m.fa.set_flow_style()
    return m


def _seq(data: object) -> list:
    if not hasattr(data, "ca"):
        return []

    return CommentedSeq()
