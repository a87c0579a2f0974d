from django.urls import path

from . import views

app_name = "pwa"

# Under the language prefix: the manifest and the offline page speak the page's language.
urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("offline/", views.offline, name="offline"),
]
