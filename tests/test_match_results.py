"""Who won, decided in one place (games/services/results.py): places by the rules,
and a classic leaver last even when the bot playing their seat ends on the top total
(rules.md 3.6) — for the payout, the stored winners, the stats, the end screen and
the replay alike."""

import pytest
from django.test import override_settings

from coins import services as coins
from games.engine.outcome import decide
from games.models import Match, MatchStatus, Seat, Variant
from games.replay_views import replay_context
from games.services import tables as table_service
from games.services.matches import load_state, perform, resign
from games.services.presenter import seat_view
from games.services.results import standings
from games.services.tables import TableSettings
from games.stats import player_stats
from tests.coins_helpers import assert_ledger_sound, set_balance
from tests.factories import make_player, player_at

STAKE = 25


def test_classic_places_follow_the_totals_and_equal_totals_share_a_place():
    assert list(decide(Variant.CLASSIC, [90, 90, 40, 10], [], frozenset()).places) == [1, 1, 3, 4]
    assert list(decide(Variant.CLASSIC, [10, 40, 40, 90], [], frozenset()).places) == [4, 2, 2, 1]


def test_a_classic_leaver_is_last_whatever_the_bot_scored_for_the_seat():
    assert list(decide(Variant.CLASSIC, [90, 300, 40, 10], [], frozenset({1})).places) == [1, 4, 2, 3]


def test_classic_leavers_share_the_last_place_after_every_seat_still_held():
    assert list(decide(Variant.CLASSIC, [500, 90, 400, 10], [], frozenset({0, 2})).places) == [3, 1, 3, 2]


def test_japanese_places_are_the_winner_first_and_the_other_second():
    assert list(decide(Variant.JAPANESE, [3, 11], [1], frozenset()).places) == [2, 1]
    assert list(decide(Variant.JAPANESE, [9, 2], [1], frozenset({0})).places) == [2, 1]  # seat 0 resigned


def _losing_move(state, seat):
    """A human who bids as high as allowed and plays the first card allowed: nearly every
    bid fails, so a bot that plays on sensibly ends far ahead."""
    legal = [action.to_record() for action in state.legal_actions(seat)]
    bids = [action for action in legal if "bid" in action]
    chosen = max(bids, key=lambda action: action["bid"]) if bids else legal[0]
    return {k: v for k, v in chosen.items() if k != "seat"}


def _play_to_the_end(match):
    for _ in range(5000):
        match = Match.objects.select_related("table").get(pk=match.pk)
        if match.status != MatchStatus.RUNNING:
            return match
        state = load_state(match)
        perform(match.pk, player_at(match, state.to_act), _losing_move(state, state.to_act), match.version)
    raise AssertionError("the match did not end")


@pytest.mark.django_db
@override_settings(DEBUG=True, TEST_DEAL_SEED="results-leaver-on-top")
def test_the_pot_the_winners_the_stats_the_end_screen_and_the_replay_agree_when_a_bot_leaver_tops():
    players = [make_player(name) for name in ("ana", "giorgi", "nino", "dato")]
    for player in players:
        set_balance(player.user, 1000)
    table = table_service.create_table(players[0], TableSettings(variant="classic", game_type="short", stake=STAKE))
    for player in players[1:]:
        table_service.sit(table.pk, player)
    match = Match.objects.get(table=table)
    leaver = players[1]
    resign(match.pk, leaver)  # a bot plays the seat to the end
    leaver_seat = Seat.objects.get(table=table, player=leaver).index

    match = _play_to_the_end(match)
    state = load_state(match)
    others = [seat for seat in range(4) if seat != leaver_seat]
    assert state.totals[leaver_seat] > max(state.totals[seat] for seat in others), state.totals  # the case in point
    assert state.winners() == [leaver_seat]  # the engine, by totals alone, names the leaver's seat

    result = standings(match, state)
    best = max(state.totals[seat] for seat in others)
    expected = [seat for seat in others if state.totals[seat] == best]
    assert result.winners == expected
    assert result.places[leaver_seat] == 4
    assert match.winners == expected  # stored when the match ended

    # The pot: the whole escrow to the players in first place, nothing to the leaver.
    pot = STAKE * 4
    share = pot // len(expected)
    for seat, player in zip(range(4), players):
        paid = share if seat in expected else 0
        assert coins.balance_of(player.user) == 1000 - STAKE + paid, (seat, state.totals)
    assert_ledger_sound()

    # The profiles: a win for each winner, none for the leaver.
    for seat, player in enumerate(players):
        classic = next(row for row in player_stats(player) if row.variant == "classic")
        assert (classic.played, classic.won) == (1, 1 if seat in expected else 0)

    # The end screen and the protocol read the same result.
    view = seat_view(match, 0)["view"]
    assert view["winner"] == expected and view["places"] == result.places == view["ranking"]

    # The replay's last step names the same winners.
    last = replay_context(match.table, match, len(_steps(match)) - 1)["p"]
    assert last.finished and last.winners == expected


def _steps(match):
    from games.replay import step_places

    return step_places(match.record)
