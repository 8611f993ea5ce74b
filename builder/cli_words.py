"""Click's and typer's own words (``Usage:``, ``Options``, ``Missing argument``...) in daimyo's
catalogs, so that a command's help and its usage errors read in the chosen language.

Click marks its messages for gettext, but ships no catalogs and looks them up in the process's
global domain; ``route()`` makes its modules (and typer's) look them up in daimyo's catalogs
instead. The messages below are the msgids of the click typer carries (``typer._click``) and typer's, written out so that
``scripts/i18n.py extract`` puts them in the ``daimyo`` templates for translators (they must match
the installed click exactly: a msgid that no longer matches shows in English, never an error).
"""

from __future__ import annotations

import re
import sys
from typing import Any

from builder import i18n
from builder.i18n import N_, Text, _, tr


def ngettext(singular: str, plural: str) -> tuple[str, str]:  # a marker for the extractor only
    return singular, plural


WORDS = (
    N_("Usage:"),
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
    N_("Show this message and exit."),
    N_("(dynamic)"),
    N_("Aborted!"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("(deprecated) "),
    N_("[default: {}]"),
    N_("[env var: {}]"),
    N_("[required]"),
    N_("Error"),
    N_("Aborted."),
    N_("Try [blue]'{command_path} {help_option}'[/] for help."),
)

_MODULES = (
    "typer._click.core",  # the copy of click typer carries
    "typer._click.exceptions",
    "typer._click.formatting",
    "typer._click.types",
    "typer._click.parser",
    "typer._click.decorators",
    "typer._click.termui",
    "typer.rich_utils",
    "click.core",
    "click.exceptions",
    "click.formatting",
    "click.types",
    "click.parser",
    "click.decorators",
    "click.termui",
    "typer.core",
    "typer.main",
)


def route() -> None:
    """Let click's and typer's modules (those imported by now) say their messages in the current
    language: their module-level ``_``/``gettext``/``ngettext`` become daimyo's."""
    for top in ("typer._click", "click"):
        if top in sys.modules:
            _route_help(sys.modules[top])
    for name in _MODULES:
        mod: Any = sys.modules.get(name)
        if mod is None:
            continue
        for attr, func in (("_", i18n.gettext), ("gettext", i18n.gettext), ("ngettext", i18n.ngettext)):
            if callable(getattr(mod, attr, None)):
                setattr(mod, attr, func)


def _route_help(module: Any) -> None:
    """The usage line's ``Usage:`` and the ``--help`` option's help in the current language (the
    click typer carries writes them in English, without gettext)."""
    formatter = getattr(getattr(module, "formatting", None), "HelpFormatter", None)
    if formatter is not None and not getattr(formatter.write_usage, "daimyo_routed", False):
        write_usage = formatter.write_usage

        def usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
            write_usage(self, prog, args, _("Usage:") + " " if prefix is None else prefix)

        usage.daimyo_routed = True  # type: ignore[attr-defined]
        formatter.write_usage = usage
    command = getattr(getattr(module, "core", None), "Command", None)
    if command is not None and not getattr(command.get_help_option, "daimyo_routed", False):
        get_help_option = command.get_help_option

        def help_option(self: Any, ctx: Any) -> Any:
            opt = get_help_option(self, ctx)
            if opt is not None:
                english = vars(opt).setdefault("_help_english", opt.help)
                if english:
                    opt.help = _(english)
            return opt

        help_option.daimyo_routed = True  # type: ignore[attr-defined]
        command.get_help_option = help_option


# the fixed English of the click typer carries (no gettext there): each message with its parts,
# said again from a marked template
_CLICK_TEXTS = (
    (
        re.compile(r"^Got unexpected extra argument\(s\) \((?P<args>.*)\)$"),
        N_("Got unexpected extra arguments ({args})"),
    ),
    (re.compile(r"^Option (?P<name>'[^']*') does not take a value\.$"), N_("Option {name} does not take a value.")),
    (re.compile(r"^Option (?P<name>'[^']*') requires an argument\.$"), N_("Option {name} requires an argument.")),
    (
        re.compile(r"^Option (?P<name>'[^']*') requires (?P<n>[0-9]+) arguments\.$"),
        N_("Option {name} requires {n} arguments."),
    ),
    (re.compile(r"^Argument (?P<name>'[^']*') takes (?P<n>[0-9]+) values\.$"), N_("Argument {name} takes {n} values.")),
    (
        re.compile(r"^(?P<value>'.*') is not a valid (?P<type>integer|float|boolean)\.$"),
        N_("{value} is not a valid {type}."),
    ),
    (re.compile(r"^(?P<value>.*) is not in the range (?P<range>.*)\.$"), N_("{value} is not in the range {range}.")),
)
N_("integer"), N_("float"), N_("boolean")  # the number types click names


def _click_text(text: str) -> str:
    for rx, template in _CLICK_TEXTS:
        m = rx.match(text)
        if m:
            parts = dict(m.groupdict())
            if "type" in parts:
                parts["type"] = _(parts["type"])
            return _(template).format(**parts)
    return text


def usage_message(exc: Any) -> str:
    """A command-line usage error (click's ``UsageError`` and its kinds) in the current language,
    said from its parts: the option or argument it names, the value given, the message of a
    check of daimyo's own (already translated). A message of a kind not known here is shown as
    click gives it."""
    kind = type(exc).__name__
    if kind == "MissingParameter":
        param = getattr(exc, "param", None)
        hint = exc.param_hint if exc.param_hint is not None else (param.get_error_hint(exc.ctx) if param else None)
        if hint is not None and not isinstance(hint, str):
            hint = " / ".join(repr(x) for x in hint)
        ptype = exc.param_type or (param.param_type_name if param is not None else "parameter")
        if not hint:
            return _("Missing {kind}.").format(kind=_(ptype))
        if ptype == "argument":
            return _("Missing argument {name}.").format(name=hint)
        if ptype == "option":
            return _("Missing option {name}.").format(name=hint)
        return _("Missing parameter {name}.").format(name=hint)
    if kind == "NoSuchOption":
        english = f"No such option: {exc.option_name}"
        text = _("No such option: {name}").format(name=exc.option_name) if exc.message == english else tr(exc.message)
        if exc.possibilities:
            text = _("{message} (Possible options: {options})").format(
                message=text, options=", ".join(sorted(exc.possibilities))
            )
        return text
    if kind == "BadParameter":
        param = getattr(exc, "param", None)
        hint = exc.param_hint if exc.param_hint is not None else (param.get_error_hint(exc.ctx) if param else None)
        if hint is not None and not isinstance(hint, str):
            hint = " / ".join(repr(x) for x in hint)
        message = _click_text(tr(exc.message))
        if hint is None:
            return _("Invalid value: {message}").format(message=message)
        return _("Invalid value for {name}: {message}").format(name=hint, message=message)
    return _click_text(tr(exc.message)) if hasattr(exc, "message") else exc.format_message()


N_("argument"), N_("option"), N_("parameter")  # what a missing parameter is


# help texts with values in them (a range, a default port): typer keeps the English text alone,
# so each is remembered here with its template, to be said again in the language of the call.
# A registry filled as the command modules are imported, not a cache: clearing the process's
# caches (builder.state.clear_all) must not forget them, since the modules are not imported again.
HELP_TEXTS_BOUND = 1024  # far more than the commands hold
_HELP_TEXTS: dict[str, Text] = {}


def help_text(template: str, /, **params: Any) -> str:
    """A help text with ``params`` in it, translated where the help is shown (``help_said``);
    ``scripts/i18n.py extract`` reads ``help_text("...")`` as it reads ``_()``."""
    text = Text(template, params)
    if len(_HELP_TEXTS) < HELP_TEXTS_BOUND:
        _HELP_TEXTS[str(text)] = text
    return text


def help_said(english: str) -> str:
    """A help text in the current language: one made with ``help_text`` from its template and
    values, any other from the catalogs."""
    text = english if isinstance(english, Text) else _HELP_TEXTS.get(english)
    return text.translated() if text is not None else _(english)


def help_template(english: str) -> str:
    """The msgid of a help text as shown in English (its template when it has values)."""
    text = english if isinstance(english, Text) else _HELP_TEXTS.get(english)
    return text.template if text is not None else english
