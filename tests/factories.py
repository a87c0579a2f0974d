"""Small builders for tests: real users, players and friendships through the real APIs."""

from django.contrib.auth import get_user_model

from accounts.friends import accept_friend_request, send_friend_request
from accounts.players import create_guest_player, player_for_user

PASSWORD = "correct-horse-battery"


def make_user(username):
    """A member who confirmed their e-mail address, so holds the welcome grant (docs/coins.md)."""
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    confirm_email(user)
    return user


def make_unconfirmed_user(username):
    """A member who gave no e-mail address (or never confirmed it): free tables only, no coins."""
    return get_user_model().objects.create_user(username=username, password=PASSWORD)


def confirm_email(user, email=None):
    """The member confirms an address, as allauth's link does (it saves the address verified):
    the welcome grant follows from coins' signal."""
    from allauth.account.models import EmailAddress

    first = not EmailAddress.objects.filter(user=user).exists()
    return EmailAddress.objects.create(user=user, email=email or f"{user.username}@example.com", verified=True,
                                       primary=first)


def make_player(username):
    return player_for_user(make_user(username))


def make_guest():
    return create_guest_player()


def make_friends(a, b):
    send_friend_request(a.user, b.user)
    accept_friend_request(b.user, a.user)


def player_at(match, seat_index):
    """The player sitting in seat `seat_index` of `match` (what `perform` is called with)."""
    from games.models import Seat

    return Seat.objects.select_related("player").get(table_id=match.table_id, index=seat_index).player


def walk_out_of(match_id, player):
    """`player` walks out of a running match: their only page closes and the grace time runs
    out without them (games/services/matches.py grace_ran_out, a `disconnected` walk-out in a
    rated match, docs/conduct.md). The other players' pages are not counted as closed."""
    from games.models import Match, Seat
    from games.services import presence
    from games.services.matches import grace_ran_out

    match = Match.objects.get(pk=match_id)
    seat_id = presence.connected(match.table_id, player)
    presence.disconnected(seat_id)
    assert grace_ran_out(seat_id, Seat.objects.get(pk=seat_id).disconnected_at)


def resign_and_forgive(match_id, player):
    """`player` resigns a match to give a test a finished rated match quickly, and any walk-out
    and pause of theirs is forgiven at once (a resignation itself is no walk-out, docs/conduct.md):
    a test that builds a rating history this way is about ratings, not about pauses."""
    from conduct.models import Pause, WalkOut
    from games.services.matches import resign

    resign(match_id, player)
    Pause.objects.filter(player=player).delete()
    WalkOut.objects.filter(player=player).delete()
