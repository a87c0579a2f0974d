"""Banned users cannot log in, and a session they still hold stops working.

The two authentication backends are Django's and allauth's with one more
refusal: a user with a ban in force cannot authenticate (`user_can_authenticate`
is also what `get_user` asks on every request, websockets included). allauth
keeps a user whose password was right but who was refused, and asks the
account adapter's `pre_login`; ours answers with a page that says the account
is banned and until when, instead of "wrong password".

The adapter also refuses usernames that pose as someone else (accounts/names.py).
"""

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django import forms
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.shortcuts import render

from accounts.names import refusal_for_name

from .bans import active_ban, refusal_message


class ModelBackend(DjangoModelBackend):
    def user_can_authenticate(self, user):
        return super().user_can_authenticate(user) and active_ban(user) is None


class AuthenticationBackend(AllauthBackend):
    def user_can_authenticate(self, user):
        return super().user_can_authenticate(user) and active_ban(user) is None


class AccountAdapter(DefaultAccountAdapter):
    def pre_login(self, request, user, **kwargs):
        ban = active_ban(user)
        if ban is not None:
            from allauth.account.internal.stagekit import clear_login  # what allauth does for inactive users

            clear_login(request)
            return render(request, "moderation/banned.html", {"message": refusal_message(ban)}, status=403)
        return super().pre_login(request, user, **kwargs)

    def clean_username(self, username, shallow=False):
        username = super().clean_username(username, shallow=shallow)
        refusal = refusal_for_name(username)
        if refusal is not None:
            raise forms.ValidationError(refusal)
        return username
