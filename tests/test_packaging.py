"""The wheel carries the catalog, templates and examples and works without the source tree."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from builder import SYSTEMS

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow  # builds a wheel and installs it in a new virtual environment


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {proc.stderr.strip().splitlines()[-1:]}")
    (whl,) = out.glob("daimyo-*.whl")
    return whl


def test_wheel_contains_data(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    for system in SYSTEMS:
        assert any(n.startswith(f"builder/_data/catalog/{system}/") and n.endswith(".yaml") for n in names), system
    assert any(n.startswith("builder/_data/examples/") for n in names)
    assert any(n.startswith("builder/kit/fonts/") and n.endswith(".ttf") for n in names)
    for part in (
        "templates/builder.html",
        "templates/workspace.html",
        "static/htmx.min.js",
        "static/app.css",
        "static/app.js",
        "static/htmx.LICENSE.txt",
    ):
        assert f"builder/web/{part}" in names, part


def test_installed_wheel_runs_catalog_check_from_another_folder(wheel, tmp_path):
    """A fresh virtual environment with only the wheel (and its dependencies) installed."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    proc = subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot install the wheel's dependencies here: {proc.stderr.strip().splitlines()[-1:]}")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("DAIMYO_DATA", "PYTHONPATH")}
    env["DAIMYO_CACHE_DIR"] = str(tmp_path / "cache")
    where = subprocess.run(
        [str(py), "-c", "import builder.paths as p; print(p.data_root())"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout
    run = subprocess.run(
        [str(venv / "bin" / "daimyo"), "catalog", "check"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    for system in SYSTEMS:
        assert f"{system}: ok" in run.stdout
    demo = subprocess.run(
        [str(venv / "bin" / "daimyo"), "demo", "--out", "pdfs"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert len(list((elsewhere / "pdfs").glob("*.pdf"))) >= 10
    # the example packs inside the wheel are found by name, from any folder
    env["DAIMYO_PACKS"] = str(tmp_path / "no-user-packs")
    (elsewhere / "deck.yaml").write_text(
        "system: senshiai\npacks: [senshiai-example]\ncards: {Capital of the North: 1}\n"
    )
    run = subprocess.run(
        [str(venv / "bin" / "daimyo"), "check", "deck.yaml"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "packs: Senshiai example cards 1 (" in run.stdout
    run = subprocess.run(
        [str(venv / "bin" / "daimyo"), "pack", "list"], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0 and "(bundled) senshiai-example.yaml  (wins)" in run.stdout, run.stdout + run.stderr
