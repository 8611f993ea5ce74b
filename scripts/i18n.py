"""Keep the message catalogs in step with the sources (CONTRIBUTING.md, "Languages").

    python scripts/i18n.py extract          # builder/locale/<domain>.pot from the sources
    python scripts/i18n.py update           # every language's .po from its .pot (new messages empty)
    python scripts/i18n.py init LANG        # the .po files of a new language
    python scripts/i18n.py check            # exit 1 when a .pot is stale or a .po is incomplete
    python scripts/i18n.py stats            # translated / total per language and domain

The domains and their sources are ``builder.i18n.DOMAINS``. Python sources are read with
Babel's Python extractor (``_``, ``gettext``, ``ngettext``, ``pgettext``, ``N_``), templates
(``*.html``) with Jinja2's. ``check`` is what CI runs: every ``.pot`` up to date, every shipped
``.po`` with every message translated, none fuzzy, and the same placeholders as the English.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po, write_po

TOP = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOP))

from builder.i18n import DOMAINS, LOCALE_DIR, domain_of  # noqa: E402

KEYWORDS = dict(DEFAULT_KEYWORDS, L_=None, Ln_=(1, 2), help_text=None)  # builder.i18n.L_/Ln_, builder.cli_words.help_text
JINJA = {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true"}
HEADER = "Translations of daimyo, the deck and army builder"
# {name}, {0}, {name!r:>3}, %(name)s, %s, %d
PLACEHOLDER = re.compile(
    r"\{[A-Za-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}|%\([A-Za-z0-9_]+\)[#0 +\-]*\d*(?:\.\d+)?[sdrfi%]|%[sdrfi]"
)


# the YAML templates whose printed words are messages (the code translates them where it prints
# them), and the keys that hold them: a string, a list of strings, or rows of strings
YAML_SOURCES = ("templates/aids", "templates/cards")
YAML_KEYS = ("title", "subtitle", "heading", "subheading", "text", "note", "footer", "label", "caption", "suffix")
YAML_LIST_KEYS = ("bullets", "columns", "rows")


def yaml_sources() -> Iterator[Path]:
    for folder in YAML_SOURCES:
        yield from sorted((TOP / folder).glob("*.yaml"))


def yaml_words(path: Path) -> Iterator[str]:
    """The printed words of a YAML template (a player aid, a card template)."""
    from builder.yamlio import load_yaml  # noqa: PLC0415

    def words(value: object) -> Iterator[str]:
        if isinstance(value, str) and any(ch.isalpha() for ch in value):
            yield value
        elif isinstance(value, list):
            for item in value:
                yield from words(item)

    def walk(node: object) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if (key in YAML_KEYS and isinstance(value, str)) or (key in YAML_LIST_KEYS and isinstance(value, list)):
                    yield from words(value)
                else:
                    yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    yield from walk(load_yaml(path)[0])

def sources() -> Iterator[tuple[Path, str]]:
    """Every file whose messages are extracted, with its method (python or jinja2)."""
    for path in sorted((TOP / "builder").rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        if path.suffix == ".py":
            yield path, "python"
        elif path.suffix == ".html" and "templates" in path.parts:
            yield path, "jinja2"


def extract() -> dict[str, Catalog]:
    """A template catalog per domain, from the sources as they are now."""
    catalogs = {d: Catalog(project="daimyo", header_comment=f"# {HEADER}.", fuzzy=False) for d in DOMAINS}
    for path in yaml_sources():
        rel = shown(path)
        for message in yaml_words(path):
            catalogs[domain_of(rel)].add(message, None, [(rel, 0)])
    for path, method in sources():
        rel = shown(path)
        options = JINJA if method == "jinja2" else {}
        catalog = catalogs[domain_of(rel)]
        for lineno, message, comments, context in extract_from_file(
            method, str(path), keywords=KEYWORDS, options=options, strip_comment_tags=True
        ):
            catalog.add(message, None, [(rel, lineno)], auto_comments=comments, context=context)
        if method == "python":
            for lineno, message in typer_help(path):
                catalog.add(message, None, [(rel, lineno)], auto_comments=["help of the command line"])
    for message, rel, lineno in catalog_messages():
        catalogs["findings"].add(message, None, [(rel, lineno)])
    for message, rel, lineno in rulebook_messages():
        catalogs["print"].add(message, None, [(rel, lineno)], context=RULEBOOK_CONTEXT)
    return catalogs


# the rulebooks' titles, editions and section names (``catalog/rulebooks.yaml``), as a citation names them
# ("Kensei rulebook, Army leaders (lines 5910-5915)"): messages of the ``print`` domain, told apart
# from the same words elsewhere by their context (``builder.rulebooks.RULEBOOK_CONTEXT``)
RULEBOOK_CONTEXT = "rulebook"


def rulebook_messages() -> Iterator[tuple[str, str, int]]:
    """(message, file, line) for each rulebook's title and edition and each section's title."""
    import yaml

    path = TOP / "catalog" / "rulebooks.yaml"
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = re.match(r"^\s+(?:- \{)?(?:title|edition):\s*(\"(?:[^\"\\]|\\.)*\"|[^,{}]+?)\s*(?:,|$)", line)
        if m:
            value = yaml.safe_load(m.group(1))
            if isinstance(value, str) and value:
                yield value, shown(path), no


# the words of a catalog's declarative restrictions a finding shows (``catalog/*/restrictions.yaml``:
# ``name`` (a finding code's meaning), ``label``, ``noun`` with its singular, ``message``, ``hint``): messages of the ``findings`` domain
RESTRICTION_TEXT = ("name", "label", "noun", "message", "hint")


def catalog_messages() -> Iterator[tuple[str, str, int]]:
    """(message, file, line) for each restriction text of the catalogs."""
    for path in sorted((TOP / "catalog").glob("*/*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if not any(line.startswith("restrictions:") for line in lines):
            continue
        for no, line in enumerate(lines, 1):
            m = re.match(r"^\s+(?:- )?(" + "|".join(RESTRICTION_TEXT) + r"):\s*(.+?)\s*$", line)
            if not m or m.group(2).startswith(("{", "[", "#")) and m.group(1) != "message":
                continue
            import yaml

            value = yaml.safe_load(m.group(2))
            if not isinstance(value, str) or not value:
                continue
            yield value, shown(path), no
            if m.group(1) == "noun" and value.endswith("s"):
                yield value[:-1], shown(path), no


# typer's help: ``help=``/``short_help=``/``epilog=`` given to typer.Option, typer.Argument,
# typer.Typer, ``.command()``, ``.callback()`` and ``.add_typer()``, and the docstring of a function
# made a command (``@app.command()``, ``@app.callback()``): translated where the help is shown
# (``builder.commands.app.translate_help``)
HELP_CALLS = {"Option", "Argument", "Typer", "command", "callback", "add_typer"}
HELP_KEYWORDS = ("help", "short_help", "epilog")


def typer_help(path: Path) -> Iterator[tuple[int, str]]:
    """(line, message) for each help text of a typer command line in a Python file."""
    import ast

    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in HELP_CALLS:
                for kw in node.keywords:
                    if kw.arg in HELP_KEYWORDS and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                        if kw.value.value.strip():
                            yield kw.value.lineno, kw.value.value
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # a command: made one by a decorator, or taking typer's options and arguments
            decorated = any(
                isinstance(d.func if isinstance(d, ast.Call) else d, ast.Attribute)
                and (d.func if isinstance(d, ast.Call) else d).attr in ("command", "callback")
                for d in node.decorator_list
            )
            takes_options = any(
                isinstance(d, ast.Call)
                and isinstance(d.func, ast.Attribute)
                and d.func.attr in ("Option", "Argument")
                for d in node.args.defaults + node.args.kw_defaults
                if d is not None
            )
            if decorated or takes_options:
                doc = ast.get_docstring(node, clean=True)
                if doc:
                    yield node.lineno, doc


def pot_text(catalog: Catalog) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, omit_header=False, sort_output=True, width=100, include_lineno=False)
    # the creation date and Babel's version would make every extraction a change
    return re.sub(rb'"(POT-Creation-Date|Generated-By): [^"]*"\n', b"", buf.getvalue())


def write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def shown(path: Path) -> str:
    """A catalog's path as a contributor finds it (relative to the project's top)."""
    return path.relative_to(TOP).as_posix() if path.is_relative_to(TOP) else str(path)


def languages() -> list[str]:
    return sorted(p.name for p in LOCALE_DIR.iterdir() if (p / "LC_MESSAGES").is_dir()) if LOCALE_DIR.is_dir() else []


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def cmd_extract() -> int:
    for domain, catalog in extract().items():
        write_atomic(LOCALE_DIR / f"{domain}.pot", pot_text(catalog))
        print(f"{domain}.pot: {len(catalog)} messages")
    return 0


def cmd_update(only: list[str]) -> int:
    for lang in only or languages():
        for domain in DOMAINS:
            template = read(LOCALE_DIR / f"{domain}.pot")
            po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
            catalog = read(po, lang) if po.is_file() else Catalog(locale=lang, domain=domain, project="daimyo")
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            catalog.obsolete.clear()
            buf = io.BytesIO()
            write_po(buf, catalog, sort_output=True, width=100, ignore_obsolete=True, include_lineno=False)
            write_atomic(po, re.sub(rb'"(POT-Creation-Date|Generated-By): [^"]*"\n', b"", buf.getvalue()))
    return 0


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text or ""))


def problems_of(lang: str, domain: str) -> list[str]:
    """What keeps one language's catalog of one domain from being complete."""
    po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    template = read(LOCALE_DIR / f"{domain}.pot")
    if not po.is_file():  # a language may ship some domains only (the rest shows in English)
        return []
    catalog = read(po, lang)
    out = []
    have = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id}
    for msg in template:
        if not msg.id:
            continue
        key = msg.id if isinstance(msg.id, str) else msg.id[0]
        got: Message | None = have.get(key)
        where = f"{shown(po)}: {key[:60]!r}"
        if got is None:
            out.append(f"{where}: not in the catalog (python scripts/i18n.py update)")
            continue
        if got.fuzzy:
            out.append(f"{where}: fuzzy")
        strings = list(got.string) if isinstance(got.string, (list, tuple)) else [got.string]
        if not all(strings):
            out.append(f"{where}: not translated")
            continue
        ids = list(msg.id) if isinstance(msg.id, (list, tuple)) else [msg.id]
        want = placeholders(ids[-1])
        for s in strings:
            if placeholders(s) != want and placeholders(s) != placeholders(ids[0]):
                out.append(f"{where}: placeholders {placeholders(s)} differ from {want}")
    return out


def ids(catalog: Catalog) -> set[tuple[str, str | None]]:
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in catalog if m.id}


def stale_templates() -> list[str]:
    """The templates whose messages differ from the sources' (where a message sits does not count)."""
    out = []
    for domain, catalog in extract().items():
        path = LOCALE_DIR / f"{domain}.pot"
        if not path.is_file():
            out.append(f"{shown(path)}: missing (python scripts/i18n.py extract)")
            continue
        have, want = ids(read(path)), ids(catalog)
        for key, _ctx in sorted(want - have, key=str)[:5]:
            out.append(f"{shown(path)}: lacks {key[:60]!r} (python scripts/i18n.py extract)")
        for key, _ctx in sorted(have - want, key=str)[:5]:
            out.append(f"{shown(path)}: still has {key[:60]!r}, gone from the sources (python scripts/i18n.py extract)")
    return out


def cmd_check() -> int:
    bad = stale_templates()
    for lang in languages():
        for domain in DOMAINS:
            bad.extend(problems_of(lang, domain))
    for line in bad:
        print(line)
    return 1 if bad else 0


def cmd_stats() -> int:
    for lang in languages():
        parts = []
        for domain in DOMAINS:
            po = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
            if po.is_file():
                catalog = read(po, lang)
                done = sum(
                    1
                    for m in catalog
                    if m.id and all(m.string if isinstance(m.string, (list, tuple)) else [m.string]) and not m.fuzzy
                )
                parts.append(f"{domain} {done}/{len([m for m in catalog if m.id])}")
        print(f"{lang}: " + ", ".join(parts))
    return 0


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    cmd, rest = argv[0], argv[1:]
    if cmd == "extract":
        return cmd_extract()
    if cmd == "update":
        return cmd_update(rest)
    if cmd == "init":
        if len(rest) != 1:
            print("usage: python scripts/i18n.py init LANG")
            return 2
        return cmd_update(rest)
    if cmd == "check":
        return cmd_check()
    if cmd == "stats":
        return cmd_stats()
    print(f"unknown command {cmd!r}\n{__doc__}")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
