"""A practice table's bots play at the level its form names; a classic leaver's seat and the
clock's move stay with the club bot; a seat shows its bot's level; bots never play rated."""

import pytest

from games import live
from games.engine import ClassicState, JapaneseState
from games.engine.bot import LEVELS, choose_action
from games.forms import ClassicTableForm
from games.models import BotLevel, Table
from games.services import matches
from games.services.presenter import public_seats
from games.templatetags.cards import seat_label, seat_label_html, seat_name


def _form(variant="classic", **extra):
    data = {"variant": variant, "stake": "0", "visibility": "open", "clock_seconds": "30", "fill_with_bots": "on"}
    data.update({"target": "11"} if variant == "japanese" else {"game_type": "standard", "khishti": "200",
                                                                 "pulka_bonus": "premium_moshla"})
    data.update(extra)
    return data


def test_the_all_seeing_oracle_is_no_level_and_nothing_the_site_runs_imports_it():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    assert "oracle" not in LEVELS and "oracle" not in BotLevel.values
    apps = [path for path in root.glob("*/") if (path / "apps.py").exists() or path.name == "joker_site"]
    sources = [path for app in apps for path in app.rglob("*.py")]
    assert sources
    assert [str(path) for path in sources if "bot_oracle" in path.read_text(encoding="utf-8")] == []


def test_the_levels_a_table_offers_are_the_bots_levels_and_club_is_the_default():
    assert [value for value, _label in BotLevel.choices] == list(LEVELS)
    assert Table._meta.get_field("bot_level").default == BotLevel.CLUB
    assert ClassicTableForm().fields["bot_level"].initial == BotLevel.CLUB


def _current_state(table):
    return matches.load_state(table.match.__class__.objects.get(pk=table.match.pk))


def _bots_have_moved(table, at_least=1):
    """The creator (seat 0) makes its moves (its first legal one) until the bot seats have made
    ``at_least`` moves: whoever deals first, the bots then have moves to check."""
    for _ in range(100):
        match = table.match.__class__.objects.get(pk=table.match.pk)
        state = matches.load_state(match)
        if sum(a["seat"] != 0 for d in state.record_deals() for a in d["actions"]) >= at_least:
            return
        record = state.legal_actions(0)[0].to_record()
        record.pop("seat")
        live.submit(match.pk, table.seats.get(index=0).player, live.Move(record, match.version))
    raise AssertionError("the bots never moved")


def _replayed_bot_moves(table, level):
    """Replay the match's record, asking the bot at ``level`` for every bot seat's move: the
    number of moves checked (each must be the one the match holds)."""
    state = _current_state(table)
    bots = {s.index for s in table.seats.all() if s.is_bot}
    replay = (ClassicState if table.variant == "classic" else JapaneseState)(state.options)
    checked = 0
    for deal in state.record_deals():
        replay.deal(*([deal["hands"], deal["columns"]] if table.variant == "japanese"
                      else [deal["hands"], deal.get("trump_card")]))
        for record in deal["actions"]:
            if record["seat"] in bots:
                action = choose_action(replay, record["seat"], level=level)
                assert action.to_record() == record
                checked += 1
            replay.apply_record(record)
    return checked


@pytest.mark.django_db
@pytest.mark.parametrize("level", LEVELS)
def test_a_practice_table_from_the_form_plays_its_bots_at_the_level_it_names(client, level):
    response = client.post("/en/tables/new/", _form(bot_level=level))
    assert response.status_code == 302
    table = Table.objects.get()
    assert (table.bot_level, table.fill_with_bots, table.rated) == (level, True, False)
    _bots_have_moved(table)
    assert _replayed_bot_moves(table, level) > 0


@pytest.mark.django_db
def test_the_beginner_and_the_club_bot_make_different_moves_at_the_same_table():
    # The replay above could not tell the levels apart if they always agreed.
    # (Each table deals its own cards: ask both levels for the moves of one table's bots.)
    table = _table_with(BotLevel.CLUB, at_least=40)
    assert _replayed_bot_moves(table, BotLevel.CLUB) >= 40
    with pytest.raises(AssertionError):
        _replayed_bot_moves(table, BotLevel.BEGINNER)


def _table_with(level, at_least=1, **extra):
    from django.test import Client

    client = Client()
    client.post("/en/tables/new/", _form(bot_level=level, **extra))
    table = Table.objects.order_by("-pk").first()
    _bots_have_moved(table, at_least)
    return table


@pytest.mark.django_db
def test_a_form_sent_without_a_level_gets_club_bots_and_a_bad_level_is_refused_with_nothing_made(client):
    client.post("/en/tables/new/", {k: v for k, v in _form().items() if k != "bot_level"})
    assert Table.objects.get().bot_level == BotLevel.CLUB
    refused = client.post("/en/tables/new/", _form(bot_level="grandmaster"))
    assert refused.status_code == 200 and b"grandmaster is not one of the available choices" in refused.content
    assert Table.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("level", "label"), [("beginner", "Beginner"), ("club", "Club"), ("master", "Master")])
def test_a_seat_names_its_bots_level_beside_the_bots_name(level, label):
    table = _table_with(level, variant="japanese")
    seats = public_seats(table)
    assert [s["bot_level"] for s in seats] == [None, level]
    assert seat_label(seats[1]) == f"Bot 2 · {label}"


@pytest.mark.django_db
def test_a_seat_shows_its_bots_level_and_a_leavers_seat_is_played_by_the_club_bot(client):
    table = _table_with(BotLevel.BEGINNER)
    seats = public_seats(table)
    assert [s["bot_level"] for s in seats] == [None, "beginner", "beginner", "beginner"]
    assert seat_label(seats[1]) == "Bot 2 · Beginner"
    # At the table the level is in a span of its own (a phone's side seat gives it a line), and
    # the dot stays on the number's line (a no-break space before it).
    assert seat_label_html(seats[1]) == 'Bot 2\u00a0· <span class="bot-level">Beginner</span>'
    assert seat_name(seats[1]) == "Bot 2"  # the score sheet's heading
    assert seat_label(seats[0]) == seat_name(seats[0]) == seats[0]["name"]
    assert seat_label_html(seats[0]) == seats[0]["name"]
    levels = matches.bot_levels(table)
    assert levels == {1: "beginner", 2: "beginner", 3: "beginner"}
    creator = table.seats.get(index=0)
    creator.left_at = creator.joined_at
    creator.save(update_fields=["left_at"])
    assert matches.bot_levels(table)[0] == BotLevel.CLUB
    assert public_seats(table)[0]["bot_level"] is None  # played by the club bot under the player's name


def test_the_clocks_move_for_an_absent_player_is_the_club_bots():
    import random

    from games.engine import deal_from_deck, shuffled_deck

    state = ClassicState()
    for k in range(30):
        if state.phase.value == "deal":
            deal_from_deck(state, shuffled_deck(random.Random(k)))
        seat = state.to_act
        assert matches.bot_move(state, seat) == choose_action(state, seat, level="club")
        state.apply(matches.bot_move(state, seat))
