from django.urls import path

from . import views

app_name = "coins"

urlpatterns = [
    path("", views.coins_page, name="page"),
    path("bonus/", views.claim_bonus, name="claim_bonus"),
]
