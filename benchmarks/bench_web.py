"""Load on the web builder: concurrent clients editing different lists through the JSON API.

Run: python benchmarks/bench_web.py [--clients 20] [--seconds 30]
     python benchmarks/bench_web.py --mix [--think 0.5]   (the builder page's own edits)
     python benchmarks/bench_web.py --in-process 300   (the edit and check alone, no HTTP)
     python benchmarks/bench_web.py --profile 100   (cProfile of the page mix's work, in process)
     python benchmarks/bench_web.py --mix --workers 2   (two server processes: 'daimyo serve --workers 2')

Starts ``daimyo serve`` on 127.0.0.1 (a separate process, as a person runs it) over a
temporary workspace holding one 600 AP Kensei list per client. Each client, on its own
keep-alive connection, changes the models of its list's units again and again
(``POST /api/lists/F/edit``: the change is saved and the list checked, and the answer
carries the new total, verdict and findings), sending the version of its last answer so
that a lost or crossed update would be refused. It reports requests per second, the
latency percentiles, errors, and whether every client's file ends exactly as its
sequence of changes says (no lost edit). Goal: p95 under 100 ms.
Only loopback is used; the run stops by itself.

``--mix``: each client is a player on the builder page instead, through the page's own routes
(it opens ``GET /l/F`` first, untimed, then ``POST /l/F/edit`` and ``/l/F/undo``, form-encoded,
answered with the list's HTML): +, -, a typed count, Add from the catalog, remove, the list's
name and undo. Goal: p95 under 50 ms. By default the clients form a closed loop (each sends its
next edit as soon as the answer is in: the stress case); ``--think S`` makes each pause about S
seconds before each edit (uniform between S/2 and 3S/2, seeded per client), as a person
clicking does. ``--profile N`` runs one client's mix in this process through the app's routes
with the work of each request (read, edit, check, save, the list's HTML) under cProfile.

Drawing the list's HTML was about 22 ms of each answer of the page's routes (12 rows of 600 AP):
each row is now drawn once and kept until its data changes (``builder/web/fragments.py``), so an
edit redraws one row. Measured on 2 CPUs shared with other work (load average 9-10), 20
clients, 15 s: p95 1133 ms and 18.2 ms server CPU per request before, 769 ms and 16.5 ms after;
in-process, the list's HTML takes about 7 ms instead of 18-26 ms.

Where a page edit's time went then (``--profile``, and the same work timed per part without
the profiler; CPU per request, in process): the answer's HTML 5.9 ms (the house rules and
settings drawn afresh each time, the rows' cache keys as sorted JSON), the edit and its one
check 2.5 ms, the save 1.1 ms of CPU but 7 ms of wall time (the fsync of the temporary file
before the rename, taken outside the folder lock; there is no other fsync), the page's view
1.6 ms, looking the session and catalog up again for the answer 0.5 ms: 12.5 ms in all. The
settings and house rules are now kept like the rows, a catalog's house-rule words worked out
once, the cache keys a ``repr`` and the answer drawn from the session's own document, catalog
and check: 8.0 ms in all, of which the HTML 2.6 ms.

Figures (2 CPUs shared with other work, 20 clients, 15 s, no error and no lost edit in any run):

                      load   req/s   p50 ms  p95 ms  p99 ms  max ms  server CPU/request
  closed loop, before  8.4    80.8    233.1   378.3   441.6   589.3   11.3 ms
  closed loop, after   3.9    91.9    211.2   290.1   387.3   519.4    9.8 ms
  --think 0.5, before  3.8    35.1     30.5    76.5   147.9   178.9   13.5 ms
  --think 0.5, after   3.6    35.9     24.1    60.6   139.0   185.2   11.6 ms

The closed loop is bound by the interpreter: one process runs Python on one core at a time, so
about 90 answers a second at ~10 ms each, and 20 clients that never pause wait ~20 / 90 s for
their turn; its p95 cannot come near 50 ms without several server processes. With players'
pauses the p50 is about the time of one request alone (CPU plus the fsync); the p95 (goal 50 ms)
is still above it on this shared machine, set by bursts of requests meeting on the one core and
by the other work's load.

Then the answer's forms were read straight from the body (URL-encoded, no multipart parser),
the pages drawn without the framework's template response, and each row's key written out from
the row alone (what the rows show of the list is written out once per answer; the house rules
keyed by a digest of their words, worked out once per catalog, and their choices): the list's
HTML takes 0.6 ms instead of 1.2 ms in process. ``daimyo serve --workers N`` runs N processes
(the undo history and lock of each list in the workspace's ``.daimyo/history/``; ``--workers``
here). Measured back to back, the code before, then after with one and with two processes (load
average 6.5-9.8, rising during the runs with the other work on the machine):

                              load   req/s   p50 ms  p95 ms  p99 ms  max ms  server CPU/request
  closed loop, before          6.5   100.2    185.7   291.8   343.6   394.3   6.6 ms
  closed loop, after           7.4    65.8    284.9   424.0   660.0   772.1   7.1 ms
  closed loop, 2 processes     8.7    89.2    188.4   370.3   439.3   524.4   7.4 ms
  --think 0.5, before          9.2    33.2     38.6   171.9   220.6   277.4   7.4 ms
  --think 0.5, after           8.9    33.2     40.2   281.6   400.7   444.6   7.7 ms
  --think 0.5, 2 processes     9.8    31.9     43.9   226.1   341.9   404.2  10.3 ms
  a second round, an hour later:
  closed loop, before          7.1    77.4    238.4   357.1   513.5   551.5   7.1 ms
  closed loop, after           7.2    71.5    262.6   373.9   571.5   622.7   7.3 ms
  closed loop, 2 processes     8.1    91.5    192.3   389.9   485.1   568.0   8.2 ms
  --think 0.5, before          5.6    36.4     17.3    39.5   202.2   220.3   7.4 ms
  --think 0.5, after           5.8    36.2     18.7    43.7   109.5   144.3   6.6 ms
  --think 0.5, 2 processes     6.7    32.2     39.6   173.4   328.9   399.7   9.2 ms

With two processes the runs above warmed one of them only (the other loaded the catalog during
the run); warming both (checks on several connections at once, now the default), at load 8.1:
--think 0.5 p95 77.3 ms (p50 25.9 ms, 9.4 ms CPU per request), closed loop p95 586.0 ms at 8.9.
With players' pauses the goal is met (p95 under 50 ms) once the machine's load falls to ~5.6,
before as after; one client alone measured 6.6-7.3 ms of server CPU per request before and
6.2-8.1 ms after (three runs each, load 6.5-7.1).

At this load the runs differ by more than the change: the same code measured 8.9 ms of CPU per
request and a p95 of 471 ms (closed loop) an hour earlier, and the CPU time of one request
itself swells with the machine's load (the API's models change took 1.5 ms at load 0.8 and
6.5 ms at load 10). In process, one client, the page mix's work is 8-10 ms of CPU per edit
either way (TestClient included). Where it goes now (in process, CPU per edit): the library's
edit session 1.8-3.7 ms by kind (a models change made in the text 1.8 ms; add, remove and the
name through the YAML tree 2.7-3.7 ms), of which the save ~1.1 ms (temporary file, fsync, lock,
rename: mostly the kernel's; the fsync alone ~0.3 ms of CPU and 2-10 ms of waiting for the
disk here); the page's view 0.5-0.7 ms; the list's HTML 0.6 ms; HTTP, the guard and routing
~0.8 ms (a 404 costs that). The fsync stays: without it a crash could leave an empty list on
file systems that do not order the rename after the data (it is a wait, not CPU: it holds no
lock the other lists need and lets other requests run meanwhile). Two processes add ~1 ms per
edit (the shared history read and written, the lock file) and pay off only with idle cores.

So 50 ms at p95 for 20 clients in a closed loop is out of reach on 2 shared cores: 20 clients x
~7 ms is 140 ms of CPU per round, one core gives a mean of at least 140 ms, two whole cores (with
the load generator's 20 threads and the other work on them) at least 70 ms; it needs ~2 ms per
request per free core, i.e. a quiet machine (where a request's CPU time shrinks, as the API's
did from 6.5 to 1.5 ms) with ``--workers 2``, or a cheaper edit session and save in the library. With players' pauses, 33
requests a second take a quarter of one core: the p50 is one request stretched by the
machine's load (at load 9 a runnable thread gets about 2/9 of a core), and the p95 is the
machine's.

Then the CPU of one page edit was cut where the work was done twice or drawn afresh needlessly
(measured in process with the CPU clock of each thread, and with the server in the same process
to split its CPU between the edit's work and the rest; each figure per edit, at load 4-7):

* the page's edit, undo and redo go straight from the guard to their route functions
  (``PageEdits`` in ``builder/web/app.py``), past the framework's middleware, routing and
  parameter reading: the server's CPU outside the edit's work 1.8 -> 1.3-1.4 ms;
* the answer uses the file the edit resolved and the packs it checked, instead of resolving
  and checking them again: 0.13 ms;
* a row is drawn as its body (``_entry_body.html``) and its findings, each kept: a change of
  one unit's models moved the findings of 1-2 other rows (the list's total changed) and drew
  those rows whole again (0.4-0.6 ms each); now only their findings: the answer's HTML
  2.1 -> 1.4 ms;
* ``num`` (every number the page shows) no longer checks ints and strings against Fraction's
  abstract base class: the list's view 0.45-0.7 -> 0.35-0.4 ms.

The edit's work in process went from 6.5-7.2 to 5.6-6.2 ms per edit (the edit session 1.3-1.9,
its save 1.0-1.3, the view 0.4, the HTML 1.4). uvicorn's settings were already the cheapest:
``daimyo serve`` takes httptools and uvloop when installed (both are dependencies) and logs no
access; with h11 the rest was 2.1 ms instead of 1.8, with asyncio's loop 2.0. The load
generator (this process: 20 threads, a regular expression over each ~69 KB answer) takes
0.7-1.1 ms of CPU per request on the same cores (``client CPU`` in the report). The server's
kernel share (writing, fsync, rename, locks, sockets) is 0.9-1.6 ms of the server's CPU per
request. Measured back to back, the code before, then after (2 CPUs shared with other work):

                              load   req/s   p50 ms  p95 ms  server CPU/request  client CPU
  closed loop, before          4.9    67.4    254.3   480.2   9.56 ms             0.83 ms
  closed loop, after           5.5    85.9    215.3   327.1   8.33 ms             0.82 ms
  --think 0.5, before          5.9    35.0     29.4    62.6  11.25 ms             1.08 ms
  --think 0.5, after           5.1    34.0     30.5    89.4  10.45 ms             1.15 ms
  --workers 2, before          5.1    61.0    288.7   500.4  12.47 ms             0.84 ms
  --workers 2, after           6.1   101.1    172.8   327.0   8.71 ms             0.71 ms
  --workers 2 --think 0.5, b.  9.2    34.5     44.3    99.8  12.22 ms             1.06 ms
  --workers 2 --think 0.5, a.  9.0    32.7     32.2    71.0  11.50 ms             1.06 ms

Then ``daimyo serve`` ran Python's cyclic garbage collector less often (``collect_less`` in
``builder/web/launch.py``: thresholds 10000, 10, 10 instead of 700, 10, 10). In process, the
default ran a few collections per edit and now and then a full one over every object the server
keeps: 70-80 ms at once. Measured on the server back to back (load 2.9-3.6), the CPU per request
did not move beyond the noise (6.9 -> 7.4 ms closed loop, 8.7 -> 8.1 ms with pauses), the tail
did: closed loop p99 277 -> 219 ms and max 320 -> 252 ms, with pauses p99 62 -> 32 ms and max
81 -> 47 ms.

A second round of the whole, on a quieter machine (the code before this round, then after,
back to back):

                              load   req/s   p50 ms  p95 ms  p99 ms  server CPU/request  client
  closed loop, before          2.1   115.7    166.3   244.1   344.2   8.13 ms             0.70 ms
  closed loop, after           2.6   158.6    117.2   172.2   185.9   5.83 ms             0.62 ms
  --think 0.5, before          3.5    36.6     15.7    41.9   101.1  10.25 ms             1.01 ms
  --think 0.5, after           2.9    36.6     16.1    34.4    49.8   7.82 ms             0.90 ms
  --workers 2, before          2.8    78.9    222.6   418.9   494.6  11.23 ms             0.81 ms
  --workers 2, after           4.3   100.0    187.3   289.2   325.3   8.93 ms             0.76 ms
  --workers 2 --think 0.5, b.  4.7    34.1     27.8    66.5    99.7  13.37 ms             1.06 ms
  --workers 2 --think 0.5, a.  4.2    35.6     25.9    62.9    79.2  11.36 ms             1.16 ms

No run lost an edit or had an error. With players' pauses each request costs more CPU than in
the closed loop (each wakes the idle server alone), and its p95 is set by the machine's other
load. The closed loop's p95 under 50 ms stays out of reach on these 2 shared cores: it would
need about 2-3 ms of server CPU per request; what is left per edit is the library's edit
session and its durable save (~2.5-3 ms together), the list's view and HTML (~1.8 ms), HTTP
(~1.3 ms) and the kernel's share.

Then the web editor stopped reading again what it already held. Each list's session is kept with
the identity of its file as the server last read or wrote it (device, inode, size, times of
change: ``stamp_of`` in ``builder/web/editing.py``): an edit whose file still has it starts from
the session's parsed and checked document, and a stale version from the page is refused without
reading; a file replaced or written since (the other process of ``--workers 2``, a text editor)
is read and checked afresh. The save still compares the file with the text the change was made
from, under the folder lock, so a change on disk that kept the identity is refused as a conflict,
never written over. With several processes each keeps the shared undo history it last wrote or
read with that file's identity, and reads it again only when another process wrote it (0.37 ->
0.05 ms per edit). The edit session keeps the last few states (text, document, check) that an
edit, undo or redo left, so an undo soon after takes its state instead of reading and checking
its text again (1.4 ms per undo). In process, one client's page mix: 8.2 -> 7.7 ms of CPU per
edit (load 12-14). Measured on the server back to back (the code before, then after; 2 CPUs
shared with other work at a load of 9-18, which swells every figure: compare within a pair):

                                  load       req/s   p50 ms  p95 ms  p99 ms  server CPU/request  client
  closed loop, before              9.4-10.6   31.3    520.7   936.1  1082.4  10.74 ms            1.00 ms
  closed loop, after              10.6-11.4   39.5    435.8   751.7   896.0   9.85 ms            1.02 ms
  --workers 2, before             11.4-12.5   34.1    563.2   999.7  1126.5  13.55 ms            1.02 ms
  --workers 2, after              12.5-13.6   47.9    344.9   634.4   753.3  11.41 ms            0.93 ms
  --think 0.5, before             13.6-13.3   26.3    100.3   489.8   763.5  11.67 ms            1.26 ms
  --think 0.5, after              13.3-12.5   33.0     48.5   168.7   234.9   9.38 ms            1.13 ms
  --workers 2 --think 0.5, b.     12.5-12.4   27.6     83.9   293.2   407.7  13.86 ms            1.16 ms
  --workers 2 --think 0.5, a.     12.4-14.7   24.8    167.3   415.2   810.9  13.78 ms            1.31 ms
  a second round, right after:
  closed loop, before             13.8-16.7   34.0    495.2   909.1  1075.7  10.74 ms            1.03 ms
  closed loop, after              16.7-17.4   43.8    381.6   771.8  1089.9   9.45 ms            0.94 ms
  --workers 2, before             17.4-17.2   22.5    616.8  2031.3  2241.4  16.13 ms            1.09 ms
  --workers 2, after              17.2-17.5   48.5    334.7   717.1   895.1  11.50 ms            0.92 ms
  --think 0.5, before             17.5-18.2   25.0     99.5   542.8   693.2  10.59 ms            1.20 ms
  --think 0.5, after              18.2-17.7   25.7    133.7   485.4   641.7  11.00 ms            1.20 ms
  --workers 2 --think 0.5, b.     17.7-14.8   26.3     73.0   407.2   532.8  13.53 ms            1.17 ms
  --workers 2 --think 0.5, a.     14.8-12.0   35.3     28.4    61.0    91.7  11.40 ms            1.11 ms

No run lost an edit or had an error. The server's CPU per request fell by 1-2 ms in the closed
loop with one process and 2-4.6 ms with two; with pauses the pairs cross (one each way), at this
load the noise is larger than the change. The goal (p95 under 50 ms in a closed loop of 20) is
still far: what an edit costs in process now (one client, load ~12): the edit session 2.1 ms
(reading and checking the new text 1.5 ms of it: the check 1.0, the reading 0.4), the save
1.2-1.4 ms (mostly the kernel's), the shared history's write 0.7 ms with two processes (each
text's JSON now kept from the write before: 0.96 -> 0.66 ms, after the runs above), the
list's view 1.0 ms and its HTML about 2 ms. What is left to try: answering an edit with only
what changed (the row, the totals, the findings, undo and redo, as out-of-band swaps) instead of
the whole list, which would spare most of the view and HTML; and a check that works out again
only what an edit can change.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TROOPS = [  # an Otokodate army of 600 AP with a daimyo commander (20 AP)
    ("Taisho Otokodate", 1),
    ("Assassin", 1),
    ("Yari Ashigaru", 15),
    ("Otokodate Ashigaru Katana", 15),
    ("Ozutzu Cannon", 5),
    ("Yari Ashigaru", 15),
    ("Otokodate Ashigaru Katana", 15),
    ("Ozutzu Cannon", 5),
    ("Yari Ashigaru", 12),
    ("Otokodate Ashigaru Katana", 12),
    ("Peasants", 8),
    ("Ozutzu Cannon", 1),
]
UNITS = [i for i, (_, n) in enumerate(TROOPS) if n > 1]  # the entries whose models are changed


def list_text(n: int) -> str:
    lines = [
        "# load test list",
        "system: kensei",
        f"name: Load test {n}",
        "clan: otokodate",
        "points: 600",
        "commander: daimyo",
        "troops:",
    ]
    for name, models in TROOPS:
        lines.append(f"  - troop: {name}")
        if models != 1:
            lines.append(f"    models: {models}")
    return "\n".join(lines) + "\n"


def _cpu_of(pid: int, part: slice = slice(11, 13)) -> float:
    """CPU seconds (user + system; ``part``: the fields of /proc's stat to add, 11 user, 12
    system) used so far by the process ``pid`` and its children (the server's workers), from
    /proc; NaN where there is no /proc."""
    total = 0.0
    try:
        tick = os.sysconf("SC_CLK_TCK")
        pids = [pid]
        for p in list(pids):
            try:
                kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
            except OSError:
                kids = []
            pids.extend(int(k) for k in kids)
        for p in pids:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[part]) / tick
    except (OSError, ValueError, AttributeError):
        return float("nan")
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def client(n: int, port: int, token: str, stop_at: float, out: dict):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    path = f"/api/lists/list-{n:02d}.yaml/edit"
    expected = {i: TROOPS[i][1] for i in UNITS}
    version = None
    latencies, errors, step = [], [], 0
    while time.perf_counter() < stop_at:
        unit = UNITS[(step + n) % len(UNITS)]
        delta = 1 if step % 3 != 2 else -1  # +1, +1, -1: every unit drifts up
        if expected[unit] + delta < 1:
            delta = 1
        body = {"op": "models", "index": unit, "delta": delta}
        if version:
            body["version"] = version
        t = time.perf_counter()
        try:
            conn.request("POST", path, json.dumps(body), headers)
            resp = conn.getresponse()
            data = resp.read()
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        latencies.append(time.perf_counter() - t)
        if resp.status != 200:
            errors.append(f"{resp.status}: {data[:200]!r}")
            break
        reply = json.loads(data)
        version = reply["version"]
        expected[unit] += delta
        step += 1
    conn.close()
    out[n] = {"latencies": latencies, "errors": errors, "expected": expected, "version": version}


ADDED = ("Yari Ashigaru", "Otokodate Ashigaru Katana", "Peasants")  # what the page's Add puts on


def plan_edit(n: int, step: int, troops: list, history: list):
    """The page edit client ``n`` makes at ``step``: ``(kind, route, form, troops after)``, the
    troops changed in place (undo: the troops before the last change, taken off ``history``);
    None when there is nothing to undo."""
    kind = ("plus", "minus", "typed", "add", "plus", "remove", "name", "undo", "typed", "plus")[(step + n) % 10]
    unit = UNITS[(step + n) % len(UNITS)]
    form: dict = {}
    route = "/edit"
    if kind in ("plus", "minus"):
        delta = 1 if kind == "plus" or troops[unit][1] <= 2 else -1
        form = {"op": "models", "index": unit, "delta": delta}
        troops[unit][1] += delta
    elif kind == "typed":
        value = 3 + (step % 7)
        form = {"op": "models", "index": unit, "value": value}
        troops[unit][1] = value
    elif kind == "add":
        name = ADDED[step % len(ADDED)]
        form = {"op": "add", "item": name}
        troops.append([name, None])  # the models the builder gives a new unit: read back from the answer
    elif kind == "remove":
        if len(troops) <= len(TROOPS):
            kind, form = "name", {"op": "set", "key": "name", "value": f"Load test {n} step {step}"}
        else:
            form = {"op": "remove", "index": len(troops) - 1}
            troops.pop()
    elif kind == "name":
        form = {"op": "set", "key": "name", "value": f"Load test {n} step {step}"}
    if kind == "undo":
        if not history:
            return None
        route = "/undo"
        troops = history.pop()
    return kind, route, form, troops


def page_client(n: int, port: int, token: str, stop_at: float, out: dict, think: float = 0.0):
    """A player on the builder page: the page's own routes (``POST /l/F/edit`` and ``/undo``,
    form-encoded, as htmx sends them, answered with the list's HTML) in a mix of the page's
    edits: + and - of a unit, a typed count, Add from the catalog, remove, the list's name,
    and undo. The client keeps its own copy of the troops to check that no edit is lost.
    ``think``: seconds the player pauses before each edit (jittered between half and one and a
    half times, seeded per client), not counted in the latency; 0: the next edit goes as soon
    as the answer is in (a closed loop)."""
    import random
    import re
    from urllib.parse import urlencode

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
    }
    base = f"/l/list-{n:02d}.yaml"
    troops = [[name, models] for name, models in TROOPS]
    history: list[list] = []  # the troops before each change, for undo
    version = None
    latencies, errors, kinds, step = [], [], {}, 0
    rng = random.Random(1000 + n)
    # the player opens the builder page first (not timed), as the browser does before any edit
    conn.request("GET", base, headers={"Authorization": headers["Authorization"]})
    page = conn.getresponse().read().decode("utf-8")
    m = re.search(r'id="version" value="([^"]+)"', page)
    version = m.group(1) if m else None
    while time.perf_counter() < stop_at:
        if think:
            time.sleep(max(0.0, min(think * rng.uniform(0.5, 1.5), stop_at - time.perf_counter())))
            if time.perf_counter() >= stop_at:
                break
        before = [list(t) for t in troops]
        plan = plan_edit(n, step, troops, history)
        if plan is None:
            step += 1
            continue
        kind, route, form, troops = plan
        if version:
            form["version"] = version
        t = time.perf_counter()
        try:
            conn.request("POST", base + route, urlencode(form), headers)
            resp = conn.getresponse()
            data = resp.read()
        except (OSError, http.client.HTTPException) as exc:
            errors.append(f"{type(exc).__name__}: {exc}")
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            continue
        latencies.append(time.perf_counter() - t)
        kinds.setdefault(kind, []).append(latencies[-1])
        if resp.status != 200:
            errors.append(f"{kind} {resp.status}: {data[:200]!r}")
            break
        html = data.decode("utf-8")
        m = re.search(r'id="version" value="([^"]+)"', html)
        if m is None:
            errors.append(f"{kind}: no version in the answer")
            break
        version = m.group(1)
        if kind == "add":  # the count the new unit was given, as the page shows it
            counts = re.findall(
                r'class="n" name="value" type="number" min="1" max="1000" inputmode="numeric" '
                r'value="(\d+)"',
                html,
            )
            troops[-1][1] = int(counts[-1]) if counts else 1
        if kind != "undo":
            history.append(before)
            del history[:-20]  # the server keeps at least this many steps
        step += 1
    conn.close()
    out[n] = {"latencies": latencies, "errors": errors, "troops": troops, "version": version, "kinds": kinds}


def in_process(edits: int) -> None:
    """The edit-and-check alone, without HTTP: the web editor's read, change, check and atomic
    write of one 600 AP list, ``edits`` times; CPU time and wall time per edit."""
    sys.path.insert(0, str(ROOT))
    from builder.web.editing import Editor
    from builder.web.workspace import Workspace

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "list.yaml").write_text(list_text(0))
        ed = Editor(Workspace(tmp))
        version = None
        for step in range(edits + 5):
            if step == 5:  # the first few load the catalog and warm the caches
                wall, cpu = time.perf_counter(), time.process_time()
            version = ed.apply(
                "list.yaml", {"op": "models", "index": UNITS[step % len(UNITS)], "delta": 1}, version
            ).version
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"in-process edit and check of a 600 AP list: {cpu / edits * 1000:.2f} ms CPU, "
        f"{wall / edits * 1000:.2f} ms wall per edit ({edits} edits, load average {load:.1f})"
    )


def profile(edits: int, top: int = 25) -> None:
    """One client's page mix through the app's own routes, in this process (no socket), with the
    blocking work of each request (what runs in the server's worker threads: read, edit, check,
    save, the list's HTML) under cProfile; prints the functions taking the most time."""
    import cProfile
    import pstats
    import re

    sys.path.insert(0, str(ROOT))
    from starlette.concurrency import run_in_threadpool
    from starlette.testclient import TestClient

    import builder.web.app as web_app
    import builder.web.routes_pages as web_pages

    prof = cProfile.Profile(time.thread_time)

    async def profiled(fn, *args):
        return await run_in_threadpool(prof.runcall, fn, *args)

    web_pages.off_loop = profiled  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "list-00.yaml").write_text(list_text(0))
        token = secrets.token_urlsafe(24)
        headers = {"Authorization": f"Bearer {token}", "HX-Request": "true"}
        with TestClient(web_app.create_app(tmp, token=token), base_url="http://127.0.0.1:8765") as http:
            troops = [[name, models] for name, models in TROOPS]
            history: list[list] = []
            version, done, step = None, 0, 0
            while done < edits + 10:
                if done == 10:  # the first edits load the catalog and warm the caches
                    prof = cProfile.Profile(time.thread_time)
                    wall, cpu = time.perf_counter(), time.process_time()
                before = [list(t) for t in troops]
                plan = plan_edit(0, step, troops, history)
                step += 1
                if plan is None:
                    continue
                kind, route, form, troops = plan
                if version:
                    form["version"] = version
                resp = http.post(f"/l/list-00.yaml{route}", data=form, headers=headers)
                if resp.status_code != 200:
                    raise SystemExit(f"{kind}: {resp.status_code} {resp.text[:300]}")
                version = re.search(r'id="version" value="([^"]+)"', resp.text).group(1)
                if kind == "add":
                    troops[-1][1] = int(re.findall(r'inputmode="numeric" value="(\d+)"', resp.text)[-1])
                if kind != "undo":
                    history.append(before)
                done += 1
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"page mix in process: {cpu / edits * 1000:.2f} ms CPU, {wall / edits * 1000:.2f} ms wall per edit "
        f"({edits} edits, load average {load:.1f}); the requests' blocking work, by own time:"
    )
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--in-process", type=int, default=0, metavar="N", help="measure N edits without the server instead")
    ap.add_argument(
        "--mix",
        action="store_true",
        help="the builder page's own routes and edits (add, remove, models, typed count, "
        "name, undo) instead of the API's models change",
    )
    ap.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="S",
        help="with --mix: each client pauses about S seconds (seeded jitter, 0.5-1.5 S) before each "
        "edit, as a player does; 0 (the default): a closed loop",
    )
    ap.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes ('daimyo serve --workers N'; their CPU is counted together)",
    )
    ap.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="profile N page-mix edits in this process (cProfile) instead",
    )
    args = ap.parse_args()
    if args.profile:
        profile(args.profile)
        return
    if args.in_process:
        in_process(args.in_process)
        return
    exe = shutil.which("daimyo", path=str(Path(sys.executable).parent)) or "daimyo"
    token = secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        ws.mkdir()
        for n in range(args.clients):
            (ws / f"list-{n:02d}.yaml").write_text(list_text(n))
        port = free_port()
        env = dict(os.environ, DAIMYO_TOKEN=token)
        more = ["--workers", str(args.workers)] if args.workers != 1 else []
        server = subprocess.Popen(
            [exe, "serve", str(ws), "--port", str(port), *more],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.time() + 30
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if time.time() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start: " + server.stderr.read().decode()[-500:]) from None
                    time.sleep(0.1)

            # a check of a 600 AP list before the clients start (loads the catalog); with several
            # processes, checks on several connections at once, so that each process most likely
            # answers one (the system hands the connections out)
            def warm_up(out: list) -> None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                conn.request("GET", "/api/lists/list-00.yaml/check", headers={"Authorization": f"Bearer {token}"})
                out.append(json.loads(conn.getresponse().read()))
                conn.close()

            checks: list = []
            warmers = [
                threading.Thread(target=warm_up, args=(checks,))
                for _ in range(1 if args.workers == 1 else 4 * args.workers)
            ]
            for th in warmers:
                th.start()
            for th in warmers:
                th.join()
            points = checks[0]["summary"]["points"]
            out: dict = {}
            cpu0, sys0 = _cpu_of(server.pid), _cpu_of(server.pid, slice(12, 13))
            client_cpu0 = time.process_time()
            start = time.perf_counter()
            stop_at = start + args.seconds
            threads = [
                threading.Thread(
                    target=page_client if args.mix else client,
                    args=(n, port, token, stop_at, out),
                    kwargs={"think": args.think} if args.mix else {},
                )
                for n in range(args.clients)
            ]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            elapsed = time.perf_counter() - start
            cpu, kernel = _cpu_of(server.pid) - cpu0, _cpu_of(server.pid, slice(12, 13)) - sys0
            client_cpu = time.process_time() - client_cpu0
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        # no lost edit: every file holds exactly its client's sequence of changes
        sys.path.insert(0, str(ROOT))
        from builder.lists.document import load_list

        lost = []
        for n, r in sorted(out.items()):
            doc = load_list(ws / f"list-{n:02d}.yaml")
            troops = doc.data["troops"]
            if "troops" in r:  # the page mix: the whole list as the client's copy says
                have = [[t["troop"], t.get("models", 1)] for t in troops]
                if have != r["troops"]:
                    lost.append(f"list-{n:02d}: {have} differs from the edits made {r['troops']}")
            for i, want in r.get("expected", {}).items():
                have = troops[i].get("models", 1)
                if have != want:
                    lost.append(f"list-{n:02d} troop {i}: {have} models, expected {want}")
            if not (ws / f"list-{n:02d}.yaml").read_text().startswith("# load test list"):
                lost.append(f"list-{n:02d}: its comment was lost")
    lat = sorted(x for r in out.values() for x in r["latencies"])
    errors = [e for r in out.values() for e in r["errors"]]
    if not lat:
        raise SystemExit("no request completed: " + "; ".join(errors[:3]))

    def pct(p):
        return lat[min(len(lat) - 1, round(p / 100 * (len(lat) - 1)))] * 1000

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"clients {args.clients}"
        + (f" pausing {args.think:g} s between edits" if args.think else " in a closed loop")
        + f", {args.seconds:.0f} s, lists of {points} AP ({len(TROOPS)} entries); "
        f"{os.cpu_count()} CPUs, load average {load:.1f} at the end"
    )
    print(f"requests   {len(lat)} ({len(lat) / elapsed:.1f} per second)")
    print(
        f"latency    p50 {pct(50):.1f} ms, p95 {pct(95):.1f} ms, p99 {pct(99):.1f} ms, "
        f"max {lat[-1] * 1000:.1f} ms, mean {statistics.mean(lat) * 1000:.1f} ms"
    )
    print(
        f"server CPU {cpu:.1f} s, {cpu / len(lat) * 1000:.2f} ms per request "
        f"(of which in the kernel {kernel / len(lat) * 1000:.2f} ms)"
    )
    print(
        f"client CPU {client_cpu:.1f} s, {client_cpu / len(lat) * 1000:.2f} ms per request "
        "(this process: the clients' threads, on the same cores as the server)"
    )
    if args.mix:
        kinds: dict = {}
        for r in out.values():
            for k, v in r["kinds"].items():
                kinds.setdefault(k, []).extend(v)
        print(
            "by edit    "
            + ", ".join(
                f"{k} {len(v)} p95 {sorted(v)[round(0.95 * (len(v) - 1))] * 1000:.1f} ms"
                for k, v in sorted(kinds.items())
            )
        )
    print(f"errors     {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    print(f"lost edits {len(lost)}" + (f" (first: {lost[0]})" if lost else ""))
    goal = 50 if args.mix else 100
    print(
        f"goal: p95 < {goal} ms: {'met' if pct(95) < goal else 'missed'}; no error: "
        f"{'met' if not errors else 'missed'}; no lost edit: {'met' if not lost else 'missed'}"
    )


if __name__ == "__main__":
    main()
