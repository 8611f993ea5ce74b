"""Deck analytics: statistics, exact draw odds, sample hands and Satsuma game simulation.

Pure computations over what the rules cores load and evaluate; the command line is
in ``builder.commands.analytics`` and the charts in ``builder.render.charts``.
"""
