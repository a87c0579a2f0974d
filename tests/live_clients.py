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


async def connect(table_id, player, language="en"):
    # Like a browser: no Referer on a websocket handshake; the page puts its language in the address.
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if player is not None:
        cookie = await sync_to_async(session_cookie_for)(player)
        headers.append((b"cookie", cookie.encode()))
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
    first three; in the dark pulka's bidding none)."""
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
