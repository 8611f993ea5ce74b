"""The ratchet on ``mypy --strict`` (``benchmarks/mypy_strict.py``, run by ``.ci/run``): more
errors than recorded fail, as many pass, fewer pass and ask for the new number. The mypy run
itself is the CI step's; these read its output as mypy writes it."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ratchet():
    spec = importlib.util.spec_from_file_location("mypy_strict", ROOT / "benchmarks" / "mypy_strict.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_one_error_more_than_recorded_fails_naming_both_numbers():
    code, message = _ratchet().verdict(2001, 2000)
    assert code == 1
    assert "2001 errors, more than the 2000 recorded" in message


def test_as_many_as_recorded_passes():
    assert _ratchet().verdict(2000, 2000) == (0, "mypy --strict: 2000 errors, as recorded")


def test_fewer_than_recorded_passes_and_asks_for_the_new_number():
    code, message = _ratchet().verdict(1999, 2000)
    assert code == 0
    assert "--record" in message


def test_the_count_is_read_from_mypys_summary_line():
    r = _ratchet()
    out = "builder/x.py:1: error: Function is missing a type annotation  [no-untyped-def]\n"
    assert r.errors_in(out + "Found 2889 errors in 180 files (checked 212 source files)\n", 1) == 2889
    assert r.errors_in("Found 1 error in 1 file (checked 212 source files)\n", 1) == 1
    assert r.errors_in("Success: no issues found in 212 source files\n", 0) == 0


def test_a_run_without_a_count_is_an_error_not_zero():
    import pytest

    with pytest.raises(SystemExit, match="without a count"):
        _ratchet().errors_in("mypy: error: Cannot find config\n", 2)


def test_the_recorded_number_is_a_whole_number():
    assert _ratchet().recorded() >= 0
