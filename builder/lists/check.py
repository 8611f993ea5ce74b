"""A list document checked by its game's rules: ``check_doc``, the check every command, the
editor and the web builder run. ``builder.check`` reads files and text into documents, checks
them here and writes the results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from builder.catalog.loader import load_catalog
from builder.errors import ListError
from builder.findings import CheckResult
from builder.i18n import SOURCE_LANGUAGE, use
from builder.lists.document import ListDoc
from builder.lists.packchanges import list_drift
from builder.rulebooks import humanize
from builder.systems import get

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog


def resolve_house_rules(doc: ListDoc, catalog: Catalog) -> dict[str, Any]:
    diags = []
    for key, value in doc.house_rules.items():
        try:
            catalog.resolve_rules({key: value})
        except KeyError as exc:
            diags.append(doc.positions.diag(("house_rules", key), exc.args[0], prefer_key=True))
        except ValueError as exc:
            diags.append(doc.diag(("house_rules", key), str(exc)))
    if diags:
        raise ListError(diags)
    return catalog.resolve_rules(doc.house_rules)


def check_doc(doc: ListDoc, extra_packs: Sequence[str] = (), catalog: Catalog | None = None) -> CheckResult:
    if catalog is None:
        catalog = load_catalog(doc.system, list(doc.packs) + [str(p) for p in extra_packs])
    rules = resolve_house_rules(doc, catalog)
    mod = get(doc.system).rules
    lst, findings = mod.load_list(doc, catalog)
    doc.loaded = (doc.data, catalog, lst)  # the list as the rules read it, for views of the same data
    findings = list(findings) + list(mod.check(lst, catalog, rules))
    summary = mod.summary(lst, catalog, rules)
    for f in findings:
        if ".txt:" in f.message:  # a rulebook reference inside the message: title, section, line
            with use(SOURCE_LANGUAGE):  # the message is the English text; a translation is made where shown
                f.message = humanize(f.message, bare=False)
        if f.loc is not None and f.line is None:
            f.line, f.col = doc.at(f.loc)
    findings.sort(key=lambda f: (f.rank, f.line or 0, f.col or 0, f.code))
    agreed = {k: rules[k] for k in doc.house_rules}
    return CheckResult(
        file=doc.file,
        system=doc.system,
        name=doc.name,
        summary=summary,
        house_rules=rules,
        findings=findings,
        house_rules_agreed=agreed,
        packs=packs_checked_with(catalog),
        pack_changes=_pack_changes(doc),
    )


def _pack_changes(doc: ListDoc) -> list[str]:
    """For a list that records the packs it was checked with: the packs that differ here."""
    if not doc.data.get("checked_with") or not doc.data.get("packs"):
        return []
    return list_drift(doc)


def packs_checked_with(catalog: Catalog) -> list[dict[str, Any]]:
    """Name, version and content hash of each pack the catalog was loaded with."""
    out = []
    for p in getattr(catalog, "packs", None) or []:
        d = {"name": p.get("name") or p.get("pack"), "version": p.get("version"), "hash": p.get("hash")}
        if p.get("example"):
            d["example"] = True
        out.append(d)
    return out
