"""The message catalogs: up to date with the sources, complete, and read at run time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from builder import i18n

TOP = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tool():
    """``scripts/i18n.py`` as a module, whose messages of the sources are extracted once for the
    two tests below (the extraction reads every source and template of the project)."""
    import functools
    import runpy

    module = runpy.run_path(str(TOP / "scripts" / "i18n.py"))
    extract = functools.cache(module["extract"])
    module["stale_templates"].__globals__["extract"] = extract
    return module


def test_catalogs_are_up_to_date_and_complete(tool, capsys):
    """``python scripts/i18n.py check`` (its ``main``) finds nothing."""
    code = tool["main"](["check"])
    out = capsys.readouterr()
    assert code == 0, out.out[-4000:] + out.err[-2000:]


def test_the_check_finds_a_message_missing_from_the_templates(tmp_path, monkeypatch, tool):
    pot = i18n.LOCALE_DIR / "daimyo.pot"
    catalog = tool["read"](pot)
    assert len(catalog) > 0
    first = next(m for m in catalog if m.id)
    catalog.delete(first.id, first.context)
    assert first.id not in {m.id for m in catalog}
    broken = tmp_path / "daimyo.pot"
    broken.write_bytes(tool["pot_text"](catalog))
    monkeypatch.setitem(tool["stale_templates"].__globals__, "LOCALE_DIR", tmp_path)
    for domain in i18n.DOMAINS:
        if domain != "daimyo":
            (tmp_path / f"{domain}.pot").write_bytes((i18n.LOCALE_DIR / f"{domain}.pot").read_bytes())
    found = tool["stale_templates"]()
    assert any("daimyo.pot: lacks" in line for line in found), found


@pytest.mark.parametrize(
    ("header", "want"),
    [("", "en"), ("*", "en"), ("xx-YY", "en"), ("en-GB,en;q=0.9", "en"), ("zz;q=0", "en")],
)
def test_accept_language_falls_back_to_english(header, want):
    assert i18n.language_from_header(header) == want


def test_a_language_is_chosen_from_the_environment_in_order():
    env = {"LANG": "xx_XX.UTF-8", "LC_MESSAGES": "", "LC_ALL": "C"}
    assert i18n.language_from_env(env) == "en"
    for lang in i18n.available()[1:]:
        assert i18n.language_from_env({"LANG": f"{lang}_XX.UTF-8"}) == lang
        assert i18n.language_from_env({"LANG": "en_GB.UTF-8", "DAIMYO_LANG": lang}) == lang
        assert i18n.language_from_env({"LC_ALL": f"{lang}.UTF-8", "LANG": "en_US"}) == lang


def test_the_pseudo_locale_brackets_and_keeps_placeholders():
    with i18n.use(i18n.PSEUDO):
        out = i18n._("Total {points} of %(limit)s points")
    assert out.startswith("[") and out.endswith("]")
    assert "{points}" in out and "%(limit)s" in out
    assert "Ŧöŧàl" in out
    assert i18n._("Total") == "Total"  # outside the block: English again


def test_an_unknown_language_prints_english_and_a_note(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "builder", "--lang", "xx", "--version"], capture_output=True, text=True, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("daimyo ")
    assert "no translation for language 'xx'; using English" in out.stderr


COMPLETE = ("es", "fr")  # the languages that ship every domain


def test_spanish_and_french_ship_every_domain_that_has_messages():
    import runpy

    tool = runpy.run_path(str(TOP / "scripts" / "i18n.py"))
    missing = []
    for domain in i18n.DOMAINS:
        template = tool["read"](i18n.LOCALE_DIR / f"{domain}.pot")
        if not any(m.id for m in template):
            continue
        for lang in COMPLETE:
            if not (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").is_file():
                missing.append(f"{lang}/{domain}.po")
    assert not missing, missing


def test_the_command_line_and_the_findings_ship_in_spanish_french_and_japanese():
    for lang in COMPLETE:
        for domain in ("daimyo", "findings"):
            assert (i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po").is_file(), (lang, domain)
    for domain in ("daimyo", "findings"):
        assert (i18n.LOCALE_DIR / "ja" / "LC_MESSAGES" / f"{domain}.po").is_file(), domain
