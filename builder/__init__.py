"""daimyo: deck and army builder with print-and-play output.

The public Python API (the command line and the web builder use the same calls)::

    import builder

    result = builder.check("army.yaml")          # CheckResult: .legal, .findings, .summary
    ed = builder.ListEditor.open("army.yaml")    # open, change, undo, save (comments kept)
    change = ed.add("Samurai Yari", models=5)    # .notes, .breaks, .comparison (what it adds, fixes, breaks)
    for o in builder.options(ed, search="samurai"):  # what could be added now, and what stops the rest
        print(o.name, o.cost, o.left, o.reason)
    ed.save()
    code = builder.export(ed, to="code")         # text, markdown, json, yaml or a share code
    other = builder.import_(code)                # a ListEditor on a shared list
    builder.render_pdf("army.yaml", "army.pdf")  # card sheets, roster or setup sheet

Names (each loaded when first used, so importing ``builder`` stays cheap):

* ``check(source, packs=())``, ``check_text(text, ...)``: check a list (a ``CheckResult``).
* ``load_list(path)``, ``parse_list(text)``: read a list document (``ListDoc``).
* ``validate(path)``: the document against its game's pydantic list model (located errors).
* ``load_catalog(system, packs=())``: a system's validated catalog.
* ``find_system(name)``, ``list_systems()``: the game systems (``GameSystem``) by id or alias.
* ``ListEditor``, ``Change``, ``ListChangedError``, ``edit_file``: editing lists.
* ``why(before, after, target=None)``: what a change does (a ``Comparison``).
* ``options(list, type=, search=, max_cost=, only_ok=)``: what could be added (``Option`` rows).
* ``export(source, to)``, ``import_(source)``: the share formats.
* ``render_pdf(source, out_path, **options)``: printing.
* ``DaimyoError`` (and ``CatalogError``, ``ListError``, ``UsageError``): input a person can fix;
  each carries one ``Diagnostic`` line (file:line:col, what, how to fix) per problem.
"""

import importlib

__version__ = "0.1.0"

from builder.systems import BUILT_IN_IDS as SYSTEMS

"""The ids of the game systems (``find_system`` gives each one's ``GameSystem``)."""

_API = {
    "check": ("builder.check", None),  # the module is callable: builder.check("army.yaml")
    "check_text": ("builder.api", "check_text"),
    "load_list": ("builder.api", "load_list"),
    "parse_list": ("builder.api", "parse_list"),
    "validate": ("builder.api", "validate"),
    "load_catalog": ("builder.api", "load_catalog"),
    "export": ("builder.api", "export"),
    "import_": ("builder.api", "import_"),
    "render_pdf": ("builder.api", "render_pdf"),
    "find_system": ("builder.systems", "find_system"),
    "list_systems": ("builder.systems", "list_systems"),
    "GameSystem": ("builder.systems", "GameSystem"),
    "ListEditor": ("builder.lists.editor", "ListEditor"),
    "Change": ("builder.lists.editor", "Change"),
    "ListChangedError": ("builder.lists.editor", "ListChangedError"),
    "edit_file": ("builder.lists.editor", "edit_file"),
    "why": ("builder.lists.compare", "compare"),
    "Comparison": ("builder.lists.compare", "Comparison"),
    "options": ("builder.api", "options"),
    "Option": ("builder.lists.options", "Option"),
    "CheckResult": ("builder.findings", "CheckResult"),
    "Finding": ("builder.findings", "Finding"),
    "DaimyoError": ("builder.errors", "DaimyoError"),
    "CatalogError": ("builder.errors", "CatalogError"),
    "ListError": ("builder.errors", "ListError"),
    "UsageError": ("builder.errors", "UsageError"),
    "Diagnostic": ("builder.errors", "Diagnostic"),
}

__all__ = ["__version__", "SYSTEMS", *_API]


def __getattr__(name: str):
    try:
        module, attr = _API[name]
    except KeyError:
        raise AttributeError(f"module 'builder' has no attribute '{name}'") from None
    mod = importlib.import_module(module)
    value = mod if attr is None else getattr(mod, attr)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_API))
