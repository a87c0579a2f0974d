from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from .languages import set_language_cookie, url_in_language
from .players import GuestRefused
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


class GuestRefusedMiddleware:
    """Any view that makes a guest (a seat, quick play, a lesson step…) may be refused one
    (`GuestRefused`: too many from the address, no free number). Answer it here, once for
    all of them: a page saying why (429, or 503 when numbers ran out), or for htmx a
    redirect to the guest page with the same sentence, since htmx does not show a 4xx."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, GuestRefused):
            return None
        status = 503 if exception.code == "guest_numbers_exhausted" else 429
        if getattr(request, "htmx", False):
            messages.error(request, exception.message)
            response = HttpResponse(status=200)
            response["HX-Redirect"] = reverse("accounts:guest")
            return response
        return render(request, "accounts/guest_refused.html", {"message": exception.message}, status=status)
