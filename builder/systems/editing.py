"""``EditingPart``: how ``add`` and ``remove`` change a list of the game (``gs.editing``), for
the edit operations (``builder.lists.ops``), the editor, ``daimyo add``/``remove`` and the web
builder's rows.

The hooks work on a list's data: a ruamel round-trip tree when a file is edited (comments
survive), plain dicts when ``options`` tries an entry. They raise a ``UsageError`` subclass
(``UnknownEntry``, ``EditRefused``) for what cannot be done; they never print. The defaults
refuse both; the deck games' part is ``builder.systems.cardediting.CardEditing``, a game's own is in
its package.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from builder.errors import EditRefused, UsageError, option
from builder.names import did_you_mean
from builder.systems.parts import ListData, Options, Picked, Where


def refused(game: Any, verb: str, what: str = "") -> UsageError:
    """The refusal of an edit ``verb`` a game does not support."""
    return EditRefused(f"'{verb}' is not supported for {game.id}" + (f" ({what})" if what else ""))


class EditingPart:
    """The ``Editing`` part with its defaults: nothing to add or remove, no cards held.

    ``add_options``/``remove_options``: the options ``add``/``remove`` take besides a name;
    ``edits``: the game's own edit operations (``builder/games/<id>/edits.py``: typed operations
    and ``from_form``), besides the add, remove, set, house rule and part every game has (None:
    none); ``held_sections``: (list key, catalog section) of the cards a list holds."""

    add_options: frozenset = frozenset({"count"})
    remove_options: frozenset = frozenset({"count", "all"})
    edits: ModuleType | None = None
    held_sections: tuple[tuple[str, str], ...] = ()

    def __init__(self, game: Any):
        self.game = game

    def published(self, data: ListData) -> bool:
        """Whether the list is a published deck written by its name (changes make it a variant)."""
        return False

    def held(self, data: ListData, catalog: Any) -> list[tuple[str, str, Sequence[tuple[str, object]]]]:
        """The cards a list holds: ``(list key, catalog section, [(name as written, value)])``
        per key of ``held_sections`` (value: a number of copies, or a custom card's mapping)."""
        out: list[tuple[str, str, Sequence[tuple[str, object]]]] = []
        for key, section in self.held_sections:
            holder = data.get(key)
            items: Sequence[tuple[str, object]] = (
                list(holder.items()) if isinstance(holder, dict) else [(a, 1) for a in (holder or [])]
            )
            out.append((key, section, items))
        return out

    def check_options(self, verb: str, given: Options) -> None:
        """Refuse options of ``add``/``remove`` (``given``: option -> value, None or False when
        not given) that do not apply to this game, naming the option."""
        allowed = self.add_options if verb == "add" else self.remove_options
        for opt, value in given.items():
            if value is None or value is False or opt in allowed:
                continue
            raise UsageError(self.option_refusal(verb, opt))

    def option_refusal(self, verb: str, opt: str) -> str:
        """The line refusing option ``opt`` of ``verb``."""
        flag = option(opt)
        if opt in ("models", "led_by", "standard"):
            return f"{flag} applies to kensei troops, not {self.game.id} {self.game.noun}s"
        if opt == "variant":
            return f"{option('variant')} applies to satsuma decks"
        if opt == "player":
            return f"{flag} applies to senji setups"
        allowed = sorted(self.add_options if verb == "add" else self.remove_options)
        hint = did_you_mean(opt, allowed)
        takes = f"'{verb}' of a {self.game.id} list takes " + (", ".join(allowed) if allowed else "none")
        return f"{flag} does not apply to {self.game.id} lists ({hint + ' ' if hint else ''}{takes})"

    def resolve(self, catalog: Any, name: str, data: ListData | None = None) -> Picked:
        """The card a name means (a ``Pick``), for the games whose lists hold cards."""
        raise refused(self.game, "copies")

    def add(
        self, data: ListData, catalog: Any, name: str, count: int | None = None, **options: Any
    ) -> tuple[list[str], Where | None]:
        """Add ``name`` to the list data; ``(notes, where it went)``."""
        raise refused(self.game, "add")

    def remove(self, data: ListData, catalog: Any, name: str, count: int | None = 1, **options: Any) -> list[str]:
        """Take ``name`` off the list data; notes."""
        raise refused(self.game, "remove")


__all__ = ["EditingPart", "refused"]
