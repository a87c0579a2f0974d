"""JSON endpoints, outside the language prefixes. Programs authenticate with a bearer token."""

from django.urls import path

from . import views

urlpatterns = [
    path("me", views.api_me, name="api_me"),
]
