"""The languages daimyo speaks: one message catalog per language, chosen per call or per request.

Every string a person reads goes through ``_()`` (or ``ngettext()`` for a count, ``N_()`` to mark
a module-level constant that is translated where it is shown). The catalogs are GNU gettext
``.po`` files in the layout translation platforms read unchanged::

    builder/locale/daimyo.pot                     the template, made by ``pybabel extract``
    builder/locale/<lang>/LC_MESSAGES/daimyo.po   one per language

The messages are split in domains by where their source lives (``DOMAINS``), one ``.po`` per
domain and language (``findings.po``, ``web.po``, ...): a translator or a platform takes one
component at a time, and engineers working on different parts do not edit the same file. A
language's catalogs are read together: a message is looked up in each in turn.

A ``.po`` file is compiled when a process first needs its language (Babel reads it and writes
the ``.mo`` bytes in memory), so no compiled file is kept beside its source. English is the
source language and the fallback: a string a catalog lacks, a language with no catalog, or a
catalog that cannot be read shows the English text, never an error.

The language of a call is a context variable, so each web request (and each thread or task)
has its own: ``use(lang)`` sets it for a ``with`` block, ``set_language(lang)`` for the rest of
the current context (the command line sets it once, from ``--lang``, ``DAIMYO_LANG``, then
``LC_ALL``/``LC_MESSAGES``/``LANG``: ``language_from_env()``).
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from builder.state import PROCESS, memo

DOMAIN = "daimyo"  # the domain of any source no other domain claims
# domain -> the source paths (relative to the project's top) whose messages it holds; the first
# that claims a path wins (``scripts/i18n.py extract`` and ``domain_of`` read it)
DOMAINS: dict[str, tuple[str, ...]] = {
    # the printed pages: the renderers, the page and block toolkit, each game's roster, setup
    # sheet and aid blocks, and the printed words of the player aids and card templates (templates/)
    "print": (
        "builder/render",
        "builder/kit/blocks.py",
        "builder/kit/pdfbase.py",
        "builder/kit/aid.py",
        "builder/games/kensei/roster.py",
        "builder/games/senji/setup_sheet.py",
        "builder/games/herocard/aid.py",
        "builder/games/kensei/aid.py",
        "builder/games/satsuma/aid.py",
        "builder/games/senji/aid.py",
        "builder/games/senshiai/aid.py",
        "templates/aids",
        "templates/cards",
    ),
    "findings": ("builder/findings.py", "builder/rules", "builder/games", "builder/systems"),
    "web": ("builder/web",),
    "event": ("builder/event",),
    DOMAIN: ("builder",),
}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"
PSEUDO = "en_XA"  # the pseudo-locale the tests render through: every marked string accented and bracketed

_current: contextvars.ContextVar[str] = contextvars.ContextVar("daimyo_language", default=SOURCE_LANGUAGE)


def normalize(tag: str | None) -> str:
    """A language tag as the catalogs are named: ``es``, ``fr``, ``pt_BR``; ``""`` for none.
    Takes POSIX locale names (``fr_FR.UTF-8@euro``) and web tags (``pt-br``) alike."""
    if not tag:
        return ""
    tag = tag.strip().split(".")[0].split("@")[0].replace("-", "_")
    if not tag or tag in ("C", "POSIX"):
        return ""
    lang, _sep, region = tag.partition("_")
    return f"{lang.lower()}_{region.upper()}" if region else lang.lower()


def domain_of(path: str) -> str:
    """The domain of a source file (``builder/web/app.py`` -> ``web``)."""
    path = path.replace("\\", "/")
    for domain, roots in DOMAINS.items():
        if any(path == root or path.startswith(root + "/") for root in roots):
            return domain
    return DOMAIN


def available() -> list[str]:
    """The languages with a catalog, English first (it needs none), then by tag."""
    return list(_languages(str(LOCALE_DIR)))


@memo("i18n.languages", bound=4, lifetime=PROCESS, doc="the languages with a catalog, by locale folder")
def _languages(folder: str) -> tuple[str, ...]:
    """The languages of the catalogs in ``folder`` (shipped with the code: looked for once, not
    at each request; the folder was globbed for every page in a language)."""
    root = Path(folder)
    found: list[str] = []
    if root.is_dir():
        found = sorted({p.parent.parent.name for p in root.glob("*/LC_MESSAGES/*.po")})
    return (SOURCE_LANGUAGE, *(lang for lang in found if lang != SOURCE_LANGUAGE))


def resolve(tag: str | None) -> str:
    """The catalog that serves ``tag``: itself, else its base language (``fr_CA`` -> ``fr``), else
    English."""
    lang = normalize(tag)
    if not lang:
        return SOURCE_LANGUAGE
    have = available()
    if lang in have or lang == PSEUDO:
        return lang
    base = lang.split("_")[0]
    return base if base in have else SOURCE_LANGUAGE


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language asked for by the environment: ``DAIMYO_LANG``, then ``LC_ALL``,
    ``LC_MESSAGES`` and ``LANG`` (the first one set, as gettext reads them)."""
    env = os.environ if environ is None else environ
    for name in ("DAIMYO_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            # LANGUAGE-style lists (``fr:en``) give their first
            return resolve(value.split(":")[0])
    return SOURCE_LANGUAGE


def language_from_header(header: str | None) -> str:
    """The best language with a catalog for an HTTP ``Accept-Language`` header, English if none."""
    if not header:
        return SOURCE_LANGUAGE
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and tag != "*" and q > 0:
            choices.append((-q, i, tag))
    have = set(available()) | {PSEUDO}  # the pseudo-locale too (``en-XA``), for the tests
    for _q, _i, tag in sorted(choices):
        lang = normalize(tag)
        if lang in have:
            return lang
        if lang.split("_")[0] in have:
            return lang.split("_")[0]
    return SOURCE_LANGUAGE


class Pseudo(_gettext.NullTranslations):
    """The pseudo-locale: each marked string accented and bracketed (``[Ŧőŧàľ]``), with its
    ``{placeholders}``, ``%(placeholders)s`` and markup (``<kbd>``, ``&amp;``) kept, so a test finds any text left unmarked."""

    _MAP = str.maketrans("AEIOUaeiouCcNnSsYyTt", "ÀÉÎÖÜàéîöüÇçÑñŠšÝýŦŧ")

    def gettext(self, message: str) -> str:
        return "[" + _accent(message, self._MAP) + "]" if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)


def _accent(message: str, table: dict[int, int]) -> str:
    out: list[str] = []
    depth = 0
    i = 0
    while i < len(message):
        ch = message[i]
        if ch in "<&" and depth == 0:  # markup (``<strong>``, ``&amp;``) kept as it is
            end = message.find(">" if ch == "<" else ";", i)
            if end > i and (ch == "<" or message[i + 1 : end].isalnum() or message[i + 1 : end].startswith("#")):
                out.append(message[i : end + 1])
                i = end + 1
                continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch == "%" and depth == 0 and i + 1 < len(message) and message[i + 1] == "(":
            end = message.find(")", i)
            j = end + 1
            while j < len(message) and not message[j].isalpha():
                j += 1
            out.append(message[i : j + 1])
            i = j + 1
            continue
        out.append(ch if depth else ch.translate(table))
        i += 1
    return "".join(out)


@memo("i18n.translations", bound=16, lifetime=PROCESS, doc="one compiled catalog per language (the languages shipped)")
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogs of ``lang`` (every domain's, chained); English (no translation) when
    it has none. A catalog that cannot be read is left out: its messages show in English."""
    if lang == PSEUDO:
        return Pseudo()
    english = _gettext.NullTranslations()
    if lang == SOURCE_LANGUAGE:
        return english
    chain: _gettext.NullTranslations | None = None
    for domain in DOMAINS:
        one = _compile(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po", lang, domain)
        if one is None:
            continue
        if chain is None:
            chain = one
        else:
            chain.add_fallback(one)
    if chain is None:
        return english
    chain.add_fallback(english)
    return chain


def _compile(po: Path, lang: str, domain: str) -> _gettext.GNUTranslations | None:
    """One ``.po`` file compiled in memory (translated, non-fuzzy messages only); ``None`` when
    there is none or it cannot be read."""
    if not po.is_file():
        return None
    try:
        from babel.messages import mofile, pofile  # noqa: PLC0415 - Babel only when a language other than English is used

        with po.open("rb") as fh:
            catalog = pofile.read_po(fh, locale=lang, domain=domain)
        buf = io.BytesIO()
        mofile.write_mo(buf, catalog, use_fuzzy=False)
        buf.seek(0)
        return _gettext.GNUTranslations(buf)
    except Exception:  # a broken catalog shows English, never a crash
        return None


def current_language() -> str:
    """The language of the current call or request."""
    return _current.get()


def set_language(tag: str | None) -> str:
    """Use ``tag``'s catalog (or the nearest: ``resolve``) for the rest of this context; returns
    the language chosen."""
    lang = resolve(tag)
    _current.set(lang)
    return lang


@contextmanager
def use(tag: str | None) -> Iterator[str]:
    """Use ``tag``'s catalog inside the ``with`` block only."""
    token = _current.set(resolve(tag))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the current language (English when it has no translation)."""
    return translations(_current.get()).gettext(message)


def gettext(message: str) -> str:
    """The same as ``_``, under the name Jinja2's i18n extension and Babel expect."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in the current language."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English words elsewhere by
    ``context``."""
    return translations(_current.get()).pgettext(context, message)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it here (a module-level constant,
    translated with ``_()`` where it is shown)."""
    return message


class Text(str):
    """A message translated where it is shown: the English text (it *is* that string, so it goes
    wherever a ``str`` goes), with its msgid (``template``) and named ``params`` kept, so the
    same message reads in any language later (``translated()``), made from its template and
    parameters, never by reading the English back. A parameter that is itself a ``Text`` (a
    word a person reads: "troop", a rule's description) is translated with it; any other
    parameter is data (a name, a number) and is shown as it is. Made with ``L_()`` (or
    ``Ln_()`` for a count), which ``scripts/i18n.py extract`` reads like ``_()``."""

    template: str
    plural: str | None
    n: int | None
    params: dict[str, Any]

    def __new__(
        cls, template: str, params: Mapping[str, Any] | None = None, plural: str | None = None, n: int | None = None
    ) -> Text:
        values = dict(params or {})
        english = _english(template, plural, n, values)
        self = super().__new__(cls, english)
        self.template = template
        self.plural = plural
        self.n = n
        self.params = values
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Text, (self.template, self.params, self.plural, self.n))

    def translated(self, lang: str | None = None) -> str:
        """This message in ``lang`` (the current language when ``None``); English where a
        catalog lacks it or its translation does not fit its parameters."""
        cat = translations(resolve(lang) if lang is not None else _current.get())
        try:
            return self._in(cat)
        except (KeyError, IndexError, ValueError):  # a translation whose placeholders do not match
            return str(self)

    def _in(self, cat: _gettext.NullTranslations) -> str:
        return _render(cat, self.template, self.plural, self.n, self.params)


class Joined(Text):
    """Messages (or data) joined by ``sep``, each translated where shown: ``Lj_("; ", parts)``."""

    sep: str
    items: tuple[Any, ...]

    def __new__(cls, sep: str, items: Any) -> Joined:
        parts = tuple(items)
        self = str.__new__(cls, sep.join(str(x) for x in parts))
        self.template = str(self)
        self.plural = None
        self.n = None
        self.params = {}
        self.sep = sep
        self.items = parts
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Joined, (self.sep, self.items))

    def _in(self, cat: _gettext.NullTranslations) -> str:
        return self.sep.join(x._in(cat) if isinstance(x, Text) else str(x) for x in self.items)


def _english(template: str, plural: str | None, n: int | None, params: dict[str, Any]) -> str:
    """The message as written (a ``Text`` parameter is its English already)."""
    msg = template if plural is None or n == 1 else plural
    return msg.format(**params) if params else msg


def _render(
    cat: _gettext.NullTranslations, template: str, plural: str | None, n: int | None, params: dict[str, Any]
) -> str:
    msg = cat.ngettext(template, plural, n if n is not None else 1) if plural is not None else cat.gettext(template)
    if not params:
        return msg
    shown = {k: (v._in(cat) if isinstance(v, Text) else v) for k, v in params.items()}
    return msg.format(**shown)


def L_(message: str, /, **params: Any) -> Text:
    """``message`` with its named ``params`` (``{name}`` in it), English now and translatable
    later: ``L_("unknown {what} '{name}'", what=L_("troop"), name=n)``."""
    return Text(message, params)


def Ln_(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """``L_`` for a count: the form for ``n`` (also a parameter, ``{n}``) chosen where shown."""
    return Text(singular, {"n": n, **params}, plural, n)


def Lj_(sep: str, items: Any) -> Text:
    """``items`` (messages made with ``L_``, or data) joined by ``sep``, each in the language
    where the whole is shown."""
    return Joined(sep, items)


def tr(text: str) -> str:
    """A message in the current language: a ``Text`` translated, any other string as it is
    (data, or a message made before it could be kept)."""
    return text.translated() if isinstance(text, Text) else text


def install_jinja(env: Any) -> None:
    """Give a Jinja2 environment ``{% trans %}`` blocks and ``_()``/``gettext()``/``ngettext()``
    in the current language (new-style: ``{{ _('%(n)s cards', n=count) }}``, escaped like any
    value), and ``lang`` for ``<html lang>``."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(gettext, ngettext, newstyle=True, pgettext=pgettext)
    env.globals["_"] = env.globals["gettext"]
    env.globals["current_language"] = current_language
