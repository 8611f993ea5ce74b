"""Canonical YAML for list documents (what ``daimyo new``/``add`` and ``export --to yaml`` write)."""

from __future__ import annotations

import io

KEY_ORDER = ("system", "name", "author", "notes", "packs", "house_rules")


def dump_list_yaml(data: dict) -> str:
    """A list document as block-style YAML, common keys first, in a stable order."""
    from ruamel.yaml import YAML

    ordered = {k: data[k] for k in KEY_ORDER if k in data}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    y = YAML()
    y.default_flow_style = False
    y.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    y.dump(ordered, buf)
    return buf.getvalue()
