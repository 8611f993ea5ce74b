"""Diagnostics for bad input and the exception that carries them.

A diagnostic is one line a user can act on::

    FILE:LINE:COL: error CODE: MESSAGE (hint)

List documents use the contract form without a code (``FILE:LINE:COL: error: MESSAGE``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from builder.i18n import _, pgettext

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_INPUT = 2


# everything that ends a line for str.splitlines() or a terminal, the other control characters,
# and the bidirectional controls that reorder what follows them (``Evil\u202egnp.exe`` shows as
# ``Evilexe.png``)
_BREAKS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def one_line(text: str) -> str:
    """``text`` with line breaks, control characters and bidirectional controls written as escapes
    (``\\n``, ``\\x0c``, ``\\u202e``), so that a message quoting what a user wrote, or a text from
    elsewhere (a registry's index), stays one line that reads as it is stored."""
    if not _BREAKS.search(text):
        return text
    return _BREAKS.sub(lambda m: repr(m.group())[1:-1], text)


# control characters a terminal would act on (a line break or a tab is kept)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def safe_terminal(text: str) -> str:
    """``text`` with every control character but line breaks and tabs written as an escape:
    a name with an escape sequence cannot move the cursor, recolour or hide a line. C0 controls
    become ``\\x1b`` and the rest ``\\u009b`` (valid inside a JSON string too)."""
    if not _CONTROLS.search(text):
        return text

    def esc(m):
        c = m.group()
        return repr(c)[1:-1] if c < "\x20" else f"\\u{ord(c):04x}"

    return _CONTROLS.sub(esc, text)


_OPTION = re.compile("('?)\x0e([A-Za-z0-9_-]+)\x0f('?)")


def option(name: str) -> str:
    """An option of the call that went wrong, named inside a message or hint (``option("count")``).

    The library shows it as the parameter (``'count'``); the command line shows the flag
    (``--count``) when it translates the error (``lines(flags=True)``)."""
    return f"\x0e{name}\x0f"


def command_line(text: str) -> str:
    """A hint that only a command-line user can follow (``e.g. daimyo new kensei --clan buke``):
    shown by the command line, left out by the library."""
    return f"\x10{text}\x11"


_COMMAND_LINE = re.compile(" ?\\(\x10[^\x11]*\x11\\)|\x10[^\x11]*\x11")


def show_options(text: str, flags: bool = False) -> str:
    """``text`` with its ``option()`` marks as flags (``--max-hero-points``) or as parameters, and
    its ``command_line()`` hints kept (``flags``) or left out."""
    if "\x0e" not in text and "\x10" not in text:
        return text
    if flags:
        text = text.replace("\x10", "").replace("\x11", "")
        return _OPTION.sub(lambda m: m.group(1) + "--" + m.group(2).replace("_", "-") + m.group(3), text)
    text = _COMMAND_LINE.sub("", text)
    return _OPTION.sub(lambda m: "'" + m.group(2).replace("-", "_") + "'", text)


def _readable(text: str) -> str:
    """Rulebook references in a message as a player reads them (title, section, line)."""
    if ".txt:" not in text:
        return text
    from builder.rulebooks import humanize  # noqa: PLC0415 - errors is the bottom module; `daimyo --version` loads no rulebook index

    return humanize(text, bare=False)


def _tr(text: str) -> str:
    """A message in the current language (a ``builder.i18n.Text`` is translated; a string was
    translated when it was made)."""
    if type(text) is str or not hasattr(text, "translated"):
        return text
    return str(text.translated())


def _severity(severity: str) -> str:
    if severity == "error":
        return pgettext("severity", "error")
    if severity == "warning":
        return pgettext("severity", "warning")
    if severity == "info":
        return pgettext("severity", "info")
    return severity


def unknown_format(value: str, names: tuple[str, ...] | list[str]) -> str:
    """``unknown format 'xml' (use text, json or csv)`` in the current language."""
    if len(names) == 1:
        return _("unknown format '{format}' (use {formats})").format(format=value, formats=names[0])
    return _("unknown format '{format}' (use {formats} or {last})").format(
        format=value, formats=", ".join(names[:-1]), last=names[-1]
    )


@dataclass(frozen=True)
class Diagnostic:
    file: str
    line: int
    col: int
    message: str
    code: str | None = None
    severity: str = "error"
    hint: str | None = None

    def format(self, flags: bool = False) -> str:
        """``FILE:LINE:COL: error CODE: MESSAGE (HINT)``; a problem with a whole file (no line)
        is ``FILE: error CODE: MESSAGE (HINT)``. ``flags``: options named as command-line flags."""
        where = f"{self.file}:{self.line}:{self.col}" if self.line and self.line > 0 else f"{self.file}"
        head = f"{where}: {_severity(self.severity)}"
        head += f" {self.code}:" if self.code else ":"
        text = f"{head} {_tr(self.message)}"
        if self.hint:
            text += f" ({_tr(self.hint)})"
        return one_line(show_options(text, flags))  # sources stay FILE:LINE here: pack authors write them so

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.format()


class DaimyoError(Exception):
    """Raised for any input a user can fix; carries one diagnostic per problem."""

    exit_code = EXIT_INPUT

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic | str):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic("daimyo", 0, 0, diagnostics)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))

    def lines(self, flags: bool = False) -> list[str]:
        """One line per diagnostic; ``flags``: options named as command-line flags (the CLI)."""
        return [d.format(flags) for d in self.diagnostics]


class CatalogError(DaimyoError):
    """The catalog or a pack is broken."""

    ok_lines: list[str]  # ``catalog check``: the lines of the catalogs that are fine (set when some are)


class ListError(DaimyoError):
    """A list document cannot be read as a list."""


class UsageError(DaimyoError):
    """A command was called with arguments that cannot work."""

    def __init__(self, message: str, hint: str | None = None):
        text = _tr(message) + (f" ({_tr(hint)})" if hint else "")
        super().__init__([Diagnostic("daimyo", 0, 0, text)])

    def lines(self, flags: bool = False) -> list[str]:
        return [
            one_line(show_options(_readable(_("daimyo: error: {message}").format(message=d.message)), flags))
            for d in self.diagnostics
        ]


class WouldOverwrite(UsageError):
    """A file exists where an output would go; nothing was written (``force`` replaces it)."""

    def __init__(
        self,
        path,
        message: str | None = None,
        hint: str | None = "",
    ):
        if message is None:
            message = _("file exists; not overwritten")
        if hint == "":
            hint = _("pass {force} to replace it").format(force=option("force"))
        super().__init__(f"{path}: {_tr(message)}", hint)
        self.path = path


class UnknownSystem(UsageError):
    """No game system has that id, name or alias."""


class UnknownEntry(UsageError):
    """A name (troop, card, province, ...) that neither the catalog nor the list's packs know."""


class EditRefused(UsageError):
    """An edit that cannot be made to this list as it is (the list is left unchanged)."""


class ListChangedError(DaimyoError):
    """The list file changed on disk since it was read; nothing was written."""


class NothingToUndo(UsageError):
    """``undo`` or ``redo`` with an empty history."""
