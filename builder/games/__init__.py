"""The games: one package per game, ``builder.games.<id>``.

Each package holds everything that belongs to one game: its catalog models (``catalog``),
its rules (``rules``), its description for the rest of daimyo (``system``, the object the
registry in ``builder.systems`` hands out) and the parts only that game has (a text form, a
roster, a setup sheet, a simulator). The rest of daimyo reaches a game through the registry,
never by importing its package.
"""
