from django.urls import path

from . import views

app_name = "quickplay"
urlpatterns = [
    path("join/", views.join, name="join"),
    path("leave/", views.leave, name="leave"),
    path("bots/", views.bots, name="bots"),
]
