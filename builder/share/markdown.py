"""Markdown for forums and chat: the text format, decorated.

The header is bold, key lines have an italic label, entries are bullets::

    **Buke vanguard - Kensei - clan buke - 200/200 AP**
    *Author:* Kenji

    - 5x Samurai Yari (25)
    - 9x Yari Ashigaru (45)

Characters Markdown would interpret are escaped with a backslash; reading strips
the decoration and the escapes and reads the result as text.
"""

from __future__ import annotations

import re

from builder.share.text import render_lines

_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#])")
_KEY = re.compile(r"^([A-Za-z ]+):(.*)$")


def escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def render_markdown(doc: dict, resolver=None, summary: dict | None = None) -> str:
    out = []
    for kind, line in render_lines(doc, resolver, summary):
        if kind == "header":
            out.append(f"**{escape(line)}**")
        elif kind == "key":
            m = _KEY.match(line)
            if m is None:  # every key line reads "Key: value"; one that does not is kept as it is
                out.append(escape(line))
            else:
                value = m.group(2)
                out.append(f"*{m.group(1)}:*" + (" " + escape(value[1:]) if value.startswith(" ") else escape(value)))
        elif kind == "entry":
            out.append(f"- {escape(line)}")
        else:
            out.append("")
    return "\n".join(out) + "\n"


def looks_like_markdown(text: str) -> bool:
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        return (
            line.startswith("**")
            or (line.startswith(("# ", "## ", "### ")) and "\\" in text)
            or (line.startswith("*") and ":*" in line)
        )
    return False


def strip_markdown(text: str) -> str:
    """The text form of a markdown export (decoration and escapes removed)."""
    out = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        m = re.match(r"^\*\*(.*)\*\*$", line)
        if m:
            out.append(unescape(m.group(1)))
            continue
        m = re.match(r"^#{1,6}\s+(.*)$", line)
        if m:
            out.append(unescape(m.group(1)))
            continue
        m = re.match(r"^\*([A-Za-z ]+):\*(.*)$", line)
        if m:
            out.append(f"{m.group(1)}:{unescape(m.group(2))}")
            continue
        m = re.match(r"^[-*+]\s+(.*)$", line)
        if m:
            out.append(unescape(m.group(1)))
            continue
        if line.startswith(("#", "//")) or not line:
            out.append(line)
            continue
        out.append(unescape(line))
    return "\n".join(out)
