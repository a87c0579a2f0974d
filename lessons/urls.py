from django.urls import path

from . import views

app_name = "lessons"

urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:path>/", views.path_page, name="path"),
    path("<slug:path>/practice/", views.practice_page, name="practice"),
    path("<slug:path>/<slug:step_id>/", views.step_page, name="step"),
]
