"""A ``daimyo`` command on PATH whose processes start in milliseconds, for tests that run many
commands through a shell (the documentation's tours, concurrent edits).

Each call of the command is still a process of its own with the shell's standard input, output
and error, working folder, environment, exit code and signals: a small launcher (Python without
site packages) hands them to a server that has imported daimyo once and forks a child for every
call, which runs ``builder.cli.main`` as ``python -m builder`` would. What is saved is only the
interpreter's start and the imports, about half a second a command. The entry point itself (a
fresh interpreter) is tested by the tests that start ``python -m builder`` or an installed
``daimyo``.

    with forked_daimyo(bin_dir, env):   # bin_dir/daimyo now exists; put bin_dir on PATH
        subprocess.run(["bash", "-c", "daimyo check army.yaml"], env=env, ...)
"""

from __future__ import annotations

import os
import signal
import socket
import struct
import sys

TESTS = os.path.dirname(os.path.abspath(__file__))
#: imported by the server before its first fork, besides every module of daimyo itself
PRELOAD = ("ruamel.yaml", "pydantic", "reportlab.pdfgen.canvas", "PIL.Image", "segno")
_HEAD = struct.Struct("!I")
#: in a command's environment, "1" sends `daimyo check` through the typer app, not its quick route
TYPER_ROUTE = "DAIMYO_TEST_TYPER_ROUTE"


def _read_exactly(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        part = conn.recv(n - len(data))
        if not part:
            raise EOFError
        data += part
    return data


# -- the launcher (runs as `python -IS`: the standard library only) ------------------------------


def launch(address: str) -> None:
    """The ``daimyo`` on PATH: send argv, folder, environment and fds 0-2 to the server, forward
    signals to the child it forks, and exit with the child's exit code."""
    import json

    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(address)
    body = json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    socket.send_fds(conn, [_HEAD.pack(len(body))], [0, 1, 2])
    conn.sendall(body)
    replies = conn.makefile("rb")
    child = int(replies.readline().split()[1])
    forwarded = []

    def forward(signum, _frame):
        forwarded.append(signum)
        try:
            os.kill(child, signum)
        except ProcessLookupError:
            pass

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(sig, forward)
    line = replies.readline()
    if line.startswith(b"exit "):
        sys.exit(int(line.split()[1]))
    if forwarded:  # the child died of the signal it was sent: so does the launcher
        signal.signal(forwarded[-1], signal.SIG_DFL)
        os.kill(os.getpid(), forwarded[-1])
    sys.exit(1)


# -- the server ----------------------------------------------------------------------------------


def _run_child(conn: socket.socket) -> None:
    import json

    head, fds, _flags, _addr = socket.recv_fds(conn, _HEAD.size, 3)
    call = json.loads(_read_exactly(conn, _HEAD.unpack(head)[0]))
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    conn.sendall(f"pid {os.getpid()}\n".encode())
    os.chdir(call["cwd"])
    os.environ.clear()
    os.environ.update(call["env"])
    sys.argv = ["daimyo", *call["argv"]]
    code = 1
    declined: list = []  # the calls the quick route was asked about and declined, under TYPER_ROUTE
    try:
        import builder.cli

        if os.environ.get(TYPER_ROUTE) == "1":  # the quick route of `check` turned off
            builder.cli.quick_check_args = declined.append  # None for every call: the typer app
        builder.cli.main()
        code = 0
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
    if os.environ.get(TYPER_ROUTE) == "1" and not declined:  # said, so that no comparison passes unseen
        print("forkcli: the quick route of `check` was never asked, so never turned off", file=sys.stderr)
    try:
        import atexit

        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        conn.sendall(f"exit {code}\n".encode())
        os._exit(code)


def serve(address: str) -> None:
    import importlib
    import pkgutil

    import builder

    names = [m.name for m in pkgutil.walk_packages(builder.__path__, "builder.") if not m.name.endswith("__main__")]
    for name in (*PRELOAD, "builder.cli", *names):
        try:
            importlib.import_module(name)
        except ImportError:  # an optional extra that is not installed: imported on demand, as ever
            pass
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(address)
    srv.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the system
    print("ready", flush=True)
    while True:
        conn, _ = srv.accept()
        if os.fork() == 0:
            srv.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                _run_child(conn)
            finally:
                os._exit(1)
        conn.close()


# -- the test's side -----------------------------------------------------------------------------


class forked_daimyo:
    """Context manager: start the server (in ``env``, the environment the commands get) and write
    ``bin_dir/daimyo``, the launcher; stop the server at the end."""

    def __init__(self, bin_dir, env: dict[str, str]):
        self.bin_dir = bin_dir
        self.env = env

    def __enter__(self):
        import subprocess
        import uuid

        address = f"\0daimyo-test-{uuid.uuid4().hex}"  # an abstract socket: no file, no path length limit
        self.server = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "serve", address.encode("unicode_escape").decode()],
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            text=True,
        )
        ready = self.server.stdout.readline()
        if ready.strip() != "ready":
            self.server.kill()
            raise RuntimeError(f"the daimyo fork server did not start: {ready!r}")
        shim = self.bin_dir / "daimyo"
        shim.write_text(
            f"#!{sys.executable} -IS\nimport sys\nsys.path.insert(0, {TESTS!r})\n"
            f"from forkcli import launch\nlaunch({address!r})\n",
            encoding="utf-8",
        )
        shim.chmod(0o755)
        return shim

    def __exit__(self, *exc):
        self.server.terminate()
        self.server.wait(timeout=30)
        self.server.stdout.close()


if __name__ == "__main__" and sys.argv[1:2] == ["serve"]:
    sys.path.pop(0)  # this folder: daimyo's own imports only, as under `python -m builder`
    serve(sys.argv[2].encode().decode("unicode_escape"))
