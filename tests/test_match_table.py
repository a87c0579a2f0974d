"""The match page as a table seen from one's seat: where the seats sit, the reasons given
for cards one may not play (the engine's own refusals), the last trick taken also across
a deal's end, and card names as labels."""

import random
import re

import pytest
from django.test import Client
from django.utils import translation

from games.card_faces import card_label
from games.engine import IllegalAction, Play
from games.engine_messages import message_for
from games.match_views import seat_positions
from games.services.matches import load_state
from games.services.presenter import card_refusals, finished_trick
from tests.factories import PASSWORD
from tests.replay_helpers import fresh, play_moves, seated_match

pytestmark = pytest.mark.django_db


def page_of(match, player, language="en"):
    client = Client()
    assert client.login(username=player.user.username, password=PASSWORD)
    return client.get(f"/{language}/tables/{match.table_id}/").content.decode()


def test_the_others_sit_around_me_in_play_order():
    assert seat_positions(4, 2) == {2: "me", 3: "left", 0: "across", 1: "right"}
    assert seat_positions(2, 1) == {1: "me", 0: "across"}
    assert seat_positions(4, None) == {0: "me", 1: "left", 2: "across", 3: "right"}  # a spectator


def test_every_card_i_may_not_play_carries_the_engines_own_refusal():
    match, _players = seated_match("japanese", ("tamar", "levan"))
    rng = random.Random(3)
    checked = 0
    while checked < 30:
        match = play_moves(match, rng, moves=1)
        state = load_state(match)
        if state.phase.value != "play":
            continue
        for seat in (0, 1):
            refusals = card_refusals(state, seat)
            view = state.view(seat)
            legal = {a["play"] for a in view["legal_actions"] if "play" in a}
            ups = [c["up"] for c in view["columns"][seat] or [] if c]
            assert set(refusals) == set(view["hand"] + ups) - legal
            for card, refusal in refusals.items():
                probe = state.copy()
                joker = None
                suit = "S" if card.startswith("X") and not view["trick"] else None
                with pytest.raises(IllegalAction) as refused:
                    probe.apply(Play(seat, card, joker, suit))
                assert refused.value.code == refusal.code
            checked += 1


def test_an_unplayable_card_is_a_disabled_button_described_by_its_reason_in_the_pages_language():
    match, players = seated_match("japanese", ("tamar", "levan"))
    state = load_state(match)
    seat = state.to_act
    play_moves(match, random.Random(1), moves=1)  # the declarer chooses trump
    match = fresh(match)
    refusals = card_refusals(load_state(match), seat)
    card, refusal = next(iter(refusals.items()))  # a face-up card: the first card comes from the hand
    assert refusal.code == "first_card_from_hand"
    page = page_of(match, players[seat], "ru")
    with translation.override("ru"):
        reason = message_for(refusal)
    button = re.search(rf'<button type="button" id="card-{card}"[^>]*>', page).group(0)
    assert 'aria-disabled="true"' in button and f'aria-describedby="why-{card}"' in button
    assert f'<span id="why-{card}" hidden>{reason}</span>' in page
    assert "ws-send" not in button


def test_the_last_trick_of_a_deal_stays_the_last_trick_taken_while_the_next_deal_begins():
    match, players = seated_match("japanese", ("tamar", "levan"))
    rng = random.Random(11)
    while load_state(match).deal_index == 0:
        before = load_state(match).view(0)
        match = play_moves(match, rng, moves=1)
    view = load_state(match).view(0)
    assert view["deal_index"] == 1 and not view["trick"]
    trick = finished_trick(view)  # the engine's view keeps it until the new deal's first card
    assert trick == view["last_trick"]
    assert trick["deal"] == 0 and len(trick["cards"]) == 2
    last_two = [a for a in match.record["deals"][0]["actions"] if "play" in a][-2:]
    assert [entry["play"] for entry in trick["cards"]] == [a["play"] for a in last_two]
    assert trick["winner"] in (0, 1) and before["phase"] == "play"
    page = page_of(match, players[0])
    assert "<!-- earlier deal -->" in page and "takes the trick." in page


@pytest.mark.parametrize(("language", "label"), [("en", "Ace of spades"), ("ru", "Туз пик"), ("ka", None)])
def test_a_card_label_begins_with_a_capital_except_in_georgian(language, label):
    from games.card_faces import card_name

    with translation.override(language):
        expected = label or card_name("AS")  # Georgian has no capitals to begin with
        assert card_label("AS") == expected
        assert card_label("X1") == (card_name("X1") if language == "ka" else card_name("X1").capitalize())
