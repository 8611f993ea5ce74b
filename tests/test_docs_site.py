"""The documentation site (mkdocs.yml, docs/): every page in its nav, the parts made from the code
when it is built (scripts/mkdocs_hooks.py) complete. ``mkdocs build --strict``, a gate of .ci/run,
checks the links and anchors."""

from __future__ import annotations

import importlib.util
import re

import pytest
from ruamel.yaml import YAML

from builder import SYSTEMS

from conftest import ROOT


def hooks():
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "scripts" / "mkdocs_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nav_pages(nav) -> list[str]:
    out = []
    for item in nav:
        for value in item.values() if isinstance(item, dict) else [item]:
            out.extend(nav_pages(value) if isinstance(value, list) else [value])
    return out


def test_every_page_of_docs_is_in_the_nav_once():
    config = YAML(typ="safe").load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = nav_pages(config["nav"])
    pages = sorted(p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md"))
    assert sorted(listed) == pages
    assert config["strict"] is True


def commands_listed(cli, *path: str) -> list[tuple[str, ...]]:
    """Every command path ``daimyo [PATH] --help`` lists, and those of its groups, recursively."""
    r = cli(*path, "--help")
    assert r.code == 0, r
    text = r.stdout.split("\nCommands:\n", 1)
    if len(text) == 1:
        return []
    out = []
    for line in text[1].splitlines():
        m = re.match(r"  (\S+)", line)
        if not m:
            if line.strip() == "":
                continue
            if not line.startswith("    "):
                break
            continue
        out.append((*path, m.group(1)))
        out.extend(commands_listed(cli, *path, m.group(1)))
    return out


@pytest.mark.slow  # the help of every command
def test_the_cli_reference_has_every_command_with_its_help(cli):
    reference = hooks().cli_reference()
    listed = commands_listed(cli)
    assert len(listed) >= 40, listed
    for path in listed:
        name = " ".join(("daimyo", *path))
        assert f"`{name}`\n\n```text\nUsage: {name} " in reference, f"the command-line reference lacks {name}"
    # the reference is the help itself: one command's, word for word as the command prints it
    r = cli("pack", "install", "--help")
    shown = r.stdout.split("\n", 1)[1]  # after the usage line, which names the program as it was called
    assert "Usage: daimyo pack install [OPTIONS]" in reference
    assert " ".join(shown.split()) in " ".join(reference.split())


def test_the_home_page_is_the_readme_with_its_links_into_the_site():
    home = hooks().top_level_page("README.md")
    assert (ROOT / "docs" / "index.md").read_text(encoding="utf-8").strip() == "<!-- include README.md -->"
    assert "](docs/" not in home
    for target in re.findall(r"\]\(([^)#]+)[^)]*\)", home):
        if not target.startswith("http"):
            assert (ROOT / "docs" / target).is_file(), f"README link {target} is no page of the site"


def test_each_game_page_shows_its_finding_codes():
    for system in SYSTEMS:
        page = (ROOT / "docs" / "games" / f"{system}.md").read_text(encoding="utf-8")
        assert f"<!-- daimyo rules {system} --codes -->" in page
        table = hooks().finding_codes(system)
        assert table.startswith("| code | severity | meaning | rulebook |") and f"| `{system}." in table
