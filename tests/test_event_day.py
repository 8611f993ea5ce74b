"""The event's day on its database: the schema's migration, settings, pairing rounds, results
entered and confirmed by players or the organiser, drops and standings, on SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sqlalchemy")

from eventservers import postgres_reason


@pytest.fixture(scope="module")
def cluster(pg_cluster):
    """The run's PostgreSQL server (conftest), None without one."""
    return pg_cluster


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request):
    """None for SQLite in the event folder; a fresh PostgreSQL database's URL (the server is
    started only for the tests on PostgreSQL)."""
    if request.param == "sqlite":
        return None
    cluster = request.getfixturevalue("cluster")
    if cluster is None:
        pytest.skip(postgres_reason())
    return cluster.new_database(migrated=True)


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


def new_day(cli, folder, database=None, players=("Aiko", "Bo", "Chen", "Dai", "Eri"), *settings):
    args = ["event", "new", folder, "--name", "League day", "--system", "kensei"]
    r = cli(*args, *(["--database", database] if database else []))
    assert r.code == 0, r
    r = cli("event", "players", folder, *[a for n in players for a in ("--add", n)], "--format", "csv")
    assert r.code == 0, r
    tokens = dict(line.split(",")[:2] for line in r.stdout.splitlines()[1:])
    if settings:
        r = cli("event", "settings", folder, *settings)
        assert r.code == 0, r
    return tokens


def pair_json(cli, folder, *extra):
    r = cli("event", "pair", folder, "--format", "json", *extra)
    assert r.code == 0, r
    return json.loads(r.stdout)


def one_line_refusal(r, words: str) -> None:
    assert r.code == 2, r
    assert r.stderr.strip().count("\n") == 0 and words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_a_day_on_the_command_line_pairs_records_and_ranks(tmp_path, cli, database):
    folder = str(tmp_path / "day")
    new_day(cli, folder, database, ("Aiko", "Bo", "Chen", "Dai", "Eri"), "--points", "3/1/0/2", "--seed", "s1")
    r1 = pair_json(cli, folder)
    assert [set(p) for p in r1] == [{"round", "table", "a", "b"}] * 3
    assert [p["table"] for p in r1] == [1, 2, 3] and r1[2]["b"] is None  # the bye last
    assert sorted([p["a"] for p in r1] + [p["b"] for p in r1 if p["b"]]) == ["Aiko", "Bo", "Chen", "Dai", "Eri"]
    assert pair_json(cli, folder, "--show") == r1
    g1, g2, bye = r1
    assert (
        cli("event", "result", folder, "--round", "1", "--table", "1", "--winner", g1["a"], "--score", "12:5").code == 0
    )
    r = cli("event", "result", folder, "--round", "1", "--table", "2", "--draw")
    assert r.code == 0 and "draw, confirmed" in r.stdout
    r = cli("event", "standings", folder, "--format", "json")
    rows = {x["player"]: x for x in json.loads(r.stdout)}
    assert rows[g1["a"]]["points"] == 3 and rows[g1["a"]]["score_diff"] == 7 and rows[g1["b"]]["points"] == 0
    assert rows[bye["a"]]["points"] == 2 and rows[bye["a"]]["byes"] == 1
    assert rows[g2["a"]]["points"] == rows[g2["b"]]["points"] == 1
    assert rows[g1["b"]]["sos"] == 3 and rows[g1["a"]]["sos"] == 0 and rows[g1["a"]]["esos"] == 3
    assert {"rank", "player", "points", "sos", "esos", "h2h", "score_diff"} <= set(rows[g1["a"]])
    # round 1 has results: it is not paired again
    one_line_refusal(cli("event", "pair", folder, "--round", "1"), "round 1 has results: it cannot be paired again")
    r = cli("event", "drop", folder, bye["a"])
    assert r.code == 0 and "dropped after round 1" in r.stdout
    r2 = pair_json(cli, folder)
    paired = [p["a"] for p in r2] + [p["b"] for p in r2 if p["b"]]
    assert bye["a"] not in paired and len(r2) == 2 and all(p["b"] for p in r2)
    assert not any({p["a"], p["b"]} in ({g1["a"], g1["b"]}, {g2["a"], g2["b"]}) for p in r2)  # no rematch
    # a swap that makes a rematch: done, with a warning
    x, y = r2[0]["b"], r2[1]["a"]
    partner = {g1["a"]: g1["b"], g1["b"]: g1["a"], g2["a"]: g2["b"], g2["b"]: g2["a"]}
    a = r2[0]["a"]
    target = partner[a]
    r = cli("event", "pair", folder, "--swap", r2[0]["b"] if r2[0]["b"] != target else x, target, "--format", "csv")
    assert r.code == 0 and f"warning: {a} and {target} played each other before" in r.stderr
    assert r.stdout.splitlines()[0] == "round,table,a,b"
    del y
    r = cli("event", "standings", folder)
    assert r.code == 0 and "(dropped)" in r.stdout and r.stdout.splitlines()[0].startswith("Rank")
    log = cli("event", "log", folder).stdout
    assert "round-paired" in log and "result-entered" in log and "player-dropped" in log and "pairing-swapped" in log


def test_the_next_round_waits_for_every_confirmed_result(tmp_path, cli):
    folder = str(tmp_path / "day")
    tokens = new_day(cli, folder)
    from builder.event import day
    from builder.event.store import Event

    ev = Event.open(folder)
    r1 = day.pair(ev)["pairings"]
    g = r1[0]
    day.enter_result(ev, tokens[g["a"]], 1, 1, winner=g["a"])  # a player's entry: not confirmed yet
    day.enter_result(ev, day.CLI, 1, 2, draw=True)
    one_line_refusal(cli("event", "pair", folder), "round 1 is not over: table 1 has no confirmed result")
    day.confirm_result(ev, tokens[g["b"]], 1, 1)
    assert pair_json(cli, folder)[0]["round"] == 2


def test_players_enter_confirm_and_dispute_results_over_the_api(tmp_path, cli, database):
    from test_event import Server

    folder = str(tmp_path / "day")
    tokens = new_day(cli, folder, database, ("Aiko", "Bo", "Chen", "Dai"), "--seed", "x")
    org = cli("event", "token", folder, "--organiser").stdout.split("token=")[1].strip()
    server = Server(folder)
    try:
        admin = server.client(org)
        r = admin.post("/api/rounds", json={})
        assert r.status_code == 200, r.text
        t1, t2 = r.json()["pairings"]
        a, b = server.client(tokens[t1["a"]]), server.client(tokens[t1["b"]])
        other = server.client(tokens[t2["a"]])
        r = a.post("/api/rounds/1/tables/1/result", json={"winner": t1["a"], "score": [10, 4]})
        assert r.status_code == 200 and r.json()["result"]["confirmed_at"] is None
        assert a.post("/api/rounds/1/tables/1/confirm").status_code == 403  # not one's own entry
        r = other.post("/api/rounds/1/tables/1/result", json={"draw": True})
        assert r.status_code == 403 and r.json()["error"].startswith("you do not play at this table")
        r = b.post("/api/rounds/1/tables/1/dispute", json={"reason": "I won on objectives"})
        assert r.status_code == 200 and r.json()["result"]["dispute"] == "I won on objectives"
        seen = server.client().get("/api/rounds").json()["rounds"][0]["pairings"][0]["result"]
        assert seen["disputed"] is True and "dispute" not in seen  # the reason: organiser and table only
        shown = admin.get("/api/rounds").json()["rounds"][0]["pairings"][0]["result"]
        assert shown["dispute"] == "I won on objectives" and shown["disputed_by"] == f"player {t1['b']}"
        shown_cli = cli("event", "pair", folder, "--show").stdout
        assert f"Table 1: {t1['a']} v {t1['b']}  ({t1['a']} won 10:4, disputed: I won on objectives)" in shown_cli
        r = admin.post("/api/rounds/1/tables/1/result", json={"winner": t1["b"], "score": "4:10"})
        assert r.json()["result"]["confirmed_by"] == "organiser" and r.json()["result"]["disputed"] is False
        r = a.post("/api/rounds/1/tables/1/result", json={"winner": t1["a"]})
        assert r.status_code == 409  # confirmed: only the organiser changes it
        r = other.post("/api/rounds/1/tables/2/result", json={"winner": t2["a"]})
        r = server.client(tokens[t2["b"]]).post("/api/rounds/1/tables/2/confirm")
        assert r.status_code == 200 and r.json()["result"]["confirmed_by"] == f"player {t2['b']}"
        st = server.client().get("/api/standings").json()["standings"]
        assert [x["points"] for x in st] == [3, 3, 0, 0]
        assert {x["player"] for x in st[:2]} == {t1["b"], t2["a"]}
        r = server.client(tokens[t2["b"]]).post("/api/drops", json={"player": t2["b"]})
        assert r.status_code == 200 and r.json() == {"player": t2["b"], "after_round": 1}
        assert other.post("/api/drops", json={"player": t1["a"]}).status_code == 403
        for bad, words in [
            ({"winner": 3}, "'winner' must be text"),
            ({}, "give the winner or a draw"),
            ({"draw": True, "score": "x"}, "score 'x': write A:B"),
        ]:
            r = admin.post("/api/rounds/1/tables/1/result", json=bad)
            assert r.status_code == 422 and words in r.json()["error"], r.text
        assert admin.post("/api/rounds/9/tables/1/result", json={"draw": True}).status_code == 404
        assert admin.post("/api/settings", json={"colour": "red"}).status_code == 422
        assert admin.post("/api/settings", json={"points": "2/1/0/2"}).json()["win"] == 2
        assert a.post("/api/rounds", json={}).status_code == 403
        changes = admin.get("/api/changes").json()["changes"]
        assert [c["action"] for c in changes][:4] == [
            "settings-changed",
            "round-paired",
            "result-entered",
            "result-disputed",
        ]
        assert a.get("/api/changes").status_code == 403
    finally:
        server.stop()


def test_a_top_cut_follows_the_swiss_rounds(tmp_path, cli):
    folder = str(tmp_path / "cut")
    names = [f"P{i}" for i in range(1, 9)]
    new_day(cli, folder, None, names, "--swiss-rounds", "2", "--top", "4", "--seed", "cut")
    for n in (1, 2):
        for p in pair_json(cli, folder):
            assert cli("event", "result", folder, "--round", n, "--table", p["table"], "--winner", p["a"]).code == 0
    before = [x["player"] for x in json.loads(cli("event", "standings", folder, "-f", "json").stdout)]
    semis = pair_json(cli, folder)
    assert [(p["a"], p["b"]) for p in semis] == [(before[0], before[3]), (before[1], before[2])]
    one_line_refusal(
        cli("event", "result", folder, "--round", "3", "--table", "1", "--draw"), "an elimination game has a winner"
    )
    cli("event", "result", folder, "--round", "3", "--table", "1", "--winner", semis[0]["b"])
    cli("event", "result", folder, "--round", "3", "--table", "2", "--winner", semis[1]["a"])
    final = pair_json(cli, folder)
    assert [(p["a"], p["b"]) for p in final] == [(semis[0]["b"], semis[1]["a"])]
    cli("event", "result", folder, "--round", "4", "--table", "1", "--winner", semis[1]["a"])
    one_line_refusal(cli("event", "pair", folder), "the final is played: the event is over")
    after = json.loads(cli("event", "standings", folder, "-f", "json").stdout)
    assert [x["player"] for x in after[:2]] == [semis[1]["a"], semis[0]["b"]]
    assert after[0]["elimination"] == 2


def test_round_one_seeded_and_a_club_kept_apart(tmp_path, cli):
    folder = str(tmp_path / "seeded")
    names = ("Aiko", "Bo", "Chen", "Dai")
    new_day(cli, folder, None, names, "--first-round", "seeded", "--seeds", "Dai,Chen,Bo,Aiko")
    assert [(p["a"], p["b"]) for p in pair_json(cli, folder)] == [("Dai", "Bo"), ("Chen", "Aiko")]
    folder = str(tmp_path / "club")
    new_day(cli, folder, None, names, "--first-round", "seeded", "--seeds", "Dai,Chen,Bo,Aiko", "--avoid-club")
    assert cli("event", "players", folder, "--club", "Dai=Kyoto", "--club", "Bo=KYOTO").code == 0
    assert "Dai [Kyoto]" in cli("event", "players", folder).stdout
    assert [(p["a"], p["b"]) for p in pair_json(cli, folder)] == [("Dai", "Chen"), ("Bo", "Aiko")]


def test_the_same_seed_draws_the_same_first_round(tmp_path, cli):
    names = [f"P{i}" for i in range(11)]
    rounds = []
    for k in range(2):
        folder = str(tmp_path / f"e{k}")
        new_day(cli, folder, None, names, "--seed", "draw-7")
        rounds.append(pair_json(cli, folder))
    assert rounds[0] == rounds[1]
    folder = str(tmp_path / "recorded")
    new_day(cli, folder, None, names)
    pair_json(cli, folder)
    s = json.loads(cli("event", "settings", folder, "-f", "json").stdout)
    assert len(s["seed"]) == 16  # drawn when round 1 was paired, and recorded
    assert f"random draw, seed {s['seed']}" in cli("event", "log", folder).stdout


def test_the_day_is_in_the_backup_and_restored(tmp_path, cli):
    folder = str(tmp_path / "day")
    new_day(cli, folder, None, ("Aiko", "Bo", "Chen"), "--points", "2/1/0/2", "--avoid-club")
    cli("event", "players", folder, "--club", "Aiko=K")
    r1 = pair_json(cli, folder)
    cli("event", "result", folder, "--round", "1", "--table", "1", "--winner", r1[0]["b"], "--score", "1:2")
    cli("event", "drop", folder, r1[0]["a"])
    assert cli("event", "backup", folder, "-o", tmp_path / "b.json").code == 0
    assert cli("event", "restore", tmp_path / "b.json", tmp_path / "copy").code == 0
    for cmd in (["standings", "-f", "json"], ["pair", "--show", "-f", "json"], ["settings", "-f", "json"]):
        assert cli("event", cmd[0], folder, *cmd[1:]).stdout == cli("event", cmd[0], tmp_path / "copy", *cmd[1:]).stdout
    assert "Aiko [K]" in cli("event", "players", tmp_path / "copy").stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["pair", "{f}", "--round", "0"], "--round 0: give a number from 1"),
        (["pair", "{f}", "--round", "3"], "round 3: the next round to pair is 1"),
        (["pair", "{f}", "--format", "xml"], "unknown format 'xml'"),
        (["pair", "{f}", "--swap", "Aiko", "Bo"], "no round is paired yet"),
        (["pair", "{f}", "--show"], "no round is paired yet"),
        (["result", "{f}", "--round", "1", "--table", "1"], "give --winner NAME or --draw"),
        (
            ["result", "{f}", "--round", "1", "--table", "1", "--draw", "--winner", "Aiko"],
            "give --winner NAME or --draw",
        ),
        (["result", "{f}", "--round", "1", "--table", "1", "--draw", "--score", "3-1"], "score '3-1': write A:B"),
        (["result", "{f}", "--round", "1", "--table", "1", "--draw"], "no round 1"),
        (["result", "{f}", "--round", "1", "--table", "0", "--draw"], "--table 0: give a number from 1"),
        (["standings", "{f}", "--format", "yaml"], "unknown format 'yaml'"),
        (["drop", "{f}", "Nobody"], "no player 'Nobody' in the event"),
        (["settings", "{f}", "--points", "3/1/0"], "points '3/1/0': write WIN/DRAW/LOSS/BYE"),
        (["settings", "{f}", "--points", "0/0/0/0"], "a win must give more than a loss"),
        (["settings", "{f}", "--tiebreaks", "sos,luck"], "unknown tiebreak 'luck'"),
        (["settings", "{f}", "--tiebreaks", "sos,sos"], "each may be given once"),
        (["settings", "{f}", "--first-round", "alphabetical"], "round 1 'alphabetical': give random or seeded"),
        (["settings", "{f}", "--seeds", "Aiko,Zed"], "no player 'Zed' in the event"),
        (["settings", "{f}", "--seeds", "Aiko,Aiko"], "the seeding names a player twice"),
        (["settings", "{f}", "--top", "4"], "a top cut needs the number of Swiss rounds before it"),
        (["players", "{f}", "--club", "Aiko"], "--club 'Aiko': write NAME=CLUB"),
        (["players", "{f}", "--club", "Zed=K"], "no player 'Zed' in the event"),
        (["pair", "{nowhere}"], "no event here"),
    ],
)
def test_bad_input_is_refused_in_one_line(tmp_path, cli, args, words):
    folder = str(tmp_path / "day")
    new_day(cli, folder, None, ("Aiko", "Bo", "Chen"))
    args = [a.format(f=folder, nowhere=tmp_path / "none") for a in args]
    r = cli("event", *args)
    assert r.code == 2, r
    assert words in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) <= 2  # click's usage line, at most


@pytest.mark.parametrize(
    ("args", "ok", "words"),
    [
        (("--points", "1000/0/0/1000"), True, ""),
        (("--points", "1001/0/0/0"), False, "each must be from 0 to 1000"),
        (("--swiss-rounds", "30", "--top", "256"), True, ""),
        (("--swiss-rounds", "31", "--top", "4"), False, "Swiss rounds: give 1 to 30, not 31"),
        (("--swiss-rounds", "0", "--top", "4"), False, "Swiss rounds: give 1 to 30, not 0"),
        (("--swiss-rounds", "3", "--top", "512"), False, "top 512: a cut is 2, 4, 8, ... up to 256"),
        (("--swiss-rounds", "3", "--top", "6"), False, "top 6: a cut is 2, 4, 8"),
        (("--swiss-rounds", "3", "--top", "2"), True, ""),
        (("--seed", "s" * 64), True, ""),
        (("--seed", "s" * 65), False, "the seed: give 1 to 64 characters"),
    ],
)
def test_every_settings_bound(tmp_path, cli, args, ok, words):
    folder = str(tmp_path / "day")
    new_day(cli, folder, None, ("Aiko", "Bo"))
    r = cli("event", "settings", folder, *args)
    if ok:
        assert r.code == 0, r
    else:
        one_line_refusal(r, words)


@pytest.mark.parametrize(("score", "ok"), [("100000:0", True), ("0:100001", False), ("-1:0", False), ("0:0", True)])
def test_a_games_score_bound(tmp_path, cli, score, ok):
    folder = str(tmp_path / "day")
    new_day(cli, folder, None, ("Aiko", "Bo"))
    pair_json(cli, folder)
    r = cli("event", "result", folder, "--round", "1", "--table", "1", "--winner", "Aiko", "--score", score)
    assert (r.code == 0) is ok, r
    if not ok:
        one_line_refusal(r, "each a whole number from 0 to 100000")


def test_a_clubs_name_and_a_disputes_reason_are_bounded(tmp_path, cli):
    from builder.event import day
    from builder.event.store import Event

    folder = str(tmp_path / "day")
    tokens = new_day(cli, folder, None, ("Aiko", "Bo"))
    assert cli("event", "players", folder, "--club", "Aiko=" + "k" * 80).code == 0
    one_line_refusal(cli("event", "players", folder, "--club", "Aiko=" + "k" * 81), "give 1 to 80 characters")
    ev = Event.open(folder)
    p = day.pair(ev)["pairings"][0]
    day.enter_result(ev, tokens[p["a"]], 1, 1, winner=p["a"])
    res = day.dispute_result(ev, tokens[p["b"]], 1, 1, "x" * 400)["result"]
    assert res["dispute"] == "x" * day.MAX_REASON


def test_the_days_example_in_the_documentation_runs_as_written(tmp_path, cli, monkeypatch):
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "event.md").read_text(encoding="utf-8")
    block = re.search(r"## The day: rounds, results and standings\n.*?```sh\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    new_day(cli, "league", None, ("Aiko", "Bo", "Chen", "Dai", "Eri", "Fumi"))
    out = {}
    for line in block.splitlines():
        args = shlex.split(line, comments=True)
        assert args[:2] == ["daimyo", "event"], line
        r = cli(*args[1:])
        assert r.code == 0, (line, r)
        out[line.split("#")[0].strip()] = r
    first = out["daimyo event pair league"].stdout
    assert "Table 1: Aiko v Dai" in first and "Table 2: Bo v Eri" in first and "Table 3: Chen v Fumi" in first
    rows = json.loads(out["daimyo event standings league --format json"].stdout)
    assert [(r["player"], r["points"]) for r in rows[:2]] == [("Aiko", 3), ("Fumi", 3)]
    assert next(r for r in rows if r["player"] == "Bo")["dropped"] is True
    second = json.loads(out["daimyo event pair league --format json"].stdout)
    assert len(second) == 3 and "Bo" not in {p["a"] for p in second} | {p["b"] for p in second}


def test_standings_on_the_database_equal_a_recount_of_the_recorded_results(tmp_path, database):
    import random

    from builder.event import day
    from builder.event.store import Event

    ev, _org = Event.create(tmp_path / "e", "Recount", "kensei", database=database)
    tokens = dict(ev.add_players([f"P{i}" for i in range(9)]))
    day.set_settings(ev, {"points": "3/1/0/2", "seed": "recount", "tiebreaks": "sos,esos,diff,seed"})
    rng = random.Random(9)
    for n in range(1, 5):
        if n == 3:
            day.drop(ev, "P4")
        for p in day.pair(ev)["pairings"]:
            if p["b"] is None:
                continue
            c = rng.random()
            winner = p["a"] if c < 0.45 else (p["b"] if c < 0.9 else None)
            score = f"{rng.randint(0, 20)}:{rng.randint(0, 20)}"
            day.enter_result(ev, tokens[p["a"]], n, p["table"], winner=winner, draw=winner is None, score=score)
            day.confirm_result(ev, tokens[p["b"]], n, p["table"])
    points = {name: 0 for name in tokens}
    opponents = {name: [] for name in tokens}
    diff = {name: 0 for name in tokens}
    for r in day.round_list(ev):
        for p in r["pairings"]:
            if p["b"] is None:
                points[p["a"]] += 2
                continue
            res = p["result"]
            for me, them, k in ((p["a"], p["b"], 0), (p["b"], p["a"], 1)):
                opponents[me].append(them)
                diff[me] += res["score"][k] - res["score"][1 - k]
                points[me] += 1 if res["draw"] else (3 if res["winner"] == me else 0)
    sos = {m: sum(points[o] for o in opponents[m]) for m in tokens}
    esos = {m: sum(sos[o] for o in opponents[m]) for m in tokens}
    rows = day.standings(ev)
    assert {r["player"]: (r["points"], r["sos"], r["esos"], r["score_diff"]) for r in rows} == {
        m: (points[m], sos[m], esos[m], diff[m]) for m in tokens
    }
    keys = [(-r["points"], -r["sos"], -r["esos"], -r["score_diff"], r["seed"]) for r in rows]
    assert keys == sorted(keys)
    assert [r["player"] for r in rows if r["dropped"]] == ["P4"]


def test_two_organisers_pairing_at_once_make_one_round(tmp_path, cli):
    import threading

    from builder.event import day
    from builder.event.intake import EventRefused
    from builder.event.store import Event

    folder = str(tmp_path / "day")
    new_day(cli, folder, None, [f"P{i}" for i in range(12)])
    outcomes = []

    def pair():
        try:
            outcomes.append(day.pair(Event.open(folder))["round"])
        except EventRefused as exc:
            outcomes.append(exc.status)

    threads = [threading.Thread(target=pair) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == [1, 409]  # the second waits, then finds round 1 not over
    assert [r["round"] for r in day.round_list(Event.open(folder))] == [1]


@pytest.mark.slow  # two server processes on a PostgreSQL cluster
def test_two_servers_take_the_results_of_one_event(tmp_path, cli, cluster):
    httpx = pytest.importorskip("httpx")
    from eventservers import start_server, stop_server

    if cluster is None:
        pytest.skip(postgres_reason())
    folder = str(tmp_path / "day")
    tokens = new_day(cli, folder, cluster.new_database(migrated=True), [f"P{i}" for i in range(8)])
    pairs = pair_json(cli, folder)
    servers = [start_server(folder), start_server(folder)]
    try:
        urls = [u for _p, u in servers]

        def post(k, path, token, body):
            return httpx.post(urls[k] + path, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=60)

        for k, p in enumerate(pairs):
            path = f"/api/rounds/1/tables/{p['table']}"
            assert post(k % 2, path + "/result", tokens[p["a"]], {"winner": p["a"], "score": [5, k]}).status_code == 200
            r = post((k + 1) % 2, path + "/confirm", tokens[p["b"]], {})
            assert r.status_code == 200 and r.json()["result"]["score"] == [5, k]
        both = [httpx.get(u + "/api/standings", timeout=60).json()["standings"] for u in urls]
        assert both[0] == both[1] and [r["points"] for r in both[0]] == [3] * 4 + [0] * 4
    finally:
        for p, _u in servers:
            stop_server(p)
    assert pair_json(cli, folder)[0]["round"] == 2


def test_a_refusal_on_a_page_leaves_out_the_command_lines_hint():
    """A page or the JSON API never tells an organiser without a shell to run a command; the
    command line still gives the hint."""
    from builder.cli import error_lines
    from builder.errors import command_line
    from builder.event.intake import EventRefused

    exc = EventRefused("no round is paired yet", command_line("pair one with 'daimyo event pair DIR'"), status=404)
    assert exc.text() == "no round is paired yet"
    assert any("pair one with 'daimyo event pair DIR'" in line for line in error_lines(exc))
    both = EventRefused("round 2 has results", "correct a result on the organiser's page", status=409)
    assert both.text() == "round 2 has results (correct a result on the organiser's page)"
