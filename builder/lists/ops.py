"""The typed edit operations of a list, and reading one from a form or a JSON body.

An operation is a small frozen value that says what to change; ``apply(tree, catalog, game)``
makes the change on the list's tree and returns ``(notes, target)``: lines for a person and
where the change went (for the comparison of the check before and after). The edit session
(``builder.lists.editor.ListEditor.apply``) runs one, writes the new text, reads and checks it
once. The operations here apply to every game; a game adds its own (a Kensei unit's models,
standard, leader, duplicate) in ``builder/games/<id>/edits.py``, reached through the
``edits`` of the game's ``editing`` part.

``from_form`` builds an operation from the words the web builder posts and the JSON API takes
(``{"op": "add", "item": ..., "models": ...}``); the command line builds them from its options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ruamel.yaml.comments import CommentedMap

from builder.errors import UsageError
from builder.i18n import L_
from builder.kit.edit import delete_key, set_key_ordered
from builder.limits import whole_between
from builder.names import did_you_mean
from builder.systems.base import same_as, text_value
from builder.systems.editing import refused

if TYPE_CHECKING:
    from builder.systems.base import GameSystem
    from builder.systems.parts import ListData

MAX_TEXT = 2000  # the longest name, author or notes the builder writes
TEXT_KEYS = ("name", "author", "notes")
ON = ("1", "true", "on", "yes")


class Operation(Protocol):
    def apply(self, tree: Any, catalog: Any, game: GameSystem) -> tuple[list[str], tuple | None]: ...


def whole(value: object, what: str, low: int = 1, high: int = 100_000) -> int:
    """``value`` as a whole number from ``low`` to ``high``, or a ``UsageError`` naming ``what``."""
    return whole_between(value, what, low, high)


@dataclass(frozen=True)
class Add:
    """Add ``count`` copies of a card, a unit of ``models`` (Kensei, with ``led_by`` and
    ``standard``), or a Senji family, samurai card or province (``player``: whose).

    ``options``: the options of the game's own add by key (any game's: ``gs.editing.add_options``
    says which it takes); ``models``, ``led_by``, ``standard``, ``variant`` and ``player`` stand
    for the same keys."""

    item: str
    count: int | None = None
    models: int | None = None
    led_by: str | None = None
    standard: bool = False
    variant: bool = False
    player: str | None = None
    check_side: bool = True
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def given(self) -> dict:
        """The add's options by key: ``options`` and the named ones given (a key given both ways
        is refused); a named one given in ``options`` as a word is read as the named one is."""
        named = {"models": self.models, "led_by": self.led_by, "standard": self.standard, "variant": self.variant}
        named["player"] = self.player
        out = {k: v for k, v in named.items() if v is not None and v is not False}
        for key, value in self.options.items():
            if key in out or key in ("count", "check_side"):
                raise UsageError(L_("option '{key}' is given twice", key=key))
            out[key] = _named(key, value)
        return out

    def apply(self, tree: Any, catalog: Any, game: GameSystem) -> tuple[list[str], tuple | None]:
        if not self.item.strip():
            raise UsageError(L_("name the card or troop to add"))
        given = self.given()
        game.editing.check_options("add", {"count": self.count, **given})
        return game.editing.add(tree, catalog, self.item.strip(), self.count, **given, check_side=self.check_side)


@dataclass(frozen=True)
class Remove:
    """Take ``count`` copies of a card off (None: every copy), the last unit of a Kensei troop,
    or a Senji player, samurai card or province."""

    item: str
    count: int | None = 1
    variant: bool = False

    def apply(self, tree: Any, catalog: Any, game: GameSystem) -> tuple[list[str], tuple | None]:
        game.editing.check_options("remove", {"variant": self.variant})
        return game.editing.remove(tree, catalog, self.item.strip(), self.count, variant=self.variant), None


@dataclass(frozen=True)
class Copies:
    """Make a card's copies in the list exactly ``value`` (the number typed in the builder)."""

    item: str
    value: int
    variant: bool = False

    def apply(self, tree: Any, catalog: Any, game: GameSystem) -> tuple[list[str], tuple | None]:
        if not game.editing.held_sections:
            raise UsageError(L_("copies apply to cards, not to {id} {noun}s", id=game.id, noun=game.noun))
        have = copies_of(game, catalog, tree, self.item)
        if self.value > have:
            return game.editing.add(tree, catalog, self.item, self.value - have, variant=self.variant)
        if self.value < have:
            return game.editing.remove(tree, catalog, self.item, have - self.value, variant=self.variant), None
        return [], None


@dataclass(frozen=True)
class Set:
    """Change a setting (``daimyo set``): a game's own keys, or the list's name, author, notes."""

    key: str
    value: str

    def apply(self, tree: Any, catalog: Any, game: GameSystem) -> tuple[list[str], tuple | None]:
        if self.key in TEXT_KEYS and len(self.value) > MAX_TEXT:
            raise UsageError(L_("{key} is too long (at most {MAX_TEXT} characters)", key=self.key, MAX_TEXT=MAX_TEXT))
        if self.key in game.settings.keys or self.key not in TEXT_KEYS:
            return game.settings.apply(tree, catalog, self.key, self.value)
        if self.value.strip():  # the name, author or notes of any list
            set_key_ordered(tree, self.key, text_value(self.value), game.document.list_keys)
            return [L_("set {key}", key=self.key)], (self.key,)
        if self.key in tree:
            delete_key(tree, self.key)
        return [L_("removed {key}", key=self.key)], (self.key,)


@dataclass(frozen=True)
class HouseRule:
    """Agree house rule ``key`` at ``value`` (None, '' or 'default': back to the default)."""

    key: str
    value: Any = None

    def apply(self, tree: Any, catalog: Any, game: GameSystem) -> tuple[list[str], tuple | None]:
        rules = {h.id: h for h in catalog.model.house_rules}
        if self.key not in rules:
            raise UsageError(
                L_("unknown house rule '{key}'", key=self.key),
                did_you_mean(self.key, list(rules))
                or (
                    L_("one of {values}", values=", ".join(rules))
                    if rules
                    else L_("{id} has no house rules", id=game.id)
                ),
            )
        h = rules[self.key]
        hr = tree.get("house_rules")
        if self.value in (None, "", "default"):
            if isinstance(hr, dict) and self.key in hr:
                del hr[self.key]
                if not hr:
                    delete_key(tree, "house_rules")
            return [L_("{key}: the default reading", key=self.key)], ("house_rules",)
        parsed = rule_value(h, self.value)
        try:
            catalog.resolve_rules({self.key: parsed})
        except (ValueError, KeyError, TypeError) as exc:  # a value the rule does not take
            reason = str(exc.args[0]) if exc.args else str(exc)
            raise UsageError(
                L_("house rule {reason}", reason=reason)
                if reason.startswith("'")
                else L_("house rule '{key}': {reason}", key=self.key, reason=reason),
                L_("choose one of the values the house rule offers"),
            ) from None
        if not isinstance(hr, dict):
            hr = CommentedMap()
            set_key_ordered(tree, "house_rules", hr, game.document.list_keys)
        hr[self.key] = parsed
        return [L_("{key} = {value}", key=self.key, value=parsed)], ("house_rules", self.key)


@dataclass(frozen=True)
class Part:
    """Change ``field`` of the part of an entry at ``where`` (Senji: a player's family,
    samurai card or province), e.g. ``("players", 0, "provinces", 2)``."""

    where: tuple
    field: str
    value: Any = None

    def apply(self, tree: Any, catalog: Any, game: GameSystem) -> tuple[list[str], tuple | None]:
        if not self.where:
            raise UsageError(L_("say which part to change (where)"))
        if game.players is None:  # only a setup by player has parts to change
            raise refused(game, "part")
        return game.players.set_part(tree, catalog, tuple(self.where), self.field, self.value), tuple(self.where)


def rule_value(h: Any, value: object) -> Any:
    """A house rule's value from a form or the command line: the type of its default."""
    text = str(value).strip()
    d = h.default
    for a in getattr(h, "alternatives", []) or []:
        if str(a.value).lower() == text.lower():
            return a.value
    if isinstance(d, bool):
        if text.lower() in ("true", "on", "yes", "1"):
            return True
        if text.lower() in ("false", "off", "no", "0"):
            return False
        raise UsageError(L_("{id} takes true or false, not '{value}'", id=h.id, value=value))
    if isinstance(d, int):
        try:
            return int(text)
        except ValueError:
            raise UsageError(L_("{id} takes a whole number, not '{value}'", id=h.id, value=value)) from None
    if isinstance(d, float):
        try:
            return float(text)
        except ValueError:
            raise UsageError(L_("{id} takes a number, not '{value}'", id=h.id, value=value)) from None
    return text


def copies_of(game: GameSystem, catalog: Any, data: ListData, item: str) -> int:
    """Copies of a card in the list, as the builder shows them (a published deck counted card
    by card)."""
    pick = game.editing.resolve(catalog, item, data)
    same = same_as(pick, catalog)
    total = 0
    for key, _section, items in game.editing.held(data, catalog):
        if key != pick.field:
            continue
        for name, value in items:
            if same(name):
                total += (
                    int(value.get("count", 1))
                    if isinstance(value, dict)
                    else (int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 1)
                )
    return total


def _named(key: str, value: Any) -> Any:
    """An add option ``Add`` names, given by key as a word (``daimyo add --opt models=2``), read
    as its field is; another key's value as given (the game reads its own)."""
    if key == "models":
        return whole(value, "models")
    if key in ("standard", "variant"):
        return value if isinstance(value, bool) else str(value).strip().lower() in ON
    if key in ("led_by", "player"):
        return str(value).strip() or None
    return value


def _given(form: dict, key: str) -> bool:
    return form.get(key) not in (None, "", False, "0")


def from_form(form: dict, game: GameSystem) -> Operation:
    """The operation a web form or JSON body names: ``op`` is add, remove, copies, set,
    house_rule or part, or one of the game's own (``game.editing.edits``); a ``UsageError`` otherwise."""
    kind = str(form.get("op", ""))
    own = game.editing.edits.from_form(form) if game.editing.edits is not None else None
    if own is not None:
        return own
    variant = "variant" in game.editing.add_options  # a published deck becomes a variant when changed
    item = str(form.get("item") or "").strip()
    if kind == "add":
        if not item:
            raise UsageError(L_("name the card or troop to add"))
        extra = form.get("options") or {}
        if not isinstance(extra, Mapping):
            raise UsageError(L_("options is a mapping of an option's key to its value"), L_('e.g. {"models": 2}'))
        extra = dict(extra)
        if "models" in game.editing.add_options:
            return Add(item, models=whole(form["models"], "models") if _given(form, "models") else None, options=extra)
        if "player" in game.editing.add_options:
            return Add(
                item,
                whole(form["count"], "units", 1, 99) if _given(form, "count") else None,
                player=str(form.get("player") or "").strip() or None,
                options=extra,
            )
        return Add(item, whole(form.get("count") or 1, "count", 1, 1000), variant=variant, options=extra)
    if kind == "remove":
        if game.editing.held_sections:
            n = None if _given(form, "all") else whole(form.get("count") or 1, "count", 1, 1000)
        else:
            n = 1
        return Remove(item, n, variant=variant)
    if kind == "copies":
        return Copies(item, whole(form.get("value"), "copies", 0, 1000), variant=variant)
    if kind == "set":
        return Set(str(form.get("key") or ""), "" if form.get("value") is None else str(form.get("value")))
    if kind == "house_rule":
        return HouseRule(str(form.get("key") or ""), form.get("value"))
    if kind == "part":
        where = form.get("where")
        if isinstance(where, str):
            where = tuple(int(x) if x.isdigit() else x for x in where.split("/") if x)
        if not isinstance(where, (list, tuple)) or not where:
            raise UsageError(L_("say which part to change (where)"))
        return Part(tuple(where), str(form.get("field") or ""), form.get("value"))
    if kind in ("models", "duplicate", "troop"):
        raise UsageError(
            L_("{kind} applies to units of models, not to {id} {noun}s", kind=kind, id=game.id, noun=game.noun),
            L_("cards take + and -"),
        )
    raise UsageError(
        L_("unknown change '{kind}'", kind=kind),
        L_("one of add, remove, copies, models, duplicate, troop, part, set, house_rule"),
    )


__all__ = [
    "Add",
    "Copies",
    "HouseRule",
    "Operation",
    "Part",
    "Remove",
    "Set",
    "copies_of",
    "from_form",
    "rule_value",
    "whole",
]
