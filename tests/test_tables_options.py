"""A table's options are defined once: the engine's values, the site's stakes and clocks
(games/options.py), and every part that offers or checks them takes them from there."""

import pytest
from django.db import IntegrityError, transaction

from coins import services as coins
from games import options
from games.engine.classic import GAME_TYPES, KHISHTI_VALUES, PULKA_BONUS_MODES, ClassicOptions
from games.engine.japanese import TARGETS, JapaneseOptions
from games.forms import ClassicTableForm, JapaneseTableForm
from games.models import Table, Variant, Visibility
from games.services import tables as table_service
from games.services.tables import TableSettings
from tests.factories import make_player


def _values(choices):
    return [value for value, _label in choices]


def _model_choices(name):
    return _values(Table._meta.get_field(name).choices)


def test_the_tables_game_options_are_the_engines_values_in_the_engines_order():
    assert _model_choices("game_type") == _values(options.GAME_TYPE_CHOICES) == list(GAME_TYPES)
    assert _model_choices("khishti") == [str(value) for value in KHISHTI_VALUES]
    assert _model_choices("pulka_bonus") == list(PULKA_BONUS_MODES)
    assert options.JAPANESE_TARGETS == TARGETS


def test_the_forms_offer_exactly_the_options_the_models_store():
    classic = ClassicTableForm()
    for name in ("game_type", "khishti", "pulka_bonus"):
        assert _values(classic.fields[name].choices) == _model_choices(name)
    japanese = JapaneseTableForm()
    assert _values(japanese.fields["target"].choices) == list(TARGETS)
    assert _values(japanese.fields["stake"].choices) == [0, *options.STAKES]
    assert _values(japanese.fields["clock_seconds"].choices) == list(options.CLOCK_SECONDS)


def test_the_coin_ledger_takes_the_stakes_the_tables_offer():
    assert coins.TABLE_STAKES == options.STAKES


def test_a_default_table_plays_the_engines_default_options():
    classic = Table(variant=Variant.CLASSIC)
    defaults = ClassicOptions()
    assert classic.record_options() == {key: getattr(defaults, key) for key in ClassicOptions.RECORD_KEYS}
    assert Table(variant=Variant.JAPANESE).record_options() == {"target": JapaneseOptions().target}
    settings = TableSettings(variant=Variant.CLASSIC)
    assert (settings.game_type, settings.khishti, settings.pulka_bonus, settings.target, settings.clock_seconds) == (
        classic.game_type, classic.khishti, classic.pulka_bonus, classic.target, classic.clock_seconds)
    assert ClassicTableForm().fields["khishti"].initial == classic.khishti


@pytest.mark.parametrize("stored, engine_value", [("100", 100), ("500", 500), ("per_card", "per_card")])
def test_khishti_is_stored_as_text_and_played_as_the_engines_value(stored, engine_value):
    assert Table(variant=Variant.CLASSIC, khishti=stored).record_options()["khishti"] == engine_value


def test_labels_that_do_not_match_the_engines_values_stop_the_site():
    with pytest.raises(RuntimeError, match="khishti"):
        options._labelled((100, 200, 300), {100: "a", 200: "b"}, "khishti")


@pytest.mark.django_db
def test_a_table_keeps_every_setting_it_was_created_with():
    creator = make_player("tamar")
    settings = TableSettings(variant=Variant.CLASSIC, stake=0, visibility=Visibility.PASSWORD, password="secret",
                             clock_seconds=60, game_type="nines", khishti="per_card", pulka_bonus="none")
    table = table_service.create_table(creator, settings, sit=False)
    assert TableSettings.of(table) == TableSettings(**{**settings.__dict__, "password": ""})


@pytest.mark.django_db
def test_a_practice_table_with_bots_keeps_its_bots_and_is_casual_in_either_variant():
    for variant in (Variant.JAPANESE, Variant.CLASSIC):
        table = table_service.create_table(make_player(f"tamar-{variant}"), TableSettings(
            variant=variant, fill_with_bots=True), sit=False)
        assert (table.fill_with_bots, table.rated) == (True, False)


@pytest.mark.django_db
def test_the_database_refuses_a_stake_or_target_the_options_do_not_offer():
    creator = make_player("tamar")
    for bad in ({"stake": 30}, {"target": 20}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Table.objects.create(variant=Variant.JAPANESE, creator=creator, **bad)
