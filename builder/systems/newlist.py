"""``NewListPart``: how a new list of a game starts (``gs.new_list``), for ``daimyo new``, the
JSON API, the library's ``ListEditor.new`` and the web builder's new-list form.

A game declares the options a new list takes (``declare``: a ``NewOption`` each, with its type,
choices and bounds). Every face passes what the user gave, by key, to the same library call
(``builder.lists.new.start``), and ``values`` reads and checks it there, once, from the
declaration: the command line's ``--opt KEY=VALUE`` and its older flags, the API's ``options``
and the new-list form all get the same one-line message for a wrong value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from builder.errors import UsageError
from builder.i18n import L_
from builder.limits import MAX_NUMBER
from builder.names import did_you_mean, loose

# ``builder.systems.parts``'s ``ListData`` and ``Options`` written out: the contracts may name
# what this module declares, so it does not import them

KINDS = ("text", "number", "choice", "flag")
MAX_OPTION_TEXT = 200  # the longest text a new list's option takes (a hero's name, a scenario)
YES = ("yes", "true", "on", "1")
NO = ("no", "false", "off", "0")


@dataclass(frozen=True)
class NewOption:
    """One option a new list of a game takes (``daimyo new GAME --opt KEY=VALUE``).

    ``kind``: ``text``, ``number`` (a whole number from ``min`` to ``max``), ``choice`` (one of
    ``choices``, ``(value, label)`` pairs, matched by value or label whatever the case, accents,
    spaces or hyphens; with
    ``open`` the choices only suggest and any text is taken) or ``flag`` (yes or no).
    ``default``: the value when it is not given (None: none, the game decides); ``start``: what
    the new-list form shows first when it differs from the default; ``required``: it must be
    given; ``prompt``: the form's first line of a choice that has no default; ``form``: the
    new-list form asks for it."""

    key: str
    label: str
    kind: str = "text"
    help: str = ""
    default: Any = None
    start: Any = None
    choices: tuple[tuple[str, str], ...] = ()
    open: bool = False
    min: int | None = None
    max: int | None = None
    required: bool = False
    prompt: str = ""
    form: bool = True

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"option '{self.key}': kind '{self.kind}' is not one of {', '.join(KINDS)}")

    def field(self) -> dict[str, Any]:
        """The option as the new-list form's field: ``key``, ``label``, ``value`` (what it
        starts with), ``choices``, ``prompt``, or ``type``/``min``/``max`` for a number."""
        first = self.start if self.start is not None else self.default
        out: dict[str, Any] = {"key": self.key, "label": self.label, "value": "" if first is None else str(first)}
        if self.kind == "choice":
            out["choices"] = list(self.choices)
            if self.prompt:
                out["prompt"] = self.prompt
        elif self.kind == "number":
            out["type"] = "number"
            if self.min is not None:
                out["min"] = self.min
            if self.max is not None:
                out["max"] = self.max
        elif self.kind == "flag":
            out["type"] = "checkbox"
            out["value"] = "yes" if first else ""
        return out

    def read(self, value: Any) -> Any:
        """``value`` (typed, or a word from the command line or a form) as this option's value;
        None when it is empty. A ``UsageError`` in one line naming the option otherwise."""
        if value is None:
            return None
        if self.kind == "flag":
            return self._flag(value)
        if self.kind == "number":
            return self._number(value)
        if not isinstance(value, str) or isinstance(value, bool):
            raise UsageError(L_("{key} takes text, not {shown}", key=self.key, shown=_shown(value)))
        text = value.strip()
        if not text:
            return None
        if len(text) > MAX_OPTION_TEXT:
            raise UsageError(
                L_(
                    "{key} is {n:,} characters long, at most {MAX_OPTION_TEXT}",
                    key=self.key,
                    n=len(text),
                    MAX_OPTION_TEXT=MAX_OPTION_TEXT,
                )
            )
        if self.kind == "choice" and not self.open:
            return self._choice(text)
        return text

    def _flag(self, value: Any) -> bool | None:
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if not word:
            return None
        if word in YES:
            return True
        if word in NO:
            return False
        raise UsageError(L_("{key} is yes or no, not {shown}", key=self.key, shown=_shown(value)))

    def _number(self, value: Any) -> int | None:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise UsageError(L_("{key} must be a whole number, not {shown}", key=self.key, shown=_shown(value)))
        text = str(value).strip()
        if not text:
            return None
        digits = text.lstrip("+-")
        if not digits.isdigit() or not digits.isascii():
            raise UsageError(L_("{key} must be a whole number, not {shown}", key=self.key, shown=_shown(value)))
        low = self.min if self.min is not None else -MAX_NUMBER
        high = self.max if self.max is not None else MAX_NUMBER
        below = text.startswith("-")
        if len(digits) > len(str(MAX_NUMBER)):
            what = ("-" if below else "") + f"a number of {len(digits):,} digits"
            raise UsageError(
                L_("{key} must be {bounds}, not {what}", key=self.key, bounds=self._bounds(low, high, below), what=what)
            )
        n = int(text)
        if not low <= n <= high:
            raise UsageError(
                L_("{key} must be {bounds}, not {n}", key=self.key, bounds=self._bounds(low, high, n < low), n=n)
            )
        return n

    def _bounds(self, low: int, high: int, below: bool) -> str:
        """The bounds a refused number is told: the one it is past, or both when the other is
        declared too (or is the largest number there is)."""
        if below and (self.max is None or high == MAX_NUMBER) and self.min is not None:
            return f"at least {low:,}"
        if not below and self.min is None:
            return f"at most {high:,}"
        return f"from {low:,} to {high:,}"

    def _choice(self, text: str) -> str:
        wanted = loose(text)  # by its value or label: case, accents, spaces and hyphens aside
        for value, label in self.choices:
            if wanted in (loose(value), loose(label)):
                return value
        values = [v for v, _ in self.choices]
        hint = did_you_mean(text, values) or did_you_mean(text, [label for _, label in self.choices])
        return _refuse(f"{self.key} is one of {', '.join(values)}, not {_shown(text)}", hint)


def _shown(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"'{text}'"


def _refuse(message: str, hint: str = "") -> Any:
    raise UsageError(message, hint or None)


class NewListPart:
    """The ``NewList`` part with its defaults: a list with its name and packs, no option of its own."""

    options: frozenset[str] = frozenset()  # the keys of the options of its own a new list takes
    example: str = ""  # a name for a new list, shown as an example in the new-list form

    def __init__(self, game: Any):
        self.game = game

    def declare(self, catalog: Any) -> list[NewOption]:
        """The options a new list takes (their keys are ``options``), from the game's catalog.

        A game that declares none but names ``options`` and gives the form's ``fields`` as
        mappings (as games did before options were declared) gets them read from those: a
        number field as a number with its bounds, a field with choices as a choice, any other
        option as text."""
        if type(self).fields is NewListPart.fields:
            return [NewOption(key, key.replace("_", " ").capitalize()) for key in sorted(self.options)]
        fields = {f["key"]: f for f in self.fields(catalog)}
        out = []
        for key in sorted(self.options):
            f = fields.get(key, {})
            label = str(f.get("label") or key)
            start = f.get("value") if str(f.get("value") or "").strip() else None
            if f.get("type") == "number":
                out.append(NewOption(key, label, "number", start=start, min=f.get("min"), max=f.get("max")))
            elif f.get("choices"):
                choices = tuple((str(v), str(lbl)) for v, lbl in f["choices"])
                out.append(NewOption(key, label, "choice", start=start, choices=choices, prompt=f.get("prompt", "")))
            else:
                out.append(NewOption(key, label, start=start, form=bool(f)))
        return out

    def fields(self, catalog: Any) -> list[dict[str, Any]]:
        """The fields a builder's new-list form asks for: the declared options it shows
        (``NewOption.field``)."""
        return [o.field() for o in self.declare(catalog) if o.form]

    def values(self, catalog: Any, given: Mapping[str, Any]) -> dict[str, object]:
        """The options ``given`` (key -> value: typed, or words as typed on the command line or
        in a form), read and checked against the declaration: an unknown key names the keys the
        game takes, a wrong value says what it takes. The declared defaults fill what is not
        given; a required option left out is refused."""
        declared = {o.key: o for o in self.declare(catalog)}
        out: dict[str, object] = {}
        for key, value in given.items():
            o = declared.get(key)
            if o is None:
                out[key] = self._unknown(key, declared)
                continue
            out[key] = o.read(value)
        for o in declared.values():
            if out.get(o.key) is None:
                out[o.key] = o.default
            if out[o.key] is None and o.required:
                _refuse(f"{o.key} is required for {self.game.id} lists", _takes(o))
        return out

    def _unknown(self, key: str, declared: Mapping[str, NewOption]) -> Any:
        keys = sorted(declared)
        hint = did_you_mean(key, keys)
        takes = f"{self.game.id} lists take " + ", ".join(keys) if keys else f"{self.game.id} lists take none"
        return _refuse(f"'{key}' is not an option of a new {self.game.id} list", " ".join(filter(None, [hint, takes])))

    def make(self, catalog: Any, options: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The data of a new list and notes for a person: ``options`` are the game's own (read
        and checked by ``values``) with ``name`` and ``packs`` as written in the list."""
        own = self.values(catalog, {k: v for k, v in options.items() if k not in ("name", "packs")})
        data: dict[str, Any] = {"system": self.game.id}
        if options.get("name"):
            data["name"] = options["name"]
        if options.get("packs"):
            data["packs"] = list(options["packs"])
        notes = self.body(data, catalog, own)
        return data, notes

    def body(self, data: dict[str, Any], catalog: Any, options: Mapping[str, Any]) -> list[str]:
        """Fill in the game's own keys of a new list's ``data`` from its options (checked against
        the declaration, with its defaults); notes for a person."""
        return []


def _takes(o: NewOption) -> str:
    if o.kind == "choice" and o.choices and not o.open:
        return "one of " + ", ".join(v for v, _ in o.choices)
    if o.kind == "number" and o.min is not None and o.max is not None:
        return f"from {o.min:,} to {o.max:,}"
    if o.kind == "flag":
        return "yes or no"
    return ""


__all__ = ["NewListPart", "NewOption"]
