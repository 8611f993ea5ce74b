"""Name matching: case, repeated spaces, hyphen variants and aliases do not matter."""

from __future__ import annotations

import re
import sys
import unicodedata
from collections import Counter
from typing import TYPE_CHECKING, Literal

from builder import state
from builder.i18n import L_

if TYPE_CHECKING:
    import difflib

_HYPHENS = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2212"), "-")
_SPACES = re.compile(r"\s+")
_APOS = dict.fromkeys(map(ord, "\u2018\u2019\u02bc`"), "'")


def normalize(name: str) -> str:
    """The key under which a name is looked up (remembered: a long list names the same few
    troops and cards again and again)."""
    try:
        return _normalize_memo(name)
    except TypeError:  # an unhashable value (a list where a name was expected)
        return _normalize(name)


def _normalize(name) -> str:
    text = unicodedata.normalize("NFKC", str(name)).translate(_HYPHENS).translate(_APOS)
    text = " ".join(text.split()).casefold()  # runs of spaces as one (str.split: the same as \s+)
    if "-" in text:  # no spaces around a hyphen
        text = "-".join(part.strip() for part in text.split("-"))
    return text


def loose(name: str) -> str:
    """A looser key: only a name's letters and digits count (``Dai-Katana`` = ``Dai Katana``,
    ``Out Fight & Outmaneuver`` = ``out-fight-outmaneuver``, ``Hatred of...`` = ``hatred-of``),
    accents left off, so that a name and its id (``slug``) have the same key: the catalog finds
    an entry by either, and everything that compares names by this key agrees with it. Marks
    that separate list items (``, ; : |``) before the first letter or after the last are kept
    (``Strength, ':'`` is two names, not ``Strength``), and so is a name of marks alone."""
    try:
        return _loose_memo(name)
    except TypeError:  # an unhashable value
        return _loose(name)


def _loose(name) -> str:
    text = "".join(ch for ch in unicodedata.normalize("NFKD", normalize(name)) if not unicodedata.combining(ch))
    alnum = [i for i, ch in enumerate(text) if ch.isalnum()]
    if not alnum:  # no letter or digit at all (":", "?!"): only spaces and hyphens left out
        return _bare(text)
    first, last = alnum[0], alnum[-1]
    inner = "".join(ch for ch in text[first : last + 1] if ch.isalnum())
    return _edge(text[:first]) + inner + _edge(text[last + 1 :])


def _edge(text: str) -> str:
    return _bare(text) if _SEPARATORS.intersection(text) else ""


_SEPARATORS = frozenset(",;:|")


def _bare(text: str) -> str:
    return text.replace(" ", "").replace("-", "").replace("_", "")


_loose_memo = state.memo("names.loose", bound=8192, lifetime=state.VALUE, doc="a name's loose form")(_loose)


def slug(name: str) -> str:
    text = unicodedata.normalize("NFKD", normalize(name)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def suggest(name: str, candidates, n: int = 3) -> list[str]:
    """The closest display names to ``name`` among ``candidates`` (display names)."""
    cands = list(dict.fromkeys(candidates))
    return NameIndex(cands).suggest(name, n) if cands else []


class NameIndex:
    """Candidate names prepared once for many suggestions (a catalog section keeps one).

    A candidate is scored with difflib's ratio only when the number of characters it shares
    with the name (difflib's ``quick_ratio``, an upper bound of the ratio) allows 0.6. Those
    shared counts are found for all candidates at once: for every character and count, the
    candidates' counts of that character (capped at that count) are packed into one integer,
    one field per candidate, so a name costs one addition per distinct character rather than
    a comparison with every candidate. Results are the ones a full comparison gives.
    """

    __slots__ = ("_code", "_matchers", "_table", "_width", "keyed", "keys", "lens")

    def __init__(self, candidates) -> None:
        cands = list(dict.fromkeys(candidates))
        self.keyed = {normalize(c): c for c in cands}
        self.keys = list(self.keyed)
        self.lens = [len(k) for k in self.keys]
        self._matchers: dict[
            str, difflib.SequenceMatcher[str]
        ] = {}  # a candidate's difflib matcher (its index built once)
        longest = max(self.lens, default=0)
        # a field holds a count of shared characters, at most the candidate's length
        self._width: int
        self._code: Literal["B", "H", "I"]  # memoryview's format of one field
        self._width, self._code = (1, "B") if longest < 1 << 8 else (2, "H") if longest < 1 << 16 else (4, "I")
        self._table: dict[str, list[int]] | None = None  # built on first use (a few candidates are compared directly)

    def _build(self) -> dict[str, list[int]]:
        bits = 8 * self._width
        counts: dict[str, list[tuple[int, int]]] = {}
        for i, k in enumerate(self.keys):
            for ch, c in Counter(k).items():
                counts.setdefault(ch, []).append((i, c))
        # _table[ch][m - 1]: the fields min(m, count of ch in the candidate), m up to the most
        # any candidate has
        table: dict[str, list[int]] = {}
        for ch, held in counts.items():
            table[ch] = [sum(min(m, c) << (bits * i) for i, c in held) for m in range(1, max(c for _, c in held) + 1)]
        self._table = table
        return table

    def _shared(self, key: str) -> list[int]:
        """How many characters ``key`` shares with each candidate (as a multiset)."""
        total = 0
        table = self._table if self._table is not None else self._build()
        for ch, c in Counter(key).items():
            row = table.get(ch)
            if row is not None:
                total += row[min(c, len(row)) - 1]
        raw = total.to_bytes(self._width * len(self.keys), sys.byteorder)
        return list(memoryview(raw).cast(self._code))

    def suggest(self, name: str, n: int = 3) -> list[str]:
        import difflib  # noqa: PLC0415 - difflib only when a name is unknown; `daimyo check` of a legal list loads none

        key = normalize(name)
        la = len(key)
        scored = []
        # a few candidates are scored directly (the bound would cost more than it saves)
        shared = self._shared(key) if len(self.keys) > 4 else [la] * len(self.keys)
        for k, lb, m in zip(self.keys, self.lens, shared, strict=True):
            # difflib's quick_ratio, computed as difflib does; it bounds the ratio
            total = la + lb
            if (2.0 * m / total if total else 1.0) >= 0.6:
                sm = self._matchers.get(k)
                if sm is None:
                    sm = self._matchers[k] = difflib.SequenceMatcher(None, "", k)
                sm.set_seq1(key)
                r = sm.ratio()  # SequenceMatcher(None, key, k).ratio(), as it always was
                if r >= 0.6:
                    scored.append((r, k))
        scored.sort(key=lambda t: (-t[0], t[1]))
        best = scored[0][0] if scored else 0
        keyed = self.keyed
        out = [keyed[k] for r, k in scored if r >= best - 0.08][:n]
        if not out:
            out = [c for k, c in keyed.items() if key and (key in k or k in key)][:n]
        return out


def did_you_mean(name: str, candidates, n: int = 3) -> str:
    hits = suggest(name, candidates, n)
    if not hits:
        return ""
    if len(hits) == 1:
        return L_("did you mean '{a}'?", a=hits[0])
    if len(hits) == 2:
        return L_("did you mean '{a}' or '{b}'?", a=hits[0], b=hits[1])
    return L_("did you mean {names} or '{last}'?", names=" or ".join(f"'{h}'" for h in hits[:-1]), last=hits[-1])


_normalize_memo = state.memo(
    "names.normalize", bound=1 << 16, lifetime=state.VALUE, doc="a name's normal form", typed=True
)(_normalize)


def fold(text: str) -> str:
    """``text`` without accents and case, for searching (``"Ōkubo"`` -> ``"okubo"``)."""
    decomposed = unicodedata.normalize("NFKD", str(text))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# what a quoted name writes as an escape: the quote and backslash, C0 and C1 controls (line
# breaks, tabs), DEL, the Unicode line and paragraph separators, and the marks that reorder text
_QUOTE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]')


def _escape(m: re.Match) -> str:
    c = m.group()
    if c in _QUOTE_ESCAPES:
        return _QUOTE_ESCAPES[c]
    return f"\\u{ord(c):04x}"


def quoted(name: object) -> str:
    """A name a user wrote, in double quotes on one line that nothing in it can end early or
    break: ``"`` and ``\\`` are written ``\\"`` and ``\\\\``, a line break, carriage return and
    tab ``\\n``, ``\\r`` and ``\\t``, any other control character (and the marks that reorder
    text) ``\\uNNNN``: a JSON string, read back exactly by any JSON reader. So ``Buke": legal`` is
    shown ``"Buke\\": legal"``, never as the end of the name and a verdict (every face that
    prints a list's or a player's name among words of its own uses it)."""
    return '"' + _NEEDS_ESCAPE.sub(_escape, str(name)) + '"'
