from django import template
from django.utils import timezone

from ..invitations import open_invitations
from ..rendering import friends_context, notices_context

register = template.Library()


def _member(context):
    user = context.get("user")
    return user if user is not None and user.is_authenticated else None


@register.inclusion_tag("notices/_header.html", takes_context=True)
def header_social(context):
    """The header's friends online and notices bell (members only)."""
    user = _member(context)
    if user is None:
        return {"member": False}
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    on_friends_page = match is not None and match.view_name == "accounts:friends"
    _table_page_reads_its_notice(request, match, user)
    return {"member": True, "friends_page": on_friends_page, "LANGUAGE_CODE": context.get("LANGUAGE_CODE"),
            "csrf_token": context.get("csrf_token")} | notices_context(user.pk) | friends_context(user.pk)


def _table_page_reads_its_notice(request, match, user):
    """"Your table is full, the match started" is read once its table's page is open."""
    if match is None or match.url_name != "table" or request.method != "GET":
        return
    from ..models import Notice, NoticeKind

    Notice.objects.filter(user=user, kind=NoticeKind.MATCH_STARTED, table_id=match.kwargs.get("table_id"),
                          read_at__isnull=True).update(read_at=timezone.now())


@register.inclusion_tag("notices/_friends_online_section.html", takes_context=True)
def friends_online_section(context):
    user = _member(context)
    return friends_context(user.pk) if user is not None else {"friends_online": []}


@register.inclusion_tag("notices/_invite_panel.html", takes_context=True)
def invite_panel(context, table, player, message="", message_class=""):
    """On a waiting table's page: the seated member's friends, each with an Invite button."""
    from accounts.friends import friends_of
    from games.models import TableStatus
    from games.services.tables import free_seat_count

    from ..presence import online_ids

    shown = (player is not None and player.is_member and table.status == TableStatus.OPEN
             and table.rematch_of_id is None and free_seat_count(table) > 0
             and table.seats.filter(player=player, left_at__isnull=True).exists())
    if not shown:
        return {"shown": False, "message": message, "message_class": message_class}
    seated = set(table.seats.filter(player__user__isnull=False).values_list("player__user_id", flat=True))
    friends = [friend for friend in friends_of(player.user_id) if friend.pk not in seated]
    online = online_ids(friend.pk for friend in friends)
    invited = open_invitations(table.pk, player)
    for friend in friends:
        friend.is_online = friend.pk in online
        friend.invitation = invited.get(friend.pk)
    friends.sort(key=lambda friend: (not friend.is_online, friend.get_username().lower()))
    return {"shown": True, "table": table, "friends": friends, "message": message, "message_class": message_class,
            "csrf_token": context.get("csrf_token")}
