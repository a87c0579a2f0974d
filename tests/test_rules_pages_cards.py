"""Card faces: one tag draws every card of the Joker deck the same way everywhere,
named in the reader's language, and every card written in the rules pages is drawn."""

import re
from collections import Counter

import pytest
from django.template import Context, Template
from django.utils import translation

from games import card_faces
from games.card_faces import ALL_CARDS, CardCodeError
from rules_pages import content


def render(source, lang="en", **context):
    with translation.override(lang):
        return Template("{% load cards %}" + source).render(Context(context))


def test_deck_has_36_cards_with_two_jokers_instead_of_the_black_sixes():
    assert len(ALL_CARDS) == 36
    assert "6S" not in ALL_CARDS and "6C" not in ALL_CARDS
    assert {"6D", "6H", "X1", "X2"} <= set(ALL_CARDS)


def test_card_tag_draws_an_accessible_inline_svg_face():
    html = render('{% card "AS" %}')
    assert html.startswith("<svg") and html.endswith("</svg>")
    assert 'data-card="AS"' in html
    assert 'role="img"' in html and 'aria-label="ace of spades"' in html
    assert "card--md" in html and "card--black" in html
    # Nothing is fetched from anywhere: no images, no links, no CSS urls.
    assert "<img" not in html and "href" not in html and "url(" not in html


@pytest.mark.parametrize("code,lang,name", [
    ("AS", "ka", "ყვავის ტუზი"),
    ("AS", "ru", "туз пик"),
    ("TH", "en", "ten of hearts"),
    ("TH", "ka", "გულის ათიანი"),
    ("TH", "ru", "десятка червей"),
    ("QD", "ka", "აგურის ქალი"),
    ("QD", "ru", "дама бубен"),
    ("7C", "ka", "ჯვრის შვიდიანი"),
    ("7C", "ru", "семёрка треф"),
    ("X1", "ka", "ჯოკერი"),
    ("X2", "ru", "джокер"),
])
def test_card_is_named_in_the_readers_language(code, lang, name):
    assert f'aria-label="{name}"' in render("{% card code %}", lang, code=code)
    assert render("{{ code|card_name }}", lang, code=code) == name


@pytest.mark.parametrize("code", ALL_CARDS)
def test_every_card_of_the_deck_has_its_face(code):
    html = card_faces.render_card(code, "sm")
    if code in ("X1", "X2"):
        assert "card__cap" in html, "jokers wear the jester's cap"
        assert "card__rank" not in html
    else:
        label = "10" if code[0] == "T" else code[0]
        assert f">{label}</text>" in html
        assert ("card--red" if code[1] in "DH" else "card--black") in html


def test_the_two_jokers_are_drawn_apart():
    assert "card--joker-red" in card_faces.render_card("X1")
    assert "card--joker-black" in card_faces.render_card("X2")


@pytest.mark.parametrize("code", ["6S", "6C", "ZZ", "AS ", "as", "1H", "X3", "", None])
def test_a_code_outside_the_deck_is_refused_with_a_clear_error(code):
    with pytest.raises(CardCodeError) as error:
        card_faces.render_card(code)
    assert "Joker deck" in str(error.value) or "unknown card code" in str(error.value)


def test_a_wrong_size_is_refused():
    with pytest.raises(ValueError, match="unknown card size"):
        card_faces.render_card("AS", "huge")


def test_face_down_card_shows_no_card():
    html = render('{% card_back size="sm" %}', "ru")
    assert 'data-card="back"' in html and 'aria-label="закрытая карта"' in html
    assert not any(f'"{code}"' in html for code in ALL_CARDS)


def test_cards_tag_draws_a_row_from_a_list_or_a_string():
    from_string = render('{% cards "AS KH --" size="sm" %}')
    from_list = render('{% cards hand size="sm" %}', hand=["AS", "KH", "--"])
    assert from_string == from_list
    assert from_string.count("<svg") == 3 and 'data-card="back"' in from_string
    assert 'class="card-row card-row--sm"' in from_string


def test_columns_tag_puts_a_face_down_card_under_each_face_up_card():
    html = render('{% card_columns "AC 9H" %}')
    assert html.count('class="card-column"') == 2
    assert html.count('data-card="back"') == 2
    assert 'data-card="AC"' in html and 'data-card="9H"' in html


def test_suit_tag_names_trump_and_no_trump():
    assert 'aria-label="გული"' in render('{% suit "H" %}', "ka")
    assert 'aria-label="без козыря"' in render('{% suit "none" %}', "ru")
    with pytest.raises(CardCodeError):
        card_faces.render_suit("Z")


def test_hands_are_shown_jokers_first_then_suits_high_to_low():
    assert card_faces.display_order(["7H", "X2", "AS", "KH", "9S"]) == ["X2", "AS", "9S", "KH", "7H"]


MARK = re.compile(r"\[\[([^\[\]]+)\]\]")


@pytest.mark.parametrize("lang,slug", [(lang, slug) for lang in content.LANGUAGES for slug in content.PAGE_SLUGS])
def test_every_card_written_in_the_content_is_drawn_as_its_face(lang, slug):
    source = content.content_path(lang, slug).read_text(encoding="utf-8")
    written = Counter()
    for mark in MARK.findall(source):
        codes = mark.split()
        codes = codes[1:] if codes[0] == "columns" else codes
        written.update(code for code in codes if code in ALL_CARDS)
    html = content.load_page(lang, slug).html
    drawn = Counter(re.findall(r'data-card="([0-9TJQKAX][0-9SCDH])"', html))
    for code, count in written.items():
        assert drawn[code] >= count, code
    assert "[[" not in html and "]]" not in html


def test_a_card_mark_with_a_wrong_code_stops_the_page_with_its_location():
    with pytest.raises(content.ContentError, match=r"en/test\.md: 6S is not in the Joker deck"):
        content.render_source("---\ntitle: T\ndescription: D\n---\n\nPlay [[6S]].\n", "en", "en/test.md")
