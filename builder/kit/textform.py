"""The lexical helpers of the text form of a list, shared by the share text
(``builder.share.text``) and each game's own text form (``GameSystem.text_*``, ``read_*``):
quoting a name so that it reads back as itself, reading counts, costs and quoted names back
from a line, and the patterns of the header's facets.

Every pattern here runs in time linear in the line (see the note above ``SEP``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from builder.names import normalize

# Whether a text names a game (its id, name or a header spelling): the share text
# (``builder.share.text``), which asks the registry, sets it when it is imported; a name that
# names a game is quoted, or it would read back as a header segment.
names_a_game: Callable[[str], bool] = lambda text: False  # noqa: E731


# Every pattern below runs in time linear in the line: a run of spaces is entered at its first
# character only (the look-behind) and never given back (possessive ``++``), and the patterns
# that read a count or a cost at the end of a line look at the end only (``_count_after``,
# ``cost_start``), never at every place a name could end.
SEP = re.compile(r"(?<!\s)\s++[-\u2010\u2011\u2012\u2013\u2014|]\s+")
_KEY_RE = re.compile(r"^(?P<key>[A-Za-z_ ]{3,20}?)\s*+:(?P<value>.*)$")


def key_match(line: str):
    """``_KEY_RE.match(line)``, without trying it where no key can be (no colon, or more
    than a key's 20 characters before the colon)."""
    i = line.find(":")
    if i < 3 or line[20:i].strip():
        return None
    return _KEY_RE.match(line)


SECTION_WORDS = {
    "deck",
    "decklist",
    "main",
    "maindeck",
    "mainboard",
    "cards",
    "troops",
    "army",
    "players",
    "list",
    "action cards",
    "actions",
    "action deck",
}
_COST = re.compile(r"[\(\[]\s*+[0-9]++(?:[.,][0-9]+)?\s*+(?:ap|pts?|points)?\s*+[\)\]]", re.I)


def cost_start(text: str) -> int:
    """Where a cost written at the end of a name ('Samurai Yari (25 AP)') starts, spaces before
    it included; -1 when there is none."""
    body = text.rstrip()
    if not body.endswith((")", "]")):
        return -1
    j = max(body.rfind("("), body.rfind("["))  # a cost holds no bracket: it opens at the last one
    if j < 0 or not _COST.fullmatch(body, j):
        return -1
    return len(body[:j].rstrip())


def strip_cost(text: str) -> str:
    """``text`` without the cost written at its end (see ``cost_start``)."""
    j = cost_start(text)
    return text if j < 0 else text[:j]


_NUM = r"([0-9]{1,7})"  # up to the number range (1,000,000); longer digits are part of a name
_COUNT_PATTERNS = [
    re.compile(rf"^[\(\[]{_NUM}[\)\]]\s*[xX\u00d7*]?\s*(.+)$"),
    re.compile(rf"^{_NUM}\s*[xX\u00d7*]?\s+(.+)$"),
    re.compile(rf"^{_NUM}[xX\u00d7*](.+)$"),
    re.compile(rf"^[xX\u00d7]{_NUM}\s+(.+)$"),
]
# A count after the name: 'NAME x3' / 'NAME *3', and 'NAME 3' / 'NAME (3)'; read from the end
# of the line (the count is at most 9 characters long)
_COUNT_AFTER_TAIL = [
    re.compile(rf"[xX\u00d7*]\s?{_NUM}$"),
    re.compile(rf"\s[\(\[]?{_NUM}[\)\]]?$"),
]


def _count_after(text: str, which: int) -> tuple[int, str] | None:
    """(count, name) of a count written after the name, or None."""
    tail_start = max(0, len(text) - 12)
    m = _COUNT_AFTER_TAIL[which].search(text, tail_start)
    if m is None:
        return None
    head = text[: m.start()]
    if which == 0:
        name = head.rstrip() or head[:1]
    else:
        name = head.rstrip() or head[:1]
        if not head:
            return None
    if not name:
        return None
    return int(m.group(1)), name


_QUOTED_REST = re.compile(r'(?:[^"\\]++|\\.)*+"', re.S)  # after an opening quote: up to its closing one


def quoted_spans(line: str):
    """(start, end) of each quoted name ('"..."', backslash escapes) in ``line``, left to right.
    When a quote is never closed no later one can be (the rest was read already): the scan
    stops, so the line is read once."""
    i = line.find('"')
    while i >= 0:
        m = _QUOTED_REST.match(line, i + 1)
        if m is None:
            return
        yield i, m.end()
        i = line.find('"', m.end())


HOLE = re.compile(r"\x00([0-9]+)\x00")
_SAFE = re.compile(r"^[^\W\d_][^\",:#()\[\]|*+\\\x00-\x1f]*$")
_RISKY_START = re.compile(r"^[xX\u00d7*](?:[0-9]|\s)")  # reads as a count: "x3 ...", "X 0"
_RISKY_SEGMENT = re.compile(r"^(?:samurai|family)\s", re.I)
_MARKERS = {"none", "no provinces", "provinces unset", "no cards", "empty"}


# control characters: never written raw into a text export (quoted with escapes instead)
CTRL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def json_q(text: str) -> str:
    """``text`` as a JSON string in which every control character is an escape."""
    out = json.dumps(text, ensure_ascii=False)
    return CTRL.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def free_text(text: str) -> str:
    """The value of a Name:, Author: or Notes: line: as written, or quoted when it holds control
    characters or would itself read as a quoted value."""
    if CTRL.search(text) or (len(text) >= 2 and text[0] == '"' and text[-1] == '"') or text != text.strip():
        return json_q(text)
    return text


def unquote_free_text(text: str) -> str:
    """The value of a Name:, Author: or Notes: line as ``free_text`` wrote it: unquoted."""
    t = text.strip()
    if len(t) >= 2 and t[0] == '"' and t[-1] == '"':
        try:
            v = json.loads(t)
        except ValueError:
            return text
        if isinstance(v, str):
            return v
    return text


def q(name: str, segment: bool = False) -> str:
    """A name as written in a text line: plain when it reads back as itself, else quoted.

    ``segment``: the name is a middle segment of a Senji player line."""
    if CTRL.search(name):
        return json_q(name)
    if (
        _SAFE.match(name)
        and not (segment and _RISKY_SEGMENT.match(name))
        and not SEP.search(name)
        and name == name.strip()
        and name[-1:] not in "-."
        and normalize(name) not in SECTION_WORDS
        and normalize(name) not in _MARKERS
        and not _RISKY_START.match(name)
        and not names_a_game(name)
    ):
        return name
    return json_q(name)


def mask(line: str) -> tuple[str, list[str]]:
    """Replace each quoted name by a placeholder, so separators inside it are not split."""
    found: list[str] = []

    def hole(m):
        found.append(m.group(0))
        return f"\x00{len(found) - 1}\x00"

    if '"' not in line:
        return line, found
    out, last = [], 0
    for a, b in quoted_spans(line):
        found.append(line[a:b])
        out.append(line[last:a])
        out.append(f"\x00{len(found) - 1}\x00")
        last = b
    out.append(line[last:])
    return "".join(out), found


def unmask(p, text: str) -> str:
    """A name from a masked line: a whole placeholder is the quoted name, otherwise restored text."""
    text = text.strip()
    m = HOLE.fullmatch(text)
    if m and int(m.group(1)) < len(p.quoted):
        try:
            return json.loads(p.quoted[int(m.group(1))])
        except ValueError:
            return p.quoted[int(m.group(1))]
    return HOLE.sub(lambda mm: p.quoted[int(mm.group(1))] if int(mm.group(1)) < len(p.quoted) else "", text)


def plain_number(v) -> str:
    """A number as a list's text writes it: 3.0 as 3, other floats without trailing digits."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def needs_count(name: str) -> bool:
    """Whether an entry's name needs its count written before it to read back as that name."""
    return (
        not name[:1].isalpha()
        or name[-1:] in "0123456789)]"
        or bool(key_match(name))
        or normalize(name.rstrip(":")) in SECTION_WORDS
        or _count_after(name, 0) is not None
    )


def count_candidates(text: str, after: bool = True) -> list[tuple[int | None, str]]:
    """Each (count, name) a line can be read as, a written count first (``after``: counts written
    after the name too), and last the whole line with no count."""
    out: list[tuple[int | None, str]] = []
    for pat in _COUNT_PATTERNS:
        m = pat.match(text)
        if m:
            out.append((int(m.group(1)), m.group(2).strip()))
    for which in (0, 1) if after else (0,):
        hit = _count_after(text, which)
        if hit:
            out.append((hit[0], hit[1].strip()))
    out.append((None, text.strip()))
    return [(n, s) for n, s in out if s]


def pick(p, f, cands: list[tuple[int | None, str]]) -> tuple[int | None, str]:
    """The reading of a line: a quoted name first, then one the catalog knows, then the first."""
    for n, name in cands:
        if HOLE.fullmatch(name.strip()):
            return n, unmask(p, name)
    for n, name in cands:
        if p.r.find(f, unmask(p, name))[1] is not None:
            return n, unmask(p, name)
    n, name = cands[0]
    return n, unmask(p, name)


POINTS_FACET = re.compile(r"^(?:(\?|[0-9]+(?:\.[0-9]+)?)\s*/\s*)?([0-9]{1,30})\s*(ap|army points|pts|points)$", re.I)
USED_FACET = re.compile(r"^[0-9]+(?:\.[0-9]+)?\s*(ap|army points|pts|points|hero points|hp|cards)\s+used$", re.I)
CARDS_FACET = re.compile(r"^(?:([0-9]+)\s*/\s*)?([0-9]{1,30})\s*cards?$", re.I)
HP_FACET = re.compile(r"^(?:(\?|[0-9]+(?:\.[0-9]+)?)\s*/\s*)?([0-9]{1,30})\s*(hero points|hp)$", re.I)
PLAYERS_FACET = re.compile(r"^[0-9]+\s*players?$", re.I)


__all__ = [
    "CARDS_FACET",
    "CTRL",
    "HOLE",
    "HP_FACET",
    "PLAYERS_FACET",
    "POINTS_FACET",
    "SECTION_WORDS",
    "SEP",
    "USED_FACET",
    "cost_start",
    "count_candidates",
    "free_text",
    "json_q",
    "key_match",
    "mask",
    "names_a_game",
    "needs_count",
    "pick",
    "plain_number",
    "q",
    "quoted_spans",
    "strip_cost",
    "unmask",
    "unquote_free_text",
]
