from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class CoinsConfig(AppConfig):
    name = "coins"
    verbose_name = _("Domino Coin")

    def ready(self):
        from allauth.account.models import EmailAddress

        from .services import open_wallet_on_signup, pay_grant_on_verified_email

        post_save.connect(
            open_wallet_on_signup,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="coins_open_wallet_on_signup",
        )
        post_save.connect(
            pay_grant_on_verified_email, sender=EmailAddress, dispatch_uid="coins_pay_grant_on_verified_email"
        )
