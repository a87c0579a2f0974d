from urllib.parse import urlencode, urlsplit

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import appearance, profiles
from . import friends as friendship
from .forms import AccessTokenForm, FriendSearchForm, ProfileForm
from .languages import set_language_cookie, supported, url_in_language
from .models import AccessToken, Player
from .players import MEMBER_ONLY_ACTIONS, player_for_request, player_for_user
from .tokens import MAX_TOKENS_PER_USER, create_token, revoke_token, user_for_request_token

FRESH_TOKEN_SESSION_KEY = "accounts.fresh_token"


def _safe_next(request, fallback):
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


# --- Language ----------------------------------------------------------------------


@require_POST
def set_language(request):
    """Switch language: the same page under the new prefix, remembered for members."""
    language = request.POST.get("language", "")
    next_url = _safe_next(request, "/")
    if not supported(language):
        # Said in the language of the page the visitor goes back to.
        page_language = translation.get_language_from_path(urlsplit(next_url).path) or translation.get_language()
        with translation.override(page_language):
            messages.error(request, _("This language is not available."))
        return HttpResponseRedirect(next_url)
    response = HttpResponseRedirect(url_in_language(next_url, language))
    set_language_cookie(response, language)
    if request.user.is_authenticated:
        Player.objects.filter(pk=player_for_user(request.user).pk).update(language=language)
    return response


# --- Appearance ----------------------------------------------------------------------


@require_POST
def save_appearance(request):
    """Keep a member's theme and card faces. A script's request (fetch) gets 204; a plain
    form goes back to its page. A value that is not one of the choices changes nothing."""
    theme = request.POST.get("theme", "")
    deck = request.POST.get("deck", "")
    refusal = appearance.refusal_for(theme, deck)
    scripted = request.headers.get("X-Requested-With") == "fetch"
    if refusal:
        if scripted:
            return HttpResponseBadRequest(refusal, content_type="text/plain; charset=utf-8")
        messages.error(request, refusal)
    else:
        player = appearance.member_player(request)
        if player is not None:
            Player.objects.filter(pk=player.pk).update(theme=theme, card_deck=deck)
        if scripted:
            return HttpResponse(status=204)
    return HttpResponseRedirect(_safe_next(request, "/"))


# --- Guests ------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def guest(request):
    """Explain playing as a guest and, on POST, give the visitor a guest identity."""
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST":
        player = player_for_request(request, create=True)
        messages.success(request, _("You are playing as %(name)s.") % {"name": player.display_name_text})
        return HttpResponseRedirect(_safe_next(request, reverse("home")))
    return render(
        request,
        "accounts/guest.html",
        {"guest_player": player_for_request(request), "next": _safe_next(request, "")},
    )


# --- Profiles ----------------------------------------------------------------------


def _profile_context(user):
    return {
        "profile_user": user,
        "profile_player": player_for_user(user),
        "friends_count": len(friendship.friend_ids(user)),
        **profiles.facts_of(user),  # games played and won (games/stats.py), and what other apps add
    }


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    player = player_for_user(request.user)
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your profile is saved."))
        language = form.cleaned_data["language"]
        response = HttpResponseRedirect(url_in_language(request.path, language))
        set_language_cookie(response, language)
        return response
    context = _profile_context(request.user) | {"form": form, "own_profile": True}
    return render(request, "accounts/profile.html", context)


@require_GET
def player_profile(request, username):
    User = get_user_model()
    other = get_object_or_404(User, username=username, is_active=True)
    context = _profile_context(other) | {
        "own_profile": request.user.is_authenticated and request.user.pk == other.pk,
        "relation": friendship.relation(request.user, other),
    }
    return render(request, "accounts/profile.html", context)


# --- Friends -----------------------------------------------------------------------


def _is_member(request):
    return request.user.is_authenticated


def _panel_context(request, query):
    user = request.user
    context = {"query": query, "is_member": _is_member(request)}
    if not context["is_member"]:
        return context
    found = friendship.search_users(user, query) if query else []
    context |= {
        "friends": friendship.friends_of(user),
        "incoming": friendship.incoming_requests(user),
        "outgoing": friendship.outgoing_requests(user),
        "blocked": friendship.blocked_by(user),
        "results": found,
    }
    if found:
        states = {
            "friends": {u.pk for u in context["friends"]},
            "request_received": {u.pk for u in context["incoming"]},
            "request_sent": {u.pk for u in context["outgoing"]},
            "blocked": {u.pk for u in context["blocked"]},
        }
        for found_user in found:
            found_user.relation = next((name for name, ids in states.items() if found_user.pk in ids), "none")
    return context


@require_GET
def friends_page(request):
    form = FriendSearchForm(request.GET or None)
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    context = _panel_context(request, query) | {"search_form": form}
    if request.htmx and not request.htmx.history_restore_request:
        response = render(request, "accounts/_friends_panel.html", context | {"fragment": True})
    else:
        response = render(request, "accounts/friends.html", context)
    # The same address answers a fragment or a whole page: caches must keep them apart.
    patch_vary_headers(response, ("HX-Request",))
    return response


def _friend_target(request, allow_player=False):
    """The User (or, for requests, Player) a friend action names, or None."""
    User = get_user_model()
    user_id = request.POST.get("user", "")
    if user_id.isdigit():
        return User.objects.filter(pk=int(user_id), is_active=True).first()
    player_id = request.POST.get("player", "")
    if allow_player and player_id.isdigit():
        return Player.objects.select_related("user").filter(pk=int(player_id)).first()
    return None


def _friend_action_response(request, target):
    query = request.POST.get("q", "").strip()
    if request.htmx:
        if request.htmx.target == "relation-box" and target is not None and hasattr(target, "username"):
            context = {"profile_user": target, "relation": friendship.relation(request.user, target)}
            return render(request, "accounts/_relation_box.html", context | {"fragment": True})
        return render(request, "accounts/_friends_panel.html", _panel_context(request, query) | {"fragment": True})
    fallback = reverse("accounts:friends")
    if query:
        fallback += "?" + urlencode({"q": query})
    return HttpResponseRedirect(_safe_next(request, fallback))


def _friend_action(action, allow_player=False):
    @require_POST
    def view(request):
        target = _friend_target(request, allow_player=allow_player)
        if not _is_member(request):
            messages.error(request, MEMBER_ONLY_ACTIONS["friend_request"])
        elif target is None:
            messages.error(request, _("There is no such player."))
        else:
            try:
                outcome = action(request.user, target)
            except friendship.FriendshipRefused as refusal:
                messages.error(request, refusal.message)
            else:
                messages.success(request, outcome.message)
        return _friend_action_response(request, target)

    view.__name__ = action.__name__
    return view


friend_request = _friend_action(friendship.send_friend_request, allow_player=True)
friend_accept = _friend_action(friendship.accept_friend_request)
friend_decline = _friend_action(friendship.decline_friend_request)
friend_cancel = _friend_action(friendship.cancel_friend_request)
friend_remove = _friend_action(friendship.remove_friend)
user_block = _friend_action(friendship.block_user)
user_unblock = _friend_action(friendship.unblock_user)


# --- Access tokens -----------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    form = AccessTokenForm(request.POST or None)
    if request.method == "POST":
        if AccessToken.objects.filter(user=request.user).count() >= MAX_TOKENS_PER_USER:
            messages.error(
                request, _("You have %(count)s tokens, the most allowed. Revoke one first.") % {"count": MAX_TOKENS_PER_USER}
            )
            return redirect("accounts:tokens")
        if form.is_valid():
            token, raw = create_token(request.user, form.cleaned_data["name"], form.cleaned_data["scope"],
                                      form.cleaned_data["lifetime"])
            request.session[FRESH_TOKEN_SESSION_KEY] = {"id": token.pk, "raw": raw}
            return redirect("accounts:tokens")
    fresh = request.session.pop(FRESH_TOKEN_SESSION_KEY, None)
    user_tokens = list(AccessToken.objects.filter(user=request.user))
    fresh_token = None
    if fresh:
        fresh_token = next((t for t in user_tokens if t.pk == fresh["id"]), None)
        if fresh_token is not None:
            fresh_token.raw = fresh["raw"]
    return render(
        request,
        "accounts/tokens.html",
        {"form": form, "tokens": user_tokens, "fresh_token": fresh_token, "api_me_url": reverse("api_me")},
    )


@login_required
@require_POST
def token_revoke(request, token_id):
    if revoke_token(request.user, token_id):
        messages.success(request, _("The token is revoked: programs using it are locked out."))
    else:
        messages.error(request, _("There is no such token."))
    return redirect("accounts:tokens")


# --- JSON ------------------------------------------------------------------------


@require_GET
def api_me(request):
    """Who a bearer token belongs to: lets a program check its token."""
    user = user_for_request_token(request)
    if user is None:
        response = JsonResponse({"error": "invalid_token", "detail": "missing, unknown or revoked token"}, status=401)
        response["WWW-Authenticate"] = 'Bearer realm="joker"'
        return response
    player = player_for_user(user)
    return JsonResponse(
        {"username": user.get_username(), "display_name": player.display_name_text, "player_id": player.pk}
    )
