"""No frame can hurt a connection: whatever a client sends (any bytes, nesting, size or
number, binary frames, text that is not Unicode, repeated keys, every field of every
message of the wrong kind), the answer is an error, the socket stays open, nothing is
logged as a failure and the match does not change.

Most generated frames go straight through the protocol's reading functions
(`parse_frame`, `check_message`, `error_frame`, `encode_frame`: all that a frame
meets before a handler); a few hundred go through the whole consumer, over a
websocket, as the waiting seat of a running Japanese match. The browser's table
socket and the lobby's get the same treatment.
"""

import asyncio
import contextlib
import json
import logging
import sys
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chat.services import REFUSAL_CODES as CHAT_CODES
from games import protocol
from games.consumers import FrameError, parse_browser_frame
from games.engine.errors import ERROR_CODES
from games.frames import MAX_DEPTH
from games.models import Match
from games.services import broadcast
from joker_site.asgi import application
from tests.frame_strategies import ABSENT, LATER, Frame, browser_frames, garbage, refused_at_the_table
from tests.live_clients import connect, session_cookie_for
from tests.protocol_clients import (
    ProgramClient,
    japanese_match,
    make_program_player,
)

DIRECT_FRAMES = 10_000
CONSUMER_FRAMES = 300


@pytest.fixture(autouse=True)
def _frames_past_the_flood_budget(settings):
    """The fuzzing sends hundreds of frames on one socket as fast as they are answered, to see
    how each is read: far past a connection's frame budget (tests/test_frame_budget.py), which
    would refuse them before they are read."""
    settings.SOCKET_FRAMES_PER_SECOND = 100_000
    settings.SOCKET_FRAME_BURST = 100_000
BROWSER_DIRECT_FRAMES = 3_000
BROWSER_CONSUMER_FRAMES = 100
LOBBY_FRAMES = 50
BATCH = 10  # frames per hypothesis example: drawing a frame costs less than running an example

# Every code a refusal may carry (docs/protocol.md, Error codes); a fault of ours would be server_error.
SHAPE_CODES = {"bad_json", "unknown_type", "bad_message"}
REFUSAL_CODES = SHAPE_CODES | {
    "invalid_option", "no_such_match", "no_such_table", "not_seated", "stale_version", "match_over",
    "malformed_action", "invalid_action", "friends_only", "full", "seat_taken", "not_open", "already_started",
    "too_many_tables",
    "advice_rated", "advice_not_seated", "review_classic_only", "no_such_deal", "advice_busy",  # hint and review
} | set(ERROR_CODES) | CHAT_CODES

FUZZ = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))
# Hypothesis raises Python's recursion limit while it runs a test; the server runs with the
# default, at which a thousand nested brackets exhaust the JSON parser. Frames are read at that.
SERVER_RECURSION_LIMIT = sys.getrecursionlimit()


@contextlib.contextmanager
def _at_the_servers_recursion_limit():
    raised = sys.getrecursionlimit()
    sys.setrecursionlimit(SERVER_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(raised)


# --- the protocol's reading functions, for most frames ----------------------------------------

def _read_directly(frame: Frame) -> str:
    """What the consumer does with a frame before any handler: the refusal's code, or LATER."""
    message = None
    try:
        with _at_the_servers_recursion_limit():
            message = protocol.parse_frame(frame.text)  # a binary frame arrives as text None
            protocol.check_message(message)
    except protocol.Refusal as refusal:
        answer = json.loads(protocol.encode_frame(protocol.error_frame(refusal, message)).encode("utf-8"))
        assert answer["type"] == "error" and answer["message"]
        if message is not None and "id" in message:
            assert answer["id"] == message["id"]
        if refusal.code == "bad_json":
            assert "id" not in answer
        return refusal.code
    return LATER


def _fuzz_in_batches(strategy, count, check_one) -> tuple[int, float]:
    """Check `count` generated frames, BATCH to a hypothesis example; (frames checked, seconds)."""
    checked = []

    @settings(FUZZ, max_examples=count // BATCH)
    @given(frames=st.lists(strategy, min_size=BATCH, max_size=BATCH))
    def property_holds(frames):
        for frame in frames:
            check_one(frame)
            checked.append(frame)

    started = time.monotonic()
    property_holds()
    return len(checked), time.monotonic() - started


def _refused_as_expected(frame):
    outcome = _read_directly(frame)
    assert outcome in frame.expect, (outcome, frame)


def test_ten_thousand_generated_frames_are_refused_by_the_reading_functions_and_raise_nothing():
    count, elapsed = _fuzz_in_batches(garbage(), DIRECT_FRAMES, _refused_as_expected)
    assert count >= DIRECT_FRAMES
    print(f"\n{count} frames read directly in {elapsed:.1f} s")  # the figure the issue asks for (pytest -s)


def test_the_frames_of_the_issue_are_refused_with_a_readable_error():
    deep = "[" * 1000 + "]" * 1000
    cases = {
        deep: "bad_json",
        "{" * 1000: "bad_json",
        '{"type": "ping", "id": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}": "bad_json",
        '{"type": "ping", "id": NaN}': "bad_json",
        '{"type": "act", "match": 1e400, "version": 0, "action": {}}': "bad_json",
        '{"type": "act", "match": 1, "version": 1, "version": 2, "action": {}}': "bad_json",
        '{"type": "ping", "id": "\\udc00"}': "bad_json",
        '{"type": "resign", "match": 99999999999999999999}': "bad_message",
        '{"type": "resign", "match": true}': "bad_message",
        '{"type": ["resign"], "id": 4}': "unknown_type",
        '{"type": "hello", "language": ["ka"]}': "bad_message",
    }
    for text, code in cases.items():
        assert _read_directly(Frame(text=text)) == code, text
    assert _read_directly(Frame(data=b"\xff\xfe{")) == "bad_json"


# --- the whole consumer, over a websocket, at a running match ------------------------------------

async def _a_running_match(prefix):
    """Two members with tokens at a new Japanese match: (their tokens, the match, the seat to act)."""
    players = [await make_program_player(f"{prefix}_{name}") for name in ("alice", "bob")]
    match, to_act = await japanese_match([player for player, _token in players])
    return [token for _player, token in players], match, to_act


@sync_to_async
def _player_at(match, seat):
    return match.table.seats.select_related("player").get(index=seat).player


@sync_to_async
def _snapshot(match_id):
    match = Match.objects.get(pk=match_id)
    return match.version, json.dumps(match.record, sort_keys=True), match.status


async def _send(communicator, frame: Frame):
    """The frame as the server hands it to the application (empty frames too, which the
    communicator's send_to will not send)."""
    if frame.data is not None:
        await communicator.send_input({"type": "websocket.receive", "bytes": frame.data})
    else:
        await communicator.send_input({"type": "websocket.receive", "text": frame.text})


async def _protocol_answers(client, frame: Frame, sentinel) -> list[dict]:
    """Everything the frame was answered with: the frames up to the pong of a ping sent after it."""
    await _send(client.communicator, frame)
    await client.send({"type": "ping", "id": sentinel})
    answers = []
    while True:
        message = json.loads(await client.communicator.receive_from(timeout=20))
        if message == {"type": "pong", "id": sentinel}:
            return answers
        answers.append(message)


def _check_protocol_answers(frame: Frame, answers: list[dict]):
    assert answers, frame
    error, *rest = answers
    assert error["type"] == "error" and error["message"], (frame, error)
    assert error["code"] in frame.expect or (LATER in frame.expect and error["code"] in REFUSAL_CODES), (frame, error)
    if error["code"] == "bad_json":
        assert "id" not in error
    elif frame.id is not ABSENT:
        assert error["id"] == frame.id, (frame, error)
    # Only a stale version is followed by something: the current position.
    assert all(m["type"] == "state" for m in rest) and (not rest or error["code"] == "stale_version"), answers


def _fuzz_in_a_thread(loop, strategy, examples, check_one):
    """Run a hypothesis property from a worker thread, each example's websocket work on the
    test's event loop (hypothesis drives synchronous functions; the consumer is async)."""
    checked = []

    @settings(FUZZ, max_examples=examples)
    @given(frame=strategy)
    def property_holds(frame):
        asyncio.run_coroutine_threadsafe(check_one(frame, len(checked)), loop).result(timeout=60)
        checked.append(frame)

    property_holds()
    return len(checked)


def _no_failures_logged(caplog):
    failures = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not failures, [r.getMessage() for r in failures]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_generated_frames_at_a_running_match_get_an_error_and_change_nothing(caplog):
    caplog.set_level(logging.ERROR)
    tokens, match, to_act = await _a_running_match("fz")
    clients = [await ProgramClient.connect(token) for token in tokens]
    for client in clients:
        await client.send({"type": "resync", "match": match.pk})
        await client.state_at(match.version)
    waiter, mover = clients[1 - to_act], clients[to_act]
    before = await _snapshot(match.pk)
    frames = st.one_of(garbage(), refused_at_the_table(match.pk, match.table_id, match.version))

    async def check_one(frame, number):
        with _at_the_servers_recursion_limit():
            answers = await _protocol_answers(waiter, frame, f"sentinel-{number}")
        _check_protocol_answers(frame, answers)

    started = time.monotonic()
    count = await asyncio.to_thread(_fuzz_in_a_thread, asyncio.get_running_loop(), frames, CONSUMER_FRAMES,
                                    check_one)
    elapsed = time.monotonic() - started
    print(f"\n{count} frames through the protocol consumer in {elapsed:.1f} s")

    assert count >= CONSUMER_FRAMES
    assert await _snapshot(match.pk) == before
    await mover.nothing_more()  # the opponent was told of no change
    for client in clients:  # both sockets still answer
        await client.send({"type": "ping", "id": "after"})
        assert (await client.receive_type("pong"))["id"] == "after"
        await client.close()
    _no_failures_logged(caplog)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_thousand_brackets_leave_a_seated_programs_socket_open():
    tokens, match, _to_act = await _a_running_match("br")
    client = await ProgramClient.connect(tokens[0])
    await client.send({"type": "resync", "match": match.pk})
    await client.state_at(match.version)
    await client.send_text("[" * 1000 + "]" * 1000)
    assert (await client.receive())["code"] == "bad_json"
    await client.send({"type": "resync", "match": match.pk, "id": 1})
    assert (await client.receive_type("state"))["id"] == 1
    await client.close()


# --- the browser's table socket and the lobby's -------------------------------------------------

ERROR_FRAGMENT = 'id="match-error"'
MATCH_FRAGMENT = 'id="match"'


def _browser_reads(frame: Frame) -> bool:
    """Whether the page's socket reads the frame as an act (and then asks the match), or refuses it."""
    try:
        with _at_the_servers_recursion_limit():
            parse_browser_frame(frame.text)
    except FrameError as refusal:
        assert refusal.message
        return False
    return True


def _read_or_refused_by_the_page_socket(frame):
    if _browser_reads(frame):
        parsed = parse_browser_frame(frame.text)
        assert parsed["type"] == "act" and type(parsed["version"]) is int and parsed["action"]


def test_generated_frames_are_read_or_refused_by_the_browser_frame_reader():
    count, elapsed = _fuzz_in_batches(browser_frames(), BROWSER_DIRECT_FRAMES, _read_or_refused_by_the_page_socket)
    assert count >= BROWSER_DIRECT_FRAMES
    print(f"\n{count} browser frames read directly in {elapsed:.1f} s")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_generated_frames_at_a_table_page_get_an_error_and_change_nothing(caplog):
    caplog.set_level(logging.ERROR)
    _tokens, match, to_act = await _a_running_match("pg")
    waiter = await connect(match.table_id, await _player_at(match, 1 - to_act))
    assert MATCH_FRAGMENT in await waiter.receive_from()
    before = await _snapshot(match.pk)

    async def check_one(frame, _number):
        with _at_the_servers_recursion_limit():
            await _send(waiter, frame)
            await waiter.send_to(text_data='{"type": "resync"}')
            answers = [await waiter.receive_from(timeout=20)]
            # A refused act is followed by the position; the resync's position comes last.
            for _position in range(2 if _browser_reads(frame) else 1):
                answers.append(await waiter.receive_from(timeout=20))
        error, *positions = answers
        assert ERROR_FRAGMENT in error, (frame, error)
        assert all(MATCH_FRAGMENT in position for position in positions), (frame, positions)

    count = await asyncio.to_thread(_fuzz_in_a_thread, asyncio.get_running_loop(), browser_frames(),
                                    BROWSER_CONSUMER_FRAMES, check_one)
    assert count >= BROWSER_CONSUMER_FRAMES
    assert await _snapshot(match.pk) == before
    assert await waiter.receive_nothing(timeout=0.3)
    await waiter.disconnect()
    _no_failures_logged(caplog)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_generated_frames_at_the_lobby_socket_change_nothing_and_it_keeps_listening(caplog):
    caplog.set_level(logging.ERROR)
    (member, _token) = await make_program_player("lobby_member")
    cookie = await sync_to_async(session_cookie_for)(member)
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie.encode())]
    lobby = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    assert (await lobby.connect())[0]

    async def check_one(frame, _number):
        await _send(lobby, frame)

    count = await asyncio.to_thread(_fuzz_in_a_thread, asyncio.get_running_loop(), browser_frames(),
                                    LOBBY_FRAMES, check_one)
    assert count >= LOBBY_FRAMES
    # The lobby socket answers nothing and did not close. Once (CI, four suites on two cores)
    # something arrived here, not recorded; a refetch signal of a change elsewhere is no answer
    # to a frame, anything else fails the test and is shown.
    while not await lobby.receive_nothing(timeout=0.3):
        sent = await lobby.receive_output()
        assert sent.get("type") == "websocket.send" and 'id="lobby-signal"' in sent.get("text", ""), sent
    await sync_to_async(broadcast.lobby_changed)()
    assert 'id="lobby-signal"' in await lobby.receive_from(timeout=5)  # a refetch waits a second after the last
    await lobby.disconnect()
    _no_failures_logged(caplog)
