"""`pure_include` draws a piece once per values and language, and never shows one piece for another."""

import pytest
from django.template import engines
from django.utils import translation

from games.templatetags import pure_include as pure

LIVE = engines["django"]
pytestmark = pytest.mark.django_db


def render(source: str, **context) -> str:
    return LIVE.from_string("{% load pure_include %}" + source).render(context)


@pytest.fixture(autouse=True)
def _empty_memo():
    pure._rendered.clear()
    yield
    pure._rendered.clear()


def test_the_same_values_are_drawn_once_and_other_values_again(monkeypatch):
    drawn = []
    real = pure.render_to_string
    monkeypatch.setattr(pure, "render_to_string", lambda name, values: drawn.append(values) or real(name, values))
    seat = {"index": 1, "name": "tamar", "label": "tamar", "mine": False, "acting": True, "tricks": 2, "total": 50,
            "cards": 5, "pos": "left", "bank": None}
    first = render('{% pure_include "games/_seat.html" s=s variant="classic" %}', s=seat)
    again = render('{% pure_include "games/_seat.html" s=s variant="classic" %}', s=dict(seat))
    assert first == again and len(drawn) == 1
    other = render('{% pure_include "games/_seat.html" s=s variant="classic" %}', s=seat | {"tricks": 3})
    assert len(drawn) == 2 and "3" in other and other != first


def test_a_piece_is_drawn_again_in_another_language():
    seat = {"index": 0, "name": "levan", "label": "levan", "mine": True, "acting": False, "tricks": 0, "total": 0,
            "cards": 9, "pos": "bottom", "bank": None}
    source = '{% pure_include "games/_seat.html" s=s variant="classic" %}'
    with translation.override("ru"):
        russian = render(source, s=seat)
    with translation.override("ka"):
        georgian = render(source, s=seat)
    assert "вы" in russian and "вы" not in georgian
    assert russian != georgian


def test_a_stamp_is_written_into_a_piece_drawn_once_for_every_version(monkeypatch):
    drawn = []
    real = pure.render_to_string
    monkeypatch.setattr(pure, "render_to_string", lambda name, values: drawn.append(values) or real(name, values))
    card = {"card": "7H", "choices": [{"play": "7H"}], "reason": None}
    source = '{% pure_include "games/_playable_card.html" c=c stamp=v %}'
    at_4, at_5 = render(source, c=card, v=4), render(source, c=card, v=5)
    assert len(drawn) == 1
    assert '"version": 4,' in at_4 and '"version": 5,' in at_5
    assert at_4.replace('"version": 4,', '"version": 5,') == at_5
    assert pure.STAMP_MARKER not in at_4
    with pytest.raises(TypeError, match="whole number"):
        render(source, c=card, v="5")


def test_only_plain_data_may_key_a_piece():
    class Shown:
        value = 1500

    with pytest.raises(TypeError, match="plain data only"):
        render('{% pure_include "ratings/_badge.html" rating=r %}', r=Shown())


def test_a_live_table_drawn_from_the_memo_is_the_table_drawn_afresh():
    from games.match_views import page_context
    from games.models import Match
    from games.services import tables as table_service
    from games.services.tables import TableSettings
    from tests.factories import make_player

    person = make_player("nino")
    table = table_service.create_table(person, TableSettings(variant="classic", fill_with_bots=True))
    match = Match.objects.get(table=table)
    from django.template.loader import render_to_string

    with translation.override("ka"):
        context = page_context(match.table, person)
        fresh = render_to_string("games/_match.html", context)
        assert pure._rendered  # the pieces are kept
        remembered = render_to_string("games/_match.html", page_context(match.table, person))
        pure._rendered.clear()
        assert remembered == fresh == render_to_string("games/_match.html", context)


def test_kept_pieces_are_plain_text_the_garbage_collector_does_not_walk():
    import gc

    render('{% pure_include "ratings/_badge.html" rating=r %}', r={"value": 1500, "provisional": False,
                                                                    "rated_matches": 30})
    kept = list(pure._rendered.values())
    assert kept and all(type(html) is str and not gc.is_tracked(html) for html in kept)
