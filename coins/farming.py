"""Coins farmed by throw-away accounts: pairs of wallets where one keeps losing to the other.

Read from the settled pots alone (`Payout`: its winners; `Stake`: who put in): for each
match paid in the window, every loser's stake is counted against each winner, split evenly
between tied winners. Staff read the pairs in the admin (docs/moderation.md); nothing here
changes a coin.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from .models import Account, Payout, Stake

LOSING_PAIRS_DAYS = 30  # the window looked at
LOSING_PAIR_MIN_MATCHES = 3  # a pair is listed from this many lost matches on


@dataclass(frozen=True)
class LosingPair:
    loser: Account  # wallets
    winner: Account
    matches: int  # matches the loser lost with the winner among the winners
    coins: int  # the loser's stakes in them, the winner's share


def losing_pairs(days=LOSING_PAIRS_DAYS, min_matches=LOSING_PAIR_MIN_MATCHES, now=None):
    """The pairs, most matches first, then most coins."""
    since = (now or timezone.now()) - timedelta(days=days)
    payouts = dict(Payout.objects.filter(created_at__gte=since).values_list("pk", "winner_wallet_ids"))
    tally = defaultdict(lambda: [0, 0])
    stakes = Stake.objects.filter(payout_id__in=payouts).values_list("payout_id", "wallet_id", "amount")
    for payout_id, wallet_id, amount in stakes.iterator():
        winners = set(payouts[payout_id])
        if wallet_id in winners or not winners:
            continue
        for winner_id in winners:
            counted = tally[(wallet_id, winner_id)]
            counted[0] += 1
            counted[1] += amount // len(winners)
    listed = {pair: figures for pair, figures in tally.items() if figures[0] >= min_matches}
    wallets = Account.objects.select_related("user").in_bulk({wallet for pair in listed for wallet in pair})
    pairs = [LosingPair(wallets[loser], wallets[winner], matches, coins)
             for (loser, winner), (matches, coins) in listed.items()]
    return sorted(pairs, key=lambda pair: (-pair.matches, -pair.coins, pair.loser.pk, pair.winner.pk))
