"""The sockets' hop to their database threads (joker_site/db_threads.py): the caller's
language goes along, nothing comes back into the caller's context, and a notice sent
from the thread goes out on the caller's event loop."""

import asyncio
import contextvars
import threading

import pytest
from django.utils import translation

from joker_site import events
from joker_site.db_threads import in_thread, move_in_thread


def _context_values():
    return {variable: value for variable, value in contextvars.copy_context().items()}


@pytest.mark.asyncio
async def test_a_call_runs_on_a_pool_thread_in_the_callers_language():
    with translation.override("ru"):
        thread, language = await in_thread(lambda: (threading.current_thread().name, translation.get_language()))()
    assert thread.startswith("socket-db")
    assert language == "ru"
    with translation.override("en"):
        thread, language = await move_in_thread(
            lambda: (threading.current_thread().name, translation.get_language()))()
    assert thread.startswith("move-db")
    assert language == "en"


@pytest.mark.asyncio
async def test_a_call_leaves_the_callers_context_variables_as_they_were():
    # asgiref's hop set a fresh copy of every Local's storage in the caller's context after
    # each call: young objects that lived until the socket's next call, walked by every
    # young collection. Here the caller's context keeps the very same values.
    translation.activate("ru")
    try:
        before = _context_values()
        await in_thread(lambda: translation.activate("ka"))()  # a Local set in the thread
        after = _context_values()
        assert after.keys() == before.keys()
        assert all(after[variable] is value for variable, value in before.items())
        assert translation.get_language() == "ru"
    finally:
        translation.deactivate()


@pytest.mark.asyncio
async def test_what_one_call_sets_does_not_reach_the_next_call_on_the_same_thread():
    marker = contextvars.ContextVar("marker", default="unset")

    def set_and_read():
        seen = marker.get(), translation.get_language()
        marker.set("set")
        translation.activate("en")
        return seen

    with translation.override("ru"):
        # One thread of the pool would do: every call of the pool starts in an empty context.
        results = [await in_thread(set_and_read)() for _ in range(12)]
    assert set(results) == {("unset", "ru")}


@pytest.mark.asyncio
async def test_a_notice_sent_from_a_pool_call_goes_out_on_the_callers_loop():
    assert await in_thread(events._server_loop)() is asyncio.get_running_loop()
