"""The lesson pages: every step renders in Georgian, Russian and English with no English
left on the ka/ru pages, before and after a move; moves are judged through plain POST
forms (and htmx); bad input is refused; the lobby and the rules index link to the lesson."""

import re

import pytest
from django.test import Client
from django.utils import translation

from accounts.i18n_audit import untranslated_in
from games.engine import IllegalAction, action_from_record
from games.engine_messages import message_for
from lessons.models import LessonProgress
from lessons.steps import PATHS, lesson, move_value, question_facts

pytestmark = pytest.mark.django_db

LANGUAGES = ["ka", "ru", "en"]
ALL_STEPS = [step for path in PATHS for step in lesson(path).steps]


def step_url(step, language):
    return f"/{language}/lesson/{step.path}/{step.id}/"


def page_text(response):
    return response.content.decode()


def assert_translated(response, language, label):
    assert response.status_code in (200, 400), f"{label}: {response.status_code}"
    if language != "en":
        found = untranslated_in(page_text(response), language)
        assert not found, f"{label}: English left on a {language} page: {found}"


def wrong_answers(step):
    return {f"q-{q.id}": next(c["value"] for c in q.choices if c["value"] != value)
            for q, value, _params in question_facts(step)}


def right_answers(step):
    return {f"q-{q.id}": value for q, value, _params in question_facts(step)}


def a_refused_move(step):
    """A move of the learner's hand the engine refuses here, with the engine's error; or None."""
    state = step.state()
    cards = list(state.view(step.seat)["hand"])
    if step.path == "japanese":
        cards += state.face_up(step.seat)
    for card in cards:
        if card.startswith("X"):
            continue
        record = {"seat": step.seat, "play": card}
        try:
            state.copy().apply(action_from_record(record))
        except IllegalAction as error:
            return record, error
    return None


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lesson_index_and_path_pages_render_translated(language):
    client = Client()
    for url in [f"/{language}/lesson/", f"/{language}/lesson/classic/", f"/{language}/lesson/japanese/"]:
        response = client.get(url)
        assert response.status_code == 200
        assert_translated(response, language, url)
    index = page_text(client.get(f"/{language}/lesson/"))
    for path in PATHS:
        assert f"/{language}/lesson/{path}/{lesson(path).steps[0].id}/" in index


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("step", ALL_STEPS, ids=lambda s: f"{s.path}-{s.id}")
def test_every_step_renders_in_every_language_before_and_after_answers(step, language):
    client = Client()
    response = client.get(step_url(step, language))
    assert response.status_code == 200
    assert_translated(response, language, f"GET {step.id}")
    html = page_text(response)
    assert 'name="csrfmiddlewaretoken"' in html
    if step.kind == "move":
        for record in step.accept[:1]:
            response = client.post(step_url(step, language), {"move": move_value(record)})
            assert response.status_code == 200
            assert_translated(response, language, f"right move {step.id}")
            assert 'id="lesson-next"' in page_text(response)
        for record, _reply in step.unwise[:1]:
            response = client.post(step_url(step, language), {"move": move_value(record)})
            assert_translated(response, language, f"unwise move {step.id}")
            assert "lesson-verdict--unwise" in page_text(response)
        refused = a_refused_move(step)
        if refused:
            record, error = refused
            response = client.post(step_url(step, language), {"move": move_value(record)})
            assert response.status_code == 200
            assert_translated(response, language, f"illegal move {step.id}")
            with translation.override(language):
                assert message_for(error) in page_text(response)
    else:
        response = client.post(step_url(step, language), wrong_answers(step))
        assert_translated(response, language, f"wrong answers {step.id}")
        assert "is-wrong" in page_text(response)
        response = client.post(step_url(step, language), right_answers(step))
        assert_translated(response, language, f"right answers {step.id}")
        assert 'id="lesson-next"' in page_text(response)
        assert "is-wrong" not in page_text(response)


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_illegal_move_explanation_is_the_engines_sentence_in_the_readers_language(language):
    step = lesson("classic").step("follow-suit")
    response = Client().post(step_url(step, language), {"move": "play AS"})
    with translation.override(language):
        expected = str(message_for(IllegalAction("must_follow_suit", "")))
    with translation.override("en"):
        english = str(message_for(IllegalAction("must_follow_suit", "")))
    assert expected != english
    assert expected in page_text(response)
    assert 'class="engine-reason"' in page_text(response)


def test_a_move_by_htmx_swaps_only_the_lesson_board():
    step = lesson("classic").step("must-trump")
    response = Client().post(step_url(step, "en"), {"move": "play 9D"}, HTTP_HX_REQUEST="true")
    html = page_text(response)
    assert html.lstrip().startswith('<div id="lesson-step"')
    assert "<html" not in html
    assert "lesson-verdict--right" in html


def test_after_a_right_move_the_table_shows_the_finished_trick_and_who_took_it():
    step = lesson("classic").step("joker-take")
    html = page_text(Client().post(step_url(step, "en"), {"move": "play X1 take"}))
    assert "You took the trick." in html
    assert 'name="move"' not in html  # the position is over: no more buttons


def test_a_wrong_answer_leaves_the_position_as_it_was():
    step = lesson("classic").step("follow-suit")
    html = page_text(Client().post(step_url(step, "en"), {"move": "play AS"}))
    assert 'value="play AS"' in html and 'value="play KH"' in html


@pytest.mark.parametrize("bad", ["", "dance", "play ZZ", "bid many", "trump Q", "play X1 sideways", "play KH take"])
def test_malformed_moves_get_a_clear_error_and_change_nothing(bad):
    client = Client()
    step = lesson("classic").step("follow-suit")
    response = client.post(step_url(step, "en"), {"move": bad})
    assert response.status_code in (200, 400)
    assert "lesson-verdict--illegal" in page_text(response)
    assert not LessonProgress.objects.filter(completed__contains=["follow-suit"]).exists()


def test_unknown_paths_and_steps_are_404():
    client = Client()
    assert client.get("/en/lesson/poker/").status_code == 404
    assert client.get("/en/lesson/classic/no-such-step/").status_code == 404
    assert client.get("/en/lesson/poker/practice/").status_code == 404


def test_every_step_page_lists_every_step_to_jump_to():
    html = page_text(Client().get("/en/lesson/classic/pulka/"))
    for step in lesson("classic").steps:
        assert f'href="/en/lesson/classic/{step.id}/"' in html
    assert 'href="/en/lesson/classic/practice/"' in html
    assert re.search(r'aria-current="step"[^>]*title="Premium and moshla"', html)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_and_the_rules_index_invite_newcomers_to_the_lesson(language):
    client = Client()
    for url in [f"/{language}/lobby/", f"/{language}/rules/"]:
        response = client.get(url)
        assert response.status_code == 200
        assert f'href="/{language}/lesson/"' in page_text(response), url
        with translation.override(language):
            assert translation.gettext("New here? Play the lesson") in page_text(response)
        # The invitation itself (the rest of those pages belongs to their apps).
        invite = re.search(r'<p class="note lesson-invite">.*?</p>', page_text(response), re.DOTALL).group(0)
        if language != "en":
            assert untranslated_in(invite, language) == [], url


def test_a_quiz_sheet_hides_what_it_asks_until_it_is_answered():
    step = lesson("classic").step("scoring")
    client = Client()
    def sheet_scores(html):
        return re.findall(r'class="sheet-score[^"]*"[^>]*>([^<]*)</strong>', html)

    before = sheet_scores(page_text(client.get(step_url(step, "en"))))
    assert before == ["?"] * 4
    after = sheet_scores(page_text(client.post(step_url(step, "en"), right_answers(step))))
    assert after == ["200", "50", "-200", "60"]


def test_a_quiz_with_no_answer_asks_for_every_answer():
    step = lesson("classic").step("deck")
    html = page_text(Client().post(step_url(step, "en"), {}))
    assert "Choose an answer to every question." in html
