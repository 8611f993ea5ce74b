"""Every ``daimyo pack ...`` command with bad arguments, hostile files and hostile registries (a
server on 127.0.0.1 that answers with a bad status line, too many headers, a body cut short, a
byte now and then, redirects to file: and in a loop, and an index of hostile text): the answer
is always exit 0, 1 or 2, never an internal error or a traceback, and a command that fails
leaves the work folder and the packs folder exactly as they were (no half-written file)."""

from __future__ import annotations

import hashlib
import json

import pytest
from regserver import Server
from test_packs_hostile import BAD_ANSWERS, big_pack
from test_packs_registry import club


def snapshot(*folders) -> dict:
    out = {}
    for f in folders:
        if f.exists():
            for p in sorted(f.rglob("*")):
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
    return out


def pack_commands() -> list[tuple[str, list]]:
    from typer.main import get_command

    from builder.commands.app import app_for

    group = get_command(app_for(["pack"])).commands["pack"]
    return sorted((name, list(cmd.params)) for name, cmd in group.commands.items())


@pytest.fixture
def hostile(tmp_path, monkeypatch):
    from builder import limits

    monkeypatch.setattr(limits, "DOWNLOAD_TOTAL_SECONDS", 0.5)
    monkeypatch.setattr(limits, "DOWNLOAD_TIMEOUT_SECONDS", 0.5)
    monkeypatch.setattr(limits, "MAX_PACK_ENTRIES", 40)
    monkeypatch.setattr(limits, "MAX_DOWNLOAD_BYTES", 100_000)
    root = tmp_path / "served"
    good = root / "good"
    good.mkdir(parents=True)
    (good / "club-1.yaml").write_text(club("1"))
    (good / "evil.yaml").write_text(club("1").replace("Club cards", "Evil\u202egnp.exe"))
    (good / "example.yaml").write_text(club("1").replace("Club cards", "Senshiai example cards"))
    from builder.packs.registry import build_index, dump_index

    index = build_index(good)[0]
    (good / "index.json").write_text(dump_index(index))
    # an index whose every pack misbehaves on the way, and whose texts are hostile
    template = dict(index["packs"][0], description="one\ntwo\r\x1b[2J\u202e", authors=["a\x00b"])
    routes = {
        "Bad status": "/raw/bad-status",
        "Headers": "/raw/headers",
        "Cut": "/raw/cut-chunks",
        "Trickle": "/trickle",
        "To file": "/to-file",
        "Loop": "/loop-a",
        "Gone": "/gone",
        "Huge": "/huge",
    }
    evil = root / "evil"
    evil.mkdir()
    packs = [dict(template, name=name, url=url) for name, url in routes.items()]
    (evil / "index.json").write_text(json.dumps({"daimyo_registry": 1, "packs": packs}))
    work = tmp_path / "work"
    work.mkdir()
    (work / "keep.yaml").write_text("system: senshiai\ncards: {}\n")
    (work / "binary.yaml").write_bytes(b"\x00\xff\xfe" * 100)
    (work / "latin1.yaml").write_bytes("system: senshiai\nname: Caf\xe9\n".encode("latin-1"))
    (work / "deep.yaml").write_text("system: senshiai\ncards: " + "[" * 500 + "]" * 500 + "\n")
    (work / "big.yaml").write_text(big_pack(41))
    (work / "flow.yaml").write_text(big_pack(41, flow=True))
    (work / "alias.yaml").write_text(
        "system: senshiai\na: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n"
    )
    (work / "list.csv").write_text('section,name\ncards,"unterminated\n')
    (work / "folder").mkdir()
    (work / "loop.yaml").symlink_to(work / "loop.yaml")
    (work / "club.yaml").write_text(club("1"))
    packs_dir = tmp_path / "packs"
    monkeypatch.setenv("DAIMYO_PACKS", str(packs_dir))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.chdir(work)
    with Server(root) as srv:
        for path, (answer, _words) in BAD_ANSWERS.items():
            srv.raw["/raw" + path] = answer
        srv.trickle["/trickle"] = 0.05
        srv.redirects["/to-file"] = "file:///etc/passwd"
        srv.redirects["/loop-a"] = "/loop-b"
        srv.redirects["/loop-b"] = "/loop-a"
        srv.raw["/huge"] = b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\nx"
        yield srv, work, packs_dir


@pytest.mark.slow  # every pack command against every hostile registry
def test_no_pack_command_fails_badly(cli, hostile, monkeypatch):
    srv, work, packs_dir = hostile
    registries = [
        f"{srv.url}/good/index.json",
        f"{srv.url}/evil/index.json",
        f"{srv.url}/raw/bad-status",
        f"{srv.url}/raw/headers",
        f"{srv.url}/to-file",
        "http://[::1",
        str(work / "folder"),
        str(work / "binary.yaml"),
    ]
    values = [
        "",
        "-",
        "..",
        "/",
        "Club cards",
        "Club cards@1",
        "Club cards@",
        "@1",
        "Bad status",
        "Headers",
        "Cut",
        "Trickle",
        "To file",
        "Loop",
        "Gone",
        "Huge",
        "Evil\u202egnp.exe",
        "Senshiai example cards",
        "x" * 300,
        "a\nb",
        "http://[::1",
        "http://127.0.0.1:99999/x",
        f"{srv.url}/raw/bad-status",
        f"{srv.url}/raw/cut-chunks",
        f"{srv.url}/to-file",
        "file:///etc/passwd",
        "data:,x",
        "ftp://127.0.0.1/x",
        "binary.yaml",
        "latin1.yaml",
        "deep.yaml",
        "big.yaml",
        "flow.yaml",
        "alias.yaml",
        "list.csv",
        "keep.yaml",
        "folder",
        "loop.yaml",
        "missing.yaml",
        "club.yaml",
        "chess",
        "senshiai",
    ]
    outputs = ["keep.yaml", "folder", "loop.yaml", "missing/out.yaml", "new.yaml", "-"]
    problems = []
    runs = 0
    for name, params in pack_commands():
        options = [p for p in params if p.param_type_name == "option" and not p.is_flag]
        for i, value in enumerate(values):
            args: list[str] = ["pack", name]
            for p in params:
                if p.param_type_name == "argument":
                    args.append(value if (name, value) != ("index", "/") else "..")  # not the whole disk
            for j, p in enumerate(options):
                if p.required or (i + j) % 3 == 0:
                    if p.name in ("out", "lists"):
                        pick = outputs[(i + j) % len(outputs)]
                    elif p.name == "format":
                        pick = ["text", "json", "xml"][i % 3]
                    else:
                        pick = values[(i * 7 + j) % len(values)]
                    args += [p.opts[0], pick]
            if i % 4 == 0:
                args += [p.opts[0] for p in params if getattr(p, "is_flag", False) and p.name != "force"]
            monkeypatch.setenv("DAIMYO_REGISTRY", registries[(i + len(name)) % len(registries)])
            before = snapshot(work, packs_dir)
            try:
                r = cli(*args)
            except Exception as exc:  # an internal error: what the command line turns into exit 70
                cause = exc.__context__ or exc  # the error itself, not the test runner's handling of it
                problems.append((args, f"{type(cause).__name__}: {cause}"))
                continue
            runs += 1
            text = r.stdout + r.stderr
            if r.code not in (0, 1, 2) or "Traceback" in text or "internal error" in text:
                problems.append((args, r))
            elif r.code != 0 and snapshot(work, packs_dir) != before:
                problems.append((args, "a failed command changed files", r))
            if list(work.rglob("*.tmp")) + list(packs_dir.rglob("*.tmp")):
                problems.append((args, "a temporary file was left"))
            for f in ("new.yaml", "missing"):
                if r.code == 0:
                    import shutil

                    p = work / f
                    shutil.rmtree(p) if p.is_dir() else p.unlink(missing_ok=True)
    assert not problems, "\n".join(map(repr, problems[:10]))
    assert runs >= 300
