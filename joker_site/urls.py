from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

urlpatterns += i18n_patterns(
    path("accounts/", include("allauth.urls")),
    path("", include("games.urls")),
    prefix_default_language=True,
)


def favicon(request):
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's, for one)."""
    return redirect(static("img/favicon.svg"), permanent=True)


urlpatterns.append(path("favicon.ico", favicon))
