"""The kinds of notification, what each says and where a tap on it leads: one home.

A notification is about one thing, a table or a tournament (`page`: the URL name a tap
opens with its id; `about`: the name its id has in the words), and names at most a friend
or the tournament; never a card, a hand or a score (the payload leaves the site for the
push service)."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Kind:
    label: object  # on the member's notifications page
    title: object
    body: object  # a %-format of the send's params and the subject's id (named `about`)
    page: str = "table"  # the URL name a tap opens, with the subject's id
    about: str = "table"
    # Params shown in the member's language: a tournament's name may be a msgid (the schedule's).
    translated: tuple = ()


KINDS = {
    "your_move": Kind(_("Your move"), _("Your move"), _("It is your move at table %(table)s.")),
    "match_starts": Kind(_("Your match starts"), _("Your match starts"),
                         _("The table %(table)s has filled: your match starts.")),
    "friend_invites": Kind(_("A friend invites you"), _("An invitation"),
                           _("%(friend)s invites you to table %(table)s.")),
    "quickplay_found": Kind(_("A quick-play match is found"), _("A match is found"),
                            _("Your quick-play match is ready at table %(table)s.")),
    "tournament_starts": Kind(_("A tournament I said I'll come to starts"), _("The tournament starts"),
                              _('The tournament "%(name)s" has started: come and play.'), page="tournaments:detail",
                              about="tournament", translated=("name",)),
}
