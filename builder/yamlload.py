"""The reader of :func:`builder.yamlio.parse_yaml`: the loader that
``YAML(typ="safe", pure=False).compose`` sets up around the C parser (its parser, composer, safe
constructor and resolver in one object), made once instead of on every call. The C parser gives
the resolver no ``%YAML`` directive, so plain values are always read by the YAML 1.2 rules: the
resolver has them fixed, with each rule's compiled pattern and tag made once.

``builder.yamlio`` imports this module when YAML is first parsed: ``daimyo catalog list`` reads
the cache without the YAML library."""

from __future__ import annotations

import inspect
from types import MappingProxyType
from typing import Any

from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.main import CParser
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.resolver import BaseResolver, VersionedResolver, implicit_resolvers
from ruamel.yaml.tag import Tag

VERSION = (1, 2)
DIRECT_KINDS = ("int", "float", "bool", "null", "timestamp")
#: the tag of a value the resolver reads as text (one shared object)
PLAIN_TAG = BaseResolver.DEFAULT_SCALAR_TAG


def _rules() -> tuple[dict[Any, tuple[Any, ...]], tuple[Any, ...]]:
    """The resolver's rules (match, tag) by a value's first character ("" for an empty value),
    in ruamel.yaml's order, and the rules for any first character (none in YAML 1.2)."""
    rules: dict[Any, list[Any]] = {}  # first character ("" for an empty value) -> [(match, tag)]
    for versions, tag, regexp, first in implicit_resolvers:  # in ruamel.yaml's order
        if VERSION in versions:
            rule = (regexp.match, Tag(suffix=tag))
            for ch in [None] if first is None else first:
                rules.setdefault(ch, []).append(rule)
    any_first = tuple(rules.pop(None, ()))  # rules for any first character (none in YAML 1.2)
    return {ch: tuple(found) + any_first for ch, found in rules.items()}, any_first


def _direct(table: dict[Any, tuple[Any, ...]]) -> dict[int, tuple[Any, bool, Any]]:
    """The safe constructor's function for each number, boolean, null or date the resolver finds,
    by the identity of its tag, with whether the value is an integer."""
    out: dict[int, tuple[Any, bool, Any]] = {}
    for found in table.values():
        for _, tag in found:
            name = str(tag)
            make = SafeConstructor.yaml_constructors.get(name)
            if name.rsplit(":", 1)[-1] in DIRECT_KINDS and make and not inspect.isgeneratorfunction(make):
                out[id(tag)] = (tag, name.endswith(":int"), make)
    return out


TABLE, ANY_FIRST = _rules() if CParser is not None else ({}, ())
#: the tag's constructor for each number, boolean, null or date the resolver finds (see
#: ``builder.yamlparse._scalar``), by the identity of its tag
CONSTRUCT = MappingProxyType(_direct(TABLE))


class Resolver(VersionedResolver):
    """The YAML 1.2 resolver with its rules fixed (``TABLE``)."""

    processing_version = VERSION

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if self.yaml_path_resolvers:  # pragma: no cover - none are registered
            return VersionedResolver.resolve(self, kind, value, implicit)
        if kind is ScalarNode:
            if implicit[0]:
                for match, tag in TABLE.get(value[0] if value else "", ANY_FIRST):
                    if match(value):
                        return tag
            return self.DEFAULT_SCALAR_TAG
        if kind is SequenceNode:
            return self.DEFAULT_SEQUENCE_TAG
        if kind is MappingNode:
            return self.DEFAULT_MAPPING_TAG
        return None


if CParser is not None:

    class Loader(CParser, SafeConstructor, Resolver):  # as YAML.get_constructor_parser makes it
        """The C parser, the safe constructor and :class:`Resolver` in one object."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            self._parser = self._composer = self
            SafeConstructor.__init__(self, loader=self)
            self.allow_duplicate_keys = False
            Resolver.__init__(self, version=None, loadumper=self)

    LOADER: Any = Loader
else:  # pragma: no cover - ruamel.yaml.clib is a dependency on CPython
    LOADER = False
