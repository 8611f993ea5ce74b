"""The syntax trees of daimyo's sources, parsed once per test process: the sources do not change
during a run, and many tests walk every module of the package (the architecture's rules, the
names reached, the functions' lengths, the classes and caches a module makes ...), each of which
parsed every module again. A tree handed out is shared: callers read it and never change it."""

from __future__ import annotations

import ast
import functools


@functools.cache
def parsed(source: str) -> ast.Module:
    """``ast.parse(source)``, once for each text."""
    return ast.parse(source)
