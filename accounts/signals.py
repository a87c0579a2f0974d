"""Sign-up carries a guest's identity over; log-in brings back the member's language;
a token deleted in any way (revoked, in the admin, with its user) closes its sockets;
a member's names are remembered folded, so nobody can take a look-alike of them."""

from allauth.account.signals import user_signed_up
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import translation

from .models import AccessToken, Player
from .names import remember_names
from .players import claim_guest_from_session, player_for_user
from .sockets import close_token_sockets

LOGIN_LANGUAGE_ATTR = "_accounts_login_language"


@receiver(user_signed_up, dispatch_uid="accounts.claim_guest_on_signup")
def claim_guest_on_signup(request, user, **kwargs):
    if request is None:
        return
    claim_guest_from_session(request, user)
    player = player_for_user(user)
    if not player.language:
        # The language they signed up in is the one they read.
        player.language = translation.get_language_from_path(request.path_info) or translation.get_language()
        player.save(update_fields=["language"])


@receiver(user_logged_in, dispatch_uid="accounts.remember_language_on_login")
def remember_language_on_login(sender, request, user, **kwargs):
    if request is None:
        return
    language = player_for_user(user).language
    if language:
        setattr(request, LOGIN_LANGUAGE_ATTR, language)


@receiver(post_delete, sender=AccessToken, dispatch_uid="accounts.close_sockets_of_deleted_token")
def close_sockets_of_deleted_token(sender, instance, **kwargs):
    close_token_sockets(instance.pk)


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts.remember_username")
def remember_username(sender, instance, raw=False, **kwargs):
    if not raw:
        remember_names(instance)


@receiver(post_save, sender=Player, dispatch_uid="accounts.remember_display_name")
def remember_display_name(sender, instance, raw=False, **kwargs):
    if not raw and instance.user_id is not None:
        remember_names(instance.user)
