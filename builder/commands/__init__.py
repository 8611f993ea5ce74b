"""CLI command groups; each module adds its commands with register(app)."""
