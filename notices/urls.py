from django.urls import path

from . import views

app_name = "notices"

urlpatterns = [
    path("notices/read/", views.mark_read, name="read"),
    path("tables/<int:table_id>/invite/", views.invite, name="invite"),
    path("tables/<int:table_id>/invite/withdraw/", views.withdraw, name="withdraw"),
    path("invitations/<int:invitation_id>/accept/", views.accept, name="accept"),
]
