"""The event's day on its database: the schema's migration, settings, pairing rounds, results
entered and confirmed by players or the organiser, drops and standings, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

pytest.importorskip("sqlalchemy")

from eventservers import postgres_reason


@pytest.fixture(scope="module")
def cluster(pg_cluster):
    """The run's PostgreSQL server (conftest), None without one."""
    return pg_cluster


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request, cluster):
    """None for SQLite in the event folder; a fresh PostgreSQL database's URL."""
    if request.param == "sqlite":
        return None
    if cluster is None:
        pytest.skip(postgres_reason())
    return cluster.new_database()


def test_an_event_of_the_first_schema_is_migrated_and_keeps_its_players(tmp_path, database):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import insert, inspect, select

    from builder.event import db
    from builder.event.store import Event

    ev, _org = Event.create(tmp_path / "e", "Old", "kensei", database=database)
    ((name, _tok),) = ev.add_players(["Aiko"])
    cfg = Config()
    cfg.set_main_option("script_location", str(db.Path(db.__file__).with_name("migrations")))
    with ev.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
    assert db.current_revision(ev.engine) == "0001"
    assert "rounds" not in inspect(ev.engine).get_table_names()
    ev = Event.open(tmp_path / "e")  # brought to the newest schema on opening
    assert db.current_revision(ev.engine) == "0002"
    with ev.engine.begin() as conn:
        assert conn.execute(select(db.players.c.name, db.players.c.club)).all() == [("Aiko", None)]
        rid = conn.execute(
            insert(db.rounds).values(event_id=ev.id, number=1, kind="swiss", created=db.now(), method="x")
        ).inserted_primary_key[0]
        pid = conn.execute(select(db.players.c.id)).scalar()
        conn.execute(insert(db.pairings).values(round_id=rid, table_no=1, a=pid, b=None))
    assert name == "Aiko"
