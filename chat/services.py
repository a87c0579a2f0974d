"""Saying something at a table, reading a room's history, reporting a message.

`post` is the one way a message is made, from the page's socket and from the
JSON protocol alike: it checks the input, locks the author's player row (so that
two tabs or two web processes count the author's messages one after the other),
checks the mute and the flood limits against the messages stored in the
database (shared by every web process), stores the message and, once committed,
sends it to the room's readers. A message the word filter catches is stored but
sent to nobody: the author's own connection shows it, marked as seen by them only.

`post_in_place` is the same for the chat of a place another app owns (a tournament's:
`place` "tournament:12"): one room, everyone reads, and who may write is the place's own
rule (accounts/access.py `chat_place_refusal`); the mute, the flood limits, the word filter
and the reports are the table chat's.

Every refusal is a `ChatRefusal` with a sentence for the author, and changes nothing.
"""

import math
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import access
from accounts.models import Player
from games.models import Match, Table
from games.services.matches import held_seat
from joker_site.events import group_send
from joker_site.refusals import Refusal

from . import wordfilter
from .models import ChatMessage, ChatReport, Room
from .phrases import PHRASES, PLACE_PHRASES, phrase_text

MAX_TEXT = ChatMessage._meta.get_field("text").max_length  # 200
HISTORY_LENGTH = 50


class ChatRefusal(Refusal):
    code = "chat_refused"


# Every code a chat refusal may carry (docs/protocol.md, Error codes).
REFUSAL_CODES = frozenset({
    "bad_chat", "empty_message", "too_long", "unknown_phrase", "guests_phrases_only", "not_signed_in",
    "friends_only", "no_such_table", "not_at_table", "muted", "too_fast", "too_many",
    "no_such_message", "own_message", "already_reported", "no_such_place", "not_a_participant",
})


def limits() -> dict:
    """The flood limits: a burst (so many in so many seconds) and a per-minute count."""
    return {
        "burst": settings.CHAT_BURST_MESSAGES,
        "burst_seconds": settings.CHAT_BURST_SECONDS,
        "minute": settings.CHAT_MINUTE_MESSAGES,
    }


def chat_group(table_id: int, room: str) -> str:
    return f"chat-{table_id}-{room}"


def place_group(place: str) -> str:
    return "chat-place-" + place.replace(":", "-")


def read_place(place) -> tuple[str, int]:
    """("tournament", 12) of "tournament:12", a kind some app registered; else no_such_place."""
    kind, _sep, number = str(place).partition(":")
    if kind not in access.chat_place_kinds() or not number.isdigit():
        raise ChatRefusal("no_such_place", _("There is no such chat."))
    return kind, int(number)


def room_of(table, player) -> str:
    """The players' room for who sits at the table now, the spectators' for everyone else."""
    seats = table.seats.all()
    return Room.PLAYERS if held_seat(seats, player) is not None else Room.SPECTATORS


def room_for(table_id: int, player) -> str:
    table = Table.objects.prefetch_related("seats").get(pk=table_id)
    return room_of(table, player)


# --- checking what was sent -------------------------------------------------------------

def read_input(phrase, text, phrases=PHRASES) -> tuple[str, str]:
    """(phrase key, text): exactly one of them, each well-formed; a phrase one of `phrases`."""
    if phrase is not None and text is not None:
        raise ChatRefusal("bad_chat", _("Send a quick phrase or a text, not both."))
    if phrase is not None:
        if not isinstance(phrase, str) or phrase not in phrases:
            raise ChatRefusal("unknown_phrase", _("There is no such quick phrase."))
        return phrase, ""
    if text is None:
        raise ChatRefusal("empty_message", _("Write something first."))
    if not isinstance(text, str):
        raise ChatRefusal("bad_chat", _("A chat message is text."))
    text = " ".join(text.split())  # no line breaks or runs of spaces: one line in the panel
    if not text:
        raise ChatRefusal("empty_message", _("Write something first."))
    if len(text) > MAX_TEXT:
        raise ChatRefusal("too_long", _("A message is at most %(count)d characters (this one has %(length)d).")
                          % {"count": MAX_TEXT, "length": len(text)})
    return "", text


def _check_author(player, table, text) -> None:
    if player is None:
        raise ChatRefusal("not_signed_in", _("Sign in or play as a guest to chat."))
    if text and (player.is_guest or player.user_id is None):
        raise ChatRefusal("guests_phrases_only", _("Guests may send the quick phrases only. Sign up to write."))
    from games.services.tables import can_see

    if not can_see(table, player):
        raise ChatRefusal("friends_only", _("This table is for the creator's friends only."))


def _check_mute(player) -> None:
    """A mute (moderation's, asked through accounts/access.py) keeps the player out of every chat."""
    refusal = access.chat_refusal(player)
    if refusal is not None:
        raise ChatRefusal(refusal.code, refusal.message, refusal.params)


def _check_flood(player, now) -> None:
    rules = limits()
    minute_ago = now - timedelta(seconds=60)
    recent = list(ChatMessage.objects.filter(author=player, created_at__gt=minute_ago)
                  .order_by("-created_at").values_list("created_at", flat=True)[: rules["minute"]])
    burst_start = now - timedelta(seconds=rules["burst_seconds"])
    in_burst = [at for at in recent if at > burst_start]
    if len(in_burst) >= rules["burst"]:
        wait = in_burst[rules["burst"] - 1] + timedelta(seconds=rules["burst_seconds"]) - now
        raise ChatRefusal("too_fast", _("Not so fast: wait %(seconds)d s before your next message.")
                          % {"seconds": max(1, math.ceil(wait.total_seconds()))},
                          {"retry_after": max(1, math.ceil(wait.total_seconds()))})
    if len(recent) >= rules["minute"]:
        wait = recent[rules["minute"] - 1] + timedelta(seconds=60) - now
        raise ChatRefusal("too_many", _("That is %(count)d messages in a minute: wait %(seconds)d s.")
                          % {"count": rules["minute"], "seconds": max(1, math.ceil(wait.total_seconds()))},
                          {"retry_after": max(1, math.ceil(wait.total_seconds()))})


# --- saying something ---------------------------------------------------------------------

def post(table_id, player, phrase=None, text=None, from_channel=None) -> ChatMessage:
    """Say a quick phrase (its key) or a text at the table, in the author's room.
    `from_channel`: the connection it came from, which shows it itself."""
    phrase, text = read_input(phrase, text)
    table = Table.objects.select_related("creator__user").prefetch_related("seats").filter(pk=table_id).first()
    if table is None:
        raise ChatRefusal("no_such_table", _("There is no such table."))
    _check_author(player, table, text)
    room = room_of(table, player)
    return _say(player, phrase, text, chat_group(table.pk, room), from_channel,
                table=table, match=Match.objects.filter(table=table).first(), room=room)


def post_in_place(place, player, phrase=None, text=None, from_channel=None) -> ChatMessage:
    """Say a quick phrase or a text in the chat of a place (e.g. "tournament:12"): the place's
    own rule says who may write (everyone may read)."""
    phrase, text = read_input(phrase, text, PLACE_PHRASES)
    kind, place_id = read_place(place)
    if player is None:
        raise ChatRefusal("not_signed_in", _("Sign in or play as a guest to chat."))
    if text and (player.is_guest or player.user_id is None):
        raise ChatRefusal("guests_phrases_only", _("Guests may send the quick phrases only. Sign up to write."))
    refusal = access.chat_place_refusal(kind, place_id, player)
    if refusal is not None:
        raise ChatRefusal(refusal.code, refusal.message, refusal.params)
    place = f"{kind}:{place_id}"
    return _say(player, phrase, text, place_group(place), from_channel, place=place, room=Room.PLAYERS)


def _say(player, phrase, text, group, from_channel, **where) -> ChatMessage:
    """Store the message (where: its table, match and room, or its place) once the mute and the
    flood limits allow it, and send it to the group's readers after the commit."""
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()  # one message of an author at a time
        now = timezone.now()
        _check_mute(player)
        _check_flood(player, now)
        message = ChatMessage.objects.create(
            author=player, author_label=str(player.display_name_text)[:150], phrase=phrase, text=text,
            filtered=bool(text) and not wordfilter.is_clean(text), created_at=now, **where,
        )
        if message.seen_by_others:
            event = {"type": "chat.message", "message": message_event(message), "from_channel": from_channel}
            transaction.on_commit(lambda: group_send(group, event))
    return message


def message_event(message) -> dict:
    """What a room's connections are told of a message; each words a phrase in its reader's language."""
    return {
        "id": message.pk,
        "table": message.table_id,
        "place": message.place or None,
        "room": message.room,
        "author": {"id": message.author_id, "name": message.author_label},
        "phrase": message.phrase or None,
        "text": message.text or None,
        "filtered": message.filtered,
        "at": message.created_at.isoformat(),
    }


def as_reader_sees(event: dict) -> dict:
    """A message for the protocol, in the active language: a phrase's key and its words."""
    shown = dict(event)
    shown["text"] = phrase_text(event["phrase"]) if event["phrase"] else event["text"]
    return shown


def history(table_id, player, limit=HISTORY_LENGTH) -> tuple[str, list[ChatMessage]]:
    """(the reader's room, its last messages, oldest first): what others see, and the reader's own
    filtered messages."""
    table = Table.objects.prefetch_related("seats").get(pk=table_id)
    room = room_of(table, player)
    shown = ChatMessage.objects.filter(table_id=table_id, room=room, hidden_at__isnull=True)
    return room, _latest(shown, player, limit)


def place_history(place, player, limit=HISTORY_LENGTH) -> list[ChatMessage]:
    """A place's last messages, oldest first: what others see, and the reader's own filtered ones."""
    kind, place_id = read_place(place)
    shown = ChatMessage.objects.filter(place=f"{kind}:{place_id}", hidden_at__isnull=True)
    return _latest(shown, player, limit)


def place_writer(place, player) -> bool:
    """Whether `player` may write in the place's chat (the panel's form)."""
    kind, place_id = read_place(place)
    return player is not None and access.chat_place_refusal(kind, place_id, player) is None


def _latest(shown, player, limit) -> list[ChatMessage]:
    """The last `limit` of `shown` that `player` may read (others' filtered ones never), oldest first."""
    if player is not None:
        from django.db.models import Q

        shown = shown.filter(Q(filtered=False) | Q(author=player))
    else:
        shown = shown.filter(filtered=False)
    latest = list(shown.order_by("-created_at", "-id")[:limit])
    return latest[::-1]


def room_has_hidden(table_id, room) -> bool:
    """Whether a moderator hid any message of this room (a page drawn before may still show it)."""
    return ChatMessage.objects.filter(table_id=table_id, room=room, hidden_at__isnull=False).exists()


# --- reports ------------------------------------------------------------------------------

def report(message_id, player) -> ChatReport:
    """A reader reports a message they can see: it goes to the moderators' queue."""
    if player is None:
        raise ChatRefusal("not_signed_in", _("Sign in or play as a guest to chat."))
    if type(message_id) is not int:
        raise ChatRefusal("bad_chat", _("Say which message to report."))
    message = ChatMessage.objects.select_related("table").filter(pk=message_id).first()
    if message is None or not message.seen_by_others:
        raise ChatRefusal("no_such_message", _("There is no such message."))
    if message.table_id is not None:  # a place's chat everyone reads; a table's room only its readers
        table = Table.objects.prefetch_related("seats").select_related("creator__user").get(pk=message.table_id)
        from games.services.tables import can_see

        if room_of(table, player) != message.room or not can_see(table, player):
            raise ChatRefusal("no_such_message", _("There is no such message."))
    if message.author_id == player.pk:
        raise ChatRefusal("own_message", _("That is your own message."))
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        if ChatReport.objects.filter(message=message, reporter=player).exists():
            raise ChatRefusal("already_reported", _("You have already reported this message."))
        return ChatReport.objects.create(message=message, reporter=player,
                                         reporter_label=str(player.display_name_text)[:150])


def context_of(message, around=5) -> list[ChatMessage]:
    """The messages said in the message's room just before and after it (the message too)."""
    room = (ChatMessage.objects.filter(place=message.place) if message.place
            else ChatMessage.objects.filter(table_id=message.table_id, room=message.room))
    before = list(room.filter(created_at__lte=message.created_at).exclude(pk=message.pk)
                  .order_by("-created_at", "-id")[:around])[::-1]
    after = list(room.filter(created_at__gte=message.created_at).exclude(pk=message.pk)
                 .exclude(pk__in=[m.pk for m in before]).order_by("created_at", "id")[:around])
    return [*before, message, *after]


def announce_hidden(message) -> None:
    """Take a hidden message off every open page of its room (after the commit)."""
    event = {"type": "chat.hidden", "message_id": message.pk}
    group = place_group(message.place) if message.place else chat_group(message.table_id, message.room)
    transaction.on_commit(lambda: group_send(group, event))
