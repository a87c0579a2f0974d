#!/usr/bin/env python3
"""A small program that plays Joker over the JSON protocol (docs/protocol.md).

It needs only Python 3.11 and the `websockets` package, not the site's code:

    pip install websockets==17.4
    # make a token on the site: Account -> Access tokens
    python protocol_client_example.py --url ws://127.0.0.1:8000/ws/play/ --token jkr_... --create japanese
    python protocol_client_example.py --url ws://127.0.0.1:8000/ws/play/ --token jkr_... --join 42

It creates a table (or joins one), then on every position where it is its turn
sends one of the legal actions the server listed, until the match is over.
Reconnects and resyncs if the connection drops.
"""

import argparse
import asyncio
import json
import random
import sys

import websockets


def _arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="ws://127.0.0.1:8000/ws/play/")
    parser.add_argument("--token", required=True, help="a personal access token (jkr_...)")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--create", choices=("japanese", "classic"), help="create a table of this variant")
    what.add_argument("--join", type=int, metavar="TABLE", help="join this table")
    parser.add_argument("--password", default="", help="the table's password, if it has one")
    parser.add_argument("--options", default="{}", help='table options as JSON, e.g. \'{"target": 11}\'')
    parser.add_argument("--seed", type=int, default=None)
    return parser.parse_args()


def choose(view, rng):
    """Pick a legal action; a smarter program would think here."""
    action = rng.choice(view["legal_actions"])
    return {key: value for key, value in action.items() if key != "seat"}


async def play(args):
    rng = random.Random(args.seed)
    headers = {"Authorization": f"Bearer {args.token}"}
    table_id = args.join
    first = True
    while True:
        try:
            async with websockets.connect(args.url, additional_headers=headers) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                if first and args.create:
                    options = json.loads(args.options)
                    await ws.send(json.dumps({"type": "create_table", "variant": args.create, "options": options}))
                elif first:
                    await ws.send(json.dumps({"type": "join_table", "table": table_id, "password": args.password}))
                else:  # after a reconnect: pick the position up again
                    await ws.send(json.dumps({"type": "resync", "table": table_id}))
                first = False
                async for frame in ws:
                    message = json.loads(frame)
                    kind = message["type"]
                    if kind == "welcome":
                        print(f"signed in as {message['player']['name']}")
                    elif kind == "table":
                        table_id = message["table"]
                        print(f"table {table_id}: {message['status']}, seat {message['seat']}, waiting for players")
                    elif kind == "error":
                        print(f"refused: {message['code']}: {message['message']}")
                        if message.get("in_reply_to") in ("create_table", "join_table"):
                            return 1
                    elif kind == "state":
                        table_id = message["table"]
                        view = message["view"]
                        if message["status"] != "running":
                            print(f"match over: totals {view['totals']}, winners {view['winner']}")
                            return 0
                        if view["legal_actions"]:
                            action = choose(view, rng)
                            print(f"v{message['version']}: {view['phase']}, my hand {view['hand']} -> {action}")
                            await ws.send(json.dumps({"type": "act", "match": message["match"],
                                                      "version": message["version"], "action": action}))
        except (OSError, websockets.ConnectionClosedError) as error:
            print(f"connection lost ({error}); reconnecting", file=sys.stderr)
            await asyncio.sleep(1)


if __name__ == "__main__":
    sys.exit(asyncio.run(play(_arguments())))
