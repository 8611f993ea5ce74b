"""CLI commands that build a list: new, add, remove, set, why.

Each edit keeps the file's comments and key order (ruamel round trip), refuses a
file that does not parse (leaving it untouched), refuses unknown names with
suggestions, writes atomically, and prints the new totals and findings.
Systems are pluggable: ``EDITORS`` maps a system to the functions it supports;
Kensei is the first.
"""

from __future__ import annotations

from typing import Optional

import typer

EDITABLE = ("kensei",)


def _unsupported(system: str, what: str):
    from builder.errors import UsageError

    return UsageError(f"'{what}' is not supported yet for {system}",
                      "supported: " + ", ".join(EDITABLE))


# -- kensei ------------------------------------------------------------------------------------

def kensei_new(catalog, clan: str, points: int, commander: str, name: str | None, occult: bool) -> dict:
    from builder.errors import UsageError

    c = catalog.find("clans", clan)
    if c is None:
        raise UsageError(f"unknown clan '{clan}'", catalog.did_you_mean("clans", clan) or
                         "one of " + ", ".join(e.id for e in catalog.entries("clans")))
    lvl = catalog.find("commander_levels", commander)
    if lvl is None:
        raise UsageError(f"unknown commander level '{commander}'",
                         catalog.did_you_mean("commander_levels", commander) or
                         "one of " + ", ".join(e.id for e in catalog.entries("commander_levels")))
    if points <= 0:
        raise UsageError(f"--points must be positive, not {points}", "e.g. --points 200")
    data = {"system": "kensei"}
    if name:
        data["name"] = name
    data.update({"clan": c.id, "points": points, "commander": lvl.id, "occult": occult, "troops": []})
    return data


def _troop_or_fail(catalog, name: str):
    from builder.errors import UsageError

    t = catalog.find("troops", name)
    if t is None:
        raise UsageError(f"unknown troop '{name}'", catalog.did_you_mean("troops", name) or
                         "see 'daimyo catalog list kensei troops'")
    return t


def _default_models(catalog, troop) -> int:
    from builder.rules.kensei import troop_facts

    facts = troop_facts(troop, catalog)
    if facts["unit"] is True:
        return max(3, troop.unit_min or 3)
    return 1


SET_KEYS = ("commander", "points", "clan", "occult", "general", "name")


def kensei_set_value(catalog, key: str, value: str):
    from builder.errors import UsageError
    from builder.names import did_you_mean

    if key not in SET_KEYS:
        raise UsageError(f"cannot set '{key}'", did_you_mean(key, SET_KEYS) or "one of " + ", ".join(SET_KEYS))
    if key == "commander":
        lvl = catalog.find("commander_levels", value)
        if lvl is None:
            raise UsageError(f"unknown commander level '{value}'",
                             catalog.did_you_mean("commander_levels", value) or
                             "one of " + ", ".join(e.id for e in catalog.entries("commander_levels")))
        return lvl.id
    if key == "clan":
        c = catalog.find("clans", value)
        if c is None:
            raise UsageError(f"unknown clan '{value}'", catalog.did_you_mean("clans", value) or
                             "one of " + ", ".join(e.id for e in catalog.entries("clans")))
        return c.id
    if key == "points":
        try:
            n = int(value)
        except ValueError:
            raise UsageError(f"points must be a whole number, not '{value}'", "e.g. 400") from None
        if n <= 0:
            raise UsageError(f"points must be positive, not {n}")
        return n
    if key == "occult":
        v = value.strip().lower()
        if v in ("true", "yes", "on", "1"):
            return True
        if v in ("false", "no", "off", "0"):
            return False
        raise UsageError(f"occult takes true or false, not '{value}'")
    if key == "general":
        return _troop_or_fail(catalog, value).name
    return value


# -- shared plumbing ---------------------------------------------------------------------------

def _report(path: str, echo) -> None:
    from builder.check import check_file, format_result

    res = check_file(path)
    for line in format_result(res, all_rules=False):
        echo(line)


def _write_checked(path: str, text: str) -> None:
    """Write ``text`` only if it still parses as a list document."""
    from pathlib import Path

    from builder.lists.document import parse_list
    from builder.yamlio import atomic_write

    parse_list(text, path, base_dir=Path(path).parent)
    atomic_write(path, text, force=True)


def _open(path: str):
    from builder.catalog.loader import load_catalog
    from builder.lists.edit import load_roundtrip

    doc, data, _ = load_roundtrip(path)
    if doc.system not in EDITABLE:
        raise _unsupported(doc.system, "editing")
    catalog = load_catalog(doc.system, list(doc.packs))
    from builder.systems import rules_module

    rules_module(doc.system).load_list(doc, catalog)  # wrong shapes: ListError, file untouched
    return doc, data, catalog


def why_troop(path: str, troop_name: str, models: int | None = None) -> tuple[bool, list[str]]:
    """Could one more unit of ``troop_name`` be added? ``(yes, lines)``."""
    import copy

    from builder.check import check_doc
    from builder.lists.document import load_list

    doc = load_list(path)
    if doc.system not in EDITABLE:
        raise _unsupported(doc.system, "why")
    from builder.catalog.loader import load_catalog

    catalog = load_catalog(doc.system, list(doc.packs))
    troop = _troop_or_fail(catalog, troop_name)
    n = models or _default_models(catalog, troop)
    before = check_doc(doc, catalog=catalog)
    doc2 = copy.copy(doc)
    doc2.data = copy.deepcopy(doc.data)
    troops = doc2.data.get("troops") or []
    if not isinstance(troops, list):
        troops = []
    troops = list(troops) + [{"troop": troop.name, "models": n}]
    doc2.data["troops"] = troops
    after = check_doc(doc2, catalog=catalog)

    def key(f):
        return (f.code, f.message)

    old = {key(f) for f in before.findings}
    new = [f for f in after.findings if f.severity == "error" and key(f) not in old]
    # rules that were already broken and got worse
    old_by_code = {}
    for f in before.findings:
        if f.severity == "error":
            old_by_code.setdefault(f.code, []).append(f)
    fixed_codes = {f.code for f in before.findings} - {f.code for f in after.findings}
    cost = after.summary.get("troops", 0) - before.summary.get("troops", 0)
    what = f"{n} {troop.name}" if n > 1 else f"1 {troop.name}"
    lines = []
    blocking = []
    still = []
    for f in new:
        was = next((g for g in old_by_code.get(f.code, []) if g.loc == f.loc), None) or \
            next(iter(old_by_code.get(f.code, [])), None)
        if was is not None and _not_worse(f, was):
            still.append(f)  # already broken; the addition does not make it worse
        else:
            blocking.append((f, was))
    if not blocking:
        lines.append(f"yes: {what} ({_n(cost)} AP) can be added; points would be "
                     f"{_n(after.summary.get('points'))}/{_n(after.summary.get('limit'))} AP")
        for c in sorted(fixed_codes):
            lines.append(f"  and it would satisfy {c}")
        for f in still:
            lines.append(f"  still to fix: {f.code}: {f.message}{_gap(f)}")
        return True, lines
    lines.append(f"no: adding {what} ({_n(cost)} AP) would break {len(blocking)} rule"
                 f"{'s' * (len(blocking) != 1)}:")
    for f, was in blocking:
        lines.append(f"  {f.code}: {f.message}{_gap(f)}" + (f" ({f.source})" if f.source else ""))
        if was is not None and was.value is not None:
            lines.append(f"      already broken before: {was.message}")
    for f in still:
        lines.append(f"  still to fix (not caused by this troop): {f.code}: {f.message}{_gap(f)}")
    return False, lines


def _num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _gap(f) -> str:
    """"(over by N)" for a maximum, "(short by N)" for a minimum."""
    v, b = _num(f.value), _num(f.bound)
    if v is None or b is None or v == b:
        return ""
    return f" ({'over' if v > b else 'short'} by {_n(abs(v - b))})"


def _not_worse(f, was) -> bool:
    """The same rule was broken before and the new value is no further from its bound."""
    v, b, w = _num(f.value), _num(f.bound), _num(was.value)
    if v is None or b is None or w is None:
        return f.message == was.message
    if v < b:  # a minimum: adding can only help
        return v >= w
    return v <= w


def _n(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


# -- commands ------------------------------------------------------------------------------------

def register(app) -> None:
    """Add this module's commands to the typer app."""
    from builder.cli import echo, fail
    from builder.errors import DaimyoError

    @app.command("new")
    def new_cmd(
        system: str = typer.Argument(..., help="the game system (kensei)"),
        clan: Optional[str] = typer.Option(None, "--clan", help="kensei: buke, kuge, sohei, otokodate, kuroi-te, hattori"),
        points: int = typer.Option(200, "--points", help="kensei: the agreed battle size in AP"),
        commander: str = typer.Option("hatamoto", "--commander", help="kensei: hatamoto, taisho or daimyo"),
        occult: bool = typer.Option(False, "--occult/--no-occult", help="kensei: use the advanced occult rules"),
        name: Optional[str] = typer.Option(None, "--name", help="the list's name"),
        out: str = typer.Option(..., "--output", "-o", help="the list file to create"),
        force: bool = typer.Option(False, "--force", help="replace an existing file"),
    ):
        """Start a new list file."""
        from builder.catalog.loader import load_catalog
        from builder.cli import _system
        from builder.errors import UsageError
        from builder.lists.dump import dump_list_yaml
        from builder.yamlio import atomic_write

        try:
            sysname = _system(system)
            if sysname not in EDITABLE:
                raise _unsupported(sysname, "new")
            if clan is None:
                raise UsageError("--clan is required for a kensei list",
                                 "e.g. daimyo new kensei --clan buke --points 400 -o army.yaml")
            catalog = load_catalog(sysname)
            data = kensei_new(catalog, clan, points, commander, name, occult)
            atomic_write(out, dump_list_yaml(data), force=force)
            echo(f"wrote {out}")
            _report(out, echo)
        except DaimyoError as exc:
            fail(exc)

    @app.command("add")
    def add_cmd(
        file: str = typer.Argument(..., help="the list file"),
        troop: str = typer.Argument(..., help="a troop name from the catalog"),
        models: Optional[int] = typer.Option(None, "--models", "-m", help="models in the unit (default: 3 for a unit, 1 for a single model)"),
        led_by: Optional[str] = typer.Option(None, "--led-by", help="a leader of the list deployed as unit leader"),
        standard: bool = typer.Option(False, "--standard", help="the unit carries a Hata-Jurushi"),
    ):
        """Add a troop (a unit or a single model) to a list."""
        from builder.errors import UsageError
        from builder.lists.edit import add_troop, dump_roundtrip

        try:
            doc, data, catalog = _open(file)
            t = _troop_or_fail(catalog, troop)
            n = models if models is not None else _default_models(catalog, t)
            if n < 1:
                raise UsageError(f"--models must be at least 1, not {n}")
            if led_by is not None:
                _troop_or_fail(catalog, led_by)
            add_troop(data, t.name, n, led_by, standard)
            _write_checked(file, dump_roundtrip(data))
            echo(f"added {n} {t.name}" if n > 1 else f"added {t.name}")
            _report(file, echo)
        except DaimyoError as exc:
            fail(exc)

    @app.command("remove")
    def remove_cmd(
        file: str = typer.Argument(..., help="the list file"),
        troop: str = typer.Argument(..., help="the troop to remove (the last entry of that name)"),
    ):
        """Remove a troop from a list."""
        from builder.lists.edit import dump_roundtrip, remove_troop

        try:
            doc, data, catalog = _open(file)
            removed = remove_troop(data, troop, catalog)
            _write_checked(file, dump_roundtrip(data))
            shown = removed.get("troop") if isinstance(removed, dict) else removed
            echo(f"removed {shown}")
            _report(file, echo)
        except DaimyoError as exc:
            fail(exc)

    @app.command("set")
    def set_cmd(
        file: str = typer.Argument(..., help="the list file"),
        key: str = typer.Argument(..., help="commander, points, clan, occult, general or name"),
        value: str = typer.Argument(..., help="the new value"),
    ):
        """Change a setting of a list (commander level, points, clan, occult, general, name)."""
        from builder.lists.edit import dump_roundtrip, set_key

        try:
            doc, data, catalog = _open(file)
            v = kensei_set_value(catalog, key, value)
            set_key(data, key, v)
            _write_checked(file, dump_roundtrip(data))
            echo(f"set {key} = {str(v).lower() if isinstance(v, bool) else v}")
            _report(file, echo)
        except DaimyoError as exc:
            fail(exc)

    @app.command("why")
    def why_cmd(
        file: str = typer.Argument(..., help="the list file"),
        troop: str = typer.Argument(..., help="a troop name"),
        models: Optional[int] = typer.Option(None, "--models", "-m", help="models in the unit to try"),
    ):
        """Could one more unit of TROOP be added? If not, which rule stops it and by how much."""
        try:
            yes, lines = why_troop(file, troop, models)
        except DaimyoError as exc:
            fail(exc)
        for line in lines:
            echo(line)
        raise typer.Exit(0 if yes else 1)
