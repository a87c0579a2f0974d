from django.urls import path

from . import views

app_name = "push"

urlpatterns = [
    path("notifications/", views.devices, name="devices"),
    path("notifications/subscribe/", views.subscribe, name="subscribe"),
    path("notifications/devices/<int:subscription_id>/remove/", views.remove, name="remove"),
    path("notifications/kinds/", views.save_kinds, name="kinds"),
]
