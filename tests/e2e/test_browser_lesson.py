"""The interactive lesson in a real browser: a newcomer follows "New here? Play the lesson",
plays the first three steps of each path (a quiz, a wrong move and the host's explanation,
then the right moves), on a desktop and on a phone, in the three languages; and every step
of both paths fits a 360-px phone and one zoomed to 150 %."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from e2e.layout import PHONE, PHONE_ZOOMED_150, assert_nothing_cut_off, text_past_its_box, words_broken_in
from games.engine import IllegalAction
from games.engine_messages import message_for
from lessons.models import LessonProgress
from lessons.steps import PATHS, lesson, move_value, question_facts

DESKTOP = {"viewport": {"width": 1200, "height": 900}}


def engine_sentence(code, language):
    with translation.override(language):
        return str(message_for(IllegalAction(code, "")))


def answer_quiz(page, answers):
    for question, value in answers.items():
        page.locator(f'input[name="q-{question}"][value="{value}"]').check()
    page.locator(".lesson-quiz button[type=submit]").click()
    expect(page.locator(".lesson-quiz #lesson-verdict")).to_be_visible()
    expect(page.locator(".quiz-question.is-wrong")).to_have_count(0)


def play(page, value):
    page.locator(f'button[name="move"][value="{value}"]').click()


def expect_right_and_go_on(page, next_path):
    expect(page.locator(".lesson-verdict--right")).to_be_visible()
    page.locator("#lesson-next").click()
    expect(page).to_have_url(re.compile(re.escape(next_path) + "$"))


@pytest.mark.parametrize("language,screen", [("en", DESKTOP), ("ka", PHONE)], ids=["en-desktop", "ka-phone"])
def test_classic_first_three_steps_with_a_wrong_move_and_its_explanation(new_person, snap, language, screen):
    page = new_person("newcomer", **screen)
    page.goto(f"/{language}/lobby/")
    page.locator(f'.lesson-invite a[href="/{language}/lesson/"]').click()
    expect(page.locator("h1")).to_be_visible()
    page.locator(f'a[href="/{language}/lesson/classic/deck/"]').first.click()

    # Step 1: the deck (a quiz; the engine's deck decides the answers).
    expect(page.locator(".lesson-deck .card")).to_have_count(36)
    snap(page, "deck")
    assert_nothing_cut_off(page)
    answer_quiz(page, {"q1": "6C 6S", "q2": "36"})
    snap(page, "deck-answered")
    expect_right_and_go_on(page, f"/{language}/lesson/classic/follow-suit/")

    # Step 2: follow suit. First a spade on the queen of hearts: the engine refuses it.
    play(page, "play AS")
    verdict = page.locator(".lesson-verdict--illegal")
    expect(verdict).to_be_visible()
    expect(verdict.locator(".engine-reason")).to_have_text(engine_sentence("must_follow_suit", language))
    snap(page, "wrong-move-explained")
    assert_nothing_cut_off(page)
    play(page, "play 7H")
    expect(page.locator(".trick-result")).to_be_visible()
    snap(page, "followed-suit")
    expect_right_and_go_on(page, f"/{language}/lesson/classic/must-trump/")

    # Step 3: no clubs, so a trump.
    play(page, "play 7D")
    expect(page.locator(".lesson-verdict--right")).to_be_visible()
    snap(page, "trumped")
    assert_nothing_cut_off(page)

    progress = LessonProgress.objects.get(path="classic")
    assert progress.completed == ["deck", "follow-suit", "must-trump"]


@pytest.mark.parametrize("language,screen", [("en", DESKTOP), ("ru", PHONE)], ids=["en-desktop", "ru-phone"])
def test_japanese_first_three_steps_with_a_wrong_move_and_its_explanation(new_person, snap, language, screen):
    page = new_person("newcomer", locale="ru-RU" if language == "ru" else "ka-GE", **screen)
    page.goto(f"/{language}/rules/")
    page.locator(f'.lesson-invite a[href="/{language}/lesson/"]').click()
    page.locator(f'a[href="/{language}/lesson/japanese/columns/"]').first.click()

    # Step 1: who sees which cards (the engine's views decide).
    expect(page.locator(".columns-area .face-down")).to_have_count(10)
    snap(page, "columns")
    assert_nothing_cut_off(page)
    answer_quiz(page, {"q1": "face_up", "q2": "nobody"})
    expect_right_and_go_on(page, f"/{language}/lesson/japanese/first-card/")

    # Step 2: the first card must come from the hand; the ace on the table is refused.
    play(page, "play AS")
    verdict = page.locator(".lesson-verdict--illegal")
    expect(verdict.locator(".engine-reason")).to_have_text(engine_sentence("first_card_from_hand", language))
    snap(page, "column-card-refused")
    assert_nothing_cut_off(page)
    play(page, "play KH")
    expect_right_and_go_on(page, f"/{language}/lesson/japanese/face-down/")

    # Step 3: the ace from the column; the card under it comes to the hand.
    expect(page.locator('button[name="move"][value="play AS"]')).to_be_visible()  # the step's table is drawn
    hand_before = page.locator(".hand .card-button").count()
    play(page, "play AS")
    expect(page.locator(".lesson-verdict--right .new-card")).to_have_count(1)
    expect(page.locator(".hand .card-button.is-new")).to_have_count(1)
    expect(page.locator(".hand .card-button")).to_have_count(hand_before + 1)  # the ace left the table, not the hand
    snap(page, "face-down-card-in-hand")
    assert_nothing_cut_off(page)

    progress = LessonProgress.objects.get(path="japanese")
    assert progress.completed == ["columns", "first-card", "face-down"]


def test_a_joker_menu_on_a_phone_names_a_suit_and_the_lesson_goes_on(new_person, snap):
    page = new_person("newcomer", **PHONE)
    page.goto("/ka/lesson/classic/joker-lead-high/")
    page.locator("details.joker-choice > summary").click()
    expect(page.locator('button[name="move"][value="play X1 take C"]')).to_be_visible()
    assert_nothing_cut_off(page)
    snap(page, "joker-menu-open")
    play(page, "play X1 take C")
    expect(page.locator(".lesson-verdict--right")).to_be_visible()
    expect(page.locator(".trick-result")).to_be_visible()
    snap(page, "joker-took-the-clubs")


def answer_rightly(page, step):
    """Give the step's right answer through the page, as a learner would."""
    if step.kind == "quiz":
        answer_quiz(page, {q.id: value for q, value, _params in question_facts(step)})
        return
    value = move_value(step.accept[0])
    menu = page.locator(f'details.joker-choice:has(button[name="move"][value="{value}"])')
    if menu.count():
        menu.locator("summary").click()
    play(page, value)
    expect(page.locator(".lesson-verdict--right")).to_be_visible()


# At 150 % (240 px) a pulka's score sheet is wider than the screen and scrolls in its own box.
SCROLLS_BY_ITSELF = {"phone": [], "zoomed-150": [".score-scroll", ".site-nav ul"]}


@pytest.mark.parametrize("screen", ["phone", "zoomed-150"])
def test_every_step_of_both_paths_fits_a_phone_before_and_after_its_answer(new_person, snap, screen):
    """Georgian, whose words run longest, on a 360-px phone and on one zoomed to 150 % (240 px):
    each step as it opens, each step answered (the verdict, the finished trick, the revealed score
    sheet), and the practice deal. At 240 px a joker's call beside its card pushed the page 23 px
    wider, a seat's "წაყვანილები: 1" ran into the next seat, and beside the host's portrait the
    host's words stood two to a line, a word broken in two."""
    page = new_person("learner", **{"phone": PHONE, "zoomed-150": PHONE_ZOOMED_150}[screen])
    allow = SCROLLS_BY_ITSELF[screen]

    def expect_it_fits():
        assert_nothing_cut_off(page, allow=allow)
        assert text_past_its_box(page, ".lesson-table .player") == []
        assert words_broken_in(page, ".host-bubble p") == []

    for path in PATHS:
        for step in lesson(path).steps:
            page.goto(f"/ka/lesson/{path}/{step.id}/")
            expect(page.locator(f'#lesson-step[data-step="{step.id}"]')).to_be_visible()
            expect_it_fits()
            answer_rightly(page, step)
            expect_it_fits()
            snap(page, f"{path}-{step.id}-{screen}")
        page.goto(f"/ka/lesson/{path}/practice/")
        expect_it_fits()
        page.locator('button[name="new"]').click()
        expect(page.locator(".lesson-practice .lesson-table")).to_be_visible()
        expect_it_fits()
        snap(page, f"{path}-practice-{screen}")
