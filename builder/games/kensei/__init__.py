"""Kensei: the army builder's catalog models, rules, text form and roster."""
