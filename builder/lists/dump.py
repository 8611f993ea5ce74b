"""Canonical YAML for list documents (what ``daimyo new``/``add`` and ``export --to yaml`` write).

* keys in the order of FORMATS.md section 1: common keys (system, name, author,
  notes, packs, house_rules), then the system's keys in their documented order,
  then any other key as given; entries of ``troops``, ``players`` and
  ``provinces`` in their documented key order too;
* block style throughout, two-space indentation, list items indented under
  their key; multi-line text as a literal block (``|``);
* stable: the same data always gives the same text, and reading the text back
  gives the same data.
"""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any

from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import LiteralScalarString, SingleQuotedScalarString

from builder.lists.schema import schema
from builder.systems import is_system

if TYPE_CHECKING:
    from builder.kit.fields import Field

KEY_ORDER = ("system", "name", "author", "notes", "packs", "house_rules")
_LITERAL_OK = re.compile(r"^[^\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029\ufeff]*$")


_YAML11_WORDS = {"yes", "no", "on", "off", "y", "n"}


def _order(data: dict, keys: list[str]) -> dict:
    out = {k: data[k] for k in keys if k in data}
    out.update({k: v for k, v in data.items() if k not in out})
    return out


def _schema_keys(system: object) -> Any:
    try:
        if isinstance(system, str) and is_system(system):
            return schema(system)
    except Exception:  # pragma: no cover - the schema is part of the package
        pass
    return None


def _prepare(value: Any, field: Field | None = None) -> Any:
    if isinstance(value, dict):
        if field is not None and field.kind == "items":
            keys = [f.key for f in field.fields]
            sub = {f.key: f for f in field.fields}
            return {_key(k): _prepare(v, sub.get(k)) for k, v in _order(value, keys).items()}
        return {_key(k): _prepare(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_prepare(v, field) for v in value]
    if isinstance(value, str) and "\n" in value and _literal_ok(value):
        return LiteralScalarString(value)
    if isinstance(value, str) and value.lower() in _YAML11_WORDS:
        return SingleQuotedScalarString(value)  # YAML 1.1 readers would take these for true/false
    return value


def _key(k: Any) -> Any:
    if isinstance(k, str) and k.lower() in _YAML11_WORDS:
        return SingleQuotedScalarString(k)
    return k


def _literal_ok(text: str) -> bool:
    if not _LITERAL_OK.match(text) or text != text.strip("\n") or text[:1] in (" ", "\t"):
        return False
    return all(line == line.rstrip() for line in text.split("\n"))


def dump_list_yaml(data: dict) -> str:
    """A list document as block-style YAML, keys in the documented order, stable."""
    fields = _schema_keys(data.get("system")) if isinstance(data, dict) else None
    if fields is not None:
        ordered = _order(data, [f.key for f in fields])
        by_key = {f.key: f for f in fields}
        ordered = {k: _prepare(v, by_key.get(k)) for k, v in ordered.items()}
    else:
        ordered = _prepare(_order(data, list(KEY_ORDER)))
    y = YAML()
    y.default_flow_style = False
    y.indent(mapping=2, sequence=4, offset=2)
    y.width = 4096
    y.allow_unicode = True
    buf = io.StringIO()
    y.dump(ordered, buf)
    return buf.getvalue()
