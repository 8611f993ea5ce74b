"""`daimyo check` on inputs that are not list documents: one line each, exit code 2."""

import json

import pytest


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "",
            "l.yaml:1:1: error: empty document; a list needs at least 'system:' "
            "(start with 'system: kensei' (or senshiai, herocard, senji, satsuma))",
        ),
        ("- a\n- b\n", "l.yaml:1:1: error: a list document must be a mapping of keys such as 'system:'"),
        (
            "name: x\n",
            "l.yaml:1:1: error: missing required key 'system' (one of senshiai, kensei, herocard, senji, satsuma)",
        ),
        ("system: kensai\n", "l.yaml:1:9: error: unknown system 'kensai' (did you mean 'kensei'?)"),
        (
            "system: kensei\ntroops: [\n",
            "l.yaml:3:1: error: YAML syntax: did not find expected node content "
            "(while parsing a flow node) "
            "(check indentation, colons and quotes on this line or the one before)",
        ),
        (
            "system: satsuma\nhouse_rules: [1]\n",
            "l.yaml:2:14: error: 'house_rules' must be a mapping of rule ids "
            "to values (e.g. house_rules: {cavalry_max_percent: 50})",
        ),
        (
            "system: satsuma\npacks: [nowhere.yaml]\n",
            "l.yaml:2:9: error: pack file 'nowhere.yaml' not found "
            "(not a path relative to the list's folder (.) nor the name of a pack in the packs folders; "
            "'daimyo pack list' shows the packs found and where)",
        ),
        # a name the system cannot even look up is a pack that is not there, not a crash
        (
            "system: satsuma\npacks: ['" + "9" * 300 + "']\n",
            "l.yaml:2:9: error: pack file '" + "9" * 300 + "' not found "
            "(not a path relative to the list's folder (.) nor the name of a pack in the packs folders; "
            "'daimyo pack list' shows the packs found and where)",
        ),
        (
            'system: satsuma\npacks: ["a\\0b"]\n',
            "l.yaml:2:9: error: pack file 'a\\x00b' not found "
            "(not a path relative to the list's folder (.) nor the name of a pack in the packs folders; "
            "'daimyo pack list' shows the packs found and where)",
        ),
    ],
)
def test_unreadable_lists_exit_2_with_one_line(cli, tmp_path, monkeypatch, text, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.yaml").write_text(text)
    res = cli("check", "l.yaml")
    assert res.code == 2
    assert res.stderr.strip() == expected
    assert "Traceback" not in res.stderr + res.stdout


def test_missing_file(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = cli("check", "nope.yaml")
    assert res.code == 2
    assert res.stderr.strip() == "nope.yaml: error: file not found (check the path)"


def test_unknown_format_is_usage_error(cli, tmp_path):
    res = cli("check", "x.yaml", "--format", "xml")
    assert res.code == 2 and "unknown format 'xml'" in res.stderr


def test_unknown_house_rule_is_refused_with_suggestion(cli, tmp_path, monkeypatch):
    from builder.catalog.loader import load_catalog

    rules = load_catalog("satsuma").default_rules()
    if not rules:
        pytest.skip("satsuma has no house rules")
    rule = sorted(rules)[0]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.yaml").write_text(f"system: satsuma\nside: samurai\ndeck: standard\nhouse_rules:\n  {rule}x: 1\n")
    res = cli("check", "l.yaml")
    assert res.code == 2
    assert res.stderr.startswith(f"l.yaml:5:3: error: unknown house rule '{rule}x' for satsuma; did you mean '{rule}'?")


def test_json_output_has_the_contract_keys(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.yaml").write_text("system: satsuma\nside: samurai\ndeck: standard\n")
    res = cli("check", "a.yaml", "--format", "json")
    assert res.code in (0, 1), res
    (obj,) = json.loads(res.stdout)
    assert {"file", "system", "legal", "summary", "house_rules", "findings"} <= set(obj)
    assert obj["file"] == "a.yaml" and obj["system"] == "satsuma"
    assert obj["legal"] == (not any(f["severity"] == "error" for f in obj["findings"]))


def test_one_bad_file_among_good_ones_gives_2_and_still_reports_the_others(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.yaml").write_text("system: satsuma\nside: samurai\ndeck: standard\n")
    (tmp_path / "b.yaml").write_text("system: [\n")
    res = cli("check", "a.yaml", "b.yaml")
    assert res.code == 2
    assert res.stdout.startswith("a.yaml: satsuma")
    assert res.stderr.startswith("b.yaml:")


def test_messages_quoting_line_breaks_stay_one_line(cli, tmp_path, monkeypatch):
    # a form feed or a line separator inside a name would split the message for str.splitlines()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "l.yaml").write_text(
        'system: senshiai\ncards:\n  "War\\u2028riors": x\n  "Mili\\ftiamen": 2\n', encoding="utf-8"
    )
    res = cli("check", "l.yaml")
    assert res.code == 2
    (line,) = res.stderr.splitlines()
    assert line.startswith("l.yaml:3:") and "War\\u2028riors" in line
    (tmp_path / "l.yaml").write_text('system: senshiai\ncards:\n  "Zz\\u2028zz": 2\n', encoding="utf-8")
    res = cli("check", "l.yaml")
    finding = [ln for ln in res.stdout.splitlines() if "unknown card" in ln]
    assert len(finding) == 1 and "Zz\\u2028zz" in finding[0], res.stdout
