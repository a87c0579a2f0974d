from django.urls import path

from . import replay_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/<int:table_id>/", views.table_detail, name="table"),
    path("tables/<int:table_id>/sit/", views.table_sit, name="table_sit"),
    path("tables/<int:table_id>/stand/", views.table_stand, name="table_stand"),
    path("tables/<int:table_id>/rematch/", views.table_rematch, name="table_rematch"),
    # Records, replays and deal checks (replay_views.py).
    path("tables/<int:table_id>/record.json", replay_views.record_download, name="table_record"),
    path("tables/<int:table_id>/fairness.json", replay_views.fairness_download, name="table_fairness_json"),
    path("tables/<int:table_id>/fairness/", replay_views.fairness_page, name="table_fairness"),
    path("tables/<int:table_id>/replay/", replay_views.replay_page, name="table_replay"),
    path("matches/", replay_views.my_matches, name="my_matches"),
    path("players/<str:username>/matches/", replay_views.player_matches, name="player_matches"),
]
