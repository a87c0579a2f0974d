"""{% chat_panel %}: the table chat beside the table (the match page and the waiting page);
{% place_chat_panel place %}: the chat of a place (a tournament's page)."""

from django import template

from accounts.players import player_for_request

from .. import services
from ..models import ChatReport
from ..phrases import PHRASES, PLACE_PHRASES

register = template.Library()


@register.inclusion_tag("chat/_panel.html", takes_context=True)
def chat_panel(context):
    table = context["table"]
    player = player_for_request(context["request"])
    room, said = services.history(table.pk, player)
    return {"chat": _panel(player, said, room=room, can_write=player is not None)}


@register.inclusion_tag("chat/_place_panel.html", takes_context=True)
def place_chat_panel(context, place):
    """The chat of a place ("tournament:12") on its page, with its own socket: everyone reads,
    who may write is the place's rule."""
    player = player_for_request(context["request"], create=False)
    said = services.place_history(place, player)
    return {"chat": _panel(player, said, room="place", can_write=services.place_writer(place, player),
                           phrases=PLACE_PHRASES),
            "place_path": place.replace(":", "/"), "LANGUAGE_CODE": context.get("LANGUAGE_CODE")}


def _panel(player, said, room, can_write, phrases=PHRASES) -> dict:
    reported = set()
    if player is not None and said:
        reported = set(ChatReport.objects.filter(reporter=player, message__in=said).values_list("message_id", flat=True))
    messages = []
    for message in said:
        mine = player is not None and message.author_id == player.pk
        messages.append({"event": services.message_event(message), "mine": mine, "reported": message.pk in reported,
                         "can_report": player is not None and not mine, "said": message.shown_text()})
    return {
        "room": room,
        "messages": messages,
        "phrases": [(key, str(words)) for key, words in phrases.items()],
        "can_write": can_write,
        "can_write_text": can_write and not player.is_guest and player.user_id is not None,
        "max_length": services.MAX_TEXT,
    }
