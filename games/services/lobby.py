"""The lobby's list of open tables, in a fixed number of queries."""

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Prefetch, Q

from accounts.friends import friend_ids

from ..models import Match, Seat, Table, TableStatus, Visibility
from . import shown_ratings, spectators
from .spectators import watchable

RUNNING_LIST_LENGTH = 20  # the lobby lists the newest matches being played, this many at most
OPEN_TABLES_PAGE_LENGTH = 20  # the lobby shows the open tables a page of this many at a time


def visible_open_tables(player, *, variant=None, stake=None):
    """Open tables this player may see: open and password tables for everyone,
    friends-only tables for the creator and the creator's friends, a rematch for
    the players of the match before it.

    Two queries whatever the number of tables: the player's friends, then the
    tables with their creators and seat counts."""
    visible = Q(visibility__in=[Visibility.OPEN, Visibility.PASSWORD])
    if player is not None and not player.is_guest:
        friends = list(friend_ids(player.user))
        visible |= Q(creator=player) | Q(visibility=Visibility.FRIENDS, creator__user_id__in=friends)
    # A rematch is listed only to the players of the match before it (they alone may join).
    rematch_for_me = Q(rematch_of__isnull=True)
    if player is not None:
        rematch_for_me |= Q(Exists(Seat.objects.filter(table_id=OuterRef("rematch_of_id"), player=player)))
    tables = (
        Table.objects.filter(status=TableStatus.OPEN)
        .filter(visible)
        .filter(rematch_for_me)
        .select_related("creator__user")
        .annotate(seats_taken=Count("seats"))
        .order_by("-created_at")
    )
    if variant:
        tables = tables.filter(variant=variant)
    if stake is not None:
        tables = tables.filter(stake=stake)
    return tables


@dataclass(frozen=True)
class OpenTablesPage:
    tables: list  # with `waiting` (with_waiting_players)
    number: int  # counted from 1
    has_next: bool


def open_tables_page(player, *, variant=None, stake=None, number=1) -> OpenTablesPage:
    """One page of `visible_open_tables`, newest first, with who waits at each: what the lobby
    renders, the same work however many tables are open. A page past the end gives the first
    (a filter narrowed the list, or tables started)."""
    tables = visible_open_tables(player, variant=variant, stake=stake)
    start = (number - 1) * OPEN_TABLES_PAGE_LENGTH
    listed = with_waiting_players(tables[start:start + OPEN_TABLES_PAGE_LENGTH + 1])
    if not listed and number > 1:
        return open_tables_page(player, variant=variant, stake=stake, number=1)
    return OpenTablesPage(listed[:OPEN_TABLES_PAGE_LENGTH], number, len(listed) > OPEN_TABLES_PAGE_LENGTH)


@dataclass(frozen=True)
class WaitingPlayer:
    name: str
    rating: object | None  # ratings.services.ShownRating; None for a guest: guests play casual only


def with_waiting_players(tables) -> list:
    """The tables with `waiting`: who sits at each, with their rating in its variant.

    Two queries whatever the number of tables: the seats with their players, then
    the ratings of those players."""
    tables = list(tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player__user").order_by("index"))))
    ratings = shown_ratings.shown([(seat.player_id, table.variant) for table in tables for seat in table.seats.all()])
    for table in tables:
        table.waiting = [
            WaitingPlayer(seat.player.display_name_text,
                          None if seat.player.is_guest else ratings.get((seat.player_id, table.variant)))
            for seat in table.seats.all() if seat.player_id is not None
        ]
    return tables


@dataclass(frozen=True)
class RunningMatch:
    """A match being played, as the lobby lists it."""

    table: Table
    players: list  # WaitingPlayer (name and rating), in seat order; a bot's name is "Bot 2"
    deal: int  # the deal being played, counted from 1
    deal_count: int | None  # classic: how many deals the game has; Japanese: None (played to a target)
    spectators: int
    mine: bool  # the player sits there: "back to your table" rather than "watch"


def running_matches(player, *, variant=None, stake=None, limit=RUNNING_LIST_LENGTH) -> list[RunningMatch]:
    """The newest matches being played that `player` may watch (spectators.watchable) or plays
    in, with their players, ratings, deal and spectators. A fixed number of queries: the
    player's friends, the tables, their seats, the players' ratings, the matches, the
    spectator counts; the deal comes from the match's position (the process's cache)."""
    from ..templatetags.cards import seat_name
    from .matches import load_state

    tables = watchable(player).select_related("creator").order_by("-started_at", "-pk")
    if variant:
        tables = tables.filter(variant=variant)
    if stake is not None:
        tables = tables.filter(stake=stake)
    tables = list(tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player__user").order_by("index")))[:limit])
    ratings = shown_ratings.shown([(seat.player_id, table.variant) for table in tables for seat in table.seats.all()
                                   if seat.player_id and not seat.player.is_guest])
    # A running match's document is only its head; load_state reads the log only when this
    # process holds no position of the match at its version.
    matches = {match.table_id: match for match in Match.objects.filter(table__in=tables)}
    watching = spectators.counts(table.pk for table in tables)
    listed = []
    for table in tables:
        match = matches.get(table.pk)
        if match is None:
            continue
        state = load_state(match)
        seats = list(table.seats.all())
        players = [
            WaitingPlayer(
                seat_name({"index": seat.index, "name": seat.player.display_name_text if seat.player_id else None}),
                ratings.get((seat.player_id, table.variant)) if seat.player_id and not seat.player.is_guest else None)
            for seat in seats
        ]
        listed.append(RunningMatch(
            table=table, players=players,
            deal=min(state.deal_index + 1, state.deal_count) if table.variant == "classic" else state.deal_index + 1,
            deal_count=state.deal_count if table.variant == "classic" else None,
            spectators=watching[table.pk],
            mine=player is not None and any(seat.player_id == player.pk for seat in seats),
        ))
    return listed
