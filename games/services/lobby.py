"""The lobby's list of open tables, in a fixed number of queries."""

from django.db.models import Count, Q

from accounts.friends import friend_ids

from ..models import Table, TableStatus, Visibility


def visible_open_tables(player, *, variant=None, stake=None):
    """Open tables this player may see: open and password tables for everyone,
    friends-only tables for the creator and the creator's friends.

    Two queries whatever the number of tables: the player's friends, then the
    tables with their creators and seat counts."""
    visible = Q(visibility__in=[Visibility.OPEN, Visibility.PASSWORD])
    if player is not None and not player.is_guest:
        friends = list(friend_ids(player.user))
        visible |= Q(creator=player) | Q(visibility=Visibility.FRIENDS, creator__user_id__in=friends)
    tables = (
        Table.objects.filter(status=TableStatus.OPEN)
        .filter(visible)
        .select_related("creator__user")
        .annotate(seats_taken=Count("seats"))
        .order_by("-created_at")
    )
    if variant:
        tables = tables.filter(variant=variant)
    if stake is not None:
        tables = tables.filter(stake=stake)
    return tables
