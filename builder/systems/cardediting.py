"""``CardEditing``: how add and remove change a deck of a card game (``gs.editing`` of a
``builder.systems.cards.CardGame``): copies of a card, deck-builder style. Made from the game when
first asked for, so the edit toolkit (ruamel.yaml) loads only when a list is edited."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from builder.errors import EditRefused, UnknownEntry, UsageError, option
from builder.i18n import L_
from builder.kit.edit import add_copies, insert_key_after, keys_naming, remove_copies
from builder.names import did_you_mean
from builder.systems.base import Pick, loc_of, same_as
from builder.systems.deckcounts import copies, mapping_of
from builder.systems.editing import EditingPart
from builder.systems.parts import ListData, Where


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


__all__ = ["CardEditing"]
