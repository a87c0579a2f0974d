"""The JSON protocol's `quick_play` message (docs/protocol.md): a part of games.protocol.PlayConsumer (games/socket_parts.py).

`{"type": "quick_play", "action": "join", "variant": "japanese", "stake": 0, "bots": false}`
queues the program's player and answers with the entry's status; `"action": "leave"` takes
it out; `"action": "status"` says where it stands. A program that joined with bots welcome
takes the offer of bots at once with `"action": "bots_now"` (`"bot_level"`: beginner, club or
master; club if left out), as the page's one tap does, or declines it with
`"action": "people_only"`. While it waits the connection follows the
player's group and the queue's: it is told `waiting` again when the number looking changes,
`dropped` when the pairing takes it out, and `paired` (then the match's first `state`, as
after join_table) when it is seated.
"""


from django.utils import translation
from django.utils.translation import gettext as _

from games.frames import reply_to
from games.socket_parts import ProgramPart
from joker_site.db_threads import in_thread
from joker_site.refusals import Refusal

from . import services
from .consumers import StillHere
from .models import EntryStatus, QueueEntry

ACTIONS = ("join", "leave", "status", "bots_now", "people_only")


class QuickPlayProgramPart(ProgramPart):
    """Quick play on the program's socket (games/socket_parts.py): the `quick_play` message,
    and the queue's notices while the connection's player waits."""

    messages = {
        "quick_play": {"action": ("text", True), "variant": ("text", False), "stake": ("whole", False),
                       "bots": ("flag", False), "bot_level": ("text", False)},
    }

    def __init__(self, connection):
        super().__init__(connection)
        self.quick_queue = None  # the queue this connection follows while its player waits (a key)
        self.quick_groups = ()
        self.still_here = None  # tells the queue the player is still there (consumers.StillHere)

    async def on_quick_play(self, message):
        action = message.get("action")
        if action not in ACTIONS:
            raise Refusal("bad_message", _("The field “%(name)s” must be one of: %(choices)s.")
                          % {"name": "action", "choices": ", ".join(ACTIONS)})
        if action == "join":
            await self._follow_quick_play()  # before joining: a pairing at once must reach this socket
            try:
                status = await in_thread(_join)(self.player, message.get("variant"), message.get("stake") or 0,
                                                message.get("bots") or False)
            except Refusal as refusal:
                if refusal.code != "already_waiting":
                    await self._forget_quick_play_if_idle()
                raise
        elif action == "leave":
            status = await in_thread(_leave)(self.player)
        elif action == "bots_now":
            status = await in_thread(_bots_now)(self.player, message.get("bot_level"))
        elif action == "people_only":
            await self._follow_quick_play()  # it keeps waiting: the queue's notices come here
            status = await in_thread(_people_only)(self.player)
        else:
            status = await in_thread(_status)(self.player)
        await self._answer_quick_play(status, message)

    async def _answer_quick_play(self, status, message=None):
        self.quick_queue = [status["variant"], status["stake"], status["rated"]] \
            if status["status"] == EntryStatus.WAITING else None
        if self.still_here is not None:
            await self.still_here.follow(self.quick_queue is not None)
        await self.send_json(reply_to(message, status))
        if status["status"] == EntryStatus.PAIRED:
            await self.follow_table(status["table"])
        if status["status"] != EntryStatus.WAITING:
            await self._forget_quick_play_if_idle()

    async def _follow_quick_play(self):
        if not self.quick_groups:
            self.quick_groups = (services.player_group(self.player.pk), services.QUEUE_GROUP)
            for group in self.quick_groups:
                await self.channel_layer.group_add(group, self.channel_name)
            self.still_here = StillHere(self.player)

    async def _forget_quick_play_if_idle(self):
        if self.quick_queue is None:
            await self.closed()

    async def closed(self):
        """Leave the quick play groups (when the connection closes, or stops waiting)."""
        if self.still_here is not None:
            await self.still_here.stop()
            self.still_here = None
        for group in self.quick_groups:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.quick_groups = ()

    # --- notices (quickplay/services.py) -------------------------------------------------------

    async def quickplay_changed(self, event):
        if self.player is not None and self.quick_queue is not None and event.get("queue") == self.quick_queue:
            status = await in_thread(_status)(self.player)
            if status["status"] == EntryStatus.WAITING:
                await self._answer_quick_play(status)

    # A notice about an entry this connection no longer follows (it answered the join with
    # `paired` already, or left) changes nothing.
    async def quickplay_paired(self, event):
        if self.player is not None and self.quick_queue is not None:
            await self._answer_quick_play(await in_thread(_entry_status)(self.player, event["entry"]))

    async def quickplay_dropped(self, event):
        if self.player is not None and self.quick_queue is not None:
            await self._answer_quick_play(await in_thread(_entry_status)(self.player, event["entry"],
                                                                         self.language))


# --- the database side -----------------------------------------------------------------------

def _join(player, variant, stake, bots) -> dict:
    return services.status_of(services.join(player, variant, stake, bots))


def _leave(player) -> dict:
    return services.status_of(services.leave(player))


def _bots_now(player, bot_level) -> dict:
    return services.status_of(services.bots_now(player, bot_level))


def _people_only(player) -> dict:
    return services.status_of(services.people_only(player))


def _status(player) -> dict:
    """The waiting entry's status, or `{"status": "idle"}` when the player waits for nothing."""
    entry = services.waiting_entry(player)
    if entry is None:
        return {"type": "quick_play", "status": "idle", "variant": None, "stake": None, "rated": None}
    return services.status_of(entry)


def _entry_status(player, entry_id, language=None) -> dict:
    entry = QueueEntry.objects.get(pk=entry_id, player=player)
    status = services.status_of(entry)
    if entry.status == EntryStatus.DROPPED:
        with translation.override(language):
            status["message"] = services.dropped_sentence(entry.reason)
    return status

