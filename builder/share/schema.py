"""The schema of each system's list document (``builder.lists.schema``, where the list writer
finds its key order too) as the share formats use it, and the notes met while reading shared input.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as _field

from builder.lists.schema import SCHEMAS, declared_field, field_of, keys, schema

__all__ = ["SCHEMAS", "Note", "declared_field", "field_of", "keys", "schema"]


@dataclass
class Note:
    """A problem or remark met while reading shared input (line numbers for text)."""

    line: int
    col: int
    message: str
    severity: str = "warning"
    hint: str | None = None
    extra: dict = _field(default_factory=dict)
