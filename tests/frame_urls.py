"""The site's URLs plus stand-ins for sections other apps will route (lobby, rules, coins)."""

from django.conf.urls.i18n import i18n_patterns
from django.http import HttpResponse
from django.urls import path

from joker_site.urls import urlpatterns as site_urlpatterns


def section(request):
    return HttpResponse("section")


urlpatterns = list(site_urlpatterns) + i18n_patterns(
    path("lobby/", section),
    path("rules/", section),
    path("coins/", section),
    prefix_default_language=True,
)
