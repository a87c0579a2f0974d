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
