"""Lesson progress is kept per Player: for members, and for guests in their session."""

import pytest
from accounts_support import PASSWORD, client_for, guest_client, make_member
from django.test import Client

from accounts.models import Player
from accounts.players import GUEST_SESSION_KEY
from lessons.models import LessonProgress
from lessons.steps import lesson, move_value, question_facts

pytestmark = pytest.mark.django_db


def right_move(client, path, step_id, language="en"):
    step = lesson(path).step(step_id)
    if step.kind == "move":
        data = {"move": move_value(step.accept[0])}
    else:
        data = {f"q-{q.id}": value for q, value, _params in question_facts(step)}
    return client.post(f"/{language}/lesson/{path}/{step_id}/", data)


def test_a_visitors_first_move_makes_them_a_guest_whose_session_keeps_their_progress():
    client = Client()
    client.get("/en/lesson/classic/follow-suit/")
    assert not Player.objects.exists(), "looking at a step creates nobody"
    right_move(client, "classic", "follow-suit")
    guest = Player.objects.get(pk=client.session[GUEST_SESSION_KEY])
    assert guest.is_guest
    progress = LessonProgress.objects.get(player=guest, path="classic")
    assert progress.completed == ["follow-suit"]
    assert progress.last_step == "follow-suit"
    assert "1 of 15 done" in client.get("/en/lesson/").content.decode()
    assert "0 of 15 done" in Client().get("/en/lesson/").content.decode(), "another browser sees nothing of it"


def test_a_guest_who_played_as_a_guest_keeps_using_the_same_player():
    client, guest = guest_client("en")
    right_move(client, "japanese", "columns")
    right_move(client, "japanese", "first-card")
    assert Player.objects.filter(is_guest=True).count() == 1
    assert LessonProgress.objects.get(player=guest, path="japanese").completed == ["columns", "first-card"]


def test_a_members_progress_is_kept_in_the_order_of_first_success():
    member = make_member("tamar")
    client = client_for(member)
    right_move(client, "classic", "must-trump")
    right_move(client, "classic", "deck")
    right_move(client, "classic", "must-trump")  # again: nothing new
    progress = LessonProgress.objects.get(player__user=member, path="classic")
    assert progress.completed == ["must-trump", "deck"]
    assert progress.last_step == "must-trump"


def test_wrong_moves_and_wrong_answers_complete_nothing_but_remember_the_step():
    member = make_member("levan")
    client = client_for(member)
    client.post("/en/lesson/classic/follow-suit/", {"move": "play AS"})  # illegal
    client.post("/en/lesson/classic/joker-take/", {"move": "play X1 discard"})  # unwise
    step = lesson("classic").step("deck")
    wrong = {f"q-{q.id}": next(c["value"] for c in q.choices if c["value"] != value)
             for q, value, _params in question_facts(step)}
    client.post("/en/lesson/classic/deck/", wrong)
    progress = LessonProgress.objects.get(player__user=member, path="classic")
    assert progress.completed == []
    assert progress.last_step == "deck"


def test_a_learner_can_jump_to_any_step_and_the_index_offers_to_continue_there():
    member = make_member("nino")
    client = client_for(member)
    response = client.get("/en/lesson/japanese/match/")
    assert response.status_code == 200
    progress = LessonProgress.objects.get(player__user=member, path="japanese")
    assert progress.last_step == "match" and progress.completed == []
    index = client.get("/en/lesson/").content.decode()
    assert 'href="/en/lesson/japanese/match/">Continue</a>' in index
    right_move(client, "japanese", "match")
    assert LessonProgress.objects.get(pk=progress.pk).completed == ["match"]


def test_the_step_list_marks_the_steps_done():
    member = make_member("dato")
    client = client_for(member)
    right_move(client, "classic", "deck")
    page = client.get("/en/lesson/classic/").content.decode()
    assert '<li class="is-done"><a href="/en/lesson/classic/deck/">' in page
    assert '<li class=""><a href="/en/lesson/classic/follow-suit/">' in page


def test_signing_up_keeps_the_lesson_progress_of_the_guest():
    client = Client()
    right_move(client, "classic", "deck")
    guest_id = client.session[GUEST_SESSION_KEY]
    response = client.post("/en/accounts/signup/", {"username": "sandro", "password1": PASSWORD,
                                                     "password2": PASSWORD})
    assert response.status_code == 302
    member = Player.objects.get(user__username="sandro")
    assert member.pk == guest_id
    assert LessonProgress.objects.get(player=member, path="classic").completed == ["deck"]


def test_progress_is_kept_per_path():
    member = make_member("eka")
    client = client_for(member)
    right_move(client, "classic", "deck")
    right_move(client, "japanese", "columns")
    by_path = {p.path: p.completed for p in LessonProgress.objects.filter(player__user=member)}
    assert by_path == {"classic": ["deck"], "japanese": ["columns"]}


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_progress_does_not_depend_on_the_language(language):
    client = Client()
    right_move(client, "classic", "follow-suit", language)
    right_move(client, "classic", "must-trump", "en")
    guest = Player.objects.get(pk=client.session[GUEST_SESSION_KEY])
    assert LessonProgress.objects.get(player=guest).completed == ["follow-suit", "must-trump"]
