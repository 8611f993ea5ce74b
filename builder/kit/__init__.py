"""The toolkit the games build on, below them: printing (fonts, the reportlab adapter, the page
layout in millimetres, the PDF canvas and story, the block toolkit of rosters, setup sheets and
player aids), the deck view and statistics primitives of analytics, the fields and text helpers
of the share forms, the readers of a list document's keys and counts, and the list document's edit
primitives.

It imports only the core (``builder.errors``, ``builder.yamlio``, ...), never a game, the
registry or the library's services (check, print, share, edit), which are built on it.
"""
