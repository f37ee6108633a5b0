#!/usr/bin/env python3
"""Times a bot's player turns on a served game, as the person playing it waits for them.

    scripts/bench-bot-turns.py BIN LEVEL [GAMES] [TURNS] [SEED]

Serves a fresh SQLite file with the `hexwar` binary BIN and plays GAMES (default 4)
VIKTORY classic 2-player games of TURNS game turns (default 12) between a person, who
takes a uniformly random legal action (seeded with SEED, default 1), and a bot of LEVEL
(easy, normal, hard). The person sits in seat 0 in even games and seat 1 in odd ones.

The person polls the state every 10 ms while it is not to act. The time from the reply
to its last action until it is to act again is what it waits; each wait counts for the
bot's player turn it falls in (its `turn.number` while the bot's seat is active). A wait
in the person's own turn (the bot deciding as a defender) is reported apart.

Prints the median and the longest bot player turn, and the waits in the person's turns.
"""

import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

POLL = 0.01


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


def call(base, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=data,
                                     method="POST" if data else "GET", headers=headers)
    with urllib.request.urlopen(request, timeout=600) as response:
        return json.loads(response.read())


def play(base, level, me, turns, rng):
    """One game; returns {bot turn number: seconds waited} and the waits in own turns."""
    seats = [{"kind": "bot", "level": level}, {"kind": "bot", "level": level}]
    seats[me] = {"name": "Ann"}
    created = call(base, "/api/games", {
        "game": "viktory", "preset": "classic", "options": {"max_turns": turns},
        "seats": seats})
    game, token = created["id"], created["seats"][me]["token"]
    bot_turns, own_waits = {}, []
    waiting_since = time.perf_counter()
    # The bot turn the current wait has run into, if any: a wait that starts in the
    # person's turn (its last action passes the turn) counts for the bot's turn.
    waiting_key, waited_at_all = None, False
    while True:
        state = call(base, f"/api/games/{game}", token=token)
        if state["status"] == "over":
            break
        if state["to_move"].get("seat") != me:
            turn = state["view"]["position"]["turn"]
            if turn["active"] != me:
                waiting_key = turn["number"]
            waited_at_all = True
            time.sleep(POLL)
            continue
        waited = time.perf_counter() - waiting_since
        if waiting_key is not None:
            bot_turns[waiting_key] = bot_turns.get(waiting_key, 0.0) + waited
        elif waited_at_all:
            own_waits.append(waited)
        waiting_key, waited_at_all = None, False
        action = rng.choice(state["legal"])
        call(base, f"/api/games/{game}/actions",
             {"version": state["version"], "action": action}, token=token)
        waiting_since = time.perf_counter()
    return bot_turns, own_waits


def main():
    args = sys.argv[1:]
    if len(args) not in range(2, 6):
        sys.exit(__doc__)
    binary, level = args[0], args[1]
    games = int(args[2]) if len(args) > 2 else 4
    turns = int(args[3]) if len(args) > 3 else 12
    rng = random.Random(int(args[4]) if len(args) > 4 else 1)
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = serve(binary, f"{tmp}/bots.db")
        try:
            all_turns, all_own = [], []
            for g in range(games):
                bot_turns, own = play(base, level, g % 2, turns, rng)
                all_turns += bot_turns.values()
                all_own += own
                print(f"game {g + 1}: {len(bot_turns)} bot turns, median "
                      f"{statistics.median(bot_turns.values()):.2f} s, longest "
                      f"{max(bot_turns.values()):.2f} s", file=sys.stderr)
        finally:
            proc.terminate()
            proc.wait()
    print(f"{level}: {len(all_turns)} bot player turns in {games} games: median "
          f"{statistics.median(all_turns):.2f} s, longest {max(all_turns):.2f} s")
    if all_own:
        print(f"  waits in the person's own turns (the bot defending): {len(all_own)}, "
              f"median {statistics.median(all_own):.2f} s, longest {max(all_own):.2f} s")


if __name__ == "__main__":
    main()
