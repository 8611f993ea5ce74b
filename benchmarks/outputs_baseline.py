"""Record every output daimyo gives for the bundled examples and the test corpus, and compare a
later run with a recording.

    python benchmarks/outputs_baseline.py record DIR        # write every output to DIR
    python benchmarks/outputs_baseline.py compare DIR       # run again, list what differs from DIR
    python benchmarks/outputs_baseline.py digest            # run, compare with outputs_baseline.json
    python benchmarks/outputs_baseline.py digest --write    # run, rewrite outputs_baseline.json

For every list (``examples/*.yaml`` and every ``tests/data/**/*.yaml``): the exit code, standard
output and standard error of ``daimyo check`` (text and JSON) and of ``daimyo export`` in each
text format (text, markdown, json, yaml, code). For the examples and every game's player aid:
``daimyo print`` and ``daimyo aid`` read back as PDF text and page geometry (page sizes, and the
rounded boxes of every rectangle, line and image on each page); the PDF bytes themselves carry
a creation date and an id, so they are never compared. ``--all-pdf`` prints every list of the
test corpus too (slow).

A recording is a folder of small text files, one per output; ``outputs_baseline.json`` beside
this script is the SHA-256 of each, small enough to keep in the repository. Paths in the
outputs are relative to the project folder and temporary folders are written as ``<tmp>``, so
two runs on different machines compare equal; the script runs itself with PYTHONHASHSEED=0 so that
an order that depends on string hashes is the same in both runs (``compare DIR --hash-seed 1``
after ``record DIR`` lists the outputs that depend on it: a message that changes from run to run).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIGEST = Path(__file__).resolve().parent / "outputs_baseline.json"
EXPORTS = ("text", "markdown", "json", "yaml", "code")
AIDS = ("senshiai", "kensei", "herocard", "senji", "satsuma")


def lists() -> list[Path]:
    found = sorted((ROOT / "examples").glob("*.yaml"))
    found += sorted(p for p in (ROOT / "tests" / "data").rglob("*.yaml") if p.is_file())
    return found


def run(args: list[str], tmp: str) -> str:
    """One in-process ``daimyo`` call: its exit code, stdout and stderr as one text."""
    from builder.commands.app import app_for
    from builder.errors import DaimyoError

    try:
        import typer._click as click  # typer 0.2x carries its own copy of click
    except ImportError:  # pragma: no cover
        import click

    out, err = io.StringIO(), io.StringIO()
    code: object = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rv = app_for(args)(args, standalone_mode=False)
            code = rv if isinstance(rv, int) else 0
        except SystemExit as exc:
            code = exc.code
        except click.exceptions.Exit as exc:
            code = exc.exit_code
        except click.ClickException as exc:
            exc.show(file=err)
            code = exc.exit_code
        except DaimyoError as exc:
            for line in exc.lines(flags=True):
                err.write(line + "\n")
            code = exc.exit_code
        except Exception as exc:  # recorded, not raised: a crash is an output too
            code = f"crash {type(exc).__name__}: {exc}"
    text = f"exit: {code}\n--- stdout\n{out.getvalue()}--- stderr\n{err.getvalue()}"
    return text.replace(tmp, "<tmp>").replace(str(ROOT) + os.sep, "")


def pdf_summary(path: Path) -> str:
    """The text and page geometry of a PDF (nothing that changes from run to run)."""
    if not path.is_file():
        return "no PDF written\n"
    import pdfplumber

    def box(o) -> str:
        return f"{o['x0']:.1f},{o['top']:.1f},{o['x1']:.1f},{o['bottom']:.1f}"

    lines = []
    with pdfplumber.open(path) as pdf:
        lines.append(f"pages: {len(pdf.pages)}")
        for i, page in enumerate(pdf.pages, 1):
            lines.append(f"== page {i} {float(page.width):.2f}x{float(page.height):.2f}")
            lines.append("rects: " + " ".join(sorted(box(r) for r in page.rects)))
            lines.append("lines: " + " ".join(sorted(box(r) for r in page.lines)))
            lines.append("curves: " + str(len(page.curves)))
            lines.append("images: " + " ".join(sorted(box(r) for r in page.images)))
            lines.append(page.extract_text() or "")
    return "\n".join(lines) + "\n"


def outputs(all_pdf: bool = False):
    """(name, text) of every recorded output, in a fixed order."""
    os.environ.setdefault("NO_COLOR", "1")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DAIMYO_CACHE_DIR"] = os.path.join(tmp, "cache")
        os.environ["DAIMYO_PACKS"] = os.path.join(tmp, "packs")
        os.chdir(ROOT)
        examples = set(sorted((ROOT / "examples").glob("*.yaml")))
        for path in lists():
            rel = path.relative_to(ROOT).as_posix()
            key = rel.removesuffix(".yaml").replace("/", "__")
            yield f"{key}.check.txt", run(["check", "--no-color", rel], tmp)
            yield f"{key}.check.json", run(["check", "--format", "json", rel], tmp)
            for fmt in EXPORTS:
                yield f"{key}.export-{fmt}.txt", run(["export", "--to", fmt, rel], tmp)
            if path in examples or all_pdf:
                pdf = Path(tmp) / f"{key}.pdf"
                status = run(["print", rel, "--output", str(pdf), "--force"], tmp)
                yield f"{key}.print.txt", status + pdf_summary(pdf)
                pdf.unlink(missing_ok=True)
        for system in AIDS:
            pdf = Path(tmp) / f"aid-{system}.pdf"
            status = run(["aid", system, "--output", str(pdf), "--force"], tmp)
            yield f"aid-{system}.print.txt", status + pdf_summary(pdf)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("record", "compare", "digest"))
    ap.add_argument("folder", nargs="?", help="record/compare: the recording's folder")
    ap.add_argument("--all-pdf", action="store_true", help="print every list of the test corpus too")
    ap.add_argument("--hash-seed", default="0", help="PYTHONHASHSEED of the run (default 0)")
    ap.add_argument("--write", action="store_true", help="digest: rewrite outputs_baseline.json")
    opts = ap.parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != opts.hash_seed:  # one string hash order in both runs
        os.environ["PYTHONHASHSEED"] = opts.hash_seed
        os.execv(sys.executable, [sys.executable, __file__, *(sys.argv[1:] if argv is None else argv)])
    sys.path.insert(0, str(ROOT))
    if opts.action in ("record", "compare") and not opts.folder:
        ap.error(f"{opts.action} needs a folder")
    folder = Path(opts.folder).resolve() if opts.folder else None

    if opts.action == "record":
        assert folder is not None
        folder.mkdir(parents=True, exist_ok=True)
        n = 0
        for name, text in outputs(opts.all_pdf):
            (folder / name).write_text(text, encoding="utf-8")
            n += 1
        print(f"{n} outputs written to {folder}")
        return 0

    if opts.action == "compare":
        assert folder is not None
        import difflib

        seen, differ = set(), []
        for name, text in outputs(opts.all_pdf):
            seen.add(name)
            old = folder / name
            before = old.read_text(encoding="utf-8") if old.is_file() else None
            if before != text:
                differ.append(name)
                print(f"--- {name}" + (" (new)" if before is None else ""))
                if before is not None:
                    sys.stdout.writelines(
                        list(
                            difflib.unified_diff(before.splitlines(True), text.splitlines(True), "before", "after", n=1)
                        )[:60]
                    )
        gone = sorted(p.name for p in folder.iterdir() if p.name not in seen)
        for name in gone:
            print(f"--- {name} (no longer written)")
        print(f"{len(seen)} outputs, {len(differ)} differ, {len(gone)} gone")
        return 1 if differ or gone else 0

    now = {name: sha(text) for name, text in outputs(opts.all_pdf)}
    if opts.write:
        DIGEST.write_text(json.dumps(now, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"{len(now)} digests written to {DIGEST.name}")
        return 0
    before = json.loads(DIGEST.read_text(encoding="utf-8"))
    differ = sorted(k for k in now.keys() | before.keys() if now.get(k) != before.get(k))
    for name in differ:
        print(f"differs: {name}" + ("" if name in before else " (new)") + ("" if name in now else " (gone)"))
    print(f"{len(now)} outputs, {len(differ)} differ from {DIGEST.name}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
