from django.urls import path

from . import views

app_name = "accounts"

urlpatterns = [
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/guest/", views.guest, name="guest"),
    # Not under accounts/: the service worker forgets its kept pages on posts there (docs/pwa.md).
    path("appearance/", views.save_appearance, name="appearance"),
    path("accounts/tokens/", views.tokens, name="tokens"),
    path("accounts/tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    path("players/<str:username>/", views.player_profile, name="player_profile"),
    path("friends/", views.friends_page, name="friends"),
    path("friends/request/", views.friend_request, name="friend_request"),
    path("friends/accept/", views.friend_accept, name="friend_accept"),
    path("friends/decline/", views.friend_decline, name="friend_decline"),
    path("friends/cancel/", views.friend_cancel, name="friend_cancel"),
    path("friends/remove/", views.friend_remove, name="friend_remove"),
    path("friends/block/", views.user_block, name="user_block"),
    path("friends/unblock/", views.user_unblock, name="user_unblock"),
]
