"""The event's day: players' clubs, the day's settings, rounds, pairings, results, drops and the
log of every change to them.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("club", sa.Text, nullable=True))
    op.create_table(
        "event_settings",
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), primary_key=True),
        sa.Column("win", sa.Integer, nullable=False),
        sa.Column("draw", sa.Integer, nullable=False),
        sa.Column("loss", sa.Integer, nullable=False),
        sa.Column("bye", sa.Integer, nullable=False),
        sa.Column("tiebreaks", sa.Text, nullable=False),
        sa.Column("avoid_club", sa.Boolean, nullable=False),
        sa.Column("fresh_tables", sa.Boolean, nullable=False),
        sa.Column("first_round", sa.String(16), nullable=False),
        sa.Column("seed_order", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("swiss_rounds", sa.Integer),
        sa.Column("top", sa.Integer),
        sa.Column("updated", sa.String(40), nullable=False),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.Column("method", sa.Text, nullable=False),
        sa.Column("draw", sa.Text),
        sa.UniqueConstraint("event_id", "number", name="uq_round_number"),
    )
    op.create_index("ix_rounds_event_id", "rounds", ["event_id"])
    op.create_table(
        "pairings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("a", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("b", sa.Integer, sa.ForeignKey("players.id")),
        sa.UniqueConstraint("round_id", "table_no", name="uq_pairing_table"),
    )
    op.create_index("ix_pairings_round_id", "pairings", ["round_id"])
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("pairing_id", sa.Integer, sa.ForeignKey("pairings.id"), nullable=False, unique=True),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("score_a", sa.Integer),
        sa.Column("score_b", sa.Integer),
        sa.Column("entered_by", sa.Text, nullable=False),
        sa.Column("entered_at", sa.String(40), nullable=False),
        sa.Column("confirmed_by", sa.Text),
        sa.Column("confirmed_at", sa.String(40)),
        sa.Column("disputed_by", sa.Text),
        sa.Column("disputed_at", sa.String(40)),
        sa.Column("dispute", sa.Text),
    )
    op.create_table(
        "changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("round", sa.Integer),
        sa.Column("table_no", sa.Integer),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("ix_changes_event_id", "changes", ["event_id"])
    op.create_table(
        "drops",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, unique=True),
        sa.Column("after_round", sa.Integer, nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.Text, nullable=False),
    )
    op.create_index("ix_drops_event_id", "drops", ["event_id"])


def downgrade() -> None:
    for name in ("drops", "changes", "results", "pairings", "rounds", "event_settings"):
        op.drop_table(name)
    with op.batch_alter_table("players") as batch:
        batch.drop_column("club")
