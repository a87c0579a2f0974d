from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/<int:table_id>/", views.table_detail, name="table"),
    path("tables/<int:table_id>/sit/", views.table_sit, name="table_sit"),
    path("tables/<int:table_id>/stand/", views.table_stand, name="table_stand"),
]
