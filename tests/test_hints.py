"""Hints and deal reviews as frames (games/services/hints.py): the page's `hint`/`review` and the
program's `hint`/`review` messages. Refused at a rated table, when it is not your move, to a
spectator, past the frame budget; they never change the match."""

import pytest
from asgiref.sync import sync_to_async

from games.engine import Phase
from games.engine.advice import REASON_CODES
from games.models import Match
from games.services import tables as table_service
from games.services.matches import load_state
from games.services.tables import TableSettings
from tests.factories import make_player
from tests.live_clients import connect
from tests.protocol_clients import ProgramClient, as_sent, japanese_match, make_program_player

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@sync_to_async
def _practice_table(player, variant="classic"):
    """A practice table of `player` with bots in the other seats: casual, the player to act."""
    table = table_service.create_table(player, TableSettings(variant=variant, fill_with_bots=True, rated=False))
    match = Match.objects.select_related("table").get(table=table)
    assert not match.table.rated
    return match


@sync_to_async
def _casual_japanese(players):
    table = table_service.create_table(players[0], TableSettings(variant="japanese", rated=False))
    table_service.sit(table.pk, players[1])
    match = Match.objects.select_related("table").get(table=table)
    return match, load_state(match).to_act


@sync_to_async
def _position(match_id):
    match = Match.objects.select_related("table").get(pk=match_id)
    return match.version, load_state(match)


async def _frame_saying(page, words, frames=10) -> str:
    """The next frame of the page that says `words` (spectator counts and redraws may come between)."""
    for _ in range(frames):
        frame = await page.receive_from()
        if words in frame:
            return frame
    raise AssertionError(f"no frame said {words!r}")


async def test_a_program_at_a_practice_table_gets_the_advice_levels_move_and_its_reasons_and_the_match_stays():
    player, token = await make_program_player("hint_owner")
    match = await _practice_table(player)
    version, state = await _position(match.pk)
    seat = state.to_act
    program = await ProgramClient.connect(token)
    await program.send({"type": "hint", "match": match.pk, "id": 7})
    hint = await program.receive_type("hint")
    assert hint["id"] == 7 and hint["match"] == match.pk and hint["version"] == version
    legal = [as_sent(action.to_record()) for action in state.legal_actions(seat)]
    assert hint["action"] in legal
    assert hint["reason"]["code"] in REASON_CODES
    assert hint["words"]["move"] and hint["words"]["sentences"]
    assert (await _position(match.pk))[0] == version  # asking changes nothing
    await program.close()


async def test_the_page_shows_a_hint_beside_the_hand_and_again_after_a_redraw():
    player = await sync_to_async(make_player)("hint_page")
    match = await _practice_table(player)
    version, _state = await _position(match.pk)
    page = await connect(match.table_id, player)
    first = await page.receive_from()
    assert 'id="hint-ask"' in first and 'id="match-hint"' in first
    await page.send_to(text_data='{"type": "hint"}')
    answer = await _frame_saying(page, "Hint:")
    assert 'id="match-hint"' in answer
    assert (await _position(match.pk))[0] == version  # asking changes nothing
    await page.send_to(text_data='{"type": "resync"}')
    redrawn = await _frame_saying(page, 'id="match"')
    assert "Hint:" in redrawn
    await page.disconnect()


async def test_a_hint_is_refused_at_a_rated_table():
    players = [await make_program_player(name) for name in ("rated_a", "rated_b")]
    match, to_act = await japanese_match([p for p, _token in players])
    assert match.table.rated
    program = await ProgramClient.connect(players[to_act][1])
    await program.send({"type": "hint", "match": match.pk})
    error = await program.receive_type("error")
    assert error["code"] == "advice_rated" and error["in_reply_to"] == "hint"
    page = await connect(match.table_id, players[to_act][0])
    first = await page.receive_from()
    assert 'id="hint-ask"' not in first  # no button at a rated table
    await page.send_to(text_data='{"type": "hint"}')
    await _frame_saying(page, "casual tables")
    await program.close()
    await page.disconnect()


async def test_a_hint_is_refused_when_it_is_not_your_move_and_to_a_spectator():
    players = [await make_program_player(name) for name in ("casual_a", "casual_b")]
    match, to_act = await _casual_japanese([p for p, _token in players])
    waiting = await ProgramClient.connect(players[1 - to_act][1])
    await waiting.send({"type": "hint", "match": match.pk})
    assert (await waiting.receive_type("error"))["code"] == "not_your_turn"
    watcher, watcher_token = await make_program_player("casual_watcher")
    spectator = await ProgramClient.connect(watcher_token)
    await spectator.send({"type": "hint", "match": match.pk})
    assert (await spectator.receive_type("error"))["code"] == "advice_not_seated"
    await spectator.send({"type": "review", "match": match.pk, "deal": 0})
    assert (await spectator.receive_type("error"))["code"] == "advice_not_seated"
    page = await connect(match.table_id, watcher)
    await page.receive_from()
    await page.send_to(text_data='{"type": "hint"}')
    await _frame_saying(page, "Only a player at this table")
    for client in (waiting, spectator):
        await client.close()
    await page.disconnect()


async def test_a_flood_of_hints_is_rate_limited_like_any_frame(settings):
    settings.SOCKET_FRAMES_PER_SECOND = 0.5
    settings.SOCKET_FRAME_BURST = 3
    player, token = await make_program_player("hint_flood")
    match = await _practice_table(player)
    version, _state = await _position(match.pk)
    program = await ProgramClient.connect(token)
    for _ in range(8):
        await program.send({"type": "hint", "match": match.pk})
    answers = [await program.receive() for _ in range(8)]
    hints = [a for a in answers if a["type"] == "hint"]
    limited = [a for a in answers if a["type"] == "error" and a["code"] == "rate_limited"]
    assert 1 <= len(hints) <= 3 and len(limited) >= 5
    assert len({a["version"] for a in hints}) == 1 and hints[0]["version"] == version
    assert (await _position(match.pk))[0] == version
    await program.close()


@sync_to_async
def _play_to_the_next_deal(match_id, player):
    """The player's moves (the advice's) until the first deal is over."""
    from games.engine.advice import advise
    from games.live import Move, submit

    while True:
        match = Match.objects.select_related("table").get(pk=match_id)
        state = load_state(match)
        if state.score_sheet()["deals"]:
            return
        seat = state.to_act
        assert state.phase in (Phase.BID, Phase.PLAY, Phase.TRUMP)
        action = advise(state.view(seat), effort=0.2).action
        submit(match_id, player, Move(as_sent(action.to_record()), match.version))


async def test_a_finished_classic_deal_is_reviewed_for_the_player_and_a_deal_still_played_is_not():
    player, token = await make_program_player("review_owner")
    match = await _practice_table(player)
    await _play_to_the_next_deal(match.pk, player)
    version, _state = await _position(match.pk)
    program = await ProgramClient.connect(token)
    await program.send({"type": "review", "match": match.pk, "deal": 0})
    review = await program.receive_type("review")
    assert review["deal"] == 0 and review["seat"] == 0
    assert review["tricks"][0] in (0, 1) and review["bids"] is not None
    assert review["words"]["lines"]
    await program.send({"type": "review", "match": match.pk, "deal": 1})
    assert (await program.receive_type("error"))["code"] == "no_such_deal"
    assert (await _position(match.pk))[0] == version
    page = await connect(match.table_id, player)
    first = await page.receive_from()
    assert 'id="deal-review"' in first and "Your deal, looked at again" in first
    await page.send_to(text_data='{"type": "review", "deal": 0}')
    review_frame = await _frame_saying(page, 'id="deal-review"')
    assert "You bid" in review_frame or "You passed" in review_frame
    await program.close()
    await page.disconnect()


async def test_a_review_being_worked_out_holds_up_nothing_else_on_the_connection():
    player, token = await make_program_player("review_beside")
    match = await _practice_table(player)
    await _play_to_the_next_deal(match.pk, player)
    program = await ProgramClient.connect(token)
    await program.send({"type": "review", "match": match.pk, "deal": 0})
    await program.send({"type": "ping", "id": "after"})
    await program.send({"type": "review", "match": match.pk, "deal": 0})
    first, second, third = [await program.receive() for _ in range(3)]
    assert first["type"] == "pong"  # answered while the review was being worked out
    assert second["type"] == "error" and second["code"] == "advice_busy"  # one at a time
    assert third["type"] == "review"
    await program.close()


async def test_a_japanese_deal_is_not_reviewed():
    players = [await make_program_player(name) for name in ("jr_a", "jr_b")]
    match, _to_act = await _casual_japanese([p for p, _token in players])
    program = await ProgramClient.connect(players[0][1])
    await program.send({"type": "review", "match": match.pk, "deal": 0})
    assert (await program.receive_type("error"))["code"] == "review_classic_only"
    await program.close()
