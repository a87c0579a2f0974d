"""A fair clock: a move time plus a bank per seat, spent only past the move time; the server
moves for a player only once both ran out (games/services/clocks.py)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import options
from games.forms import JapaneseTableForm, clock_presets
from games.models import Match, MatchStatus, Seat
from games.protocol import _create_table
from games.services import clocks
from games.services import tables as table_service
from games.services.matches import clock_ran_out, load_state, perform
from games.services.presenter import seat_view
from games.services.tables import TableSettings
from games.tasks import tick
from joker_site.refusals import Refusal
from tests.factories import make_player, player_at

MOVE, BANK = 25, 150
_tables = iter(range(1, 1000))


def _match(bank_seconds=BANK, clock_seconds=MOVE):
    n = next(_tables)
    tamar, levan = make_player(f"tamar{n}"), make_player(f"levan{n}")
    table = table_service.create_table(tamar, TableSettings(variant="japanese", clock_seconds=clock_seconds,
                                                            bank_seconds=bank_seconds))
    table_service.sit(table.pk, levan)
    return Match.objects.select_related("table").get(table=table)


def _fresh(match):
    return Match.objects.select_related("table").get(pk=match.pk)


def _seat(match, index):
    return Seat.objects.get(table_id=match.table_id, index=index)


def _started(match, seconds_ago):
    """The position's clock started `seconds_ago`: its deadline as the move would have written it."""
    started = timezone.now() - timedelta(seconds=seconds_ago)
    Match.objects.filter(pk=match.pk).update(turn_started_at=started)
    match = _fresh(match)
    Match.objects.filter(pk=match.pk).update(deadline_at=clocks.deadline(match, load_state(match).to_act))
    return _fresh(match)


def _move(match):
    state = load_state(match)
    seat = state.to_act
    perform(match.pk, player_at(match, seat), state.legal_actions(seat)[0].to_record(), match.version)
    return seat


@pytest.mark.django_db
def test_the_deadline_is_the_move_time_plus_the_bank_left():
    match = _match()
    assert match.deadline_at == match.turn_started_at + timedelta(seconds=MOVE + BANK)
    no_bank = _match(bank_seconds=0, clock_seconds=60)
    assert no_bank.deadline_at == no_bank.turn_started_at + timedelta(seconds=60)


@pytest.mark.django_db
def test_a_move_within_the_move_time_spends_nothing():
    match = _started(_match(), seconds_ago=MOVE - 3)
    seat = _move(match)
    assert _seat(match, seat).bank_spent_ms == 0


@pytest.mark.django_db
def test_a_slow_move_spends_the_time_used_past_the_move_time_from_the_bank():
    match = _started(_match(), seconds_ago=MOVE + 40)
    seat = _move(match)
    spent = _seat(match, seat).bank_spent_ms
    assert 40_000 <= spent < 42_000
    match = _fresh(match)
    # Whenever that seat is to act again, it has that much less.
    assert clocks.deadline(match, seat) == match.turn_started_at + timedelta(milliseconds=(MOVE + BANK) * 1000 - spent)
    assert seat_view(match, seat)["seats"][seat]["bank"] == round((BANK * 1000 - spent) / 1000, 1)


@pytest.mark.django_db
def test_the_bank_is_spent_before_the_server_moves_and_a_doubled_tick_does_nothing():
    match = _started(_match(), seconds_ago=MOVE + 100)  # the move time is over, 50 s of bank left
    seat = load_state(match).to_act
    assert tick()["clocks"] == 0
    assert _fresh(match).version == 1 and _seat(match, seat).bank_spent_ms == 0

    match = _started(match, seconds_ago=MOVE + BANK + 1)  # and now the bank too
    assert tick()["clocks"] == 1
    match = _fresh(match)
    assert match.version == 2
    assert _seat(match, seat).bank_spent_ms == BANK * 1000  # all of it, never more
    assert _seat(match, seat).timeouts_in_row == 1
    assert tick()["clocks"] == 0  # a doubled or late tick
    assert not clock_ran_out(match.pk, 1)  # a redelivered one for the old version
    assert _fresh(match).version == 2 and _seat(match, seat).bank_spent_ms == BANK * 1000
    # With the bank gone, that seat has only its move time from now on.
    assert clocks.deadline(match, seat) == match.turn_started_at + timedelta(seconds=MOVE)


@pytest.mark.django_db
def test_the_bank_never_goes_below_nothing():
    match = _started(_match(), seconds_ago=MOVE + BANK + 500)  # a move far past everything
    seat = _move(match)
    assert _seat(match, seat).bank_spent_ms == BANK * 1000
    match = _fresh(match)
    assert clocks.bank_left_ms(match.table, _seat(match, seat)) == 0
    assert seat_view(match, None)["seats"][seat]["bank"] == 0.0
    assert clocks.deadline(match, seat) == match.turn_started_at + timedelta(seconds=MOVE)


@pytest.mark.django_db
def test_every_frame_shows_each_seats_bank_and_when_the_server_moves():
    match = _match()
    frame = seat_view(match, None)
    assert [s["bank"] for s in frame["seats"]] == [float(BANK), float(BANK)]
    assert frame["bank_seconds"] == BANK
    assert frame["turn_deadline"] == (match.turn_started_at + timedelta(seconds=MOVE)).isoformat()
    assert frame["server_moves_at"] == match.deadline_at.isoformat()
    plain = seat_view(_match(bank_seconds=0, clock_seconds=30), 0)
    assert [s["bank"] for s in plain["seats"]] == [None, None] and plain["bank_seconds"] == 0
    assert plain["server_moves_at"] == plain["turn_deadline"]


@pytest.mark.django_db
def test_a_finished_match_waits_for_no_clock():
    match = _match()
    from games.services.matches import resign

    resign(match.pk, player_at(match, 1))
    match = _fresh(match)
    assert match.status == MatchStatus.FINISHED and match.deadline_at is None
    assert seat_view(match, 0)["server_moves_at"] is None


# --- The options: the table form's presets and the protocol ------------------------------------

@pytest.mark.django_db
def test_the_table_form_offers_the_presets_and_every_one_makes_its_table():
    player = make_player("host")
    assert [(move, bank) for move, bank, _label in clock_presets()] == list(options.CLOCK_PRESETS)
    assert (25, 150) in options.CLOCK_PRESETS and (15, 60) in options.CLOCK_PRESETS
    for move, bank in options.CLOCK_PRESETS:
        form = JapaneseTableForm(data={"target": "11", "stake": "0", "visibility": "open",
                                       "clock_seconds": str(move), "bank_seconds": str(bank)}, player=player)
        assert form.is_valid(), form.errors
        settings = form.table_settings()
        assert (settings.clock_seconds, settings.bank_seconds) == (move, bank)
    refused = JapaneseTableForm(data={"target": "11", "stake": "0", "visibility": "open", "clock_seconds": "30",
                                      "bank_seconds": "99"}, player=player)
    assert not refused.is_valid() and "bank_seconds" in refused.errors


@pytest.mark.django_db
def test_the_protocol_takes_the_bank_as_a_table_option_and_the_old_clock_alone_still():
    from games.models import Table

    player = make_player("host")
    banked = Table.objects.get(pk=_create_table(player, "japanese", {"clock_seconds": 25, "bank_seconds": 150}))
    assert (banked.clock_seconds, banked.bank_seconds) == (25, 150)
    plain = Table.objects.get(pk=_create_table(make_player("levan"), "japanese", {"clock_seconds": 60}))
    assert (plain.clock_seconds, plain.bank_seconds) == (60, 0)
    with pytest.raises(Refusal) as refused:
        _create_table(make_player("nino"), "japanese", {"bank_seconds": -5})
    assert refused.value.code == "invalid_option"
    assert Table.objects.count() == 2  # the refused one changed nothing


@pytest.mark.django_db
def test_a_table_form_sent_without_the_bank_makes_a_table_without_one(client):
    from games.models import Table

    response = client.post("/en/tables/new/", {"variant": "japanese", "target": "21", "stake": "0",
                                               "visibility": "open", "clock_seconds": "30"})
    table = Table.objects.get()
    assert response.status_code == 302 and (table.clock_seconds, table.bank_seconds) == (30, 0)


@pytest.mark.parametrize("language", ["ka", "ru", "en"])
def test_a_clocks_numbers_keep_their_units_on_the_presets_and_in_a_tournaments_facts(language):
    # At 240 px the Georgian "სვლაზე 25 წმ + 150 წმ მარაგი" broke between "150" and "წმ".
    from django.template.loader import render_to_string
    from django.utils import translation

    from tournaments.models import Tournament

    arena = Tournament(variant="japanese", minutes=60, clock_seconds=MOVE, bank_seconds=BANK)
    with translation.override(language):
        presets = [label for _move, _bank, label in clock_presets()]
        facts = render_to_string("tournaments/_facts.html", {"t": arena})
    unit = {"ka": "წმ", "ru": "с", "en": "s"}[language]
    assert f"{MOVE}\N{NO-BREAK SPACE}{unit}" in facts and f"{BANK}\N{NO-BREAK SPACE}{unit}" in facts
    for words in presets:
        assert re.search(rf"\d\N{{NO-BREAK SPACE}}{unit}\b", words), words
        assert not re.search(r"\d ", words), words
    assert not re.search(r"\d ", facts), facts  # the minutes too: "60 წუთი"
