from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

urlpatterns += i18n_patterns(
    path("accounts/", include("allauth.urls")),
    path("rules/", include("rules_pages.urls")),
    path("", include("games.urls")),
    prefix_default_language=True,
)
