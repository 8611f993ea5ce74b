"""Servers for the event tests and benchmarks: a throwaway PostgreSQL cluster (initdb into a
temporary folder, started on a free loopback port, as the ``postgres`` user when run as root)
and ``daimyo event serve`` processes on an event folder.

Without PostgreSQL's binaries ``postgres_reason()`` says why, and the tests that need it skip.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bin() -> Path | None:
    for cand in [os.environ.get("DAIMYO_PG_BIN", ""), *sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]:
        if cand and (Path(cand) / "initdb").exists() and (Path(cand) / "pg_ctl").exists():
            return Path(cand)
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


def postgres_reason() -> str | None:
    """Why the PostgreSQL tests cannot run here, or None."""
    if pg_bin() is None:
        return "PostgreSQL's initdb and pg_ctl are not installed (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a 'postgres' user to run the server as"
    return None


class Cluster:
    def __init__(self, folder: Path, port: int, run_as: list[str]):
        self.folder, self.port, self.run_as = folder, port, run_as
        self.count = 0
        self.options = ""
        self.template: str | None = None

    def url(self, database: str) -> str:
        return f"postgresql://daimyo@127.0.0.1:{self.port}/{database}"

    def _ctl(self, *args: str) -> None:
        bindir = pg_bin()
        subprocess.run(
            [*self.run_as, str(bindir / "pg_ctl"), "-D", str(self.folder / "data"), *args],
            check=True,
            capture_output=True,
            cwd=self.folder,
        )

    def stop(self) -> None:
        """Stop the server at once (every connection cut), as a crash or an administrator would."""
        self._ctl("-m", "immediate", "-w", "stop")

    def start(self) -> None:
        """Start it again on the same port, once stopped."""
        self._ctl("-l", str(self.folder / "log"), "-w", "-t", "60", "-o", self.options, "start")

    def new_database(self, prefix: str = "event", migrated: bool = False) -> str:
        """A new database's URL: empty, or with ``migrated`` a copy of one that Alembic brought
        to the newest schema once for the cluster (``CREATE DATABASE ... TEMPLATE``: the same
        tables, indexes and revision, without a migration's time for every database)."""
        import psycopg

        if migrated and self.template is None:
            template = self.new_database("template")
            from builder.event import db

            engine = db.make_engine(template, pooled=False)
            try:
                db.migrate(engine)
            finally:
                engine.dispose()
            self.template = template.rsplit("/", 1)[1]
        self.count += 1
        name = f"{prefix}_{os.getpid()}_{self.count}"
        like = f' TEMPLATE "{self.template}"' if migrated else ""
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{like}')
        return self.url(name)


@contextlib.contextmanager
def postgres_cluster(durable: bool = True):
    """A PostgreSQL server of its own for the duration; yields a ``Cluster``. ``durable=False``
    (the tests' server) writes nothing through to the disk before it answers (``fsync=off``,
    ``synchronous_commit=off``): a commit is as visible to every connection, and survives the
    crash of a client or of a daimyo server, only not of the machine, which no test makes."""
    bindir = pg_bin()
    tmp = Path(tempfile.mkdtemp(prefix="daimyo-pg-"))
    data, sock = tmp / "data", tmp / "sock"
    sock.mkdir()
    run_as: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(tmp, "postgres")
        shutil.chown(sock, "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    log = tmp / "log"
    options = f"-p {port} -k {sock} -c listen_addresses=127.0.0.1 -c max_connections=200" + (
        "" if durable else " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    )
    try:
        subprocess.run(
            [
                *run_as,
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                "daimyo",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
            check=True,
            capture_output=True,
            cwd=tmp,
        )
        subprocess.run(
            [
                *run_as,
                str(bindir / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(log),
                "-w",
                "-t",
                "60",
                "-o",
                options,
                "start",
            ],
            check=True,
            capture_output=True,
            cwd=tmp,
        )
        cluster = Cluster(tmp, port, run_as)
        cluster.options = options
        yield cluster
    finally:
        subprocess.run(
            [*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            cwd=tmp,
        )
        shutil.rmtree(tmp, ignore_errors=True)


def start_server(folder, port: int | None = None, timeout: float = 120.0):
    """``daimyo event serve FOLDER`` in a process of its own; ``(process, url)`` once it answers."""
    port = port or free_port()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "builder", "event", "serve", str(folder), "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + timeout
    while True:
        try:
            with urllib.request.urlopen(url + "/api/event", timeout=5):
                return proc, url
        except OSError as err:
            if proc.poll() is not None or time.time() > deadline:
                out = proc.stdout.read().decode(errors="replace") if proc.poll() is not None else ""
                proc.kill()
                raise RuntimeError(f"the event server did not start: {out}") from err
            time.sleep(0.01)  # refused at once until the server listens: asking often costs little


def stop_server(proc) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
    if proc.stdout:
        proc.stdout.close()
