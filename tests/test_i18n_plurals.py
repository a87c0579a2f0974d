"""Numbers with their nouns in Russian take the plural form the number wants ("21 очко",
"22 очка", "25 очков"; after "до", the genitive), through gettext's plural forms, on the
pages and forms that write a match's target."""

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import ngettext

from games.forms import japanese_target_choices

NOMINATIVE = {1: "1 очко", 2: "2 очка", 5: "5 очков", 21: "21 очко", 22: "22 очка"}
GENITIVE = {1: "до 1 очка", 2: "до 2 очков", 5: "до 5 очков", 21: "до 21 очка", 22: "до 22 очков"}


def legend_text(target):
    with translation.override("ru"):
        html = render_to_string("games/_sheet_legend.html", {"variant": "japanese", "target": target})
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("target", sorted(NOMINATIVE))
def test_the_japanese_sheet_legend_says_the_target_in_the_form_its_number_wants(target):
    assert f"наберёт {NOMINATIVE[target]}." in legend_text(target)


@pytest.mark.parametrize("target", sorted(GENITIVE))
def test_the_waiting_rooms_match_to_line_uses_the_genitive_its_number_wants(target):
    with translation.override("ru"):
        line = ngettext("Match to %(points)s point", "Match to %(points)s points", target) % {"points": target}
    assert line == f"Партия {GENITIVE[target]}"


def test_the_table_forms_target_choices_follow_the_label_match_to_in_russian():
    with translation.override("ru"):
        choices = dict(japanese_target_choices())
    assert choices == {11: "11 очков", 15: "15 очков", 21: "21 очка", 31: "31 очка"}


COINS_RU = {1: "1 монета", 2: "2 монеты", 5: "5 монет", 21: "21 монета", 22: "22 монеты"}


@pytest.mark.parametrize("amount", sorted(COINS_RU))
def test_a_coin_amount_is_written_in_russian_with_its_plural_form_never_as_dc(amount):
    from django.template import Context, Template

    with translation.override("ru"):
        html = Template("{% load coin_amounts %}{% coins amount %}").render(Context({"amount": amount}))
    assert f">{COINS_RU[amount]}</span>" in html and "DC" not in html


def test_a_coin_amount_is_written_in_georgian_with_the_sites_word_for_the_coin():
    from coins.templatetags.coin_amounts import coin_amount_text

    with translation.override("ka"):
        assert [coin_amount_text(n) for n in (1, 25)] == ["1 ქოინი", "25 ქოინი"]


SECONDS_RU = {1: "1 секунду", 2: "2 секунды", 5: "5 секунд", 21: "21 секунду", 22: "22 секунды"}


@pytest.mark.parametrize("seconds", sorted(SECONDS_RU))
@pytest.mark.parametrize("member", [True, False])
def test_quick_plays_offer_of_bots_says_its_wait_in_the_form_its_number_wants(seconds, member):
    from quickplay.views import section_context

    with translation.override("ru"):
        context = {**section_context(None), "quickplay_bot_offer": seconds, "quickplay_member": member}
        html = render_to_string("quickplay/_panel.html", context)
    assert f"Если за {SECONDS_RU[seconds]} никто не придёт, мы предложим вам игру с ботами" in html
    assert ("без рейтинга" in html) is member  # a guest never reads of rated play


MATCHES_RU = {1: "из 1 рейтингового матча", 2: "из 2 рейтинговых матчей", 5: "из 5 рейтинговых матчей",
              21: "из 21 рейтингового матча", 22: "из 22 рейтинговых матчей"}


@pytest.mark.parametrize("count", sorted(MATCHES_RU))
def test_the_walk_out_warning_counts_matches_in_the_form_their_number_wants(count):
    from conduct.services import Standing

    with translation.override("ru"):
        html = render_to_string("conduct/_standing.html", {"standing": Standing(None, count, 2), "window_days": 7})
    assert f"За последние 7 дней вы ушли {MATCHES_RU[count]}." in html
