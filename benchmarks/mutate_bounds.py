"""Mutation testing of the rules' bounds: does some test fail when a bound changes?

Run on demand (never part of the test suite):

    python benchmarks/mutate_bounds.py                 # every mutant (long)
    python benchmarks/mutate_bounds.py --list          # the mutants, without running anything
    python benchmarks/mutate_bounds.py --only kensei --sample 40 --seed 1
    python benchmarks/mutate_bounds.py --catalog-only  # only the numbers of the catalogs

Mutants:

* every whole number of ``catalog/*/restrictions.yaml``, ``system.yaml`` (its ``deck_rules``),
  ``game.yaml`` (its ``limits``) and ``house_rules.yaml`` (not in prose, sources or names), one
  up and one down;
* every comparison operator of ``builder/rules/*.py`` and ``builder/games/*/rules.py`` (``<`` and ``<=``, ``>`` and ``>=``
  swapped, ``==`` and ``!=`` swapped) and every whole number compared with it, one up and one
  down.

Each mutant is applied to a copy of the project (the working tree is never touched) and the
tests of its game are run there; a mutant is killed when a test fails. The score is killed /
run; the survivors are printed with their file and line so each can be judged (an equivalent
mutant, or a bound without a test). A survivor named in EQUIVALENTS (below, each with the reason
no verdict can change) is listed apart; the exit code is 1 when any other mutant survives.

Cost: each mutant's tests run in a child forked from this process (pytest and the libraries are
imported once; the child imports the mutated project afresh), ``-x -n 0``, the fastest killers
first; a killed mutant costs a few seconds, a survivor the whole of its game's files.
``--skip-equivalents`` leaves the named equivalents out, ``--equivalents-only`` runs only them (to
see each survive); ``--at FILE:LINE`` runs one place again.

Scores (killed / run; every mutant of a bound is killed or named in EQUIVALENTS with its reason).
Measured on 2 cores shared with other work (load average 2.5-7 during these runs, 4-10 before);
s/mutant is the mean of a run, killed mutants a few seconds, survivors their game's whole files:

==============  ===========  =============================================================  ==========
game / module   killed/run   survivors                                                      s/mutant
==============  ===========  =============================================================  ==========
Senshiai        54/58        4 named equivalents, each seen surviving; no other             ~10
Satsuma         91/117       26 named equivalents, each seen surviving (run with            ~13
                             --equivalents-only: 26/26 survived, ~36 s each); no other
Kensei catalog  92/92        none (restrictions.yaml, house_rules.yaml)                     ~8
Kensei rules    73/77        4 named, each seen surviving: the memo size cap (3), the       ~5
                             hand-size fallback; no other
engine.py       76/89        13 named, each seen surviving: 7 memo size caps, the           ~10
                             int-or-Fraction shortcut, the at_least and at_most clamps
                             on a tie, _passes for exactly (never reached), the op of an
                             exactly bound (2); no other
limits.py       4/4          none (the limits rows of every game's stats)                   ~8
compiled.py     0/3          3 named memo size caps, each seen surviving; no other          ~20
Senji           68/71        3 named equivalents, each seen surviving; no other             ~3
HeroCard        61/61        none                                                           ~5
==============  ===========  =============================================================  ==========

Kensei in all: 245/265 killed, 20 named equivalents, no other survivor. The modules of
builder/rules/ run Kensei's files (TESTS); their bounds are killed first by
tests/test_bounds_rules_engine.py. A named equivalent is seen surviving with
``--equivalents-only``; a killed place is confirmed with ``--at FILE:LINE``.

"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("kensei", "senshiai", "herocard", "senji", "satsuma")
# the test files that can kill a game's mutants, the fastest killers first (with -x the run stops
# at the first failure: a killed mutant costs the files before its killer, a survivor all of them)
TESTS = {
    "kensei": [
        # the restriction language's own bounds (the engine's: builder/rules/), a few seconds
        "tests/test_bounds_rules_engine.py",
        "tests/test_bounds_kensei_params.py",
        "tests/test_bounds_kensei.py",
        "tests/test_readings_kensei.py",
        "tests/test_kensei_rules.py",
        "tests/test_kensei_protector.py",
        "tests/test_bounds_kensei_list.py",
        "tests/test_readings_kensei_checks.py",
        "tests/test_messages_rules.py",
        "tests/test_missing_data.py",
        "tests/test_bounds_house_rules.py",
        "tests/test_bounds_cards.py",
        "tests/test_bounds_kensei_unit_sizes.py",
        "tests/test_readings_kensei_leaders.py",
        "tests/test_readings_kensei_companions.py",
        "tests/test_messages_readings.py",
    ],
    "senshiai": [
        "tests/test_bounds_senshiai.py",
        "tests/test_readings_senshiai.py",
        "tests/test_senshiai.py",
        "tests/test_bounds_house_rules.py",
        "tests/test_bounds_cards.py",
    ],
    "herocard": [
        "tests/test_bounds_cards.py",
        "tests/test_herocard_copies.py",
        "tests/test_bounds_house_rules.py",
        "tests/test_bounds_herocard_play.py",
        "tests/test_readings_herocard.py",
        "tests/test_herocard.py",
    ],
    "senji": ["tests/test_bounds_senji.py", "tests/test_senji.py"],
    # the hand solvers' property tests first: most of the mutants are in the solvers
    "satsuma": [
        *(
            f"tests/test_satsuma_sim.py::{name}"
            for name in ("test_fast_total_and_escape_agree_with_best_hand", "test_totals_with_and_without_escape")
        ),
        "tests/test_bounds_satsuma.py",
        "tests/test_satsuma.py",
        "tests/test_bounds_cards.py",
        "tests/test_satsuma_cli.py",
        # the simulator's other tests of the hands and the clash (its other whole-game tests,
        # minutes long, test sim.py: its rules are these)
        *(
            f"tests/test_satsuma_sim.py::{name}"
            for name in (
                "test_fast_path_on_published_hands",
                "test_escape_counted_only_when_every_best_hand_needs_it",
                "test_decide_is_what_clash_decides",
                "test_assignment_behind_the_discards_is_a_best_hand",
                "test_choose_escape_under_each_house_rule",
                "test_escape_is_used_on_purpose_when_defending_is_better",
                "test_escape_is_left_out_when_attacking_is_better",
                "test_role_values_follow_the_roles",
                "test_clash_command_takes_the_samurai_escape_choice",
                # the fast game loop reads RoleTable's flattened two-option cards (duo)
                "test_fast_loop_plays_the_reference_games_on_random_decks",
            )
        ),
    ],
}
# modules shared by the games: the rules engine serves Kensei's restrictions; the limit rows
# (every game's ``daimyo stats``) are tested at their bounds in test_bounds_rules_engine.py, the
# first of Kensei's files
SHARED = {"engine": "kensei", "compiled": "kensei", "limits": "kensei"}
YAML_FILES = ("restrictions.yaml", "system.yaml", "house_rules.yaml", "game.yaml")
# the sections of a file that hold the bounds of a list (other sections: the game's play, components)
BOUND_SECTIONS = {"system.yaml": "deck_rules", "game.yaml": "limits"}
PROSE_KEYS = {
    "source",
    "notes",
    "description",
    "reading",
    "assumed",
    "title",
    "name",
    "label",
    "text",
    "id",
    "code",
    "noun",
    "syntax",
    "play",
}
SWAP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}


# Equivalent mutants: the changed number or operator cannot change any verdict, so no test can
# kill them. Each is named by its file, a piece of its source line (line numbers move as the code
# does), the text replaced and its replacement, with the reason it cannot change a verdict.
_SAME = "on a tie the same value is stored again: the same best total"
_EXACT = (
    "a card that gains nothing in a suit is kept among the two-option cards, which the exact "
    "solver answers the same (more slowly)"
)
_ZERO = (
    "a card that gains 0 in a suit (and nothing in the other) is placed there, where it changes "
    "nothing, instead of being left out: the same best per suit"
)
_MULTI = "reached only by cards of two or more options: every hand then goes to the exact general solver"
_NEVER_EMPTY = (
    "the two-option cards are never none here (the callers pass them only when there are some): "
    "one card goes to the general solver, which is exact, instead of the shortcut"
)
EQUIVALENTS: list[tuple[str, str, str, str, str]] = [
    # Senshiai
    (
        "builder/games/senshiai/rules.py",
        "best_bonus if mod.sign > 0",
        ">",
        ">=",
        "a Power modifier's sign is +1 or -1, never 0 (terms.parse_modifier; net_modifiers builds +1 and -1), so > 0 and >= 0 agree",
    ),
    (
        "builder/games/senshiai/rules.py",
        "if value >= 0:",
        ">=",
        ">",
        "a modifier of 0 counted as a penalty instead of a bonus subtracts max(..., 0) = 0: the same trait",
    ),
    (
        "builder/games/senshiai/rules.py",
        "if value >= 0:",
        "0",
        "1",
        "only a modifier of 0 moves (>= 1: to the penalties), and it subtracts max(..., 0) = 0: the same trait",
    ),
    (
        "builder/games/senshiai/rules.py",
        "return resistance <= 0 or",
        "<=",
        "<",
        "a Resistance of 0 is then caught by damage >= 0, true of every damage (never negative)",
    ),
    # Satsuma
    (
        "builder/games/satsuma/rules.py",
        "if nm not in nxt or cand > nxt[nm][0]:",
        ">",
        ">=",
        "a tie keeps the later of two hands over the same suits with the same total: the same total and "
        "the same Escape answer (the suits are the same), another card of equal strength named as used",
    ),
    ("builder/games/satsuma/rules.py", "val + v > nxt.get(mask | b, -1 << 62)", ">", ">=", _SAME),
    ("builder/games/satsuma/rules.py", "if val + v > nxt.get(nm, -1 << 62):", ">", ">=", _SAME),
    ("builder/games/satsuma/rules.py", "(g1 if g1 > 0 else 0)", ">", ">=", _SAME),
    ("builder/games/satsuma/rules.py", "(g2 if g2 > 0 else 0)", ">", ">=", _SAME),
    ("builder/games/satsuma/rules.py", "(v1 if v1 > v2 else v2)", ">", ">=", _SAME),
    ("builder/games/satsuma/rules.py", "if g > gain:", ">", ">=", _SAME),
    ("builder/games/satsuma/rules.py", "if v > b[s]:", ">", ">=", _SAME),
    ("builder/games/satsuma/rules.py", "if t > top:", ">", ">=", _SAME),
    ("builder/games/satsuma/rules.py", "if v > best[s]:", ">", ">=", _SAME),
    (
        "builder/games/satsuma/rules.py",
        "if g2 > g:",
        ">",
        ">=",
        "g2 == g with one of them > 0 is only reached when both options are of one suit (else the card "
        "is kept as two-suited): the same suit and strength placed",
    ),
    ("builder/games/satsuma/rules.py", "if g > 0 and g2 > 0 and s != s2:", ">", ">=", _EXACT),
    (
        "builder/games/satsuma/rules.py",
        "if not escape_option and best[ESCAPE] <= 0:",
        "<=",
        "<",
        "with no Escape card (best[ESCAPE] == 0) _with_duals answers (the same total, False) by its own test",
    ),
    (
        "builder/games/satsuma/rules.py",
        "if best[ESCAPE] <= 0 and not escape_option:",
        "<=",
        "<",
        "with no Escape card the hand without Escape is the hand itself: the same total, so Escape is not needed",
    ),
    ("builder/games/satsuma/rules.py", "if len(duals) == 1:", "1", "0", _NEVER_EMPTY),
    (
        "builder/games/satsuma/rules.py",
        "if len(duals) == 2:",
        "2",
        "1",
        "one two-option card is answered by the line before; two or more go to the exact general solver",
    ),
    ("builder/games/satsuma/rules.py", "if len(opts) != 2:", "2", "1", _MULTI),
    ("builder/games/satsuma/rules.py", "if len(o) != 2:", "2", "1", _MULTI),
    (
        "builder/games/satsuma/rules.py",
        "duo = tuple(o[0] + o[1] if len(o) == 2",
        "2",
        "3",
        "no two-option card is flattened (the simulator's decks hold cards of one or two options: the catalog "
        "refuses more), so its fast loop takes its general path for each of them: the same games",
    ),
    ("builder/games/satsuma/rules.py", "elif g > 0 or", ">", ">=", _ZERO),
    ("builder/games/satsuma/rules.py", "or g2 > 0:", ">", ">=", _ZERO),
    # Senji
    (
        "builder/games/senji/rules.py",
        'winner = "attacker" if av.total > dv.total else "defender"',
        ">",
        ">=",
        "equal totals return a tie on the line before (if av.total == dv.total): here they differ, so > and >= agree",
    ),
    (
        "builder/games/senji/rules.py",
        "if len(placed_samurai) > 1 else",
        ">",
        ">=",
        "reached only when the provinces holding the samurai are not starting_samurai, 1 in the catalog (the "
        "rulebook's, 002:37-38): 0, 2 or more, never 1, so > 1 and >= 1 point at the same place",
    ),
    (
        "builder/games/senji/rules.py",
        "if len(placed_samurai) > 1 else",
        "1",
        "0",
        "reached only when the provinces holding the samurai are not starting_samurai, 1 in the catalog (the "
        "rulebook's, 002:37-38): 0, 2 or more, never 1, so > 1 and > 0 point at the same place",
    ),
    # Kensei
    (
        "builder/games/kensei/rules.py",
        'points < min(b.get("from_ap", 0) for b in bands)',
        "<",
        "<=",
        "a battle size equal to the lowest band's from_ap falls in that band (its to_ap, if any, is above its "
        "from_ap), so the hand is found before this fallback: the same hand",
    ),
    # the rules engine (builder/rules/engine.py)
    (
        "builder/rules/engine.py",
        "return x.numerator if x.denominator == 1 else x",
        "1",
        "0",
        "a denominator is never 0, so every exact number stays a Fraction instead of an int: equal to the "
        "int, hashed alike, and printed as the int by fmt_num and plain (the JSON reports); the int only "
        "sums faster (seen surviving the CLI's JSON, stats and library tests as well)",
    ),
    (
        "builder/rules/engine.py",
        "if v < lo:",
        "<",
        "<=",
        "a bound equal to its at_least is set to at_least: the same value (and the same text, written either way)",
    ),
    (
        "builder/rules/engine.py",
        "if v > hi:",
        ">",
        ">=",
        "a bound equal to its at_most is set to at_most: the same value (and the same text, written either way)",
    ),
    (
        "builder/rules/engine.py",
        "return value == bound",
        "==",
        "!=",
        "_passes is called only by _decisive, which answers True before it for any exactly bound: only min "
        "and max reach it, never this line",
    ),
    (
        "builder/rules/engine.py",
        '(kind == "exactly" and value < bound)',
        "==",
        "!=",
        "the op of an exactly bound is set to != on the next line; a max bound is broken only when value > "
        "bound, so value < bound is false and the op is > either way",
    ),
    (
        "builder/rules/engine.py",
        '(kind == "exactly" and value < bound)',
        "<",
        "<=",
        "only an exactly bound reaches value < bound, and its op is set to != on the next line",
    ),
    (
        "builder/games/satsuma/rules.py",
        "with_escape <= without else with_escape",
        "<=",
        "<",
        "on equal totals with and without Escape, top takes the other of two equal values: the same total, "
        "and Escape is not needed (top == without)",
    ),
]
# the size at which a memo is emptied: a cache of answers, never a bound (an answer recomputed
# after a clear is the same answer)
_CACHE = "a memo's size cap decides when it is emptied, never an answer"
for _file, _piece, _op, _numbers in [
    ("builder/rules/engine.py", "if len(_NORMALIZED) > 20000:", ">", ("20000",)),
    ("builder/rules/engine.py", "if len(memo) > _MEMO_CAP:", ">", ()),
    ("builder/rules/engine.py", "if len(self.plans) > _MEMO_CAP:", ">", ()),
    ("builder/rules/engine.py", "if len(rs.active) > _MEMO_CAP:", ">", ()),
    ("builder/rules/engine.py", "if len(info.bound_memo) > _MEMO_CAP:", ">", ()),
    ("builder/rules/compiled.py", "len(t) > MEMO_CAP", ">", ()),
    ("builder/rules/compiled.py", "if len(self.keys) > MEMO_CAP:", ">", ()),
    ("builder/rules/compiled.py", "if len(_RULESETS) >= KEEP:", ">=", ()),
    ("builder/games/kensei/rules.py", "if len(_PERCENTS) > 20000:", ">", ("20000",)),
]:
    EQUIVALENTS.append((_file, _piece, _op, SWAP[_op], _CACHE))
    for _n in _numbers:
        EQUIVALENTS += [(_file, _piece, _n, str(int(_n) + 1), _CACHE), (_file, _piece, _n, str(int(_n) - 1), _CACHE)]


@dataclass
class Mutant:
    file: str  # relative to ROOT
    line: int  # 1-based
    col: int  # 0-based start of the replaced text
    old: str
    new: str
    game: str

    def label(self) -> str:
        return f"{self.file}:{self.line}:{self.col + 1}: {self.old} -> {self.new}"

    def apply(self, text: str) -> str:
        lines = text.splitlines(keepends=True)
        row = lines[self.line - 1]
        assert row[self.col : self.col + len(self.old)] == self.old, self.label()
        lines[self.line - 1] = row[: self.col] + self.new + row[self.col + len(self.old) :]
        return "".join(lines)

    def source_line(self) -> str:
        return (ROOT / self.file).read_text(encoding="utf-8").splitlines()[self.line - 1]

    def equivalent(self) -> str | None:
        """Why this mutant is equivalent, when it is a named one (EQUIVALENTS)."""
        row = self.source_line()
        for file, piece, old, new, reason in EQUIVALENTS:
            if (
                file == self.file
                and piece in row
                and (old, new) == (self.old, self.new)
                and row.find(piece) <= self.col < row.find(piece) + len(piece)
            ):
                return reason
        return None


def _number_mutants(file: str, line: int, col: int, text: str, game: str) -> list[Mutant]:
    n = int(text)
    out = [Mutant(file, line, col, text, str(n + 1), game)]
    if n > 0:
        out.append(Mutant(file, line, col, text, str(n - 1), game))
    return out


def yaml_mutants(path: Path) -> list[Mutant]:
    """Whole numbers in the values of a catalog file, outside prose blocks, sources and names."""
    rel = str(path.relative_to(ROOT))
    game = path.parent.name
    out: list[Mutant] = []
    block_indent = None  # inside a folded or literal block (>-, |) deeper than this indent
    section = None  # the top-level key; system.yaml's bounds of a list are its deck_rules
    for i, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        top = re.match(r"([A-Za-z_][\w-]*)\s*:", raw)
        if top:
            section = top.group(1)
        if path.name in BOUND_SECTIONS and section != BOUND_SECTIONS[path.name]:
            continue
        body = raw.split("#", 1)[0] if not re.search(r"['\"].*#.*['\"]", raw) else raw
        indent = len(raw) - len(raw.lstrip())
        if block_indent is not None:
            if raw.strip() and indent <= block_indent:
                block_indent = None
            else:
                continue
        m = re.match(r"\s*(?:-\s+)?([A-Za-z_][\w-]*)\s*:\s*(.*)$", body)
        if not m:
            continue
        key, value = m.group(1), m.group(2)
        if value.strip() in (">-", ">", "|", "|-", ">+", "|+"):
            block_indent = indent
            continue
        if key in PROSE_KEYS or value.strip().startswith(("'", '"')) or (key == "value" and "house_rules" in rel):
            continue
        start = m.start(2)
        for num in re.finditer(r"(?<![\w.'\"/-])\d+(?![\w.'\"/-])", value):
            # inside an inline mapping, skip the numbers of prose keys (a source: FILE:LINE)
            before = value[: num.start()]
            inner = re.findall(r"([A-Za-z_][\w-]*)\s*:\s*[^,{}]*$", before)
            if inner and inner[-1] in PROSE_KEYS:
                continue
            out += _number_mutants(rel, i, start + num.start(), num.group(), game)
    return out


def python_mutants(path: Path) -> list[Mutant]:
    """Comparison operators of a rules module, and whole numbers compared with them."""
    rel = str(path.relative_to(ROOT))
    if path.parent.parent.name == "games":  # builder/games/GAME/rules.py
        game = path.parent.name
    else:
        game = SHARED.get(path.stem, path.stem.split("_")[0])
        if game not in GAMES and path.stem not in SHARED:
            game = "kensei"
    out: list[Mutant] = []
    toks = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
    for k, tok in enumerate(toks):
        if tok.type == tokenize.OP and tok.string in SWAP:
            (line, col) = tok.start
            out.append(Mutant(rel, line, col, tok.string, SWAP[tok.string], game))
            for near in (toks[k - 1] if k else None, toks[k + 1] if k + 1 < len(toks) else None):
                if near is not None and near.type == tokenize.NUMBER and near.string.isdigit():
                    out += _number_mutants(rel, near.start[0], near.start[1], near.string, game)
    return out


def all_mutants(catalog: bool = True, rules: bool = True) -> list[Mutant]:
    out: list[Mutant] = []
    if catalog:
        for game in GAMES:
            for name in YAML_FILES:
                p = ROOT / "catalog" / game / name
                if p.exists():
                    out += yaml_mutants(p)
    if rules:
        # the rules engine, and each game's rules (the simulator has its own tests)
        files = [
            *sorted((ROOT / "builder" / "rules").glob("*.py")),
            *sorted((ROOT / "builder" / "games").glob("*/rules.py")),
        ]
        for p in files:
            if p.stem in ("__init__", "codes"):  # no bounds
                continue
            out += python_mutants(p)
    return out


def _copy_project(dest: Path) -> None:
    ignore = shutil.ignore_patterns(".venv", ".git", "output", "__pycache__", "*.pdf", ".hypothesis")
    for name in (
        "builder",
        "catalog",
        "tests",
        "examples",
        "templates",
        "pyproject.toml",
        "README.md",
        "docs",
        "mkdocs.yml",
        "scripts",
    ):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, dest / name)


def _test_env(where: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(where), "PYTHONDONTWRITEBYTECODE": "1"}
    # the copy has no ../shared/seeds beside it: the tests comparing with the rulebooks read them here
    seeds = ROOT.parent / "shared" / "seeds"
    if "DAIMYO_RULEBOOKS" not in env and seeds.is_dir():
        env["DAIMYO_RULEBOOKS"] = str(seeds)
    return env


def _pytest_args(game: str) -> list[str]:
    # one worker (-n 0), stopping at the first failure (-x: a killed mutant is known at once), the
    # game's test files in the order of TESTS (the fastest killers first)
    return ["-x", "-q", "-p", "no:cacheprovider", "-n", "0", "-p", "no:randomly", *TESTS[game]]


def run_tests(where: Path, game: str, timeout: float) -> tuple[bool, float]:
    """True when the tests pass (the mutant survived): pytest in a new process."""
    start = time.monotonic()
    try:
        r = subprocess.run(
            [sys.executable, "-m", "pytest", *_pytest_args(game)],
            cwd=where,
            env=_test_env(where),
            capture_output=True,
            timeout=timeout,
        )
        passed = r.returncode == 0
    except subprocess.TimeoutExpired:
        passed = False  # a mutant that makes the tests hang is caught
    return passed, time.monotonic() - start


def run_tests_forked(where: Path, game: str, timeout: float) -> tuple[bool, float]:
    """As run_tests, in a child forked from this process, which has imported pytest and the
    libraries the project uses but never the project itself (each child imports the mutated
    copy afresh): the interpreter and those imports are paid once per run, not per mutant."""
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child: run the tests of the copy, report through the exit code
        code = 3
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os.chdir(where)
            os.environ.clear()
            os.environ.update(_test_env(where))
            sys.path.insert(0, str(where))
            import pytest

            code = int(pytest.main(_pytest_args(game)))
        finally:
            os._exit(code)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status) == 0, time.monotonic() - start
        if time.monotonic() - start > timeout:  # a mutant that makes the tests hang is caught
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return False, time.monotonic() - start
        time.sleep(0.05)


def _preload() -> None:
    """Import what every test run needs, apart from the project (the forked runs inherit it)."""
    import importlib

    for name in (
        "pytest",
        "hypothesis",
        "xdist",
        "typer",
        "click",
        "rich",
        "ruamel.yaml",
        "pydantic",
        "fastapi",
        "sqlalchemy",
        "reportlab.platypus",
        "PIL.Image",
        "jinja2",
    ):
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    assert not any(m == "builder" or m.startswith("builder.") for m in sys.modules), "the project was imported"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print the mutants and stop")
    ap.add_argument("--only", choices=GAMES, help="only the mutants of one game")
    ap.add_argument("--file", help="only mutants of files whose path contains this")
    ap.add_argument("--catalog-only", action="store_true")
    ap.add_argument("--rules-only", action="store_true")
    ap.add_argument(
        "--at",
        action="append",
        default=[],
        metavar="FILE:LINE",
        help="only the mutants at this place (repeatable), e.g. to run the survivors again",
    )
    ap.add_argument("--sample", type=int, help="run a random sample of this many mutants")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--done",
        action="append",
        default=[],
        metavar="LOG",
        help="a log of an earlier, interrupted run: its judged mutants count as judged there",
    )
    ap.add_argument(
        "--skip-equivalents",
        action="store_true",
        help="do not run the named equivalent mutants (they are known to survive)",
    )
    ap.add_argument(
        "--equivalents-only",
        action="store_true",
        help="run only the named equivalent mutants, to see each of them survive",
    )
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument(
        "--no-fork",
        action="store_true",
        help="start a new interpreter for each mutant (slower) instead of forking this one",
    )
    ap.add_argument(
        "--tests",
        action="append",
        default=[],
        metavar="FILE",
        help="run these test files instead of the game's (repeatable), e.g. to score the tests as they were",
    )
    args = ap.parse_args(argv)
    if args.tests:
        for game in GAMES:
            TESTS[game] = list(args.tests)
    mutants = all_mutants(catalog=not args.rules_only, rules=not args.catalog_only)
    if args.only:
        mutants = [m for m in mutants if m.game == args.only]
    if args.file:
        mutants = [m for m in mutants if args.file in m.file]
    if args.at:
        mutants = [m for m in mutants if f"{m.file}:{m.line}" in set(args.at)]
    if args.skip_equivalents:
        mutants = [m for m in mutants if not m.equivalent()]
    if args.equivalents_only:
        mutants = [m for m in mutants if m.equivalent()]
    judged: dict[str, bool] = {}  # label -> survived, from the logs of --done
    for log in args.done:
        for row in Path(log).read_text(encoding="utf-8").splitlines():
            hit = re.match(r"\[\d+/\d+\] (killed  |SURVIVED) (.*) \(\d+ s\)$", row)
            if hit:
                judged[hit.group(2)] = hit.group(1) == "SURVIVED"
    if args.sample and args.sample < len(mutants):
        mutants = sorted(random.Random(args.seed).sample(mutants, args.sample), key=lambda m: (m.file, m.line, m.col))
    if args.list:
        for m in mutants:
            print(m.label() + ("  (equivalent)" if m.equivalent() else ""))
        print(f"{len(mutants)} mutants")
        return 0
    # stopped (kill PID): the copy of the project is removed as on Ctrl-C
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    runner = run_tests if args.no_fork or not hasattr(os, "fork") else run_tests_forked
    if runner is run_tests_forked:
        _preload()
    with tempfile.TemporaryDirectory(prefix="daimyo-mutants-") as tmp:
        where = Path(tmp)
        _copy_project(where)
        games = sorted({m.game for m in mutants})
        for game in games:  # the tests must pass unmutated, or every mutant looks killed
            ok, secs = runner(where, game, args.timeout)
            if not ok:
                print(f"the {game} tests fail without any mutant; fix them first", file=sys.stderr)
                return 2
            print(f"baseline {game}: tests pass ({secs:.0f} s)", flush=True)
        killed, survived, times = 0, [], []
        for n, m in enumerate(mutants, start=1):
            if m.label() in judged:
                passed = judged[m.label()]
                survived += [m] if passed else []
                killed += 0 if passed else 1
                print(
                    f"[{n}/{len(mutants)}] {'SURVIVED' if passed else 'killed  '} {m.label()} (earlier run)", flush=True
                )
                continue
            target = where / m.file
            original = target.read_text(encoding="utf-8")
            target.write_text(m.apply(original), encoding="utf-8")
            try:
                passed, secs = runner(where, m.game, args.timeout)
            finally:
                target.write_text(original, encoding="utf-8")
            times.append(secs)
            if passed:
                survived.append(m)
            else:
                killed += 1
            print(f"[{n}/{len(mutants)}] {'SURVIVED' if passed else 'killed  '} {m.label()} ({secs:.0f} s)", flush=True)
    total = len(mutants)
    equivalent = [m for m in survived if m.equivalent()]
    untested = [m for m in survived if not m.equivalent()]
    print(
        f"\nscore: {killed}/{total} mutants killed ({100 * killed / max(total, 1):.1f}%), "
        f"{len(equivalent)} named equivalents survived, {len(untested)} other survivors; "
        f"{sum(times) / max(len(times), 1):.1f} s per mutant"
    )
    for m in equivalent:
        print(f"  equivalent: {m.label()}: {m.equivalent()}")
    for m in untested:
        print(f"  survived: {m.label()}")
    return 0 if not untested else 1


if __name__ == "__main__":
    sys.exit(main())
