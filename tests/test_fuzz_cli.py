"""Bad input, as a hostile user writes it, through every command.

The promise: whatever the input (broken YAML, unknown names, values of the wrong
type, damaged share codes, missing files, bad options, unreadable packs, binary or
empty files, folders instead of files, huge or negative numbers, odd unicode,
JSON lists instead of mappings, packs of another system), every command ends
with exit 0, 1 or 2, never a traceback and never the internal-error line (exit
70); on exit 2 every line on standard error is one of the one-line forms
``FILE:LINE:COL: error: ...`` (documents) or ``daimyo: error: ...`` (usage).

The documents are mutations of every ``examples/*.yaml`` (hypothesis, with a
fixed seed so that CI runs the same cases; set ``DAIMYO_FUZZ=N`` to run N times
as many random cases) and hand-written nasty cases.
"""

from __future__ import annotations

import base64
import copy
import io
import itertools
import json
import re
import shutil
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, examples

pytestmark = pytest.mark.slow  # thousands of mutated documents through every command

EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
SYSTEMS = ("senshiai", "kensei", "herocard", "senji", "satsuma")
FORMATS = ("text", "markdown", "json", "yaml", "code")
BUKE = ROOT / "examples" / "kensei-buke.yaml"
SAMURAI = ROOT / "examples" / "satsuma-samurai.yaml"


def fuzz_settings(n: int):
    """``n`` examples from a fixed seed in CI; ``DAIMYO_FUZZ=K``: K*n random ones (the profiles of
    conftest.py); every health check is off, since the mutations filter many cases out."""
    return settings(max_examples=examples(n), suppress_health_check=list(HealthCheck))


# -- what every run must look like -------------------------------------------------------------

# FILE:LINE:COL: severity[ CODE]: MESSAGE  (documents) or  daimyo: error: MESSAGE  (usage)
ONE_LINE = re.compile(r"^(daimyo: error: \S.*|.+?(:\d+:\d+)?: (error|warning|info)( [\w.-]+)?: \S.*)$")


def assert_clean(r, what=""):
    both = r.stdout + r.stderr
    context = f"{what}\n{r!r}"[:4000]
    assert r.code in (0, 1, 2), context
    assert "Traceback" not in both, context
    assert "internal error" not in both, context
    if r.code == 2:
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert lines, "exit 2 without a message\n" + context
        for ln in lines:
            assert ONE_LINE.match(ln), f"not a one-line message: {ln!r}\n" + context


def run_clean(cli, *args, input=None, what=""):
    try:
        r = cli(*args, input=input)
    except BaseException as exc:  # the fixture re-raises what the app did not handle
        raise AssertionError(f"daimyo {' '.join(map(str, args))} raised {exc!r}\n{what}"[:4000]) from exc
    assert_clean(r, f"daimyo {' '.join(map(str, args))}\n{what}")
    return r


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A folder with copies of the examples (and their packs) for the mutated documents."""
    d = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(ROOT / "examples" / "packs", d / "packs")
    (d / "out").mkdir()
    return d


_counter = itertools.count()


def write(folder: Path, body: str | bytes, suffix: str = ".yaml") -> Path:
    p = folder / f"f{next(_counter)}{suffix}"
    if isinstance(body, bytes):
        p.write_bytes(body)
    else:
        p.write_text(body, encoding="utf-8", errors="surrogatepass")
    return p


# -- mutations of the examples -----------------------------------------------------------------


def _load(path: Path):
    from builder.yamlio import parse_yaml

    return parse_yaml(path.read_text(encoding="utf-8"), str(path))[0]


def _dump(data) -> str:
    """Block-style YAML: by the C emitter when it takes the text, else (lone surrogates) by the
    pure-Python one, a quarter of the speed."""
    from ruamel.yaml import YAML

    for pure in (False, True):
        y = YAML(typ="safe", pure=pure)
        y.default_flow_style = False
        out = io.StringIO()
        try:
            y.dump(data, out)
        except UnicodeEncodeError:
            continue
        break
    return out.getvalue()


ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, -1, -7, 2.5, -0.5, 10**30, -(10**30), 2**63, 1e300, float("inf"), float("nan")]),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(
        [
            "",
            " ",
            "x",
            "2.5",
            "-3",
            "1e9",
            "yes",
            "null",
            "~",
            "\u202e\u0301",
            "\U0001f600",
            "\u200b",
            "Ｓａｍｕｒａｉ",
            "9" * 400,
            "a" * 2000,
            "\x7f",
            "\t",
            "Samurai Yari",
            "Warriors",
            "standard",
            "samurai",
            "imperial",
            "kensei",
            "senshiai",
            "red",
            "buke",
            "taisho",
            "../../etc/passwd",
            "/dev/null",
            "packs/kensei-profiles.yaml",
            "%s%n{0}",
        ]
    ),
    st.text(max_size=12),
    st.just([]),
    st.just({}),
    st.just([1, "a", None]),
    st.just({"a": None, "b": [2]}),
    st.just([{"troop": "Samurai Yari", "models": -5}]),
    st.just({"Warriors": -3, "Nope": 2.5}),
)

KEYS = st.sampled_from(
    [
        "troops",
        "cards",
        "deck",
        "players",
        "provinces",
        "models",
        "troop",
        "points",
        "size",
        "clan",
        "commander",
        "general",
        "hero",
        "attributes",
        "max_hero_points",
        "side",
        "family",
        "samurai",
        "units",
        "led_by",
        "standard",
        "occult",
        "packs",
        "house_rules",
        "system",
        "name",
        "notes",
        "extra",
        "Models",
        "",
        "3",
    ]
)


def _paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, path + (i,))


def _get(data, path):
    for k in path:
        data = data[k]
    return data


@st.composite
def mutated_document(draw):
    """(example name, mutated text): values swapped, keys deleted or added, shapes wrapped."""
    src = draw(st.sampled_from(EXAMPLES))
    data = copy.deepcopy(_load(src))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(data) if p]
        path = draw(st.sampled_from(paths))
        parent, key = _get(data, path[:-1]), path[-1]
        op = draw(
            st.sampled_from(
                ["replace", "replace", "replace", "delete", "add", "wrap_list", "wrap_map", "as_text", "negate"]
            )
        )
        old = parent[key]
        if op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(KEYS)] = copy.deepcopy(draw(ODD_VALUES))  # st.just gives the same object
        elif op == "wrap_list":
            parent[key] = [old]
        elif op == "wrap_map":
            parent[key] = {"value": old}
        elif op == "as_text":
            parent[key] = str(old)
        elif op == "negate" and isinstance(old, (int, float)) and not isinstance(old, bool):
            parent[key] = -old if old else -1
        else:
            parent[key] = copy.deepcopy(draw(ODD_VALUES))
    shape = draw(st.sampled_from(["yaml", "yaml", "json", "json_list"]))
    if shape == "json":
        text = json.dumps(data, ensure_ascii=draw(st.booleans()), default=str)
    elif shape == "json_list":
        text = json.dumps([data], default=str)
    else:
        text = _dump(data)
    return src.name, text


EDIT_CHARS = list(":-[]{}#&*!|>'\"%@`, \t\n?x9\\\u00e9\U0001f600\x00\x85\u2028\ufeff\r")


@st.composite
def edited_text(draw):
    """(example name, text) with a few random characters inserted, deleted or replaced."""
    src = draw(st.sampled_from(EXAMPLES))
    chars = list(src.read_text(encoding="utf-8"))
    for _ in range(draw(st.integers(1, 5))):
        i = draw(st.integers(0, len(chars)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = draw(st.sampled_from(EDIT_CHARS) | st.characters())
        if op == "insert" or i == len(chars):
            chars.insert(i, ch)
        elif op == "delete":
            del chars[i]
        else:
            chars[i] = ch
    return src.name, "".join(chars)


def _document_commands(path: Path, out: Path, fmt: str):
    return [
        ("check", path, "--format", "json", "--explain", "--strict"),
        ("show", path, "--explain"),
        ("import", path),
        ("export", path, "--to", fmt),
    ]


@fuzz_settings(60)
@given(case=mutated_document(), fmt=st.sampled_from(FORMATS))
def test_mutated_examples_through_every_document_command(cli, work, case, fmt):
    name, text = case
    path = write(work, text)
    for args in _document_commands(path, work / "out", fmt):
        run_clean(cli, *args, what=f"mutation of {name}:\n{text}")


@fuzz_settings(40)
@given(case=edited_text())
def test_character_edits_of_the_examples(cli, work, case):
    name, text = case
    path = write(work, text)
    for args in (("check", path, "--format", "json"), ("show", path), ("export", path, "--to", "code")):
        run_clean(cli, *args, what=f"edit of {name}:\n{text!r}")


PRINT_OPTIONS = st.lists(
    st.sampled_from(
        [
            ("--paper", "letter"),
            ("--paper", "100x100"),
            ("--card", "mini"),
            ("--card", "tarot"),
            ("--card", "50x50"),
            ("--bleed", "3"),
            ("--no-marks",),
            ("--no-backs",),
            ("--duplex", "short"),
            ("--offset", "1,-1"),
            ("--ink-saver",),
            ("--unit-cards",),
            ("--paper", "0x0"),
            ("--card", "-5x9"),
            ("--bleed", "-1"),
            ("--offset", "nan,inf"),
            ("--card", "1e400x3"),
            ("--paper", "letterx"),
            ("--bleed", "nan"),
        ]
    ),
    max_size=3,
)


@fuzz_settings(20)
@given(case=mutated_document(), options=PRINT_OPTIONS)
def test_print_of_mutated_examples(cli, work, case, options):
    name, text = case
    path = write(work, text)
    out = work / "out" / f"p{next(_counter)}.pdf"
    run_clean(
        cli, "print", path, "-o", out, *itertools.chain.from_iterable(options), what=f"mutation of {name}:\n{text}"
    )


# -- shared formats and share codes ------------------------------------------------------------


@pytest.fixture(scope="module")
def exports(work):
    """Every example in every share format (text of stdout), made once."""
    from builder.share.api import export_doc, parse_source_text

    out = {}
    for ex in EXAMPLES:
        imp = parse_source_text(ex.read_text(encoding="utf-8"), str(ex), base_dir=ex.parent)
        for fmt in FORMATS:
            out[(ex.name, fmt)] = export_doc(imp.doc, fmt)
    return out


@fuzz_settings(50)
@given(data=st.data())
def test_damaged_share_codes(cli, exports, data):
    codes = sorted(v for (n, f), v in exports.items() if f == "code")
    code = data.draw(st.sampled_from(codes))
    chars = list(code)
    op = data.draw(st.sampled_from(["replace", "delete", "insert", "truncate", "swap", "prefix"]))
    i = data.draw(st.integers(0, len(chars) - 1))
    if op == "replace":
        chars[i] = data.draw(st.sampled_from(list("AQgw09_-xZ=+/ .~\u00e9")))
    elif op == "delete":
        del chars[i]
    elif op == "insert":
        chars.insert(i, data.draw(st.sampled_from(list("AQgw09_-=+/"))))
    elif op == "truncate":
        chars = chars[:i]
    elif op == "swap" and i + 1 < len(chars):
        chars[i], chars[i + 1] = chars[i + 1], chars[i]
    else:
        chars = list(data.draw(st.sampled_from(["DMY2-", "DMY0-", "XYZ1-", "dmy1-", "DMY1", "DMY1--"]))) + chars[5:]
    damaged = "".join(chars) or "DMY1-"
    for args in (("show", damaged), ("import", damaged), ("show", "-")):
        r = run_clean(cli, *args, input=damaged, what=f"code {damaged!r} from {code!r}")
        if damaged != code and r.code == 0 and args[0] == "import":
            # a damaged code never gives a wrong list: it decodes only to what it held
            assert r.stdout == cli("import", code).stdout, damaged


def _forge(payload: bytes) -> str:
    """A share code with a correct checksum around any payload (what a hostile sender can do)."""
    from builder.share.code import PREFIX

    crc = zlib.crc32(PREFIX.encode("ascii") + payload).to_bytes(4, "little")
    return PREFIX + base64.urlsafe_b64encode(payload + crc).decode("ascii").rstrip("=")


@fuzz_settings(40)
@given(head=st.integers(0, 255), body=st.binary(min_size=0, max_size=40), deflate=st.booleans())
def test_forged_share_codes_with_a_correct_checksum(cli, head, body, deflate):
    if deflate:
        head |= 0x80
        body = zlib.compress(body, 9, wbits=-15)
    code = _forge(bytes([head]) + body)
    for args in (("show", code), ("import", code)):
        run_clean(cli, *args, what=f"forged code {code!r}")


HOSTILE_DOCS = st.one_of(
    st.fixed_dictionaries(
        {
            "system": st.just("kensei"),
            "clan": st.sampled_from(["buke", "zzz", ""]),
            "points": st.integers(),
            "commander": st.sampled_from(["daimyo", "nobody"]),
            "troops": st.lists(
                st.fixed_dictionaries(
                    {"troop": st.sampled_from(["Samurai Yari", "Nobody", "Taisho Buke"]), "models": st.integers()}
                ),
                max_size=3,
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "system": st.just("senshiai"),
            "size": st.integers(),
            "cards": st.dictionaries(st.sampled_from(["Warriors", "Militiamen", "Zzz"]), st.integers(), max_size=3),
        }
    ),
    st.fixed_dictionaries(
        {
            "system": st.just("herocard"),
            "hero": st.text(max_size=8),
            "max_hero_points": st.integers(),
            "deck": st.dictionaries(st.sampled_from(["Overhand Thrust", "Zzz"]), st.integers(), max_size=2),
        }
    ),
    st.fixed_dictionaries(
        {
            "system": st.just("senji"),
            "players": st.lists(
                st.fixed_dictionaries(
                    {
                        "name": st.text(max_size=5),
                        "family": st.sampled_from(["red", "purple"]),
                        "provinces": st.lists(
                            st.fixed_dictionaries(
                                {"province": st.sampled_from(["Owari", "Atlantis"]), "units": st.integers()}
                            ),
                            max_size=4,
                        ),
                    }
                ),
                max_size=7,
            ),
        }
    ),
    st.fixed_dictionaries(
        {
            "system": st.just("satsuma"),
            "side": st.sampled_from(["samurai", "imperial"]),
            "cards": st.dictionaries(st.sampled_from(["Bushido", "Honor", "Zzz"]), st.integers(), max_size=3),
        }
    ),
)


@fuzz_settings(40)
@given(doc=HOSTILE_DOCS, fmt=st.sampled_from(FORMATS))
def test_hostile_values_travel_through_every_share_format(cli, work, doc, fmt):
    """Huge and negative numbers written into a list, exported and read back."""
    path = write(work, json.dumps(doc))
    r = run_clean(cli, "export", path, "--to", fmt, what=json.dumps(doc))
    if r.code == 0:
        shared = write(work, r.stdout, suffix=f".{fmt}")
        for args in (("import", shared), ("show", shared), ("check", path, "--explain")):
            run_clean(cli, *args, what=f"{json.dumps(doc)}\nexported as {fmt}:\n{r.stdout}")


@fuzz_settings(30)
@given(data=st.data())
def test_damaged_text_and_markdown_exports(cli, work, exports, data):
    fmt = data.draw(st.sampled_from(["text", "markdown", "json", "yaml"]))
    name = data.draw(st.sampled_from([ex.name for ex in EXAMPLES]))
    lines = exports[(name, fmt)].splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, max(0, len(lines) - 1)))
        op = data.draw(st.sampled_from(["drop", "dup", "edit", "number"]))
        if not lines:
            break
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "number":
            lines[i] = re.sub(
                r"\d+", data.draw(st.sampled_from(["-1", "0", "99999999999999999999", "2.5", "x"])), lines[i], count=1
            )
        else:
            j = data.draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:j] + data.draw(st.sampled_from(EDIT_CHARS)) + lines[i][j:]
    text = "\n".join(lines) + "\n"
    path = write(work, text, suffix=f".{fmt}")
    for args in (("import", path), ("show", path), ("export", path, "--to", "code")):
        run_clean(cli, *args, what=f"{fmt} of {name}:\n{text}")


LINE_TOKENS = st.sampled_from(
    [
        "Kensei",
        "Senshiai",
        "HeroCard",
        "Senji",
        "Satsuma Rebellion",
        " - ",
        "clan buke",
        "200/200 AP",
        "50 cards",
        "House rules:",
        "Packs:",
        "Notes:",
        "Hero:",
        "Attributes:",
        "Deck:",
        "Players:",
        "3x",
        "-1x",
        "99999999999999999999x",
        "2.5x",
        "0x",
        "Samurai Yari",
        "Warriors",
        "Bushido",
        "(20)",
        "(",
        ")",
        "#",
        "##",
        "|",
        "---",
        "* ",
        "- ",
        "`",
        '"',
        "{",
        "[",
        "]",
        "}",
        ":",
        ",",
        ";",
        "=",
        "\t",
        "\u00e9",
        "\U0001f600",
        "\x00",
        "DMY1-",
        "system: kensei",
    ]
)


@fuzz_settings(40)
@given(
    lines=st.lists(st.lists(LINE_TOKENS | st.text(max_size=6), max_size=8).map("".join), max_size=10),
    system=st.sampled_from([None, *SYSTEMS]),
)
def test_arbitrary_text_as_a_shared_list(cli, lines, system):
    """Chat text of any kind given to import and show (standard input) with or without --system."""
    text = "\n".join(lines)
    extra = ("--system", system) if system else ()
    for command in ("import", "show"):
        run_clean(cli, command, "-", *extra, input=text, what=repr(text))


@fuzz_settings(4)
@given(data=st.data())
def test_mutated_packs(cli, work, data):
    """Example packs with values swapped or deleted, through the commands that take a pack."""
    src = data.draw(st.sampled_from(sorted((ROOT / "examples" / "packs").glob("*.yaml"))))
    pack = copy.deepcopy(_load(src))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from([p for p in _paths(pack) if p]))
        parent, key = _get(pack, path[:-1]), path[-1]
        if data.draw(st.booleans()):
            del parent[key]
        else:
            parent[key] = copy.deepcopy(
                data.draw(
                    ODD_VALUES
                    | st.sampled_from(
                        ["001_dbcd2f61c1014419.txt:99999999", "nofile.txt:1", "001_dbcd2f61c1014419.txt:9-3"]
                    )
                )
            )
    path = write(work, _dump(pack))
    system = pack.get("system") if isinstance(pack, dict) and pack.get("system") in SYSTEMS else "kensei"
    example = next((e for e in EXAMPLES if e.name.startswith(system)), BUKE)
    for args in (
        ("catalog", "check", "--system", system, "--pack", path),
        ("check", example, "--pack", path, "--explain"),
    ):
        run_clean(cli, *args, what=f"mutation of {src.name}:\n{_dump(pack)}")


WRONG_SHAPES = st.sampled_from(
    [
        [1, 2],
        {"a": 1},
        "x",
        None,
        5,
        True,
        [{"name": "x"}],
        {"name": [1]},
        [["a"]],
        {"x": {"y": 1}},
        {"aliases": 5},
        [{"name": "y", "aliases": 7}],
        [{"id": ["q"], "name": {"a": 1}}],
        {1: "a", "b": 2},
        [{"name": "Warriors", "aliases": "War"}],
        [{"name": "Samurai Yari", "cost": [1]}],
    ]
)


@pytest.fixture
def catalog_files_parsed_once(monkeypatch):
    """``build_catalog`` parses each game catalog file once in a process and gives every build
    the same data and positions: here it parses them afresh, and after every example has merged
    its packs into them, they are still what the files give (the merge never changes them)."""
    import pickle

    from builder.catalog import loader
    from builder.yamlio import parse_yaml

    monkeypatch.setattr(loader, "_PARSED", {})
    yield
    assert loader._PARSED
    for (_, shown), (_, text, data, positions) in loader._PARSED.items():
        fresh, fresh_positions = parse_yaml(text, shown, "catalog.yaml")
        assert pickle.dumps(data) == pickle.dumps(fresh), shown
        assert (positions.value, positions.key, positions.file) == (
            fresh_positions.value,
            fresh_positions.key,
            fresh_positions.file,
        ), shown


@fuzz_settings(150)
@given(data=st.data())
def test_packs_of_the_wrong_shape_merge_into_located_errors(work, catalog_files_parsed_once, data):
    """A list where a mapping belongs, a mapping where a name belongs, in any section, merged
    after and before a good pack: the loader's merge reports located lines, never crashes."""
    from builder.catalog.loader import build_catalog, catalog_files
    from builder.errors import DaimyoError

    src = data.draw(st.sampled_from(sorted((ROOT / "examples" / "packs").glob("*.yaml"))))
    pack = copy.deepcopy(_load(src))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from([p for p in _paths(pack) if p and p[0] != "system"] or [("x",)]))
        parent, key = _get(pack, path[:-1]), path[-1]
        if isinstance(parent, (dict, list)):
            parent[key] = copy.deepcopy(data.draw(WRONG_SHAPES))
    path = write(work, _dump(pack))
    system = pack.get("system") if pack.get("system") in SYSTEMS else "kensei"
    order = data.draw(st.sampled_from([[path], [path, src], [src, path, path], [path, path]]))
    try:
        build_catalog(system, catalog_files(system), order)
    except DaimyoError as exc:
        for line in exc.lines():
            assert ONE_LINE.match(line), f"{line!r}\n{_dump(pack)}"


# -- numbers and nesting at and beyond every bound, on every reader path --------------------------


def _numeric_paths(data, path=()):
    for p in _paths(data, path):
        v = _get(data, p)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            yield p


BOUND_NUMBERS = st.sampled_from(
    [10**6, -(10**6), 10**6 + 1, -(10**6) - 1, 10**9, 2**63, 10**30, 10**400, -(10**4000), 1e300, 999999.5, 1000000.5]
)


@fuzz_settings(12)
@given(src=st.sampled_from(EXAMPLES), data=st.data())
def test_numbers_at_and_beyond_every_bound(cli, work, src, data):
    """Every number of every example set at or beyond the documented range: inside it the
    commands work, outside it each says 'number out of range' with the range, in one line."""
    from builder.limits import MAX_NUMBER

    doc = _load(src)
    paths = list(_numeric_paths(doc)) or [("points",)]
    path = data.draw(st.sampled_from(paths))
    number = data.draw(BOUND_NUMBERS)
    parent = _get(doc, path[:-1])
    parent[path[-1]] = number
    text = _dump(doc)
    p = write(work, text)
    out = work / "out" / f"{p.stem}.pdf"
    commands = [
        ("check", p),
        ("show", p),
        ("export", p, "--to", "text"),
        ("export", p, "--to", "code"),
        ("import", p),
        ("set", p, "name", "N"),
        ("print", p, "-o", out),
    ]
    outside = abs(number) > MAX_NUMBER
    for args in commands:
        r = run_clean(cli, *args, what=text[:2000])
        if outside:
            assert r.code == 2 and "number out of range" in r.stderr and "1,000,000" in r.stderr, (args, r)
        else:
            assert "number out of range" not in r.stderr, (args, r)


NESTINGS = st.sampled_from(["mapping", "sequence", "dashes", "flow", "mixed", "json"])


def _nested(kind: str, levels: int) -> str:
    if kind == "mapping":
        return "notes:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(levels)) + " " * (levels + 1) + "x: 1\n"
    if kind == "sequence":
        return "notes:\n" + "".join("  " * i + "-\n" for i in range(levels)) + "  " * levels + "x\n"
    if kind == "dashes":
        return "notes:\n" + "- " * levels + "x\n"
    if kind == "flow":
        return "notes: " + "[" * levels + "]" * levels + "\n"
    if kind == "mixed":
        return (
            "notes:\n" + "".join("  " * i + "- k:\n" for i in range(levels // 2 + 1)) + "  " * (levels // 2 + 1) + "x\n"
        )
    return '{"system": "kensei", "notes": ' + "[" * levels + "]" * levels + "}"


@fuzz_settings(10)
@given(kind=NESTINGS, levels=st.integers(101, 1500))
def test_nesting_beyond_the_limit_on_every_reader_path(cli, work, kind, levels):
    """Block mappings, block sequences, compact dashes, flow brackets and JSON nested beyond the
    limit: every command that reads a list (check, the editing commands, show, export, import,
    print) says so in one line and changes nothing."""
    body = _nested(kind, levels)
    text = body if kind == "json" else "system: kensei\nclan: buke\npoints: 200\ntroops: []\n" + body
    p = write(work, text, suffix=".json" if kind == "json" else ".yaml")
    for args in (
        ("check", p),
        ("add", p, "Yari Ashigaru"),
        ("remove", p, "Yari Ashigaru"),
        ("set", p, "name", "X"),
        ("why", p, "Yari Ashigaru"),
        ("show", p),
        ("export", p, "--to", "text"),
        ("import", p),
        ("print", p, "-o", work / "out" / "deep.pdf"),
    ):
        r = run_clean(cli, *args, what=f"{kind} {levels}")
        assert r.code == 2 and "nested more than 100 levels deep" in r.stderr, (args, r)
    assert p.read_text() == text


# -- hand-written nasty cases ------------------------------------------------------------------

KENSEI = "system: kensei\nclan: buke\npoints: 200\ntroops: []\n"

NASTY = {
    "empty": "",
    "blank": "  \n\n",
    "comment-only": "# nothing\n",
    "bom-only": "\ufeff",
    "scalar": "42\n",
    "text": "hello world\n",
    "yaml-list": "- system: kensei\n",
    "json-list": '[{"system": "kensei", "clan": "buke", "points": 200, "troops": []}]',
    "json-broken": '{"system": "kensei", ',
    "json-scalar": '"kensei"',
    "binary": b"\x00\x01\xff\xfe\x89PNG\r\n\x1a\n",
    "nul": "system: kensei\x00\n",
    "latin-1": "system: kensei\nname: caf\xe9\n".encode("latin-1"),
    "utf-16": "system: kensei\n".encode("utf-16"),
    "crlf": KENSEI.replace("\n", "\r\n"),
    "cr-only": KENSEI.replace("\n", "\r"),
    "tabs": "system:\tkensei\n\tclan: buke\n",
    "duplicate-key": "system: kensei\nsystem: kensei\n",
    "merge-key": "x: &a {b: 1}\nsystem: kensei\ny:\n  <<: *a\n",
    "alias-loop": "system: kensei\na: &x [*x]\n",
    "billion-laughs": "system: kensei\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\n",
    "alias-bomb": "system: kensei\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9)),
    "deep-flow": "system: kensei\nnotes: " + "[" * 100_000 + "]" * 100_000 + "\n",
    "deep-block": "system: kensei\nnotes:\n" + "- " * 60_000 + "x\n",
    "deep-json": '{"system": "kensei", "notes": ' + "[" * 50_000 + "]" * 50_000 + "}",
    "two-documents": "system: kensei\n---\nsystem: senji\n",
    "tagged": "system: !!python/object:os.system kensei\n",
    "complex-key": "system: kensei\n? [a, b]\n: 1\n",
    "date-values": "system: kensei\nname: 2020-01-01\nclan: 2020-13-45\npoints: 2020-01-01\ntroops: []\n",
    "system-mapping": "system: {name: kensei}\n",
    "system-null": "system:\n",
    "system-number": "system: 3\n",
    "system-unicode": "system: ｋｅｎｓｅｉ\n",
    "no-system": "clan: buke\npoints: 200\n",
    "huge-points": "system: kensei\nclan: buke\npoints: 99999999999999999999999999999\ntroops: []\n",
    "negative-points": "system: kensei\nclan: buke\npoints: -200\ntroops: []\n",
    "float-points": "system: kensei\nclan: buke\npoints: 2.5\ntroops: []\n",
    "inf-points": "system: kensei\nclan: buke\npoints: .inf\ntroops: []\n",
    "nan-points": "system: kensei\nclan: buke\npoints: .nan\ntroops: []\n",
    "zero-points": "system: kensei\nclan: buke\npoints: 0\ntroops: []\n",
    "kensei-models": "system: kensei\nclan: buke\npoints: 200\ntroops:\n  - {troop: Samurai Yari, models: -5}\n"
    "  - {troop: Yari Ashigaru, models: 2.5}\n  - {troop: Yumi Samurai, models: 10000000000000000000}\n"
    "  - {troop: Taisho Buke, models: true}\n  - {troop: [x]}\n  - {troop: null}\n  - 7\n  - []\n",
    "kensei-led-by": "system: kensei\nclan: buke\npoints: 200\ntroops:\n  - {troop: Yari Ashigaru, models: 9, "
    "led_by: Yari Ashigaru, standard: maybe}\n  - {troop: Taisho Buke, led_by: {a: 1}}\n",
    "kensei-general": "system: kensei\nclan: buke\npoints: 200\ngeneral: [Taisho Buke]\ntroops: [{troop: Taisho Buke}]\n",
    "kensei-commander": "system: kensei\nclan: [buke]\npoints: 200\ncommander: 20\noccult: 'yes'\ntroops: {a: 1}\n",
    "senshiai-counts": "system: senshiai\ncards:\n  Warriors: -5\n  Militiamen: 2.5\n  Sky Riders: true\n"
    "  River Pirates: 1000000000000000000000\n  12: 3\n  null: 2\n  Stone Fort: null\n",
    "senshiai-size": "system: senshiai\nsize: -1\ncards: {Warriors: 6}\n",
    "senshiai-huge-size": "system: senshiai\nsize: 100000000000000000000000000\ncards: {Warriors: 6}\n",
    "senshiai-list": "system: senshiai\ncards: [Warriors, Warriors, {Militiamen: 2}, null, 3]\n",
    "herocard-types": "system: herocard\nhero: [Samurai]\nmax_hero_points: 1e400\nattributes: Samurai\n"
    "deck: {Overhand Thrust: -3, Cross Block: 1e30}\n",
    "herocard-nulls": "system: herocard\nhero:\nattributes:\ndeck:\n",
    "herocard-huge": "system: herocard\nhero: Samurai\nmax_hero_points: -99999999999999999999\n"
    "attributes: [1, 2, 3, 4]\ndeck: {Overhand Thrust: 99999999999999999999}\n",
    "senji-types": "system: senji\nplayers:\n  - name: [1]\n    family: {a: 1}\n    samurai: 3\n"
    "    provinces: [null, 3, {province: null, units: -1, samurai: 2}]\n",
    "senji-huge": "system: senji\nplayers:\n"
    + "  - {name: A, family: red, provinces: [{province: Owari, units: 99999999999999999999}]}\n" * 8,
    "senji-empty-players": "system: senji\nplayers: []\n",
    "satsuma-types": "system: satsuma\nside: [samurai]\ndeck: 3\n",
    "satsuma-counts": "system: satsuma\nside: samurai\ncards: {Bushido: 1e10, Honor: -1, 5: x, Raiders: {count: -2}}\n",
    "satsuma-custom": "system: satsuma\nside: samurai\ncards:\n  Mine: {printed: 'F99999999999999999999 or Z-1', "
    "count: 99999999999999999999}\n  Other: {printed: '', count: 1}\n  Third: {printed: [F5]}\n",
    "satsuma-huge": "system: satsuma\nside: imperial\ncards: {Imperial Guard: 100000000000000000000000000}\n",
    "unicode": "system: kensei\nname: \u202e\u0301\U0001f600\nclan: buke\npoints: 200\ntroops:\n"
    "  - troop: \u200bTaisho Buke\n  - troop: Ｔａｉｓｈｏ Ｂｕｋｅ\n  - troop: \U0001f600\n",
    "surrogate-escape": 'system: kensei\nname: "\\ud800"\nclan: buke\npoints: 200\ntroops: []\n',
    "long-line": "system: kensei\nname: " + "x" * 20000 + "\nclan: buke\npoints: 200\ntroops: []\n",
    "deep-nesting": "system: kensei\nnotes: " + "[" * 2000 + "]" * 2000 + "\n",
    "packs-folder": "system: kensei\npacks: [.]\n" + KENSEI[15:],
    "packs-binary": "system: kensei\npacks: [binary.pack]\n" + KENSEI[15:],
    "packs-yaml-list": "system: kensei\npacks: [list.pack]\n" + KENSEI[15:],
    "packs-other-system": "system: kensei\npacks: [senshiai.pack]\n" + KENSEI[15:],
    "packs-empty": "system: kensei\npacks: [empty.pack]\n" + KENSEI[15:],
    "packs-junk": "system: kensei\npacks: [junk.pack]\n" + KENSEI[15:],
    "packs-no-system": "system: kensei\npacks: [nosystem.pack]\n" + KENSEI[15:],
    "packs-nul-path": 'system: kensei\npacks: ["a\\0b"]\n' + KENSEI[15:],
    "packs-missing": "system: kensei\npacks: [nowhere.pack]\n" + KENSEI[15:],
    "packs-self": "system: kensei\npacks: [packs-self.yaml]\n" + KENSEI[15:],
    "packs-mapping": "system: kensei\npacks: {a: b}\n" + KENSEI[15:],
    "house-rules-types": "system: kensei\nhouse_rules: {cavalry_max_percent: [1], 3: 4, null: x, leaders_exempt: 7}\n"
    + KENSEI[15:],
    "house-rules-huge": "system: kensei\nhouse_rules: {cavalry_max_percent: 1e400, melee_min_percent: "
    "-99999999999999999999}\n" + KENSEI[15:],
    "house-rules-list": "system: kensei\nhouse_rules: [cavalry_max_percent]\n" + KENSEI[15:],
}

PACKS = {
    "binary.pack": b"\x00\xff\x00\x01",
    "list.pack": "- a\n- b\n",
    "senshiai.pack": "system: senshiai\npack: other\ncards: []\n",
    "empty.pack": "",
    "nosystem.pack": "troops: []\n",
    "junk.pack": "system: kensei\ntroops: [1, {name: 3}, {name: X, cost: -1e400, source: nowhere}]\nfoo: bar\n"
    "house_rules: [{id: x}]\n",
}


@pytest.fixture(scope="module")
def nasty(tmp_path_factory):
    d = tmp_path_factory.mktemp("nasty")
    for name, body in {**PACKS, **{f"{k}.yaml": v for k, v in NASTY.items()}}.items():
        p = d / name
        p.write_bytes(body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass"))
    (d / "folder.yaml").mkdir()
    (d / "out").mkdir()
    return d


@pytest.mark.parametrize("name", [*NASTY, "folder", "missing"])
def test_nasty_documents(cli, nasty, name):
    path = nasty / f"{name}.yaml"
    out = nasty / "out"
    commands = [
        ("check", path, "--format", "json", "--strict", "--explain"),
        ("show", path),
        ("import", path),
        ("export", path, "--to", "code"),
        ("print", path, "-o", out / f"{name}.pdf", "--force", "--unit-cards"),
    ]
    if name.startswith("packs-"):  # a broken pack costs a catalog validation each time: the commands that read it
        commands = [commands[0], commands[-1]]
    for args in commands:
        r = run_clean(cli, *args)
        if name in (
            "folder",
            "missing",
            "empty",
            "binary",
            "nul",
            "latin-1",
            "json-list",
            "yaml-list",
            "scalar",
            "no-system",
            "system-mapping",
            "duplicate-key",
            "merge-key",
            "json-broken",
        ):
            assert r.code == 2, (args, r)


def test_a_folder_a_device_and_a_missing_file_are_one_line_each(cli, nasty):
    r = run_clean(cli, "check", nasty / "folder.yaml", nasty / "missing.yaml", "/dev/null", ROOT / "examples")
    assert r.code == 2
    assert len(r.stderr.splitlines()) == 4, r.stderr


@pytest.mark.parametrize("pack", [*PACKS, "folder.yaml", "missing.pack"])
def test_unreadable_packs_in_every_command_that_takes_one(cli, nasty, pack):
    p = nasty / pack
    for args in (
        ("check", BUKE, "--pack", p),
        ("catalog", "show", "kensei", "Samurai Yari", "--pack", p),
        ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--pack", p),
    ):
        r = run_clean(cli, *args)
        if pack not in ("empty.pack", "senshiai.pack") and args[0] != "satsuma":
            assert r.code == 2, (args, r)


# -- options and arguments of every command ----------------------------------------------------


BAD_CALLS = [
    (),
    ("nosuch",),
    ("--bogus",),
    ("check",),
    ("check", "--bogus", "x"),
    ("check", BUKE, "--format"),
    ("check", BUKE, "--format", "xml"),
    ("check", BUKE, "--format", ""),
    ("check", BUKE, "--strict=yes"),
    ("check", "", "-"),
    ("check", BUKE, "--pack", ""),
    ("rules",),
    ("rules", "chess"),
    ("rules", ""),
    ("rules", "KENSEI", "--format", "yaml"),
    ("rules", "kensei", "--format", "markdown"),
    ("rules", "satsuma", "--format", "json"),
    ("catalog",),
    ("catalog", "nosuch"),
    ("catalog", "systems", "extra"),
    ("catalog", "list", "chess"),
    ("catalog", "list", "kensei", "nosuch"),
    ("catalog", "list", "kensei", "troops", "--where", "nonsense"),
    ("catalog", "list", "kensei", "troops", "--where", "=buke"),
    ("catalog", "list", "kensei", "troops", "--where", "clan="),
    ("catalog", "list", "kensei", "troops", "--where", "nofield=3"),
    ("catalog", "list", "kensei", "troops", "--where", "cost=-1e400"),
    ("catalog", "list", "senshiai", "cards", "--where", "cost=abc", "--where", "type="),
    ("catalog", "list", "kensei", ""),
    ("catalog", "show", "kensei"),
    ("catalog", "show", "kensei", ""),
    ("catalog", "show", "kensei", "\U0001f600"),
    ("catalog", "show", "kensei", "samurai"),
    ("catalog", "show", "chess", "x"),
    ("catalog", "check", "--system", "chess"),
    ("catalog", "check", "--system", ""),
    ("print", BUKE),
    ("print", "-o", "x.pdf"),
    ("print-test",),
    ("print-test", "-o", "{out}/t.pdf", "--paper", "a0"),
    ("print-test", "-o", "{out}/t.pdf", "--paper", "-210x297"),
    ("print-test", "-o", "{out}/t.pdf", "--paper", "1e400x297"),
    ("print-test", "-o", "{out}/t.pdf", "--paper", "0x0"),
    ("print-test", "-o", "{out}/t.pdf", "--paper", "nanxnan"),
    ("print-test", "-o", "{out}/t.pdf", "--paper", "5x5"),
    ("print-test", "-o", "{out}/t.pdf", "--paper", "99999x99999"),
    ("print-test", "-o", "{out}/t.pdf", "--duplex", "diagonal"),
    ("print-test", "-o", "{out}"),
    ("print-test", "-o", "{out}/missing-folder/t.pdf"),
    ("print-test", "-o", "/dev/null/t.pdf"),
    ("aid",),
    ("aid", "chess", "-o", "{out}/a.pdf"),
    ("aid", "senji", "-o", "{out}/a.pdf", "--players", "abc"),
    ("aid", "senji", "-o", "{out}/a.pdf", "--players", "2"),
    ("aid", "senji", "-o", "{out}/a.pdf", "--players", "-3"),
    ("aid", "senji", "-o", "{out}/a.pdf", "--players", "99999999999999999999999"),
    ("aid", "kensei", "-o", "{out}/a.pdf", "--players", "4"),
    ("aid", "kensei", "-o", "{out}/a.pdf", "--paper", "x"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--bleed", "nan"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--bleed", "inf"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--bleed", "-3"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--bleed", "1e400"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--bleed", "abc"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--card", "0x0"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--card", "nanx88"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--card", "1x1"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--card", "x"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--offset", "1"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--offset", "nan,nan"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--offset", "1e400,0"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--offset", "500,500"),
    ("print", SAMURAI, "-o", "{out}/p.pdf", "--offset", ",,"),
    ("print", SAMURAI, "-o", "{out}"),
    ("print", SAMURAI, "-o", ""),
    ("print", SAMURAI, "-o", SAMURAI),
    ("print", "{out}", "-o", "{out}/p.pdf"),
    ("export", BUKE, "--to"),
    ("export", BUKE, "--to", "pdf"),
    ("export", BUKE, "--to", "code", "--system", "chess"),
    ("export", BUKE, "--to", "code", "--system", "senshiai"),
    ("export", BUKE, "-o", BUKE),
    ("export", BUKE, "-o", "{out}"),
    ("export", "", "--to", "text"),
    ("export", "nothing-here", "--to", "text"),
    ("import",),
    ("import", ""),
    ("import", "DMY1-"),
    ("import", "DMY1-AAAA"),
    ("import", "DMY9-AAAAAAAA"),
    ("import", "DMY1-" + "A" * 5000),
    ("import", "x" * 5000),
    ("import", "\x00"),
    ("import", BUKE, "-o", BUKE),
    ("import", BUKE, "--system", "senji"),
    ("import", "{out}"),
    ("show", ""),
    ("show", "{out}"),
    ("show", "-", "--system", "chess"),
    ("show", BUKE, "--system", "satsuma"),
    ("demo", "--out", BUKE),
    ("demo", "--out", "/dev/null"),
    ("satsuma",),
    ("satsuma", "clash"),
    ("satsuma", "clash", "-a", "ronin", "-s", "Bushido", "-i", "Honor"),
    ("satsuma", "clash", "-a", "samurai", "-s", "", "-i", "Honor"),
    ("satsuma", "clash", "-a", "samurai", "-s", ";;;", "-i", "Honor"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Nobody", "-i", "Honor"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Honor", "-i", "Bushido"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido; Bushido", "-i", "Honor"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido;" * 20, "-i", "Honor"),
    ("satsuma", "clash", "-a", "samurai", "-s", "\U0001f600", "-i", "\x00"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--format", "xml"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--rule", "nonsense"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--rule", "bodyguard_suit=purple"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--rule", "nosuch=1"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--rule", "bodyguard_suit=[1, 2]"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--rule", "bodyguard_suit={"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--rule", "=x"),
    ("satsuma", "clash", "-a", "samurai", "-s", "Bushido", "-i", "Honor", "--pack", BUKE),
]


@pytest.mark.parametrize("args", BAD_CALLS, ids=lambda a: " ".join(map(str, a))[:60] or "no-args")
def test_bad_calls_of_every_command(cli, tmp_path, args):
    args = [str(a).replace("{out}", str(tmp_path)) for a in args]
    r = run_clean(cli, *args)
    if args and args[0] not in ("rules", "catalog") and r.code == 0:
        # what succeeded wrote something sensible and left the given list alone
        assert BUKE.read_text(encoding="utf-8").startswith("# Buke vanguard")


@pytest.mark.parametrize(
    "args,line",
    [
        (("check", "--bogus", "x"), "daimyo: error: no such option: --bogus (see 'daimyo check --help')"),
        (("print", BUKE), "daimyo: error: missing option '--output' / '-o' (see 'daimyo print --help')"),
        (
            ("aid", "senji", "-o", "a.pdf", "--players", "abc"),
            "daimyo: error: invalid value for '--players': 'abc' is not a valid int (see 'daimyo aid --help')",
        ),
        (("nosuch",), "daimyo: error: no such command 'nosuch' (see 'daimyo --help')"),
        (("catalog", "show", "kensei"), "daimyo: error: missing argument 'name' (see 'daimyo catalog show --help')"),
        (("export", BUKE, "--to"), "daimyo: error: option '--to' requires an argument"),
    ],
)
def test_command_line_errors_are_one_line(cli, args, line):
    r = cli(*args)
    assert (r.code, r.stderr.splitlines(), r.stdout) == (2, [line], "")


@pytest.mark.parametrize("group", [(), ("catalog",), ("satsuma",)])
def test_a_group_without_its_command_prints_its_help_and_one_line(cli, group):
    r = cli(*group)
    assert r.code == 2
    assert "Usage: " in r.stdout and "Commands:" in r.stdout
    assert r.stderr.splitlines() == [f"daimyo: error: missing command (see '{' '.join(['daimyo', *group])} --help')"]


EDIT_CALLS = [
    ("add", "{list}", "Samurai Yari", "--models", "-5"),
    ("add", "{list}", "Samurai Yari", "--models", "99999999999999999999999"),
    ("add", "{list}", "\U0001f600\u2028"),
    ("remove", "{list}", "Nobody"),
    ("set", "{list}", "points", "1e400"),
    ("set", "{list}", "nosuch", "3"),
    ("set", "{list}", "commander", "[x]"),
    ("why", "{list}", "Nobody"),
    ("new", "kensei", "--clan", "buke", "-o", "{tmp}"),
    ("new", "kensei", "--clan", "buke", "-o", "/dev/null/x.yaml"),
    ("new", "chess", "-o", "{tmp}/n.yaml"),
    *(
        (command, f"{{nasty}}/{name}.yaml", "Samurai Yari")
        for command in ("add", "why")
        for name in ("nul", "deep-flow", "json-list", "alias-bomb", "folder")
    ),
]


@pytest.mark.parametrize("args", EDIT_CALLS, ids=lambda a: " ".join(map(str, a))[:60])
def test_bad_input_to_the_editing_commands(cli, tmp_path, nasty, args):
    lst = tmp_path / "army.yaml"
    shutil.copy(BUKE, lst)
    args = [
        str(a).replace("{list}", str(lst)).replace("{tmp}", str(tmp_path)).replace("{nasty}", str(nasty)) for a in args
    ]
    before = {p.name: p.read_bytes() for p in nasty.glob("*.yaml") if p.is_file()}
    run_clean(cli, *args)
    assert before == {p.name: p.read_bytes() for p in nasty.glob("*.yaml") if p.is_file()}  # never rewritten
