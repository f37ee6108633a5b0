#!/usr/bin/env python3
"""Times the replay endpoints of `hexwar serve` on a long game (docs/performance.md).

    scripts/bench-history.py prepare BIN DB [MIN_ACTIONS]
        Plays bot games (random against random, VIKTORY classic) on the SQLite file DB
        with the `hexwar` binary BIN until one has MIN_ACTIONS (default 5000) log
        entries or more; prints its id.

    scripts/bench-history.py time BIN DB GAME [N]
        Serves a copy of DB with BIN and times N (default 20) calls of each of
        /history, /at/{half}, /steps?since=0 of GAME, one at a time, and then a
        player's GET of another game while 24 clients call /history at once.

Both commands print what they measured; the server's own log goes to /dev/null.
"""

import concurrent.futures
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request


def serve(binary, db):
    """Starts `BIN serve` on DB at a free port; returns the process and its base URL."""
    proc = subprocess.Popen(
        [binary, "serve", "--listen", "127.0.0.1:0", "--rate", "0",
         "--database", f"sqlite://{db}"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={"RUST_LOG": "warn", "PATH": "/usr/bin:/bin"})
    line = ""
    while "is serving at http://" not in line:
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"{binary} did not start")
    base = "http://" + line.split("http://", 1)[1].split()[0]
    return proc, base


def call(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read())


def timed(base, path):
    start = time.perf_counter()
    call(base, path)
    return (time.perf_counter() - start) * 1000


def prepare(binary, db, least):
    proc, base = serve(binary, db)
    try:
        while True:
            game = call(base, "/api/games", {
                "game": "viktory", "preset": "classic", "options": {"max_turns": 200},
                "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}],
            })["id"]
            while (state := call(base, f"/api/games/{game}"))["status"] != "over":
                time.sleep(0.5)
            print(f"game {game}: {state['version']} steps", file=sys.stderr)
            if state["version"] >= least:
                print(game)
                return
    finally:
        proc.terminate()
        proc.wait()


def summary(name, times):
    first, rest = times[0], times[1:] or times
    print(f"{name}: first {first:.1f} ms, then median {statistics.median(rest):.1f} ms "
          f"(min {min(rest):.1f}, max {max(rest):.1f}, {len(rest)} calls)")


def measure(binary, db, game, n):
    with tempfile.TemporaryDirectory() as tmp:
        copy = f"{tmp}/bench.db"
        shutil.copy(db, copy)
        proc, base = serve(binary, copy)
        try:
            version = call(base, f"/api/games/{game}")["version"]
            print(f"{binary}: game {game} at version {version}")
            summary("/history", [timed(base, f"/api/games/{game}/history") for _ in range(n)])
            summary(f"/at/{version // 2}",
                    [timed(base, f"/api/games/{game}/at/{version // 2}") for _ in range(n)])
            summary("/steps?since=0",
                    [timed(base, f"/api/games/{game}/steps?since=0") for _ in range(min(n, 5))])
            other = call(base, "/api/games", {
                "game": "viktory", "seats": [{"name": "Ann"}, {"name": "Ben"}]})["id"]
            summary("a player's GET, quiet", [timed(base, f"/api/games/{other}") for _ in range(n)])
            with concurrent.futures.ThreadPoolExecutor(24) as pool:
                stop = time.perf_counter() + 10
                load = [pool.submit(lambda: [timed(base, f"/api/games/{game}/history")
                                             for _ in iter(lambda: time.perf_counter() < stop, False)])
                        for _ in range(24)]
                time.sleep(0.5)
                summary("a player's GET, 24 clients calling /history",
                        [timed(base, f"/api/games/{other}") for _ in range(n)])
                calls = sum(len(f.result()) for f in load)
                print(f"  ({calls} /history calls answered in those 10 s)")
        finally:
            proc.terminate()
            proc.wait()


def main():
    args = sys.argv[1:]
    if args[:1] == ["prepare"] and len(args) in (3, 4):
        prepare(args[1], args[2], int(args[3]) if len(args) == 4 else 5000)
    elif args[:1] == ["time"] and len(args) in (4, 5):
        measure(args[1], args[2], args[3], int(args[4]) if len(args) == 5 else 20)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
