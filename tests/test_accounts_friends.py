"""Friends: find, request, accept, decline, cancel, remove, block; refusals; htmx and plain forms;
the query functions the lobby uses."""

import pytest
from accounts_support import body, client_for, fast_password_hashing, guest_client, htmx_post, make_member  # noqa: F401
from django.test import Client
from django.utils import translation

from accounts import friends
from accounts.models import Block, Friendship, Player
from accounts.players import create_guest_player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_messages():
    """Outside a request the site speaks Georgian; these tests read the English messages."""
    with translation.override("en"):
        yield


@pytest.fixture
def nino():
    return make_member("nino_k", display_name="Nino")


@pytest.fixture
def levan():
    return make_member("levan_b", display_name="Levani")


def rows():
    return list(Friendship.objects.values_list("user_low_id", "user_high_id", "status"))


# --- The service functions -------------------------------------------------------------------


def test_request_then_accept_makes_one_friendship(nino, levan):
    assert friends.send_friend_request(nino, levan).code == "sent"
    assert friends.relation(nino, levan) == "request_sent"
    assert friends.relation(levan, nino) == "request_received"
    assert not friends.are_friends(nino, levan)
    assert friends.accept_friend_request(levan, nino).code == "accepted"
    assert friends.are_friends(nino, levan) and friends.are_friends(levan, nino)
    assert friends.friend_ids(nino) == {levan.pk} and friends.friend_ids(levan) == {nino.pk}
    assert len(rows()) == 1


def test_duplicate_request_changes_nothing(nino, levan):
    friends.send_friend_request(nino, levan)
    assert friends.send_friend_request(nino, levan).code == "already_sent"
    assert rows() == [(min(nino.pk, levan.pk), max(nino.pk, levan.pk), Friendship.PENDING)]


def test_crossing_requests_end_as_one_friendship(nino, levan):
    friends.send_friend_request(nino, levan)
    outcome = friends.send_friend_request(levan, nino)
    assert outcome.code == "accepted"
    assert rows() == [(min(nino.pk, levan.pk), max(nino.pk, levan.pk), Friendship.ACCEPTED)]


def test_requesting_an_existing_friend_says_so(nino, levan):
    friends.send_friend_request(nino, levan)
    friends.accept_friend_request(levan, nino)
    assert friends.send_friend_request(levan, nino).code == "already_friends"
    assert len(rows()) == 1


def test_decline_removes_the_request_and_allows_asking_again(nino, levan):
    friends.send_friend_request(nino, levan)
    friends.decline_friend_request(levan, nino)
    assert rows() == []
    assert friends.send_friend_request(nino, levan).code == "sent"


def test_cancel_withdraws_only_your_own_request(nino, levan):
    friends.send_friend_request(nino, levan)
    with pytest.raises(friends.FriendshipRefused):
        friends.cancel_friend_request(levan, nino)  # it is not Levan's request
    friends.cancel_friend_request(nino, levan)
    assert rows() == []


def test_accepting_a_request_that_was_cancelled_is_refused(nino, levan):
    friends.send_friend_request(nino, levan)
    friends.cancel_friend_request(nino, levan)
    with pytest.raises(friends.FriendshipRefused, match="no longer exists"):
        friends.accept_friend_request(levan, nino)
    assert not friends.are_friends(nino, levan)


def test_accepting_your_own_request_is_refused(nino, levan):
    friends.send_friend_request(nino, levan)
    with pytest.raises(friends.FriendshipRefused):
        friends.accept_friend_request(nino, levan)
    assert not friends.are_friends(nino, levan)


def test_remove_friend_ends_the_friendship_for_both(nino, levan):
    friends.send_friend_request(nino, levan)
    friends.accept_friend_request(levan, nino)
    friends.remove_friend(levan, nino)
    assert not friends.are_friends(nino, levan) and rows() == []
    with pytest.raises(friends.FriendshipRefused):
        friends.remove_friend(levan, nino)


def test_requesting_yourself_is_refused(nino):
    with pytest.raises(friends.FriendshipRefused, match="yourself"):
        friends.send_friend_request(nino, nino)
    assert rows() == []


def test_requesting_a_guest_is_refused(nino):
    guest = create_guest_player()
    with pytest.raises(friends.FriendshipRefused, match="Guests cannot be added as friends"):
        friends.send_friend_request(nino, guest)
    assert rows() == []


def test_a_guest_cannot_send_requests(levan):
    guest = create_guest_player()
    with pytest.raises(friends.FriendshipRefused, match="Friends are for members"):
        friends.send_friend_request(guest, levan)
    assert rows() == []


def test_a_request_naming_a_member_by_player_works(nino, levan):
    assert friends.send_friend_request(nino, Player.objects.get(user=levan)).code == "sent"


def test_blocking_ends_friendship_and_stops_requests_both_ways(nino, levan):
    friends.send_friend_request(nino, levan)
    friends.accept_friend_request(levan, nino)
    friends.block_user(levan, nino)
    assert rows() == []
    assert friends.is_blocked(nino, levan) and friends.is_blocked(levan, nino)
    with pytest.raises(friends.FriendshipRefused, match="does not accept friend requests from you"):
        friends.send_friend_request(nino, levan)
    with pytest.raises(friends.FriendshipRefused, match="Unblock them first"):
        friends.send_friend_request(levan, nino)
    assert rows() == []


def test_blocking_drops_a_pending_request(nino, levan):
    friends.send_friend_request(nino, levan)
    friends.block_user(levan, nino)
    assert rows() == []
    assert friends.incoming_requests(levan) == []


def test_unblock_allows_requests_again(nino, levan):
    friends.block_user(levan, nino)
    friends.unblock_user(levan, nino)
    assert not friends.is_blocked(nino, levan)
    assert friends.send_friend_request(nino, levan).code == "sent"
    with pytest.raises(friends.FriendshipRefused):
        friends.unblock_user(levan, nino)


def test_blocking_yourself_is_refused(nino):
    with pytest.raises(friends.FriendshipRefused):
        friends.block_user(nino, nino)
    assert not Block.objects.exists()


def test_friends_only_table_access(nino, levan):
    # Who may see and join a friends-only table is decided by tables.can_see alone.
    from games.models import Table, Variant, Visibility
    from games.services.tables import can_see

    stranger = make_member("stranger")
    guest = create_guest_player()
    friends.send_friend_request(nino, levan)
    friends.accept_friend_request(levan, nino)
    table = Table.objects.create(variant=Variant.JAPANESE, visibility=Visibility.FRIENDS, creator=nino.player)
    assert can_see(table, levan.player)  # a friend may join
    assert can_see(table, nino.player)  # the host may
    assert not can_see(table, stranger.player)
    assert not can_see(table, guest)
    assert not can_see(table, None)
    friends.block_user(nino, levan)
    assert not can_see(table, levan.player)


def test_query_helpers_treat_guests_as_strangers(nino):
    guest = create_guest_player()
    assert not friends.are_friends(nino, guest)
    assert not friends.is_blocked(nino, guest)
    assert friends.friend_ids(guest) == set()
    assert friends.blocked_ids(guest) == set()


def test_blocked_ids_cover_both_directions(nino, levan):
    third = make_member("third")
    friends.block_user(nino, levan)
    friends.block_user(third, nino)
    assert friends.blocked_ids(nino) == {levan.pk, third.pk}


def test_search_finds_by_username_or_display_name_but_not_self_or_those_who_blocked_you(nino, levan):
    make_member("levan_other")
    assert {u.username for u in friends.search_users(nino, "levan")} == {"levan_b", "levan_other"}
    assert [u.username for u in friends.search_users(nino, "Levani")] == ["levan_b"]
    assert friends.search_users(nino, "nino") == []
    friends.block_user(levan, nino)
    assert [u.username for u in friends.search_users(nino, "levan")] == ["levan_other"]
    assert friends.search_users(nino, "   ") == []


# --- The pages, with and without htmx ---------------------------------------------------------


def test_friends_page_lists_friends_and_requests_both_ways(nino, levan):
    third, fourth = make_member("tamar_q"), make_member("dato_q")
    friends.send_friend_request(nino, levan)
    friends.accept_friend_request(levan, nino)
    friends.send_friend_request(third, nino)
    friends.send_friend_request(nino, fourth)
    page = body(client_for(nino).get("/en/friends/"))
    your_friends = page.index("Your friends")
    incoming = page.index("Friend requests to you")
    outgoing = page.index("Your requests")
    assert "Levani" in page[your_friends:]
    assert "tamar_q" in page[incoming:outgoing]
    assert "dato_q" in page[outgoing:your_friends]


def test_plain_form_flow_search_request_accept_without_javascript(nino, levan):
    nino_client, levan_client = client_for(nino), client_for(levan)
    page = body(nino_client.get("/en/friends/?q=levan"))
    assert "Players found" in page and "Levani" in page and "Add friend" in page
    response = nino_client.post("/en/friends/request/", {"user": levan.pk, "q": "levan"})
    assert response.status_code == 302 and response["Location"] == "/en/friends/?q=levan"
    page = body(nino_client.get(response["Location"]))
    assert "Friend request sent to levan_b." in page and "Request sent" in page
    response = levan_client.post("/en/friends/accept/", {"user": nino.pk}, follow=True)
    assert "You are now friends." in body(response)
    assert friends.are_friends(nino, levan)


def test_htmx_actions_return_the_panel_fragment_with_the_message(nino, levan):
    nino_client, levan_client = client_for(nino), client_for(levan)
    response = htmx_post(nino_client, "/en/friends/request/", {"user": levan.pk, "q": "lev"})
    fragment = body(response)
    assert response.status_code == 200
    assert fragment.startswith('<div id="friends-panel"') and "<html" not in fragment
    assert "Friend request sent to levan_b." in fragment and "Request sent" in fragment

    fragment = body(htmx_post(levan_client, "/en/friends/accept/", {"user": nino.pk}))
    assert "You are now friends." in fragment and 'id="friends-list"' in fragment and "Nino" in fragment

    fragment = body(htmx_post(levan_client, "/en/friends/remove/", {"user": nino.pk}))
    assert "Removed from your friends." in fragment and 'id="friends-list"' not in fragment
    assert not friends.are_friends(nino, levan)


def test_htmx_search_returns_only_the_panel(nino, levan):
    response = client_for(nino).get("/en/friends/?q=Levani", HTTP_HX_REQUEST="true")
    fragment = body(response)
    assert fragment.startswith('<div id="friends-panel"') and "Levani" in fragment


def test_htmx_decline_cancel_block_unblock(nino, levan):
    nino_client, levan_client = client_for(nino), client_for(levan)
    htmx_post(nino_client, "/en/friends/request/", {"user": levan.pk})
    assert "Friend request cancelled." in body(htmx_post(nino_client, "/en/friends/cancel/", {"user": levan.pk}))
    htmx_post(nino_client, "/en/friends/request/", {"user": levan.pk})
    assert "Friend request declined." in body(htmx_post(levan_client, "/en/friends/decline/", {"user": nino.pk}))
    fragment = body(htmx_post(levan_client, "/en/friends/block/", {"user": nino.pk}))
    assert "nino_k is blocked" in fragment and "Blocked players" in fragment
    fragment = body(htmx_post(nino_client, "/en/friends/request/", {"user": levan.pk}))
    assert "levan_b does not accept friend requests from you." in fragment
    assert "Unblocked." in body(htmx_post(levan_client, "/en/friends/unblock/", {"user": nino.pk}))
    assert rows() == [] and not Block.objects.exists()


def test_refusals_come_back_as_messages_on_the_page(nino, levan):
    client = client_for(nino)
    assert "You cannot send a friend request to yourself." in body(
        client.post("/en/friends/request/", {"user": nino.pk}, follow=True)
    )
    assert "There is no such player." in body(client.post("/en/friends/request/", {"user": 999999}, follow=True))
    assert "There is no such player." in body(client.post("/en/friends/request/", {"user": "x"}, follow=True))
    guest = create_guest_player()
    assert "Guests cannot be added as friends" in body(
        client.post("/en/friends/request/", {"player": guest.pk}, follow=True)
    )
    assert rows() == []


def test_refusal_messages_are_translated(nino):
    client = client_for(nino)
    page = body(client.post("/ka/friends/request/", {"user": nino.pk}, follow=True))
    assert "საკუთარ თავს მეგობრობის თხოვნას ვერ გაუგზავნით." in page
    page = body(client.post("/ru/friends/request/", {"user": nino.pk}, follow=True))
    assert "Нельзя отправить запрос в друзья самому себе." in page


def test_friend_actions_need_post(nino, levan):
    response = client_for(nino).get(f"/en/friends/request/?user={levan.pk}")
    assert response.status_code == 405
    assert rows() == []


def test_friends_page_for_a_visitor_explains_friends_are_for_members():
    page = body(Client().get("/en/friends/"))
    assert "Friends are for members" in page and "Find a player by name" not in page


def test_an_anonymous_post_is_refused_with_a_message(levan):
    response = Client().post("/en/friends/request/", {"user": levan.pk}, follow=True)
    assert "Friends are for members." in body(response)
    assert rows() == []


def test_a_guest_with_htmx_gets_the_refusal_in_the_fragment(levan):
    client, _guest = guest_client("en")
    fragment = body(htmx_post(client, "/en/friends/request/", {"user": levan.pk}))
    assert "Friends are for members." in fragment
    assert rows() == []


def test_public_profile_relation_box_works_with_htmx_and_plain_forms(nino, levan):
    client = client_for(nino)
    page = body(client.get("/en/players/levan_b/"))
    assert 'id="relation-box"' in page and "Add friend" in page
    fragment = body(htmx_post(client, "/en/friends/request/", {"user": levan.pk}, target="relation-box"))
    assert fragment.startswith('<section id="relation-box"') and "You have asked to be friends." in fragment
    response = client.post(
        "/en/friends/cancel/", {"user": levan.pk, "next": "/en/players/levan_b/"}
    )
    assert response.status_code == 302 and response["Location"] == "/en/players/levan_b/"
    assert rows() == []


def test_next_parameter_cannot_send_you_off_site(nino, levan):
    response = client_for(nino).post("/en/friends/request/", {"user": levan.pk, "next": "https://evil.example/"})
    assert response["Location"] == "/en/friends/"


def test_browser_story_sign_up_switch_to_russian_add_a_friend_and_see_them_listed(levan):
    from accounts_support import PASSWORD

    browser = Client()
    assert browser.post(
        "/ka/accounts/signup/", {"username": "ana_m", "password1": PASSWORD, "password2": PASSWORD}
    ).status_code == 302
    response = browser.post("/i18n/setlang/", {"language": "ru", "next": "/ka/friends/"})
    assert response["Location"] == "/ru/friends/"
    page = body(browser.get("/ru/friends/?q=levan"))
    assert 'lang="ru"' in page and "Найти игрока по имени" in page and "Levani" in page
    browser.post("/ru/friends/request/", {"user": levan.pk})
    client_for(levan).post("/ka/friends/accept/", {"user": browser.session["_auth_user_id"]})
    page = body(browser.get("/ru/friends/"))
    listed = page[page.index("Ваши друзья"):]
    assert "Levani" in listed


def test_htmx_history_restore_gets_the_whole_page(nino):
    response = client_for(nino).get("/en/friends/?q=x", HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    assert "<html" in body(response)
    assert "HX-Request" in response["Vary"]
