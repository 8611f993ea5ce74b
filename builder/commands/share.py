"""CLI commands: share."""

from __future__ import annotations


def register(app) -> None:
    """Add this module's commands to the typer app."""
