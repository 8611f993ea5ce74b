"""The YAML parser behind ``builder.yamlio.parse_yaml``: it composes the node graph (fast, no
round-trip objects) and turns it into plain Python data plus a ``Positions`` map. It imports the
YAML library at its top; ``builder.yamlio`` imports it when a text is first parsed, so a catalog
read from the cache loads neither."""

from __future__ import annotations

from typing import Any

from ruamel.yaml import YAML, events
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from builder import yamlload
from builder.errors import DaimyoError, Diagnostic
from builder.i18n import L_
from builder.limits import MAX_PACK_VALUES, long_integer_problem, number_problem
from builder.yamlpos import Positions, tab_diag, too_deep, too_deep_diag, too_many_entries_diag


def _yaml():

    y = YAML(typ="safe", pure=False)  # the C parser (ruamel.yaml.clib) when installed
    return y


# The reader of ``parse_yaml`` (``builder.yamlload``); False when the C parser is not installed
# (then ``_yaml`` is used as it is).
_LOADER: Any = yamlload.LOADER
_PLAIN_TAG: Any = yamlload.PLAIN_TAG  # the tag of a value the resolver reads as text (one shared object)
# The safe constructor's function for each number, boolean, null or date the resolver finds, by
# the identity of its tag: called directly, as ``construct_object`` would (these values are
# immutable: its memo of the values already made changes nothing), with whether the value is an
# integer. A read-only table made once by ``builder.yamlload``.
_CONSTRUCT = yamlload.CONSTRUCT
_STR = "tag:yaml.org,2002:str"
_MERGE = "tag:yaml.org,2002:merge"


def _loader_class() -> Any:
    return _LOADER


def _mark_diag(file: str, exc, code: str | None, text: str | None = None) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    if text is not None and mark is not None:
        tab = tab_diag(file, text, line, code)
        if tab is not None:
            return tab
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    msg = (
        L_("YAML syntax: {problem} ({context})", problem=problem, context=context)
        if context
        else L_("YAML syntax: {problem}", problem=problem)
    )
    return Diagnostic(
        file, line, col, msg, code=code, hint=L_("check indentation, colons and quotes on this line or the one before")
    )


def _unmarked_diag(file: str, text: str, exc, code: str | None) -> Diagnostic:
    """One line for an error without a mark: the reader's position (a character index) becomes
    a line and column; the message is its first line."""
    position = getattr(exc, "position", None)
    reason = getattr(exc, "reason", None)
    char = getattr(exc, "character", None)
    if isinstance(char, str) and len(char) == 1:
        char = ord(char)
    if isinstance(char, int) and 0 <= char <= 0x10FFFF and chr(char) in text:
        position = text.index(chr(char))  # the reader stops at the first one (the C reader counts bytes)
    line, col = 1, 1
    if isinstance(position, int) and 0 <= position <= len(text):
        before = text[:position]
        line = before.count("\n") + 1
        col = position - (before.rfind("\n") + 1) + 1
    if reason and isinstance(char, int):
        msg = f"YAML: unacceptable character #x{char:04x}: {reason}"
        hint = "remove the character or save the file as plain text"
    else:
        msg = "YAML: " + (str(exc).strip().splitlines() or ["unreadable document"])[0]
        hint = None
    return Diagnostic(file, line, col, msg, code=code, hint=hint)


class _Budget:
    """How many values building may still make: aliases (``*a``) that expand to far more values
    than the document has characters (an alias bomb) are refused instead of filling memory."""

    def __init__(self, text: str):
        self.left = 2 * len(text) + 1000


def entries_over(text: str, limit: int, values: int | None = None) -> bool:
    """Whether the YAML document ``text`` holds more than ``limit`` entries (values directly in
    the collections of its top-level mapping: a pack's cards, troops, ...) or, with ``values``,
    more than that many values in all. Counted from the parser's events, one at a time, before
    anything is built; a text that does not parse is left for the parser to report."""
    least = min(limit, values) if values is not None else limit
    if len(text) < 2 * least:  # each entry or value takes two characters at least ("a," in a flow list)
        return False

    loader_class = _loader_class()
    if not loader_class:  # pragma: no cover - without the C parser
        return False
    loader = loader_class(text)
    depth = count = total = 0
    most = values if values is not None else len(text)
    try:
        while loader.check_event():
            ev = loader.get_event()
            if isinstance(ev, events.CollectionStartEvent):
                depth += 1
                count += depth == 3
                total += 1
            elif isinstance(ev, events.CollectionEndEvent):
                depth -= 1
            elif isinstance(ev, (events.ScalarEvent, events.AliasEvent)):
                count += depth == 2
                total += 1
            if count > limit or total > most:
                return True
    except YAMLError:
        return False
    finally:
        loader.dispose()
    return False


def parse_yaml(
    text: str, file: str = "<string>", code: str | None = None, max_entries: int | None = None
) -> tuple[Any, Positions]:
    """Parse one YAML document into plain data and positions; raise DaimyoError on syntax errors.
    ``max_entries``: refuse, before building it, a document with more entries (``entries_over``)."""

    loader_class = _loader_class()
    pos = Positions(file)
    if too_deep(text):
        raise DaimyoError(too_deep_diag(file, code))
    if max_entries is not None:
        if entries_over(text, max_entries, MAX_PACK_VALUES):
            raise DaimyoError(too_many_entries_diag(file, code))
    try:
        if loader_class:
            loader = loader_class(text)
            try:
                node = loader.get_single_node()
            finally:
                loader.dispose()
            constructor = loader
        else:  # pragma: no cover - without the C parser
            y = _yaml()
            node = y.compose(text)
            constructor = y.constructor
    except MarkedYAMLError as exc:
        raise DaimyoError(_mark_diag(file, exc, code, text)) from None
    except YAMLError as exc:  # a control character (reader error) or another unmarked error
        raise DaimyoError(_unmarked_diag(file, text, exc, code)) from None
    if node is None:
        return None, pos
    try:
        data = _builder(pos, constructor, file, code, _Budget(text))(node, ())
    except DaimyoError:
        raise
    except RecursionError:
        raise DaimyoError(
            Diagnostic(
                file, 1, 1, L_("values nested too deeply"), code=code, hint=L_("a list or catalog needs a few levels")
            )
        ) from None
    except Exception as exc:  # constructor errors (bad timestamps, ...)
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise DaimyoError(Diagnostic(file, line, col, f"YAML value: {exc}".splitlines()[0], code=code)) from None
    return data, pos


def _scalar(node, constructor, file: str, code: str | None):
    """One scalar's value; a number outside the documented range is an error at its place
    (thousands of digits are refused before Python is asked to convert them)."""
    ctag = node.ctag
    if ctag is _PLAIN_TAG:  # text, as the resolver found it: the value as written
        return node.value

    direct = _CONSTRUCT.get(id(ctag))
    if direct is not None:  # a number, boolean, null or date the resolver found
        why = direct[1] and long_integer_problem(node.value)
        if not why:
            value = direct[2](constructor, node)
            why = number_problem(value)
    else:
        tag = node.tag
        if tag == _STR:  # text tagged so (!!str): what the constructor gives is the value as written
            return node.value
        why = tag.endswith(":int") and long_integer_problem(node.value)
        if not why:
            value = constructor.construct_object(node, deep=True)
            why = number_problem(value)
    if why:
        raise DaimyoError(Diagnostic(file, node.start_mark.line + 1, node.start_mark.column + 1, why, code=code))
    return value


def _builder(pos: Positions, constructor, file: str, code: str | None, budget: _Budget):
    """The function turning a node (and its path) into plain data, noting every value's and
    key's position in ``pos``."""

    values, keys, plain = pos.value, pos.key, _PLAIN_TAG

    def build(node, path: tuple):
        budget.left -= 1
        mark = node.start_mark
        if budget.left < 0:
            raise DaimyoError(
                Diagnostic(
                    file,
                    mark.line + 1,
                    mark.column + 1,
                    L_("aliases expand to far more values than the document holds"),
                    code=code,
                    hint=L_("write the values out instead of repeating *aliases"),
                )
            )
        values[path] = (mark.line + 1, mark.column + 1)
        if isinstance(node, ScalarNode):
            return _scalar(node, constructor, file, code)
        if isinstance(node, SequenceNode):
            return [build(child, path + (i,)) for i, child in enumerate(node.value)]
        if isinstance(node, MappingNode):
            out: dict = {}
            for knode, vnode in node.value:
                kmark = knode.start_mark
                if knode.ctag is not plain and knode.tag == _MERGE:
                    raise DaimyoError(
                        Diagnostic(
                            file, kmark.line + 1, kmark.column + 1, L_("merge keys (<<) are not supported"), code=code
                        )
                    )
                if not isinstance(knode, ScalarNode):
                    raise DaimyoError(
                        Diagnostic(
                            file, kmark.line + 1, kmark.column + 1, L_("a mapping key must be a plain value"), code=code
                        )
                    )
                key = _scalar(knode, constructor, file, code)
                if not isinstance(key, (str, int, float, bool)) and key is not None:
                    key = str(key)
                if key in out:
                    raise DaimyoError(
                        Diagnostic(
                            file,
                            kmark.line + 1,
                            kmark.column + 1,
                            L_("duplicate key '{key}'", key=key),
                            code=code,
                            hint=L_("each key may appear once in a mapping"),
                        )
                    )
                kp = path + (key,)
                keys[kp] = (kmark.line + 1, kmark.column + 1)
                out[key] = build(vnode, kp)
            return out
        raise DaimyoError(
            Diagnostic(
                file,
                mark.line + 1,
                mark.column + 1,  # pragma: no cover
                L_("unsupported YAML node"),
                code=code,
            )
        )

    return build
