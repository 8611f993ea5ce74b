"""Reading the top-level keys of a list document the way the card games do: unknown keys with
the nearest allowed one, ``{name: count}`` mappings with one located diagnostic per problem, and
the words a message uses for a value of the wrong kind. Senshiai and HeroCard read their decks with
these; a game's rules append the diagnostics and raise ``ListError`` when there are any.
"""

from __future__ import annotations

from builder.i18n import L_
from builder.kit.fields import COMMON_KEYS
from builder.names import did_you_mean, normalize

__all__ = ["check_keys", "read_counts", "value_kind"]


def read_counts(
    doc, key: str, what: str, diags: list, required: bool = True, example: str = "cards: {Warriors: 3}"
) -> list[tuple[str, int, tuple]]:
    """``{name: count}`` of ``doc[key]``: names as text, whole counts >= 1, no name twice.

    Appends one diagnostic per problem to ``diags``; returns (name, count, loc) triples.
    """
    body = doc.data
    if key not in body or body[key] is None:
        if required:
            diags.append(
                doc.positions.diag(
                    (),
                    L_("missing '{key}:' (a mapping of {what} names to counts)", key=key, what=what),
                    hint=f"e.g. {example}",
                )
            )
        return []
    value = body[key]
    if not isinstance(value, dict):
        diags.append(
            doc.diag(
                (key,),
                L_(
                    "'{key}' must be a mapping of {what} names to counts, not {value_kind}",
                    key=key,
                    what=what,
                    value_kind=value_kind(value),
                ),
                hint=L_("write one '{title} Name: 2' per line", title=what.title()),
            )
        )
        return []
    out = []
    seen: dict[str, tuple] = {}
    for name, count in value.items():
        loc = (key, name)
        if isinstance(name, bool) or name is None or not isinstance(name, (str, int, float)):
            diags.append(
                doc.positions.diag(loc, L_("'{name}' is not a {what} name", name=name, what=what), prefer_key=True)
            )
            continue
        text = str(name).strip()
        if not text:
            diags.append(doc.positions.diag(loc, L_("empty {what} name", what=what), prefer_key=True))
            continue
        if isinstance(count, bool) or not isinstance(count, int):
            diags.append(
                doc.diag(
                    loc,
                    L_(
                        "count of '{text}' must be a whole number, not {value_kind}",
                        text=text,
                        value_kind=value_kind(count),
                    ),
                    hint=f"e.g. '{text}: 2'",
                )
            )
            continue
        if count < 1:
            diags.append(
                doc.diag(
                    loc,
                    L_("count of '{text}' must be at least 1, not {count}", text=text, count=count),
                    hint=L_("remove the line to leave the card out"),
                )
            )
            continue
        k = normalize(text)
        if k in seen:
            line, _ = doc.positions.at(seen[k], prefer_key=True)
            diags.append(
                doc.positions.diag(
                    loc,
                    L_("{what} '{text}' is listed twice (also on line {line})", what=what, text=text, line=line),
                    prefer_key=True,
                    hint=L_("add the counts into one line"),
                )
            )
            continue
        seen[k] = loc
        out.append((text, count, loc))
    return out


def check_keys(doc, allowed: tuple, diags: list) -> None:
    """One diagnostic in ``diags`` per top-level key of ``doc`` that is neither a common key nor in
    ``allowed``, with the nearest allowed key (or all of them) as the hint."""
    for key in doc.data:
        if key in COMMON_KEYS or key in allowed:
            continue
        hint = did_you_mean(str(key), list(allowed) + list(COMMON_KEYS)) or "allowed keys: " + ", ".join(
            list(COMMON_KEYS) + list(allowed)
        )
        diags.append(
            doc.positions.diag(
                (key,), L_("unknown key '{key}' for {system}", key=key, system=doc.system), hint=hint, prefer_key=True
            )
        )


def value_kind(v) -> str:
    """How a message names a value of the wrong kind: ``nothing``, a scalar as written, ``a mapping``,
    ``a list``."""
    if v is None:
        return "nothing"
    if isinstance(v, bool):
        return f"'{str(v).lower()}'"
    if isinstance(v, (int, float, str)):
        return repr(v) if isinstance(v, str) else str(v)
    kinds: dict[type, str] = {dict: "a mapping", list: "a list"}
    return kinds.get(type(v), type(v).__name__)
