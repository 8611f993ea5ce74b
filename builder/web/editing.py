"""Editing a list file from the web builder: one change at a time, saved at once.

Each change reads the file, checks that it is still the version the page showed (a file
changed on disk since is refused with a clear message, never silently overwritten),
changes the round-trip YAML tree (comments and key order kept), refuses a result that no
longer reads as a list, and writes atomically. The server keeps the texts before each
change, so the last changes can be undone and redone.
"""

from __future__ import annotations

import copy
import hashlib
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from builder.errors import DaimyoError, ListError, UsageError
from builder.web.workspace import Refused

HISTORY = 50  # changes kept for undo per list
MIN_SPLICE_CHARS = 20_000  # lists at least this long are changed in their text, not a round-trip tree


def version_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Conflict(Refused):
    def __init__(self, rel: str):
        super().__init__(f"'{rel}' was changed on disk since this page was loaded; your change was not saved",
                         409, hint="reload the page to see the file as it is now, then make the change again")


@dataclass
class History:
    """The texts before each change (``undo``) and before each undo (``redo``), and the text this
    server last wrote (``written``): undo and redo apply only to that very text, so they never
    erase a change made elsewhere (an editor, the command line, another server) meanwhile."""

    undo: list[str] = field(default_factory=list)
    redo: list[str] = field(default_factory=list)
    written: str | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)


@dataclass
class Outcome:
    version: str
    notes: list[str]
    result: Any = None  # the check result of the list as saved (CheckResult), when known


class Editor:
    """Changes list files of a workspace; one lock and one history per file."""

    def __init__(self, workspace):
        self.ws = workspace
        self._hist: dict[str, History] = {}
        self._guard = threading.Lock()
        self._trees: dict[str, tuple[str, object]] = {}  # rel -> (text, its round-trip tree)
        self._known: dict[str, tuple[str, object, object, object]] = {}  # rel -> (text, doc, catalog, result)

    def history(self, rel: str) -> History:
        with self._guard:
            h = self._hist.get(rel)
            if h is None:
                h = self._hist[rel] = History()
            return h

    def forget(self, rel: str) -> None:
        with self._guard:
            self._hist.pop(rel, None)
            self._trees.pop(rel, None)
            self._known.pop(rel, None)

    def known(self, rel: str, text: str):
        """``(doc, catalog, check result)`` of ``text`` when it is the text this server last
        saved or checked for ``rel`` and the catalog is still the same (packs unchanged);
        None otherwise. Saves reading and checking a list again right after a change."""
        from builder.catalog.loader import load_catalog

        hit = self._known.get(rel)
        if hit is None or hit[0] != text:
            return None
        doc, catalog, result = hit[1:]
        try:
            same = load_catalog(doc.system, list(doc.packs)) is catalog
        except DaimyoError:
            same = False
        return (doc, catalog, result) if same else None

    def remember(self, rel: str, text: str, doc, catalog, result) -> None:
        self._known[rel] = (text, doc, catalog, result)

    def read(self, rel: str) -> tuple[Path, str]:
        from builder.yamlio import read_text

        path = self.ws.resolve(rel)
        text = read_text(path, display=self.ws.clean(rel))
        return path, text

    def read_at(self, rel: str, version: str | None) -> tuple[Path, str]:
        """``read``, refusing a file whose text is no longer the ``version`` the page holds."""
        path, text = self.read(rel)
        if version and version != version_of(text):
            raise Conflict(rel)
        return path, text

    # -- changes -----------------------------------------------------------------------------

    def apply(self, rel: str, op: dict, version: str | None) -> Outcome:
        """Make one change and save it (see :func:`change`)."""
        rel = self.ws.clean(rel)
        h = self.history(rel)
        with h.lock:
            path, text = self.read_at(rel, version)
            known = self.known(rel, text)
            self.ws.check_packs(path, text, known[0] if known else None)
            if path.suffix.lower() == ".json":
                raise Refused("a JSON list is edited in a text editor; the builder edits YAML lists",
                              hint="import it to make a YAML copy")
            cached = self._trees.pop(rel, None)  # reused only for the very text it was read from
            tree = cached[1] if cached is not None and cached[0] == text else None
            new, notes, result, tree = change(text, rel, path, op, tree, known)
            if tree is not None:
                self._trees[rel] = (new, tree)
            if result is not None and getattr(result, "doc", None) is not None:
                self.remember(rel, new, result.doc, result.catalog, result)
            if new != text:
                _write(path, new, text, rel)
                if h.written is not None and h.written != text:  # changed elsewhere: the old steps are void
                    h.undo.clear()
                h.undo.append(text)
                del h.undo[:-HISTORY]
                h.redo.clear()
                h.written = new
            return Outcome(version_of(new), notes, result)

    def step(self, rel: str, back: bool, version: str | None) -> Outcome:
        """Undo (``back``) or redo the last change."""
        rel = self.ws.clean(rel)
        h = self.history(rel)
        with h.lock:
            path, text = self.read_at(rel, version)
            src, dst = (h.undo, h.redo) if back else (h.redo, h.undo)
            if not src:
                raise Refused(f"nothing to {'undo' if back else 'redo'}", 409)
            if h.written != text:  # the file holds a change this server did not make
                h.undo.clear()
                h.redo.clear()
                raise Refused(f"'{rel}' was changed outside the builder since its last change here; "
                              f"{'undo' if back else 'redo'} would erase that change, so nothing was done", 409,
                              hint="make the change you want by hand; the history starts again from here")
            target = src.pop()
            _write(path, target, text, rel)
            dst.append(text)
            h.written = target
            return Outcome(version_of(target), ["undone" if back else "redone"])

    def can(self, rel: str, version: str | None = None) -> tuple[bool, bool]:
        """Whether undo and redo are offered (``version``: of the file as it is now; a file
        changed elsewhere offers neither)."""
        h = self.history(self.ws.clean(rel))
        if version is not None and (h.written is None or version_of(h.written) != version):
            return False, False
        return bool(h.undo), bool(h.redo)


def _write(path: Path, text: str, expected: str, rel: str) -> None:
    """Save with the library's writer (``write_list``: atomic, flushed to disk before the folder
    lock is taken); a file that no longer holds ``expected`` is refused as a ``Conflict``."""
    from builder.errors import ListChangedError
    from builder.lists.editor import _digest, write_list

    try:
        write_list(path, text, _digest(expected.encode("utf-8")))
    except ListChangedError:
        raise Conflict(rel) from None


def change(text: str, rel: str, path: Path, op: dict, tree=None, known=None) -> tuple[str, list[str], object, object]:
    """The list's new text after ``op``, what was done, the new text's check result and the
    round-trip tree of the new text (None when the library's editor made the change).
    ``tree``, when given, is the round-trip tree of ``text`` (saves reading it again).
    Adding, removing cards and settings go through the library's ``ListEditor``; a unit's
    models, its standard and leader, house rules and text fields are changed in the
    round-trip tree here. ``known``: ``(doc, catalog, result)`` of ``text``, when known."""
    from builder.lists.editor import ListEditor

    kind = str(op.get("op", ""))
    if kind in ("models", "troop", "house_rule", "duplicate", "part") \
            or (kind == "set" and str(op.get("key")) in ("name", "author", "notes")):
        return _tree_change(text, rel, path, op, tree, known=known)
    ed = ListEditor(text, file=rel, base_dir=path.parent)
    gs = ed.game
    variant = "variant" in gs.add_options  # a published deck becomes a variant when changed
    if kind == "add":
        item = str(op.get("item") or "").strip()
        if not item:
            raise UsageError("name the card or troop to add")
        if "models" in gs.add_options:
            models = _int(op["models"], "models") if op.get("models") not in (None, "") else None
            c = ed.add(item, models=models)
        elif "player" in gs.add_options:
            units = _int(op["count"], "units", 1, 99) if op.get("count") not in (None, "") else None
            c = ed.add(item, units, player=str(op.get("player") or "").strip() or None)
        else:
            c = ed.add(item, _int(op.get("count") or 1, "count", 1, 1000), variant=variant)
        return ed.text, c.notes, ed.check(), None
    if kind == "copies" and gs.units is None and gs.players is None:  # type the number of copies of a card
        item = str(op.get("item") or "").strip()
        want = _int(op.get("value"), "copies", 0, 1000)
        have = _copies_of(ed, item)
        if want > have:
            c = ed.add(item, want - have, variant=variant)
        elif want < have:
            c = ed.remove(item, have - want, variant=variant)
        else:
            return ed.text, [], ed.check(), None
        return ed.text, c.notes, ed.check(), None
    if kind == "remove" and gs.units is None:
        item = str(op.get("item") or "").strip()
        if gs.players is None:
            n = None if op.get("all") not in (None, "", False, "0") else _int(op.get("count") or 1, "count", 1, 1000)
        else:
            n = 1
        c = ed.remove(item, n, variant=variant) if variant else ed.remove(item, n)
        return ed.text, c.notes, ed.check(), None
    if kind == "set" and str(op.get("key")) not in ("name", "author", "notes"):
        c = ed.set(str(op.get("key") or ""), "" if op.get("value") is None else str(op.get("value")))
        return ed.text, c.notes, ed.check(), None
    return _tree_change(text, rel, path, op, None, ed)


def _tree_change(text, rel, path, op, tree=None, ed=None, known=None):
    """A change made in the round-trip tree (``tree``: the one ``text`` reads to, if known)."""
    from builder.catalog.loader import load_catalog
    from builder.lists.document import parse_list
    from builder.lists.edit import dump_roundtrip, load_roundtrip
    from builder.systems import get

    if ed is not None:
        system, catalog = ed.system, ed.catalog
    else:
        if known is not None:
            doc, catalog = known[0], known[1]
        else:
            doc = parse_list(text, rel, base_dir=path.parent)
            catalog = load_catalog(doc.system, list(doc.packs))
        system = doc.system
        quick = _models_in_place(text, doc, op) if get(system).units is not None else None
        if quick is not None:  # the +/- of a unit: one line changed where it is written
            new, notes, i, n = quick
            result = _validate(new, rel, path, catalog)
            if _models_changed_only(doc.data, result.doc.data, i, n):
                return new, notes, result, None
            # the text did not read back as that one change: the round-trip tree makes it
    if tree is None and len(text) >= MIN_SPLICE_CHARS:  # a big list: the change written into the text
        spliced = _spliced_change(text, rel, path, op, system, catalog, ed.doc if ed is not None else doc)
        if spliced is not None:
            return spliced
    if tree is None:
        tree = load_roundtrip(text, rel)
    notes = apply_op(system, tree, catalog, op)
    new = dump_roundtrip(tree)
    return new, notes, _validate(new, rel, path, catalog), tree


def _spliced_change(text, rel, path, op, system, catalog, doc):
    """``(new text, notes, result, None)`` of a change made on a plain tree of ``doc`` and written
    into ``text`` as small changes (``builder.lists.splice``: time linear in the list's size,
    comments and layout kept); None when the change does not fit in place (the round-trip
    tree then makes it). A change that cannot be made raises as on the other path."""
    from builder.lists import splice

    tree = splice.build_tree(doc.data)
    notes = apply_op(system, tree, catalog, op)
    new = splice.splice_edit(text, doc, tree)
    if new is None:
        return None
    try:
        result = _validate(new, rel, path, catalog)
    except DaimyoError:
        return None
    if not splice.same(result.doc.data, splice.plain(tree)):
        return None
    return new, notes, result, None


def _copies_of(ed, item: str) -> int:
    """Copies of a card in the list, as the builder shows them (a published deck counted card
    by card)."""
    from builder.systems.base import same_as as _same

    gs = ed.game
    data = ed.data
    pick = gs.resolve(ed.catalog, item, data)
    same = _same(pick, ed.catalog)
    total = 0
    for key, _section, items in gs.held(data, ed.catalog):
        if key != pick.field:
            continue
        for name, value in items:
            if same(name):
                total += int(value.get("count", 1)) if isinstance(value, dict) else (
                    int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 1)
    return total


def _models_in_place(text: str, doc, op: dict):
    """``(new text, notes, index, models)`` for a change of a unit's models made on the text
    alone: a written ``models: N`` replaced by another number, its line taken out for one model,
    or a ``models: N`` line put under a unit's ``- troop: NAME`` line (where the round-trip tree
    puts it: right after the first key); None when the change is not that simple (the
    round-trip tree then makes it). The caller checks that the new text reads back as exactly
    this change."""
    import re

    if op.get("op") != "models":
        return None
    troops = doc.data.get("troops")
    try:
        i = int(op.get("index"))
    except (TypeError, ValueError):
        return None
    if not isinstance(troops, list) or not 0 <= i < len(troops) or not isinstance(troops[i], dict):
        return None
    have = troops[i].get("models", 1)
    if not isinstance(have, int) or isinstance(have, bool):
        return None
    delta = op.get("delta")
    try:
        n = have + int(delta) if delta not in (None, "") else int(str(op.get("value")).strip())
    except (TypeError, ValueError):
        return None
    if n < 1 or n > 100000:
        return None
    lines = text.splitlines(keepends=True)
    name = troops[i].get("troop")
    notes = [f"{name}: {n} model{'s' * (n != 1)}"]
    if n == have:
        return text, notes, i, n
    if "models" not in troops[i]:  # one model: write the number under the troop's line
        if list(troops[i])[:1] != ["troop"]:
            return None
        try:
            line, _ = doc.at(("troops", i, "troop"))
        except Exception:
            return None
        if not line or not 0 < line <= len(lines):
            return None
        m = re.match(r"(\s*-\s+)troop\s*:\s*[^\s'\"|>&*!\[{#]", lines[line - 1])
        if m is None:
            return None
        end = lines[line - 1][len(lines[line - 1].rstrip("\r\n")):] or "\n"
        lines.insert(line, " " * len(m.group(1)) + f"models: {n}" + end)
        if not lines[line - 1].endswith(("\n", "\r")):
            lines[line - 1] += end
        return "".join(lines), notes, i, n
    try:
        line, col = doc.at(("troops", i, "models"))
    except Exception:
        return None
    if not line or not 0 < line <= len(lines):
        return None
    row = lines[line - 1]
    m = re.compile(r"[0-9]+(?=\s*(#|$|\n|\r))").match(row, col - 1)
    if m is None or int(m.group()) != have:
        return None
    if n == 1:  # one model: the models line goes, when it holds nothing else
        if not re.fullmatch(r"\s*models\s*:\s*", row[:m.start()]) or row[m.end():].strip():
            return None
        del lines[line - 1]
    else:
        lines[line - 1] = row[:m.start()] + str(n) + row[m.end():]
    return "".join(lines), notes, i, n


def _models_changed_only(before: dict, after: dict, i: int, n: int) -> bool:
    """Whether the list ``after`` is ``before`` with troop ``i`` at ``n`` models (the models key
    written for more than one, absent for one), and nothing else changed."""
    troops = before.get("troops")
    unit = dict(troops[i])
    if n == 1:
        unit.pop("models", None)
    else:
        unit["models"] = n
    return after == {**before, "troops": [*troops[:i], unit, *troops[i + 1:]]}


def _validate(text: str, rel: str, path: Path, catalog):
    """The check result of the new ``text`` (with ``doc`` and ``catalog`` attached); a text that
    no longer reads as a list raises ``ListError`` (wrong shapes), and nothing is written."""
    from builder.check import check_doc
    from builder.lists.document import parse_list

    doc = parse_list(text, rel, base_dir=path.parent)
    result = check_doc(doc, catalog=catalog)
    result.doc, result.catalog = doc, catalog
    return result


# -- the operations ---------------------------------------------------------------------------

def _int(value, what: str, low: int = 1, high: int = 100000) -> int:
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        raise UsageError(f"{what} must be a whole number, not '{value}'") from None
    if not low <= n <= high:
        raise UsageError(f"{what} must be between {low} and {high}, not {n}")
    return n


def _troops(data):
    troops = data.get("troops")
    if not isinstance(troops, list):
        raise UsageError("the list has no troops")
    return troops


def _troop_at(data, index) -> tuple[list, int]:
    troops = _troops(data)
    i = _int(index, "troop index", 0, max(len(troops) - 1, 0))
    if i >= len(troops):
        raise UsageError("no such troop in the list")
    return troops, i


def _as_map(troops, i):
    from ruamel.yaml.comments import CommentedMap

    t = troops[i]
    if isinstance(t, dict):
        return t
    m = CommentedMap()
    m["troop"] = t
    troops[i] = m
    return m


def apply_op(system: str, data, catalog, op: dict) -> list[str]:
    """Change the round-trip tree ``data`` as ``op`` says; returns what was done."""
    from builder.lists.edit import delete_key, set_key_ordered
    from builder.systems import get
    from builder.systems.base import text_value

    gs = get(system)
    kind = str(op.get("op", ""))
    if kind == "add":
        item = str(op.get("item") or "").strip()
        if not item:
            raise UsageError("name the card or troop to add")
        if "models" in gs.add_options:
            n = _int(op["models"], "models") if op.get("models") not in (None, "") else None
            return gs.add(data, catalog, item, models=n)[0]
        n = _int(op.get("count") or 1, "count", 1, 1000)
        return gs.add(data, catalog, item, n, variant=True)[0]
    if kind == "remove":
        if gs.units is not None:
            troops, i = _troop_at(data, op.get("index"))
            gone = troops[i]
            del troops[i]
            _fix_general(data, catalog)
            return [f"removed {gone.get('troop') if isinstance(gone, dict) else gone}"]
        item = str(op.get("item") or "").strip()
        n = None if op.get("all") else _int(op.get("count") or 1, "count", 1, 1000)
        return gs.remove(data, catalog, item, n, variant=True)
    if kind == "duplicate":  # one more unit like this one, right below it
        if gs.units is None:
            raise UsageError(f"duplicate applies to units of models, not to {system} {gs.what}s; cards take +")
        troops, i = _troop_at(data, op.get("index"))
        twin = copy.deepcopy(troops[i])
        if isinstance(twin, dict) and hasattr(twin, "ca"):
            twin.ca.items.clear()  # the original's comments stay with it
        troops.insert(i + 1, twin)
        name = twin.get("troop") if isinstance(twin, dict) else twin
        return [f"added another {name}"]
    if kind == "models":
        if gs.units is None:
            raise UsageError(f"models apply to units, not to {system} {gs.what}s")
        troops, i = _troop_at(data, op.get("index"))
        m = _as_map(troops, i)
        delta = op.get("delta")
        n = (int(m.get("models", 1) or 1) + _int(delta, "delta", -1000, 1000)) if delta not in (None, "") \
            else _int(op.get("value"), "models")
        if n < 1:
            raise UsageError("a unit has at least 1 model; use remove to take it off the list")
        if n == 1 and "models" in m:
            del m["models"]
        elif n != 1:
            if "models" in m:
                m["models"] = n
            else:
                m.insert(1, "models", n)
        return [f"{m.get('troop')}: {n} model{'s' * (n != 1)}"]
    if kind == "troop":
        if gs.units is None:
            raise UsageError(f"troop settings apply to units, not to {system} {gs.what}s")
        troops, i = _troop_at(data, op.get("index"))
        m = _as_map(troops, i)
        fld = str(op.get("field"))
        value = op.get("value")
        if fld == "standard":
            on = str(value).lower() in ("1", "true", "on", "yes")
            if on:
                m["standard"] = True
            elif "standard" in m:
                del m["standard"]
            return [f"{m.get('troop')}: {'carries' if on else 'no'} Hata-Jurushi"]
        if fld == "led_by":
            v = str(value or "").strip()
            if not v:
                if "led_by" in m:
                    del m["led_by"]
                return [f"{m.get('troop')}: no unit leader"]
            leader = gs.troop(catalog, v)
            m["led_by"] = leader.name
            return [f"{m.get('troop')}: led by {leader.name}"]
        raise UsageError(f"unknown troop setting '{fld}'", "standard or led_by")
    if kind == "set":
        key = str(op.get("key") or "")
        value = "" if op.get("value") is None else str(op.get("value"))
        if len(value) > 2000:
            raise UsageError(f"{key} is too long (at most 2000 characters)")
        if key in ("name", "author", "notes"):
            if value.strip():
                set_key_ordered(data, key, text_value(value), gs.list_keys)
                return [f"set {key}"]
            if key in data:
                delete_key(data, key)
            return [f"removed {key}"]
        return gs.set(data, catalog, key, value)[0]
    if kind == "part":
        where = op.get("where")
        if isinstance(where, str):
            where = tuple(int(x) if x.isdigit() else x for x in where.split("/") if x)
        if not isinstance(where, (list, tuple)) or not where:
            raise UsageError("say which part to change (where)")
        if gs.players is None:
            raise gs.refuse("set_part", "its entries have no parts to change")
        return gs.players.set_part(data, catalog, tuple(where), str(op.get("field") or ""), op.get("value"))
    if kind == "house_rule":
        return _house_rule(system, data, catalog, str(op.get("key") or ""), op.get("value"))
    raise UsageError(f"unknown change '{kind}'",
                     "one of add, remove, copies, models, duplicate, troop, part, set, house_rule")


def _fix_general(data, catalog) -> None:
    """Removing the general's troop leaves no dangling ``general:``."""
    g = data.get("general")
    if not g:
        return
    from builder.names import normalize

    for t in data.get("troops") or []:
        name = t.get("troop") if isinstance(t, dict) else t
        if isinstance(name, str) and normalize(name) == normalize(str(g)):
            return
    from builder.lists.edit import delete_key

    delete_key(data, "general")


def _house_rule(system, data, catalog, key, value) -> list[str]:
    from ruamel.yaml.comments import CommentedMap

    from builder.lists.edit import delete_key, set_key_ordered
    from builder.systems import get

    rules = {h.id: h for h in catalog.model.house_rules}
    if key not in rules:
        from builder.names import did_you_mean

        raise UsageError(f"unknown house rule '{key}'", did_you_mean(key, list(rules)) or None)
    h = rules[key]
    hr = data.get("house_rules")
    if value in (None, "", "default"):
        if isinstance(hr, dict) and key in hr:
            del hr[key]
            if not hr:
                delete_key(data, "house_rules")
        return [f"{key}: the default reading"]
    parsed = _rule_value(h, value)
    try:
        catalog.resolve_rules({key: parsed})
    except (ValueError, KeyError, TypeError) as exc:  # a value the rule does not take
        reason = str(exc.args[0]) if exc.args else str(exc)
        raise UsageError(f"house rule {reason}" if reason.startswith("'") else f"house rule '{key}': {reason}",
                         "choose one of the values the house rule offers") from None
    if not isinstance(hr, dict):
        hr = CommentedMap()
        set_key_ordered(data, "house_rules", hr, get(system).list_keys)
    hr[key] = parsed
    return [f"{key} = {parsed}"]


def _rule_value(h, value):
    """A house rule's value from a form: the type of its default."""
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
        raise UsageError(f"{h.id} takes true or false, not '{value}'")
    if isinstance(d, int):
        try:
            return int(text)
        except ValueError:
            raise UsageError(f"{h.id} takes a whole number, not '{value}'") from None
    if isinstance(d, float):
        try:
            return float(text)
        except ValueError:
            raise UsageError(f"{h.id} takes a number, not '{value}'") from None
    return text


__all__ = ["Conflict", "DaimyoError", "Editor", "ListError", "Outcome", "apply_op", "change", "version_of"]
