"""Latency of ``options``: what could be added to a list, for a live builder.

Writes a 600 AP Buke army (8 entries, at the unit limit, the example profiles pack, so the catalog holds all
40 troops) in a temporary folder and measures:

* ``builder.options(editor)`` in-process: the first call (catalog from the cache) and the
  median and worst of 30 calls after it; every troop is tried and checked;
* the same with a filter (``search="samurai"``);
* ``ListEditor.add`` + ``undo`` (a live edit) in-process;
* the wall time of ``daimyo options army.yaml`` as a subprocess;
* ``options`` and ``check_file`` of the Senshiai example deck with its example pack (every card of
  the catalog tried: each trial is a whole deck check, which asks each card's abilities many
  times; they are worked out once per catalog), then of the same deck with a catalog grown by a
  pack of 15 renamed copies of each invented card (184 cards tried).

Goal: under 50 ms in-process for the 600 AP list and for the deck. Run: ``python benchmarks/bench_options.py``
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ARMY = """\
system: kensei
name: Buke host (benchmark)
clan: buke
points: 600
commander: taisho
packs: [{pack}]
troops:
  - troop: Taisho Buke
  - troop: Samurai Yari
    models: 10
  - troop: Samurai Yari
    models: 8
  - troop: Yari Ashigaru
    models: 12
  - troop: Yari Ashigaru
    models: 12
  - troop: Samurai Dai-Katana
    models: 8
  - troop: Samurai Dai-Katana
    models: 6
  - troop: Yumi Samurai
    models: 6
"""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    import builder
    from builder.lists.editor import ListEditor

    with tempfile.TemporaryDirectory() as tmp:
        army = Path(tmp) / "army.yaml"
        army.write_text(ARMY.format(pack=ROOT / "examples" / "packs" / "kensei-profiles.yaml"), encoding="utf-8")
        builder.load_catalog("kensei", [ROOT / "examples" / "packs" / "kensei-profiles.yaml"])  # warm the cache
        t = time.perf_counter()
        ed = ListEditor.open(army)
        opened = time.perf_counter() - t
        t = time.perf_counter()
        rows = builder.options(ed)
        first = time.perf_counter() - t
        res = ed.check()
        times = []
        for _ in range(30):
            t = time.perf_counter()
            builder.options(ed)
            times.append(time.perf_counter() - t)
        print(
            f"list: {res.summary['points']}/{res.summary['limit']} AP, {len(ed.doc.data['troops'])} entries, "
            f"{len(rows)} troops tried, {sum(r.ok for r in rows)} can be added"
        )
        print(f"open the list: {ms(opened)}")
        print(
            f"options, first call: {ms(first)}; then median {ms(statistics.median(times))}, "
            f"worst {ms(max(times))} of 30 [goal < 50 ms]"
        )
        times = []
        for _ in range(30):
            t = time.perf_counter()
            builder.options(ed, search="samurai")
            times.append(time.perf_counter() - t)
        print(f"options --search samurai: median {ms(statistics.median(times))}")
        times = []
        for _ in range(30):
            t = time.perf_counter()
            ed.add("Samurai Yari", models=4)
            ed.undo()
            times.append(time.perf_counter() - t)
        print(f"edit: add + undo: median {ms(statistics.median(times))}")
        daimyo = Path(sys.executable).parent / "daimyo"
        t = time.perf_counter()
        proc = subprocess.run([str(daimyo), "options", str(army)], capture_output=True, text=True)
        wall = time.perf_counter() - t
        print(
            f"CLI: daimyo options army.yaml: {wall:.2f} s wall, exit {proc.returncode}, "
            f"{len(proc.stdout.splitlines())} lines"
        )
    from builder.check import check_file

    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "packs" / "more-cards.yaml"
        big.parent.mkdir()
        big.write_text(_more_cards(EXAMPLE_PACK, copies=15), encoding="utf-8")
        example = (ROOT / "examples" / "senshiai-northern-host.yaml").read_text(encoding="utf-8")
        grown = Path(tmp) / "deck.yaml"
        grown.write_text(example.replace("packs: [packs/senshiai-example.yaml]", f"packs: [{EXAMPLE_PACK}, {big}]"))
        for what, deck_file in (("example deck", ROOT / "examples" / "senshiai-northern-host.yaml"), ("grown", grown)):
            deck = ListEditor.open(deck_file)
            rows = builder.options(deck)
            for label, work in (
                ("options", lambda deck=deck: builder.options(deck)),
                ("check_file", lambda deck_file=deck_file: check_file(deck_file)),
            ):
                times = []
                for _ in range(30 if what == "example deck" else 10):
                    t = time.perf_counter()
                    work()
                    times.append(time.perf_counter() - t)
                print(
                    f"Senshiai {what} ({len(rows)} cards tried), {label}: median {ms(statistics.median(times))}, "
                    f"worst {ms(max(times))} of {len(times)}"
                    + (" [goal < 50 ms]" if (label, what) == ("options", "example deck") else "")
                )


EXAMPLE_PACK = ROOT / "examples" / "packs" / "senshiai-example.yaml"


def _more_cards(pack: Path, copies: int) -> str:
    """A pack of ``copies`` renamed copies of each invented card of ``pack`` (not its Capitals nor
    the cards that complete the rulebook's): a catalog as a community's packs may grow it."""
    import re

    head, cards = pack.read_text(encoding="utf-8").split("\ncards:\n", 1)
    entries = [e for e in re.split(r"\n(?=  - name: )", cards) if e.strip().startswith("- name:")]
    keep = [e for e in entries if "assumed: example card invented" in e and "subtype: Capital" not in e]
    out = [head.replace("name: Senshiai example cards", "name: More example cards"), "", "cards:"]
    for k in range(copies):
        for e in keep:
            name = re.search(r"- name: (.*)", e).group(1)  # type: ignore[union-attr]
            out.append(e.rstrip("\n").replace(f"- name: {name}", f"- name: {name} {k + 1}", 1))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
