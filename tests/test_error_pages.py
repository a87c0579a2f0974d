"""A wrong address answers with the site's own 404 page in the language of its prefix (the
site's header and language switcher, no list of the site's URLs), as `make run` serves it:
with DEBUG off (scripts/run_local.sh), which pytest-django's settings are too."""

import pytest
from django.test import override_settings

NOT_FOUND = {"ka": "გვერდი ვერ მოიძებნა", "ru": "Страница не найдена", "en": "Page not found"}


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(NOT_FOUND))
@override_settings(DEBUG=False)
def test_a_wrong_address_gets_the_sites_404_page_in_the_language_of_its_prefix(client, language):
    response = client.get(f"/{language}/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert f'<html lang="{language}"' in page  # the theme's attributes follow (accounts/appearance.py)
    assert f"<h1>{NOT_FOUND[language]}</h1>" in page
    assert 'class="lang-switch"' in page and "URLconf" not in page


def test_make_run_serves_without_debug_pages_unless_asked():
    from pathlib import Path

    script = (Path(__file__).resolve().parents[1] / "scripts" / "run_local.sh").read_text()
    assert 'export DEBUG="${DEBUG:-false}"' in script  # DEBUG=true make run still asks for them
    assert "collectstatic" in script  # static files served by WhiteNoise from var/static
    assert 'export SECURE_HTTPS="${SECURE_HTTPS:-false}"' in script  # Daphne serves plain http there
