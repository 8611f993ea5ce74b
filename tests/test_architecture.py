"""Dependencies point one way: cli -> everything; render and rules -> catalog; catalog -> neither."""

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "builder"


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def modules(sub: str):
    return sorted((PKG / sub).rglob("*.py"))


def test_catalog_imports_neither_rules_nor_render_nor_cli():
    for path in modules("catalog"):
        bad = {m for m in imports_of(path) if m.startswith(("builder.rules", "builder.render", "builder.cli",
                                                             "builder.commands", "reportlab", "typer"))}
        assert not bad, f"{path.name} imports {bad}"


def test_rules_core_is_pure():
    for path in modules("rules"):
        bad = {m for m in imports_of(path) if m.startswith(("builder.render", "builder.cli", "builder.commands",
                                                             "reportlab", "typer", "ruamel", "PIL"))}
        assert not bad, f"{path.name} imports {bad}"


def test_only_render_imports_reportlab():
    for path in PKG.rglob("*.py"):
        if "render" in path.parts:
            continue
        assert not {m for m in imports_of(path) if m.startswith("reportlab")}, path


def test_startup_imports_stay_light():
    """`daimyo --version` must not pull in reportlab, pillow or ruamel.yaml."""
    import subprocess
    import sys

    code = ("import sys, builder.cli; heavy = [m for m in ('reportlab', 'PIL', 'ruamel.yaml') if m in sys.modules]; "
            "print(','.join(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
