"""The practice deal at the end of each path: a real deal against the bots, with hints."""

import random
import re

import pytest
from django.test import Client
from django.utils import translation

from accounts.i18n_audit import untranslated_in
from accounts.players import GUEST_SESSION_KEY
from games.bot_thinker import advice_for
from games.engine import IllegalAction, action_from_record
from games.engine.advice import ADVICE_LEVEL
from games.engine.bot import choose_action
from games.engine_messages import message_for
from lessons import practice
from lessons.models import LessonProgress, PracticeDeal
from lessons.steps import move_value

pytestmark = pytest.mark.django_db


def start(client, path, language="en"):
    response = client.post(f"/{language}/lesson/{path}/practice/", {"new": "1"})
    assert response.status_code == 302
    return PracticeDeal.objects.get(player_id=client.session[GUEST_SESSION_KEY], path=path)


@pytest.mark.parametrize("path", ["classic", "japanese"])
def test_a_new_practice_deal_is_dealt_and_played_by_the_bots_up_to_the_learner(path):
    for seed in range(6):
        state = practice.load(practice.new_record(path, random.Random(seed)))
        assert state.deal_index == 0
        assert state.to_act == practice.LEARNER
        assert state.variant == path
        assert len(state.record_deals()) == 1
    classic = practice.load(practice.new_record("classic", random.Random(1)))
    assert classic.options.game_type == "nines" and classic.cards_per_player == 9


def test_the_practice_page_offers_to_deal_without_creating_anybody():
    client = Client()
    response = client.get("/en/lesson/classic/practice/")
    assert response.status_code == 200
    assert 'name="new"' in response.content.decode()
    assert not PracticeDeal.objects.exists()


@pytest.mark.parametrize("path", ["classic", "japanese"])
def test_an_illegal_practice_move_is_explained_by_the_engine_and_changes_nothing(path):
    client = Client()
    deal = start(client, path)
    state = practice.load(deal.record)
    legal_cards = {a.card for a in state.legal_actions(0) if hasattr(a, "card")}
    refused = None
    for card in state.hand(0) + (state.face_up(0) if path == "japanese" else []):
        if card.startswith("X") or card in legal_cards:
            continue
        try:
            state.copy().apply(action_from_record({"seat": 0, "play": card}))
        except IllegalAction as error:
            refused = card, error
            break
    if refused is None:  # a bid or trump phase, or every card legal: make a move out of phase
        record = {"seat": 0, "play": state.hand(0)[0]} if state.phase.value != "play" else {"seat": 0, "bid": 1}
        try:
            state.copy().apply(action_from_record(record))
        except IllegalAction as error:
            refused = record.get("play"), error
        value = move_value(record)
    else:
        value = f"play {refused[0]}"
    assert refused is not None
    response = client.post(f"/en/lesson/{path}/practice/", {"move": value})
    assert response.status_code == 200
    assert message_for(refused[1]) in response.content.decode()
    deal.refresh_from_db()
    assert deal.record == practice.to_record(state, practice.PLAYERS[path])


@pytest.mark.parametrize("path", ["classic", "japanese"])
def test_the_hint_is_the_bots_legal_move_for_the_learner_with_a_reason(path):
    for seed in range(2):
        state = practice.load(practice.new_record(path, random.Random(seed)))
        while not practice.deal_over(state):
            hint = practice.hint(state)
            action = action_from_record(hint["action"])
            assert action in state.legal_actions(0)
            assert action == choose_action(state, 0, level=ADVICE_LEVEL)  # the tables' advice
            assert hint["reason"]
            state.apply(action)
            practice.play_bots(state)


@pytest.mark.parametrize("path", ["classic", "japanese"])
def test_a_whole_practice_deal_played_through_the_page_ends_with_the_engines_score(path):
    client = Client()
    deal = start(client, path)
    for _move in range(40):
        state = practice.load(deal.record)
        if practice.deal_over(state):
            break
        page = client.post(f"/en/lesson/{path}/practice/", {"hint": "1"}).content.decode()
        assert "My hint" in page
        hint = practice.hint(state)
        response = client.post(f"/en/lesson/{path}/practice/", {"move": move_value(hint["action"])})
        assert response.status_code == 200
        deal.refresh_from_db()
    state = practice.load(deal.record)
    assert practice.deal_over(state)
    html = client.get(f"/en/lesson/{path}/practice/").content.decode()
    assert "The deal is over" in html
    shown = re.findall(r'class="sheet-score[^"]*"[^>]*>([^<]*)</strong>', html)
    assert shown == [str(s) for s in state.results[0].scores]
    player_id = client.session[GUEST_SESSION_KEY]
    assert "practice" in LessonProgress.objects.get(player_id=player_id, path=path).completed


def test_dealing_again_replaces_the_practice_deal():
    client = Client()
    first = start(client, "japanese").record
    second = start(client, "japanese").record
    assert PracticeDeal.objects.count() == 1
    assert first["deals"][0]["hands"] != second["deals"][0]["hands"]


def test_a_malformed_practice_move_is_refused_with_400_and_changes_nothing():
    client = Client()
    deal = start(client, "classic")
    response = client.post("/en/lesson/classic/practice/", {"move": "dance"})
    assert response.status_code == 400
    assert "lesson-verdict--illegal" in response.content.decode()
    before = deal.record
    deal.refresh_from_db()
    assert deal.record == before


@pytest.mark.parametrize("language", ["ka", "ru"])
@pytest.mark.parametrize("path", ["classic", "japanese"])
def test_the_practice_pages_are_translated(language, path):
    client = Client()
    pages = [client.get(f"/{language}/lesson/{path}/practice/")]
    start(client, path, language)
    pages.append(client.get(f"/{language}/lesson/{path}/practice/"))
    pages.append(client.post(f"/{language}/lesson/{path}/practice/", {"hint": "1"}))
    for response in pages:
        assert response.status_code == 200
        assert untranslated_in(response.content.decode(), language) == []
    with translation.override(language):
        assert translation.gettext("Practice deal") in pages[-1].content.decode()


def test_asking_again_for_the_same_position_reuses_the_hint_worked_out(monkeypatch):
    worked_out = []

    def counted(view):
        worked_out.append(view["move_count"])
        return advice_for(view)

    monkeypatch.setattr(practice, "advice_for", counted)
    state = practice.load(practice.new_record("japanese", random.Random(3)))
    first = practice.hint(state)
    assert practice.hint(state) == first and practice.hint(practice.load(practice.to_record(state, practice.PLAYERS["japanese"]))) == first
    assert len(worked_out) == 1
    state.apply(action_from_record(first["action"]))
    practice.play_bots(state)
    if not practice.deal_over(state):
        practice.hint(state)
        assert len(worked_out) == 2  # a new position is worked out anew
