"""The lesson's steps agree with the engine.

Every position replays under the engine; every answer a step accepts is one of
the engine's legal moves for the learner (exactly the legal moves where a step
says "any legal move"); every other legal move has a host's explanation; every
illegal move is explained by the engine's own refusal; every quiz answer is a
fact the engine computes; what the hosts claim about a position is true; and every
topic the issue lists is shown by a step, checked on the engine's view of its position.
"""

import re

import pytest
from django.utils import translation

from games.engine import IllegalAction, action_from_record, full_deck, state_from_record
from games.engine_messages import MESSAGES, message_for
from lessons import facts
from lessons.steps import (
    PATHS,
    accepted_actions,
    canonical,
    finish_trick,
    judge_move,
    judge_quiz,
    lesson,
    move_value,
    parse_move,
    question_facts,
)
from lessons.texts import TEXTS

ALL_STEPS = [step for path in PATHS for step in lesson(path).steps]
MOVE_STEPS = [step for step in ALL_STEPS if step.kind == "move"]
QUIZ_STEPS = [step for step in ALL_STEPS if step.kind == "quiz"]
SUITS = "SCDH"


def step_id(step):
    return f"{step.path}-{step.id}"


def variant_of(step):
    return lesson(step.path).variant


def legal_set(step, state):
    return {canonical(a, variant_of(step)) for a in state.legal_actions(step.seat)}


def every_button(step, state):
    """Every move the lesson's table offers the learner: each card of the hand and of the
    learner's face-up columns (jokers in each form the menu has), each bid, each trump."""
    variant = variant_of(step)
    view = state.view(step.seat)
    cards = list(view["hand"])
    if variant == "japanese" and view["columns"]:
        cards += [col["up"] for col in view["columns"][step.seat] if col]
    leading = not view["trick"]
    moves = []
    for card in cards:
        if not card.startswith("X"):
            moves.append(f"play {card}")
        elif variant == "classic":
            moves += [f"play {card} {mode} {s}" for mode in ("take", "discard") for s in SUITS] if leading else [
                f"play {card} take", f"play {card} discard"]
        else:
            moves += [f"play {card} - {s}" for s in SUITS] if leading else [f"play {card}"]
    if view["phase"] == "bid":
        moves += [f"bid {n}" for n in range(view["cards_per_player"] + 1)]
    if view["phase"] == "trump":
        moves += [f"trump {t}" for t in ("S", "C", "D", "H", "none")]
    return moves


def test_both_paths_keep_their_steps_in_teaching_order():
    classic = lesson("classic").step_ids
    japanese = lesson("japanese").step_ids
    assert classic == ["deck", "follow-suit", "must-trump", "joker-take", "joker-discard", "joker-lead-high",
                       "joker-lead-low", "two-jokers", "turned-trump", "trump-choice", "dealer-bid", "scoring",
                       "all-of-them", "pulka"]
    assert japanese == ["columns", "first-card", "face-down", "last-two", "joker-demand", "trump-beats-joker",
                        "joker-lead", "scoring", "match"]


# --- every topic of the issue is taught by a step that really shows it -----------------------
#
# A step's id proves nothing: each topic below is checked on the engine's own view of the step's
# position, and, for a move, on what the engine makes of the move the step accepts.


def refusal_code(step, record):
    try:
        step.state().apply(action_from_record(record))
    except IllegalAction as error:
        return error.code
    return None


def accepted_outcome(step):
    """The position after the step's (first) accepted move, trick finished, by the judge."""
    verdict = judge_move(step, variant_of(step), step.accept[0])
    assert verdict.is_right
    return verdict


def asked_facts(step):
    return [q.fact for q in step.questions]


def seat_deal(step, fact):
    """(bid, took, cards, khishti) of the seat and deal a deal_score question asks about."""
    result = step.state().results[fact["deal"]]
    seat = fact["seat"]
    return result.bids[seat], result.tricks[seat], result.cards, result.khishti[seat]


def check_deck(step):
    assert step.kind == "quiz" and step.show == "deck"
    deck = full_deck()
    assert len(deck) == 36 and {"X1", "X2"} <= set(deck)
    assert {f["name"] for f in asked_facts(step)} == {"cards_left_out", "deck_size"}
    assert facts.answer({"name": "cards_left_out"}, None)[0] == "6C 6S"


def check_follow_suit(step):
    state = step.state()
    led = state.view(step.seat)["trick"][0]["play"]
    assert not led.startswith("X")
    of_led_suit = [c for c in state.hand(step.seat) if c[1] == led[1]]
    assert of_led_suit
    assert sorted(a.card for a in state.legal_actions(step.seat)) == sorted(of_led_suit)
    other = next(c for c in state.hand(step.seat) if c[1] != led[1] and not c.startswith("X"))
    assert refusal_code(step, {"seat": step.seat, "play": other}) == "must_follow_suit"


def check_must_trump(step):
    state = step.state()
    led = state.view(step.seat)["trick"][0]["play"]
    hand = state.hand(step.seat)
    assert led[1] != state.trump and not any(c[1] == led[1] for c in hand)
    trumps = [c for c in hand if c[1] == state.trump]
    assert trumps and sorted(a.card for a in state.legal_actions(step.seat)) == sorted(trumps)
    other = next(c for c in hand if c[1] != state.trump and not c.startswith("X"))
    assert refusal_code(step, {"seat": step.seat, "play": other}) == "must_trump"


def check_joker_take(step):
    trick = step.state().view(step.seat)["trick"]
    assert trick and step.accept[0]["joker"] == "take" and "suit" not in step.accept[0]
    assert any(entry["play"] == "A" + step.state().trump for entry in trick), "it beats even the ace of trump"
    assert accepted_outcome(step).after.last_trick[1] == step.seat


def check_joker_discard(step):
    assert step.state().view(step.seat)["trick"] and step.accept[0]["joker"] == "discard"
    assert accepted_outcome(step).after.last_trick[1] != step.seat


def check_joker_lead(mode, learner_wins):
    def check(step):
        assert not step.state().view(step.seat)["trick"], "the joker leads"
        move = step.accept[0]
        assert move["play"].startswith("X") and move["joker"] == mode and move["suit"] in SUITS
        after = accepted_outcome(step).after
        assert (after.last_trick[1] == step.seat) is learner_wins
    return check


def check_two_jokers(step):
    trick = step.state().view(step.seat)["trick"]
    assert any(entry["play"].startswith("X") and entry.get("joker") == "take" for entry in trick)
    assert step.accept[0]["play"].startswith("X") and step.accept[0]["joker"] == "take"
    assert accepted_outcome(step).after.last_trick[1] == step.seat, "the later joker wins"


def check_turned_trump(step):
    state = step.state()
    assert state.cards_per_player < 9 and state.trump_card is not None
    assert state.trump == state.trump_card[1]
    assert {"name": "trump"} in asked_facts(step)


def check_trump_choice(step):
    state = step.state()
    view = state.view(step.seat)
    assert view["phase"] == "trump" and state.cards_per_player == 9
    assert state.trump_chooser == step.seat and len(view["hand"]) == 3


def check_dealer_bid(step):
    state = step.state()
    assert state.view(step.seat)["phase"] == "bid" and state.dealer == step.seat
    forbidden = state.forbidden_bid
    assert forbidden is not None
    assert sum(b for b in state.bids if b is not None) + forbidden == state.cards_per_player
    assert refusal_code(step, {"seat": step.seat, "bid": forbidden}) == "forbidden_bid"


DEAL_CASES = {  # rules.md 2.7, by (bid, took, cards, khishti)
    "made": lambda b, t, n, k: b == t and 0 < b < n,
    "failed": lambda b, t, n, k: b != t and t > 0,
    "pass": lambda b, t, n, k: b == t == 0,
    "all-of-them": lambda b, t, n, k: b == t == n,
    "khishti": lambda b, t, n, k: b >= 1 and t == 0 and k,
}


def check_deal_score(case):
    def check(step):
        asked = [seat_deal(step, f) for f in asked_facts(step) if f["name"] == "deal_score"]
        assert any(DEAL_CASES[case](*deal) for deal in asked), f"the step asks the score of no {case} deal"
    return check


def check_premium_and_moshla(step):
    state = step.state()
    asked = {f["name"]: f for f in asked_facts(step)}
    pulka = state.pulka_results[asked["pulka_premium"]["pulka"]]
    assert pulka.premium[asked["pulka_premium"]["seat"]] > 0
    assert pulka.moshla[asked["pulka_moshla"]["seat"]] < 0


def check_columns(step):
    view = step.state().view(step.seat)
    assert [sum(1 for col in side if col) for side in view["columns"]] == [5, 5]
    assert {f["name"] for f in asked_facts(step)} == {"opponent_sees", "face_down_seen_by"}


def check_first_card(step):
    state = step.state()
    assert sorted(a.card for a in state.legal_actions(step.seat)) == sorted(state.hand(step.seat))
    for card in state.face_up(step.seat):
        assert refusal_code(step, {"seat": step.seat, "play": card}) == "first_card_from_hand"


def check_face_down(step):
    state = step.state()
    assert step.accept[0]["play"] in state.face_up(step.seat) and step.show_new_cards
    assert len(accepted_outcome(step).new_cards) == 1


def check_last_two(step):
    state = step.state()
    assert sum(1 for col in state.view(step.seat)["columns"][step.seat] if col) == 2
    assert all(move["play"] in state.face_up(step.seat) for move in step.accept)
    verdict = accepted_outcome(step)
    assert len(verdict.new_cards) == 3 and not any(verdict.after.view(step.seat)["columns"][step.seat])


def check_joker_demand(step):
    state = step.state()
    lead = state.view(step.seat)["trick"][0]
    assert lead["play"].startswith("X") and lead["suit"] in SUITS
    of_suit = [c for c in state.available(step.seat) if c[1] == lead["suit"]]
    highest = max(of_suit, key=lambda c: "6789TJQKA".index(c[0]))
    assert [a.card for a in state.legal_actions(step.seat)] == [highest]
    lower = [c for c in of_suit if c != highest]
    assert lower and refusal_code(step, {"seat": step.seat, "play": lower[0]}) == "must_play_highest"


def check_trump_beats_joker(step):
    state = step.state()
    lead = state.view(step.seat)["trick"][0]
    assert lead["play"].startswith("X") and lead["suit"] != state.trump
    assert not any(c[1] == lead["suit"] for c in state.available(step.seat))
    assert all(move["play"][1] == state.trump for move in step.accept)
    for move in step.accept:
        assert judge_move(step, "japanese", move).after.last_trick[1] == step.seat


def check_difference_scoring(step):
    result = step.state().results[0]
    winner = 0 if result.tricks[0] > result.tricks[1] else 1
    assert result.scores[winner] == abs(result.tricks[0] - result.tricks[1]) > 0
    assert result.scores[1 - winner] == 0
    assert [f["name"] for f in asked_facts(step)] == ["japanese_points", "japanese_points"]


def check_match_target(step):
    state = step.state()
    assert state.is_over() and state.winners() == [0]
    before_last_deal = sum(r.scores[0] for r in state.results[:-1])
    assert before_last_deal < state.options.target <= state.totals[0], "the last deal passed the target"
    assert {"name": "match_winner"} in asked_facts(step)


ISSUE_TOPICS = [
    ("classic", "the deck and the jokers", "deck", check_deck),
    ("classic", "follow suit", "follow-suit", check_follow_suit),
    ("classic", "must trump", "must-trump", check_must_trump),
    ("classic", "the joker's take", "joker-take", check_joker_take),
    ("classic", "the joker's discard", "joker-discard", check_joker_discard),
    ("classic", "the joker lead high with a named suit", "joker-lead-high", check_joker_lead("take", True)),
    ("classic", "the joker lead low with a named suit", "joker-lead-low", check_joker_lead("discard", False)),
    ("classic", "two jokers in a trick", "two-jokers", check_two_jokers),
    ("classic", "the turned trump", "turned-trump", check_turned_trump),
    ("classic", "the 9-card trump choice", "trump-choice", check_trump_choice),
    ("classic", "bidding and the dealer's forbidden number", "dealer-bid", check_dealer_bid),
    ("classic", "scoring a deal: made", "scoring", check_deal_score("made")),
    ("classic", "scoring a deal: failed", "scoring", check_deal_score("failed")),
    ("classic", "scoring a deal: pass", "scoring", check_deal_score("pass")),
    ("classic", "scoring a deal: all-of-them", "all-of-them", check_deal_score("all-of-them")),
    ("classic", "scoring a deal: khishti", "scoring", check_deal_score("khishti")),
    ("classic", "premium and moshla at the end of a pulka", "pulka", check_premium_and_moshla),
    ("japanese", "the columns", "columns", check_columns),
    ("japanese", "the first card from the hand", "first-card", check_first_card),
    ("japanese", "the face-down card moving to the hand", "face-down", check_face_down),
    ("japanese", "the last-two-columns rule", "last-two", check_last_two),
    ("japanese", "the joker's suit demand", "joker-demand", check_joker_demand),
    ("japanese", "the trump that beats the joker", "trump-beats-joker", check_trump_beats_joker),
    ("japanese", "difference scoring", "scoring", check_difference_scoring),
    ("japanese", "the match target", "match", check_match_target),
]


@pytest.mark.parametrize(("path", "topic", "step_id", "check"), ISSUE_TOPICS,
                         ids=[f"{path}: {topic}" for path, topic, _id, _check in ISSUE_TOPICS])
def test_every_topic_of_the_issue_is_shown_by_its_step(path, topic, step_id, check):
    step = lesson(path).step(step_id)
    assert step is not None, f"no step teaches {topic}"
    check(step)


@pytest.mark.parametrize("step", ALL_STEPS, ids=step_id)
def test_every_step_position_replays_legally_under_the_engine(step):
    if step.position is None:
        assert step.kind == "quiz"
        assert all(q.fact["name"] in facts.STATELESS for q in step.questions)
        return
    assert step.position["format"] == "joker-record/1"
    state = state_from_record(step.position)  # raises RecordError at the first illegal action
    assert state.variant == variant_of(step)


@pytest.mark.parametrize("step", MOVE_STEPS, ids=step_id)
def test_the_learner_is_to_move_in_every_move_step(step):
    state = step.state()
    assert state.to_act == step.seat
    assert state.legal_actions(step.seat)


@pytest.mark.parametrize("step", MOVE_STEPS, ids=step_id)
def test_accepted_answers_are_legal_moves_of_the_learner(step):
    state = step.state()
    accepted = accepted_actions(step, variant_of(step))
    assert accepted, "a step must accept at least one move"
    assert accepted <= legal_set(step, state)
    if step.accept_all_legal:
        assert accepted == legal_set(step, state), "the step asks for any legal move: it must accept exactly those"


@pytest.mark.parametrize("step", MOVE_STEPS, ids=step_id)
def test_every_legal_move_that_is_not_accepted_has_a_hosts_explanation(step):
    state = step.state()
    variant = variant_of(step)
    accepted = accepted_actions(step, variant)
    unwise = {canonical(action_from_record(a), variant) for a, _reply in step.unwise}
    assert unwise <= legal_set(step, state), "an 'unwise' move must be legal (illegal ones are the engine's)"
    assert not unwise & accepted
    uncovered = legal_set(step, state) - accepted - unwise
    assert not uncovered or step.other is not None, f"no explanation for {sorted(map(str, uncovered))}"


@pytest.mark.parametrize("step", MOVE_STEPS, ids=step_id)
def test_the_judge_calls_right_exactly_the_accepted_moves(step):
    state = step.state()
    variant = variant_of(step)
    accepted = accepted_actions(step, variant)
    unwise = {canonical(action_from_record(a), variant) for a, _reply in step.unwise}
    for action in state.legal_actions(step.seat):
        verdict = judge_move(step, variant, action.to_record())
        key = canonical(action, variant)
        expected = "right" if key in accepted else "unwise" if key in unwise else "other"
        assert verdict.outcome == expected, action


@pytest.mark.parametrize("step", MOVE_STEPS, ids=step_id)
def test_illegal_moves_are_explained_by_the_engines_own_refusal(step):
    state = step.state()
    for value in every_button(step, state):
        record = parse_move(value, step.seat)
        try:
            state.copy().apply(action_from_record(record))
        except IllegalAction as error:
            verdict = judge_move(step, variant_of(step), record)
            assert verdict.outcome == "illegal"
            assert verdict.engine_code == error.code
            assert error.code in MESSAGES, f"{error.code} has no sentence in games/engine_messages.py"
            assert verdict.engine_message == message_for(error)
            assert verdict.text_key is None  # nothing hand-written for an illegal move


def test_the_first_three_steps_of_each_path_offer_a_wrong_move_the_engine_refuses():
    """The browser test makes one: a spade on hearts (classic), a column card first (Japanese)."""
    follow = lesson("classic").step("follow-suit")
    verdict = judge_move(follow, "classic", parse_move("play AS", 0))
    assert (verdict.outcome, verdict.engine_code) == ("illegal", "must_follow_suit")
    first = lesson("japanese").step("first-card")
    verdict = judge_move(first, "japanese", parse_move("play AS", 0))
    assert (verdict.outcome, verdict.engine_code) == ("illegal", "first_card_from_hand")


def test_form_values_round_trip_to_the_engines_actions():
    for step in MOVE_STEPS:
        for action in step.state().legal_actions(step.seat):
            assert action_from_record(parse_move(move_value(action), step.seat)) == action


@pytest.mark.parametrize("step", [s for s in MOVE_STEPS if s.winner is not None], ids=step_id)
def test_the_trick_goes_where_the_host_says_after_every_accepted_move(step):
    for record in step.accept:
        verdict = judge_move(step, variant_of(step), record)
        assert verdict.is_right
        assert not verdict.after.trick, "the trick is finished after the move"
        assert verdict.after.last_trick[1] == step.winner


def test_lead_high_naming_clubs_draws_out_the_ace_of_clubs():
    step = lesson("classic").step("joker-lead-high")
    verdict = judge_move(step, "classic", step.accept[0])
    played = [entry["play"] for entry in verdict.after.view(0)["last_trick"]["cards"]]
    assert "AC" in played
    assert "KC" in verdict.after.hand(0)


def test_lead_low_naming_spades_loses_the_trick_because_the_others_hold_spades():
    step = lesson("classic").step("joker-lead-low")
    state = step.state()
    assert not any(c.endswith("S") for c in state.hand(0))
    verdict = judge_move(step, "classic", step.accept[0])
    assert verdict.after.last_trick[1] != 0


def test_the_japanese_joker_named_trump_draws_gios_highest_spade():
    step = lesson("japanese").step("joker-lead")
    verdict = judge_move(step, "japanese", step.accept[0])
    trick = verdict.after.view(0)["last_trick"]["cards"]
    assert trick[1] == {"seat": 1, "play": "AS"}
    assert verdict.after.trump == "S"


def test_the_face_down_card_under_the_ace_goes_to_the_hand():
    step = lesson("japanese").step("face-down")
    under_ace = next(down for down, up in step.position["deals"][0]["columns"][0] if up == "AS")
    verdict = judge_move(step, "japanese", step.accept[0])
    assert verdict.new_cards == [under_ace]


def test_the_last_two_columns_bring_three_cards_to_the_hand_and_clear_the_table():
    step = lesson("japanese").step("last-two")
    state = step.state()
    assert sum(1 for col in state.view(0)["columns"][0] if col) == 2
    for record in step.accept:
        verdict = judge_move(step, "japanese", record)
        assert len(verdict.new_cards) == 3
        assert not any(verdict.after.view(0)["columns"][0])


def test_the_joker_demand_step_makes_the_column_king_the_only_answer():
    step = lesson("japanese").step("joker-demand")
    state = step.state()
    assert "KS" in state.face_up(0) and "KS" not in state.hand(0)
    assert [a.card for a in state.legal_actions(0)] == ["KS"]


def test_the_dealer_bid_step_forbids_three_as_the_host_says():
    state = lesson("classic").step("dealer-bid").state()
    assert state.dealer == 0 and state.forbidden_bid == 3
    assert state.bids[1:] == [2, 3, 1]


def test_the_trump_choice_is_made_from_the_ace_king_of_hearts_and_a_small_spade():
    state = lesson("classic").step("trump-choice").state()
    assert state.trump_chooser == 0
    assert sorted(state.view(0)["hand"]) == sorted(["AH", "KH", "7S"])


@pytest.mark.parametrize("step", QUIZ_STEPS, ids=step_id)
def test_every_quiz_question_has_exactly_one_choice_the_engine_calls_right(step):
    for question, right_value, _params in question_facts(step):
        values = [c["value"] for c in question.choices]
        assert len(values) == len(set(values))
        assert values.count(right_value) == 1, f"{question.id}: engine says {right_value!r}, choices {values}"


@pytest.mark.parametrize("step", QUIZ_STEPS, ids=step_id)
def test_the_quiz_judge_agrees_with_the_engine(step):
    right = {q.id: value for q, value, _params in question_facts(step)}
    assert all(r.is_right for r in judge_quiz(step, right))
    wrong = {q.id: next(c["value"] for c in q.choices if c["value"] != right[q.id]) for q in step.questions}
    assert not any(r.is_right for r in judge_quiz(step, wrong))
    assert not any(r.answered for r in judge_quiz(step, {q.id: "not-a-choice" for q in step.questions}))


def test_quiz_facts_come_from_the_engine():
    scoring = lesson("classic").step("scoring").state()
    assert [r.scores for r in scoring.results] == [(200, 50, -200, 60)]
    assert lesson("classic").step("all-of-them").state().results[1].scores[0] == 200
    pulka = lesson("classic").step("pulka").state().pulka_results[0]
    assert (pulka.premium[0], pulka.moshla[1]) == (300, -200)
    assert facts.answer({"name": "cards_left_out"}, None)[0] == "6C 6S"
    columns = lesson("japanese").step("columns").state()
    assert facts.answer({"name": "opponent_sees", "seat": 0}, columns)[0] == "face_up"
    assert facts.answer({"name": "face_down_seen_by", "seat": 0}, columns)[0] == "nobody"
    match = lesson("japanese").step("match").state()
    assert match.is_over() and match.winners() == [0] and match.options.target == 11


@pytest.mark.parametrize("step", ALL_STEPS, ids=step_id)
@pytest.mark.parametrize("language", ["ka", "ru"])
def test_every_text_of_a_step_is_translated(step, language):
    for key in step.text_keys():
        with translation.override(None):
            english = str(TEXTS[key])
        with translation.override(language):
            translated = str(TEXTS[key])
        assert translated != english, f"{key} is not translated to {language}"
        placeholders = sorted(set(re.findall(r"%\((\w+)\)s", english)))
        assert sorted(set(re.findall(r"%\((\w+)\)s", translated))) == placeholders, key


def test_finish_trick_lets_the_bots_play_only_to_the_end_of_the_trick():
    step = lesson("classic").step("follow-suit")
    state = step.state()
    state.apply(action_from_record({"seat": 0, "play": "7H"}))
    finish_trick(state, 0)
    assert state.trick == [] and sum(state.taken) == 1


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_engines_refusals_read_in_georgian_and_russian(language):
    """The lesson explains an illegal move by the engine's own refusal, in the words of the games
    catalogue (the one home of those sentences)."""
    for code in MESSAGES:
        error = IllegalAction(code, "")
        with translation.override(None):
            english = message_for(error)
        with translation.override(language):
            assert message_for(error) != english, code
