from django.utils.http import url_has_allowed_host_and_scheme

from .languages import set_language_cookie, url_in_language
from .signals import LOGIN_LANGUAGE_ATTR


class PreferredLanguageMiddleware:
    """After a log-in, switch to the member's preferred language.

    The log-in signal notes the language on the request; here the language
    cookie is set (so later visits to "/" land there) and a redirect to a page
    in another language is sent to that page in the preferred one.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        language = getattr(request, LOGIN_LANGUAGE_ATTR, None)
        if language:
            set_language_cookie(response, language)
            location = response.get("Location") if 300 <= response.status_code < 400 else None
            if location and url_has_allowed_host_and_scheme(location, allowed_hosts={request.get_host()}):
                response["Location"] = url_in_language(location, language)
        return response
