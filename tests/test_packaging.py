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


def test_wheel_carries_each_catalog_file_once_each_games_folder_in_its_package(wheel):
    """Each game's catalog/<id>/ is package data of its game package (builder/games/<id>/data/),
    rulebooks.yaml stays in builder/_data/catalog/; every file of catalog/ is in the wheel once,
    with the same bytes, and no YAML file is there twice."""
    whl = zipfile.ZipFile(wheel)
    want = {}
    for path in sorted((ROOT / "catalog").rglob("*")):
        if path.is_file():
            rel = path.relative_to(ROOT / "catalog")
            system, *rest = rel.parts
            inside = f"builder/games/{system}/data/{'/'.join(rest)}" if rest else f"builder/_data/catalog/{system}"
            want[inside] = path.read_bytes()
    assert len(want) >= 33 and "builder/_data/catalog/rulebooks.yaml" in want
    for system in SYSTEMS:
        assert any(n.startswith(f"builder/games/{system}/data/") for n in want), system
    yaml = [n for n in whl.namelist() if n.endswith(".yaml")]
    carried = {n: whl.read(n) for n in yaml if n.startswith(("builder/_data/catalog/", "builder/games/"))}
    assert carried == want
    contents = [whl.read(n) for n in yaml]
    twice = [n for n in yaml if contents.count(whl.read(n)) > 1]
    assert twice == [], twice
    assert not any(n.startswith("builder/_data/catalog/") and n.count("/") > 3 for n in whl.namelist())


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
        [
            str(py),
            "-c",
            "import sys, builder.paths as p, builder.systems as s; print(p.data_root());"
            f" print(*[s.catalog_folder(g) for g in {list(SYSTEMS)!r}], sep='\\n'); print(*sys.path, sep='\\n')",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.returncode == 0, where.stderr
    data_root, *folders = where.stdout.splitlines()
    folders, path = folders[: len(SYSTEMS)], folders[len(SYSTEMS) :]
    assert Path(data_root).is_relative_to(venv), where.stdout
    for system, folder in zip(SYSTEMS, folders, strict=True):  # each game's data in its own package
        assert Path(folder).is_relative_to(venv) and Path(folder).parts[-4:] == ("builder", "games", system, "data")
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

    # where an entry was written reads as in the source tree, and each game's i18n/ is found
    shown = {}
    for args in (["catalog", "show", "kensei", "Samurai Yari"], ["catalog", "show", "senji", "Shikoku"]):
        installed = subprocess.run(
            [str(venv / "bin" / "daimyo"), *args], cwd=elsewhere, env=env, capture_output=True, text=True
        )
        here = subprocess.run(
            [sys.executable, "-m", "builder", *args], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert installed.returncode == here.returncode == 0, installed.stderr + here.stderr
        assert installed.stdout == here.stdout, installed.stdout
        shown[args[2]] = installed.stdout
    assert "  defined in: the daimyo catalog (kensei/troops.yaml, line " in shown["kensei"]
    assert "  defined in: the daimyo catalog (senji/provinces.yaml, line 9)" in shown["senji"]
    langs = subprocess.run(
        [str(py), "-c", "from builder.catalog.overlay import languages as l; print(l('kensei'), l('senji'))"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert langs.stdout.split() == ["['es']", "['fr']"], langs.stdout + langs.stderr
