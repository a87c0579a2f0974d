"""Moving between the /ka/, /ru/ and /en/ versions of a page."""

from urllib.parse import parse_qs, urlsplit

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


# --- A websocket's language --------------------------------------------------------------------

_LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)
PROGRAM_DEFAULT_LANGUAGE = "en"  # programs read English best; a person's client asks for ka or ru


def in_language(function, language):
    """`function` run with `language` active (refusals and fragments are read by people)."""

    def wrapped(*args):
        with translation.override(language):
            return function(*args)

    return wrapped


def header_of(scope, name: bytes):
    """A websocket handshake's header (the first of that name), or None."""
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def page_socket_language(scope) -> str:
    """The page's language: the page puts it in the socket's address (`?lang=en`), since
    browsers send no Referer with a websocket handshake; then the Referer's URL prefix,
    the language cookie, Georgian."""
    asked = parse_qs(scope.get("query_string", b"").decode(errors="ignore")).get("lang", [""])[0]
    if asked in _LANGUAGES:
        return asked
    for name, value in scope.get("headers", []):
        if name == b"referer":
            parts = value.decode(errors="ignore").split("/")
            if len(parts) > 3 and parts[3] in _LANGUAGES:
                return parts[3]
    for name, value in scope.get("headers", []):
        if name == b"cookie" and b"django_language=" in value:
            return value.decode(errors="ignore").split("django_language=")[1].split(";")[0][:2]
    return "ka"


def program_socket_language(scope) -> str:
    """A program's language: its Accept-Language, else English."""
    for part in (header_of(scope, b"accept-language") or "").split(","):
        code = part.split(";")[0].strip()[:2].lower()
        if code in _LANGUAGES:
            return code
    return PROGRAM_DEFAULT_LANGUAGE
