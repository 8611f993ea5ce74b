"""Alembic's environment for event databases: run with the connection ``builder.event.db.migrate``
passes in (``config.attributes['connection']``)."""

from alembic import context

from builder.event.db import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - always called through builder.event.db.migrate
    raise RuntimeError("event migrations run through builder.event.db.migrate")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
