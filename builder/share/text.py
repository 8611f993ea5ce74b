"""Lists as people write them on forums and in chats, and back.

Written form (one header line, key lines, a blank line, one line per entry)::

    Buke vanguard - Kensei - clan buke - 185/200 AP
    Author: Kenji
    Commander: taisho

    Taisho Buke (20)
    5x Samurai Yari (25)
    9x Yari Ashigaru (45), led by Ashigaru Leader, with standard

Header segments are separated by `` - ``; the segment naming the game (Kensei,
Senshiai, HeroCard, Senji, Satsuma Rebellion) splits the list's name (before it)
from the facets (after it): Kensei ``clan X`` and ``USED/LIMIT AP`` or
``LIMIT AP``; Senshiai ``COUNT/SIZE cards`` (a lone ``COUNT cards`` is only
informative); HeroCard ``USED/MAX hero points`` or ``MAX hero points``; Satsuma
``side X``; Senji ``N players``. Figures in parentheses after a troop are its
cost and are ignored when reading.

Reading is lenient: case, spaces and hyphen variants do not matter; counts may be
written ``4``, ``4x``, ``x4``, ``(4)``, ``[4]`` before the name or ``x4`` / ``4``
after it; blank lines, ``#`` and ``//`` comment lines and deck section words
(``Deck``, ``Main``, ...) are skipped. Plain card lists without a header are read
as the system whose catalog knows most of the names (or the one given).
"""

from __future__ import annotations

import math
import re

from builder import SYSTEMS
from builder.errors import Diagnostic, ListError
from builder.names import loose, normalize
from builder.share.canonical import Resolver, canonical, tidy
from builder.share.schema import EXTRA_LABELS, LABELS, SCHEMAS, Note, field_of

_SEP = re.compile(r"\s+[-\u2010\u2011\u2012\u2013\u2014|]\s+")
KEY_LINES = {
    "name": "name", "author": "author", "notes": "notes", "note": "notes", "packs": "packs",
    "pack": "packs", "house rules": "house_rules", "house_rules": "house_rules",
    "commander": "commander", "commander level": "commander", "occult": "occult",
    "general": "general", "hero": "hero", "attributes": "attributes", "attribute": "attributes",
    "deck": "deck", "side": "side", "clan": "clan", "points": "points", "size": "size",
    "deck size": "size", "max hero points": "max_hero_points", "max_hero_points": "max_hero_points",
    "system": "system", "troops": "troops", "cards": "cards", "players": "players",
    "checked with": "checked_with", "checked_with": "checked_with",
}
#: The main collection of each system: written as "KEY: none" when present but empty.
COLLECTION = {"kensei": "troops", "senshiai": "cards", "herocard": "deck", "satsuma": "cards",
              "senji": "players"}
_KEY_RE = re.compile(r"^(?P<key>[A-Za-z_ ]{3,20}?)\s*:(?P<value>.*)$")
SECTION_WORDS = {"deck", "decklist", "main", "maindeck", "mainboard", "cards", "troops", "army",
                 "players", "list", "action cards", "actions", "action deck"}
_COST = re.compile(r"\s*[\(\[]\s*[0-9]+(?:[.,][0-9]+)?\s*(?:ap|pts?|points)?\s*[\)\]]\s*$", re.I)
_NUM = r"([0-9]{1,7})"  # up to the number range (1,000,000); longer digits are part of a name
_COUNT_PATTERNS = [
    re.compile(rf"^[\(\[]{_NUM}[\)\]]\s*[xX\u00d7*]?\s*(.+)$"),
    re.compile(rf"^{_NUM}\s*[xX\u00d7*]?\s+(.+)$"),
    re.compile(rf"^{_NUM}[xX\u00d7*](.+)$"),
    re.compile(rf"^[xX\u00d7]{_NUM}\s+(.+)$"),
]
_COUNT_AFTER = [
    re.compile(rf"^(.+?)\s*[xX\u00d7*]\s?{_NUM}$"),
    re.compile(rf"^(.+?)\s+[\(\[]?{_NUM}[\)\]]?$"),
]
CARD_SYSTEMS = ("senshiai", "herocard", "satsuma", "kensei")
_DECK_FIELD = {"senshiai": "cards", "herocard": "deck", "satsuma": "cards", "kensei": "troops"}


_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_HOLE = re.compile(r"\x00([0-9]+)\x00")
_SAFE = re.compile(r"^[^\W\d_][^\",:#()\[\]|*+\\\x00-\x1f]*$")
_RISKY_START = re.compile(r"^[xX\u00d7][0-9]")
_RISKY_SEGMENT = re.compile(r"^(?:samurai|family)\s", re.I)
_MARKERS = {"none", "no provinces", "provinces unset", "no cards", "empty"}


# control characters: never written raw into a text export (quoted with escapes instead)
_CTRL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def json_q(text: str) -> str:
    """``text`` as a JSON string in which every control character is an escape."""
    import json

    out = json.dumps(text, ensure_ascii=False)
    return _CTRL.sub(lambda m: f"\\u{ord(m.group()):04x}", out)


def _free_text(text: str) -> str:
    """The value of a Name:, Author: or Notes: line: as written, or quoted when it holds control
    characters or would itself read as a quoted value."""
    if _CTRL.search(text) or (len(text) >= 2 and text[0] == '"' and text[-1] == '"') or text != text.strip():
        return json_q(text)
    return text


def _unquote_free_text(text: str) -> str:
    import json

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
    if _CTRL.search(name):
        return json_q(name)
    if (_SAFE.match(name) and not (segment and _RISKY_SEGMENT.match(name)) and not _SEP.search(name) and name == name.strip() and name[-1:] not in "-."
            and normalize(name) not in SECTION_WORDS and normalize(name) not in _MARKERS
            and not _RISKY_START.match(name) and system_of_label(name) is None):
        return name
    return json_q(name)


def _mask(line: str) -> tuple[str, list[str]]:
    """Replace each quoted name by a placeholder, so separators inside it are not split."""
    found: list[str] = []

    def hole(m):
        found.append(m.group(0))
        return f"\x00{len(found) - 1}\x00"

    return _QUOTED.sub(hole, line), found


def _uq(p, text: str) -> str:
    """A name from a masked line: a whole placeholder is the quoted name, otherwise restored text."""
    import json

    text = text.strip()
    m = _HOLE.fullmatch(text)
    if m and int(m.group(1)) < len(p.quoted):
        try:
            return json.loads(p.quoted[int(m.group(1))])
        except ValueError:
            return p.quoted[int(m.group(1))]
    return _HOLE.sub(lambda mm: p.quoted[int(mm.group(1))] if int(mm.group(1)) < len(p.quoted) else "", text)


def system_of_label(segment: str) -> str | None:
    key = loose(segment)
    for s in SYSTEMS:
        if key in (loose(s), loose(LABELS[s])) or key in {loose(x) for x in EXTRA_LABELS.get(s, ())}:
            return s
    return None


# -- writing ----------------------------------------------------------------------------------

def _num(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _flow(v) -> str:
    import json

    return json.dumps(v, ensure_ascii=False)


def unit_cost(resolver: Resolver, troop: str, models: int):
    """A troop line's cost in AP from the catalog (None when the catalog does not give it)."""
    f = field_of("kensei", "troops").sub("troop")
    _, e = resolver.find(f, troop)
    if e is None:
        return None
    purchase = getattr(e, "purchase", None)
    if purchase is not None and getattr(purchase, "models", 0):
        return math.ceil(models / purchase.models) * purchase.points
    cost = getattr(e, "cost", None)
    return None if cost is None else cost * models


def header_line(doc: dict, summary: dict | None = None) -> list[str]:
    """The header segments of a canonical document."""
    system = doc["system"]
    summary = summary or {}
    segs = []
    if doc.get("name") and not _awkward(doc["name"]):
        segs.append(doc["name"])
    segs.append(LABELS[system])
    if system == "kensei":
        if "clan" in doc:
            segs.append(f"clan {q(doc['clan'])}")
        used = summary.get("points")
        if "points" in doc:
            segs.append(f"{_num(used)}/{doc['points']} AP" if used is not None else f"{doc['points']} AP")
        elif used is not None:
            segs.append(f"{_num(used)} AP used")
    elif system == "senshiai":
        n = sum(doc.get("cards", {}).values())
        segs.append(f"{n}/{doc['size']} cards" if "size" in doc else f"{n} cards")
    elif system == "herocard":
        used = summary.get("hero_points")
        if "max_hero_points" in doc:
            segs.append(f"{_num(used)}/{doc['max_hero_points']} hero points" if used is not None
                        else f"{doc['max_hero_points']} hero points")
        elif used is not None:
            segs.append(f"{_num(used)} hero points used")
    elif system == "senji":
        n = len(doc.get("players", []))
        segs.append(f"{n} player{'s' * (n != 1)}")
    elif system == "satsuma":
        if "side" in doc:
            segs.append(f"side {q(doc['side'])}")
        if "cards" in doc:
            segs.append(f"{sum(doc['cards'].values())} cards")
    return segs


def _awkward(name: str) -> bool:
    """A name the header cannot carry (it would read as a comment or a header word)."""
    return (name.startswith(("#", "//", "-", "*", "+", "[", "{", "(", ">", "|")) or system_of_label(name) is not None
            or bool(_KEY_RE.match(name)) or name[:1].isdigit()
            or name[-1:] in "-|\u2010\u2011\u2012\u2013\u2014" or '"' in name or bool(_CTRL.search(name)))


def _needs_count(name: str) -> bool:
    return (not name[:1].isalpha() or bool(re.search(r"[0-9)\]]$", name)) or bool(_KEY_RE.match(name))
            or normalize(name.rstrip(":")) in SECTION_WORDS or bool(_COUNT_AFTER[0].match(name)))


def render_lines(doc: dict, resolver: Resolver | None = None, summary: dict | None = None) -> list[tuple[str, str]]:
    """(kind, line) pairs: kind is header, key, blank or entry (markdown decorates by kind)."""
    system = doc["system"]
    r = resolver or Resolver.of(system)
    out: list[tuple[str, str]] = [("header", " - ".join(header_line(doc, summary)))]
    if doc.get("name") and _awkward(doc["name"]):
        out.append(("key", f"Name: {_free_text(doc['name'])}"))
    if "author" in doc:
        out.append(("key", f"Author: {_free_text(doc['author'])}"))
    for line in doc.get("notes", "").split("\n") if "notes" in doc else []:
        out.append(("key", f"Notes: {_free_text(line)}" if line else "Notes:"))
    if "packs" in doc:
        out.append(("key", f"Packs: {_flow(doc['packs'])}"))
    if "house_rules" in doc:
        out.append(("key", f"House rules: {_flow(doc['house_rules'])}"))
    if "checked_with" in doc:
        out.append(("key", f"Checked with: {_flow(doc['checked_with'])}"))
    if system == "kensei":
        if "commander" in doc:
            out.append(("key", f"Commander: {q(doc['commander'])}"))
        if "occult" in doc:
            out.append(("key", f"Occult: {'yes' if doc['occult'] else 'no'}"))
        if "general" in doc:
            out.append(("key", f"General: {q(doc['general'])}"))
        out.append(("blank", ""))
        for t in doc.get("troops", []):
            models = t.get("models", 1)
            line = f"{models}x {q(t['troop'])}" if "models" in t or _needs_count(t["troop"]) else q(t["troop"])
            cost = unit_cost(r, t["troop"], models)
            if cost is not None:
                line += f" ({_num(cost)})"
            if "led_by" in t:
                line += f", led by {q(t['led_by'])}"
            if t.get("standard"):
                line += ", with standard"
            out.append(("entry", line))
    elif system in ("senshiai", "herocard", "satsuma"):
        if system == "herocard":
            if "hero" in doc:
                out.append(("key", f"Hero: {q(doc['hero'])}"))
            if "attributes" in doc:
                out.append(("key", "Attributes: " + ", ".join(map(q, doc["attributes"])) if doc["attributes"]
                            else "Attributes: none"))
        if system == "satsuma" and "deck" in doc:
            out.append(("key", f"Deck: {q(doc['deck'])}"))
        out.append(("blank", ""))
        for name, n in doc.get(_DECK_FIELD[system], {}).items():
            out.append(("entry", f"{n} {q(name)}"))
    elif system == "senji":
        out.append(("blank", ""))
        for p in doc.get("players", []):
            segs = [q(p["name"])]
            if "family" in p:
                segs.append(q(p["family"], segment=True))
            if "samurai" in p:
                segs.append(f"samurai {q(p['samurai'])}")
            provs = []
            for pv in p.get("provinces", []):
                s = q(pv["province"])
                if "units" in pv or pv.get("samurai") or re.search(r"[0-9]$|\+\s*s(amurai)?$", s, re.I):
                    s += f" {pv.get('units', 0)}"
                    if pv.get("samurai"):
                        s += "+S"
                provs.append(s)
            segs.append(", ".join(provs) if provs else "no provinces" if "provinces" in p else "provinces unset")
            out.append(("entry", " - ".join(segs)))
    coll = COLLECTION[system]
    if coll in doc and not doc[coll]:
        at = next(i for i, (k, _) in enumerate(out) if k == "blank")
        out.insert(at, ("key", f"{coll.capitalize()}: none"))
    while out and out[-1][0] == "blank":
        out.pop()
    return out


def render_text(doc: dict, resolver: Resolver | None = None, summary: dict | None = None) -> str:
    return "\n".join(line for _, line in render_lines(doc, resolver, summary)) + "\n"


# -- reading -----------------------------------------------------------------------------------

class _Parser:
    def __init__(self, file: str, system: str | None):
        self.file = file
        self.system = system
        self.errors: list[Diagnostic] = []
        self.notes: list[Note] = []
        self.doc: dict = {}
        self.r: Resolver | None = None
        self.quoted: list[str] = []

    def error(self, line: int, col: int, message: str, hint: str | None = None) -> None:
        self.errors.append(Diagnostic(self.file, line, col, message, hint=hint))

    def warn(self, line: int, col: int, message: str, hint: str | None = None) -> None:
        self.notes.append(Note(line, col, message, "warning", hint))


def _lines(text: str) -> list[tuple[int, int, str]]:
    """(line number, column of first char, content) of every content line."""
    out = []
    text = text.lstrip("\ufeff")
    for no, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        body = raw.rstrip()
        stripped = body.lstrip()
        if not stripped or stripped.startswith(("#", "//")):
            continue
        out.append((no, len(body) - len(stripped) + 1, stripped))
    return out


def parse_header(line: str) -> tuple[str | None, str | None, list[str]]:
    """(system, name, facets) when ``line`` is a header line, else (None, None, [])."""
    seps = list(_SEP.finditer(line))
    bounds = [0] + [m.end() for m in seps]
    ends = [m.start() for m in seps] + [len(line)]
    segs = [line[a:b] for a, b in zip(bounds, ends)]
    idx = None
    for i, seg in enumerate(segs):
        if system_of_label(seg):
            idx = i
    if idx is None:
        return None, None, []
    name = line[:seps[idx - 1].start()].strip() if idx else None
    return system_of_label(segs[idx]), name or None, [s.strip() for s in segs[idx + 1:]]


def _count_candidates(text: str, after: bool = True) -> list[tuple[int | None, str]]:
    out = []
    for pat in _COUNT_PATTERNS:
        m = pat.match(text)
        if m:
            out.append((int(m.group(1)), m.group(2).strip()))
    for pat in _COUNT_AFTER if after else _COUNT_AFTER[:1]:
        m = pat.match(text)
        if m:
            out.append((int(m.group(2)), m.group(1).strip()))
    out.append((None, text.strip()))
    return [(n, s) for n, s in out if s]


def _pick(p: _Parser, f, cands: list[tuple[int | None, str]]) -> tuple[int | None, str]:
    """The reading of a line: a quoted name first, then one the catalog knows, then the first."""
    for n, name in cands:
        if _HOLE.fullmatch(name.strip()):
            return n, _uq(p, name)
    for n, name in cands:
        if p.r.find(f, _uq(p, name))[1] is not None:
            return n, _uq(p, name)
    n, name = cands[0]
    return n, _uq(p, name)


def parse_text(text: str, file: str = "<text>", system: str | None = None,
               markdown: bool = False) -> tuple[dict, list[Note]]:
    """A list document from text (or markdown); ListError with FILE:LINE:COL for malformed lines."""
    if markdown:
        from builder.share.markdown import strip_markdown

        text = strip_markdown(text)
    p = _Parser(file, system)
    lines = _lines(text)
    if not lines:
        raise ListError(Diagnostic(file, 1, 1, "no list found: the text is empty",
                                   hint="paste a list exported with 'daimyo export'"))
    start = 0
    masked_header, header_quoted = _mask(lines[0][2])
    hsys, name, facets = parse_header(masked_header)
    if name:
        name = _HOLE.sub(lambda m: header_quoted[int(m.group(1))], name)
    if hsys:
        if system and system != hsys:
            p.error(lines[0][0], lines[0][1], f"the header says {LABELS[hsys]}, not {LABELS[system]}",
                    hint="drop --system or fix the header")
        system = hsys
        start = 1
        if name:
            p.doc["name"] = name
    body = lines[start:]
    if system is None:
        system = _infer_system(body)
        if system is None:
            raise ListError(Diagnostic(file, lines[0][0], lines[0][1],
                                       "cannot tell which game this list is for",
                                       hint="start with a header such as 'My deck - Senshiai' or pass --system"))
    p.system = system
    p.r = Resolver.of(system)
    p.doc["system"] = system
    if hsys:
        p.quoted = header_quoted
        _facets(p, facets, lines[0])
    for no, col, raw_line in body:
        line, p.quoted = _mask(raw_line)
        m = _KEY_RE.match(raw_line)
        key = KEY_LINES.get(normalize(m.group("key"))) if m else None
        if key is not None and not (system == "herocard" and key == "deck" and not m.group("value").strip()):
            value = m.group("value")
            lead = len(value) - len(value.lstrip())
            value = value[1:] if value.startswith(" ") else value
            _key_line(p, key, value.rstrip(), no, col + m.start("value") + lead)
            continue
        if normalize(line.rstrip(":")) in SECTION_WORDS:
            continue
        if "\x00" not in line and '"' in line and _QUOTED.search(raw_line) is None:
            p.error(no, col + line.find('"'), "a quote is not closed", hint='write a quoted name as "Name"')
            continue
        if system == "kensei":
            _troop_line(p, line, no, col)
        elif system == "senji":
            _player_line(p, line, no, col)
        else:
            _card_line(p, line, no, col)
    if p.errors:
        raise ListError(p.errors)
    try:
        doc = canonical(p.doc, system, p.r, file=file)
    except ListError as exc:  # values that read as the wrong kind
        raise ListError(exc.diagnostics) from None
    return doc, p.notes


def _infer_system(body) -> str | None:
    best, best_n = None, 0
    scores = []
    for s in CARD_SYSTEMS:
        r = Resolver.of(s)
        f = field_of(s, _DECK_FIELD[s])
        f = f.sub("troop") if f.kind == "items" else f
        if not r.knows(f):
            continue
        n = 0
        for _, _, line in body:
            line = _COST.sub("", line.split(",")[0]) if s == "kensei" else line
            if any(r.find(f, name)[1] is not None for _, name in _count_candidates(line)):
                n += 1
        scores.append(n)
        if n > best_n:
            best, best_n = s, n
    if best_n == 0 or scores.count(best_n) > 1:
        return None
    return best


_POINTS = re.compile(r"^(?:(\?|[0-9]+(?:\.[0-9]+)?)\s*/\s*)?([0-9]{1,30})\s*(ap|army points|pts|points)$", re.I)
_USED = re.compile(r"^[0-9]+(?:\.[0-9]+)?\s*(ap|army points|pts|points|hero points|hp|cards)\s+used$", re.I)
_CARDS = re.compile(r"^(?:([0-9]+)\s*/\s*)?([0-9]{1,30})\s*cards?$", re.I)
_HP = re.compile(r"^(?:(\?|[0-9]+(?:\.[0-9]+)?)\s*/\s*)?([0-9]{1,30})\s*(hero points|hp)$", re.I)
_PLAYERS = re.compile(r"^[0-9]+\s*players?$", re.I)


def _facets(p: _Parser, facets: list[str], where) -> None:
    no, col, _ = where
    s = p.system
    for seg in facets:
        low = seg.lower()
        if _USED.match(seg) or (s == "senji" and _PLAYERS.match(seg)):
            continue
        if s == "kensei":
            m = _POINTS.match(seg)
            if m:
                p.doc["points"] = int(m.group(2))
                continue
            if low.startswith("clan "):
                p.doc["clan"] = _uq(p, seg[5:])
                continue
            if low.endswith(" clan"):
                p.doc["clan"] = _uq(p, seg[:-5])
                continue
            f = field_of("kensei", "clan")
            if p.r.find(f, seg)[1] is not None:
                p.doc["clan"] = seg
                continue
        elif s == "senshiai":
            m = _CARDS.match(seg)
            if m:
                if m.group(1):
                    p.doc["size"] = int(m.group(2))
                continue
            m = re.match(r"^size\s+([0-9]{1,30})$", seg, re.I)
            if m:
                p.doc["size"] = int(m.group(1))
                continue
        elif s == "herocard":
            m = _HP.match(seg)
            if m:
                p.doc["max_hero_points"] = int(m.group(2))
                continue
        elif s == "satsuma":
            if low.startswith("side "):
                p.doc["side"] = _uq(p, seg[5:])
                continue
            if _CARDS.match(seg):
                p.doc.setdefault("cards", {})
                continue
            f = field_of("satsuma", "side")
            if p.r.find(f, seg)[1] is not None or low in ("samurai", "imperial"):
                p.doc["side"] = seg
                continue
        p.error(no, col, f"cannot read '{seg}' in the header of a {LABELS[s]} list",
                hint=_facet_hint(s))


def _facet_hint(s: str) -> str:
    return {
        "kensei": "write e.g. 'My army - Kensei - clan buke - 200 AP'",
        "senshiai": "write e.g. 'My deck - Senshiai - 50/50 cards'",
        "herocard": "write e.g. 'My hero - HeroCard - 28/30 hero points'",
        "senji": "write e.g. 'Our game - Senji - 4 players'",
        "satsuma": "write e.g. 'My deck - Satsuma Rebellion - side samurai'",
    }[s]


def _key_line(p: _Parser, key: str, value: str, no: int, col: int) -> None:
    s = p.system
    allowed = {"name", "author", "notes", "packs", "house_rules", "system"} | {f.key for f in SCHEMAS[s]}
    if key not in allowed:
        p.error(no, col, f"'{key}' is not part of a {LABELS[s]} list")
        return
    v = value.strip()
    if key == "system":
        if system_of_label(v) != s:
            p.error(no, col, f"this list is for {LABELS[s]}, not '{v}'")
        return
    if key == "notes":
        old = p.doc.get("notes")
        value = _unquote_free_text(value)
        p.doc["notes"] = value if old is None else old + "\n" + value
        return
    if key in ("name", "author"):
        v = _unquote_free_text(v)
    if key in ("packs", "house_rules", "checked_with"):
        data = _flow_value(p, v, no, col)
        if data is None:
            return
        if key == "checked_with":
            if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
                p.error(no, col, "checked with must be a list such as [{\"pack\": \"my-cards\", \"version\": \"1\"}]")
                return
            p.doc.setdefault("checked_with", []).extend(data)
        elif key == "packs":
            if isinstance(data, str):
                data = [data]
            if not isinstance(data, list):
                p.error(no, col, "packs must be a list such as [\"packs/extra.yaml\"]")
                return
            p.doc.setdefault("packs", []).extend(data)
        else:
            if not isinstance(data, dict):
                p.error(no, col, "house rules must be a mapping such as {\"cavalry_max_percent\": 50}")
                return
            p.doc.setdefault("house_rules", {}).update(data)
        return
    if key in ("points", "size", "max_hero_points"):
        m = re.match(r"^([0-9]+)", v)
        if not m:
            p.error(no, col, f"'{key}' must be a whole number, not '{v}'")
            return
        from builder.limits import long_integer_problem

        why = long_integer_problem(m.group(1))
        if why:
            p.error(no, col, why)
            return
        p.doc[key] = int(m.group(1))
        return
    if key == "occult":
        b = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}.get(v.lower())
        if b is None:
            p.error(no, col, f"occult must be yes or no, not '{v}'")
            return
        p.doc["occult"] = b
        return
    if key == "attributes":
        if normalize(v) in ("none", ""):
            p.doc.setdefault("attributes", [])
            return
        f = field_of(s, "attributes")
        mv, p.quoted = _mask(v)
        names = _split_names(p, f, mv)
        for n in names:
            _check_name(p, f, n, no, col + max(value.find(n), 0))
        p.doc.setdefault("attributes", []).extend(names)
        return
    if key == COLLECTION[s] and normalize(v) in ("none", "no cards", "empty"):
        p.doc[key] = [] if key in ("troops", "players") else {}
        return
    if not v:
        p.error(no, col, f"'{key}' needs a value")
        return
    f = field_of(s, key)
    if f is not None and f.kind in ("counts", "items"):  # a heading: the entries follow on their own lines
        p.error(no, col, f"'{key}:' takes its entries on the lines below it, not '{v}'",
                hint="put each entry on a line of its own")
        return
    if f is not None and f.kind == "ref":
        mv, p.quoted = _mask(v)
        v = _uq(p, mv)
        _check_name(p, f, v, no, col)
    p.doc[key] = v


def _flow_value(p: _Parser, v: str, no: int, col: int):
    import json

    try:
        return json.loads(v)
    except (ValueError, RecursionError):  # not JSON, or brackets nested too deep for it
        pass
    from builder.errors import DaimyoError
    from builder.yamlio import parse_yaml

    try:
        data, _ = parse_yaml(v, p.file)
        return data
    except DaimyoError:
        p.error(no, col, f"cannot read '{v}'", hint="write a list [a, b] or a mapping {key: value}")
        return None


def _split_names(p: _Parser, f, v: str) -> list[str]:
    parts = [x.strip() for x in v.split(",")]
    out: list[str] = []
    i = 0
    while i < len(parts):
        # a catalog name that itself holds commas wins over the split
        for j in range(len(parts), i + 1, -1):
            joined = _uq(p, ", ".join(parts[i:j]))
            if p.r.find(f, joined)[1] is not None:
                out.append(joined)
                i = j
                break
        else:
            if parts[i]:
                out.append(_uq(p, parts[i]))
            i += 1
    return out


def _check_name(p: _Parser, f, name: str, no: int, col: int) -> None:
    if not p.r.knows(f):
        return
    if p.r.find(f, name)[1] is None and not _pack_knows(p, f, name):
        hint = p.r.suggest(f, name)
        p.warn(no, col, f"unknown {f.what} '{name}'" + (f"; {hint}" if hint else ""))


def _pack_knows(p: _Parser, f, name: str) -> bool:
    """True when a pack the list names (found here by name) knows ``name``: no warning then."""
    if not p.doc.get("packs"):
        return False
    r = getattr(p, "pack_resolver", None)
    if r is None:
        r = False
        try:
            from builder.catalog.loader import load_catalog
            from builder.packs.resolve import resolve_recorded

            paths = [resolve_recorded(pk, p.doc, None, p.system, names_only=True) for pk in p.doc["packs"]]
            paths = [str(x) for x in paths if x is not None]
            if paths:
                r = Resolver(p.system, load_catalog(p.system, paths))
        except Exception:  # a broken pack only costs the warning
            r = False
        p.pack_resolver = r
    return bool(r) and r.find(f, name)[1] is not None


def _card_line(p: _Parser, line: str, no: int, col: int) -> None:
    s = p.system
    key = _DECK_FIELD[s]
    f = field_of(s, key)
    if re.match(r"^sb:\s", line, re.I) or normalize(line.rstrip(":")) in ("sideboard", "side board", "maybeboard"):
        p.error(no, col, f"a {LABELS[s]} deck has no sideboard",
                hint="remove the sideboard lines")
        return
    text = re.sub(r"\s+\*[fF]\*$", "", line)
    cands = _count_candidates(text)
    n, name = _pick(p, f, cands)
    if n is None:
        n = 1
    if not name:
        p.error(no, col, "a card line needs a name", hint="write e.g. '3 Overhand Thrust'")
        return
    _check_name(p, f, name, no, col + max(line.find(name), 0))
    deck = p.doc.setdefault(key, {})
    hit = next((k for k in deck if normalize(k) == normalize(name)), None)
    if hit is not None:
        deck[hit] += n
    else:
        deck[name] = n


_LED = re.compile(r"^led\s+by\s+(.+)$", re.I)
_STD = re.compile(r"^(?:with\s+)?(?:a\s+)?(?:standard|hata[-\s\u2010\u2011\u2013]?jurushi)(?:\s+bearer)?$", re.I)


def _troop_line(p: _Parser, line: str, no: int, col: int) -> None:
    tf = field_of("kensei", "troops")
    f = tf.sub("troop")
    parts = [x.strip() for x in line.split(",")]
    opts: dict = {}
    while len(parts) > 1:
        last = parts[-1]
        m = _LED.match(last)
        if m and "led_by" not in opts:
            opts["led_by"] = _uq(p, m.group(1))
        elif _STD.match(last) and "standard" not in opts:
            opts["standard"] = True
        else:
            break
        parts.pop()
    head = ", ".join(parts)
    cands = []
    for n, name in _count_candidates(head, after=False):
        cands.append((n, name))
        bare = _COST.sub("", name)
        if bare != name and bare:
            cands.insert(len(cands) - 1 if n is None else len(cands), (n, bare))
    # prefer names with the cost figure removed, then catalog hits
    ordered = sorted(cands, key=lambda c: (0 if _COST.search(c[1]) is None else 1))
    n, name = _pick(p, f, ordered)
    if not name:
        p.error(no, col, "a troop line needs a troop name", hint="write e.g. '5x Samurai Yari'")
        return
    _check_name(p, f, name, no, col + max(line.find(name), 0))
    row = {"troop": name}
    if n is not None:
        row["models"] = n
    if "led_by" in opts:
        _check_name(p, f, opts["led_by"], no, col + max(line.find(opts["led_by"]), 0))
        row["led_by"] = opts["led_by"]
    if opts.get("standard"):
        row["standard"] = True
    p.doc.setdefault("troops", []).append(row)


_PROV = re.compile(r"^(.+?)(?:\s+([0-9]{1,30}))?\s*(\+\s*s(?:amurai)?)?$", re.I)


def _player_line(p: _Parser, line: str, no: int, col: int) -> None:
    pf = field_of("senji", "players")
    segs = [x.strip() for x in _SEP.split(line)]
    if len(segs) < 2:
        p.error(no, col, "a player line reads 'NAME - FAMILY - PROVINCE UNITS[+S], ...'",
                hint="e.g. 'Aiko - red - Kyushu 2+S, Shikoku 1, Owari'")
        return
    player: dict = {"name": _uq(p, segs[0])}
    provs_text = segs[-1]
    for seg in segs[1:-1]:
        m = re.match(r"^samurai\s+(.+)$", seg, re.I)
        if m:
            player["samurai"] = _uq(p, m.group(1))
            _check_name(p, pf.sub("samurai"), player["samurai"], no, col + max(line.find(player["samurai"]), 0))
        elif "family" not in player:
            fam = _uq(p, re.sub(r"^family\s+", "", seg, flags=re.I))
            player["family"] = fam
            _check_name(p, pf.sub("family"), fam, no, col + max(line.find(fam), 0))
        else:
            p.error(no, col + max(line.find(seg), 0), f"cannot read '{seg}' in a player line",
                    hint="segments: name, family, 'samurai CARD', provinces")
    pvf = pf.sub("provinces")
    provs = []
    if normalize(provs_text) not in ("no provinces", "none", "-", "provinces unset"):
        for part in [x.strip() for x in provs_text.split(",")]:
            if not part:
                continue
            pcol = col + max(line.find(part), 0)
            cands = []
            m = _PROV.match(part)
            if m and (m.group(2) or m.group(3)):
                cands.append((m.group(1).strip(), m.group(2), m.group(3)))
            cands.append((part, None, None))
            cands = [(_uq(p, c[0]), c[1], c[2], bool(_HOLE.fullmatch(c[0].strip()))) for c in cands]
            pick = next((c for c in cands if c[3]), None) or next(
                (c for c in cands if p.r.find(pvf.sub("province"), c[0])[1] is not None), cands[0])
            pv = {"province": pick[0]}
            if pick[1] is not None:
                pv["units"] = int(pick[1])
            if pick[2]:
                pv["samurai"] = True
            _check_name(p, pvf.sub("province"), pick[0], no, pcol)
            provs.append(pv)
    if normalize(provs_text) != "provinces unset":
        player["provinces"] = provs
    p.doc.setdefault("players", []).append(player)


def known_system(name: str | None) -> str | None:
    if name is None:
        return None
    return system_of_label(name) or (name if name in SYSTEMS else None)


def tidy_name(text: str) -> str:
    return tidy(text)
