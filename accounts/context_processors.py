"""What every page's frame needs: navigation links and the guest's identity."""

from dataclasses import dataclass

from django.urls import Resolver404, resolve, reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .appearance import appearance_for
from .players import current_guest


@dataclass(frozen=True)
class NavLink:
    key: str
    label: str
    url: str
    current: bool


# Sections other apps provide, by path under the language prefix. A link is
# shown only once its page is routed, so the frame never points at a 404.
OTHER_APP_SECTIONS = (
    ("lobby", _("Lobby"), "lobby/"),
    ("rules", _("Rules"), "rules/"),
    ("leaderboard", _("Leaderboard"), "leaderboard/"),
    ("tournaments", _("Tournaments"), "tournaments/"),
)
COINS_SECTION = ("coins", _("Coins"), "coins/")


def _routed_path(language, tail):
    path = f"/{language}/{tail}"
    try:
        resolve(path)
    except Resolver404:
        return None
    return path


def nav_links(request):
    language = get_language()
    links = []
    for key, label, tail in OTHER_APP_SECTIONS:
        path = _routed_path(language, tail)
        if path:
            links.append((key, label, path))
    links.append(("friends", _("Friends"), reverse("accounts:friends")))
    path = _routed_path(language, COINS_SECTION[2])
    if path:
        links.append((COINS_SECTION[0], COINS_SECTION[1], path))
    if request.user.is_authenticated:
        links.append(("profile", _("Profile"), reverse("accounts:profile")))
    return [NavLink(key, label, url, request.path.startswith(url)) for key, label, url in links]


def _login_next(request):
    """Where log-in should come back to: here, unless here is an account page."""
    path = request.get_full_path()
    if request.path.startswith(f"/{get_language()}/accounts/"):
        return ""
    return path


def site(request):
    if not hasattr(request, "session"):
        return {}
    return {
        "nav_links": SimpleLazyObject(lambda: nav_links(request)),
        "current_guest": SimpleLazyObject(lambda: current_guest(request)),
        "login_next": _login_next(request),
        "appearance": SimpleLazyObject(lambda: appearance_for(request)),
    }
