"""The worked examples of the seed texts, move by move.

- Classic (Georgian seed): the three-card deal of pulka I dealt by Nika, scores 100/50/20/50.
- Japanese (Georgian and Russian seeds): Giorgi and Nino's first five tricks.
"""

import random

from games.engine import Bid, ChooseTrump, ClassicState, JapaneseState, Phase, Play, play_random
from games.engine.scenario import advance_to_deal

GIORGI, ANA, LEVAN, NIKA = 0, 1, 2, 3
THREE_CARD_HANDS = [["AS", "KH", "7C"], ["8S", "9H", "JC"], ["X1", "QS", "6H"], ["TS", "8C", "9D"]]


def three_card_deal():
    """Pulka I, third deal: everyone holds three cards, Nika deals, the ten of diamonds is turned."""
    state = ClassicState({"game_type": "standard", "first_dealer": 1})
    advance_to_deal(state, 2)
    assert state.dealer == NIKA and state.spec.cards == 3
    state.deal(THREE_CARD_HANDS, "TD")
    return state


def legal(state):
    return sorted({a.card for a in state.legal_actions(state.to_act)})


def test_seed_classic_three_card_deal_bidding_nika_may_not_say_one():
    state = three_card_deal()
    assert state.trump == "D" and state.to_act == GIORGI
    state.apply(Bid(GIORGI, 1))
    state.apply(Bid(ANA, 0))
    state.apply(Bid(LEVAN, 1))
    assert state.to_act == NIKA and state.forbidden_bid == 1  # 2 + 1 = 3 tricks
    assert not state.is_legal(Bid(NIKA, 1))
    state.apply(Bid(NIKA, 0))
    assert state.bids == [1, 0, 1, 0] and state.phase is Phase.PLAY and state.to_act == GIORGI


def test_seed_classic_three_card_deal_tricks_and_scores_100_50_20_50():
    state = three_card_deal()
    for seat, n in ((GIORGI, 1), (ANA, 0), (LEVAN, 1), (NIKA, 0)):
        state.apply(Bid(seat, n))
    # 1. Giorgi leads the ace of spades; everyone follows.
    state.apply(Play(GIORGI, "AS"))
    assert legal(state) == ["8S"]
    state.apply(Play(ANA, "8S"))
    assert legal(state) == ["QS", "X1"]
    state.apply(Play(LEVAN, "QS"))
    state.apply(Play(NIKA, "TS"))
    assert state.last_trick[1] == GIORGI
    # 2. King of hearts; Levan's joker takes; Nika has no hearts and must trump with the 9D.
    state.apply(Play(GIORGI, "KH"))
    state.apply(Play(ANA, "9H"))
    state.apply(Play(LEVAN, "X1", "take"))
    assert legal(state) == ["9D"]
    state.apply(Play(NIKA, "9D"))
    assert state.last_trick[1] == LEVAN
    # 3. Levan's small heart: nobody has hearts or trumps, the six takes.
    state.apply(Play(LEVAN, "6H"))
    state.apply(Play(NIKA, "8C"))
    state.apply(Play(GIORGI, "7C"))
    state.apply(Play(ANA, "JC"))
    result = state.results[-1]
    assert result.tricks == (1, 0, 2, 0)
    assert result.scores == (100, 50, 20, 50)


def test_seed_classic_lesson_a_discarded_joker_lets_nikas_trump_take_the_second_trick():
    state = three_card_deal()
    for seat, n in ((GIORGI, 1), (ANA, 0), (LEVAN, 1), (NIKA, 0)):
        state.apply(Bid(seat, n))
    for card in ("AS", "8S", "QS", "TS", "KH", "9H"):
        state.apply(Play(state.to_act, card))
    state.apply(Play(LEVAN, "X1", "discard"))
    state.apply(Play(NIKA, "9D"))
    assert state.last_trick[1] == NIKA  # the trump beats the king of hearts: Nika's pass fails


def test_seed_classic_lesson_the_six_of_hearts_instead_of_the_joker_also_loses_to_nikas_trump():
    state = three_card_deal()
    for seat, n in ((GIORGI, 1), (ANA, 0), (LEVAN, 1), (NIKA, 0)):
        state.apply(Bid(seat, n))
    for card in ("AS", "8S", "QS", "TS", "KH", "9H", "6H", "9D"):
        state.apply(Play(state.to_act, card))
    assert state.last_trick[1] == NIKA


# --- Japanese: Giorgi (seat 0) and Nino (seat 1) ----------------------------------------------

GIORGI_J, NINO = 0, 1
JAPANESE_HANDS = [["AH", "TH", "KC", "9C", "JD", "7D", "8S", "QS"], ["7H", "JH", "X1", "TS", "8D", "9D", "7C", "AD"]]
# [face_down, face_up]: Giorgi shows KS 6D QC 8H TD, Nino AS JS TC 6H KD.
JAPANESE_COLUMNS = [
    [["QD", "KS"], ["9H", "6D"], ["QH", "QC"], ["KH", "8H"], ["X2", "TD"]],
    [["AC", "AS"], ["7S", "JS"], ["9S", "TC"], ["8C", "6H"], ["JC", "KD"]],
]


def japanese_opening():
    state = JapaneseState({"target": 21})
    state.deal(JAPANESE_HANDS, JAPANESE_COLUMNS)
    assert state.to_act == GIORGI_J and sorted(state.view(GIORGI_J)["hand"]) == sorted(["AH", "TH", "KC"])
    state.apply(ChooseTrump(GIORGI_J, "H"))
    return state


def test_seed_japanese_first_trick_both_first_cards_come_from_the_hand():
    state = japanese_opening()
    assert legal(state) == sorted(JAPANESE_HANDS[0])
    state.apply(Play(GIORGI_J, "AH"))
    assert legal(state) == ["7H", "JH", "X1"]
    state.apply(Play(NINO, "7H"))
    assert state.taken == [1, 0]


def test_seed_japanese_second_trick_face_up_cards_and_the_cards_under_them_go_to_the_hands():
    state = japanese_opening()
    for card in ("AH", "7H"):
        state.apply(Play(state.to_act, card))
    assert "8H" in legal(state)
    state.apply(Play(GIORGI_J, "8H"))
    assert legal(state) == ["6H", "JH", "X1"]
    state.apply(Play(NINO, "6H"))
    assert state.taken == [2, 0]
    assert "KH" in state.hand(GIORGI_J) and "8C" in state.hand(NINO)


def test_seed_japanese_first_five_tricks():
    state = japanese_opening()
    for card in ("AH", "7H", "8H", "6H"):
        state.apply(Play(state.to_act, card))
    # 3. Giorgi leads the face-up QC; Nino has only lower clubs and gives the 7C.
    state.apply(Play(GIORGI_J, "QC"))
    assert {"7C", "TC"} <= set(legal(state)) and all(c[-1] == "C" or c[0] == "X" for c in legal(state))
    state.apply(Play(NINO, "7C"))
    assert state.taken == [3, 0]
    # 4. Giorgi leads JD; Nino takes with the face-up KD and keeps AD in hand.
    state.apply(Play(GIORGI_J, "JD"))
    state.apply(Play(NINO, "KD"))
    assert state.taken == [3, 1] and state.to_act == NINO
    assert "AD" in state.hand(NINO)
    # 5. Nino leads the joker naming clubs: Giorgi must give his highest club, the KC.
    state.apply(Play(NINO, "X1", None, "C"))
    assert legal(state) == ["KC"]
    assert not state.is_legal(Play(GIORGI_J, "9C"))
    state.apply(Play(GIORGI_J, "KC"))
    assert state.taken == [3, 2] and state.to_act == NINO


def test_seed_japanese_without_clubs_giorgi_must_trump_and_his_heart_beats_the_joker():
    hands = [["AH", "TH", "7S", "9S", "JD", "7D", "8S", "QS"], ["7H", "JH", "X1", "TS", "8D", "9D", "7C", "AD"]]
    columns = [
        [["QD", "KS"], ["9H", "6D"], ["QH", "JS"], ["KH", "8H"], ["X2", "TD"]],
        [["AC", "AS"], ["KC", "QC"], ["9C", "TC"], ["8C", "6H"], ["JC", "KD"]],
    ]
    state = JapaneseState()
    state.deal(hands, columns)
    state.apply(ChooseTrump(GIORGI_J, "H"))
    for card in ("JD", "AD"):
        state.apply(Play(state.to_act, card))
    state.apply(Play(NINO, "X1", None, "C"))
    assert legal(state) == ["8H", "AH", "TH"]  # no clubs: trump (8H lies face up)
    state.apply(Play(GIORGI_J, "TH"))
    assert state.last_trick[1] == GIORGI_J


def test_seed_japanese_after_the_deal_the_winner_scores_the_difference_and_nino_declares_next():
    state = japanese_opening()
    play_random(state, random.Random(5), until_deal=1)
    a, b = state.results[0].tricks
    assert a + b == 18
    assert state.totals == ([a - b, 0] if a > b else [0, b - a])
    assert state.phase is Phase.DEAL and state.declarer == NINO
    play_random(state, random.Random(6), max_moves=1)  # the second deal is dealt
    assert state.phase is Phase.TRUMP and state.to_act == NINO
