"""A browser seat's HTML is built from the process's one read of the table per version
(shared with the JSON protocol's connections), and a page that is told of a position it
already shows does nothing (games/consumers.py, TableConsumer)."""

import random
import re
import time

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import table_reads
from games.consumers import table_fragment
from games.models import Match
from games.services.broadcast import table_group
from tests.live_clients import connect
from tests.replay_helpers import random_move, seated_match

VERSION = re.compile(r'id="match"[^>]*data-version="(\d+)"')


@pytest.mark.django_db
def test_every_seat_after_the_first_renders_from_the_shared_read():
    match, players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    outcome = random_move(match, random.Random(1))
    table_reads.forget_table_reads()
    first, version = table_fragment(match.table_id, players[0], "ka", outcome.version)
    assert version == outcome.version
    for player in players[1:]:
        with CaptureQueriesContext(connection) as queries:
            html, shown = table_fragment(match.table_id, player, "ka", outcome.version)
        assert shown == outcome.version and len(queries) == 0, [q["sql"] for q in queries]
        assert html != first  # each seat still sees its own hand


@pytest.mark.django_db
def test_the_read_of_a_move_made_here_carries_the_spectator_count_of_the_read_before():
    # The count changes only with its own notices (table_reads.note_spectators), so a move's
    # position does not count the watchers again for every move.
    match, players = seated_match("classic", ("ana", "giorgi", "nino", "dato"), game_type="short")
    rng = random.Random(4)
    table_fragment(match.table_id, players[0], "ka", match.version)  # the first read counts them
    table_reads.note_spectators({"type": "spectators.changed", "table": match.table_id, "count": 2})
    for _ in range(3):
        fresh = Match.objects.select_related("table").get(pk=match.pk)
        outcome = table_reads.remember_outcome(random_move(fresh, rng), started=time.monotonic())
        with CaptureQueriesContext(connection) as queries:
            html, shown = table_fragment(match.table_id, players[0], "ka", outcome.version)
        assert shown == outcome.version
        assert not [q["sql"] for q in queries if "games_spectator" in q["sql"]]
        assert 'data-count="2"' in html


@pytest.mark.django_db
def test_a_notice_of_a_later_version_than_the_shared_read_reads_again():
    match, players = seated_match("japanese", ("tamar", "levan"), target=11)
    rng = random.Random(2)
    outcome = random_move(match, rng)
    table_fragment(match.table_id, players[0], "ka", outcome.version)
    later = random_move(Match.objects.select_related("table").get(pk=match.pk), rng)
    _html, shown = table_fragment(match.table_id, players[1], "ka", later.version)
    assert shown == later.version


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_page_told_of_a_position_it_shows_sends_nothing():
    match, players = await sync_to_async(seated_match)("japanese", ("tamar", "levan"), target=11)
    page = await connect(match.table_id, players[1])
    try:
        shown = int(VERSION.search(await page.receive_from(timeout=10)).group(1))
        while not await page.receive_nothing(timeout=1):  # the render its own arrival caused
            await page.receive_from(timeout=1)
        layer = get_channel_layer()
        for version in (shown, shown - 1):  # the same position again, an older one
            await layer.group_send(table_group(match.table_id),
                                   {"type": "table.changed", "table": match.table_id, "version": version})
        assert await page.receive_nothing(timeout=1)
        # A presence change (no version) still renders, and a new move is shown.
        await layer.group_send(table_group(match.table_id), {"type": "table.changed", "table": match.table_id,
                                                             "version": None})
        assert int(VERSION.search(await page.receive_from(timeout=10)).group(1)) == shown
        fresh = await sync_to_async(Match.objects.select_related("table").get)(pk=match.pk)
        outcome = await sync_to_async(random_move)(fresh, random.Random(3))
        frame = await page.receive_from(timeout=10)
        assert int(VERSION.search(frame).group(1)) == outcome.version
    finally:
        await page.disconnect()


@pytest.mark.django_db
def test_the_next_read_of_a_running_match_carries_its_seats_ratings_for_a_minute(monkeypatch):
    from games.services import presenter

    match, players = seated_match("japanese", ("tamar", "levan"), target=11)
    rng = random.Random(3)
    asked = []
    real = presenter.seat_ratings
    monkeypatch.setattr(presenter, "seat_ratings", lambda table, seats: asked.append(table.pk) or real(table, seats))
    table_fragment(match.table_id, players[0], "ka", match.version)
    assert len(asked) == 1
    for _ in range(3):
        outcome = random_move(Match.objects.select_related("table").get(pk=match.pk), rng)
        table_fragment(match.table_id, players[1], "ru", outcome.version)  # a read of the new version
    assert len(asked) == 1
    monkeypatch.setattr(table_reads, "RATINGS_CARRIED_SECONDS", 0)
    outcome = random_move(Match.objects.select_related("table").get(pk=match.pk), rng)
    table_fragment(match.table_id, players[0], "ka", outcome.version)
    assert len(asked) == 2


@pytest.mark.django_db
def test_a_finished_match_s_read_asks_for_the_ratings_again(monkeypatch):
    from games.services import presenter
    from games.services.matches import resign

    match, players = seated_match("japanese", ("tamar", "levan"), target=11)
    table_fragment(match.table_id, players[0], "ka", match.version)
    asked = []
    real = presenter.seat_ratings
    monkeypatch.setattr(presenter, "seat_ratings", lambda table, seats: asked.append(table.pk) or real(table, seats))
    resign(match.pk, players[0])
    finished = Match.objects.get(pk=match.pk)
    table_fragment(match.table_id, players[1], "ka", finished.version)
    assert asked == [match.table_id]


@pytest.mark.asyncio
async def test_a_page_never_goes_back_to_an_earlier_position(monkeypatch):
    """A presence change's render (no version) that read the table before a move's notice
    was drawn, and ended after it, must not take the page back a move."""
    from games import consumers

    page = consumers.TableConsumer()
    page.table_id, page.player, page.language, page.closing = 1, None, "ka", False
    sent = []

    async def send(text_data=None, bytes_data=None):
        sent.append(text_data)

    page.send = send
    drawn = {"version": 7}
    monkeypatch.setattr(consumers, "table_fragment",
                        lambda table_id, player, language, version=None: (f"v{drawn['version']}", drawn["version"]))
    await page.send_state(version=7)
    drawn["version"] = 6  # the slower, older read lands last
    await page.send_state()
    drawn["version"] = 7  # a presence change at the same position: drawn again (who is connected)
    await page.send_state()
    assert [html[:2] for html in sent] == ["v7", "v7"] and page.shown_version == 7
