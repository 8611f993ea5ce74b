"""What the ``daimyo event`` commands call, in one module: ``builder.commands.event`` imports it
when one of its commands runs, so ``daimyo --help`` loads neither this nor the database's libraries."""

from __future__ import annotations

from builder.event import day
from builder.event.db import db_error
from builder.event.intake import setting_value
from builder.event.outputs import backup, export_text, restore, verify, write_book
from builder.event.store import Event

__all__ = ["Event", "backup", "day", "db_error", "export_text", "restore", "setting_value", "verify", "write_book"]
