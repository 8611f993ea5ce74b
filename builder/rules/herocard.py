"""Rules core and checks for herocard."""

from __future__ import annotations


def load_list(doc, catalog):
    return doc.body(), []


def check(lst, catalog, rules) -> list:
    return []


def summary(lst, catalog, rules) -> dict:
    return {}
