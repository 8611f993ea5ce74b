"""`add` and `set` print each finding once: what the edit broke (or a warning it brings) is
named at once, and the verdict that follows lists the other findings, not those again."""

from __future__ import annotations

import re
import shutil

from conftest import ROOT

FINDING = re.compile(r"^\s*\S+:\d+:\d+: (error|warning) ")


def findings(out: str) -> list[str]:
    return [ln.strip() for ln in out.splitlines() if FINDING.match(ln)]


def once(out: str) -> list[str]:
    lines = findings(out)
    assert len(lines) == len(set(lines)), out
    return lines


def verdict_count(out: str) -> int:
    m = re.search(r": (?:legal|ILLEGAL) \((\d+) errors?, (\d+) warnings?\)", out)
    assert m, out
    return int(m.group(1)) + int(m.group(2))


def test_kensei_add_names_a_broken_bound_once(cli, tmp_path):
    f = tmp_path / "army.yaml"
    assert cli("new", "kensei", "--clan", "buke", "-o", f).code == 0
    r = cli("add", f, "Samurai Yari", "--models", "16")  # 15 is the most an infantry unit has
    assert r.code == 0, r.stderr
    lines = once(r.stdout)
    big = [ln for ln in lines if "kensei.unit-size-max" in ln]
    assert len(big) == 1 and "16 models > 15" in big[0]
    # named before the verdict, and the verdict still counts it
    head = r.stdout.splitlines()
    assert head.index(big[0]) < next(i for i, ln in enumerate(head) if "ILLEGAL" in ln)
    assert verdict_count(r.stdout) == len(lines) == len(findings(cli("check", f).stdout))


def test_herocard_add_names_a_card_never_played_once(cli, tmp_path):
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    f = tmp_path / "hero.yaml"
    shutil.copy(ROOT / "examples" / "herocard-samurai.yaml", f)
    r = cli("add", f, "Heaven Splitter")  # costs 11 B, the hero's Body score is 9
    assert r.code == 0, r.stderr
    lines = once(r.stdout)
    assert sum("herocard.cost-exceeds-score" in ln for ln in lines) == 1
    assert verdict_count(r.stdout) == len(lines) == len(findings(cli("check", f).stdout))


def test_set_prints_each_finding_once(cli, tmp_path):
    f = tmp_path / "army.yaml"
    assert cli("new", "kensei", "--clan", "buke", "-o", f).code == 0
    assert cli("add", f, "Samurai Yari", "--models", "15").code == 0
    r = cli("set", f, "points", "50")  # 75 AP of troops in a 50 AP battle
    assert r.code == 0, r.stderr
    lines = once(r.stdout)
    assert any("kensei.points-max" in ln for ln in lines)
    assert verdict_count(r.stdout) == len(lines)
