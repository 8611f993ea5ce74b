"""Rewrite the house-rule table of each game's page (docs/games/SYSTEM.md) from
`daimyo rules SYSTEM --format markdown`.

Run after changing a catalog's house_rules.yaml: python scripts/readme_rules_tables.py
(tests/test_demo.py checks that the tables are the generated ones).
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("kensei", "senshiai", "herocard", "senji", "satsuma")


def main() -> int:
    for system in SYSTEMS:
        page = ROOT / "docs" / "games" / f"{system}.md"
        text = page.read_text()
        table = subprocess.run(
            [sys.executable, "-m", "builder", "rules", system, "--format", "markdown"],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout.strip()
        pattern = r"(#{2,4} [^\n]*\(`daimyo rules " + system + r"`\)\n\n)(\|.*?\n)(\n)"
        text, n = re.subn(
            pattern, lambda m, table=table: m.group(1) + table + "\n" + m.group(3), text, count=1, flags=re.S
        )
        if n != 1:
            print(f"{page.relative_to(ROOT)} has no table for {system}", file=sys.stderr)
            return 1
        page.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
