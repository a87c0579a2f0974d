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

from .actions import Bid, Play
from .bot_common import (
    ABOVE,
    BELOW,
    FULL_DECK,
    INDEX,
    JOKERS,
    M_DISCARD,
    M_TAKE,
    MODE_NAME,
    MODE_OF,
    NAMES,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    X1,
    X2,
    bits,
    highest_rank,
    lowest_rank,
    suit_index,
)

NORMAL = "normal"
GOLDEN = "golden"
NO_TRUMP = "no_trump"
DARK = "dark"
MISERE = "misere"

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


def deal_value(kind: str, bid, took: int, cards: int, khishti) -> int:
    """A player's score for a deal (rules.md 2.7)."""
    if kind == GOLDEN:
        return 100 * took
    if kind == MISERE:
        return 100 * cards if took == cards else -100 * took
    if took == bid:
        if bid == 0:
            return 50
        if bid == cards:
            return 100 * cards
        return 50 * (bid + 1)
    if took == 0:
        return -(100 * cards if khishti == "per_card" else khishti)
    return 10 * took


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
                must_high = lead_mode == M_TAKE
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


# --- the playout policy -----------------------------------------------------------------------------


def legal_follow(hand: int, led: int, must_high: bool, trump_mask: int) -> int:
    """Cards a follower may play (rules.md 2.4-2.5)."""
    jokers = hand & JOKERS
    follow = hand & SUIT_MASK[led]
    if follow:
        if must_high:
            return (1 << (follow.bit_length() - 1)) | jokers
        return follow | jokers
    trumps = hand & trump_mask
    if trumps:
        return trumps | jokers
    return hand


def beaters(legal: int, win_key: int, win_card: int, led: int, trump_mask: int) -> int:
    """The cards of ``legal`` that would take the trick from the current winner (jokers as take)."""
    jokers = legal & JOKERS
    if win_key >= 1000:
        return jokers
    if win_key >= 200:
        return (legal & trump_mask & ABOVE[win_card]) | jokers
    if win_key >= 100:
        return (legal & ABOVE[win_card]) | (legal & trump_mask) | jokers
    return (legal & (SUIT_MASK[led] | trump_mask)) | jokers


def card_key(card: int, mode: int, pos: int, trump: int, led: int) -> int:
    """Strength of a card in the trick, as the engine ranks it (higher wins)."""
    if card == X1 or card == X2:
        return 1000 + pos if mode == M_TAKE else -1
    suit = card // 9
    if suit == trump:
        return 200 + card
    if suit == led:
        return 100 + card
    return -1


def lead_key(card: int, mode: int, named: int, trump: int):
    """(led suit, must play highest, key) of a card that leads."""
    if card == X1 or card == X2:
        return named, mode == M_TAKE, (1001 if mode == M_TAKE else -1)
    suit = card // 9
    return suit, False, (200 + card if suit == trump else 100 + card)


def _choose_lead(hand: int, seat: int, hands, trump: int, trump_mask: int, want: bool):
    """(card, mode, named suit) the policy leads."""
    plain = hand & ~JOKERS
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
        if hand & JOKERS:
            joker = X1 if hand & 1 else X2
            if trump >= 0 and others & trump_mask:
                return joker, M_TAKE, trump
            named = max(range(4), key=lambda s: (hand & SUIT_MASK[s]).bit_count())
            return joker, M_TAKE, named
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
    return joker, M_DISCARD, named


def _choose_follow(
    hand, seat, hands, pos, led, must_high, win_key, win_card, trump, trump_mask, want, keep=0
):
    """(card, mode) the policy plays on a trick already led; ``keep`` jokers are saved for later."""
    legal = legal_follow(hand, led, must_high, trump_mask)
    beat = beaters(legal, win_key, win_card, led, trump_mask)
    plain_beat = beat & ~JOKERS
    jokers = legal & JOKERS
    if want:
        if plain_beat:
            if pos == 4:
                in_suit = plain_beat & SUIT_MASK[led]
                pick = in_suit or plain_beat
                return (pick & -pick).bit_length() - 1, 0
            # The lowest card that beats the best ordinary card anybody still to play could answer with.
            threat = -1
            for k in range(1, 5 - pos):
                their = legal_follow(hands[(seat + k) & 3], led, must_high, trump_mask)
                trumps = their & trump_mask
                if trumps:
                    key = 200 + trumps.bit_length() - 1
                else:
                    in_suit = their & SUIT_MASK[led]
                    key = 100 + in_suit.bit_length() - 1 if in_suit else -1
                threat = max(threat, key)
            if threat < 200:
                above = (
                    plain_beat & SUIT_MASK[led] & ~((1 << (threat - 99)) - 1)
                    if threat >= 100
                    else plain_beat & SUIT_MASK[led]
                )
                if above:
                    return (above & -above).bit_length() - 1, 0
                trumps = plain_beat & trump_mask
                if trumps:
                    return (trumps & -trumps).bit_length() - 1, 0
            else:
                trumps = plain_beat & trump_mask & ~((1 << (threat - 199)) - 1)
                if trumps:
                    return (trumps & -trumps).bit_length() - 1, 0
            if jokers:
                return (jokers & -jokers).bit_length() - 1, M_TAKE
            return highest_rank(plain_beat, trump_mask), 0
        if jokers:
            return (jokers & -jokers).bit_length() - 1, M_TAKE
        return lowest_rank(legal & ~JOKERS, trump_mask), 0
    safe = legal & ~beat & ~JOKERS
    if safe:
        return highest_rank(safe, trump_mask), 0
    if jokers and (jokers.bit_count() > keep or not plain_beat):
        return (jokers & -jokers).bit_length() - 1, M_DISCARD
    if pos == 4:  # the trick is ours whatever we play: get rid of the biggest card
        return highest_rank(plain_beat, trump_mask), 0
    return lowest_rank(plain_beat, trump_mask), 0


def _random_card(legal: int, leading: bool, rnd):
    cards = bits(legal)
    c = cards[int(rnd() * len(cards))]
    if c == X1 or c == X2:
        return c, (M_TAKE if rnd() < 0.5 else M_DISCARD), (int(rnd() * 4) if leading else -1)
    return c, 0, -1


def playout(hands, trump, trick, leader, tricks_left, taken, bids, kind, rnd, rational) -> list[int]:
    """Play a fully dealt deal to its end; returns the tricks taken by seat.

    ``hands`` is changed. ``trick`` lists the (seat, card, mode, named) of the
    trick in progress; ``bids`` the targets seats play for; ``rational`` per
    seat the share of purposeful moves.
    """
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    golden = kind == GOLDEN
    misere = kind == MISERE
    while tricks_left:
        if trick:
            s0, c0, m0, n0 = trick[0]
            led, must_high, win_key = lead_key(c0, m0, n0, trump)
            win_card, win_seat = c0, s0
            for pos, (s, c, m, _n) in enumerate(trick[1:], 2):
                k = card_key(c, m, pos, trump, led)
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
                    sure = (hand & JOKERS).bit_count()
                    if RESERVE_MASTERS and trump_mask and sure < need:
                        # Trumps above every trump the others hold win whenever they are played.
                        others = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand & trump_mask
                        sure += (hand & trump_mask & ~((1 << others.bit_length()) - 1)).bit_count()
                    if need <= sure:
                        # Sure winners alone can make the bid: duck now and keep them for the end.
                        want = False
                        keep = min(need, (hand & JOKERS).bit_count())
            if pos == 1:
                if rnd() < rational[seat]:
                    c, m, named = _choose_lead(hand, seat, hands, trump, trump_mask, want)
                else:
                    c, m, named = _random_card(hand, True, rnd)
                led, must_high, win_key = lead_key(c, m, named, trump)
                win_card, win_seat = c, seat
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
                    m = (M_TAKE if rnd() < 0.5 else M_DISCARD) if c == X1 or c == X2 else 0
                # The card's strength in the trick (card_key, inlined: this is the hottest loop).
                if c == X1 or c == X2:
                    k = 1000 + pos if m == M_TAKE else -1
                else:
                    suit = c // 9
                    k = 200 + c if suit == trump else 100 + c if suit == led else -1
                if k > win_key:
                    win_key, win_card, win_seat = k, c, seat
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
    est = (hand & JOKERS).bit_count() * 0.95
    trump_mask = SUIT_MASK[trump] if trump >= 0 else 0
    trumps = (hand & trump_mask).bit_count()
    for c in bits(hand & ~JOKERS):
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


def _rationality(me: int) -> list[float]:
    r = [OPPONENT_RATIONAL] * 4
    r[me] = 1.0
    return r


def choose_bid(obs, rng, effort: float = 1.0) -> int:
    legal_bids = [a.n for a in obs.legal]
    if len(legal_bids) == 1:
        return legal_bids[0]
    me = obs.seat
    n = obs.cards
    khishti = obs.khishti
    dark = obs.hand == 0
    know = None if dark else ClassicKnowledge(obs)
    leader = (obs.dealer + 1) & 3
    rational = _rationality(me)
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
            hands = know.sample(rng)
            hands[me] = obs.hand
            trump = know.trump
        return hands, trump, _bid_targets(obs, hands, trump), _random_stream(rng, steps)

    def run(cand, drawn):
        hands, trump, targets, stream = drawn
        bids = list(targets)
        bids[me] = cand
        taken = playout(
            list(hands), trump, None, leader, n, [0, 0, 0, 0], bids, NORMAL, iter(stream).__next__, rational
        )
        return deal_value(NORMAL, cand, taken[me], n, khishti)

    return _best_by_playouts(legal_bids, sample, run, steps, BID_BUDGET, lambda b: -abs(b - n / 4.0), effort)


def _random_stream(rng, steps: int) -> list[float]:
    """The random numbers one playout may use (at most four a card), drawn once per sample so
    that every candidate meets the same luck (common random numbers)."""
    random = rng.random
    return [random() for _ in range(4 * steps + 4)]


# A playout's fixed cost (copies, the sample's set-up) in card plays.
PLAYOUT_OVERHEAD = 6


def _best_by_playouts(candidates, sample, run, steps, budget, tie_key, effort=1.0):
    """The candidate with the best mean playout score (a first round on all, a second on the best few)."""
    cost = steps + PLAYOUT_OVERHEAD
    budget = int(budget * effort)
    least = max(1, round(MIN_SAMPLES * min(1.0, effort)))
    first = max(least, min(MAX_SAMPLES, budget // 2 // (cost * len(candidates))))
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
    finalists = ranked[:FINALISTS]
    if len(finalists) > 1:
        second = max(least, min(MAX_SAMPLES, budget // 2 // (cost * len(finalists))))
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
        card = INDEX[action.card]
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


def choose_play(obs, rng, effort: float = 1.0):
    know = ClassicKnowledge(obs)
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
    rational = _rationality(me)
    taken0 = list(obs.taken)
    n = obs.cards
    steps = 4 * tricks_left - len(trick)

    def sample():
        hands = know.sample(rng)
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
            led, _must_high, win_key = lead_key(cur[0][1], cur[0][2], cur[0][3], trump)
            win_seat = cur[0][0]
            for pos, (s, c, m, _n) in enumerate(cur[1:], 2):
                k = card_key(c, m, pos, trump, led)
                if k > win_key:
                    win_key, win_seat = k, s
            taken[win_seat] += 1
            taken = playout(hs, trump, None, win_seat, tricks_left - 1, taken, bids, kind, rnd, rational)
        else:
            taken = playout(hs, trump, cur, leader, tricks_left, list(taken0), bids, kind, rnd, rational)
        return deal_value(kind, bids[me], taken[me], n, obs.khishti)

    best = _best_by_playouts(candidates, sample, run, max(1, steps), PLAY_BUDGET, _tie_key, effort)
    return _as_action(me, best)


def _tie_key(cand) -> float:
    """Among equally good plays keep the jokers and the high cards."""
    card = cand[0]
    return -(20 if card in (X1, X2) else RANK_OF[card])


def _as_action(seat: int, cand) -> Play:
    card, mode, named = cand
    return Play(seat, NAMES[card], MODE_NAME[mode], SUITS[named] if named >= 0 else None)


def choose_action(obs, rng, effort: float = 1.0):
    """Bid or card for a classic observation (the trump choice is bot_common.choose_trump)."""
    if obs.phase == "bid":
        return Bid(obs.seat, choose_bid(obs, rng, effort))
    return choose_play(obs, rng, effort)
