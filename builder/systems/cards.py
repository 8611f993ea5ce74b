"""``CardGame``: the editing shared by the deck games (Senshiai, HeroCard, Satsuma Rebellion).

A deck is a mapping of card names to copies; ``add`` and ``remove`` change copies, deck-builder
style, write new cards with the catalog's spelling after the last card of their type, and keep
the comment lines above the card they introduce.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from builder.errors import EditRefused, UnknownEntry, UsageError, option
from builder.i18n import L_, Ln_
from builder.names import did_you_mean
from builder.systems.base import GameCatalog, GameList, GameSystem, Pick, loc_of, same_as
from builder.systems.editing import EditingPart
from builder.systems.parts import Cost, Entry, ListData, Summary, Where, part
from builder.systems.questions import QuestionsPart
from builder.systems.view import BrowsePart


def copies(mapping: Mapping[Any, Any], keys: Iterable[Any]) -> int:
    total = 0
    for k in keys:
        v = mapping[k]
        total += int(v.get("count", 1)) if isinstance(v, dict) else int(v)
    return total


def mapping_of(data: ListData, key: str) -> dict[Any, Any]:
    m = data.get(key)
    if not isinstance(m, dict):
        raise EditRefused(
            L_("the list has no '{key}:' mapping to edit", key=key), L_("add '{key}: {{}}' to the file", key=key)
        )
    return m


class CardBrowse(BrowsePart):
    """The catalog beside a deck: the sections its cards are looked up in."""

    @property
    def sections(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(dict.fromkeys(s for s, _ in self.game.sections))


class CardQuestions(QuestionsPart):
    """What adding a card to a deck would do: each card of the game's sections, tried with one
    copy more."""

    def candidates(self, catalog: Any) -> Iterator[tuple[str, Entry, str | None, Cost | None]]:
        for section, _ in self.game.sections:
            for c in catalog.entries(section):
                yield section, c, self.game.kind_of(section, c), getattr(c, "cost", None)

    def trial(self, data: ListData, catalog: Any, section: str, entry: Any) -> tuple[ListData, Where | None, int]:
        trial = dict(data)
        for key in self.game.entries + ("deck",):
            if isinstance(trial.get(key), (dict, list)):
                trial[key] = copy.deepcopy(trial[key])
        field = dict(self.game.sections)[section]
        pick = Pick(section, entry, entry.name, field)
        _notes, where = self.game.editing.add(trial, catalog, pick, 1, variant=True, check_side=False)
        return trial, where, 1

    def describe_addition(
        self, comparison: Any, data: ListData, catalog: Any, name: str, count: int | None, list_data: ListData
    ) -> tuple[str, str, str | None]:
        pick = self.game.editing.resolve(catalog, name, list_data)
        return (
            L_("{n} {name}", n=count or 1, name=pick.name),
            self._state_after(comparison.after.summary, data, pick, catalog, list_data),
            None,
        )

    def _state_after(self, summary: Summary, data: ListData, pick: Pick, catalog: Any, list_data: ListData) -> str:

        return deck_would_have(summary.get("cards"))


def deck_would_have(n: Any) -> str:
    """``the deck would have 47 cards`` (``?`` for a count not known)."""
    if not isinstance(n, int):
        return L_("the deck would have {n} cards", n=n)
    return Ln_("the deck would have {n} card", "the deck would have {n} cards", n)


class CardEditing(EditingPart):
    """How add and remove change a deck: copies of a card, deck-builder style (the game's
    ``sections``, ``anchor_field`` and ``deck_word`` say where and how)."""

    @property
    def held_sections(self) -> tuple[tuple[str, str], ...]:  # type: ignore[override]
        return tuple((f, s) for s, f in self.game.sections)

    # -- names ----------------------------------------------------------------------------------

    def _unknown(self, catalog: Any, name: str) -> UsageError:
        cands: list[str] = []
        for section, _ in self.game.sections:
            cands += catalog.suggest(section, name)
        hint = did_you_mean(name, cands)
        section = self.game.sections[0][0]
        return UnknownEntry(
            L_("unknown card '{name}'", name=name),
            hint
            or L_(
                "see 'daimyo catalog list {id} {section}'; a pack (packs: [...]) can add cards",
                id=self.game.id,
                section=section,
            ),
        )

    def _custom(self, data: ListData, name: str) -> str | None:
        """The spelling of a card written in the list itself (not in the catalog), if any."""
        return None

    def resolve(self, catalog: Any, name: str, data: ListData | None = None) -> Pick:
        """The card called ``name`` (case, hyphen variants and aliases ignored)."""
        if data is not None:
            own = self._custom(data, name)
            if own is not None:
                return Pick(None, None, own, self.game.sections[0][1])
        for section, field in self.game.sections:
            entry = catalog.find(section, name)
            if entry is not None:
                return Pick(section, entry, entry.name, field)
        raise self._unknown(catalog, name)

    def _anchor(self, mapping: Mapping[Any, Any], pick: Pick, catalog: Any) -> object:
        """The line a new card goes after: the last card of its type or kind."""
        if pick.entry is None or self.game.anchor_field is None:
            return None
        mine = getattr(pick.entry, self.game.anchor_field, None)
        if mine is None:
            return None
        hit = None
        for k in mapping:
            other = catalog.find(pick.section, str(k))
            if other is not None and getattr(other, self.game.anchor_field, None) == mine:
                hit = k
        return hit

    # -- editing --------------------------------------------------------------------------------

    def _prepare(
        self, data: ListData, catalog: Any, pick: Pick, verb: str, variant: bool, check_side: bool
    ) -> list[str]:
        """Anything to do before copies of ``pick`` change (Satsuma: a published deck); notes."""
        return []

    def add(
        self,
        data: ListData,
        catalog: Any,
        name: str | Pick,
        count: int | None = None,
        *,
        variant: bool = False,
        check_side: bool = True,
        trial: bool = False,
        **options: Any,
    ) -> tuple[list[str], Where | None]:
        pick = name if isinstance(name, Pick) else self.resolve(catalog, name, data)
        n = 1 if count is None else count
        if n < 1:
            raise UsageError(L_("{option} must be at least 1, not {n}", option=option("count"), n=n))
        notes = self._add_pick(data, catalog, pick, n, variant, check_side)
        return notes, loc_of(data, pick, catalog)

    def _add_pick(
        self, data: ListData, catalog: Any, pick: Pick, count: int, variant: bool, check_side: bool
    ) -> list[str]:
        from builder.kit.edit import add_copies, insert_key_after, keys_naming  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

        notes = self._prepare(data, catalog, pick, "adding", variant, check_side)
        mapping = mapping_of(data, pick.field)
        same = same_as(pick, catalog)
        keys = keys_naming(mapping, same)
        if keys:
            add_copies(mapping, keys[0], count)
        else:
            insert_key_after(mapping, self._anchor(mapping, pick, catalog), pick.name, count)
        total = copies(mapping, keys_naming(mapping, same))
        if self.game.deck_word == "action deck":
            notes.append(L_("added {n} {name} ({total} in the action deck)", n=count, name=pick.name, total=total))
        else:
            notes.append(L_("added {n} {name} ({total} in the deck)", n=count, name=pick.name, total=total))
        return notes

    def _remove_from_list(
        self, holder: list[Any], pick: Pick, same: Callable[[object], bool], count: int | None
    ) -> list[str] | None:
        """Remove from a list-valued field (HeroCard attributes); None when not there."""
        return None

    def remove(
        self, data: ListData, catalog: Any, name: str, count: int | None = 1, *, variant: bool = False, **options: Any
    ) -> list[str]:
        from builder.kit.edit import keys_naming, remove_copies  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

        if count is not None and count < 1:
            raise UsageError(L_("{option} must be at least 1, not {count}", option=option("count"), count=count))
        try:
            pick = self.resolve(catalog, name, data)
        except UsageError:
            pick = None
        fields = [f for _, f in self.game.sections]
        if pick is not None:
            fields.remove(pick.field)
            fields.insert(0, pick.field)
        else:
            pick = Pick(None, None, name, fields[0])  # a line the catalog does not know
        same = same_as(pick, catalog)
        for field in fields:
            holder = data.get(field)
            if isinstance(holder, list):
                done = self._remove_from_list(holder, pick, same, count)
                if done is not None:
                    return done
                continue
            notes = self._remove_ready(data, catalog, pick, field, variant)
            if notes is None:
                break
            holder = data.get(field)
            if not isinstance(holder, dict):
                continue
            keys = keys_naming(holder, same)
            if not keys:
                continue
            have = copies(holder, keys)
            want = have if count is None else count
            if want > have:
                raise EditRefused(
                    L_(
                        "only {have} {name} in the {deck_word}, cannot remove {want}",
                        have=have,
                        name=pick.name,
                        deck_word=self.game.deck_word,
                        want=want,
                    ),
                    L_("use {option} {have} or {option2}", option=option("count"), have=have, option2=option("all")),
                )
            left = want
            for k in reversed(keys):
                if left <= 0:
                    break
                v = holder[k]
                on_line = int(v.get("count", 1)) if isinstance(v, dict) else int(v)
                take = min(on_line, left)
                remove_copies(holder, k, take)
                left -= take
            rest = have - want
            if rest:
                notes.append(L_("removed {n} {name} ({rest} left)", n=want, name=pick.name, rest=rest))
            else:
                notes.append(L_("removed {n} {name} (none left; line removed)", n=want, name=pick.name))
            return notes
        listed = []
        for field in [f for _, f in self.game.sections]:
            holder = data.get(field)
            if isinstance(holder, (dict, list)):
                listed += [str(k) for k in holder]
        raise UnknownEntry(
            L_("no '{name}' in the {what}", name=name, what=self.game.what), did_you_mean(name, listed) or None
        )

    def _remove_ready(self, data: ListData, catalog: Any, pick: Pick, field: str, variant: bool) -> list[str] | None:
        """Notes of what was done before removing from ``field``; None: the card cannot be there."""
        return []


class CardGame(GameSystem[GameList, GameCatalog]):
    """A game whose lists are decks of cards."""

    kind = "deck"
    what = "deck"
    noun = "card"
    sections: tuple[tuple[str, str], ...] = (("cards", "cards"),)  # (catalog section, list key) in lookup order
    anchor_field: str | None = None  # the card field new cards are grouped by (type, kind)
    deck_word = "deck"  # where copies go, in messages
    browse = part(CardBrowse)  # the catalog beside a deck: its card sections
    questions = part(CardQuestions)  # what adding a card would do
    editing = part(CardEditing)  # how add and remove change copies of a card

    @property
    def entries(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(dict.fromkeys(f for _, f in self.sections))

    def kind_of(self, section: str, entry: object) -> str | None:
        return getattr(entry, self.anchor_field, None) if self.anchor_field else None


__all__ = ["CardEditing", "CardGame", "copies", "mapping_of"]
