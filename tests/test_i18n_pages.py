"""No English left on any page in Georgian or Russian.

Every routed page that takes no arguments is opened by a visitor, a member
with friends, requests, a block and a token, and a guest; so are the main
pages that do take arguments, form errors, messages after friend actions, the
404 page and the password-reset e-mail. Each is searched for the msgids of
all catalogues (Django's, every installed app's, the project's) that a
ka or ru reader would see untranslated. Pages other apps add are covered as
soon as they are routed.
"""

import re

import pytest
from accounts_support import PASSWORD, client_for, fast_password_hashing, guest_client, htmx_post, make_member  # noqa: F401
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import URLResolver, get_resolver
from django.urls.resolvers import LocalePrefixPattern, RegexPattern, RoutePattern

from accounts import friends
from accounts.i18n_audit import untranslated_in
from accounts.tokens import create_token

pytestmark = pytest.mark.django_db

CHECKED_LANGUAGES = ["ka", "ru"]
# The admin is for staff and follows Django's own translations.
SKIPPED_NAMESPACES = {"admin"}
LANG = "{lang}"


def _literal_route(pattern):
    """The fixed text of a URL pattern, or None when it takes arguments."""
    if isinstance(pattern, LocalePrefixPattern):
        return LANG + "/"
    if isinstance(pattern, RoutePattern):
        return None if pattern.converters else str(pattern)
    if isinstance(pattern, RegexPattern):
        if pattern.regex.groups:
            return None
        text = pattern.regex.pattern.removeprefix("^").removesuffix("$").removesuffix(r"\Z")
        unescaped = re.sub(r"\\(.)", r"\1", text)
        return None if re.search(r"[][(){}*+?|^$]", re.sub(r"\\.", "", text)) else unescaped
    return None


def routes_without_arguments(patterns=None, prefix=""):
    patterns = get_resolver().url_patterns if patterns is None else patterns
    for entry in patterns:
        piece = _literal_route(entry.pattern)
        if piece is None:
            continue
        if isinstance(entry, URLResolver):
            if entry.namespace in SKIPPED_NAMESPACES:
                continue
            yield from routes_without_arguments(entry.url_patterns, prefix + piece)
        else:
            yield "/" + prefix + piece


@pytest.fixture
def world():
    """A member with every kind of relation, a token and an e-mail address; a guest; a visitor."""
    member = make_member("nino_k", display_name="Nino", language="ka", email="nino@example.org")
    EmailAddress.objects.create(user=member, email="nino@example.org", verified=False, primary=True)
    friend = make_member("zz_friend")
    asks_me = make_member("zz_asks_me")
    i_ask = make_member("zz_i_ask")
    blocked = make_member("zz_blocked")
    make_member("zz_stranger")
    friends.send_friend_request(member, friend)
    friends.accept_friend_request(friend, member)
    friends.send_friend_request(asks_me, member)
    friends.send_friend_request(member, i_ask)
    friends.block_user(member, blocked)
    create_token(member, "bot")
    guest, _player = guest_client()
    return {"visitor": Client(), "member": client_for(member), "guest": guest, "user": member, "friend": friend}


def main_pages_with_arguments(language):
    players = ["zz_friend", "zz_asks_me", "zz_i_ask", "zz_blocked", "zz_stranger", "nino_k"]
    return [f"/{language}/players/{name}/" for name in players] + [
        f"/{language}/friends/?q=zz",
        f"/{language}/friends/?q=nobody-by-this-name",
        f"/{language}/no-such-page/",
    ]


def pages_to_check(language):
    routes = [route.replace(LANG, language) for route in routes_without_arguments()]
    return routes + main_pages_with_arguments(language)


def audit(response, language, label, problems):
    assert response.status_code < 500, f"{label}: {response.status_code}"
    if "html" not in response.get("Content-Type", ""):
        return
    found = untranslated_in(response.content.decode(), language)
    if found:
        problems[label] = found


@pytest.mark.parametrize("language", CHECKED_LANGUAGES)
def test_every_page_is_fully_translated_for_visitor_member_and_guest(world, language):
    problems = {}
    for who in ["visitor", "member", "guest"]:
        client = world[who]
        for path in pages_to_check(language):
            response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
            audit(response, language, f"{who} GET {path}", problems)
    assert problems == {}, "English left untranslated:\n" + "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_the_walk_reaches_the_pages_of_this_app_and_allauth():
    routes = set(routes_without_arguments())
    for expected in ["/{lang}/", "/{lang}/friends/", "/{lang}/accounts/login/", "/{lang}/accounts/signup/",
                     "/{lang}/accounts/password/reset/", "/{lang}/accounts/profile/", "/{lang}/accounts/tokens/"]:
        assert expected in routes
    assert not any(route.startswith("/admin") for route in routes)


@pytest.mark.parametrize("language", CHECKED_LANGUAGES)
def test_form_errors_and_messages_are_translated(world, language):
    problems = {}
    visitor = Client()
    bad_signups = [
        {"username": "bad name!", "password1": "123", "password2": "123"},
        {"username": "nino_k", "email": "not-an-address", "password1": "password", "password2": "password"},
        {"username": "x", "password1": PASSWORD, "password2": PASSWORD + "x"},
    ]
    for number, data in enumerate(bad_signups):
        audit(visitor.post(f"/{language}/accounts/signup/", data), language, f"signup errors {number}", problems)
    audit(visitor.post(f"/{language}/accounts/login/", {"login": "nino_k", "password": "no"}), language,
          "login error", problems)
    audit(visitor.post(f"/{language}/accounts/login/", {"login": "nino_k", "password": PASSWORD}, follow=True),
          language, "logged in", problems)

    member = world["member"]
    stranger_id = str(make_member(f"zzstranger{language}").pk)
    actions = [
        ("request", {"user": stranger_id}),
        ("request", {"user": stranger_id}),  # already sent
        ("request", {"user": str(world["user"].pk)}),  # yourself
        ("request", {"user": "999999"}),
        ("cancel", {"user": stranger_id}),
        ("block", {"user": stranger_id}),
        ("request", {"user": stranger_id}),  # you blocked them
        ("unblock", {"user": stranger_id}),
        ("remove", {"user": str(world["friend"].pk)}),
    ]
    for number, (action, data) in enumerate(actions):
        url = f"/{language}/friends/{action}/"
        audit(htmx_post(member, url, data), language, f"htmx {action} {number}", problems)
        audit(member.post(url, data, follow=True), language, f"form {action} {number}", problems)
    audit(world["guest"].post(f"/{language}/friends/request/", {"user": stranger_id}, follow=True), language,
          "guest request", problems)
    audit(member.post(f"/{language}/accounts/tokens/", {"name": "fresh"}, follow=True), language,
          "fresh token", problems)
    audit(member.post(f"/{language}/accounts/tokens/", {"name": ""}), language, "token error", problems)
    audit(member.post(f"/{language}/accounts/profile/", {"display_name": "Guest 12", "language": "zz"}),
          language, "profile errors", problems)
    audit(member.post(f"/{language}/accounts/password/change/",
                      {"oldpassword": "no", "password1": "1", "password2": "2"}), language,
          "password change errors", problems)
    assert problems == {}, "English left untranslated:\n" + "\n".join(f"{k}: {v}" for k, v in problems.items())


@pytest.mark.parametrize("language", CHECKED_LANGUAGES)
def test_password_reset_mail_and_pages_are_translated(world, language):
    problems = {}
    client = Client()
    audit(client.post(f"/{language}/accounts/password/reset/", {"email": "nino@example.org"}, follow=True),
          language, "reset requested", problems)
    message = mail.outbox[-1]
    for label, text in [("subject", message.subject), ("body", message.body)]:
        found = untranslated_in(text, language)
        if found:
            problems[f"mail {label}"] = found
    link = re.search(r"https?://\S+", message.body).group(0)
    response = client.get(link.split("testserver", 1)[1], follow=True)
    audit(response, language, "reset from key", problems)
    assert problems == {}, "English left untranslated:\n" + "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_english_pages_render_everywhere(world):
    for who in ["visitor", "member", "guest"]:
        for path in pages_to_check("en"):
            assert world[who].get(path).status_code < 500, path


def test_every_full_page_has_the_language_switcher_and_no_outside_resources(world):
    for who in ["visitor", "member", "guest"]:
        for path in pages_to_check("ka"):
            response = world[who].get(path)
            page = response.content.decode()
            if "<html" not in page:
                continue
            # The offline page stands in for a page while there is no network, where the
            # switcher (a form posted to the server) cannot work: it has none (docs/pwa.md).
            if path != "/ka/offline/":
                assert 'action="/i18n/setlang/"' in page, f"no language switcher on {path}"
            loaded = re.findall(r'<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\ssrc="([^"]+)"', page)
            # A <link> loads something unless it only names a page (canonical, translations).
            loaded += [
                re.search(r'\shref="([^"]+)"', tag).group(1)
                for tag in re.findall(r"<link\b[^>]*>", page)
                if 'href="' in tag and not re.search(r'rel="(canonical|alternate)"', tag)
            ]
            assert loaded, path
            for value in loaded:
                assert not re.match(r"(https?:)?//", value), f"{path} loads {value} from outside"
