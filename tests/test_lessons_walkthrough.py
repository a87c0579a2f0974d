"""The acceptance of the lesson: both paths can be played through to the end of the
practice deal in Georgian, Russian and English, by a guest and by a member.

The learner behaves like a browser without JavaScript: they come from the lobby's
invitation, press the path's Start button, and at every step send the very form the
page shows (its action, its CSRF token, one of its buttons or radio buttons), giving
the right answer; they follow the page's "Next step" link; at the practice deal they
deal the cards, ask for a hint before every move and play the hinted move, until the
engine scores the deal. Every page on the way must be in the learner's language, and
at the end the progress marks every step and the practice deal done.
"""

import re
from html import unescape

import pytest
from accounts_support import client_for, fast_password_hashing, guest_client, make_member  # noqa: F401
from django.utils import translation

from accounts.i18n_audit import untranslated_in, visible_text
from accounts.models import Player
from accounts.players import GUEST_SESSION_KEY
from lessons import practice
from lessons.models import LessonProgress, PracticeDeal
from lessons.steps import PATHS, PRACTICE, lesson, move_value, question_facts

pytestmark = pytest.mark.django_db

LANGUAGES = ["ka", "ru", "en"]
LEARNERS = ["guest", "member"]
# Every path in every language, and every pair of path and learner and of language and learner:
# six walks of the twelve combinations (each walk answers every step and plays a whole deal with
# hints, a few seconds of CPU, and every page it draws is checked for its language).
WALKS = [
    (path, language, LEARNERS[(i + j) % 2])
    for i, path in enumerate(PATHS)
    for j, language in enumerate(LANGUAGES)
]
# A practice deal needs at most 18 of the learner's moves (Japanese) plus the trump or bid.
MOST_PRACTICE_MOVES = 25
# Letters of the other two languages' scripts, which a page must not show
# (names in their own language, such as the language switcher's, are marked translate="no").
FOREIGN_LETTERS = {
    "ka": re.compile("[\u0400-\u04ff]"),
    "ru": re.compile("[\u10a0-\u10ff\u1c90-\u1cbf]"),
    "en": re.compile("[\u0400-\u04ff\u10a0-\u10ff\u1c90-\u1cbf]"),
}


def html_of(response):
    return response.content.decode()


def assert_in_language(response, language, label):
    """The page is served in `language`, shows no letters of the other languages' scripts and,
    for ka and ru, no English msgid."""
    assert response.status_code == 200, f"{label}: {response.status_code}"
    html = html_of(response)
    if "<html" in html:
        assert f'<html lang="{language}" ' in html, f"{label}: not a {language} page"
    foreign = FOREIGN_LETTERS[language].findall(visible_text(html))
    assert not foreign, f"{label}: letters of another language on a {language} page: {''.join(foreign)[:40]}"
    if language != "en":
        found = untranslated_in(html, language)
        assert not found, f"{label}: English left on a {language} page: {found}"


def href_of(html, pattern):
    match = re.search(pattern, html, re.DOTALL)
    assert match, f"no link matching {pattern}"
    return unescape(match.group(1))


def post_form(html, containing):
    """The action and CSRF token of the page's POST form that holds `containing`."""
    for form in re.findall(r'<form method="post"[^>]*>.*?</form>', html, re.DOTALL):
        if containing in form:
            action = unescape(re.search(r'action="([^"]+)"', form).group(1))
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
            return action, token
    raise AssertionError(f"no form on the page offers {containing}")


def learner_client(who, language):
    if who == "guest":
        client, _guest = guest_client(language)
    else:
        client = client_for(make_member(f"learner_{language}"))
    client.handler.enforce_csrf_checks = True  # the posts must carry the page's own token
    return client


def learner_player(client, who, language):
    if who == "guest":
        return Player.objects.get(pk=client.session[GUEST_SESSION_KEY])
    return Player.objects.get(user__username=f"learner_{language}")


def open_first_step_from_the_lobby(client, path, language):
    lobby = client.get(f"/{language}/lobby/")
    assert lobby.status_code == 200
    index_url = href_of(html_of(lobby), r'<p class="note lesson-invite"><a href="([^"]+)"')
    index = client.get(index_url)
    assert_in_language(index, language, "lesson index")
    card = re.search(rf'<section class="lesson-path-card" aria-labelledby="path-{path}">.*?</section>',
                     html_of(index), re.DOTALL).group(0)
    return href_of(card, r'<a class="button primary" href="([^"]+)"')


def answer_step_rightly(client, step, page, language):
    """Send the step's form with the right answer; returns the answer page."""
    if step.kind == "move":
        value = move_value(step.accept[0])
        button = f'name="move" value="{value}"'
        assert button in page, f"{step.id}: the table offers no button for {value}"
        action, token = post_form(page, button)
        data = {"move": value}
    else:
        data = {}
        for question, right_value, _params in question_facts(step):
            radio = f'name="q-{question.id}" value="{right_value}"'
            assert radio in page, f"{step.id}: no choice {right_value} for {question.id}"
            data[f"q-{question.id}"] = right_value
        action, token = post_form(page, f'name="q-{step.questions[0].id}"')
    assert action == f"/{language}/lesson/{step.path}/{step.id}/"
    return client.post(action, {"csrfmiddlewaretoken": token, **data})


def walk_every_step(client, path, language, first_url):
    """Every step in order, answered rightly; returns the practice page's address."""
    url = first_url
    for step in lesson(path).steps:
        assert url == f"/{language}/lesson/{path}/{step.id}/"
        page = client.get(url)
        assert_in_language(page, language, f"step {step.id}")
        answered = answer_step_rightly(client, step, html_of(page), language)
        assert_in_language(answered, language, f"step {step.id} answered")
        html = html_of(answered)
        assert "lesson-verdict--right" in html, f"{step.id}: the right answer was not called right"
        assert "is-wrong" not in html
        url = href_of(html, r'<a class="button primary" href="([^"]+)" id="lesson-next">')
    return url


def play_the_practice_deal(client, path, language, practice_url, player):
    page = client.get(practice_url)
    assert_in_language(page, language, "practice, before dealing")
    action, token = post_form(html_of(page), 'name="new"')
    dealt = client.post(action, {"csrfmiddlewaretoken": token, "new": "1"})
    assert dealt.status_code == 302
    page = client.get(dealt["Location"])
    assert_in_language(page, language, "practice, dealt")
    with translation.override(language):
        my_hint = translation.gettext("My hint")
    for _move in range(MOST_PRACTICE_MOVES):
        state = practice.load(PracticeDeal.objects.get(player=player, path=path).record)
        if practice.deal_over(state):
            break
        action, token = post_form(html_of(page), 'name="hint"')
        hinted = client.post(action, {"csrfmiddlewaretoken": token, "hint": "1"})
        assert_in_language(hinted, language, "practice hint")
        assert my_hint in html_of(hinted)
        value = move_value(practice.hint(state)["action"])
        button = f'name="move" value="{value}"'
        assert button in html_of(hinted), f"the hinted move {value} has no button"
        action, token = post_form(html_of(hinted), button)
        page = client.post(action, {"csrfmiddlewaretoken": token, "move": value})
        assert_in_language(page, language, f"practice move {value}")
        assert "lesson-verdict--illegal" not in html_of(page)
    state = practice.load(PracticeDeal.objects.get(player=player, path=path).record)
    assert practice.deal_over(state), "the practice deal did not end"
    return state, client.get(practice_url)


def _pairs(a: int, b: int) -> set:
    return {(walk[a], walk[b]) for walk in WALKS}


def test_the_walks_cover_every_pair_of_path_language_and_learner():
    assert _pairs(0, 1) == {(p, lang) for p in PATHS for lang in LANGUAGES}
    assert _pairs(0, 2) == {(p, who) for p in PATHS for who in LEARNERS}
    assert _pairs(1, 2) == {(lang, who) for lang in LANGUAGES for who in LEARNERS}


@pytest.mark.parametrize(("path", "language", "who"), WALKS)
def test_a_learner_plays_the_whole_path_and_the_practice_deal_in_their_language(path, language, who):
    client = learner_client(who, language)
    first_url = open_first_step_from_the_lobby(client, path, language)
    practice_url = walk_every_step(client, path, language, first_url)
    assert practice_url == f"/{language}/lesson/{path}/practice/"

    player = learner_player(client, who, language)
    state, finished = play_the_practice_deal(client, path, language, practice_url, player)
    assert_in_language(finished, language, "practice, finished")
    shown = re.findall(r'class="sheet-score[^"]*"[^>]*>([^<]*)</strong>', html_of(finished))
    assert shown == [str(score) for score in state.results[0].scores], "the sheet is not the engine's score"

    step_ids = lesson(path).step_ids
    assert LessonProgress.objects.get(player=player, path=path).completed == step_ids + [PRACTICE]
    path_page = client.get(f"/{language}/lesson/{path}/")
    assert_in_language(path_page, language, "path page at the end")
    assert html_of(path_page).count('<li class="is-done">') == len(step_ids) + 1
    with translation.override(language):
        all_done = translation.gettext("%(done)s of %(total)s done") % {
            "done": len(step_ids) + 1, "total": len(step_ids) + 1}
    assert all_done in html_of(client.get(f"/{language}/lesson/"))
