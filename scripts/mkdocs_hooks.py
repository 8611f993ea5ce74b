"""MkDocs hooks of the documentation site (mkdocs.yml): the pages made from the code and from files
outside ``docs/``, so that none of them is a copy that can drift.

- ``<!-- include FILE -->`` is replaced by that file of the project, its links made relative to
  ``docs/`` (the home page is README.md, the contributing page CONTRIBUTING.md);
- ``<!-- daimyo-cli-reference -->`` by every command's ``--help``, from the typer app itself;
- ``<!-- daimyo rules SYSTEM --codes -->`` by that game's finding codes
  (``daimyo rules SYSTEM --codes --format markdown``).

tests/test_docs_site.py checks what they write.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r"<!-- include (\S+) -->")
CODES = re.compile(r"<!-- daimyo rules (\w+) --codes -->")
CLI_REFERENCE = "<!-- daimyo-cli-reference -->"
HELP_WIDTH = 100


def top_level_page(path: str) -> str:
    """A file of the project's top folder as a page of the site: its links into ``docs/`` lead to
    the pages, and CONTRIBUTING.md to its page."""
    text = (ROOT / path).read_text(encoding="utf-8")
    text = text.replace("](docs/", "](")
    return text.replace("](CONTRIBUTING.md)", "](contributing.md)")


def command_tree() -> list[tuple[str, object]]:
    """(``daimyo ...`` path, click command) of every command and command group of the app, in the
    order ``--help`` lists them, the games' own groups included."""
    from typer.main import get_command

    from builder.commands.app import app_for

    root = get_command(app_for([]))
    out: list[tuple[str, object]] = []

    def walk(path: str, cmd) -> None:
        out.append((path, cmd))
        for name in getattr(cmd, "list_commands", lambda ctx: [])(None) or []:
            sub = cmd.get_command(None, name)
            if sub is not None and not getattr(sub, "hidden", False):
                walk(f"{path} {name}", sub)

    walk("daimyo", root)
    return out


def help_text(path: str, cmd) -> str:
    """The ``--help`` of one command, as ``daimyo ... --help`` prints it on a terminal 100 columns
    wide."""
    import click

    parent = None
    for name in path.split()[:-1]:
        parent = click.Context(click.Command(name), info_name=name, parent=parent)
    ctx = click.Context(
        cmd, info_name=path.split()[-1], parent=parent, terminal_width=HELP_WIDTH, max_content_width=HELP_WIDTH
    )
    return cmd.get_help(ctx)


def cli_reference() -> str:
    """Markdown: a heading and the ``--help`` of every command."""
    parts = []
    for path, cmd in command_tree():
        depth = min(len(path.split()), 4)
        parts.append(f"{'#' * (depth + 1)} `{path}`\n\n```text\n{help_text(path, cmd).rstrip()}\n```\n")
    return "\n".join(parts)


def finding_codes(system: str) -> str:
    """``daimyo rules SYSTEM --codes --format markdown``, as the command prints it."""
    import subprocess

    cmd = [sys.executable, "-m", "builder", "rules", system, "--codes", "--format", "markdown"]
    return subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT).stdout.strip()


def on_page_markdown(markdown: str, page, config, files) -> str:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    markdown = INCLUDE.sub(lambda m: top_level_page(m.group(1)), markdown)
    markdown = CODES.sub(lambda m: finding_codes(m.group(1)), markdown)
    if CLI_REFERENCE in markdown:
        markdown = markdown.replace(CLI_REFERENCE, cli_reference())
    return markdown
