"""Tables made by the test itself, for scenarios about what happens once a match is
running (creating a table and sitting down by clicking have scenarios of their own).

The test process shares the database with the served site and deals with the same
settings (`site_settings` overrides both), so a match started here is the match the
browsers then open. Its notices to the site's sockets are not needed: nobody's page
is open yet.
"""

from django.contrib.auth import get_user_model

from accounts.players import player_for_user
from games.models import Match
from games.services import tables as table_service
from games.services.tables import TableSettings


def _player(username):
    return player_for_user(get_user_model().objects.get(username=username))


# Display names of up to 40 characters (accounts.Player.display_name), in three scripts: the longest
# a member may choose, for layouts that must hold them.
LONG_NAMES = {"tamar": "ალექსანდრე-გიორგი ბაგრატიონ-მუხრანელი", "levan": "Константин Константинопольский",
              "nino": "ნინო წერეთელი-ჯავახიშვილი", "dato": "Davit Kvaratskhelia-Mamardashvili"}


def give_long_names(usernames):
    """The members named take their LONG_NAMES as display names; returns their players, in order."""
    players = [_player(username) for username in usernames]
    for player, username in zip(players, usernames):
        player.display_name = LONG_NAMES[username]
        player.save(update_fields=["display_name"])
    return players


def seat_members(variant, usernames, **settings) -> int:
    """A table created by the first member, the others seated in order; returns its id.
    Once every seat is taken the match has started."""
    players = [_player(name) for name in usernames]
    table = table_service.create_table(players[0], TableSettings(variant=variant, **settings))
    for player in players[1:]:
        table_service.sit(table.pk, player)
    return table.pk


def seat_two_members_at_a_japanese_table(host, guest, **settings) -> int:
    return seat_members("japanese", [host, guest], **settings)


def match_of(table_id) -> int:
    return Match.objects.values_list("pk", flat=True).get(table_id=table_id)


japanese_match_of = match_of
