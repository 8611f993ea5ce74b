"""``daimyo demo``: the main job on the bundled examples.

1. validate the catalog of every system together with the example packs;
2. check every example list in ``examples/`` and show its findings;
3. print each example list and a player aid of every system into the output folder
   (when the print module is present).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from builder import SYSTEMS
from builder.catalog.browse import check_catalogs
from builder.check import check_doc, format_result
from builder.errors import DaimyoError, UsageError, option
from builder.i18n import L_
from builder.lists.document import load_list
from builder.paths import examples_dir
from builder.systems import ids
from builder.yamlio import atomic_write


def example_lists() -> list[Path]:
    return sorted(p for p in examples_dir().glob("*.yaml") if p.is_file())


def example_packs() -> list[str]:
    return [str(p) for p in sorted((examples_dir() / "packs").glob("*.yaml"))]


MANIFEST = ".daimyo-demo"  # the files an earlier demo wrote into the folder, with their hashes


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _read_manifest(folder: Path) -> dict[str, str]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _write_manifest(folder: Path, written: dict[str, str]) -> None:
    atomic_write(folder / MANIFEST, json.dumps(written, indent=1, sort_keys=True) + "\n", force=True)


def run_demo(out: str, echo, force: bool = False) -> int:
    """Run the demo into the folder ``out``. Files the demo wrote before (same name, unchanged
    since) are replaced; any other existing file is kept and reported unless ``force``."""
    echo("== catalog and example packs")
    for line in check_catalogs(None, example_packs(), ids()):
        echo("  " + line)
    lists = example_lists()
    echo(f"\n== checking {len(lists)} example lists")
    status = 0
    checked = []
    for path in lists:
        try:
            res = check_doc(load_list(path, display=f"examples/{path.name}"))
        except DaimyoError as exc:
            for line in exc.lines(flags=True):
                echo(line)
            status = 2
            continue
        checked.append(path)
        for line in format_result(res):
            echo(line)
        if not res.legal:
            status = max(status, 1)
    try:
        from builder.render import api as render_api  # noqa: PLC0415 - an install may leave the print module out; the demo then checks without printing
    except ImportError:
        printing = False
    else:
        printing = True
    if printing:
        outdir = Path(out)
        try:
            outdir.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as exc:
            why = (
                "it or a folder above it is a file"
                if isinstance(exc, (FileExistsError, NotADirectoryError))
                else (getattr(exc, "strerror", None) or str(exc))
            )
            raise UsageError(
                L_("cannot make the output folder '{out}': {why}", out=out, why=why),
                L_("give a folder with {option}", option=option("out")),
            ) from None
        echo(f"\n== printing into {outdir}/")
        jobs: list[tuple[str, Path, Callable[..., Path], Path | str]]
        jobs = [(f"{path.name}", outdir / f"{path.stem}.pdf", render_api.render_list, path) for path in checked]
        jobs += [
            (f"player aid {system}", outdir / f"aid-{system}.pdf", render_api.render_aid, system) for system in SYSTEMS
        ]
        ours = _read_manifest(outdir)
        wrote = dict(ours)
        for label, target, render, what in jobs:
            mine = target.name in ours and ours[target.name] == _digest(target)
            if target.exists() and not target.is_file():
                echo(f"{target}: error: is a folder, not a file (move it away or give another folder with -o)")
                status = 2
                continue
            if target.exists() and not mine and not force:
                echo(
                    f"{target}: error: exists and was not written by daimyo demo; kept "
                    "(pass --force to replace it, or give another folder with -o)"
                )
                status = 2
                continue
            try:
                written = render(what, target, force=True)
            except DaimyoError as exc:
                for line in exc.lines(flags=True):
                    echo(line)
                status = 2
                continue
            wrote[target.name] = _digest(Path(written)) or ""
            _write_manifest(outdir, wrote)
            echo(f"  {label} -> {written}")
    echo(
        "\n"
        + (
            "all example lists are legal"
            if status == 0
            else "some example lists are illegal"
            if status == 1
            else "some inputs could not be read"
        )
    )
    return status
