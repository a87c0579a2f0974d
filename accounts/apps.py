from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Players and friends")  # allauth's own app is "Accounts" in the admin

    def ready(self):
        from . import signals  # noqa: F401  (connects the receivers)
