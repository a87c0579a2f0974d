"""TEST_DEAL_SEED, the browser tests' way to know the deal in advance, never works
on the real site: unset, the cards come from the OS's secure generator; set while
DEBUG is off, no match can start."""

import random
import secrets

import pytest
from django.core.exceptions import ImproperlyConfigured

from games import engine
from games.fairness import dealing_rng
from games.models import Match, Table
from games.services import tables as table_service
from games.services.matches import load_state
from games.services.tables import TableSettings
from tests.factories import make_player


def _start_japanese_match():
    host, guest = make_player("tamar"), make_player("levan")
    table = table_service.create_table(host, TableSettings(variant="japanese"))
    table_service.sit(table.pk, guest)
    return Match.objects.get(table=table)


def test_without_the_setting_the_cards_come_from_the_secure_generator(settings):
    assert not hasattr(settings, "TEST_DEAL_SEED")
    assert isinstance(dealing_rng("deal-0"), secrets.SystemRandom)


def test_the_seed_is_refused_when_debug_is_off(settings):
    settings.DEBUG = False
    settings.TEST_DEAL_SEED = 7
    with pytest.raises(ImproperlyConfigured, match="refused when DEBUG is off"):
        dealing_rng("deal-0")


@pytest.mark.django_db
def test_no_match_starts_with_the_seed_set_and_debug_off(settings):
    settings.DEBUG = False
    settings.TEST_DEAL_SEED = 7
    with pytest.raises(ImproperlyConfigured):
        _start_japanese_match()
    assert not Match.objects.exists()
    assert not Table.objects.filter(status="playing").exists()


@pytest.mark.django_db
def test_with_debug_on_the_seed_fixes_the_deal(settings):
    settings.DEBUG = True
    settings.TEST_DEAL_SEED = 7
    match = _start_japanese_match()
    expected = engine.new_state("japanese", {"target": 21})
    engine.deal_from_deck(expected, engine.shuffled_deck(random.Random("7:deal-0")))
    assert load_state(match).record_deals()[0]["hands"] == expected.record_deals()[0]["hands"]
