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
    import importlib.util

    out = tmp_path_factory.mktemp("wheel")
    # the build backend installed here (the test extras): no isolated build environment to set up
    here = ["--no-build-isolation"] if importlib.util.find_spec("hatchling") else []
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *here, "-q", "-w", str(out), str(ROOT)],
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
    """A fresh virtual environment with only the wheel installed. Its dependencies are the ones
    installed here (a .pth file puts this environment's site-packages folder after the new one's
    own; the .pth files in that folder, among them the one of the editable install that puts the
    source tree on the path, are not read), and ``pip check`` shows they meet the wheel's
    requirements: the same test as installing them again, without a copy of each."""
    import sysconfig

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    here = sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
    (Path(purelib) / "_daimyo_test_dependencies.pth").write_text("\n".join(here) + "\n", encoding="utf-8")
    pip = [sys.executable, "-m", "pip", "--python", str(py)]
    proc = subprocess.run([*pip, "install", "--no-deps", "-q", str(wheel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    check = subprocess.run([*pip, "check"], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("DAIMYO_DATA", "PYTHONPATH")}
    env["DAIMYO_CACHE_DIR"] = str(tmp_path / "cache")
    where = subprocess.run(
        [str(py), "-c", "import sys, builder.paths as p; print(p.data_root()); print(*sys.path, sep='\\n')"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.returncode == 0, where.stderr
    data_root, *path = where.stdout.splitlines()
    assert Path(data_root).is_relative_to(venv), where.stdout
    assert str(ROOT) not in path and str(ROOT / "builder") not in path, path  # not the source tree
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
