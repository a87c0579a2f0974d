"""Test clients that play through the real websocket consumers, like a browser.

Each client connects with its own session cookie, reads only the HTML frames
the server sends it, clicks one of the marked legal moves (the `ws-send`
buttons' `hx-vals`), and checks every frame for cards its seat may not see.
"""

import html
import json
import re

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from joker_site.asgi import application

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([6-9TJQKA][SCDH]|X[12])(?![A-Za-z0-9])")
HX_VALS = re.compile(r"ws-send hx-vals='([^']*)'")


def session_cookie_for(player):
    """A logged-in (member) or guest session for this player, as a Cookie header."""
    client = Client()
    if player.user_id:
        client.force_login(player.user)
    else:
        from accounts.players import GUEST_SESSION_KEY

        session = client.session
        session[GUEST_SESSION_KEY] = player.pk
        session.save()
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


async def handshake_headers(player) -> list[tuple[bytes, bytes]]:
    """A browser's handshake headers for this player (no cookie for None): no Referer on a
    websocket handshake; the page puts its language in the address."""
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if player is not None:
        cookie = await sync_to_async(session_cookie_for)(player)
        headers.append((b"cookie", cookie.encode()))
    return headers


async def connect(table_id, player, language="en"):
    headers = await handshake_headers(player)
    communicator = WebsocketCommunicator(application, f"/ws/table/{table_id}/?lang={language}", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


# The final trick of the deal before, shown while the next deal begins: played face up,
# public, though the new deal may have dealt the same cards into someone's hand.
EARLIER_DEAL = re.compile(r"<!-- earlier deal -->.*?<!-- /earlier deal -->", re.DOTALL)


def cards_in(frame: str) -> set[str]:
    """The cards a frame shows of the current deal (the earlier deal's final trick left out)."""
    return set(CARD_TOKEN.findall(html.unescape(EARLIER_DEAL.sub("", frame))))


def legal_moves(frame: str) -> list[dict]:
    moves = [json.loads(html.unescape(v)) for v in HX_VALS.findall(frame)]
    return [m for m in moves if m.get("type") == "act"]


def hidden_from(state, seat) -> set[str]:
    """Every card `seat` may not see right now, decided from the rules, not from the view:
    other seats' hands, every face-down column card still on the table, and the
    seat's own cards it has not been shown yet (before a trump choice only the
    first three; in the dark pulka's bidding none). A spectator (`seat` None) holds no
    cards: every hand is hidden from them, and every face-down card."""
    deals = state.record_deals()
    if not deals or state.to_act is None:
        return set()
    deal = deals[-1]
    played = {a["play"] for a in deal["actions"] if "play" in a}
    hidden = set()
    for other in range(state.seats):
        if other != seat:
            hidden.update(state.hand(other))
    phase = state.phase.value
    if seat is not None:
        own_dealt = deal["hands"][seat]
        if phase == "trump":
            hidden.update(own_dealt[3:])
        elif phase == "bid" and state.view(seat).get("pulka_kind") == "dark":
            hidden.update(own_dealt)
    if state.variant == "japanese":
        for owner, columns in enumerate(deal["columns"]):
            for face_down, face_up in columns:
                if face_down not in played and face_down not in state.hand(owner):
                    hidden.add(face_down)
                if phase == "trump":
                    hidden.add(face_up)
    return hidden - played


def leaked(cards: set[str], state, seat) -> set[str]:
    """The cards among `cards` (those a frame showed) that `seat` (None: a spectator) may not
    see at `state`: the one check of every frame, the seats' and the spectators', HTML or JSON."""
    return cards & hidden_from(state, seat)


VERSION = re.compile(r'id="match"[^>]*data-version="(\d+)"')


@sync_to_async
def _current(table_id):
    from games.models import Match
    from games.services.matches import load_state

    match = Match.objects.select_related("table").get(table_id=table_id)
    return match, load_state(match)


async def frames_until(client, version):
    """Every frame up to and including the one showing `version`."""
    frames = []
    while True:
        frame = await client.receive_from(timeout=10)
        frames.append(frame)
        found = VERSION.search(frame)
        if found and int(found.group(1)) >= version:
            assert int(found.group(1)) == version, "the client missed a version"
            return frames


async def play_whole_match_in_browsers(table, players, rng, max_moves=5000, spectators=(), frames_seen=None):
    """Each step: every client receives the new position; each frame is checked
    against the cards its seat may not see at that position; the seat to act
    clicks one of its marked legal moves. `spectators`: people (a player, or None for a
    visitor) watching from the same page without a seat; every frame they receive is checked
    as a spectator's (seat None), and they are never offered a move. `frames_seen`: a list
    that gets every spectator frame, for the caller to look at."""
    from games.models import MatchStatus

    clients = [await connect(table.pk, p) for p in players]
    watchers = [await connect(table.pk, p) for p in spectators]
    seats = list(range(len(clients))) + [None] * len(watchers)
    match, _ = await _current(table.pk)
    version = match.version
    moves = 0
    try:
        while True:
            received = [await frames_until(c, version) for c in clients + watchers]
            match, state = await _current(table.pk)
            assert match.version == version
            for seat, frames in zip(seats, received):
                for frame in frames:
                    shown = leaked(cards_in(frame), state, seat)
                    assert not shown, (seat, version, sorted(shown))
                if seat is None:
                    assert legal_moves(frames[-1]) == []
                    if frames_seen is not None:
                        frames_seen.extend(frames)
            latest = [frames[-1] for frames in received[:len(clients)]]
            if match.status != MatchStatus.RUNNING:
                return match, state, latest
            seat = state.to_act
            marked = legal_moves(latest[seat])
            assert sorted(map(_key, marked)) == sorted(_key(a.to_record()) for a in state.legal_actions(seat))
            for other, frame in enumerate(latest):
                if other != seat:
                    assert legal_moves(frame) == []
            await clients[seat].send_to(text_data=json.dumps(rng.choice(marked)))
            version += 1
            moves += 1
            assert moves < max_moves
    finally:
        for c in clients + watchers:
            await c.disconnect()


def _key(action: dict) -> str:
    action = {k: v for k, v in action.items() if k not in ("type", "version", "seat")}
    return json.dumps(action, sort_keys=True)
