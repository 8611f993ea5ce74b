"""Satsuma Rebellion: catalog models, rules, the game simulator and clashes."""
