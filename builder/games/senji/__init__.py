"""Senji: catalog models, rules, text form and setup sheet."""
