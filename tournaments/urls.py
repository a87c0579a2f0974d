from django.urls import path

from . import views

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("<int:tournament_id>/", views.detail, name="detail"),
    path("<int:tournament_id>/live/", views.live, name="live"),
    path("<int:tournament_id>/go/", views.go, name="go"),
    path("<int:tournament_id>/join/", views.join, name="join"),
    path("<int:tournament_id>/leave/", views.leave, name="leave"),
    path("<int:tournament_id>/coming/", views.coming, name="coming"),
]
