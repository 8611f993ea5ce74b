"""The work one uploaded workspace zip costs the event server, at the worst its bounds allow.

Run: python benchmarks/bench_event_zip.py

Each case is a zip a player could upload (at most 272 KiB), read by ``read_upload`` as the
server reads it (in a worker thread, after the player's phase, deadline and rate limit):

* a zip bomb: 100 list files of 250 KiB each, packed about 900 to 1 (refused at its first member);
* noise: list-named files of random text that name no game, past the bytes that are read;
* the parse budget: files that name the game, 4 KiB each, up to the bytes that are parsed;
* one real list among 499 empty notes (the member limit).

It prints the seconds each takes (the best of three). Goal: every case under 2 s of one thread.
"""

from __future__ import annotations

import io
import random
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def zipped(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return buf.getvalue()


def cases() -> dict[str, bytes]:
    from builder.event.intake import MAX_ZIP_PARSED_BYTES

    rnd = random.Random(1)
    buke = (ROOT / "examples" / "kensei-buke.yaml").read_text()
    named = {}
    for i in range(MAX_ZIP_PARSED_BYTES // 4096 - 2):
        lines = "".join(f"k{rnd.randint(0, 10**6)}: [{rnd.randint(0, 9)}, {{a: b}}]\n" for _ in range(150))
        named[f"ws/l{i}.yaml"] = ("# kensei\n" + lines)[:4096]
    return {
        "zip bomb (100 x 250 KiB)": zipped({f"ws/l{i}.yaml": "a: " + "x" * (250 * 1024) for i in range(100)}),
        "noise naming no game": zipped(
            {f"ws/n{i}.txt": "".join(rnd.choice("ab\n") for _ in range(40 * 1024)) for i in range(27)}
        ),
        "files naming the game, 4 KiB each": zipped(named),
        "one list among 499 notes": zipped({**{f"ws/n{i}.txt": "" for i in range(499)}, "ws/army.yaml": buke}),
    }


def main() -> None:
    from builder.event.intake import EventRefused, read_upload

    for label, data in cases().items():
        best, outcome = float("inf"), ""
        for _ in range(3):
            t = time.perf_counter()
            try:
                read_upload(data, "ws.zip", "kensei")
                outcome = "read"
            except EventRefused as exc:
                outcome = f"refused ({exc.status})"
            best = min(best, time.perf_counter() - t)
        print(f"{label:38} {len(data) // 1024:4d} KiB zip  {best:6.2f} s  {outcome}")


if __name__ == "__main__":
    main()
