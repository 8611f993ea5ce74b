"""``SettingsPart``: what ``set KEY VALUE`` may change in a list of a game (``gs.settings``), for
the edit session's ``Set`` operation (``builder.lists.ops``) and the web builder."""

from __future__ import annotations

from typing import Any

from builder.errors import UsageError
from builder.i18n import L_
from builder.names import did_you_mean
from builder.systems.parts import ListData, Where

TEXT_KEYS = ("name", "author", "notes")
YAML11_WORDS = {"yes", "no", "on", "off", "y", "n"}


def text_value(value: str) -> str:
    """``value`` to write as YAML text (quoted when YAML 1.1 would read it as true/false)."""
    if value.strip().lower() in YAML11_WORDS:
        from ruamel.yaml.scalarstring import SingleQuotedScalarString  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

        return SingleQuotedScalarString(value)
    return value


class SettingsPart:
    """The ``Settings`` part with its defaults: a list's name, author and notes."""

    keys: tuple[str, ...] = TEXT_KEYS  # what ``set`` may change

    def __init__(self, game: Any):
        self.game = game

    def value(self, catalog: Any, key: str, value: str) -> tuple[object, str | None]:
        """The value to write for ``set KEY VALUE`` (None: remove the key) and a note, if any."""
        if key not in self.keys:
            raise UsageError(
                L_("cannot set '{key}' in a {id} {what}", key=key, id=self.game.id, what=self.game.what),
                did_you_mean(key, self.keys) or L_("one of {values}", values=", ".join(self.keys)),
            )
        if key in TEXT_KEYS:
            return (text_value(value) if value.strip() else None), None
        return self.own(catalog, key, value)

    def own(self, catalog: Any, key: str, value: str) -> tuple[object, str | None]:
        raise UsageError(L_("cannot set '{key}'", key=key))  # pragma: no cover - keys lists what is handled

    def apply(self, data: ListData, catalog: Any, key: str, value: str) -> tuple[list[str], Where]:
        """Apply ``set KEY VALUE`` to the list data; ``(notes, where)``."""
        from builder.kit.edit import delete_key, set_key_ordered  # noqa: PLC0415 - the edit toolkit (ruamel.yaml) only when a list is edited; `daimyo check` loads none

        v, note = self.value(catalog, key, value)
        if v is None:
            if key in data:
                delete_key(data, key)
            notes: list[str] = [L_("removed {key}", key=key)]
        else:
            set_key_ordered(data, key, v, self.game.document.list_keys)
            notes = [L_("set {key} = {value}", key=key, value=self.shown(v))]
        if note:
            notes.append(note)
        return notes + self.after(data, catalog, key, v), (key,)

    def shown(self, v: object) -> str:
        return str(v)

    def after(self, data: ListData, catalog: Any, key: str, value: object) -> list[str]:
        """What else changes when ``key`` was set (e.g. a new hero's attribute cards)."""
        return []
