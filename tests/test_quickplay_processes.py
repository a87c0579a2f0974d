"""Quick play across two real web processes (scripts/run_prod.py, as in test_protocol_processes):
players waiting on different processes are paired exactly once, each stake taken once."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from coins import services as coins
from games.models import Seat, Table
from quickplay.models import EntryStatus, QueueEntry
from tests.protocol_clients import make_program_player
from tests.test_protocol_processes import ServerClient, two_processes  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.timeout_sensitive]

PLAYERS = 8
STAKE = 25


async def paired(client):
    """The `paired` notice (after any `waiting` ones), and the match's first state."""
    while True:
        message = await client.receive(timeout=30)
        assert message["type"] in ("quick_play", "state"), message
        if message["type"] == "quick_play" and message["status"] == "paired":
            state = await client.receive_type("state")
            assert state["match"] == message["match"]
            return message


async def test_players_waiting_on_two_processes_are_paired_exactly_once(two_processes):  # noqa: F811
    people = [await make_program_player(f"qp_proc_{i}") for i in range(PLAYERS)]
    clients = [await ServerClient.connect(two_processes[i % 2], token) for i, (_p, token) in enumerate(people)]
    # Everyone taps at once, half of them on each process.
    await asyncio.gather(*(client.send({"type": "quick_play", "action": "join", "variant": "japanese",
                                        "stake": STAKE}) for client in clients))
    notices = await asyncio.gather(*(paired(client) for client in clients))

    tables = {}
    for (player, _token), notice in zip(people, notices):
        tables.setdefault(notice["table"], []).append(player.pk)
    assert len(tables) == PLAYERS // 2 and all(len(ids) == 2 for ids in tables.values())

    @sync_to_async
    def in_the_database():
        assert Table.objects.count() == PLAYERS // 2
        for table_id, player_ids in tables.items():
            assert set(Seat.objects.filter(table_id=table_id).values_list("player_id", flat=True)) == set(player_ids)
        assert Seat.objects.count() == PLAYERS  # nobody seated twice
        assert QueueEntry.objects.filter(status=EntryStatus.PAIRED).count() == PLAYERS
        assert not QueueEntry.objects.exclude(status=EntryStatus.PAIRED).exists()
        for player, _token in people:
            assert coins.staked_total(player.user) == STAKE  # one stake each, held by the seat
            assert coins.balance_of(player.user) == coins.WELCOME_GRANT - STAKE

    await in_the_database()
    for client in clients:
        await client.close()
