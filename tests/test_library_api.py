"""The public Python API: ListEditor, why (compare), options, and the names exported by ``builder``."""

import json
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import builder
from builder.lists.editor import ListChangedError, ListEditor, NothingToUndo, edit_file

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def work(tmp_path):
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    for p in (ROOT / "examples").glob("*.yaml"):
        shutil.copy(p, tmp_path / p.name)
    return tmp_path


# -- the package ----------------------------------------------------------------------------


def test_import_builder_loads_no_library_module():
    code = (
        "import sys, builder; print(','.join(m for m in ('builder.api', 'builder.lists.editor', "
        "'builder.lists.options', 'builder.check', 'pydantic', 'ruamel.yaml') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_every_exported_name_resolves_and_has_a_docstring():
    for name in builder.__all__:
        value = getattr(builder, name)
        if name in ("__version__", "SYSTEMS"):
            continue
        assert (getattr(value, "__doc__", None) or "").strip(), name
    with pytest.raises(AttributeError):
        builder.no_such_name  # noqa: B018


def test_exported_names_are_not_shadowed_by_submodules():
    """Importing ``builder.X`` would replace an exported ``X``; only ``check`` is both (a callable module)."""
    pkg = ROOT / "builder"
    for name in builder.__all__:
        if name != "check":
            assert not (pkg / f"{name}.py").exists() and not (pkg / name).is_dir(), name


def test_check_is_callable_whether_or_not_the_module_was_imported(work):
    import builder.check as module

    assert builder.check(work / "kensei-buke.yaml").legal
    assert module(work / "kensei-buke.yaml").legal
    assert module.check_file(work / "kensei-buke.yaml").legal


def test_find_system_by_id_name_and_alias():
    assert builder.find_system("satsuma").id == "satsuma"
    assert builder.find_system("Satsuma Rebellion").id == "satsuma"
    assert builder.find_system("hero-card").id == "herocard"
    assert builder.find_system("KENSEI").kind == "army"
    with pytest.raises(builder.UsageError, match="did you mean 'senji'"):
        builder.find_system("senjy")


def test_export_and_import_round_trip_through_a_share_code(work):
    ed = ListEditor.open(work / "herocard-samurai.yaml")
    code = builder.export(ed, to="code")
    assert code.startswith("DMY1-") and "\n" not in code
    back = builder.import_(code, base_dir=work)
    assert back.system == "herocard" and back.import_notes == []
    assert back.doc.data["deck"] == ed.doc.data["deck"]
    assert builder.export(back, to="text") == builder.export(ed, to="text")
    elsewhere = builder.import_(code, base_dir=work / "packs")
    assert elsewhere.import_notes == [
        "<code>: warning: pack 'packs/herocard-example.yaml' not found here; left out of the list"
    ]
    assert "packs" not in elsewhere.doc.data


def test_render_pdf_prints_the_editor_text_not_the_file(work):
    pytest.importorskip("pypdf")
    from pypdf import PdfReader

    ed = ListEditor.open(work / "kensei-buke.yaml")
    ed.set("name", "Unsaved name")
    out = builder.render_pdf(ed, work / "roster.pdf")
    text = "".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Unsaved name" in text
    assert "Unsaved name" not in (work / "kensei-buke.yaml").read_text()
    assert not list(work.glob(".daimyo-*"))  # the temporary copy is gone


# -- ListEditor -----------------------------------------------------------------------------------


def test_editor_add_undo_redo_and_save_keep_comments(work):
    path = work / "kensei-buke.yaml"
    original = path.read_text()
    ed = ListEditor.open(path)
    v0 = ed.version
    change = ed.add("Samurai Yari", models=4)
    assert change.notes == ["added 4 Samurai Yari"]
    assert change.comparison.adds["points"] == 20
    breaks = {f.code: f for f in change.breaks}
    assert set(breaks) == {"kensei.points-max", "kensei.units-max"}  # 220 AP > 200 AP; 5 units > 4
    assert breaks["kensei.points-max"].value == 220 and breaks["kensei.points-max"].bound == 200
    assert ed.version != v0 and ed.can_undo
    ed.undo()
    assert ed.text == original and ed.version == v0 and ed.can_redo
    ed.redo()
    ed.set("points", "300")
    assert [f.code for f in ed.check().findings if f.severity == "error"] == ["kensei.leaders-min"]
    ed.save()
    text = path.read_text()
    assert "# general, 20 AP" in text and "# Buke vanguard" in text  # comments kept
    assert "points: 300" in text and text.count("Samurai Yari") == 2
    with pytest.raises(NothingToUndo):
        ListEditor.open(path).undo()


def test_editor_refuses_a_bad_edit_and_keeps_the_list(work):
    ed = ListEditor.open(work / "kensei-buke.yaml")
    before = ed.text
    with pytest.raises(builder.UsageError, match=r"unknown troop 'Samurai Yar'.*did you mean 'Samurai Yari'"):
        ed.add("Samurai Yar")
    with pytest.raises(builder.UsageError, match="points must be a whole number"):
        ed.set("points", "many")
    assert ed.text == before and not ed.can_undo


def test_save_refuses_a_file_changed_on_disk(work):
    path = work / "senshiai-northern-host.yaml"
    ed = ListEditor.open(path)
    ed.add("Warriors")
    path.write_text(path.read_text() + "# edited elsewhere\n")
    assert ed.changed_on_disk()
    with pytest.raises(ListChangedError, match="changed on disk since it was read"):
        ed.save()
    assert path.read_text().endswith("# edited elsewhere\n")
    ed.save(force=True)
    assert not ed.changed_on_disk()


def test_write_list_refuses_a_file_that_changed_and_leaves_no_temporary_file(work):
    from builder.lists.editor import write_list

    path = work / "kensei-buke.yaml"
    ed = ListEditor.open(path)
    seen = ed.version
    ed.set("points", "300")
    path.write_text(path.read_text() + "# edited elsewhere\n")
    with pytest.raises(ListChangedError, match="changed on disk since it was read"):
        write_list(path, ed.text, seen)
    assert path.read_text().endswith("# edited elsewhere\n")
    assert not [p.name for p in work.iterdir() if p.name.endswith(".tmp")]
    now = ListEditor.open(path).version
    write_list(path, ed.text, now)
    assert path.read_text() == ed.text


def test_save_as_refuses_an_existing_file_without_force(work):
    ed = ListEditor.open(work / "kensei-buke.yaml")
    with pytest.raises(builder.DaimyoError, match="file exists"):
        ed.save(work / "kensei-kuge.yaml")
    ed.save(work / "copy.yaml")
    assert (work / "copy.yaml").read_text() == ed.text


def test_concurrent_edits_lose_nothing(work):
    path = work / "senshiai-northern-host.yaml"
    before = builder.check(path).summary["cards"]
    errors = []

    def adder(card):
        try:
            for _ in range(10):
                edit_file(path, lambda ed: ed.add(card))
        except Exception as exc:  # pragma: no cover - shown by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=adder, args=(c,)) for c in ("Warriors", "Capital of the North")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert builder.check(path).summary["cards"] == before + 20


def test_editor_from_text_and_new(work):
    ed = ListEditor.from_text("system: senshiai\nsize: 2\ncards: {}\n", base_dir=work)
    ed.add("Warriors", 2)
    assert ed.check().summary["cards"] == 2
    ed2, notes = ListEditor.new("herocard", work / "h.yaml", hero="Samurai", packs=["packs/herocard-example.yaml"])
    assert notes[0].startswith("attributes: the Samurai's Warrior's Strength")
    ed2.save()
    assert builder.check(work / "h.yaml").system == "herocard"


def test_set_hero_replaces_the_attribute_cards_or_says_why_not(work, cli):
    hero = work / "herocard-samurai.yaml"
    r = cli("set", hero, "hero", "Ninja")
    assert r.code == 0
    assert (
        "the attribute cards stay (Warrior's Strength, Scholar's Wisdom, Honor's Power: the Samurai's cards): "
        "the catalog has no Body, Mind and X cards for the Ninja"
    ) in r.stdout
    cli("remove", hero, "Honor's Power")
    r = cli("set", hero, "hero", "Samurai")
    assert (
        "attributes: the Samurai's Warrior's Strength, Scholar's Wisdom, Honor's Power "
        "(replacing Warrior's Strength, Scholar's Wisdom)"
    ) in r.stdout
    assert "attributes: [Warrior's Strength, Scholar's Wisdom, Honor's Power]" in hero.read_text()


def test_add_over_a_count_limit_says_so_at_once(work, cli):
    hero = work / "herocard-samurai.yaml"
    r = cli("add", hero, "Overhand Thrust", "--count", "4")
    lines = r.stdout.splitlines()
    assert lines[0] == "added 4 Overhand Thrust (7 in the action deck)"
    check_line = next(x.strip() for x in cli("check", hero).stdout.splitlines() if "herocard.copies-max" in x)
    assert lines[1] == check_line  # the line 'check' prints, right after the addition
    assert check_line.startswith(f"{hero}:11:3: error herocard.copies-max: 7 copies of 'Overhand Thrust' > 6")


# -- why -------------------------------------------------------------------------------------------


def test_why_compares_before_and_after(work):
    ed = ListEditor.open(work / "kensei-buke.yaml")
    res = ed.why("Taisho Buke")
    assert not res.ok
    assert {b.finding.code for b in res.breaks} == {
        "kensei.unique-max",
        "kensei.points-max",
        "kensei.general-ambiguous",
    }
    assert res.breaks[0].finding.loc == res.target  # the added entry's own rules first
    assert res.adds["points"] == 20 and res.adds["leaders"] == 1
    assert ed.text == (work / "kensei-buke.yaml").read_text()  # why changes nothing
    ed.set("points", "150")  # now over the battle size: removing a unit fixes it
    change = ed.remove("Yumi Samurai")
    assert "kensei.points-max" in change.comparison.fixes
    assert change.comparison.adds["points"] == -60


def test_why_generic_on_any_two_results(work):
    before = builder.check(work / "senshiai-northern-host.yaml")
    ed = ListEditor.open(work / "senshiai-northern-host.yaml")
    ed.set("size", "51")
    after = ed.check()
    res = builder.why(before, after)
    assert not res.ok and res.breaks[0].finding.code == "senshiai.deck-size"
    assert res.breaks[0].before is None
    assert json.loads(json.dumps(res.to_json()))["breaks"][0]["code"] == "senshiai.deck-size"


# -- options ---------------------------------------------------------------------------------------


def test_options_kensei_costs_left_and_reasons(work):
    ed = ListEditor.open(work / "kensei-buke.yaml")
    ed.set("points", "400")
    rows = {o.name: o for o in builder.options(ed)}
    assert len(rows) == len(ed.catalog.entries("troops"))
    yari = rows["Samurai Yari"]
    assert yari.ok and yari.cost == 15 and yari.count == 3 and yari.left == 185 and yari.unit == "AP"
    taisho = rows["Taisho Buke"]
    assert not taisho.ok and taisho.code == "kensei.unique-max"
    assert taisho.reason.startswith("Taisho Buke: 2 models of a unique profile > 1")
    assert rows["Onna-Bushi"].code == "kensei.wrong-clan"
    assert rows["Hero Kuge Naginata"].origin == "catalog"


def test_options_filters(work):
    ed = ListEditor.open(work / "kensei-buke.yaml")
    names = [o.name for o in builder.options(ed, search="SAMURAÏ")]  # case and accents ignored
    assert names and all("samurai" in n.lower() for n in names)
    cheap = builder.options(ed, max_cost=15)
    assert all(o.cost is None or o.cost <= 15 for o in cheap)  # the catalog lacks some costs
    assert {o.name for o in cheap} >= {"Samurai Yari", "Peasants"} and "Yumi Samurai" not in {o.name for o in cheap}
    assert {o.kind for o in builder.options(ed, type="Skirmisher")} == {"skirmisher"}
    assert all(o.ok for o in builder.options(ed, only_ok=True))


@pytest.mark.parametrize("name", ["kensei-kuge", "senshiai-northern-host", "herocard-samurai", "satsuma-samurai"])
def test_options_agree_with_why(work, name):
    ed = ListEditor.open(work / f"{name}.yaml")
    rows = builder.options(ed)
    assert rows
    for o in rows[:12]:
        if o.code == "edit":
            continue
        res = ed.why(o.name, models=o.count) if ed.system == "kensei" else ed.why(o.name)
        assert res.ok == o.ok, o
        if not o.ok:
            assert o.code in {b.finding.code for b in res.breaks}


def test_options_herocard_attribute_and_copies(work):
    ed = ListEditor.open(work / "herocard-samurai.yaml")
    rows = {o.name: o for o in builder.options(ed)}
    assert rows["Overhand Thrust"].left == 6 - 4 and rows["Overhand Thrust"].unit == "copies"
    assert rows["Iron Body"].code == "herocard.hero-points-max" and rows["Iron Body"].left == -3
    assert rows["Iron Body"].origin.startswith("pack ")


def test_options_command(work, cli):
    r = cli("options", work / "kensei-buke.yaml", "--search", "yari")
    lines = r.stdout.splitlines()
    assert r.code == 0
    assert lines[-1].endswith("can be added")
    assert any(x.startswith("- Samurai Yari") and "no: kensei.points-max" in x for x in lines)
    r = cli("options", work / "satsuma-samurai.yaml", "--format", "json", "--can")
    rows = json.loads(r.stdout)
    assert rows and all(row["ok"] for row in rows)
    r = cli("options", work / "kensei-buke.yaml", "--format", "xml")
    assert r.code == 2 and "unknown format 'xml'" in r.stderr


def test_options_say_what_an_allowed_addition_would_warn_about(work, cli):
    ed = ListEditor.open(work / "herocard-samurai.yaml")
    rows = {o.name: o for o in builder.options(ed)}
    splitter = rows["Heaven Splitter"]  # costs 11 Body; the Samurai's Body score is 9
    assert splitter.ok and splitter.warning.endswith("it can never be played")
    assert rows["Overhand Thrust"].ok and rows["Overhand Thrust"].warning is None
    assert not rows["Iron Body"].ok and rows["Iron Body"].warning is None  # a stopped one says its reason
    r = cli("options", work / "herocard-samurai.yaml", "--search", "heaven")
    assert r.stdout.splitlines()[0].startswith("+ Heaven Splitter")
    assert "warning: 'Heaven Splitter' costs 11 B but the hero's Body score is 9" in r.stdout


def test_the_library_pages_python_example_runs(tmp_path, monkeypatch, capsys):
    import re

    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    code = re.search(r"# Using daimyo from Python.*?```python\n(.*?)```", text, re.S).group(1)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/library.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "['added 4 Samurai Yari'] [] 20"
    assert "Samurai Yari 15 65 False Samurai Yari: 3 units of this profile > 2" in out
    assert out[-1].startswith("False DMY1-")
    assert (tmp_path / "examples" / "kensei-buke.yaml").read_text() == (
        ROOT / "examples" / "kensei-buke.yaml"
    ).read_text()
