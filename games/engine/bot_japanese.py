"""The bot's Japanese Joker player (see bot.py for the API and what the bot may see).

Determinized playouts, as for classic (bot_classic.py):

* What is unseen: the opponent's hand and every face-down card still under a
  column, the bot's own included (nobody sees those until they reach the
  hand). The face-up cards of both players are known, and so is which of
  them the opponent may already use (only the hand until their first card).
* ``sample`` deals the unseen cards: the opponent's hand, then one face-down
  card under each live column of both players.
* ``playout`` plays the deal to its end with a fast policy for both players,
  moving face-down cards into the hand as columns empty (and clearing the
  table when one of two columns is played, rules 3.2): lead a card the
  opponent cannot beat (the lowest such), else a joker naming the suit of the
  opponent's best card, else the lowest card; follow with the cheapest card
  that wins, a joker only to capture a trump or an ace or king, else the
  lowest card; face-up cards before hand cards among equals, since they bring
  a new card into the hand. The master's players (``Search.joker_wise``) also
  answer a joker led with their own, which takes it, and so never lead a
  joker into the other one. The opponent follows the policy only part of the
  time and plays a random legal card otherwise.
* Every candidate card (equal ones merged) is played out on the same samples;
  the one with the best mean trick difference wins. So the bot weighs both
  players' open columns: the opponent's face-up cards are in every sample as
  they are, and cards it could uncover count in the playouts.
"""

from __future__ import annotations

from .actions import Play
from .bot_classic import CLUB_SEARCH, Search, _best_by_playouts, _random_stream, _rationality
from .bot_common import bits, suit_index
from .rules import (
    ABOVE,
    BELOW,
    CARD_INDEX,
    CARD_NAMES,
    FULL_DECK,
    JOKER_MASK,
    MODE_TAKE,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    X1,
    X2,
    japanese_beaters,
    japanese_follower_wins,
    lead_of,
    legal_follow,
    play_from_column,
)

TRICKS = 18


class JapaneseKnowledge:
    __slots__ = ("down_counts", "opp", "opp_hand", "pool", "seat", "trump", "trump_mask")

    def __init__(self, obs):
        self.seat = obs.seat
        self.opp = 1 - obs.seat
        trump = obs.trump if obs.trump is not None else -1
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        played = 0
        for _s, c, _m, _n in obs.plays:
            played |= 1 << c
        ups = obs.face_up[0] | obs.face_up[1]
        self.pool = FULL_DECK & ~obs.hand & ~ups & ~played
        self.opp_hand = obs.hand_counts[self.opp]
        self.down_counts = [len(obs.columns[0]), len(obs.columns[1])]

    def sample(self, rng):
        """(opponent's hand, face-down cards under each seat's live columns) in one random deal."""
        cards = bits(self.pool)
        rng.shuffle(cards)
        k = self.opp_hand
        opp_hand = 0
        for c in cards[:k]:
            opp_hand |= 1 << c
        downs = []
        for s in (0, 1):
            n = self.down_counts[s]
            downs.append(cards[k : k + n])
            k += n
        return opp_hand, downs


# --- the playout ---------------------------------------------------------------------------------


class _Table:
    """Both players' cards during a playout: hands, columns [face_down, face_up] (the live ones,
    or None for an emptied one), first-card flags."""

    __slots__ = ("cols", "first_done", "hands", "ups")

    def __init__(self, hands, cols, first_done):
        self.hands = hands
        self.cols = cols
        self.ups = [sum(1 << col[1] for col in cols[s] if col is not None) for s in (0, 1)]
        self.first_done = first_done

    def available(self, seat: int) -> int:
        return self.hands[seat] | self.ups[seat] if self.first_done[seat] else self.hands[seat]

    def play(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.first_done[seat] = True
        if self.hands[seat] & bit:
            self.hands[seat] ^= bit
            return
        cols = self.cols[seat]
        index = next(i for i, col in enumerate(cols) if col is not None and col[1] == card)
        self.hands[seat], self.ups[seat] = play_from_column(cols, index, self.hands[seat], self.ups[seat])


# Every card of each rank (jokers aside).
_RANK_MASK = tuple(sum(1 << (9 * s + r) for s in range(4)) & ~JOKER_MASK for r in range(9))


def _lowest_useful_first(mask: int, ups: int, trump_mask: int) -> int:
    """The lowest card of ``mask`` (side suits before trumps), a face-up card before a hand card."""
    plain = mask & ~JOKER_MASK
    if not plain:
        return (mask & -mask).bit_length() - 1
    side = plain & ~trump_mask
    if side:
        plain = side
    best = 9
    for shift in (0, 9, 18, 27):
        chunk = (plain >> shift) & 511
        if chunk:
            r = (chunk & -chunk).bit_length() - 1
            best = min(best, r)
    of_rank = plain & _RANK_MASK[best]
    pick = of_rank & ups or of_rank
    return (pick & -pick).bit_length() - 1


def _policy_lead(table: _Table, seat: int, trump: int, trump_mask: int, joker_wise: bool = False):
    avail = table.available(seat)
    theirs = table.available(1 - seat)
    safe = 0
    if not theirs & JOKER_MASK:  # a joker answers anything
        their_trumps = theirs & trump_mask
        for suit in range(4):
            mine = avail & SUIT_MASK[suit]
            if not mine:
                continue
            their_suit = theirs & SUIT_MASK[suit]
            if their_suit:  # they must follow: our cards above their best one are safe
                safe |= mine & ~((1 << their_suit.bit_length()) - 1)
            elif suit == trump or not their_trumps:
                safe |= mine
    if safe:
        return _lowest_useful_first(safe, table.ups[seat], trump_mask), -1
    jokers = avail & JOKER_MASK
    # A joker led into the other one is lost to it (joker_wise: the follower answers with theirs).
    if jokers and not (joker_wise and theirs & JOKER_MASK and avail & ~JOKER_MASK):
        plain = theirs & ~JOKER_MASK
        if plain:
            if trump >= 0 and plain & trump_mask:
                named = trump
            else:
                top = max(bits(plain), key=lambda c: c % 9)
                named = top // 9
            return (jokers & -jokers).bit_length() - 1, named
    card = _lowest_useful_first(avail, table.ups[seat], trump_mask)
    # Only a joker left (against only a joker: the last trick, which the follower takes whatever
    # is named): a leading joker still names a suit.
    return card, (max(trump, 0) if card == X1 or card == X2 else -1)


def _policy_follow(
    table: _Table, seat: int, lead: int, named: int, trump: int, trump_mask: int, joker_wise: bool = False
) -> int:
    avail = table.available(seat)
    suit, joker_led = lead_of(lead, MODE_TAKE, named)  # a Japanese joker always takes
    jokers = avail & JOKER_MASK
    if joker_wise and joker_led and jokers:
        # A following joker takes even a joker: the trick, and the leader's joker with it.
        return (jokers & -jokers).bit_length() - 1
    legal = legal_follow(avail, suit, joker_led, trump_mask)
    winners = japanese_beaters(legal, lead, named, trump, trump_mask)
    if winners:
        in_suit = winners & SUIT_MASK[suit]
        pick = in_suit or winners
        return _lowest_useful_first(pick, table.ups[seat], trump_mask)
    if jokers and not joker_led and (lead // 9 == trump or lead % 9 >= 7):
        return (jokers & -jokers).bit_length() - 1
    plain = legal & ~JOKER_MASK
    if plain:
        return _lowest_useful_first(plain, table.ups[seat], trump_mask)
    return (jokers & -jokers).bit_length() - 1


def _random_available(legal: int, leading: bool, rnd):
    cards = bits(legal)
    c = cards[int(rnd() * len(cards))]
    return c, (int(rnd() * 4) if leading and (c == X1 or c == X2) else -1)


def playout(
    table: _Table, trump: int, lead, leader: int, tricks_left: int, taken, rnd, rational, trace=None, joker_wise=False
) -> list[int]:
    """Play the deal to its end; ``lead`` is (seat, card, named) of a trick waiting for its answer.
    ``trace``, a list, receives every card played as (seat, card, named) (the tests hold it against the engine).
    ``joker_wise``: the players answer a joker led with their own and lead none into the other one."""
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    while tricks_left:
        if lead is None:
            seat = leader
            if rnd() < rational[seat]:
                card, named = _policy_lead(table, seat, trump, trump_mask, joker_wise)
            else:
                card, named = _random_available(table.available(seat), True, rnd)
            table.play(seat, card)
            if trace is not None:
                trace.append((seat, card, named))
        else:
            seat, card, named = lead
            lead = None
        other = 1 - seat
        if rnd() < rational[other]:
            answer = _policy_follow(table, other, card, named, trump, trump_mask, joker_wise)
        else:
            avail = table.available(other)
            suit, joker_led = lead_of(card, MODE_TAKE, named)
            answer, _ = _random_available(legal_follow(avail, suit, joker_led, trump_mask), False, rnd)
        table.play(other, answer)
        if trace is not None:
            trace.append((other, answer, -1))
        winner = other if japanese_follower_wins(card, named, answer, trump) else seat
        taken[winner] += 1
        leader = winner
        tricks_left -= 1
    return taken


# --- the decision ----------------------------------------------------------------------------------


def _distinct_plays(obs, know: JapaneseKnowledge) -> list[tuple[int, int]]:
    """Legal plays as (card, named suit), equal cards merged (same suit, nothing live between them,
    both from the hand or both face up); the two jokers are alike."""
    live = know.pool | obs.face_up[know.opp]
    up = obs.face_up[obs.seat]
    plays = []
    jokers_seen = set()
    plain = []
    for action in obs.legal:
        card = CARD_INDEX[action.card]
        named = suit_index(action.suit)
        if card == X1 or card == X2:
            if named not in jokers_seen:
                jokers_seen.add(named)
                plays.append((card, named))
        else:
            plain.append(card)
    plain.sort()
    kept = []
    for c in plain:
        if kept:
            last = kept[-1]
            same_place = (up >> last & 1) == (up >> c & 1)
            if SUIT_OF[last] == SUIT_OF[c] and same_place and not (ABOVE[last] & BELOW[c] & live):
                continue
        kept.append(c)
    plays.extend((c, -1) for c in kept)
    return plays


def choose_play(obs, rng, effort: float = 1.0, search: Search = CLUB_SEARCH, know=None) -> Play:
    """The card with the best mean trick difference in playouts. ``know`` deals the samples (by
    default ``JapaneseKnowledge`` of the observation; the bench's all-seeing oracle passes the true deal)."""
    know = know or JapaneseKnowledge(obs)
    me, opp = obs.seat, know.opp
    trump = know.trump
    candidates = _distinct_plays(obs, know)
    if len(candidates) == 1:
        return _as_action(me, candidates[0])
    leading = len(obs.plays) % 2 == 0
    pending = None if leading else obs.plays[-1]
    tricks_left = TRICKS - len(obs.plays) // 2
    rational = _rationality(me, search, 2)
    steps = 2 * tricks_left - (0 if leading else 1)
    wise = search.joker_wise

    def sample():
        opp_hand, downs = know.sample(rng)
        return opp_hand, downs, _random_stream(rng, steps)

    def run(cand, drawn):
        opp_hand, downs, stream = drawn
        hands = [0, 0]
        hands[me] = obs.hand
        hands[opp] = opp_hand
        cols = [[[d, u] for d, u in zip(downs[s], obs.columns[s])] for s in (0, 1)]
        table = _Table(hands, cols, list(obs.first_card_played))
        card, named = cand
        taken = list(obs.taken)
        rnd = iter(stream).__next__
        table.play(me, card)
        if leading:
            taken = playout(table, trump, (me, card, named), me, tricks_left, taken, rnd, rational, None, wise)
        else:
            lead_seat, lead_card, _mode, lead_named = pending
            winner = me if japanese_follower_wins(lead_card, lead_named, card, trump) else lead_seat
            taken[winner] += 1
            taken = playout(table, trump, None, winner, tricks_left - 1, taken, rnd, rational, None, wise)
        return taken[me] - taken[opp]

    best = _best_by_playouts(candidates, sample, run, steps, search.play_budget, _tie_key, effort, search)
    return _as_action(me, best)


def _tie_key(cand) -> float:
    """Among equally good plays keep the jokers and the high cards."""
    card = cand[0]
    return -(20 if card in (X1, X2) else RANK_OF[card])


def _as_action(seat: int, cand) -> Play:
    card, named = cand
    return Play(seat, CARD_NAMES[card], None, SUITS[named] if named >= 0 else None)
