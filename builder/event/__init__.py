"""Events: lists handed in before a tournament, sealed until the organiser reveals them.

An event lives in a folder (``event.json``: its id, the database URL and the address players
use) and in a database: SQLite in the folder by default, PostgreSQL for an event served by
several processes. Everything an event knows is in the database, so any number of
``daimyo event serve`` processes on one database serve the same event.

* ``builder.event.db``: the tables and the migrations (Alembic) that create them;
* ``builder.event.seal``: tokens, commitments and their verification;
* ``builder.event.intake``: a submitted list read, checked and measured against the event;
* ``builder.event.store``: every action on an event (new, players, submit, lock, reveal, ...);
* ``builder.event.web``: the players' page, the organiser's dashboard and the JSON API.
"""
