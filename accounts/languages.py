"""Moving between the /ka/, /ru/ and /en/ versions of a page."""

from urllib.parse import urlsplit

from django.conf import settings
from django.urls import translate_url
from django.utils import translation


def supported(code):
    return code in dict(settings.LANGUAGES)


def url_in_language(url, language):
    """The same local URL under `language`'s prefix; unprefixed URLs come back unchanged."""
    path = urlsplit(url).path
    current = translation.get_language_from_path(path)
    if not current:
        return url
    # translate_url resolves with the active language, so resolve as the URL's own language.
    with translation.override(current):
        return translate_url(url, language)


def set_language_cookie(response, language):
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
