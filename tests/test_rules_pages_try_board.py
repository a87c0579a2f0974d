"""The try-it boards: the reader picks a card of a scripted trick; the endpoint says
whether it is allowed and, when it is, plays the trick out and names the winner."""

import re

import pytest
from django.test import Client

from rules_pages import content

CLASSIC = "/{lang}/rules/classic/examples/try-joker-high/"
JAPANESE = "/{lang}/rules/japanese/examples/try-jp-trump-the-joker/"


@pytest.fixture(scope="module")
def client():
    return Client()


def ask(client, url, choice=None, status=200):
    response = client.get(url, {"choice": choice} if choice is not None else {})
    assert response.status_code == status, response.content
    return response.json()


def test_board_tells_the_allowed_cards_and_why(client):
    answer = ask(client, CLASSIC.format(lang="en"))
    assert answer["legal"] == ["X2", "QH"] or sorted(answer["legal"]) == ["QH", "X2"]
    assert "highest" in answer["why"]


def test_an_illegal_card_is_refused_and_nothing_is_played(client):
    answer = ask(client, CLASSIC.format(lang="ka"), "9H")
    assert answer["allowed"] is False
    assert answer["message"] == "ამ კარტის ჩამოსვლა აქ არ შეიძლება."
    assert "winner" not in answer and "trick_html" not in answer


def test_a_legal_card_plays_the_trick_out_and_names_the_winner(client):
    answer = ask(client, CLASSIC.format(lang="en"), "QH")
    assert answer["allowed"] is True
    assert (answer["winner"], answer["winner_name"]) == (3, "Sandro")
    assert answer["message"] == "Allowed. The trick goes to Sandro."
    assert re.findall(r'data-card="(\w\w)"', answer["trick_html"]) == ["X1", "QH", "AH", "7C"]


@pytest.mark.parametrize("choice,winner,message", [
    ("X2:take", 0, "Можно. Взятку берёте вы."),
    ("X2:discard", 3, "Можно. Взятку берёт Сандро."),
])
def test_a_classic_joker_is_played_to_take_or_to_discard(client, choice, winner, message):
    answer = ask(client, CLASSIC.format(lang="ru"), choice)
    assert (answer["allowed"], answer["winner"], answer["message"]) == (True, winner, message)


@pytest.mark.parametrize("choice,detail", [
    ("X2", "take' or ':discard"),
    ("QH:take", "only a joker"),
    ("ZZ", "unknown card code"),
    ("6S", "not in the Joker deck"),
    ("AS", "not one of your cards"),
    ("", "unknown card code"),
])
def test_a_bad_choice_gets_a_clear_error(client, choice, detail):
    answer = ask(client, CLASSIC.format(lang="en"), choice, status=400)
    assert answer["error"] == "Pick one of your cards on this board."
    assert detail in answer["detail"]


def test_the_japanese_board_counts_face_up_cards_and_lets_the_trump_beat_the_joker(client):
    assert sorted(ask(client, JAPANESE.format(lang="en"))["legal"]) == ["8S", "QS"]
    answer = ask(client, JAPANESE.format(lang="en"), "QS")
    assert (answer["allowed"], answer["winner"]) == (True, 0)
    assert ask(client, JAPANESE.format(lang="en"), "AH")["allowed"] is False


def test_only_try_boards_answer(client):
    assert client.get("/en/rules/classic/examples/score-made-two/").status_code == 404
    assert client.get("/en/rules/classic/examples/no-such-board/").status_code == 404
    assert client.get("/en/rules/poker/examples/try-joker-high/").status_code == 404


@pytest.mark.parametrize("lang", content.LANGUAGES)
def test_rules_pages_draw_the_board_with_its_script_and_a_no_script_answer(client, lang):
    html = client.get(f"/{lang}/rules/classic/").content.decode()
    assert f'data-endpoint="/{lang}/rules/classic/examples/try-joker-high/"' in html
    assert len(re.findall(r'<button type="button" class="card-btn" data-card="', html)) == 6
    assert "js/rules-try.js" in html and "<noscript>" in html
    assert "js/rules-try.js" not in client.get(f"/{lang}/rules/glossary/").content.decode()
