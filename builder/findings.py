"""Findings: what a check says about a list, each explaining itself."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from builder.errors import one_line
from builder.i18n import L_, N_, SOURCE_LANGUAGE, Text, current_language, pgettext, use
from builder.rulebooks import exact_source, format_source, humanize

SEVERITIES = ("error", "warning", "info")
_RANK = {s: i for i, s in enumerate(SEVERITIES)}


@dataclass
class Finding:
    """One result of a check.

    ``value``/``bound``/``base`` are the measured value, the limit it was compared
    with and what the limit was computed from (e.g. 105, 100, "50% of 200 AP").
    ``loc`` is the value path in the list document (``("troops", 3)``);
    ``counted`` names what was counted toward a limit, for ``--explain``.

    ``message`` is the English text; a message made with ``builder.i18n.L_`` also keeps its
    ``template`` (the English msgid, with named placeholders) and its ``params``, from which
    ``translated()`` makes the text in the current language (never by reading the English).
    """

    severity: str
    code: str
    message: str
    loc: tuple | None = None
    source: str | None = None
    value: Any = None
    bound: Any = None
    base: Any = None
    counted: list[str] = field(default_factory=list)
    line: int | None = None
    col: int | None = None
    text: Text | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.severity not in _RANK:
            raise ValueError(f"bad severity {self.severity!r}")
        if self.loc is not None:
            self.loc = tuple(self.loc)
        if isinstance(self.message, Text):
            self.text, self.message = self.message, str(self.message)

    @property
    def template(self) -> str | None:
        """The English msgid the message was made from (``None`` for a message given as text)."""
        return self.text.template if self.text is not None else None

    @property
    def params(self) -> dict[str, Any]:
        """The values of the template's placeholders (a word a person reads is a ``Text``)."""
        return dict(self.text.params) if self.text is not None else {}

    def reword(self, message: str) -> None:
        """Say the finding in other words (a ``Text`` keeps its template and parameters)."""
        if isinstance(message, Text):
            self.text, self.message = message, str(message)
        else:
            self.text, self.message = None, message

    def translated(self) -> str:
        """The message in the current language, rulebook references as a player reads them
        (the English ``message`` where there is no template)."""
        text = self.text.translated() if self.text is not None else self.message
        return humanize(text, bare=False)

    @property
    def path(self) -> str | None:
        if not self.loc:
            return None
        out = ""
        for part in self.loc:
            out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
        return out

    @property
    def rank(self) -> int:
        return _RANK[self.severity]

    def to_json(self) -> dict:
        """The finding as JSON: English whatever the language (machine output never changes with
        it), with ``message_translated`` and ``source_text_translated`` added beside the English
        when the current language is another."""
        lang = current_language()
        with use(SOURCE_LANGUAGE):
            d: dict[str, object] = {
                "severity": self.severity,
                "code": self.code,
                "message": humanize(self.message, bare=False),
                "path": self.path,
                "source": self.source,
            }
            if self.source:
                d["source_text"] = format_source(self.source)
        if self.line is not None:
            d["line"] = self.line
            d["col"] = self.col
        for k in ("value", "bound", "base"):
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        if self.counted:
            d["counted"] = list(self.counted)
        if lang != SOURCE_LANGUAGE:
            d["message_translated"] = self.translated()
            if self.source:
                d["source_text_translated"] = format_source(self.source)
        return d

    def format(self, file: str | None = None, explain: bool = False) -> str:
        """``FILE:LINE:COL: SEVERITY CODE: MESSAGE (SOURCE)``, the source as a player reads it
        ("Kensei rulebook, Army leaders, line 5912"); ``explain`` adds the exact FILE:LINE."""
        text = f"{severity_word(self.severity)} {self.code}: {self.translated()}"
        if self.source:
            shown = format_source(self.source, inline=True)
            exact = exact_source(self.source) if explain else ""
            text += f" ({shown}" + (f" [{exact}]" if exact and exact != shown else "") + ")"
        if file:
            where = f"{file}:{self.line}:{self.col}" if self.line else file
            text = f"{where}: {text}"
        return one_line(text)


def severity_word(severity: str) -> str:
    """A severity as the text output shows it (``error``, ``warning``, ``info``), translated."""
    if severity == "error":
        return pgettext("severity", "error")
    if severity == "warning":
        return pgettext("severity", "warning")
    return pgettext("severity", "info")


def error(code: str, message: str, **kw: Any) -> Finding:
    return Finding("error", code, message, **kw)


def warning(code: str, message: str, **kw: Any) -> Finding:
    return Finding("warning", code, message, **kw)


def info(code: str, message: str, **kw: Any) -> Finding:
    return Finding("info", code, message, **kw)


def event_setting(key: str, want: Any, got: Any) -> Finding:
    """An event's setting the list does not play (``event-setting``, checked on submission)."""
    if got is None:
        message = L_("this event plays {key} {want}; the list has {key} (none)", key=key, want=want)
    else:
        message = L_("this event plays {key} {want}; the list has {key} {got}", key=key, want=want, got=got)
    return Finding("error", "event-setting", message, loc=(key,))


class Summary(TypedDict, total=False):
    """The totals ``Rules.summary`` gives and the faces read. A game's summary holds these keys
    where they apply, and keys of its own besides (which only the game's parts read)."""

    cards: int  # cards in the list
    points: int  # points spent
    limit: int  # the points the list may spend
    size: int  # what the list is made of, counted (units, players)
    max_cards: int  # the most cards a list may hold
    hero_points: int  # a hero's points
    max_hero_points: int
    players: int  # seats of a setup


@dataclass
class CheckResult:
    file: str
    system: str
    name: str | None
    summary: Summary
    house_rules: dict
    findings: list[Finding]
    house_rules_agreed: dict = field(default_factory=dict)
    packs: list = field(default_factory=list)  # [{"name", "version", "hash", ...}] the packs checked with
    pack_changes: list = field(default_factory=list)  # lines: recorded packs that differ here, what changed
    # checked against the player's collection: [{"name", "used", "owned"}] of each entry used beyond
    # what is owned (None: not checked against one)
    collection_short: list[dict[str, Any]] | None = None

    @property
    def legal(self) -> bool:
        return not any(f.severity == "error" for f in self.findings)

    def has_warnings(self) -> bool:
        return any(f.severity == "warning" for f in self.findings)

    def counts(self) -> dict[str, int]:
        out = {s: 0 for s in SEVERITIES}
        for f in self.findings:
            out[f.severity] += 1
        return out

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "system": self.system,
            "name": self.name,
            "legal": self.legal,
            "summary": self.summary,
            "house_rules": self.house_rules,
            "house_rules_agreed": self.house_rules_agreed,
            "packs": list(self.packs),
            "findings": [f.to_json() for f in self.findings],
            **({"pack_changes": list(self.pack_changes)} if self.pack_changes else {}),
            **({"collection_short": list(self.collection_short)} if self.collection_short is not None else {}),
        }


# -- finding codes -----------------------------------------------------------------------------
# The finding codes of a system: what each means, how severe it can be, where the rulebook says
# so. Each rules module declares the codes its Python checks emit with ``codes(prefix, table)``;
# codes of the catalog's declarative restrictions are registered from the restrictions themselves
# (``from_restrictions``). ``gs.catalog.finding_codes(catalog)`` joins both, and the tests check
# that every registered code is emitted by some test list and that every emitted code is
# registered.


@dataclass(frozen=True)
class FindingCode:
    """One finding code. ``severity`` is the most severe it is given (a rule that cannot be
    told for want of data says so with a milder one); ``source`` the rulebook lines (FILE:LINES)."""

    code: str
    severity: str
    meaning: str
    source: str = ""

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"bad severity {self.severity!r} for {self.code}")

    def allows(self, severity: str) -> bool:
        """Whether a finding of this code may have ``severity`` (no more severe than registered)."""
        return SEVERITIES.index(severity) >= SEVERITIES.index(self.severity)

    def section(self) -> str:
        """Where the rulebook says so, as a player reads it (rulebook title, section, line)."""
        if not self.source:
            return ""

        return format_source(self.source)

    def to_json(self) -> dict:
        with use(SOURCE_LANGUAGE):  # machine output: the same in every language
            section = self.section()
        return {
            "code": self.code,
            "severity": self.severity,
            "meaning": self.meaning,
            "source": self.source or None,
            "section": section or None,
        }


def codes(prefix: str, table: dict) -> dict[str, FindingCode]:
    """``{prefix.name: FindingCode}`` from ``{name: (severity, meaning, source)}`` (source optional)."""
    out = {}
    for name, spec in table.items():
        severity, meaning, *rest = spec
        code = f"{prefix}.{name}"
        out[code] = FindingCode(code, severity, meaning, rest[0] if rest else "")
    return out


def from_restrictions(prefix: str, restrictions: Iterable[Any] | None) -> dict[str, FindingCode]:
    """The codes of a catalog's declarative restrictions (the first of each code names it), and
    the engine's warning for a profile field a restriction needs but the catalog lacks."""
    out: dict[str, FindingCode] = {}
    for r in restrictions or ():
        code = f"{prefix}.{r.code}"
        old = out.get(code)
        if old is None:
            out[code] = FindingCode(code, r.severity, (r.name or r.label or r.code).strip(), r.source or "")
        elif SEVERITIES.index(r.severity) < SEVERITIES.index(old.severity):
            out[code] = FindingCode(code, r.severity, old.meaning, old.source)
    if out:
        code = f"{prefix}.profile-incomplete"
        out[code] = FindingCode(
            code,
            "error",
            N_(
                "a profile lacks a field a restriction needs (named; give it in a pack): an error when it could "
                "change the verdict"
            ),
        )
    return out


def registry(table: Mapping[str, Any] | None) -> dict[str, FindingCode]:
    """A rules module's ``FINDING_CODES`` as FindingCodes (a plain ``{code: meaning}`` is an error code)."""
    out = {}
    for code, spec in dict(table or {}).items():
        if isinstance(spec, FindingCode):
            out[code] = spec
        elif isinstance(spec, str):
            out[code] = FindingCode(code, "error", spec)
        else:
            severity, meaning, *rest = spec
            out[code] = FindingCode(code, severity, meaning, rest[0] if rest else "")
    return out
