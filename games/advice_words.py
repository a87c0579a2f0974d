"""The hints' and the reviews' words in the player's language.

The engine's advice (games/engine/advice.py) and review (games/engine/review.py) give codes and
facts; this table turns them into short sentences. A move is named on a line of its own ("Ace of
hearts", "Joker, high, naming ♦", "Bid: 2"), so a sentence never has to bend a card's name, and a
suit inside a sentence is its symbol. A test checks that every code has its words here.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from .card_faces import SUIT_SYMBOLS, card_label

REASONS = {
    # the seat's situation
    "need_tricks": gettext_lazy("Tricks you still need: %(need)d of the %(left)d left."),
    "bid_made": gettext_lazy("Your bid is made: take no more tricks."),
    "bid_lost": gettext_lazy("Your bid can no longer be made: each trick you take is worth 10."),
    "pass_kept": gettext_lazy("You passed: take no trick."),
    "pass_lost": gettext_lazy("You passed but took a trick: each trick is worth 10 now."),
    "golden": gettext_lazy("Golden deal: every trick is worth 100."),
    "misere": gettext_lazy("Misère: every trick costs 100."),
    "dealer_forbidden": gettext_lazy("As the dealer you may not bid %(bid)d."),
    "pulka_close": gettext_lazy("You have made every bid of this pulka: make this one too and your best deal "
                                "of it counts twice."),
    "pulka_threat": gettext_lazy("A player who has made every bid of this pulka can close it: then your best "
                                 "score of it, %(best)d, is struck off."),
    # why this move
    "trump_longest": gettext_lazy("Most of your first three cards are of this suit."),
    "trump_strongest": gettext_lazy("Your strongest card is of this suit."),
    "trump_none": gettext_lazy("Your three cards are high and of different suits: a trump would help the others."),
    "bid_dark": gettext_lazy("Nobody has seen a card yet: this bid does best on average."),
    "bid_pass": gettext_lazy("Your cards are unlikely to take a trick."),
    "bid_count": gettext_lazy("Strong cards in your hand (jokers, aces, high trumps): %(strong)d."),
    "only_card": gettext_lazy("It is the only card you may play."),
    "lead_sure": gettext_lazy("Lead it: nobody can beat it."),
    "lead_sure_anyway": gettext_lazy("It will take a trick whenever you play it: better now."),
    "lead_try": gettext_lazy("Lead it: it has the best chance of taking a trick."),
    "lead_low": gettext_lazy("Lead it: a low card the others will beat."),
    "lead_joker_high": gettext_lazy("Everyone must give their highest %(suit)s: the joker takes the trick."),
    "lead_joker_low": gettext_lazy("The highest %(suit)s takes this trick, not your joker."),
    "trump_in": gettext_lazy("You have no %(led)s: your trump takes the trick."),
    "takes_trick": gettext_lazy("It takes the trick: nobody after you can beat it."),
    "takes_for_now": gettext_lazy("It beats the cards on the table now."),
    "takes_anyway": gettext_lazy("This trick is yours anyway: get rid of a high card."),
    "save_winners": gettext_lazy("Keep your strong cards for later: give this one now."),
    "cannot_win": gettext_lazy("You cannot take this trick: give your lowest card."),
    "duck": gettext_lazy("It does not take the trick."),
    "joker_take": gettext_lazy("Nothing can beat the joker now."),
    "joker_take_unless": gettext_lazy("Only the other joker could beat it."),
    "joker_discard": gettext_lazy("As discard the joker gives the trick away."),
    # what became of the player's card in the real deal (the review)
    "fate_took": gettext_lazy("Yours took that trick."),
    "fate_joker": gettext_lazy("Yours was taken by a joker."),
    "fate_trump": gettext_lazy("Yours was taken by a trump."),
    "fate_higher": gettext_lazy("Yours was beaten by a higher card."),
}

JOKER_MOVES = {
    ("take", True): pgettext_lazy("a hint's move", "Joker, high, naming %(suit)s"),
    ("discard", True): pgettext_lazy("a hint's move", "Joker, “let it take”, naming %(suit)s"),
    (None, True): pgettext_lazy("a hint's move", "Joker, naming %(suit)s"),
    ("take", False): pgettext_lazy("a hint's move", "Joker, to take"),
    ("discard", False): pgettext_lazy("a hint's move", "Joker, as discard"),
    (None, False): pgettext_lazy("a hint's move", "Joker"),
}


def reason_sentence(reason: dict | None) -> str | None:
    """A Reason's sentence ({"code", "params"}, as games/services/hints.py keeps it)."""
    if reason is None:
        return None
    params = dict(reason["params"])
    for name in ("suit", "led"):
        if name in params:
            params[name] = SUIT_SYMBOLS[params[name]]
    return str(REASONS[reason["code"]]) % params


def move_words(action: dict) -> str:
    """A move as a hint names it (`action`: the record's form, without the seat)."""
    if "bid" in action:
        return _("Pass") if action["bid"] == 0 else _("Bid: %(n)d") % {"n": action["bid"]}
    if "trump" in action:
        if action["trump"] == "none":
            return _("No trump")
        return _("Trump: %(suit)s") % {"suit": SUIT_SYMBOLS[action["trump"]]}
    card = action["play"]
    if card[0] != "X":
        return card_label(card)
    suit = action.get("suit")
    words = JOKER_MOVES[(action.get("joker"), suit is not None)]
    return str(words) % {"suit": SUIT_SYMBOLS[suit]} if suit else str(words)


def hint_shown(hint: dict) -> dict:
    """What the page shows of a hint: the move, then the situation and the reason (and the version
    of the position it is for)."""
    sentences = [reason_sentence(hint["situation"]), reason_sentence(hint["reason"])]
    return {"move": move_words(hint["action"]), "sentences": [s for s in sentences if s],
            "version": hint.get("version")}


def review_shown(review: dict) -> dict:
    """What the deal's summary shows of a review: the player's bid against the tricks, then the
    moment — where, the move made, the better move and why, and what the play-outs found."""
    seat = review["seat"]
    bid, took = (review["bids"] or [None] * 4)[seat], review["tricks"][seat]
    lines = []
    if bid == 0:
        lines.append(_("You passed and took no trick: your pass is kept.") if took == 0
                     else _("You passed but took tricks: %(took)d.") % {"took": took})
    elif bid is not None:
        if review["made"][seat]:
            lines.append(_("You bid %(bid)d and took %(took)d: your bid is made.") % {"bid": bid, "took": took})
        else:
            lines.append(_("You bid %(bid)d and took %(took)d.") % {"bid": bid, "took": took})
    moment = review["moment"]
    if moment is None:
        if not review["decisions"]:
            lines.append(_("You had no choice to make in this deal."))
        elif not review["differed"]:
            lines.append(_("You played this deal as the strongest bot would have."))
        else:
            lines.append(_("The strongest bot would sometimes have played otherwise, but not better: "
                           "no move of yours cost this deal."))
        return {"lines": lines, "moment": None}
    return {"lines": lines, "moment": _moment_shown(moment)}


def _moment_shown(moment: dict) -> dict:
    if moment["trick"] is not None:
        where = _("The moment: trick %(n)d.") % {"n": moment["trick"]}
    elif "bid" in moment["played"]:
        where = _("The moment: your bid.")
    else:
        where = _("The moment: your trump choice.")
    outcome = _("Bid made in trial deals: with the better move %(better)d/%(n)d, with yours %(yours)d/%(n)d.") % {
        "better": moment["advised_made"], "n": moment["playouts"], "yours": moment["played_made"]}
    gain = round(moment["advised_points"] - moment["played_points"])
    sentences = [reason_sentence(moment["situation"]), reason_sentence(moment["reason"])]
    return {
        "where": where,
        "played": move_words(moment["played"]),
        "fate": reason_sentence(moment["fate"]),
        "advised": move_words(moment["advised"]),
        "why": [s for s in sentences if s],
        "outcome": outcome if moment["advised_made"] != moment["played_made"] else None,
        "points": ngettext("About %(points)d point more.", "About %(points)d points more.", gain) % {"points": gain},
    }
