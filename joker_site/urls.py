from allauth.account.decorators import secure_admin_login
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from accounts.views import set_language
from pwa.views import service_worker

# The admin's own login form has no brute-force limit: send it to the site's log-in, which
# has allauth's (docs/accounts.md), and let only staff through once logged in.
admin.site.login = secure_admin_login(admin.site.login)

urlpatterns = [
    # Our own set_language: it keeps the page and remembers a member's choice.
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("accounts.api_urls")),
    # At the root, so the service worker's scope is every page (pwa/, docs/pwa.md).
    path("sw.js", service_worker, name="service_worker"),
]

urlpatterns += i18n_patterns(
    path("", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    path("coins/", include("coins.urls")),
    path("rules/", include("rules_pages.urls")),
    path("lesson/", include("lessons.urls")),
    path("leaderboard/", include("ratings.urls")),
    path("quickplay/", include("quickplay.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("", include("pwa.urls")),
    path("", include("push.urls")),
    path("", include("notices.urls")),
    path("", include("games.urls")),
    prefix_default_language=True,
)


def favicon(request):
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's, for one)."""
    return redirect(static("img/favicon.svg"), permanent=True)


urlpatterns.append(path("favicon.ico", favicon))
