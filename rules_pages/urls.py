from django.urls import path

from . import views

app_name = "rules_pages"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:slug>/", views.page, name="page"),
    path("<slug:slug>/examples/<slug:example_id>/", views.try_board, name="try"),
]
