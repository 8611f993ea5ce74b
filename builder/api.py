"""The functions of daimyo's public Python API that are not a class or a module of their own.

Import them from ``builder`` (``from builder import check, export``): the package loads each
one when it is first used, so ``daimyo`` starts as fast as before.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from builder.catalog.loader import load_catalog as load
from builder.check import check_source
from builder.check import check_text as _check_text
from builder.errors import Diagnostic, ListError
from builder.i18n import L_
from builder.lists.document import ListDoc
from builder.lists.document import load_list as _load
from builder.lists.document import parse_list as _parse
from builder.lists.dump import dump_list_yaml
from builder.lists.editor import ListEditor
from builder.lists.options import options as options_of
from builder.paths import is_file
from builder.share.api import export_doc, link_of, parse_source_text, read_source, viewer_base
from builder.share.api import validate as validate_shared
from builder.systems import find_system, get


def check(source, packs=()):
    """Check a list: ``source`` is a file path, a ``ListEditor`` or a parsed ``ListDoc``;
    ``packs`` are extra pack files. Returns a ``CheckResult`` (``.legal``, ``.findings``,
    ``.summary``, ``.to_json()``). Raises ``DaimyoError`` for input that cannot be read."""
    return check_source(source, packs)


def check_text(text: str, file: str = "<list>", packs=(), base_dir=None):
    """Check a list given as YAML or JSON text (``file`` names it in messages; packs written in
    it are relative to ``base_dir``)."""
    return _check_text(text, file, list(packs), base_dir=Path(base_dir) if base_dir is not None else None)


def load_list(path, display: str | None = None):
    """Read a list file into a ``ListDoc`` (plain data, positions, the common keys);
    ``ListError`` with one located line per problem when it is not a list."""
    return _load(path, display)


def parse_list(text: str, file: str = "<list>", base_dir=None):
    """A list given as text, read into a ``ListDoc``."""
    return _parse(text, file, base_dir=Path(base_dir) if base_dir is not None else None)


def validate(source, display: str | None = None):
    """Read a list (a file path or a ``ListDoc``) and validate it against its game's pydantic list
    model (``gs.document.model``): the ``ListDoc`` when it fits, else ``ListError`` with one
    line per problem at the line and column of the value (``FILE:LINE:COL: error: ...``)."""
    doc = source if isinstance(source, ListDoc) else load_list(source, display)
    problems = get(doc.system).document.validate(doc.data, doc.positions)
    if problems:
        raise ListError(problems)
    return doc


def load_catalog(system: str, packs=()):
    """The validated catalog of ``system`` (an id or alias) with ``packs`` applied."""
    return load(find_system(system).id, list(packs))


def _imported(source, system: str | None = None):
    """A list in any share format, read: a ``ListEditor``, a path, a share code or text."""
    if isinstance(source, ListEditor):
        return parse_source_text(source.text, source.file, system, source.base_dir)
    if isinstance(source, os.PathLike):
        return read_source(str(source), system)
    text = str(source)
    if "\n" in text.strip():
        return parse_source_text(text, "<text>", system, Path("."))
    return read_source(text, system)


def export(source, to: str = "text", system: str | None = None, base_url: str | None = None) -> str:
    """A list written as ``to``: ``text`` (forum), ``markdown``, ``json``, ``yaml``, ``code``
    (a one-line share code) or ``link`` (the address that opens it in the viewer at ``base_url``,
    by default ``DAIMYO_VIEWER`` or ``viewer`` in config.toml). ``source``: a ``ListEditor``, a
    file path, a share code, a link or text in any of those formats (``system`` names the game of
    a plain card list)."""
    if to == "link":
        base = viewer_base(base_url)
        return link_of(export_doc(_imported(source, system).doc, "code"), base)
    imp = _imported(source, system)
    res = validate_shared(imp)
    return export_doc(imp.doc, to, res.summary if res is not None else None)


def import_(source, system: str | None = None, base_dir=None):
    """A shared list (a share code, forum text, Markdown, JSON or YAML; or a file of one) as a
    ``ListEditor`` on its YAML, ready to edit, check or save. Packs it names are looked for
    relative to ``base_dir`` (default: where the source came from); one not found there is left
    out, and said so in the editor's ``import_notes`` (with the other notes of the import)."""
    imp = _imported(source, system)
    folder = Path(base_dir) if base_dir is not None else imp.base_dir
    doc, notes = dict(imp.doc), imp.warnings()
    packs = list(doc.get("packs") or [])
    found = [p for p in packs if is_file(Path(p) if Path(p).is_absolute() else folder / p)]
    for p in packs:
        if p not in found:
            notes.append(
                Diagnostic(
                    imp.file, 0, 0, L_("pack '{p}' not found here; left out of the list", p=p), severity="warning"
                ).format()
            )
    if found:
        doc["packs"] = found
    else:
        doc.pop("packs", None)
    ed = ListEditor.from_text(dump_list_yaml(doc), file=imp.file if imp.file != "<code>" else "<list>", base_dir=folder)
    ed.import_notes = notes
    return ed


def render_pdf(source, out_path, force: bool = False, **options) -> Path:
    """Print a list to a PDF: card sheets (Senshiai, HeroCard, Satsuma), a roster (Kensei) or a
    setup sheet (Senji). ``source``: a list file or a ``ListEditor`` (its current text, saved
    or not). Options as ``daimyo print``: paper, card, bleed, marks, backs, duplex, offset,
    ink_saver. Returns the written path; an existing file is replaced only with ``force``."""
    from builder.render.api import render_list  # noqa: PLC0415 - reportlab only when a PDF is asked for; the other calls of the API load none

    if not isinstance(source, ListEditor):
        return render_list(source, out_path, force=force, **options)
    if (
        source.path is not None
        and not source.changed_on_disk()
        and source.path.read_text(encoding="utf-8") == source.text
    ):
        return render_list(source.path, out_path, force=force, **options)
    fd, tmp = tempfile.mkstemp(prefix=".daimyo-", suffix=".yaml", dir=source.base_dir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(source.text)
        return render_list(tmp, out_path, force=force, **options)
    finally:
        os.unlink(tmp)


__all__ = ["check", "check_text", "export", "import_", "load_catalog", "load_list", "parse_list", "render_pdf"]


def options(
    lst, *, type: str | None = None, search: str | None = None, max_cost: float | None = None, only_ok: bool = False
):
    """What could be added to ``lst`` now (``builder.lists.options.options``): ``lst`` is a
    ``ListEditor``, or a path or text that one is opened from."""
    if not isinstance(lst, ListEditor):
        lst = (
            ListEditor.open(lst)
            if isinstance(lst, os.PathLike) or "\n" not in str(lst)
            else ListEditor.from_text(str(lst))
        )
    return options_of(lst, type=type, search=search, max_cost=max_cost, only_ok=only_ok)
