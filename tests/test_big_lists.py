"""Edits of big lists: the text changes where the edit is, everything else is kept, and no
round trip of the whole document is needed (edits stay linear in the list's size)."""

import shutil

import pytest

from builder.lists import splice
from builder.lists.editor import ListEditor

from conftest import ROOT

TROOPS = ["Samurai Yari", "Yari Ashigaru", "Samurai Dai-Katana", "Yumi Samurai"]


def kensei_text(n: int) -> str:
    lines = [
        "# a big army\nsystem: kensei\nname: Big   # the name\nclan: buke\npoints: 200\ncommander: hatamoto\n",
        "troops:\n  - troop: Taisho Buke   # the general\n",
    ]
    for i in range(n):
        lines.append(f"  # unit {i}\n  - troop: {TROOPS[i % 4]}\n    models: {3 + i % 4}\n")
    lines.append("# the end\n")
    return "".join(lines)


def senshiai_text(n: int) -> str:
    """A deck with ``n`` invented lines (no catalog card: the check reports them) and the
    example pack's cards under comment headings."""
    out = [
        "system: senshiai\nname: Big deck\npacks: [packs/senshiai-example.yaml]\nsize: 50\ncards:\n",
        "  Capital of the North: 1\n  # terrains\n  Rice Fields: 4\n  Fishing Harbor: 3\n  # troops\n  Warriors: 6\n",
    ]
    out += [f"  Invented card {i}: 1\n" for i in range(n)]
    out.append("  # events\n  War Veterans: 4\n")
    return "".join(out)


@pytest.fixture
def no_round_trip(monkeypatch):
    """Fail when an edit reads the whole document into a round-trip tree."""

    def refuse(self):
        raise AssertionError("the whole list was read into a round-trip tree")

    monkeypatch.setattr(ListEditor, "_tree", refuse)


def test_kensei_add_remove_set_on_a_big_list_change_only_their_lines(tmp_path, no_round_trip):
    text = kensei_text(2000)
    assert len(text) > splice.MIN_CHARS
    f = tmp_path / "army.yaml"
    f.write_text(text, encoding="utf-8")
    ed = ListEditor.open(f)
    change = ed.add("samurai yari", models=5)
    assert change.notes == ["added 5 Samurai Yari"]
    # appended after the last item, before the comment that closes the file; nothing else moved
    assert ed.text == text.replace("# the end\n", "  - troop: Samurai Yari\n    models: 5\n# the end\n")
    ed.remove("Yumi Samurai")  # its last entry (unit 1999): the lines go, the comment above stays
    assert "  # unit 1999\n  - troop: Samurai Yari\n    models: 5\n# the end\n" in ed.text
    assert ed.text.count("Yumi Samurai") == text.count("Yumi Samurai") - 1
    ed.set("points", "400")
    ed.set("commander", "taisho")
    assert ed.text.startswith(
        "# a big army\nsystem: kensei\nname: Big   # the name\nclan: buke\npoints: 400\ncommander: taisho\n"
    )
    ed.set("name", "Bigger")
    assert "name: Bigger   # the name\n" in ed.text
    ed.save()
    assert f.read_text(encoding="utf-8") == ed.text
    assert len(ed.data["troops"]) == 2001


def test_senshiai_counts_on_a_big_deck(tmp_path, no_round_trip):
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    text = senshiai_text(1500)
    f = tmp_path / "deck.yaml"
    f.write_text(text, encoding="utf-8")
    ed = ListEditor.open(f)
    ed.add("warriors", 2)  # more copies on its line
    assert "  # troops\n  Warriors: 8\n  Invented card 0: 1\n" in ed.text
    ed.add("Mountain Pass", 2)  # a new terrain: after the last terrain, before the next heading
    assert "  Fishing Harbor: 3\n  Mountain Pass: 2\n  # troops\n" in ed.text
    ed.remove("Capital of the North")  # the line goes; the heading below stays
    assert ed.text.startswith(text[: text.index("cards:\n") + 7] + "  # terrains\n  Rice Fields: 4\n")
    ed.remove("War Veterans", None)
    assert ed.text.endswith("  Invented card 1499: 1\n  # events\n")
    assert ed.data["cards"]["Warriors"] == 8 and "Capital of the North" not in ed.data["cards"]


# Every edit of the example lists, done in place and by a round trip of the whole document,
# gives the same list.
EDITS = {
    "kensei-buke": [
        ("add", ("Samurai Yari",), {"models": 4}),
        ("remove", ("Yumi Samurai",), {}),
        ("set", ("points", "300"), {}),
        ("set", ("occult", "true"), {}),
        ("set", ("name", "Renamed: a list"), {}),
        ("add", ("Taisho Buke",), {}),
    ],
    "kensei-kuge": [("add", ("Yari Ashigaru",), {"models": 6}), ("set", ("commander", "taisho"), {})],
    "senshiai-northern-host": [
        ("add", ("Warriors",), {}),
        ("add", ("Mountain Pass",), {"count": 1}),
        ("remove", ("Capital of the North",), {}),
        ("remove", ("Warriors",), {"count": None}),
        ("set", ("size", "60"), {}),
        ("set", ("size", "none"), {}),
    ],
    "herocard-samurai": [
        ("add", ("Overhand Thrust",), {}),
        ("remove", ("Forfeiture",), {"count": None}),
        ("set", ("max_hero_points", "35"), {}),
    ],
    "satsuma-samurai": [("set", ("name", "Rebels 'n' friends"), {})],
    "senji-three-daimyo": [("add", ("Kyushu",), {"player": "Aiko"}), ("remove", ("Dewa",), {})],
}


@pytest.mark.parametrize("example", sorted(EDITS))
def test_in_place_edits_give_the_list_a_round_trip_gives(example, tmp_path, monkeypatch):
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    f = tmp_path / f"{example}.yaml"
    shutil.copy(ROOT / "examples" / f"{example}.yaml", f)
    results = {}
    for limit in (0, 10**9):  # in place wherever it can be; never
        monkeypatch.setattr(splice, "MIN_CHARS", limit)
        ed = ListEditor.open(f)
        seen = []
        for method, args, kwargs in EDITS[example]:
            getattr(ed, method)(*args, **kwargs)
            seen.append(ed.data)
        results[limit] = seen
    assert results[0] == results[10**9]


def test_in_place_edits_are_used_for_the_examples(tmp_path, monkeypatch, no_round_trip):
    """Where the text allows (block style), the examples are edited in place too."""
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    monkeypatch.setattr(splice, "MIN_CHARS", 0)
    f = tmp_path / "army.yaml"
    shutil.copy(ROOT / "examples" / "kensei-buke.yaml", f)
    before = f.read_text(encoding="utf-8")
    ed = ListEditor.open(f)
    ed.add("Yari Ashigaru", models=6)
    ed.set("points", "300")
    assert ed.text == before.replace("points: 200", "points: 300") + "  - troop: Yari Ashigaru\n    models: 6\n"
    assert [c for c in before.splitlines() if "#" in c] == [c for c in ed.text.splitlines() if "#" in c]


def test_a_list_whose_share_code_no_qr_code_holds_still_prints(cli, tmp_path):
    """A deck of 2,000 lines has a share code of about 6,000 characters, more than the largest
    QR code holds: the printout leaves the code off instead of failing."""
    from builder.kit.printbounds import QR_MAX_BYTES

    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    f = tmp_path / "deck.yaml"
    f.write_text(senshiai_text(2000), encoding="utf-8")
    code = cli("export", f, "--to", "code")
    assert len(code.stdout.strip()) > QR_MAX_BYTES
    r = cli("print", f, "-o", tmp_path / "deck.pdf")
    assert r.code == 0, r
    assert (tmp_path / "deck.pdf").read_bytes().startswith(b"%PDF")


def test_suggestions_for_unknown_names_are_computed_once_per_name(tmp_path, monkeypatch):
    """An edit reads and checks a list several times; the "did you mean" of each unknown name
    is computed once (a comparison with every catalog name), so a deck of thousands of unknown
    lines stays linear and quick to edit."""
    import builder.catalog.loader as loader

    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    f = tmp_path / "deck.yaml"
    f.write_text(senshiai_text(300), encoding="utf-8")
    calls = []
    real = loader.did_you_mean
    monkeypatch.setattr(loader, "did_you_mean", lambda name, cands: calls.append(name) or real(name, cands))
    ed = ListEditor.open(f)
    ed.add("Warriors")
    ed.add("Warriors")
    assert len(calls) == len(set(calls)) and len(set(calls)) >= 300


def test_comparing_checks_of_thousands_of_errors_is_linear():
    """An edit compares the check before and after; errors are matched by code and place
    through a lookup, not a search per error (thousands of errors: their square)."""
    from builder.findings import CheckResult, Finding
    from builder.lists.compare import compare

    compared = [0]

    class Place(tuple):
        def __eq__(self, other):
            compared[0] += 1
            return tuple.__eq__(self, other)

        __hash__ = tuple.__hash__

    def placed(f, loc):
        f.loc = Place(loc)  # after the finding made its place a plain tuple
        return f

    def result(n, extra=()):
        found = [
            placed(Finding("error", "senshiai.unknown-card", f"unknown card 'C{i}'"), ("cards", f"C{i}"))
            for i in range(n)
        ] + list(extra)
        return CheckResult(file="x", system="senshiai", name=None, summary={}, house_rules={}, findings=found)

    n = 2000
    new = placed(Finding("error", "senshiai.deck-max", "too many"), ("cards",))
    c = compare(result(n), result(n, [new]), ("cards", "Warriors"))
    assert [b.finding.code for b in c.breaks] == ["senshiai.deck-max"] and len(c.still) == n
    assert compared[0] < 10 * n  # a search per error compares about n * n / 2 places


def test_show_reads_a_plain_list_once_without_the_yaml_library(cli, tmp_path, monkeypatch):
    """``show`` of a list written in the plain subset of YAML reads it once with the reader
    ``check`` uses (not the YAML library, many times slower on a long army), and each troop
    name is looked up and written once however many units name it."""
    import builder.lists.document as document
    import builder.names as names
    from builder import yamlio

    f = tmp_path / "army.yaml"
    f.write_text(kensei_text(400), encoding="utf-8")
    reads, yaml_parses = [], []
    real_simple, real_yaml = document._parse_simple, yamlio.parse_yaml
    monkeypatch.setattr(document, "_parse_simple", lambda text, file: (reads.append(file), real_simple(text, file))[1])
    monkeypatch.setattr(
        yamlio, "parse_yaml", lambda text, *a, **k: (yaml_parses.append(text[:40]), real_yaml(text, *a, **k))[1]
    )
    r = cli("show", f)
    assert r.code == 1, r  # far over 200 AP
    assert r.stdout.count("x Samurai Yari (") == 100 and "ILLEGAL" in r.stdout
    assert reads == [str(f)], "the list was read more than once"
    assert not [t for t in yaml_parses if "a big army" in t], "the list went through the YAML library"
    # a list the plain reader leaves to the YAML library (a flow-style list) is read once too
    deck = tmp_path / "deck.yaml"
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    deck.write_text(senshiai_text(50), encoding="utf-8")
    yaml_parses.clear()
    r3 = cli("show", deck)
    assert r3.code == 1 and "Invented card 49" in r3.stdout, r3
    assert len([t for t in yaml_parses if t.startswith("system: senshiai\nname: Big deck")]) == 1, yaml_parses
    names._normalize_memo.cache_clear()
    before = names._normalize_memo.cache_info()
    r2 = cli("show", f)
    assert r2.stdout == r.stdout
    info = names._normalize_memo.cache_info()
    assert info.misses - before.misses < 200, "names were normalised again for every unit"


EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_show_prints_what_the_yaml_library_reading_prints(cli, example, monkeypatch, tmp_path):
    """The output of ``show`` is the same whether the list is read with the plain-subset
    reader or with the YAML library: the example lists, and the same lists re-written with
    quoted names, comments after values and a flow-style list (which only the YAML library
    reads)."""
    import builder.lists.document as document

    variant = tmp_path / example.name
    text = example.read_text(encoding="utf-8")
    lines = []
    for ln in text.splitlines():
        key, sep, value = ln.partition(": ")
        if (
            sep
            and value
            and "{" not in ln
            and not value.startswith(("[", "|", ">", '"', "'", "#"))
            and "#" not in value
            and not value.strip().lstrip("-").isdigit()
            and value.strip() not in ("true", "false")
        ):
            ln = f'{key}: "{value}"  # quoted'
        lines.append(ln)
    variant.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shutil.copytree(ROOT / "examples" / "packs", tmp_path / "packs")
    for f in (example, variant):
        fast = cli("show", f)
        monkeypatch.setattr(document, "parse_plain", lambda text, file="<list>": None)
        monkeypatch.setattr(document, "_parse_simple", lambda text, file: None)
        slow = cli("show", f)
        monkeypatch.undo()
        assert (fast.code, fast.stdout, fast.stderr) == (slow.code, slow.stdout, slow.stderr), f
        assert fast.code in (0, 1), fast
