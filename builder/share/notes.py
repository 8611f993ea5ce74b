"""The notes met while reading shared input: a problem or a remark, with its line and column
when the input is text."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as _field


@dataclass
class Note:
    """A problem or remark met while reading shared input (line numbers for text)."""

    line: int
    col: int
    message: str
    severity: str = "warning"
    hint: str | None = None
    extra: dict = _field(default_factory=dict)
