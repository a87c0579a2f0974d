"""Access tokens with an expiry and a scope, and the socket's Origin check that compares the
port too (issue 36, item 10)."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import timezone

from accounts.models import AccessToken
from accounts.tokens import allows, create_token, user_for_token
from games.protocol import TokenOrSameOrigin
from tests.factories import make_player
from tests.live_clients import session_cookie_for
from tests.protocol_clients import ProgramClient

pytestmark = pytest.mark.django_db


def _expire(token):
    AccessToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    token.refresh_from_db()


def test_a_read_only_token_may_watch_but_not_play_and_a_play_token_may_both():
    user = make_player("levan").user
    reader, _raw = create_token(user, "watcher", scope=AccessToken.READ)
    player, _raw = create_token(user, "bot")
    assert allows(reader, "watch") and not allows(reader, "play")
    assert allows(player, "watch") and allows(player, "play")
    assert allows(None, "play")  # a browser's session: no token, no scope
    with pytest.raises(ValueError):
        allows(player, "fly")


def test_an_expired_token_allows_nothing_and_names_no_one():
    user = make_player("levan").user
    token, raw = create_token(user, "bot", lifetime_days=7)
    assert token.expires_at > timezone.now() + timedelta(days=6)
    assert user_for_token(raw) == user
    _expire(token)
    assert not allows(token, "watch") and not allows(token, "play")
    assert user_for_token(raw) is None
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {raw}").status_code == 401


def test_bad_scope_or_lifetime_is_refused_and_makes_no_token():
    user = make_player("levan").user
    for scope, days in (("admin", None), (AccessToken.PLAY, 3)):
        with pytest.raises(ValueError):
            create_token(user, "bot", scope=scope, lifetime_days=days)
    assert not AccessToken.objects.exists()


def test_the_tokens_page_makes_a_read_only_token_that_expires_and_lists_it_in_each_language():
    user = make_player("levan").user
    client = Client()
    client.force_login(user)
    client.post("/en/accounts/tokens/", {"name": "watcher", "scope": "read", "lifetime": "30"})
    token = AccessToken.objects.get(user=user)
    assert token.scope == AccessToken.READ
    assert timedelta(days=29) < token.expires_at - timezone.now() <= timedelta(days=30)
    assert "read only" in client.get("/en/accounts/tokens/").content.decode()
    assert "მხოლოდ წაკითხვა" in client.get("/ka/accounts/tokens/").content.decode()
    assert "только чтение" in client.get("/ru/accounts/tokens/").content.decode()
    response = client.post("/en/accounts/tokens/", {"name": "x", "scope": "read", "lifetime": "3"})
    assert response.status_code == 200 and AccessToken.objects.count() == 1


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_expired_token_is_refused_at_the_handshake_and_a_read_only_one_is_let_in():
    player = await sync_to_async(make_player)("levan")
    token, raw = await sync_to_async(create_token)(player.user, "bot", AccessToken.PLAY, 7)
    await sync_to_async(_expire)(token)
    await ProgramClient.connect(raw, expect_open=False)
    _reader, read_raw = await sync_to_async(create_token)(player.user, "watcher", AccessToken.READ)
    client = await ProgramClient.connect(read_raw)
    await client.send({"type": "hello"})
    assert (await client.receive())["type"] == "welcome"
    await client.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_read_only_token_follows_a_table_but_may_not_sit_play_or_chat():
    from tests.protocol_clients import japanese_match

    watcher = await sync_to_async(make_player)("watcher")
    players = [await sync_to_async(make_player)(name) for name in ("ro1", "ro2")]
    match, _to_act = await japanese_match(players)
    _reader, read_raw = await sync_to_async(create_token)(watcher.user, "watcher", AccessToken.READ)
    client = await ProgramClient.connect(read_raw)
    await client.send({"type": "watch", "table": match.table_id})
    assert (await client.receive_type("state"))["version"] == match.version
    for message in ({"type": "create_table", "variant": "japanese"},
                    {"type": "act", "match": match.pk, "version": match.version, "action": {"trump": "H"}},
                    {"type": "chat", "table": match.table_id, "text": "hello"}):
        refused = await client.receive_type("error") if await client.send(message) is None else None
        assert refused["code"] == "read_only_token" and refused["in_reply_to"] == message["type"]
    await client.close()


def _scope(origin, host):
    return {"headers": [(b"origin", origin.encode()), (b"host", host.encode())]}


@pytest.mark.parametrize(("origin", "host", "same"), [
    ("http://127.0.0.1:8101", "127.0.0.1:8101", True),
    ("http://127.0.0.1:9999", "127.0.0.1:8101", False),  # another port of the same host
    ("http://127.0.0.1", "127.0.0.1:8101", False),
    ("https://localhost", "localhost", True),
    ("https://localhost:443", "localhost", True),
    ("http://localhost:443", "localhost", False),
    ("https://evil.example", "evil.example", False),  # not one of ALLOWED_HOSTS
    ("http://127.0.0.1:notaport", "127.0.0.1", False),
    ("null", "127.0.0.1", False),
])  # fmt: skip
def test_the_origin_must_match_the_host_it_was_sent_to_port_included(origin, host, same):
    assert TokenOrSameOrigin.same_origin(_scope(origin, host)) is same


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_page_on_another_port_cannot_open_a_socket_on_the_visitors_cookie():
    member = await sync_to_async(make_player)("levan")
    cookie = (b"cookie", (await sync_to_async(session_cookie_for)(member)).encode())
    same_port = [(b"origin", b"http://127.0.0.1:8101"), (b"host", b"127.0.0.1:8101"), cookie]
    client = await ProgramClient.connect(headers=same_port)
    await client.close()
    other_port = [(b"origin", b"http://127.0.0.1:9999"), (b"host", b"127.0.0.1:8101"), cookie]
    await ProgramClient.connect(headers=other_port, expect_open=False)
