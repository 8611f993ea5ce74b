"""``daimyo demo``: the main job on the bundled examples.

1. validate the catalog of every system together with the example packs;
2. check every example list in ``examples/`` and show its findings;
3. print each example list and a player aid of every system into the output folder
   (when the print module is present).
"""

from __future__ import annotations

from pathlib import Path

from builder import SYSTEMS
from builder.errors import DaimyoError


def example_lists() -> list[Path]:
    from builder.paths import examples_dir

    return sorted(p for p in examples_dir().glob("*.yaml") if p.is_file())


def example_packs() -> list[str]:
    from builder.paths import examples_dir

    return [str(p) for p in sorted((examples_dir() / "packs").glob("*.yaml"))]


def run_demo(out: str, echo, force: bool = True) -> int:
    from builder.catalog.browse import check_catalogs
    from builder.check import check_doc, format_result
    from builder.lists.document import load_list

    echo("== catalog and example packs")
    for line in check_catalogs(None, example_packs()):
        echo("  " + line)
    lists = example_lists()
    echo(f"\n== checking {len(lists)} example lists")
    status = 0
    checked = []
    for path in lists:
        try:
            res = check_doc(load_list(path, display=f"examples/{path.name}"))
        except DaimyoError as exc:
            for line in exc.lines():
                echo(line)
            status = 2
            continue
        checked.append(path)
        for line in format_result(res):
            echo(line)
        if not res.legal:
            status = max(status, 1)
    try:
        from builder.render import api as render_api
    except ImportError:
        render_api = None
    if render_api is not None:
        outdir = Path(out)
        try:
            outdir.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as exc:
            from builder.errors import UsageError

            why = "it or a folder above it is a file" if isinstance(exc, (FileExistsError, NotADirectoryError)) \
                else (getattr(exc, "strerror", None) or str(exc))
            raise UsageError(f"cannot make the output folder '{out}': {why}", "give a folder with --out")
        echo(f"\n== printing into {outdir}/")
        jobs = [(f"{path.name}", outdir / f"{path.stem}.pdf", render_api.render_list, path) for path in checked]
        jobs += [(f"player aid {system}", outdir / f"aid-{system}.pdf", render_api.render_aid, system)
                 for system in SYSTEMS]
        for label, target, render, what in jobs:
            try:
                written = render(what, target, force=force)
            except DaimyoError as exc:
                for line in exc.lines():
                    echo(line)
                status = 2
                continue
            echo(f"  {label} -> {written}")
    echo("\n" + ("all example lists are legal" if status == 0 else
                 "some example lists are illegal" if status == 1 else "some inputs could not be read"))
    return status
