"""Moving between the /ka/, /ru/ and /en/ versions of a page."""

from urllib.parse import urlsplit

from django.conf import settings
from django.urls import translate_url
from django.utils import translation
from django.utils.functional import keep_lazy_text
from django.utils.text import capfirst


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


GEORGIAN_MKHEDRULI = ("\u10d0", "\u10ff")  # the first and last code points of the block


@keep_lazy_text
def capfirst_for_script(text):
    """Django's `capfirst`, except for Georgian: the everyday Georgian script (Mkhedruli) has
    no capital letters, and str.upper() turns its first letter into Mtavruli, a separate
    all-capitals script ("Საჩვენებელი სახელი"), which no Georgian writes at a label's start."""
    text = str(text)
    if text and GEORGIAN_MKHEDRULI[0] <= text[0] <= GEORGIAN_MKHEDRULI[1]:
        return text
    return capfirst(text)


class ModelLabelsAsWritten:
    """A ModelForm mixin: labels from the model's verbose names through `capfirst_for_script`
    (Django's model fields capitalise theirs with `capfirst`), unless Meta.labels names one."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        given = getattr(self.Meta, "labels", None) or {}
        model_meta = self._meta.model._meta
        for name, field in self.fields.items():
            if name not in given and name in {f.name for f in model_meta.get_fields()}:
                field.label = capfirst_for_script(model_meta.get_field(name).verbose_name)
