"""The cards a view (or any JSON holding views: a protocol frame) shows of the deal being played.

From the moment a deal is dealt until its first card, a view still recalls the deal before:
its final trick (`last_trick`, whose `deal` is the earlier one) and that deal's `tricks`.
Those cards were played face up, so they are public, though the new deal may have dealt
the same cards into someone's hand: a check for hidden cards leaves them out, as
tests/live_clients.py leaves out the page's `<!-- earlier deal -->`."""

from games.engine.cards import CARD_INDEX


def recalls_an_earlier_deal(view: dict) -> bool:
    last = view.get("last_trick")
    return isinstance(last, dict) and "deal_index" in view and last.get("deal") != view["deal_index"]


def cards_of_this_deal(value) -> set[str]:
    """Every card name anywhere in a JSON value, but a view's recall of the deal before."""
    if isinstance(value, str):
        return {value} if value in CARD_INDEX else set()
    if isinstance(value, dict):
        skipped = {"last_trick", "tricks"} if recalls_an_earlier_deal(value) else set()
        return set().union(set(), *(cards_of_this_deal(v) for k, v in value.items() if k not in skipped))
    if isinstance(value, list):
        return set().union(set(), *(cards_of_this_deal(v) for v in value))
    return set()
