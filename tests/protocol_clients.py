"""Test clients for the JSON protocol (`ws/play/`), through the real ASGI application.

A `ProgramClient` is what a bot program is: a token in the handshake, JSON
frames both ways. It keeps every frame it received so a test can check each
one for cards its seat may not see.
"""

import json

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.tokens import create_token
from games.models import Match, MatchStatus
from games.services import tables as table_service
from games.services.matches import load_state, seats_with_players
from games.services.presenter import public_seats, seat_view
from games.services.tables import TableSettings
from joker_site.asgi import application
from tests.factories import make_player
from tests.live_clients import CARD_TOKEN, leaked
from tests.view_cards import cards_of_this_deal

TIMEOUT = 10


@sync_to_async
def make_program_player(name):
    """A member with a personal access token, as a bot's owner would make one."""
    player = make_player(name)
    _token, raw = create_token(player.user, f"{name}'s bot")
    return player, raw


@sync_to_async
def japanese_match(players):
    """A Japanese match to 11 of these two players: (the match, the seat to act)."""
    table = table_service.create_table(players[0], TableSettings(variant="japanese", target=11))
    table_service.sit(table.pk, players[1])
    match = Match.objects.select_related("table").get(table=table)
    return match, load_state(match).to_act


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


async def closed_with(communicator, timeout=TIMEOUT) -> tuple[int, list[str]]:
    """Read until the server closes the socket: (the close code, the text frames before it)."""
    import time

    frames, deadline = [], time.monotonic() + timeout
    while True:
        output = await communicator.receive_output(timeout=max(deadline - time.monotonic(), 0.01))
        if output["type"] == "websocket.close":
            return output["code"], frames
        frames.append(output.get("text") or "")


def cards_in_message(message) -> set[str]:
    """The cards a message shows of the deal being played (a view's recall of the deal before
    left out: tests/view_cards.py), and any card-like word anywhere else in it."""
    return cards_of_this_deal(message) | set(CARD_TOKEN.findall(json.dumps(_without_views(message))))


def _without_views(value):
    if isinstance(value, dict):
        if "deal_index" in value and "last_trick" in value:
            return None  # a view: its cards are cards_of_this_deal's
        return {k: _without_views(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_views(v) for v in value]
    return value


def without_type(message) -> dict:
    return {k: v for k, v in message.items() if k != "type"}


def as_sent(action: dict) -> dict:
    """A legal action as a program sends it: without its seat (the server knows where it sits)."""
    return {k: v for k, v in action.items() if k != "seat"}


@sync_to_async
def _current(match_id):
    match = Match.objects.select_related("table").get(pk=match_id)
    return match, load_state(match)


@sync_to_async
def _views(match, state, seats):
    """Each seat's view of the position `_current` read, as the server builds a frame's
    (games/protocol.py): one state and one read of the table's seats for all the views."""
    seat_rows = list(seats_with_players().filter(table=match.table))  # presenter sorts them
    public = public_seats(match.table, seat_rows)
    return [json.loads(json.dumps(seat_view(match, seat, state, seats=seat_rows, public=public))) for seat in seats]


async def play_whole_match(clients, match_id, version, rng, max_moves=5000, spectators=()):
    """Each step: every program receives the new position, each frame is checked
    against the cards its seat may not see at that position, and the seat to act
    sends one of the legal actions its state lists. `spectators`: programs watching
    the match without a seat; each of their frames is checked the same way (seat None),
    and every position they receive is exactly the spectator's view, `seat_view(match, None)`."""
    seats = list(range(len(clients)))
    watchers = list(spectators)
    moves = 0
    try:
        while True:
            latest = [await c.state_at(version) for c in clients + watchers]
            match, state = await _current(match_id)
            assert match.version == version
            for seat, client in zip(seats + [None] * len(watchers), clients + watchers):
                for message in client.received:
                    shown = leaked(cards_in_message(message), state, seat)
                    assert not shown, (seat, version, message["type"], sorted(shown))
                client.received.clear()
            # One view function, two renderings: the frame is the seat view itself.
            for frame, expected in zip(latest, await _views(match, state, seats + [None] * len(watchers))):
                assert_same_view(without_type(frame), expected)
            latest = latest[:len(clients)]
            if match.status != MatchStatus.RUNNING:
                return match, state, latest
            seat = state.to_act
            legal = latest[seat]["view"]["legal_actions"]
            assert sorted(map(_key, legal)) == sorted(_key(a.to_record()) for a in state.legal_actions(seat))
            assert all(latest[other]["view"]["legal_actions"] == [] for other in seats if other != seat)
            action = as_sent(rng.choice(legal))
            await clients[seat].send({"type": "act", "match": match_id, "version": version, "action": action})
            version += 1
            moves += 1
            assert moves < max_moves
    finally:
        for c in clients + watchers:
            await c.close()


PRESENCE_FIELDS = ("connected", "grace_until")


def assert_same_view(frame, expected):
    """Equal, key by key; who is connected may have changed since the frame was sent."""
    assert frame.keys() == expected.keys()
    for key in expected:
        if key == "seats":
            strip = [{k: v for k, v in seat.items() if k not in PRESENCE_FIELDS} for seat in frame[key]]
            assert strip == [{k: v for k, v in seat.items() if k not in PRESENCE_FIELDS} for seat in expected[key]]
        else:
            assert frame[key] == expected[key], key


def _key(action: dict) -> str:
    return json.dumps(as_sent(action), sort_keys=True)


