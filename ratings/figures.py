"""One player's figures from one finished match, read off the engine's score sheet.

Nothing here restates a rule: whether a bid was made, a khishti taken or a
premium won is what the score sheet says (games/engine, `score_sheet()`).
A classic player who left is counted for the match and its place (last) but
not for bids, khishti and premiums: a bot made part of those for them.
"""

from games.models import Variant


def seat_figures(variant: str, state, seat: int, place: int, left: bool) -> dict:
    """The MatchFigures fields of `seat` (a dict: the caller adds match and player)."""
    sheet = state.score_sheet()
    figures = {"variant": variant, "seat": seat, "place": place, "left": left}
    if variant == Variant.JAPANESE:
        totals = sheet["totals"]
        figures["deals_won"] = sum(1 for deal in sheet["deals"] if deal["scores"][seat] > 0)
        figures["difference"] = totals[seat] - totals[1 - seat]
        return figures
    if left:
        return figures
    bidding = [deal for deal in sheet["deals"] if deal["bids"] is not None]
    figures["bids"] = len(bidding)
    figures["bids_exact"] = sum(1 for deal in bidding if deal["bids"][seat] == deal["tricks"][seat])
    figures["khishti"] = sum(1 for deal in sheet["deals"] if deal["khishti"][seat])
    figures["premiums"] = sum(1 for pulka in sheet["pulkas"] if pulka["premium"][seat] > 0)
    return figures
