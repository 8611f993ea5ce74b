"""Rewrite the README's house-rule tables from `daimyo rules SYSTEM --format markdown`.

Run after changing a catalog's house_rules.yaml: python scripts/readme_rules_tables.py
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("kensei", "senshiai", "herocard", "senji", "satsuma")


def main() -> int:
    readme = ROOT / "README.md"
    text = readme.read_text()
    for system in SYSTEMS:
        table = subprocess.run([sys.executable, "-m", "builder", "rules", system, "--format", "markdown"],
                               capture_output=True, text=True, check=True, cwd=ROOT).stdout.strip()
        pattern = r"(#### [^\n]*\(`daimyo rules " + system + r"`\)\n\n)(\|.*?\n)(\n)"
        text, n = re.subn(pattern, lambda m, table=table: m.group(1) + table + "\n" + m.group(3), text, count=1, flags=re.S)
        if n != 1:
            print(f"README has no table for {system}", file=sys.stderr)
            return 1
    readme.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
