#!/usr/bin/env python3
"""A real Bot API client in CI: a bot written with berserk (lichess's Python
client, pointed at this server) accepts a challenge and plays a whole
Makruk game with `thaiboard uci` as its engine, against a human made
through the HTTP API (register, log in, challenge the bot, move).

Usage: bot_game.py PATH/TO/thaiboard
Exits 0 when the game ended with a result that both sides saw.
"""

import random
import re
import subprocess
import sys
import tempfile
import threading
import time

import berserk
import requests

MAX_PLIES = 400
DEADLINE_S = 300


def start_server(thaiboard, db_dir):
    proc = subprocess.Popen(
        [thaiboard, "serve", "--bind", "127.0.0.1:0", "--data-dir", db_dir,
         "--rate-limit", "0", "--engine-searches", "0"],
        stdout=subprocess.PIPE, text=True)
    for line in proc.stdout:
        match = re.search(r"http://([0-9.:]+)/", line)
        if match:
            return proc, f"http://{match.group(1)}"
    proc.kill()
    sys.exit("the server did not start")


class Person:
    """A browser-like session of the JSON API (cookie + CSRF token)."""

    def __init__(self, base, name, password="correct horse"):
        self.base, self.http = base, requests.Session()
        self.csrf = self.http.get(f"{base}/api/session").json()["csrf"]
        creds = {"username": name, "password": password}
        self.post("/api/register", creds)
        self.post("/api/login", creds)
        self.name = name

    def post(self, path, body):
        r = self.http.post(f"{self.base}{path}", json=body,
                           headers={"X-CSRF-Token": self.csrf})
        if r.status_code >= 400:
            raise RuntimeError(f"{path}: {r.status_code} {r.text}")
        answer = r.json()
        self.csrf = answer.get("csrf", self.csrf)
        return answer

    def get(self, path):
        return self.http.get(f"{self.base}{path}").json()


class Engine:
    """`thaiboard uci` playing Makruk."""

    def __init__(self, thaiboard):
        self.proc = subprocess.Popen([thaiboard, "uci"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value makruk")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine quit")
            if line.startswith(prefix):
                return line.split()

    def best(self, moves):
        self.send("position startpos" + (" moves " + moves if moves else ""))
        self.send("go movetime 50")
        return self.wait("bestmove")[1]

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def run_bot(client, me, engine, seen):
    """The bot: accept the challenge, play the game from its stream."""
    for event in client.bots.stream_incoming_events():
        kind = event["type"]
        seen.append(kind)
        if kind == "challenge" and event["challenge"]["destUser"]["id"] == me:
            assert event["challenge"]["variant"]["key"] == "makruk", event
            client.bots.accept_challenge(event["challenge"]["id"])
        elif kind == "gameStart":
            play(client, me, engine, event["game"]["id"], seen)
        elif kind == "gameFinish":
            return


def play(client, me, engine, game_id, seen):
    color = None
    for event in client.bots.stream_game_state(game_id):
        if event["type"] == "gameFull":
            color = "white" if event["white"]["id"] == me else "black"
            state = event["state"]
        elif event["type"] == "gameState":
            state = event
        else:
            continue
        seen.append(f"state:{state['status']}")
        if state["status"] != "started":
            return
        moves = state["moves"]
        ply = len(moves.split()) if moves else 0
        if (ply % 2 == 0) == (color == "white"):
            client.bots.make_move(game_id, engine.best(moves))


def main():
    thaiboard = sys.argv[1] if len(sys.argv) > 1 else "target/debug/thaiboard"
    with tempfile.TemporaryDirectory() as db_dir:
        server, base = start_server(thaiboard, db_dir)
        engine = Engine(thaiboard)
        try:
            tag = str(random.randrange(10**6))
            human = Person(base, f"human{tag}")
            owner = Person(base, f"berserkbot{tag}")
            token = owner.post("/api/account/tokens",
                               {"description": "berserk CI bot", "scopes": ["bot:play"]})["token"]
            client = berserk.Client(berserk.TokenSession(token), base_url=base)
            client.account.upgrade_to_bot()
            account = client.account.get()
            assert account["title"] == "BOT", account
            me = account["id"]

            seen = []
            bot = threading.Thread(target=run_bot, args=(client, me, engine, seen), daemon=True)
            bot.start()
            time.sleep(0.5)  # the event stream is open
            game = human.post("/api/challenges", {"variant": "makruk", "color": "white",
                                                  "opponent": owner.name})
            game_id, deadline = game["id"], time.time() + DEADLINE_S
            while time.time() < deadline:
                view = human.get(f"/api/games/{game_id}")
                if view["status"] in ("finished", "aborted"):
                    break
                if view["status"] == "ongoing" and view["turn"] == "white":
                    if view["ply"] >= MAX_PLIES:
                        human.post(f"/api/games/{game_id}/resign", {})
                        continue
                    move = random.choice(view["legal"])["uci"]
                    human.post(f"/api/games/{game_id}/move", {"move": move, "ply": view["ply"]})
                else:
                    time.sleep(0.02)
            bot.join(timeout=30)
            view = human.get(f"/api/games/{game_id}")
            print(f"bot game {game_id}: {view['status']} {view['result']} ({view['reason']}) "
                  f"after {view['ply']} plies; the bot heard {sorted(set(seen))}")
            assert view["status"] == "finished" and view["result"], view
            assert "gameStart" in seen and "gameFinish" in seen, seen
            assert not bot.is_alive(), "the bot's event stream did not see the end"
        finally:
            engine.quit()
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
