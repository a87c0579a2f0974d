"""The pages lay a version's cards by the server's schedule (games/pacing.py), and the move
clock of the seat to act starts when they have: the time spent laying the bots' cards is not
taken from the next player. The schedule is public: played cards and taken tricks only."""

import random

import pytest
from django.test import override_settings
from django.utils import timezone

from games import pacing
from games.models import Match, MatchAction
from games.services import broadcast
from games.services import tables as table_service
from games.services.tables import TableSettings
from tests.factories import make_player
from tests.replay_helpers import fresh, random_move


def _plays(*cards, first_seat=0, seats=4):
    return [{"actions": [{"seat": (first_seat + i) % seats, "play": card} for i, card in enumerate(cards)]}]


def test_a_version_that_finishes_a_trick_lays_each_card_a_pace_apart_then_holds_the_trick_then_sends_it():
    # The mover's card completes a trick begun before the version; the winner (a bot) and the
    # next bot lead and follow; the person to act is next.
    steps = pacing.laying(_plays("AS", "KH", "QD", first_seat=3), seat_count=4, trick_after=2, pace_ms=1000)
    hold = max(pacing.TRICK_HOLD_MS, 1000)
    assert steps == [
        {"at": 0, "seat": 3, "in": "taken"},
        {"at": 0, "taken": True},
        {"at": hold, "leaves": True},
        {"at": hold + pacing.TRICK_LEAVE_MS, "seat": 0, "in": "trick"},
        {"at": hold + pacing.TRICK_LEAVE_MS + 1000, "seat": 1, "in": "trick"},
        {"at": hold + pacing.TRICK_LEAVE_MS + 1000, "end": True},
    ]
    assert pacing.laying_ms(steps) == hold + pacing.TRICK_LEAVE_MS + 1000


def test_bids_and_deals_lay_nothing_and_no_pace_means_no_schedule():
    bids = [{"actions": [{"seat": 1, "bid": 2}, {"seat": 2, "bid": 0}]}]
    assert pacing.laying(bids, seat_count=4, trick_after=0, pace_ms=1000) == []
    assert pacing.laying(_plays("AS", "KH"), seat_count=4, trick_after=2, pace_ms=0) == []
    assert pacing.laying_ms([]) == 0


def _practice_match(variant):
    person = make_player("tamar")
    table = table_service.create_table(person, TableSettings(variant=variant, fill_with_bots=True))
    return Match.objects.select_related("table").get(table=table), person


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("variant", ["classic", "japanese"])
@override_settings(BOT_PACE_SECONDS=1)
def test_the_next_players_clock_starts_when_the_pages_have_laid_the_bots_cards(monkeypatch, variant):
    sent = []
    monkeypatch.setattr(broadcast, "group_send", lambda group, message: sent.append(message))
    match, _person = _practice_match(variant)
    rng = random.Random(3)
    laid = 0
    for _ in range(12):
        match = fresh(match)
        if match.status != "running":
            break
        sent.clear()
        before = timezone.now()
        outcome = random_move(match, rng)
        changed = [message for message in sent if message["type"] == "table.changed"]
        assert len(changed) == 1
        steps = changed[0].get("laying", [])
        match = fresh(match)
        if match.status != "running":
            break
        # The clock of the seat to act starts once its page has laid the version's cards.
        assert match.turn_started_at >= before + timezone.timedelta(milliseconds=pacing.laying_ms(steps))
        assert match.deadline_at >= match.turn_started_at + timezone.timedelta(seconds=match.table.clock_seconds)
        # The seats that played in this version, in their order, and no card at all: the page
        # takes the cards from the seat's view it is sent (a deal's entry lays nothing).
        entries = MatchAction.objects.get(match=match, version=match.version).entries
        played = [action["seat"] for entry in entries for action in entry.get("actions", ()) if "play" in action]
        assert [step["seat"] for step in steps if "seat" in step] == played
        for step in steps:
            assert set(step) <= {"at", "seat", "in", "taken", "leaves", "end"}
        laid += len(played)
        assert outcome.version == match.version
    assert laid > 0, "the bots played cards in the versions made"


@pytest.mark.django_db(transaction=True)
@override_settings(BOT_PACE_SECONDS=0)
def test_without_a_pace_nothing_is_laid_and_the_clock_starts_at_once(monkeypatch):
    sent = []
    monkeypatch.setattr(broadcast, "group_send", lambda group, message: sent.append(message))
    match, _person = _practice_match("japanese")
    rng = random.Random(4)
    for _ in range(6):
        match = fresh(match)
        random_move(match, rng)
        after = timezone.now()
        assert fresh(match).turn_started_at <= after
    assert not [message for message in sent if message.get("laying")]
