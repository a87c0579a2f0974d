"""Sign-up carries a guest's identity over; log-in brings back the member's language;
a token deleted in any way (revoked, in the admin, with its user) closes its sockets, and so
do a log-out (that session's), a changed password and a closed account (every session's):
accounts/sockets.py; a member's names are remembered folded, so nobody can take a look-alike
of them."""

from allauth.account.signals import user_signed_up
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver
from django.utils import translation

from .models import AccessToken, Player
from .names import remember_names
from .players import claim_guest_from_session, player_for_user
from .sockets import close_member_sockets, close_session_sockets, close_token_sockets

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


@receiver(user_logged_out, dispatch_uid="accounts.close_sockets_of_a_session_logged_out")
def close_sockets_of_a_session_logged_out(sender, request, user, **kwargs):
    """Log-out ends that session: its open sockets close (the member's others stay)."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and session_key:
        close_session_sockets(session_key)


@receiver(pre_save, sender=get_user_model(), dispatch_uid="accounts.note_credentials_changing")
def note_credentials_changing(sender, instance, raw=False, update_fields=None, **kwargs):
    """Before a user is saved: whether its password or its being active changes (however it is
    changed: allauth's pages, a reset, the admin, a script). A save of other fields only (the
    last log-in's time, on every log-in) asks nothing."""
    if raw or instance.pk is None or (update_fields is not None and not {"password", "is_active"} & set(update_fields)):
        return
    before = sender.objects.filter(pk=instance.pk).values("password", "is_active").first()
    if before is None:
        return
    if not instance.is_active and before["is_active"]:
        instance._sockets_close_for = "deactivated"
    elif instance.password != before["password"]:
        instance._sockets_close_for = "password_changed"


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts.close_sockets_of_changed_credentials")
def close_sockets_of_changed_credentials(sender, instance, raw=False, **kwargs):
    """A changed password or a closed account ends every session's sockets, once the save commits."""
    reason = instance.__dict__.pop("_sockets_close_for", None)
    if reason and not raw:
        close_member_sockets(instance.pk, reason)


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts.remember_username")
def remember_username(sender, instance, raw=False, **kwargs):
    if not raw:
        remember_names(instance)


@receiver(post_save, sender=Player, dispatch_uid="accounts.remember_display_name")
def remember_display_name(sender, instance, raw=False, **kwargs):
    if not raw and instance.user_id is not None:
        remember_names(instance.user)
