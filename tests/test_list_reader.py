"""The fast reader for plain block YAML gives exactly what the full YAML reader gives.

``_parse_simple`` handles the usual shape of a list file; whenever it answers, its
data and every value's and key's position must equal the full reader's, and it
must decline (return None) every text the full reader rejects.
"""

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builder.errors import DaimyoError
from builder.lists.document import _parse_simple
from builder.lists.dump import dump_list_yaml
from builder.paths import examples_dir
from builder.yamlio import parse_yaml

from conftest import examples

NAME_CHARS = string.ascii_letters + string.digits + " -'’.:#\"()é"
words = st.text(alphabet=NAME_CHARS, min_size=1, max_size=14)
scalars = st.one_of(
    st.integers(-5, 500),
    st.booleans(),
    st.none(),
    words,
    st.sampled_from(
        [
            "yes",
            "no",
            "on",
            "0x1F",
            "1e3",
            "3.5",
            "007",
            "~",
            "null",
            "- x",
            "a: b",
            "#x",
            "x #y",
            "'q'",
            "[1]",
            "{a}",
            "Samurai Dai-Katana",
            "",
        ]
    ),
)
keys = st.one_of(st.sampled_from(["system", "name", "troop", "models", "led_by", "cards", "deck", "side"]), words)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12,
)
documents = st.dictionaries(keys, values, min_size=1, max_size=6)


def _same(text: str) -> None:
    fast = _parse_simple(text, "f.yaml")
    try:
        full_data, full_pos = parse_yaml(text, "f.yaml")
    except DaimyoError:
        assert fast is None, f"the fast reader accepted a text the full reader rejects:\n{text}"
        return
    if fast is None:
        return  # declined: the full reader takes over
    data, pos = fast
    assert data == full_data, text
    assert [type(x) for x in _leaves(data)] == [type(x) for x in _leaves(full_data)], text
    assert pos.value == full_pos.value, text
    assert pos.key == full_pos.key, text


def _leaves(x):
    if isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from _leaves(v)
    elif isinstance(x, list):
        for v in x:
            yield from _leaves(v)
    else:
        yield x


def test_examples_read_the_same():
    for p in sorted(examples_dir().glob("*.yaml")):
        text = p.read_text()
        if p.name.startswith("kensei-"):
            assert _parse_simple(text, "f.yaml") is not None, p  # the usual shape takes the fast path
        _same(text)


@pytest.mark.slow  # 300 generated documents
@settings(max_examples=examples(300))
@given(documents)
def test_dumped_documents_read_the_same(doc):
    _same(dump_list_yaml(doc))


@pytest.mark.slow  # 400 generated documents, each mutated
@settings(max_examples=examples(400))
@given(documents, st.data())
def test_mutated_texts_read_the_same_or_are_declined(doc, data):
    text = dump_list_yaml(doc)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        ch = data.draw(st.sampled_from(list(" \n-:#'\"[]{}x0&*!|>%@`,?~")))
        if op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + ch + text[i + 1 :]
    _same(text)


def test_the_quick_reader_declines_every_character_the_yaml_reader_would_treat_specially():
    """The quick reader of plain lists hands a text to the full YAML reader when it holds a
    character that reader refuses (its own class of non-printable characters), reads as a line
    break (\\x85, \\u2028, \\u2029), or as a byte-order mark (\\uFEFF), or a tab or carriage return;
    every other code point it reads itself. Checked on every code point."""
    from ruamel.yaml.reader import Reader

    from builder.lists.document import _NON_PRINTABLE

    special = {"\x85", "\u2028", "\u2029", "\ufeff", "\t", "\r"}
    for cp in range(0x110000):
        c = chr(cp)
        expected = bool(Reader.NON_PRINTABLE.match(c)) or c in special
        assert bool(_NON_PRINTABLE.match(c)) == expected, hex(cp)
