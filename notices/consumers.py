"""The site-wide socket every page of a member opens (ws/notices/).

It counts the page for the member's presence (notices/presence.py), and it pushes
the header's notices and the friends online list as HTML fragments swapped in by id
(`hx-swap-oob`), rendered afresh in the page's language whenever a notice comes or
is read, or a friend comes or goes. The page sends nothing: whatever arrives is
dropped. Guests and visitors have no friends and no notices: their handshake is
refused (4403) and their pages do not open it.
"""

import asyncio
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.languages import page_socket_language
from accounts.sockets import MemberSocket
from joker_site.db_threads import in_thread
from joker_site.frame_budget import BudgetedFrames
from joker_site.page_gone import DropFramesToAPageGone

from . import presence
from .rendering import friends_fragments, notices_fragment

CLOSE_NOT_A_MEMBER = 4403
COALESCE_SECONDS = 0.3  # a page moving to the next one closes and opens at once: render once


class NoticesConsumer(BudgetedFrames, MemberSocket, DropFramesToAPageGone, AsyncWebsocketConsumer):
    async def connect(self):
        from accounts.players import player_for_scope

        self.language = page_socket_language(self.scope)
        self.player = await player_for_scope(self.scope)
        if self.player is None or not self.player.is_member:
            await self.close(code=CLOSE_NOT_A_MEMBER)
            return
        self.user_id = self.player.user_id
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="ignore"))
        self.friends_page = query.get("friends", [""])[0] == "1"
        self.unread = None
        self.friends_pending = None
        await self.follow_member(self.player)
        self.group = presence.friends_group(self.user_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await in_thread(presence.page_opened)(self.user_id)
        self.counted = True
        await self.send_notices()
        await self.send_friends()

    async def disconnect(self, code):
        if getattr(self, "friends_pending", None):
            self.friends_pending.cancel()
        await self.forget_member()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "counted", False):
            self.counted = False
            await in_thread(presence.page_closed)(self.user_id)

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the page only listens

    async def notices_changed(self, event):
        await self.send_notices()

    async def friends_changed(self, event):
        if self.friends_pending is None or self.friends_pending.done():
            self.friends_pending = asyncio.ensure_future(self._friends_later())

    async def _friends_later(self):
        await asyncio.sleep(COALESCE_SECONDS)
        await self.send_friends()

    async def send_notices(self):
        html, self.unread = await in_thread(notices_fragment)(self.user_id, self.language, self.unread)
        await self.send(text_data=html)

    async def send_friends(self):
        html = await in_thread(friends_fragments)(self.user_id, self.language, self.friends_page)
        await self.send(text_data=html)
