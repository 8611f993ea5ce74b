"""Check list documents: the library behind ``daimyo check``.

The module can be called: ``builder.check("army.yaml")`` is ``builder.api.check``."""

from __future__ import annotations

import inspect
import os
import re
import shutil
import sys
import types
from collections.abc import Mapping, Sequence
from pathlib import Path

from builder.catalog.loader import load_catalog
from builder.errors import one_line, safe_terminal
from builder.findings import CheckResult, Finding, severity_word
from builder.i18n import N_, _, ngettext, tr
from builder.kit.numbers import number_text
from builder.lists.check import check_doc, packs_checked_with, resolve_house_rules
from builder.lists.document import ListDoc, load_list, parse_list
from builder.names import quoted
from builder.systems import get


def check_file(path: str | Path, extra_packs: Sequence[str] = ()) -> CheckResult:
    return check_doc(load_list(path), extra_packs)


def check_text(text: str, file: str = "<list>", extra_packs: Sequence[str] = (), base_dir=None) -> CheckResult:
    return check_doc(parse_list(text, file, base_dir=base_dir), extra_packs)


def format_result(
    res: CheckResult, explain: bool = False, all_rules: bool | None = None, printed: list | tuple = ()
) -> list[str]:
    """Text output of one checked list. The house rules in force are listed with ``explain``
    (or ``all_rules=True``); otherwise only those the list agreed, and no block when there are none.
    Findings in ``printed`` (already printed above the verdict, e.g. what an edit broke) are
    counted in the verdict but not listed again."""
    if all_rules is None:
        all_rules = explain
    c = res.counts()
    status = verdict(res.legal)
    errors = ngettext("{n} error", "{n} errors", c["error"]).format(n=c["error"])
    warnings = ngettext("{n} warning", "{n} warnings", c["warning"]).format(n=c["warning"])

    title = f" {quoted(res.name)}" if res.name else ""
    lines = [
        _("{file}: {system}{title}: {verdict} ({errors}, {warnings})").format(
            file=res.file, system=res.system, title=title, verdict=status, errors=errors, warnings=warnings
        )
    ]
    if res.summary:
        lines.extend(_wrap("  " + _("summary:") + " ", summary_items(res.summary, explain)))
    rules = res.house_rules if all_rules else res.house_rules_agreed
    if rules:
        shown = []
        for k, v in rules.items():
            value = f"{k}={_fmt(v)}"
            shown.append(_("{rule} (agreed)").format(rule=value) if k in res.house_rules_agreed else value)
        lines.extend(_wrap("  " + _("house rules:") + " ", shown))
    if res.packs:
        lines.extend(
            _wrap(
                "  " + _("packs:") + " ",
                [
                    f"{p['name']}"
                    + (f" {p['version']}" if p.get("version") else "")
                    + f" ({(p.get('hash') or '').split(':', 1)[-1][:12]})"
                    for p in res.packs
                ],
            )
        )
    for line in res.pack_changes:
        lines.append("  " + _("note: {text}").format(text=tr(line)))
    for f in res.findings:
        if f in printed:
            continue
        lines.append("  " + f.format(res.file, explain=explain))
        if explain and f.counted:
            for item in f.counted:
                lines.append("      " + _("counted: {item}").format(item=tr(item)))
        if explain and (f.value is not None or f.bound is not None):
            parts = [
                _("{key} {value}").format(key=_(word), value=tr(v) if isinstance(v, str) else _fmt(v))
                for word, v in ((N_("value"), f.value), (N_("bound"), f.bound), (N_("base"), f.base))
                if v is not None
            ]
            lines.append("      " + ", ".join(parts))

    return [one_line(x) for x in lines]  # a line break in a file name or a list name cannot forge a line


_OPS = {"max": "<=", "min": ">=", "exactly": "="}


def verdict(legal: bool) -> str:
    """A list's verdict as the text output says it: ``legal`` or ``ILLEGAL``, translated."""
    return _("legal") if legal else _("ILLEGAL")


# the summary's keys as the text output names them (the keys stay English in JSON and CSV)
SUMMARY_WORDS = frozenset(
    (
        N_("action_cards"),
        N_("attack_cards"),
        N_("block_cards"),
        N_("capital"),
        N_("cards"),
        N_("cavalry"),
        N_("clan"),
        N_("commander"),
        N_("creatures"),
        N_("curve"),
        N_("deck"),
        N_("events"),
        N_("families"),
        N_("firearms"),
        N_("hero"),
        N_("hero_points"),
        N_("leaders"),
        N_("limit"),
        N_("max_cards"),
        N_("max_hero_points"),
        N_("melee"),
        N_("models"),
        N_("neutral"),
        N_("players"),
        N_("points"),
        N_("provinces"),
        N_("ranged"),
        N_("scores"),
        N_("side"),
        N_("size"),
        N_("skirmishers"),
        N_("terrains"),
        N_("troops"),
        N_("units"),
        N_("usable_cards"),
    )
)


def summary_word(key: str) -> str:
    """A summary key as a player reads it in the current language (a key of a game not named
    here shows as it is)."""
    return _(key) if key in SUMMARY_WORDS else key


def limit_lines(system: str, lst, catalog, rules: dict) -> list[str]:
    """``check --explain``: every limit of the list, broken or not, with what makes it up
    (the entries counted toward a limit over the whole list). ``lst``, ``catalog`` and
    ``rules`` are the list as its game's rules read it (``builder.analytics.stats.load``)."""
    gs = get(system)
    func = getattr(gs.rules, "limits", None)
    if func is None:
        return []
    detail = "detail" in inspect.signature(func).parameters
    rows = func(lst, catalog, rules, detail=True) if detail else func(lst, catalog, rules)
    if not rows:
        return []
    out = ["  " + _("limits:")]
    for row in rows:
        if row.get("value") is None:
            continue
        group = f" ({row['group']})" if row.get("group") else ""
        unit = " " + _(row["unit"]) if row.get("unit") else ""  # catalog words: in the findings templates
        mark = "" if row.get("ok", True) else "  " + _("BROKEN")
        out.append(
            f"    {_(row['label'])}{group}: {_fmt(row['value'])} {_OPS.get(row['kind'], row['kind'])} "
            f"{_fmt(row['bound'])}{unit}{mark}"
        )
        if row.get("counted") and row.get("for_each") in (None, "list"):
            out.append("      " + _("counted: {item}").format(item="; ".join(tr(c) for c in row["counted"])))
    return out


ALWAYS_SHOWN = {"points", "limit", "left", "cards", "action_cards", "hero_points", "players"}


def summary_items(summary: Mapping[str, object], explain: bool = False) -> list[str]:
    """The summary as "key value" items: points used, the limit and the points left first;
    a counter of zero, and a value not known, only with ``explain``; "melee 120 (60%)" for a
    value with its percentage."""
    items = []
    keys = list(summary)
    if (
        "points" in summary
        and "limit" in summary
        and isinstance(summary["points"], (int, float))
        and isinstance(summary["limit"], (int, float))
    ):
        left = summary["limit"] - summary["points"]
        items += [
            _("points {n}").format(n=_fmt(summary["points"])),
            _("limit {n}").format(n=_fmt(summary["limit"])),
            _("left {n}").format(n=_fmt(left)) if left >= 0 else _("over by {n}").format(n=_fmt(-left)),
        ]
        keys = [k for k in keys if k not in ("points", "limit")]
    for k in keys:
        v = summary[k]
        if k.endswith("_percent") and k[: -len("_percent")] in summary:
            continue  # shown with its value
        if v is None:
            if explain or k in ALWAYS_SHOWN:
                items.append(_("{key} unknown").format(key=summary_word(k)))
            continue
        if not explain and k not in ALWAYS_SHOWN and not isinstance(v, bool) and v == 0:
            continue
        text = _("{key} {value}").format(key=summary_word(k), value=_fmt(v))
        pct = summary.get(f"{k}_percent")
        if pct is not None and (explain or v):
            text += f" ({_fmt(pct)}%)"
        items.append(text)
    return items


# -- colour on a terminal (plain ANSI: no library to import) ------------------------------------

_PAINT = {"legal": "32", "ILLEGAL": "1;31", "error": "31", "warning": "33", "info": "36"}


def use_color(stream, no_color: bool = False) -> bool:
    """Colour only on a terminal: never with ``--no-color``, when ``NO_COLOR`` is set (to any
    value), for ``TERM=dumb``, or when the output is a pipe or a file."""
    if no_color or "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


def load_checked(path, extra_packs=()):
    """(doc, catalog, lst, result) for a list file (``extra_packs`` as ``check --pack``): what a
    printout or an image is made from."""
    doc = load_list(path)
    catalog = load_catalog(doc.system, list(doc.packs) + [str(p) for p in extra_packs])
    result = check_doc(doc, catalog=catalog)
    lst, _findings = get(doc.system).rules.load_list(doc, catalog)
    return doc, catalog, lst, result


def _paint(word: str, key: str | None = None) -> str:
    return f"\x1b[{_PAINT[key or word]}m{word}\x1b[0m"


def paint_result(lines: list[str], res: CheckResult) -> list[str]:
    """``format_result``'s lines (control characters already escaped) with the verdict and each
    finding's severity in colour: legal green, ILLEGAL red, errors red, warnings yellow, notes cyan."""
    out = list(lines)
    if out:
        key = "legal" if res.legal else "ILLEGAL"
        status = verdict(res.legal)
        head, sep, tail = out[0].rpartition(f": {status} (")
        if sep:
            out[0] = f"{head}: {_paint(status, key)} ({tail}"
    words = {severity_word(s): s for s in ("error", "warning", "info")}
    names = "|".join(re.escape(w) for w in words)
    severity = re.compile(r"^(  (?:.*?: )?)(" + names + r")( [A-Za-z0-9_.-]+: )")
    for i in range(1, len(out)):
        out[i] = severity.sub(
            lambda m: m.group(1) + _paint(m.group(2), words[m.group(2)]) + m.group(3), out[i], count=1
        )
    return out


def write_result(res: CheckResult, explain: bool, stream, color: bool = False) -> None:
    """``format_result``'s lines on ``stream``, control characters escaped; in colour with
    ``color`` (the colours are added after the escaping, so only they are raw)."""
    lines = [safe_terminal(x) for x in format_result(res, explain)]
    for line in paint_result(lines, res) if color else lines:
        stream.write(line + "\n")


def _width() -> int:
    """The terminal's width (COLUMNS honoured), 100 when it cannot be told; at least 40."""
    try:
        cols = int(os.environ.get("COLUMNS") or 0)
    except ValueError:
        cols = 0
    if cols <= 0:
        cols = shutil.get_terminal_size((100, 24)).columns
    return max(40, min(cols, 400))


def _wrap(head: str, items: list[str], width: int | None = None) -> list[str]:
    width = width or _width()
    out, line = [], head
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(line) + len(piece) + 1 > width and line.strip() != head.strip():
            out.append(line.rstrip())
            line = " " * len(head) + piece + " "
        else:
            line += piece + " "
    out.append(line.rstrip())
    return out


def _fmt(v) -> str:
    if v is None:
        return "unknown"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return number_text(v)


__all__ = [
    "Finding",
    "check_doc",
    "check_file",
    "check_text",
    "format_result",
    "packs_checked_with",
    "resolve_house_rules",
]


def check_source(source, packs=()) -> CheckResult:
    """``builder.check(source, packs)``: ``source`` is a file path, a ``ListEditor`` or a parsed
    ``ListDoc``; ``packs`` are extra pack files."""
    from builder.lists.editor import ListEditor  # noqa: PLC0415 - the editor and the YAML library only for `check --fix`

    if isinstance(source, ListEditor):
        return source.check() if not packs else check_doc(source.doc, list(packs))
    if isinstance(source, ListDoc):
        return check_doc(source, list(packs))
    return check_file(source, list(packs))


class _CallableModule(types.ModuleType):
    """``builder.check`` is this module and the public ``check`` call at once."""

    def __call__(self, source, packs=()):
        return check_source(source, packs)


sys.modules[__name__].__class__ = _CallableModule
