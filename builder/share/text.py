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

import json
import re

from builder import state, yamlio
from builder.catalog.loader import load_catalog
from builder.catalog.packfiles import resolve_recorded
from builder.errors import DaimyoError, Diagnostic, ListError, option
from builder.i18n import L_
from builder.kit import textform
from builder.kit.fields import Field
from builder.kit.textform import (
    CTRL,
    HOLE,
    SECTION_WORDS,
    SEP,
    USED_FACET,
    count_candidates,
    free_text,
    key_match,
    mask,
    pick,
    quoted_spans,
    unmask,
    unquote_free_text,
)
from builder.limits import MAX_TEXT_LINES, long_integer_problem
from builder.lists.schema import declared_field, field_of, schema
from builder.names import loose, normalize
from builder.share.canonical import Resolver, canonical
from builder.share.notes import Note
from builder.systems import get, ids

KEY_LINES = {
    "name": "name",
    "author": "author",
    "notes": "notes",
    "note": "notes",
    "packs": "packs",
    "pack": "packs",
    "house rules": "house_rules",
    "house_rules": "house_rules",
    "commander": "commander",
    "commander level": "commander",
    "occult": "occult",
    "general": "general",
    "hero": "hero",
    "attributes": "attributes",
    "attribute": "attributes",
    "deck": "deck",
    "side": "side",
    "clan": "clan",
    "points": "points",
    "size": "size",
    "deck size": "size",
    "max hero points": "max_hero_points",
    "max_hero_points": "max_hero_points",
    "system": "system",
    "troops": "troops",
    "cards": "cards",
    "players": "players",
    "checked with": "checked_with",
    "checked_with": "checked_with",
}


def _game(system: str):
    return get(system)


def label(system: str) -> str:
    """The game's name as a text header writes it (``Satsuma Rebellion``)."""
    return _game(system).name


_LABELS: dict = state.cache(
    "share.game_labels",
    bound=1,
    lifetime=state.PROCESS,
    doc="the games' names and spellings in a text header, for the games known now",
)


def system_of_label(segment: str) -> str | None:
    """The id of the game a header segment names (its id, name or a ``text.labels`` spelling)."""
    known = ids()
    table = _LABELS.get(known)
    if table is None:
        table = {}
        for s in known:
            for word in (s, label(s), *_game(s).text.labels):
                table.setdefault(loose(word), s)
        _LABELS.clear()
        _LABELS[known] = table
    return table.get(loose(segment))


textform.names_a_game = lambda text: system_of_label(text) is not None  # q quotes a game's name


# -- writing ----------------------------------------------------------------------------------


def _flow(v) -> str:
    return json.dumps(v, ensure_ascii=False)


_PLAIN = re.compile(r"^[^\s\[\]{}\"'#&*!|>%@`,;()=][^\[\]{}\"#,;()=]*$")


def _plain(v) -> bool:
    """A text that reads back as itself in a comma-separated value (no JSON needed)."""
    return isinstance(v, str) and bool(_PLAIN.match(v)) and v == v.strip() and ": " not in v and not v.endswith(":")


def _plain_list(items) -> str:
    """``Packs: a.yaml, b.yaml`` as a person writes it; JSON only when a name would not read back."""
    if isinstance(items, list) and items and all(_plain(x) for x in items):
        return ", ".join(items)
    return _flow(items)


def _plain_rules(rules) -> str:
    """``House rules: cavalry_max_percent=50, leader_count=formula``."""
    if (
        isinstance(rules, dict)
        and rules
        and all(
            _plain(str(k))
            and (
                isinstance(v, bool)
                or (isinstance(v, (int, float)) and not isinstance(v, bool))
                or (
                    _plain(v)
                    and v.lower() not in ("true", "false", "yes", "no", "null")
                    and not re.fullmatch(r"[-+.0-9eE]+", v)
                )
            )
            for k, v in rules.items()
        )
    ):
        return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items())
    return _flow(rules)


def _plain_checked(items) -> str:
    """``Checked with: my-cards.yaml (My cards, version 1, sha256:0123abcd)``, one pack after another."""
    keys = ("pack", "name", "version", "hash")
    ok = (
        isinstance(items, list)
        and items
        and all(
            isinstance(x, dict)
            and set(x) <= set(keys)
            and _plain(x.get("pack"))
            and _plain(x.get("hash", "sha256:0"))
            and all(_plain(str(x[k])) for k in ("name", "version") if x.get(k) is not None)
            for x in items
        )
    )
    if not ok:
        return _flow(items)
    out = []
    for x in items:
        rest = [str(x["name"])] if x.get("name") is not None else []
        rest += [f"version {x['version']}"] if x.get("version") is not None else []
        rest += [x["hash"]] if x.get("hash") else []
        out.append(f"{x['pack']} ({', '.join(rest)})" if rest else x["pack"])
    return "; ".join(out)


def _read_plain(key: str, v: str):
    """The plain forms above read back; None when ``v`` is not one (then JSON or YAML is tried)."""
    if not v or v[:1] in '[{"':
        return None
    if key == "packs":
        parts = [x.strip() for x in v.split(",")]
        return parts if all(_plain(x) for x in parts) else None
    if key == "house_rules":
        rules: dict[str, bool | int | float | str] = {}
        for part in v.split(","):
            k, eq, val = part.strip().partition("=")
            if not eq or not _plain(k.strip()) or not val.strip():
                return None
            val = val.strip()
            low = val.lower()
            if low in ("true", "false"):
                rules[k.strip()] = low == "true"
            elif re.fullmatch(r"-?[0-9]+", val):
                rules[k.strip()] = int(val)
            elif re.fullmatch(r"-?[0-9]*\.[0-9]+", val):
                rules[k.strip()] = float(val)
            else:
                rules[k.strip()] = val
        return rules
    if key == "checked_with":
        out = []
        for part in v.split(";"):
            m = re.fullmatch(r"\s*([^()]+?)\s*(?:\((.*)\))?\s*", part)
            if not m or not _plain(m.group(1)):
                return None
            item = {"pack": m.group(1)}
            for bit in (m.group(2) or "").split(", ") if m.group(2) else []:
                if bit.startswith("sha256:"):
                    item["hash"] = bit
                elif bit.startswith("version "):
                    item["version"] = bit[len("version ") :]
                elif "name" not in item:
                    item["name"] = bit
                else:
                    return None
            out.append(item)
        return out
    return None


def header_line(doc: dict, summary: dict | None = None) -> list[str]:
    """The header segments of a canonical document."""
    system = doc["system"]
    summary = summary or {}
    segs = []
    if doc.get("name") and not _awkward(doc["name"]):
        segs.append(doc["name"])
    segs.append(label(system))
    segs += _game(system).text.header(doc, summary)
    return segs


def _awkward(name: str) -> bool:
    """A name the header cannot carry (it would read as a comment or a header word)."""
    return (
        name.startswith(("#", "//", "-", "*", "+", "[", "{", "(", ">", "|"))
        or system_of_label(name) is not None
        or bool(key_match(name))
        or name[:1].isdigit()
        or name[-1:] in "-|\u2010\u2011\u2012\u2013\u2014"
        or '"' in name
        or bool(CTRL.search(name))
    )


def render_lines(doc: dict, resolver: Resolver | None = None, summary: dict | None = None) -> list[tuple[str, str]]:
    """(kind, line) pairs: kind is header, key, blank or entry (markdown decorates by kind)."""
    system = doc["system"]
    r = resolver or Resolver.of(system)
    out: list[tuple[str, str]] = [("header", " - ".join(header_line(doc, summary)))]
    if doc.get("name") and _awkward(doc["name"]):
        out.append(("key", f"Name: {free_text(doc['name'])}"))
    if "author" in doc:
        out.append(("key", f"Author: {free_text(doc['author'])}"))
    for line in doc.get("notes", "").split("\n") if "notes" in doc else []:
        out.append(("key", f"Notes: {free_text(line)}" if line else "Notes:"))
    if "packs" in doc:
        out.append(("key", f"Packs: {_plain_list(doc['packs'])}"))
    if "house_rules" in doc:
        out.append(("key", f"House rules: {_plain_rules(doc['house_rules'])}"))
    if "checked_with" in doc:
        out.append(("key", f"Checked with: {_plain_checked(doc['checked_with'])}"))
    gs = _game(system)
    out += [("key", line) for line in gs.text.keys(doc)]
    out.append(("blank", ""))
    out += [("entry", line) for line in gs.text.entries(doc, r)]
    coll = gs.text.collection
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
    # the list's system and its catalog names: set by ``parse_text`` once it knows the system,
    # before any line of the list is read
    system: str
    r: Resolver

    def __init__(self, file: str):
        self.file = file
        self.errors: list[Diagnostic] = []
        self.notes: list[Note] = []
        self.doc: dict = {}
        self.quoted: list[str] = []
        self.seen: dict[str, str] = {}  # normalized card name -> its key in the deck
        # the catalog of the packs the list names (False: none could be read), made when first needed
        self.pack_resolver: Resolver | bool | None = None

    def field(self, key: str) -> Field:
        """The field ``key`` of the list's document (its game's schema), for a game's text form
        (KeyError for a field the game does not declare)."""
        return declared_field(self.system, key)

    def check_name(self, f, name: str, no: int, col: int) -> None:
        """Warn at ``no:col`` when neither the catalog nor a pack of the list knows ``name`` as ``f``."""
        _check_name(self, f, name, no, col)

    def card_line(self, line: str, no: int, col: int) -> None:
        """Read a line of a deck (COUNT NAME) into the list's cards."""
        card_line(self, line, no, col)

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
    seps = list(SEP.finditer(line))
    bounds = [0] + [m.end() for m in seps]
    ends = [m.start() for m in seps] + [len(line)]
    segs = [line[a:b] for a, b in zip(bounds, ends, strict=False)]
    idx = None
    for i, seg in enumerate(segs):
        if system_of_label(seg):
            idx = i
    if idx is None:
        return None, None, []
    name = line[: seps[idx - 1].start()].strip() if idx else None
    return system_of_label(segs[idx]), name or None, [s.strip() for s in segs[idx + 1 :]]


def parse_text(text: str, file: str = "<text>", system: str | None = None) -> tuple[dict, list[Note]]:
    """A list document from text (Markdown is read after ``builder.share.markdown.strip_markdown``,
    which keeps every line where it was); ListError with FILE:LINE:COL for malformed lines."""
    p = _Parser(file)
    lines = _lines(text)

    if len(lines) > MAX_TEXT_LINES:
        raise ListError(
            Diagnostic(
                file,
                lines[MAX_TEXT_LINES][0],
                1,
                L_(
                    "the text holds {n:,} lines; a text or Markdown list has at most {MAX_TEXT_LINES:,}",
                    n=len(lines),
                    MAX_TEXT_LINES=MAX_TEXT_LINES,
                ),
                hint=L_("share a bigger list as YAML, JSON or a share code"),
            )
        )
    if not lines:
        raise ListError(
            Diagnostic(
                file,
                1,
                1,
                L_("no list found: the text is empty"),
                hint=L_("paste a list exported with 'daimyo export'"),
            )
        )
    start = 0
    masked_header, header_quoted = mask(lines[0][2])
    hsys, name, facets = parse_header(masked_header)
    if name:
        name = HOLE.sub(lambda m: header_quoted[int(m.group(1))], name)
    if hsys:
        if system and system != hsys:
            p.error(
                lines[0][0],
                lines[0][1],
                f"the header says {label(hsys)}, not {label(system)}",
                hint=f"drop {option('system')} or fix the header",
            )
        system = hsys
        start = 1
        if name:
            p.doc["name"] = name
    body = lines[start:]
    if system is None:
        system = _infer_system(body)
        if system is None:
            raise ListError(
                Diagnostic(
                    file,
                    lines[0][0],
                    lines[0][1],
                    L_("cannot tell which game this list is for"),
                    hint=L_(
                        "start with a header such as 'My deck - Senshiai' or pass {option}", option=option("system")
                    ),
                )
            )
    p.system = system
    gs = _game(system)
    p.r = Resolver.of(system)
    p.doc["system"] = system
    if hsys:
        p.quoted = header_quoted
        _facets(p, facets, lines[0])
    for no, col, raw_line in body:
        line, p.quoted = mask(raw_line)
        m = key_match(raw_line)
        key = KEY_LINES.get(normalize(m.group("key"))) if m else None
        if key is not None and not (key in gs.text.headings and not m.group("value").strip()):
            value = m.group("value")
            lead = len(value) - len(value.lstrip())
            value = value[1:] if value.startswith(" ") else value
            _key_line(p, key, value.rstrip(), no, col + m.start("value") + lead)
            continue
        if normalize(line.rstrip(":")) in SECTION_WORDS:
            continue
        if "\x00" not in line and '"' in line and next(quoted_spans(raw_line), None) is None:
            p.error(no, col + line.find('"'), "a quote is not closed", hint='write a quoted name as "Name"')
            continue
        gs.text.read_entry(p, line, no, col)
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

    for s in ids():
        gs = _game(s)
        if not gs.text.infers:
            continue
        r = Resolver.of(s)
        f = declared_field(s, gs.text.collection)
        if f.kind == "items" and f.item_key is not None:
            f = f.part(f.item_key)
        if not r.knows(f):
            continue
        n = 0
        for _, _, line in body:
            line = gs.text.infer_line(line)
            if any(r.find(f, name)[1] is not None for _, name in count_candidates(line)):
                n += 1
        scores.append(n)
        if n > best_n:
            best, best_n = s, n
    if best_n == 0 or scores.count(best_n) > 1:
        return None
    return best


def _facets(p: _Parser, facets: list[str], where) -> None:
    no, col, _ = where
    gs = _game(p.system)
    for seg in facets:
        if USED_FACET.match(seg) or gs.text.read_facet(p, seg):
            continue
        p.error(no, col, f"cannot read '{seg}' in the header of a {label(p.system)} list", hint=gs.text.example)


def _key_line(p: _Parser, key: str, value: str, no: int, col: int) -> None:
    s = p.system
    allowed = {"name", "author", "notes", "packs", "house_rules", "system"} | {f.key for f in schema(s)}
    if key not in allowed:
        p.error(no, col, f"'{key}' is not part of a {label(s)} list")
        return
    v = value.strip()
    if key == "system":
        if system_of_label(v) != s:
            p.error(no, col, f"this list is for {label(s)}, not '{v}'")
        return
    if key == "notes":
        old = p.doc.get("notes")
        value = unquote_free_text(value)
        p.doc["notes"] = value if old is None else old + "\n" + value
        return
    if key in ("name", "author"):
        v = unquote_free_text(v)
    if key in ("packs", "house_rules", "checked_with"):
        data = _read_plain(key, v)
        if data is None:
            data = _flow_value(p, v, no, col)
        if data is None:
            return
        if key == "checked_with":
            if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
                p.error(no, col, 'checked with must be a list such as [{"pack": "my-cards", "version": "1"}]')
                return
            p.doc.setdefault("checked_with", []).extend(data)
        elif key == "packs":
            if isinstance(data, str):
                data = [data]
            if not isinstance(data, list):
                p.error(no, col, 'packs must be a list such as ["packs/extra.yaml"]')
                return
            p.doc.setdefault("packs", []).extend(data)
        else:
            if not isinstance(data, dict):
                p.error(no, col, 'house rules must be a mapping such as {"cavalry_max_percent": 50}')
                return
            p.doc.setdefault("house_rules", {}).update(data)
        return
    if key in ("points", "size", "max_hero_points"):
        m = re.match(r"^([0-9]+)", v)
        if not m:
            p.error(no, col, f"'{key}' must be a whole number, not '{v}'")
            return

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
        mv, p.quoted = mask(v)
        names = _split_names(p, f, mv)
        for n in names:
            _check_name(p, f, n, no, col + max(value.find(n), 0))
        p.doc.setdefault("attributes", []).extend(names)
        return
    if key == _game(s).text.collection and normalize(v) in ("none", "no cards", "empty"):
        p.doc[key] = [] if key in ("troops", "players") else {}
        return
    if not v:
        p.error(no, col, f"'{key}' needs a value")
        return
    f = field_of(s, key)
    if f is not None and f.kind in ("counts", "items"):  # a heading: the entries follow on their own lines
        p.error(
            no,
            col,
            f"'{key}:' takes its entries on the lines below it, not '{v}'",
            hint="put each entry on a line of its own",
        )
        return
    if f is not None and f.kind == "ref":
        mv, p.quoted = mask(v)
        v = unmask(p, mv)
        _check_name(p, f, v, no, col)
    p.doc[key] = v


def _flow_value(p: _Parser, v: str, no: int, col: int):
    try:
        return json.loads(v)
    except (ValueError, RecursionError):  # not JSON, or brackets nested too deep for it
        pass

    try:
        data, _ = yamlio.parse_yaml(v, p.file)
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
            joined = unmask(p, ", ".join(parts[i:j]))
            if p.r.find(f, joined)[1] is not None:
                out.append(joined)
                i = j
                break
        else:
            if parts[i]:
                out.append(unmask(p, parts[i]))
            i += 1
    return out


_SUGGESTED = 100  # unknown names that get a "did you mean"


def _check_name(p: _Parser, f, name: str, no: int, col: int) -> None:
    if not p.r.knows(f):
        return
    if p.r.find(f, name)[1] is None and not _pack_knows(p, f, name):
        # suggestions cost a comparison with every catalog name: for the first names only
        # (a pasted text of thousands of unknown names is read in time linear in its size)
        hint = p.r.suggest(f, name) if len(p.notes) < _SUGGESTED and len(name) <= 200 else ""
        p.warn(no, col, f"unknown {f.what} '{name}'" + (f"; {hint}" if hint else ""))


def _pack_knows(p: _Parser, f, name: str) -> bool:
    """True when a pack the list names (found here by name) knows ``name``: no warning then."""
    if not p.doc.get("packs"):
        return False
    r = p.pack_resolver
    if r is None:
        r = False
        try:
            found = [resolve_recorded(pk, p.doc, None, p.system, names_only=True) for pk in p.doc["packs"]]
            paths = [str(x) for x in found if x is not None]
            if paths:
                r = Resolver(p.system, load_catalog(p.system, paths))
        except Exception:  # a broken pack only costs the warning
            r = False
        p.pack_resolver = r
    return isinstance(r, Resolver) and r.find(f, name)[1] is not None


_PRINTED = re.compile(r"\s\(printed:\s*([^()]+?)\s*\)$")


def card_line(p: _Parser, line: str, no: int, col: int) -> None:
    """A line of a deck: COUNT NAME (the count written in any of the usual ways)."""
    s = p.system
    key = _game(s).text.collection
    f = field_of(s, key)
    if re.match(r"^sb:\s", line, re.I) or normalize(line.rstrip(":")) in ("sideboard", "side board", "maybeboard"):
        p.error(no, col, f"a {label(s)} deck has no sideboard", hint="remove the sideboard lines")
        return
    text = line
    if line.endswith(("*f*", "*F*")) and line[:-3] != line[:-3].rstrip():  # a foil mark
        text = line[:-3].rstrip()
    printed = _PRINTED.search(text) if f is not None and f.accepts == "printed" else None
    if printed is not None:  # a custom card: COUNT NAME (printed: VALUES)
        text = text[: printed.start()].rstrip()
    cands = count_candidates(text)
    n, name = pick(p, f, cands)
    if n is None:
        n = 1
    if not name:
        p.error(no, col, "a card line needs a name", hint="write e.g. '3 Overhand Thrust'")
        return
    deck = p.doc.setdefault(key, {})
    if printed is not None:  # a card of the list's own: not in the catalog
        deck[name] = {"printed": printed.group(1).strip(), "count": n}
        p.seen[normalize(name)] = name
        return
    _check_name(p, f, name, no, col + max(line.find(name), 0))
    hit = p.seen.get(normalize(name))  # the line of the same name read before (any spelling)
    if hit is None:
        p.seen[normalize(name)] = name
    if hit is not None:
        deck[hit] += n
    else:
        deck[name] = n
