"""The header's notices and friends online, as the page renders them and as the
site-wide socket pushes them (the same templates, in the reader's language)."""

from django.template.loader import render_to_string
from django.utils import translation

from . import notify, presence
from .invitations import state_of


def notices_context(user_id: int) -> dict:
    shown = list(notify.unread(user_id)[:notify.NOTICES_SHOWN])
    for notice in shown:
        notice.invitation_state = state_of(notice.invitation) if notice.invitation_id else ""
    # The newest invitation the member can still take is also a banner on every page.
    banner = next((notice for notice in shown if notice.invitation_state == "open"), None)
    return {"notices": shown, "unread_count": notify.unread_count(user_id), "banner_invitation": banner}


def friends_context(user_id: int) -> dict:
    return {"friends_online": presence.friends_online(user_id)}


def notices_fragment(user_id: int, language: str, unread_before: int | None) -> tuple[str, int]:
    """The bell's count and list (swapped in by id), and a spoken line when more came."""
    with translation.override(language):
        context = notices_context(user_id) | {"oob": True}
        count = context["unread_count"]
        context["announce"] = unread_before is not None and count > unread_before
        return render_to_string("notices/_notices.html", context), count


def friends_fragments(user_id: int, language: str, friends_page: bool) -> str:
    with translation.override(language):  # the links' language prefix too
        context = friends_context(user_id) | {"oob": True}
        html = render_to_string("notices/_friends_menu.html", context)
        if friends_page:
            html += render_to_string("notices/_friends_online_section.html", context)
    return html
