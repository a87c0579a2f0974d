"""The bot's classic Joker player (see bot.py for the API and what the bot may see).

Decisions are made by determinized playouts (Monte-Carlo):

* ``ClassicKnowledge`` turns the observation into what is known of the unseen
  cards: which cards are still out, how many each opponent holds, and which
  cards each opponent cannot hold (a seat that did not follow a suit has none
  of it, and no trump either if it did not trump; a seat that answered a joker
  led as take showed its highest card of the named suit).
* ``sample`` deals the unseen cards to the opponents at random, consistently
  with that knowledge (in deals of 1-8 cards the rest stays undealt).
* ``playout`` plays a deal to its end from such a sample with a fast policy:
  each seat wants tricks while it is below (or already above) its bid and not
  once it has made it, and ducks while its sure winners (jokers, trumps above
  every trump still out) can make the rest; wanting a trick it plays a card
  that safely wins it (or the cheapest that wins when last), leads an
  unbeatable card, else throws its lowest; not wanting one it throws its
  highest card that cannot win, discards a joker, or leads low. Opponents follow that policy only part of the time
  and otherwise play a random legal card, so the bot neither trusts them to be
  perfect nor assumes they are foolish.
* A bid is chosen by playing every legal bid out on the same samples and
  keeping the one with the best mean deal score (the score table of rules 2.7,
  so khishti's cost, a pass's +50 and the +10 of an overshoot all count). A
  card is chosen the same way among the legal plays (equal cards merged): the
  current trick is finished and the deal played out after each candidate.
  Candidates are first tried on a few samples; the best few get more.

Everything is sized by a budget of simulated card plays so that a decision
stays far below 50 ms on one core.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Bid, Play
from .bot_common import bits, highest_rank, lowest_rank, suit_index
from .rules import (
    ABOVE,
    BELOW,
    CARD_INDEX,
    CARD_NAMES,
    FULL_DECK,
    GOLDEN,
    JOKER_MASK,
    LED_STRENGTH,
    MISERE,
    MODE_DISCARD,
    MODE_NAMES,
    MODE_OF,
    MODE_TAKE,
    NORMAL,
    RANK_OF,
    STRENGTH,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    TAKE_AT,
    TRUMP_STRENGTH,
    X1,
    X2,
    classic_beaters,
    classic_trick_winner,
    lead_of,
    legal_follow,
    play_strength,
    player_score,
)

# Share of an opponent's moves in a playout that follow the purposeful policy (the rest are random).
OPPONENT_RATIONAL = 0.6
# Simulated card plays a decision may spend (about 4-5 microseconds each).
PLAY_BUDGET = 4000
BID_BUDGET = 5000
MIN_SAMPLES = 6
MAX_SAMPLES = 100
FINALISTS = 3
RESERVE_JOKERS = True
RESERVE_MASTERS = True


@dataclass(frozen=True)
class Search:
    """How much a level searches: budgets of simulated card plays, the samples' cap, the finalists."""

    play_budget: int = PLAY_BUDGET
    bid_budget: int = BID_BUDGET
    max_samples: int = MAX_SAMPLES
    finalists: int = FINALISTS
    opponent_rational: float = OPPONENT_RATIONAL
    # Deals drawn per sample to pick one by how well it fits the opponents' bids (1: no picking).
    bid_draws: int = 1
    # Japanese playouts: answer a joker led with a joker, lead none into the other one (bot_japanese).
    joker_wise: bool = False


CLUB_SEARCH = Search()


# --- what is known of the unseen cards ----------------------------------------------------------


class ClassicKnowledge:
    __slots__ = (
        "_groups",
        "counts",
        "excluded",
        "opp_cards",
        "opponents",
        "out",
        "played",
        "seat",
        "trump",
        "trump_mask",
    )

    def __init__(self, obs):
        self.seat = obs.seat
        trump = obs.trump if obs.trump is not None else -1
        self.trump = trump
        self.trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
        excluded = [0, 0, 0, 0]
        played = 0
        plays = obs.plays
        for start in range(0, len(plays), 4):
            chunk = plays[start : start + 4]
            _, lead, lead_mode, named = chunk[0]
            played |= 1 << lead
            if lead == X1 or lead == X2:
                led = named
                must_high = lead_mode == MODE_TAKE
            else:
                led = SUIT_OF[lead]
                must_high = False
            for seat, card, _mode, _named in chunk[1:]:
                played |= 1 << card
                if card == X1 or card == X2:
                    continue
                suit = SUIT_OF[card]
                if suit != led:
                    excluded[seat] |= SUIT_MASK[led]
                    if self.trump_mask and suit != trump:
                        excluded[seat] |= self.trump_mask
                elif must_high:
                    excluded[seat] |= ABOVE[card]
        self.played = played
        turned = (1 << obs.trump_card) if obs.trump_card >= 0 else 0
        self.out = FULL_DECK & ~obs.hand & ~played & ~turned
        self.excluded = excluded
        counts = list(obs.hand_counts)
        counts[obs.seat] = 0
        self.counts = counts
        self.opponents = [s for s in range(4) if s != obs.seat]
        self.opp_cards = sum(counts)
        # Unseen cards grouped by the opponents that may hold them, most constrained groups first.
        groups = {}
        for c in bits(self.out):
            allowed = tuple(s for s in self.opponents if counts[s] and not excluded[s] >> c & 1)
            groups.setdefault(allowed, []).append(c)
        self._groups = sorted(groups.items(), key=lambda item: len(item[0]))

    def sample(self, rng) -> list[int]:
        """The opponents' hands in one random deal of the unseen cards that fits what is known."""
        hands = [0, 0, 0, 0]
        groups = self._groups
        if len(groups) == 1 and len(groups[0][0]) == len(self.opponents):  # nothing known: deal in order
            cards = list(groups[0][1])
            rng.shuffle(cards)
            pos = 0
            for s in self.opponents:
                n = self.counts[s]
                for c in cards[pos : pos + n]:
                    hands[s] |= 1 << c
                pos += n
            return hands
        room = list(self.counts)
        pile = self.out.bit_count() - self.opp_cards  # undealt cards (deals of 1-8 cards)
        random = rng.random
        for allowed, cards in groups:
            cards = list(cards)
            rng.shuffle(cards)
            for c in cards:
                total = pile
                for s in allowed:
                    total += room[s]
                if total <= 0:  # no consistent place left (rare): anywhere there is room
                    allowed = tuple(s for s in self.opponents if room[s])
                    total = sum(room[s] for s in allowed)
                    if total <= 0:
                        continue
                r = random() * total
                for s in allowed:
                    r -= room[s]
                    if r < 0:
                        hands[s] |= 1 << c
                        room[s] -= 1
                        break
                else:
                    pile -= 1
        return hands


# --- what the bids say ---------------------------------------------------------------------------------

# How sharply a drawn deal loses weight per trick between a seat's bid and the bid its hand suggests.
BID_FIT_SHARPNESS = 1.0
_FIT_WEIGHT = tuple(2.718281828459045 ** (-BID_FIT_SHARPNESS * k) for k in range(40))


def deal_sampler(obs, know, search: Search, rng):
    """A function drawing the opponents' hands. With ``search.bid_draws`` above 1, each sample is
    picked among that many draws of ``know.sample``, each with a weight falling with the distance
    between the opponents' bids and the bids their drawn hands suggest (``quick_bid`` of the hand
    each held when bidding: the cards left plus those it played). A dark deal's bids say nothing."""
    bidders = [s for s in range(4) if s != obs.seat and obs.bids[s] is not None]
    if search.bid_draws <= 1 or not bidders or obs.kind == "dark" or not isinstance(know, ClassicKnowledge):
        return lambda: know.sample(rng)
    played = [0, 0, 0, 0]
    for seat, card, _mode, _named in obs.plays:
        played[seat] |= 1 << card
    trump, n, bids, draws = know.trump, obs.cards, obs.bids, search.bid_draws

    def weighted():
        drawn = [know.sample(rng) for _ in range(draws)]
        weights = []
        for hands in drawn:
            miss = 0
            for s in bidders:
                miss += abs(quick_bid(hands[s] | played[s], trump, n) - bids[s])
            weights.append(_FIT_WEIGHT[miss])
        r = rng.random() * sum(weights)
        for hands, weight in zip(drawn, weights):
            r -= weight
            if r < 0:
                return hands
        return drawn[-1]

    return weighted


# --- the playout policy -----------------------------------------------------------------------------


def _choose_lead(hand: int, seat: int, hands, trump: int, trump_mask: int, want: bool):
    """(card, mode, named suit) the policy leads."""
    plain = hand & ~JOKER_MASK
    others = 0
    for s in range(4):
        if s != seat:
            others |= hands[s]
    if want:
        # An unbeatable side card: top of its suit, and nobody can trump it.
        side = plain & ~trump_mask
        best = -1
        for c in bits(side):
            if others & ABOVE[c]:
                continue
            suit_mask = SUIT_MASK[c // 9]
            safe = True
            if trump_mask:
                for s in range(4):
                    if s != seat and not hands[s] & suit_mask and hands[s] & trump_mask:
                        safe = False
                        break
            if safe and c > best:
                best = c
        if best >= 0:
            return best, 0, -1
        trumps = plain & trump_mask
        if trumps:
            top = trumps.bit_length() - 1
            if not others & ABOVE[top]:
                return top, 0, -1
        if hand & JOKER_MASK:
            joker = X1 if hand & 1 else X2
            if trump >= 0 and others & trump_mask:
                return joker, MODE_TAKE, trump
            named = max(range(4), key=lambda s: (hand & SUIT_MASK[s]).bit_count())
            return joker, MODE_TAKE, named
        return highest_rank(plain, trump_mask), 0, -1
    side = plain & ~trump_mask
    if side:
        beatable = 0
        for c in bits(side):
            if others & ABOVE[c]:
                beatable |= 1 << c
        return lowest_rank(beatable or side), 0, -1
    if plain:
        return lowest_rank(plain), 0, -1
    joker = X1 if hand & 1 else X2
    named = max(range(4), key=lambda s: (others & SUIT_MASK[s]).bit_count())
    return joker, MODE_DISCARD, named


def _choose_follow(
    hand, seat, hands, pos, led, must_high, win_key, win_card, trump, trump_mask, want, keep=0
):
    """(card, mode) the policy plays on a trick already led; ``keep`` jokers are saved for later."""
    legal = legal_follow(hand, led, must_high, trump_mask)
    beat = classic_beaters(legal, win_key, win_card, led, trump_mask)
    plain_beat = beat & ~JOKER_MASK
    jokers = legal & JOKER_MASK
    if want:
        if plain_beat:
            if pos == 4:
                in_suit = plain_beat & SUIT_MASK[led]
                pick = in_suit or plain_beat
                return (pick & -pick).bit_length() - 1, 0
            # The lowest card that beats the best ordinary card anybody still to play could answer with.
            row = STRENGTH[trump + 1][led]
            threat = threat_card = -1
            for k in range(1, 5 - pos):
                their = legal_follow(hands[(seat + k) & 3], led, must_high, trump_mask)
                top = their & trump_mask or their & SUIT_MASK[led]  # their strongest ordinary answer
                if top:
                    card = top.bit_length() - 1
                    if row[card] > threat:
                        threat, threat_card = row[card], card
            if threat < TRUMP_STRENGTH:
                above = plain_beat & SUIT_MASK[led]
                if threat >= LED_STRENGTH:
                    above &= ABOVE[threat_card]
                if above:
                    return (above & -above).bit_length() - 1, 0
                trumps = plain_beat & trump_mask
                if trumps:
                    return (trumps & -trumps).bit_length() - 1, 0
            else:
                trumps = plain_beat & ABOVE[threat_card]
                if trumps:
                    return (trumps & -trumps).bit_length() - 1, 0
            if jokers:
                return (jokers & -jokers).bit_length() - 1, MODE_TAKE
            return highest_rank(plain_beat, trump_mask), 0
        if jokers:
            return (jokers & -jokers).bit_length() - 1, MODE_TAKE
        return lowest_rank(legal & ~JOKER_MASK, trump_mask), 0
    safe = legal & ~beat & ~JOKER_MASK
    if safe:
        return highest_rank(safe, trump_mask), 0
    if jokers and (jokers.bit_count() > keep or not plain_beat):
        return (jokers & -jokers).bit_length() - 1, MODE_DISCARD
    if pos == 4:  # the trick is ours whatever we play: get rid of the biggest card
        return highest_rank(plain_beat, trump_mask), 0
    return lowest_rank(plain_beat, trump_mask), 0


def _random_card(legal: int, leading: bool, rnd):
    cards = bits(legal)
    c = cards[int(rnd() * len(cards))]
    if c == X1 or c == X2:
        return c, (MODE_TAKE if rnd() < 0.5 else MODE_DISCARD), (int(rnd() * 4) if leading else -1)
    return c, 0, -1


def playout(hands, trump, trick, leader, tricks_left, taken, bids, kind, rnd, rational, trace=None) -> list[int]:
    """Play a fully dealt deal to its end; returns the tricks taken by seat.

    ``hands`` is changed. ``trick`` lists the (seat, card, mode, named) of the
    trick in progress; ``bids`` the targets seats play for; ``rational`` per
    seat the share of purposeful moves. ``trace``, a list, receives every card
    played as (seat, card, mode, named) (the tests hold it against the engine).
    """
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    strength = STRENGTH[trump + 1]
    golden = kind == GOLDEN
    misere = kind == MISERE
    while tricks_left:
        if trick:
            s0, c0, m0, n0 = trick[0]
            led, must_high = lead_of(c0, m0, n0)
            row = strength[led]
            win_key = play_strength(row, c0, m0, 0)
            win_card, win_seat = c0, s0
            for position in range(1, len(trick)):
                s, c, m, _n = trick[position]
                k = play_strength(row, c, m, position)
                if k > win_key:
                    win_key, win_card, win_seat = k, c, s
            seat = (trick[-1][0] + 1) & 3
            pos = len(trick) + 1
            trick = None
        else:
            seat = leader
            pos = 1
        while pos <= 4:
            hand = hands[seat]
            keep = 0
            if golden:
                want = True
            elif misere:
                want = False
            else:
                need = bids[seat] - taken[seat]
                want = need != 0
                if 0 < need < tricks_left and RESERVE_JOKERS:
                    sure = (hand & JOKER_MASK).bit_count()
                    if RESERVE_MASTERS and trump_mask and sure < need:
                        # Trumps above every trump the others hold win whenever they are played.
                        others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand & trump_mask
                        sure += (hand & trump_mask & ~((1 << others.bit_length()) - 1)).bit_count()
                    if need <= sure:
                        # Sure winners alone can make the bid: duck now and keep them for the end.
                        want = False
                        keep = min(need, (hand & JOKER_MASK).bit_count())
            if pos == 1:
                if rnd() < rational[seat]:
                    c, m, named = _choose_lead(hand, seat, hands, trump, trump_mask, want)
                else:
                    c, m, named = _random_card(hand, True, rnd)
                led, must_high = lead_of(c, m, named)
                row = strength[led]
                win_key = play_strength(row, c, m, 0)
                win_card, win_seat = c, seat
                if trace is not None:
                    trace.append((seat, c, m, named))
            else:
                if rnd() < rational[seat]:
                    c, m = _choose_follow(
                        hand,
                        seat,
                        hands,
                        pos,
                        led,
                        must_high,
                        win_key,
                        win_card,
                        trump,
                        trump_mask,
                        want,
                        keep,
                    )
                else:
                    cards = bits(legal_follow(hand, led, must_high, trump_mask))
                    c = cards[int(rnd() * len(cards))]
                    m = (MODE_TAKE if rnd() < 0.5 else MODE_DISCARD) if c == X1 or c == X2 else 0
                # play_strength at position pos - 1, inlined: this is the hottest loop (a joker's row entry is -1).
                k = TAKE_AT[pos - 1] if m == MODE_TAKE else row[c]
                if k > win_key:
                    win_key, win_card, win_seat = k, c, seat
                if trace is not None:
                    trace.append((seat, c, m, -1))
            hands[seat] = hand ^ (1 << c)
            seat = (seat + 1) & 3
            pos += 1
        taken[win_seat] += 1
        leader = win_seat
        tricks_left -= 1
    return taken


# --- bidding ---------------------------------------------------------------------------------------------

_QUICK_TRUMP = (0.0, 0.0, 0.0, 0.1, 0.2, 0.35, 0.55, 0.8, 1.0)
_QUICK_SIDE = (0.0, 0.0, 0.0, 0.0, 0.0, 0.05, 0.15, 0.35, 0.75)


def quick_bid(hand: int, trump: int, cards: int) -> int:
    """A rough bid from high cards and trump length: how the bot expects an opponent to bid."""
    est = (hand & JOKER_MASK).bit_count() * 0.95
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    trumps = (hand & trump_mask).bit_count()
    for c in bits(hand & ~JOKER_MASK):
        if trump_mask >> c & 1:
            est += _QUICK_TRUMP[RANK_OF[c]]
        else:
            est += _QUICK_SIDE[RANK_OF[c]] * (1.0 if cards >= 4 or trump < 0 else 0.8)
    if trumps >= 3:
        est += 0.4 * (trumps - 2)
    return max(0, min(cards, int(est + 0.5)))


def _bid_targets(obs, hands, trump: int) -> list[int]:
    """Every seat's bid for a playout: the bids made, a rough guess for the rest."""
    n = obs.cards
    targets = []
    for s in range(4):
        b = obs.bids[s]
        targets.append(b if b is not None else quick_bid(hands[s], trump, n))
    return targets


def _rationality(me: int, search: Search, seats: int = 4) -> list[float]:
    """Each seat's share of purposeful moves in a playout: the bot's own all, the opponents' the search's."""
    r = [search.opponent_rational] * seats
    r[me] = 1.0
    return r


def choose_bid(obs, rng, effort: float = 1.0, search: Search = CLUB_SEARCH, know=None) -> int:
    """The bid with the best mean score in playouts. ``know`` deals the samples (by default
    ``ClassicKnowledge`` of the observation; the bench's all-seeing oracle passes the true deal)."""
    legal_bids = [a.n for a in obs.legal]
    if len(legal_bids) == 1:
        return legal_bids[0]
    me = obs.seat
    n = obs.cards
    khishti = obs.khishti
    dark = obs.hand == 0 and know is None
    if know is None and not dark:
        know = ClassicKnowledge(obs)
    draw = None if dark else deal_sampler(obs, know, search, rng)
    leader = (obs.dealer + 1) & 3
    rational = _rationality(me, search)
    steps = 4 * n

    def sample():
        if dark:  # nobody has seen a card: our own hand and the trump are unknown too
            deck = list(range(36))
            rng.shuffle(deck)
            hands = [0, 0, 0, 0]
            for k in range(4):
                for c in deck[k * n : (k + 1) * n]:
                    hands[k] |= 1 << c
            trump = int(rng.random() * 5) - 1
        else:
            hands = draw()
            hands[me] = hands[me] or obs.hand
            trump = know.trump
        return hands, trump, _bid_targets(obs, hands, trump), _random_stream(rng, steps)

    def run(cand, drawn):
        hands, trump, targets, stream = drawn
        bids = list(targets)
        bids[me] = cand
        taken = playout(
            list(hands), trump, None, leader, n, [0, 0, 0, 0], bids, NORMAL, iter(stream).__next__, rational
        )
        return player_score(NORMAL, cand, taken[me], n, khishti)

    return _best_by_playouts(
        legal_bids, sample, run, steps, search.bid_budget, lambda b: -abs(b - n / 4.0), effort, search
    )


def _random_stream(rng, steps: int) -> list[float]:
    """The random numbers one playout may use (at most four a card), drawn once per sample so
    that every candidate meets the same luck (common random numbers)."""
    random = rng.random
    return [random() for _ in range(4 * steps + 4)]


# A playout's fixed cost (copies, the sample's set-up) in card plays.
PLAYOUT_OVERHEAD = 6


def _best_by_playouts(candidates, sample, run, steps, budget, tie_key, effort=1.0, search: Search = CLUB_SEARCH):
    """The candidate with the best mean playout score (a first round on all, a second on the best few)."""
    cost = steps + PLAYOUT_OVERHEAD
    budget = int(budget * effort)
    least = max(1, round(MIN_SAMPLES * min(1.0, effort)))
    max_samples = search.max_samples
    first = max(least, min(max_samples, budget // 2 // (cost * len(candidates))))
    totals = {c: 0.0 for c in candidates}
    counts = {c: 0 for c in candidates}
    for _ in range(first):
        drawn = sample()
        for c in candidates:
            totals[c] += run(c, drawn)
            counts[c] += 1

    def mean(c):
        return totals[c] / counts[c]

    ranked = sorted(candidates, key=lambda c: (mean(c), tie_key(c)), reverse=True)
    finalists = ranked[: search.finalists]
    if len(finalists) > 1:
        second = max(least, min(max_samples, budget // 2 // (cost * len(finalists))))
        for _ in range(second):
            drawn = sample()
            for c in finalists:
                totals[c] += run(c, drawn)
                counts[c] += 1
    return max(finalists, key=lambda c: (mean(c), tie_key(c)))


# --- play --------------------------------------------------------------------------------------------------


def _distinct_plays(obs, know: ClassicKnowledge) -> list[tuple[int, int, int]]:
    """The legal plays as (card, mode, named), equal cards merged.

    Two cards of a suit with no live card between them (only our own, played
    ones or the turned card) do the same; the two jokers are alike.
    """
    live = know.out
    plays = []
    seen_joker_modes = set()
    chosen_plain = []
    for action in obs.legal:
        card = CARD_INDEX[action.card]
        mode = MODE_OF[action.joker]
        named = suit_index(action.suit)
        if card == X1 or card == X2:
            if (mode, named) in seen_joker_modes:
                continue
            seen_joker_modes.add((mode, named))
            plays.append((card, mode, named))
            continue
        chosen_plain.append(card)
    chosen_plain.sort()
    kept = []
    for c in chosen_plain:
        if kept and SUIT_OF[kept[-1]] == SUIT_OF[c] and not (ABOVE[kept[-1]] & BELOW[c] & live):
            continue  # same as the lower card already kept
        kept.append(c)
    plays.extend((c, 0, -1) for c in kept)
    return plays


def choose_play(obs, rng, effort: float = 1.0, search: Search = CLUB_SEARCH, know=None):
    """The card with the best mean score in playouts (``know`` as in choose_bid)."""
    know = know or ClassicKnowledge(obs)
    me = obs.seat
    trump = know.trump
    candidates = _distinct_plays(obs, know)
    if len(candidates) == 1:
        return _as_action(me, candidates[0])
    n_played = len(obs.plays) % 4
    trick = list(obs.plays[len(obs.plays) - n_played :]) if n_played else []
    leader = trick[0][0] if trick else me
    tricks_left = obs.hand.bit_count()
    kind = obs.kind if obs.kind in (GOLDEN, MISERE) else NORMAL
    bids = list(obs.bids)
    rational = _rationality(me, search)
    taken0 = list(obs.taken)
    n = obs.cards
    steps = 4 * tricks_left - len(trick)

    draw = deal_sampler(obs, know, search, rng)

    def sample():
        hands = draw()
        hands[me] = obs.hand
        return hands, _random_stream(rng, steps)

    def run(cand, drawn):
        hands, stream = drawn
        card, mode, named = cand
        hs = list(hands)
        hs[me] ^= 1 << card
        rnd = iter(stream).__next__
        cur = trick + [(me, card, mode, named)]
        if len(cur) == 4:
            # Our card completes the trick: settle it here, then play on.
            taken = list(taken0)
            win_seat = classic_trick_winner(cur, trump)
            taken[win_seat] += 1
            taken = playout(hs, trump, None, win_seat, tricks_left - 1, taken, bids, kind, rnd, rational)
        else:
            taken = playout(hs, trump, cur, leader, tricks_left, list(taken0), bids, kind, rnd, rational)
        return player_score(kind, bids[me], taken[me], n, obs.khishti)

    best = _best_by_playouts(
        candidates, sample, run, max(1, steps), search.play_budget, _tie_key, effort, search
    )
    return _as_action(me, best)


def _tie_key(cand) -> float:
    """Among equally good plays keep the jokers and the high cards."""
    card = cand[0]
    return -(20 if card in (X1, X2) else RANK_OF[card])


def _as_action(seat: int, cand) -> Play:
    card, mode, named = cand
    return Play(seat, CARD_NAMES[card], MODE_NAMES[mode], SUITS[named] if named >= 0 else None)


def choose_action(obs, rng, effort: float = 1.0, search: Search = CLUB_SEARCH, know=None):
    """Bid or card for a classic observation (the trump choice is bot_common.choose_trump)."""
    if obs.phase == "bid":
        return Bid(obs.seat, choose_bid(obs, rng, effort, search, know))
    return choose_play(obs, rng, effort, search, know)
