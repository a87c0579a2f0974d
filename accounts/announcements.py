"""A header notice for members from an app that may not know the notices app.

The social apps sit on one level and do not know each other (docs/architecture.md), yet
one of them (tournaments: "the tournament you said you will come to has started") has
something for the header's notices. It announces it here, below both; notices connects to
`announced` in its `ready()` and keeps one notice per reader and `key`.

An announcement holds what happened, not words: its `kind` (notices words it in the
reader's language), the page a tap opens (`url_name` with `url_args`) and the `subject`'s
name, translated when it is a msgid (the schedule's tournament names are)."""

from dataclasses import dataclass

from django.dispatch import Signal


@dataclass(frozen=True)
class Announcement:
    kind: str  # one of notices' kinds, e.g. "tournament_starts"
    key: str  # once per reader, e.g. "tournament_starts:12"
    url_name: str
    url_args: tuple
    subject: str


announced = Signal()  # announcement=Announcement, user_ids=list of user ids


def announce(announcement: Announcement, user_ids) -> None:
    """Tell these members, inside the caller's transaction (a notice made twice is made once)."""
    announced.send(sender=Announcement, announcement=announcement, user_ids=list(user_ids))
