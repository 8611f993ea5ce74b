"""The event tables: events, players, submissions, openings and the audit log.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("system", sa.String(32), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("deadline", sa.String(40)),
        sa.Column("reveal_at", sa.String(40)),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("organiser_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("base_url", sa.Text, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("revoked", sa.String(40)),
    )
    op.create_index("ix_players_event_id", "players", ["event_id"])
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("list_text", sa.Text, nullable=False),
        sa.Column("canonical", sa.Text, nullable=False),
        sa.Column("packs", sa.Text, nullable=False),
        sa.Column("legal", sa.Boolean, nullable=False),
        sa.Column("verdict", sa.Text, nullable=False),
        sa.Column("total", sa.Text, nullable=False),
        sa.Column("findings", sa.Text, nullable=False),
        sa.Column("fingerprint", sa.String(32), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("late", sa.Boolean, nullable=False),
        sa.UniqueConstraint("player_id", "version", name="uq_submission_version"),
    )
    op.create_index("ix_submissions_event_id", "submissions", ["event_id"])
    op.create_table(
        "openings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("submission_id", sa.Integer, sa.ForeignKey("submissions.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
    )
    op.create_index("ix_openings_player_id", "openings", ["player_id"])
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
    )
    op.create_index("ix_audit_event_id", "audit", ["event_id"])


def downgrade() -> None:
    for name in ("audit", "openings", "submissions", "players", "events"):
        op.drop_table(name)
