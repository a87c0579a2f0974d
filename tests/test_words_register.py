"""The site speaks to a player in one register (docs/words.md): Georgian თქვენ, Russian вы. No
Georgian or Russian catalogue of ours — the lesson's story included — addresses the player
with the familiar შენ / ты: not its pronouns, not the verb forms that go with them. The table
chat's quick phrases are players speaking to each other and keep the familiar form."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from accounts.i18n_audit import parse_po, project_po_files

# Russian: ты and its cases, твой in every form, and the present/future second person singular
# (сдаёшь, возьмёшь, видишь; "лишь" is no verb).
FAMILIAR_RU = re.compile(r"(?i)(?<![а-яё])(?:ты|тебе|тебя|тобой|тво(?:й|я|ё|и|его|ей|им|их|ю|ему|ими))(?![а-яё])"
                         r"|(?<![а-яё])(?!лишь)[а-яё]+(?:ешь|ёшь|ишь)(?![а-яё])")
# Georgian: შენ and its forms, and the commonest second person singular verbs (ხარ, გაქვს, შეგიძლია,
# გჭირდება, იცი, გახსოვს), which take -თ in the polite register; and the familiar forms once found
# in the table's own words and the home page's (თქვი, დაასახელე, წაიღებ, შექმენი, თამაშობ, იყავი...:
# each wants its -თ).
FAMILIAR_KA = re.compile(r"(?<![ა-ჰ])(?:შენ|შენი|შენს|შენმა|შენია|შენიც|შენთვის|შენზე|ხარ|გაქვს|შეგიძლია|"
                         r"გჭირდება|იცი|გახსოვს|თქვი|დაასახელე|წაიღებ|გამოიყენე|დანებდები|დარეგისტრირდი|"
                         r"შეავსე|შექმენი|მოხსენი|ითამაშო|თამაშობ|იყავი)(?![ა-ჰ])")
FAMILIAR = {"ru": FAMILIAR_RU, "ka": FAMILIAR_KA}
PLAYERS_TO_EACH_OTHER = {"chat"}  # quick phrases: one player to another


def _app(path) -> str:
    return Path(path).relative_to(settings.BASE_DIR).parts[0]


def _catalogues(language):
    return [path for path in project_po_files()
            if path.parts[-3] == language and _app(path) not in PLAYERS_TO_EACH_OTHER]


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_no_catalogue_speaks_to_the_player_in_the_familiar_register(language):
    familiar = {}
    for path in _catalogues(language):
        for entry in parse_po(path):
            for text in entry.msgstr.values():
                if FAMILIAR[language].search(text):
                    familiar[f"{path}:{entry.line}"] = text
    assert familiar == {}


@pytest.mark.parametrize(("language", "catalogue"), [("ka", "lessons"), ("ru", "lessons")])
def test_the_lesson_is_among_the_catalogues_checked(language, catalogue):
    assert any(_app(path) == catalogue for path in _catalogues(language))


@pytest.mark.parametrize(("language", "familiar", "polite"), [
    ("ru", "Ты сдаёшь, поэтому сказать 3 нельзя. Твой ход.", "Вы сдаёте, поэтому сказать 3 нельзя. Ваш ход."),
    ("ka", "დამრიგებელი ხარ და შენი სვლაა.", "დამრიგებელი ხართ და თქვენი სვლაა."),
])
def test_the_check_tells_the_two_registers_apart(language, familiar, polite):
    assert FAMILIAR[language].search(familiar) and not FAMILIAR[language].search(polite)
