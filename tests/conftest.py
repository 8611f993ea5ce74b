import atexit
import logging
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

# pdfminer, which reads printed pages back, calls its loggers' debug() for every token of every
# page it reads (millions of calls, a tenth of its time), whatever the level: debug() of these
# loggers is made a call that does nothing, as their messages are never shown here.
for _module in (
    "cmapdb",
    "converter",
    "encodingdb",
    "lzw",
    "pdfdocument",
    "pdffont",
    "pdfinterp",
    "pdfpage",
    "pdfparser",
    "psparser",
):
    vars(logging.getLogger(f"pdfminer.{_module}"))["debug"] = "".format

# ... and its parser of content streams reads one token at a time: tests/fastpdf.py gives its
# interpreter the same tokens and objects from one pass over each stream, and pdfplumber resolvers
# that give plain values back at once: the same dicts of the objects read; pypdf makes each font
# once per open PDF instead of on every page: the same text (tests/test_fastpdf.py)
import fastpdf

fastpdf.install()


def _rulebooks_dir() -> Path | None:
    """Where the rulebook texts are: $DAIMYO_RULEBOOKS (set but empty or missing: nowhere),
    else ../shared/seeds beside the project. None when they are not available."""
    env = os.environ.get("DAIMYO_RULEBOOKS")
    if env is not None:
        path = Path(env) if env else None
    else:
        path = ROOT.parent / "shared" / "seeds"
    return path if path is not None and path.is_dir() and any(path.glob("*.txt")) else None


SEEDS = _rulebooks_dir()
NO_RULEBOOKS = (
    "rulebook texts not available: set DAIMYO_RULEBOOKS to the folder holding "
    "000_ac601013730960cf.txt ... 004_80c161daf2b1fabf.txt (CI uses ../shared/seeds)"
)


def rulebook_text(name: str) -> str:
    """The text of one rulebook; the calling test is skipped with a reason when the texts are
    not available (a fresh clone needs nothing outside the repository)."""
    if SEEDS is None or not (SEEDS / name).is_file():
        pytest.skip(NO_RULEBOOKS)
    return (SEEDS / name).read_text(encoding="utf-8")


needs_rulebooks = pytest.mark.skipif(SEEDS is None, reason=NO_RULEBOOKS)


def _end_worker() -> None:
    """The last step of an xdist worker: its streams and logs flushed, the process ends at once.
    Tearing down the interpreter of a worker that ran a thousand tests (freeing every object it
    holds, one at a time) took about four seconds, which the whole run waited for; what a test
    needs undone its fixtures undo, and nothing is left to write."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def pytest_configure(config):
    """Once per run (not in each xdist worker): daimyo's sources compiled to bytecode, so that the
    many ``python -m builder`` processes the tests start read it instead of compiling every
    module again (they cannot write it themselves where PYTHONDONTWRITEBYTECODE is set). In a
    worker: ``_end_worker`` is its last step at exit (registered before any test's, so run after)."""
    if hasattr(config, "workerinput"):
        atexit.register(_end_worker)
        return
    import compileall

    compileall.compile_dir(ROOT / "builder", quiet=2, workers=1)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: unknown with -p no:xdist
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the cores this process may use. Much of a run waits on
    servers, browsers, sockets and child processes; with a worker a core, a core idled through
    every such wait (12% of the run's core time on 2 cores, against 3% with a third worker)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """The test modules' assertion-rewritten bytecode is kept in tests/__pycache__ even where
    PYTHONDONTWRITEBYTECODE is set: otherwise pytest rewrites and compiles every test module again
    on every run, in every xdist worker (about ten seconds of each worker's collection). Pytest
    checks the kept file against its source's size and time, as ever."""
    before = sys.dont_write_bytecode
    sys.dont_write_bytecode = False
    try:
        return (yield)
    finally:
        sys.dont_write_bytecode = before


# -- Hypothesis: the same cases on every run, unless asked for more ------------------------------
#: DAIMYO_FUZZ=N: N times as many examples, from a random seed (a long search for new cases)
FUZZ = int(os.environ.get("DAIMYO_FUZZ", "0") or 0)
# timing is never a reason to fail: no deadline, no "too slow" health check (a loaded machine)
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
#: "ci": derandomized (a fixed seed per test), no example database: the README's test command and
#: CI (CI=true) run exactly the same cases every time, on every machine, in any order or process
settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, print_blob=True, suppress_health_check=_QUIET
)
#: "fuzz": random cases, FUZZ times as many (``examples``), kept in the local example database so a
#: failure found is replayed on the next run
settings.register_profile(
    "fuzz",
    derandomize=False,
    deadline=None,
    print_blob=True,
    suppress_health_check=_QUIET,
    max_examples=100 * max(1, FUZZ),
)
settings.load_profile("fuzz" if FUZZ else "ci")


def examples(n: int) -> int:
    """The number of Hypothesis examples of a test that asks for ``n``: ``n`` in the suite,
    ``n * DAIMYO_FUZZ`` in a fuzzing run."""
    return n * max(1, FUZZ)


_EVENT_TEMPLATE: list[bytes] = []


def _migrate_from_template(real_migrate):
    """``builder.event.db.migrate`` in this process: a new, empty SQLite event database gets the
    bytes of one migrated once a process by Alembic (the same tables, indexes and revision; most
    of a migration's time is Alembic reading its scripts again); a PostgreSQL database already at
    the newest revision (a copy of the migrated template, ``Cluster.new_database``) is left as it
    is, as Alembic would leave it; any other database, one that holds something (an older schema),
    is migrated as it is."""
    from builder.event import db

    head: list[str] = []

    def migrate(engine) -> None:
        if engine.dialect.name == "postgresql":
            if not head:
                head.append(db.head_revision())
            if db.current_revision(engine) == head[0]:
                return None
            return real_migrate(engine)
        path = db.sqlite_path(str(engine.url))
        wal = None if path is None else path.with_name(path.name + "-wal")
        if path is None or not path.is_file() or path.stat().st_size or (wal is not None and wal.exists()):
            return real_migrate(engine)
        if not _EVENT_TEMPLATE:
            import tempfile

            with tempfile.TemporaryDirectory(prefix="daimyo-event-template-") as tmp:
                template = Path(tmp) / "event.db"
                made = db.make_engine(f"sqlite:///{template.as_posix()}", pooled=False)
                real_migrate(made)
                made.dispose()
                _EVENT_TEMPLATE.append(template.read_bytes())
        path.write_bytes(_EVENT_TEMPLATE[0])  # into the file made for it, keeping its mode
        return None

    return migrate


def pytest_runtest_setup(item):
    """Once daimyo's event database module is imported (not before: most tests never need it),
    new SQLite events start from a migrated copy (``_migrate_from_template``); the tests of
    migrations themselves start from an older schema, which is migrated for real."""
    db = sys.modules.get("builder.event.db")
    if db is not None and not getattr(db.migrate, "from_template", False):
        db.migrate = _migrate_from_template(db.migrate)
        db.migrate.from_template = True


@pytest.fixture(scope="session", autouse=True)
def _cache_dir(tmp_path_factory):
    os.environ["DAIMYO_CACHE_DIR"] = str(tmp_path_factory.mktemp("cache"))
    # the user's own packs folder never takes part in the tests
    os.environ["DAIMYO_PACKS"] = str(tmp_path_factory.mktemp("user-packs"))
    # nor the user's printer profiles
    os.environ["DAIMYO_PRINTERS"] = str(tmp_path_factory.mktemp("config") / "printers.json")
    yield


@pytest.fixture
def fresh_state():
    """Every cache of the process empty (``builder.state.clear_all``) before the test and after it:
    the test sees a fresh process, and leaves none of its entries to the next test."""
    from builder import state

    state.clear_all()
    yield state
    state.clear_all()


class CliResult:
    def __init__(self, code, stdout, stderr):
        self.code = code
        self.stdout = stdout
        self.stderr = stderr

    def __repr__(self):
        return f"CliResult(code={self.code}, stdout={self.stdout!r}, stderr={self.stderr!r})"


#: the click command typer builds for an app, by what the app holds (kept alive with it, so that
#: no id is reused): typer builds it again on every call, a tenth to a fifth of a short command's
#: time, and ``daimyo`` itself runs one command a process
_COMMANDS: dict = {}


def _click_command(args: list[str]):
    """The command ``daimyo ARGS`` runs: typer's ``app(args)`` is ``get_command(app)(args)``."""
    from typer.main import get_command

    from builder.commands.app import app_for

    one = app_for(args)
    parts = (*one.registered_commands, *one.registered_groups, one.registered_callback, one.info.callback)
    key = tuple(map(id, parts))
    hit = _COMMANDS.get(key)
    if hit is None:
        hit = _COMMANDS[key] = (parts, get_command(one))
    return hit[1]


def run_cli(*args, input=None) -> CliResult:
    """Run the typer app in-process: run_cli('check', 'file.yaml') -> CliResult (the ``cli``
    fixture; this function for fixtures of a wider scope)."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    out, err = io.StringIO(), io.StringIO()
    code = 0
    old_in = sys.stdin
    if input is not None:
        sys.stdin = io.StringIO(input)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                argv = list(map(str, args))
                rv = _click_command(argv)(argv, standalone_mode=False)
                if isinstance(rv, int):
                    code = rv
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except Exception as exc:  # typer/click exceptions in non-standalone mode
                try:  # typer 0.2x carries its own copy of click
                    import typer._click as click
                except ImportError:  # pragma: no cover
                    import click

                exit_type = getattr(click.exceptions, "Exit", None)  # not in every copy of click
                if exit_type is not None and isinstance(exc, exit_type):
                    code = exc.exit_code
                elif isinstance(exc, click.ClickException):
                    exc.show(file=err)
                    code = exc.exit_code
                elif exc.__class__.__name__ == "DaimyoError" or hasattr(exc, "diagnostics"):
                    for line in exc.lines(flags=True):
                        err.write(line + "\n")
                    code = exc.exit_code
                else:
                    raise
    finally:
        sys.stdin = old_in
    return CliResult(code, out.getvalue(), err.getvalue())


@pytest.fixture
def cli():
    """Run the typer app in-process: cli('check', 'file.yaml') -> CliResult."""
    return run_cli


@pytest.fixture(scope="session", autouse=True)
def _finding_codes_registered():
    """Every finding a check gives anywhere in the suite has a registered code (of its system, or of
    the restrictions of the catalog it was checked with), no milder than the finding; and every
    list a check accepts anywhere in the suite fits its game's list model."""
    import builder.check as check

    original = check.check_doc
    registries: dict = {}

    def checked(doc, *args, **kwargs):
        res = original(doc, *args, **kwargs)
        from builder.systems import get

        gs = get(res.system)
        if gs.document.fields:  # the check's own readers accepted the list: so does the list model
            problems = gs.document.validate(doc.data, doc.positions)
            assert not problems, f"the {res.system} list model refuses a list the check accepts: " + "; ".join(
                d.format() for d in problems
            )
        if not res.findings:
            return res

        catalog = kwargs.get("catalog")
        key = (res.system, id(catalog))
        hit = registries.get(key)
        if hit is None or hit[0] is not catalog:
            from builder.catalog.loader import load_catalog

            given = catalog if catalog is not None else load_catalog(res.system)  # the game's own catalog
            hit = registries[key] = (catalog, get(res.system).catalog.finding_codes(given))
        for f in res.findings:
            fc = hit[1].get(f.code)
            assert fc is not None, f"finding code {f.code} is not registered for {res.system} ({f.message})"
            assert fc.allows(f.severity), f"{f.code} given as {f.severity}, registered as {fc.severity}"
        return res

    check.check_doc = checked
    yield
    check.check_doc = original


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium per test process (each xdist worker), started by the first browser
    test and shared by all the others: each test opens its own context (its own cookies, storage,
    downloads and pages), so no test sees another's state. Launching a browser costs more than
    most of the tests, and a module-scoped one was started again each time a worker came back to
    the module."""
    from browserkit import browser as launch

    with launch() as b:
        yield b


@pytest.fixture(scope="session")
def forked_command(tmp_path_factory):
    """``daimyo`` as processes forked from one server that has imported daimyo (tests/forkcli.py),
    one server per test process (each xdist worker), shared by the modules that run many
    commands: each call still brings its own arguments, folder, environment and standard
    streams, and the server itself runs no command (starting one costs about a second)."""
    from forkcli import forked_daimyo

    with forked_daimyo(tmp_path_factory.mktemp("forked-bin"), dict(os.environ)) as shim:
        yield shim


@pytest.fixture(scope="session")
def shots():
    """``shots(page, "name.png", full_page=...)``: a screenshot into ``$DAIMYO_SCREENSHOTS``
    when it is set, nothing otherwise (tests/browserkit.py)."""
    from browserkit import Shots

    return Shots(os.environ.get("DAIMYO_SCREENSHOTS"))


@pytest.fixture(scope="session")
def pg_cluster():
    """A PostgreSQL server of the run's own (of each xdist worker), shared by the modules that need
    one, each test in a database of its own (``cluster.new_database()``); None when PostgreSQL is
    not available (``eventservers.postgres_reason()`` says why)."""
    from eventservers import postgres_cluster, postgres_reason

    if postgres_reason():
        yield None
        return
    with postgres_cluster(durable=False) as c:  # nothing written through to the disk: no test crashes the machine
        yield c
