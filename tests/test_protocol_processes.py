"""Two Daphne processes serve the same match: players on different processes see every move.

The processes are started by `scripts/run_prod.py` (the launcher `make run-prod`
uses) against the test database and the test Redis, so the only way a move
made on one process reaches the player on the other is the Redis channel layer.
"""

import asyncio
import json
import random

import pytest
import websockets

from games.models import MatchStatus
from tests.protocol_clients import make_program_player, play_whole_match
from tests.server_processes import production_environment, run_prod_web_processes

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.timeout_sensitive]


class ServerClient:
    """A program connected to one server process with the `websockets` package
    (the same interface as tests.protocol_clients.ProgramClient)."""

    def __init__(self, socket):
        self.socket = socket
        self.received = []
        self.latest_state = None
        self.versions = []

    @classmethod
    async def connect(cls, port, token):
        socket = await websockets.connect(f"ws://127.0.0.1:{port}/ws/play/",
                                          additional_headers={"Authorization": f"Bearer {token}"})
        return cls(socket)

    async def send(self, message):
        await self.socket.send(json.dumps(message))

    async def receive(self, timeout=15):
        message = json.loads(await asyncio.wait_for(self.socket.recv(), timeout))
        self.received.append(message)
        if message["type"] == "state":
            self.latest_state = message
            self.versions.append(message["version"])
        return message

    async def receive_type(self, kind):
        while True:
            message = await self.receive()
            if message["type"] == kind:
                return message

    async def state_at(self, version):
        message = self.latest_state
        while message is None or message["version"] < version:
            await self.receive()
            message = self.latest_state
        assert message["version"] == version, f"missed a version ({message['version']} > {version})"
        return message

    async def close(self):
        await self.socket.close()


@pytest.fixture
def two_processes(transactional_db, tmp_path):
    env = production_environment(tmp_path, "two-process-test")
    with run_prod_web_processes(tmp_path, env, count=2) as ports:
        yield ports


async def test_players_on_two_server_processes_play_a_whole_match_and_see_every_version(two_processes):
    (_a, token_a), (_b, token_b) = [await make_program_player(n) for n in ("proc_tamar", "proc_levan")]
    tamar = await ServerClient.connect(two_processes[0], token_a)
    levan = await ServerClient.connect(two_processes[1], token_b)
    await tamar.send({"type": "create_table", "variant": "japanese", "options": {"target": 11}})
    room = await tamar.receive_type("table")
    await levan.send({"type": "join_table", "table": room["table"]})
    first = [await tamar.receive_type("state"), await levan.receive_type("state")]
    assert first[0]["match"] == first[1]["match"] and first[0]["version"] == first[1]["version"]

    match, _state, _last = await play_whole_match([tamar, levan], first[0]["match"], first[0]["version"],
                                                  random.Random(3))
    assert match.status == MatchStatus.FINISHED
    every = list(range(first[0]["version"], match.version + 1))
    for client in (tamar, levan):
        # In order, none skipped; a version may come twice (a seat change re-sends the position).
        assert client.versions == sorted(client.versions) and sorted(set(client.versions)) == every
