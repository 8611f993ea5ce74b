"""Event servers as separate processes: two ``daimyo event serve`` on one PostgreSQL serve one
event (nothing is kept in a server's memory), and a server killed with SIGKILL in the middle of
submissions has lost none it acknowledged (SQLite and PostgreSQL)."""

from __future__ import annotations

import os
import signal
import threading

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from eventservers import postgres_reason, start_server, stop_server
from plainhttp import no_tls
from test_event import BUKE, KUGE, add_players, new_event


@pytest.fixture(scope="module")
def cluster(pg_cluster):
    """The run's PostgreSQL server (conftest), None without one."""
    return pg_cluster


def pg_url(cluster):
    if cluster is None:
        pytest.skip(postgres_reason())
    return cluster.new_database(migrated=True)


def post(url, token, text):
    return httpx.post(
        url + "/api/submissions",
        json={"list": text},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
        verify=no_tls(),
    )


@pytest.mark.slow  # two server processes, a PostgreSQL cluster
def test_two_servers_on_one_postgresql_serve_one_event(tmp_path, cli, cluster):
    folder = str(tmp_path / "league")
    org = new_event(cli, folder, pg_url(cluster))
    tok = add_players(cli, folder, "Aiko", "Bo")
    (a, url_a), (b, url_b) = start_server(folder), start_server(folder)
    try:
        first = post(url_a, tok["Aiko"], KUGE)
        second = post(url_b, tok["Aiko"], BUKE)  # the same player, the other server: the next version
        assert (first.status_code, second.status_code) == (201, 201)
        assert (first.json()["version"], second.json()["version"]) == (1, 2)
        assert post(url_b, tok["Bo"], BUKE).status_code == 201
        boards = [
            httpx.get(u + "/api/event", headers={"Authorization": f"Bearer {org}"}, verify=no_tls()).json()
            for u in (url_a, url_b)
        ]
        assert boards[0] == boards[1]
        assert [(p["player"], p["submission"]["version"]) for p in boards[0]["players"]] == [("Aiko", 2), ("Bo", 1)]
        # locked through one server, the other takes no more lists
        assert (
            httpx.post(url_a + "/api/lock", headers={"Authorization": f"Bearer {org}"}, verify=no_tls()).status_code
            == 200
        )
        assert post(url_b, tok["Bo"], KUGE).status_code == 409
    finally:
        stop_server(a)
        stop_server(b)


@pytest.mark.slow  # server processes started and killed
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_killed_server_loses_no_acknowledged_submission(tmp_path, cli, cluster, backend):
    """20 players hand in from 20 threads at once; the server is killed with SIGKILL in the middle
    and started again: every list it acknowledged (201) is stored, and at most the lists in flight
    (one a thread) are stored unanswered."""
    from sqlalchemy import select

    from builder.event.db import submissions
    from builder.event.store import Event

    folder = str(tmp_path / "league")
    new_event(cli, folder, pg_url(cluster) if backend == "postgresql" else None)
    threads = 20
    names = [f"P{i:02d}" for i in range(threads * 3)]
    tok = add_players(cli, folder, *names)
    proc, url = start_server(folder)
    acknowledged, errors = [], []
    enough = threading.Event()
    lock = threading.Lock()

    def hand_in(mine):
        for n in mine:
            try:
                r = post(url, tok[n], BUKE)
            except httpx.HTTPError as exc:  # the server died under this one: not acknowledged
                errors.append(type(exc).__name__)
                return
            if r.status_code == 201:
                with lock:
                    acknowledged.append(r.json()["commitment"])
                    if len(acknowledged) >= 15:
                        enough.set()

    workers = [threading.Thread(target=hand_in, args=(names[i::threads],)) for i in range(threads)]
    for w in workers:
        w.start()
    assert enough.wait(300), "no submissions acknowledged"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    for w in workers:
        w.join(120)
    stop_server(proc)
    ev = Event.open(folder)
    with ev.engine.connect() as conn:
        stored = set(conn.execute(select(submissions.c.commitment)).scalars())
    assert len(acknowledged) >= 15 and set(acknowledged) <= stored
    assert len(stored) - len(acknowledged) <= threads  # at most the ones in flight, stored but never answered
    # and the event goes on: a new server takes the next list
    proc, url = start_server(folder)
    try:
        assert post(url, tok[names[-1]], KUGE).status_code == 201
    finally:
        stop_server(proc)
