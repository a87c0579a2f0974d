"""Crossing and duplicate friend requests under real concurrency on PostgreSQL end as one row."""

import threading

import pytest
from accounts_support import fast_password_hashing, make_member  # noqa: F401
from django.db import connection, connections

from accounts import friends
from accounts.models import Friendship

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

ROUNDS = 15


def run_together(calls):
    """Run each call in its own thread (own DB connection), released at the same instant."""
    barrier = threading.Barrier(len(calls))
    outcomes, errors = [], []

    def worker(call):
        try:
            barrier.wait()
            outcomes.append(call())
        except Exception as exc:
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes, errors


def test_crossing_requests_sent_at_the_same_moment_end_as_one_friendship():
    for round_number in range(ROUNDS):
        a = make_member(f"a{round_number}")
        b = make_member(f"b{round_number}")
        outcomes, errors = run_together(
            [lambda: friends.send_friend_request(a, b), lambda: friends.send_friend_request(b, a)]
        )
        assert errors == []
        assert sorted(o.code for o in outcomes) == ["accepted", "sent"]
        pair = Friendship.objects.filter(user_low=min(a.pk, b.pk), user_high=max(a.pk, b.pk))
        assert list(pair.values_list("status", flat=True)) == [Friendship.ACCEPTED]


def test_many_duplicate_requests_at_once_leave_one_pending_request():
    a, b = make_member("dup_a"), make_member("dup_b")
    outcomes, errors = run_together([lambda: friends.send_friend_request(a, b) for _ in range(8)])
    assert errors == []
    assert sorted(o.code for o in outcomes) == ["already_sent"] * 7 + ["sent"]
    assert Friendship.objects.count() == 1


def test_a_block_racing_a_request_never_leaves_a_request_from_the_blocked_user():
    for round_number in range(ROUNDS):
        a, b = make_member(f"ba{round_number}"), make_member(f"bb{round_number}")
        _outcomes, errors = run_together(
            [lambda: friends.send_friend_request(a, b), lambda: friends.block_user(b, a)]
        )
        # Either the request came first and the block removed it, or the block came first and
        # the request was refused: never a request standing next to a block.
        assert all(isinstance(e, friends.FriendshipRefused) for e in errors)
        assert friends.is_blocked(a, b)
        assert not Friendship.objects.filter(user_low=min(a.pk, b.pk), user_high=max(a.pk, b.pk)).exists()
