"""The advice (games/engine/advice.py): the advice level's move and one plain reason, from the seat's
view alone; and the review of a finished classic deal (games/engine/review.py)."""

import json
import random

import pytest

from games.engine import (
    Bid,
    ChooseTrump,
    ClassicState,
    JapaneseState,
    Phase,
    Play,
    deal_from_deck,
    random_deal,
    shuffled_deck,
    to_record,
)
from games.engine.advice import ADVICE_LEVEL, REASON_CODES, Reason, advise, reason_for, situation_of
from games.engine.bot import LEVELS, choose_action
from games.engine.classic import points_by_deal
from games.engine.review import play_out, review_deal
from games.engine.scenario import advance_to_deal, classic_cards, japanese_cards


def _deal(cards_per_player, hands, trump_card=None, bids=None):
    """A standard game at its deal of `cards_per_player` cards (deals 0-7 are 1..8 cards), dealt
    `hands` ({offset from the leader: cards}); `bids` in order from the leader. Returns (state, leader)."""
    state = ClassicState({"game_type": "standard"})
    advance_to_deal(state, cards_per_player - 1)
    leader = (state.dealer + 1) % 4
    fixed = {(leader + offset) % 4: cards for offset, cards in hands.items()}
    state.deal(**classic_cards(state, fixed, trump_card))
    for k, n in enumerate(bids or []):
        state.apply(Bid((leader + k) % 4, n))
    return state, leader


def test_the_advice_level_is_one_of_the_bots_levels():
    assert ADVICE_LEVEL in LEVELS


def test_needing_one_more_trick_the_hint_leads_the_ace_and_says_a_trick_is_needed():
    state, leader = _deal(2, {0: ["X1", "AH"]}, "7D", bids=[1, 0, 0, 0])
    advice = advise(state.view(leader), effort=0.3)
    assert advice.action == Play(leader, "AH")
    assert advice.situation == Reason("need_tricks", {"need": 1, "left": 2})
    assert advice.reason == Reason("lead_try", {"card": "AH"})


def test_a_card_nobody_can_beat_is_named_so():
    # Both jokers in the leader's hand and the ace of trump: nothing out can take the ace.
    state, leader = _deal(3, {0: ["X1", "X2", "AD"]}, "7D", bids=[3, 0, 0, 1])
    assert reason_for(state.view(leader), Play(leader, "AD")) == Reason("lead_sure", {"card": "AD"})


def test_a_trump_on_a_suit_the_seat_lacks_is_named_so():
    # The last to play holds no spade: its trump takes the trick.
    state, leader = _deal(2, {0: ["9S", "7H"], 1: ["TS", "8H"], 2: ["JS", "9H"], 3: ["8D", "9D"]}, "7D",
                          bids=[0, 0, 0, 1])
    last = (leader + 3) % 4
    for offset, card in ((0, "9S"), (1, "TS"), (2, "JS")):
        state.apply(Play((leader + offset) % 4, card))
    view = state.view(last)
    assert reason_for(view, Play(last, "8D")) == Reason("trump_in", {"card": "8D", "led": "S"})
    assert situation_of(view) == Reason("need_tricks", {"need": 1, "left": 2})


def test_the_dealer_is_told_which_bid_is_forbidden():
    state, _leader = _deal(2, {}, None, bids=[1, 0, 0])
    dealer = state.dealer
    view = state.view(dealer)
    assert situation_of(view) == Reason("dealer_forbidden", {"bid": 1})
    advice = advise(view, effort=0.3)
    assert advice.action != Bid(dealer, 1)
    assert advice.situation == Reason("dealer_forbidden", {"bid": 1})


def test_once_the_bid_is_made_the_hint_ducks_and_a_joker_goes_as_discard():
    # The leader passed; the next seat holds a joker and a low heart and follows the led ace of hearts.
    state, leader = _deal(2, {0: ["AH", "7S"], 1: ["X1", "7H"]}, "7D", bids=[1, 0, 0, 0])
    state.apply(Play(leader, "AH"))
    follower = (leader + 1) % 4
    view = state.view(follower)
    assert situation_of(view) == Reason("pass_kept")
    assert reason_for(view, Play(follower, "7H")) == Reason("duck", {"card": "7H"})
    assert reason_for(view, Play(follower, "X1", "discard")) == Reason("joker_discard")
    advice = advise(view, effort=0.3)
    assert advice.action in (Play(follower, "7H"), Play(follower, "X1", "discard"))


def test_a_joker_as_take_when_the_trick_is_needed_and_the_joker_led_high_naming_a_suit():
    state, leader = _deal(2, {0: ["AH", "7S"], 1: ["X1", "8S"]}, "7D", bids=[0, 1, 0, 0])
    state.apply(Play(leader, "AH"))
    follower = (leader + 1) % 4
    view = state.view(follower)
    assert reason_for(view, Play(follower, "X1", "take")) == Reason("joker_take_unless")
    assert reason_for(view, Play(follower, "8S")) == Reason("save_winners", {"card": "8S"})
    lead_state, lead_seat = _deal(2, {0: ["X1", "9S"]}, "7D", bids=[2, 0, 0, 1])
    lead = reason_for(lead_state.view(lead_seat), Play(lead_seat, "X1", "take", "D"))
    assert lead == Reason("lead_joker_high", {"suit": "D"})


def test_the_trump_choice_names_the_longest_suit():
    state = ClassicState({"game_type": "nines"})
    chooser = (state.dealer + 1) % 4
    state.deal(**classic_cards(state, {chooser: ["7H", "9H", "AS"]}))
    assert state.phase is Phase.TRUMP
    view = state.view(chooser)
    assert reason_for(view, ChooseTrump(chooser, "H")) == Reason("trump_longest", {"suit": "H"})
    assert reason_for(view, ChooseTrump(chooser, None)) == Reason("trump_none")


def test_two_deals_that_look_the_same_to_the_seat_give_the_same_hint():
    own = ["X1", "AH", "9S", "TC"]
    first, seat = _deal(4, {0: own, 1: ["KH", "QS", "7C", "8D"]}, "7D", bids=[2, 1, 0])
    second, same_seat = _deal(4, {0: own, 1: ["JC", "QC", "KC", "8H"]}, "7D", bids=[2, 1, 0])
    assert seat == same_seat
    dealer = first.dealer
    # The leader's view is the same in both deals (the other hands differ): so is the hint.
    assert first.view(seat) == second.view(seat)
    first.apply(Bid(dealer, 0))
    second.apply(Bid(dealer, 0))
    assert first.view(seat) == second.view(seat)
    assert first.hand((seat + 1) % 4) != second.hand((seat + 1) % 4)
    assert advise(first.view(seat)) == advise(second.view(seat))
    assert advise(json.dumps(first.view(seat))) == advise(second.view(seat))


def test_a_japanese_hint_names_a_legal_move_and_a_reason():
    state = JapaneseState()
    state.deal(**japanese_cards({0: ["X1", "AH", "KH"]}))
    state.apply(ChooseTrump(0, "H"))
    advice = advise(state.view(0), effort=0.3)
    assert state.is_legal(advice.action)
    assert advice.reason.code in REASON_CODES
    assert advice.situation is None


@pytest.mark.parametrize("variant", ["classic", "japanese"])
def test_every_hint_of_a_played_game_is_a_legal_move_with_a_known_reason(variant):
    rng = random.Random(3)
    state = ClassicState({"game_type": "short"}) if variant == "classic" else JapaneseState()
    moves = 0
    while not state.is_over() and moves < 120:
        if state.to_act is None:
            random_deal(state, rng)
            continue
        advice = advise(state.view(state.to_act), effort=0.1)
        assert state.is_legal(advice.action)
        assert advice.reason.code in REASON_CODES
        assert advice.situation is None or advice.situation.code in REASON_CODES
        state.apply(advice.action)
        moves += 1


def test_asking_a_seat_that_has_no_move_is_refused():
    state, leader = _deal(2, {}, "7D", bids=[1, 0, 0, 0])
    with pytest.raises(ValueError):
        advise(state.view((leader + 1) % 4))


# --- the review of a finished deal ------------------------------------------------------------


def _nine_of_spades_led_into_a_trump():
    """Two cards each, trump ♦. The leader holds the joker and 9♠ and bids 2; the next seat has
    no spade but a trump. The leader leads 9♠ (trumped), then wins the second trick with the joker:
    one trick of two. Leading the joker first would pull the trump and make both."""
    hands = {0: ["X1", "9S"], 1: ["8D", "7H"], 2: ["8H", "9H"], 3: ["7C", "8C"]}
    state, leader = _deal(2, hands, "7D", bids=[2, 0, 0, 1])
    first_trick = (("9S",), ("8D",), ("8H",), ("7C",))
    for offset, (card,) in enumerate(first_trick):
        state.apply(Play((leader + offset) % 4, card))
    for offset, card, joker in ((1, "7H", None), (2, "9H", None), (3, "8C", None), (0, "X1", "take")):
        state.apply(Play((leader + offset) % 4, card, joker))
    assert state.phase is Phase.DEAL
    return state, leader


def test_the_review_finds_the_moment_the_deal_was_lost():
    state, leader = _nine_of_spades_led_into_a_trump()
    review = review_deal(to_record(state), 1, leader)
    assert review.bids[leader] == 2 and review.tricks[leader] == 1 and review.made[leader] is False
    moment = review.moment
    assert moment is not None and moment.trick == 1
    assert moment.played == Play(leader, "9S")
    assert moment.advised.card == "X1" and moment.advised.joker == "take"
    assert moment.advised_made == moment.playouts and moment.played_made == 0
    assert moment.advised_points - moment.played_points >= 150
    assert moment.fate == Reason("fate_trump", {"card": "9S", "by": "8D"})
    assert moment.situation == Reason("need_tricks", {"need": 2, "left": 2})
    assert review.differed >= 1


def test_at_a_pulkas_last_trick_the_review_weighs_a_move_by_its_points_premium_and_moshla_included():
    """A move that loses a few points of the deal but keeps a pulka's premium (or saves a moshla)
    must not be the review's "moment": the play-outs count what the move brings, the deal's
    score and the pulka's end."""
    for seed in range(40):
        state = _bids_of_deal(11, seed)  # the bids of the nines pulka's last deal
        rng = random.Random(seed)
        while sum(state.taken) < 8 or state.phase is Phase.BID:
            state.apply(choose_action(state, state.to_act, rng, effort=0.05))
        seat = state.to_act  # the last trick's leader: one card each, every move forced
        ended, forced = state.copy(), True
        while ended.deal_index == 11:
            moves = ended.legal_actions(ended.to_act)
            forced = forced and len(moves) == 1  # a joker's call would be a choice
            ended.apply(moves[0])
        sheet = ended.score_sheet()
        if forced and sheet["pulkas"][-1]["bonus"][seat]:
            points, _made = play_out(state, state.legal_actions(seat)[0], seat, random.Random(0))
            assert points == points_by_deal(sheet)[11][seat] == (
                sheet["deals"][11]["scores"][seat] + sheet["pulkas"][-1]["bonus"][seat])
            return
    raise AssertionError("no premium or moshla for the last player in 40 seeds")


def test_a_games_points_by_deal_add_up_to_its_totals():
    state = _bids_of_deal(11, 3)
    while state.deal_index < 12:
        state.apply(choose_action(state, state.to_act, random.Random(state.move_count), effort=0.05))
    points = points_by_deal(state.score_sheet())
    assert [sum(row[s] for row in points) for s in range(4)] == list(state.totals)


def test_a_deal_played_as_the_advice_would_has_no_moment():
    state, leader = _deal(2, {0: ["X1", "9S"], 1: ["8D", "7H"], 2: ["8H", "9H"], 3: ["7C", "8C"]}, "7D",
                          bids=[2, 0, 0, 1])
    while state.phase is Phase.PLAY:
        state.apply(advise(state.view(state.to_act)).action)
    review = review_deal(to_record(state), 1, leader)
    assert review.moment is None and review.decisions >= 1  # (its bids were set, not advised)
    assert review.made[leader] is True


def test_a_japanese_deal_is_not_reviewed():
    state = JapaneseState()
    random_deal(state, random.Random(1))
    with pytest.raises(ValueError):
        review_deal(to_record(state), 0, 0)


def test_an_unfinished_deal_is_not_reviewed():
    state, leader = _deal(2, {}, "7D", bids=[1, 0, 0, 0])
    with pytest.raises(ValueError):
        review_deal(to_record(state), 1, leader)


# --- the words ----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_every_reason_and_move_has_its_words_in_the_players_language(language):
    from django.utils import translation

    from games.advice_words import REASONS, move_words, reason_sentence
    from games.engine.review import FATE_CODES

    assert set(REASONS) == set(REASON_CODES) | set(FATE_CODES)
    facts = {"need": 1, "left": 2, "bid": 1, "strong": 2, "suit": "D", "led": "S", "card": "AH", "by": "KD",
             "best": 250}
    moves = [{"play": "AH"}, {"play": "X1", "joker": "take", "suit": "D"}, {"play": "X2", "joker": "discard"},
             {"play": "X1", "suit": "S"}, {"play": "X1"}, {"bid": 0}, {"bid": 2}, {"trump": "H"}, {"trump": "none"}]
    with translation.override("en"):
        english = [reason_sentence({"code": code, "params": facts}) for code in sorted(REASONS)]
        english_moves = [move_words(move) for move in moves]
    with translation.override(language):
        sentences = [reason_sentence({"code": code, "params": facts}) for code in sorted(REASONS)]
        named = [move_words(move) for move in moves]
    assert all(sentences) and all(named)
    assert not set(sentences) & set(english)
    assert not set(named) & set(english_moves)
    assert "♦" in sentences[sorted(REASONS).index("lead_joker_high")]


def test_the_summarys_review_names_the_moment_in_russian():
    from django.template.loader import render_to_string
    from django.utils import translation

    from games.advice_words import review_shown
    from games.services.hints import review_kept

    state, leader = _nine_of_spades_led_into_a_trump()
    kept = review_kept(review_deal(to_record(state), 1, leader))
    with translation.override("ru"):
        html = render_to_string("games/_deal_review.html", {"deal": 1, "review": review_shown(kept)})
    for words in ("Вы заказали 2 и взяли 1.", "Решающий момент: взятка 1.", "Девятка пик",
                  "Вашу карту побили козырем.", "Джокер, «старшую»", "с лучшим ходом 4/4, с вашим 0/4"):
        assert words in html
    assert "data-ask-review" not in html


def _bids_of_deal(deal_index: int, seed: int, options=None):
    """A standard game at the bids of ``deal_index`` (in the first pulka of nines, deals 8 to 11),
    random play before that pulka and club play in it."""
    state = ClassicState({"game_type": "standard", "first_dealer": 0, **(options or {})})
    advance_to_deal(state, 8, seed)
    rng = random.Random(seed)
    while state.deal_index < deal_index or state.phase is not Phase.BID:
        if state.phase is Phase.DEAL:
            deal_from_deck(state, shuffled_deck(rng))
            continue
        state.apply(choose_action(state, state.to_act, rng, effort=0.05))
    return state


def _pulka_situations(state) -> dict:
    """Each seat's situation but the dealer's (told of the forbidden bid first)."""
    return {seat: situation_of(state.view(seat)) for seat in range(4) if state.view(seat)["dealer"] != seat}


def _a_pulka_with_a_streak(options=None):
    """The bids of a pulka's last deal after some seat made every bid of it and some did not:
    (the state, each seat's streak)."""
    for seed in range(40):
        state = _bids_of_deal(11, seed, options)
        streak = [all(r.bids[s] == r.tricks[s] for r in state.results[8:11]) for s in range(4)]
        if any(streak) and not all(streak):
            return state, streak
    raise AssertionError("no such pulka in 40 seeds")


def test_a_hint_at_a_pulkas_last_bids_names_the_premium_or_the_moshla_at_stake():
    state, streak = _a_pulka_with_a_streak()
    situations = _pulka_situations(state)
    for seat, situation in situations.items():
        best = max(r.scores[seat] for r in state.results[8:11])
        if streak[seat]:
            assert situation == Reason("pulka_close")
        elif best > 0:
            assert situation == Reason("pulka_threat", {"best": best})
        else:
            assert situation is None
    assert {s.code for s in situations.values() if s} & {"pulka_close", "pulka_threat"}


def test_no_pulka_situation_before_its_last_deal_or_without_premium_and_moshla():
    assert set(_pulka_situations(_bids_of_deal(10, 1)).values()) == {None}
    state, streak = _a_pulka_with_a_streak({"pulka_bonus": "none"})
    assert any(streak) and set(_pulka_situations(state).values()) == {None}
