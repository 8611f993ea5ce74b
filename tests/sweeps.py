"""Sweeps and the quick loop: the first case of each group of a parametrized sweep runs in
``-m 'not slow'``, the others are marked slow; the README's command runs them all."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest


def quick_first(
    cases: Iterable[Any], group: Callable[[Any], Any] = lambda case: None, unpack: bool = False
) -> list[Any]:
    """``cases`` for ``pytest.mark.parametrize``, every case but the first of its ``group`` marked
    slow; ``unpack``: each case is a tuple of several arguments."""
    seen: set[Any] = set()
    out: list[Any] = []
    for case in cases:
        key = group(case)
        if key in seen:
            out.append(pytest.param(*(case if unpack else (case,)), marks=pytest.mark.slow))
        else:
            seen.add(key)
            out.append(pytest.param(*case) if unpack else case)
    return out
