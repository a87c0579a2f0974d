"""Test clients for the JSON protocol (`ws/play/`), through the real ASGI application.

A `ProgramClient` is what a bot program is: a token in the handshake, JSON
frames both ways. It keeps every frame it received so a test can check each
one for cards its seat may not see.
"""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.tokens import create_token
from joker_site.asgi import application
from tests.factories import make_player
from tests.live_clients import CARD_TOKEN

TIMEOUT = 10


@pytest.fixture(autouse=True)
def _close_protocol_thread_connections():
    """The protocol's pool threads keep database connections; close them before
    pytest-django flushes or drops the test database."""
    yield
    from games.protocol import close_thread_connections

    close_thread_connections()


@sync_to_async
def make_program_player(name):
    """A member with a personal access token, as a bot's owner would make one."""
    player = make_player(name)
    _token, raw = create_token(player.user, f"{name}'s bot")
    return player, raw


class ProgramClient:
    def __init__(self, communicator):
        self.communicator = communicator
        self.received = []
        self.latest_state = None

    @classmethod
    async def connect(cls, token=None, headers=(), expect_open=True):
        all_headers = list(headers)
        if token is not None:
            all_headers.append((b"authorization", f"Bearer {token}".encode()))
        communicator = WebsocketCommunicator(application, "/ws/play/", headers=all_headers)
        connected, _code = await communicator.connect(timeout=TIMEOUT)
        assert connected == expect_open
        return cls(communicator)

    async def send(self, message):
        await self.communicator.send_to(text_data=json.dumps(message))

    async def send_text(self, text):
        await self.communicator.send_to(text_data=text)

    async def receive(self, timeout=TIMEOUT) -> dict:
        frame = await self.communicator.receive_from(timeout=timeout)
        message = json.loads(frame)
        self.received.append(message)
        if message["type"] == "state":
            self.latest_state = message
        return message

    async def receive_type(self, kind, timeout=TIMEOUT) -> dict:
        """The next message of this type (others are kept in `received` all the same)."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def state_at(self, version, timeout=TIMEOUT) -> dict:
        """Every message up to the state showing `version`; that state. A skipped version fails."""
        message = self.latest_state
        while message is None or message["version"] < version:
            await self.receive(timeout)
            message = self.latest_state
        assert message["version"] == version, f"the client missed a version ({message['version']} > {version})"
        return message

    async def nothing_more(self):
        assert await self.communicator.receive_nothing(timeout=0.3)

    async def close(self):
        await self.communicator.disconnect()


def cards_in_message(message) -> set[str]:
    return set(CARD_TOKEN.findall(json.dumps(message)))


def without_type(message) -> dict:
    return {k: v for k, v in message.items() if k != "type"}
