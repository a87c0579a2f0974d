"""The kinds of notification, what each says and where a tap on it leads: one home.

A notification names a table and, for an invitation, the friend; never a card, a hand or
a score (the payload leaves the site for the push service). "A tournament you joined
starts" comes with the tournaments (there are none yet)."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Kind:
    label: object  # on the member's notifications page
    title: object
    body: object  # a %-format of the send's params


KINDS = {
    "your_move": Kind(_("Your move"), _("Your move"), _("It is your move at table %(table)s.")),
    "match_starts": Kind(_("Your match starts"), _("Your match starts"),
                         _("The table %(table)s has filled: your match starts.")),
    "friend_invites": Kind(_("A friend invites you"), _("An invitation"),
                           _("%(friend)s invites you to table %(table)s.")),
    "quickplay_found": Kind(_("A quick-play match is found"), _("A match is found"),
                            _("Your quick-play match is ready at table %(table)s.")),
}
