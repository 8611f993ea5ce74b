"""Exact draw odds: a small query language over a deck and the hypergeometric distribution.

A query says which cards count, how many of them you want and in how many cards drawn::

    type=terrain and ability=Recruit >= 1 in 6
    suit=Force >= 2 in 7
    (path=Earth or path=Water) and not type=event >= 3      # 'in N' left out: the opening hand
    cost <= II = 0 in 6                                      # no card of cost II or less
    name="Rice Fields" >= 1 in 10

Grammar (words are case-insensitive)::

    query     := selection COMPARE WHOLE [ "in" WHOLE ]
    selection := term { "or" term }
    term      := factor { "and" factor }
    factor    := "not" factor | "(" selection ")" | "any" | FIELD TEST VALUE
    COMPARE   := ">=" | "<=" | ">" | "<" | "=" | "==" | "!="
    TEST      := COMPARE          (order tests only on costs and numbers)
    VALUE     := a word, a number, or text in "double" or 'single' quotes

A card matches ``FIELD=VALUE`` when one of its values of the field is VALUE (a card
printed "F6 or M7" is a Force card and a Morale card); ``FIELD!=VALUE`` is ``not
FIELD=VALUE``; ``cost<=II`` compares in the order of the field (N < I < ... < V for
Senshiai costs, numbers for HeroCard costs and Satsuma strengths). ``any`` matches
every card.

The answer is exact: with ``N`` cards in the deck, ``K`` of them matching and ``n``
drawn, the number ``X`` of matching cards drawn is hypergeometric,
``P(X = x) = C(K, x) C(N - K, n - x) / C(N, n)``, summed over the wanted ``x`` in
integers (``fractions.Fraction``), so the probability is exact before it is printed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NoReturn

from builder.errors import UsageError, option
from builder.kit.deck import DeckView
from builder.names import did_you_mean, normalize
from builder.systems import get

MAX_DRAWN = 1000

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<op>>=|<=|==|!=|=|>|<)
  | (?P<lparen>\()
  | (?P<rparen>\))
  | (?P<string>"[^"]*"|'[^']*')
  | (?P<word>[^\s()<>=!"']+)
""",
    re.VERBOSE,
)

KEYWORDS = ("and", "or", "not", "in", "any")


@dataclass(frozen=True)
class Token:
    kind: str  # op | lparen | rparen | string | word | end
    text: str
    col: int  # 1-based

    @property
    def keyword(self) -> str | None:
        return self.text.lower() if self.kind == "word" and self.text.lower() in KEYWORDS else None


class QueryError(UsageError):
    """A query that cannot be read: the message names the column."""

    def __init__(self, query: str, col: int, message: str, hint: str | None = None):
        self.query, self.col, self.message = query, col, message
        super().__init__(f"{option('odds')} '{query}': column {col}: {message}", hint)


def tokenize(text: str) -> list[Token]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.lastgroup is None:  # every alternative of _TOKEN is a named group
            bad = text[pos]
            if bad in "\"'":
                raise QueryError(text, pos + 1, f"quote {bad} is never closed")
            raise QueryError(text, pos + 1, f"unexpected '{bad}'")  # pragma: no cover - the word rule takes all
        kind = m.lastgroup
        if kind != "space":
            out.append(Token(kind, m.group(), pos + 1))
        pos = m.end()
    out.append(Token("end", "", len(text) + 1))
    return out


# -- the parsed query ------------------------------------------------------------------------


@dataclass(frozen=True)
class Test:
    field: str
    op: str
    value: object
    text: str

    def matches(self, facts: dict, spec) -> bool:
        vals = facts.get(self.field, ())
        if self.op in ("=", "=="):
            return any(_same(v, self.value) for v in vals)
        if self.op == "!=":
            return not any(_same(v, self.value) for v in vals)
        keys = [k for k in (_order_key(v, spec) for v in vals) if k is not None]
        want = _order_key(self.value, spec)
        return any(_compare(k, self.op, want) for k in keys)


@dataclass(frozen=True)
class Not:
    inner: object


@dataclass(frozen=True)
class AllOf:
    parts: tuple


@dataclass(frozen=True)
class AnyOf:
    parts: tuple


@dataclass(frozen=True)
class Every:
    pass


def _dispatch(node, facts, view: DeckView) -> bool:
    if isinstance(node, Test):
        return node.matches(facts, view.fields[node.field])
    if isinstance(node, Not):
        return not _dispatch(node.inner, facts, view)
    if isinstance(node, AllOf):
        return all(_dispatch(p, facts, view) for p in node.parts)
    if isinstance(node, AnyOf):
        return any(_dispatch(p, facts, view) for p in node.parts)
    return True


def _same(a, b) -> bool:
    if isinstance(a, (int, float)) or isinstance(b, (int, float)):
        return a == b
    return normalize(str(a)) == normalize(str(b))


def _order_key(v, spec):
    if spec.kind == "ordinal":
        for i, o in enumerate(spec.order):
            if _same(o, v):
                return i
        return None
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _compare(a, op: str, b) -> bool:
    return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}[op]


@dataclass(frozen=True)
class Query:
    text: str
    selection: object
    op: str
    want: int
    drawn: int
    drawn_given: bool


@dataclass(frozen=True)
class Answer:
    query: Query
    deck: int  # N
    matching: int  # K
    probability: Fraction

    def to_json(self) -> dict:
        q = self.query
        return {
            "query": q.text,
            "shown": _shown(q),
            "deck": self.deck,
            "matching": self.matching,
            "drawn": q.drawn,
            "compare": q.op,
            "wanted": q.want,
            "probability": float(self.probability),
            "exact": f"{self.probability.numerator}/{self.probability.denominator}",
            "expected": (q.drawn * self.matching / self.deck) if self.deck else 0.0,
        }

    def line(self) -> str:
        q = self.query
        p = float(self.probability)
        pct = f"{100 * p:.2f}%" if 0 < p < 1 else f"{100 * p:.0f}%"
        where = "" if q.drawn_given else " (the opening hand)"
        return (
            f"P({_shown(q)}) = {p:.4f} ({pct}){where}; {self.matching} of {self.deck} cards match, "
            f"{q.drawn * self.matching / self.deck if self.deck else 0:.2f} expected in {q.drawn}"
        )


def _shown(q: Query) -> str:
    text = q.text.strip()
    return text if q.drawn_given else f"{text} in {q.drawn}"


class _Parser:
    def __init__(self, text: str, view: DeckView):
        self.text, self.view = text, view
        self.toks = tokenize(text)
        self.i = 0

    def peek(self) -> Token:
        return self.toks[self.i]

    def take(self) -> Token:
        t = self.toks[self.i]
        self.i += 1
        return t

    def fail(self, tok: Token, message: str, hint: str | None = None) -> NoReturn:
        raise QueryError(self.text, tok.col, message, hint)

    def query(self) -> Query:
        if self.peek().kind == "end":
            self.fail(self.peek(), "empty query", f'e.g. {option("odds")} "type=terrain >= 1 in 6"')
        sel = self.selection()
        op = self.peek()
        if op.kind != "op":
            self.fail(
                op,
                f"expected a comparison such as '>= 1' here, found {_what(op)}",
                "a query ends with how many cards you want, e.g. '>= 2 in 7'",
            )
        self.take()
        want = self.whole("how many matching cards")
        drawn, given = self.view.hand_size, False
        t = self.peek()
        if t.keyword == "in":
            self.take()
            tok = self.peek()
            drawn, given = self.whole("how many cards are drawn"), True
            if drawn > self.view.total:
                self.fail(tok, f"cannot draw {drawn} cards from a deck of {self.view.total}")
            if drawn > MAX_DRAWN:
                self.fail(tok, f"{drawn} cards drawn; odds are computed for at most {MAX_DRAWN:,}")
        elif t.kind != "end":
            self.fail(t, f"expected 'in' and the number of cards drawn, or the end, found {_what(t)}")
        end = self.peek()
        if end.kind != "end":
            self.fail(end, f"unexpected {_what(end)} after the query")
        if not given and drawn > self.view.total:
            drawn = self.view.total
        return Query(self.text, sel, "=" if op.text == "==" else op.text, want, drawn, given)

    def whole(self, what: str) -> int:
        t = self.peek()
        if t.kind != "word" or not t.text.isdigit():
            self.fail(t, f"expected a whole number ({what}), found {_what(t)}")
        self.take()
        return int(t.text)

    def selection(self):
        parts = [self.term()]
        while self.peek().keyword == "or":
            self.take()
            parts.append(self.term())
        return parts[0] if len(parts) == 1 else AnyOf(tuple(parts))

    def term(self):
        parts = [self.factor()]
        while self.peek().keyword == "and":
            self.take()
            parts.append(self.factor())
        return parts[0] if len(parts) == 1 else AllOf(tuple(parts))

    def factor(self):
        t = self.peek()
        if t.keyword == "not":
            self.take()
            return Not(self.factor())
        if t.kind == "lparen":
            self.take()
            inner = self.selection()
            close = self.peek()
            if close.kind != "rparen":
                self.fail(close, f"expected ')' to close the '(' of column {t.col}, found {_what(close)}")
            self.take()
            return inner
        if t.keyword == "any":
            self.take()
            return Every()
        if t.kind != "word" or t.keyword is not None:
            self.fail(t, f"expected a field such as type=... here, found {_what(t)}", self.fields_hint())
        self.take()
        spec = self.view.field(t.text)
        if spec is None:
            names = [f.name for f in self.view.fields.values()]
            hint = did_you_mean(t.text, names + [a for f in self.view.fields.values() for a in f.aliases])
            self.fail(
                t,
                f"unknown field '{t.text}' for {self.view.system} cards",
                (hint + " " if hint else "") + "fields: " + ", ".join(names),
            )
        op = self.peek()
        if op.kind != "op":
            self.fail(
                op,
                f"expected '=' after the field '{t.text}', found {_what(op)}",
                f"e.g. {spec.name}={self.example(spec)}",
            )
        self.take()
        if op.text in (">=", "<=", ">", "<") and (spec.kind == "text" or not spec.ordered):
            self.fail(op, f"'{spec.name}' has no order: use = or !=")
        v = self.peek()
        if v.kind not in ("word", "string") or v.keyword in ("and", "or", "in"):
            self.fail(
                v, f"expected a value for '{spec.name}', found {_what(v)}", f"e.g. {spec.name}={self.example(spec)}"
            )
        self.take()
        raw = v.text[1:-1] if v.kind == "string" else v.text
        value = self.value(spec, raw, v)
        return Test(spec.name, "=" if op.text == "==" else op.text, value, f"{t.text}{op.text}{v.text}")

    def value(self, spec, raw: str, tok: Token):
        known = self.view.values(spec.name)
        if spec.kind == "number":
            try:
                return int(raw)
            except ValueError:
                if any(_same(k, raw) for k in known):
                    return next(k for k in known if _same(k, raw))
                self.fail(tok, f"'{spec.name}' takes a whole number, not '{raw}'")
        if spec.kind == "ordinal":
            for o in spec.order:
                if _same(o, raw):
                    return o

            short = get(self.view.system).analytics.query_value(spec.name, raw)
            if short is not None:
                return short
            if raw.isdigit() and spec.name == "cost" and int(raw) < len(spec.order) - 1:
                return spec.order[int(raw)]
            hint = did_you_mean(raw, [str(o) for o in spec.order])
            self.fail(tok, f"unknown {spec.name} '{raw}'", hint or "one of " + ", ".join(map(str, spec.order)))
        if any(_same(k, raw) for k in known):
            return raw
        if spec.name == "name":
            hint = did_you_mean(raw, [str(k) for k in known])
            self.fail(tok, f"no card named '{raw}' in this deck", hint)
        vocab = [str(k) for k in known] + self.vocabulary(spec)
        if any(_same(k, raw) for k in vocab):
            return raw  # a value the catalog knows, absent from this deck: no card matches
        hint = did_you_mean(raw, vocab)
        self.fail(
            tok,
            f"no card of this deck has {spec.name} '{raw}'",
            hint or ("values here: " + ", ".join(map(str, known)) if known else None),
        )

    def vocabulary(self, spec) -> list[str]:
        return list(get(self.view.system).analytics.query_vocabulary.get(spec.name, ()))

    def example(self, spec) -> str:
        vals = self.view.values(spec.name)
        return str(vals[0]) if vals else "..."

    def fields_hint(self) -> str:
        return "fields: " + ", ".join(self.view.fields)


def _what(t: Token) -> str:
    return "the end" if t.kind == "end" else f"'{t.text}'"


def parse(text: str, view: DeckView) -> Query:
    """Read one query against a deck; raises ``QueryError`` (one line with the column)."""
    return _Parser(str(text), view).query()


def matching(view: DeckView, selection) -> int:
    return sum(r.count for r in view.rows if _dispatch(selection, r.facts, view))


def hypergeometric(N: int, K: int, n: int, op: str, k: int) -> Fraction:
    """Exact ``P(X op k)`` for ``X`` the matching cards among ``n`` drawn from ``N`` with ``K`` matching."""
    lo, hi = max(0, n - (N - K)), min(n, K)
    xs: Sequence[int]
    if op in ("=", "=="):
        xs = range(k, k + 1)
    elif op == "!=":
        xs = [x for x in range(lo, hi + 1) if x != k]
    elif op == ">=":
        xs = range(max(k, lo), hi + 1)
    elif op == ">":
        xs = range(max(k + 1, lo), hi + 1)
    elif op == "<=":
        xs = range(lo, min(k, hi) + 1)
    else:
        xs = range(lo, min(k - 1, hi) + 1)
    total = math.comb(N, n)
    if total == 0:
        return Fraction(0)
    num = sum(math.comb(K, x) * math.comb(N - K, n - x) for x in xs if lo <= x <= hi)
    return Fraction(num, total)


def answer(text: str, view: DeckView) -> Answer:
    q = parse(text, view)
    K = matching(view, q.selection)
    return Answer(q, view.total, K, hypergeometric(view.total, K, q.drawn, q.op, q.want))
