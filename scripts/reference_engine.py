"""A straightforward reference of the rules (docs/rules.md), for measurement and agreement only.

Written the plain way a first version would be: cards are the record's strings
(``"AS"``, ``"X1"``), hands are lists, what a player may play is a list
comprehension, a trick's winner is found by comparing the cards played, a deal's
score is the table of rules 2.7. It shares no code with ``games/engine/`` (only
the rules), so ``make bench`` can print the engine's speed beside it measured in
the same run (``scripts/bench.py``), and
``tests/test_engine_agrees_with_reference.py`` holds the engine's legal moves and
scores against it, move by move, on random games.

Only what random games need: classic ``standard`` games (khishti 200, premium and
moshla) and Japanese matches to a target; moves are checked (``ValueError`` for an
illegal one).
"""

from __future__ import annotations

SUITS = "SCDH"
RANKS = "6789TJQKA"
JOKERS = ("X1", "X2")
DECK = [r + s for s in SUITS for r in RANKS if r + s not in ("6S", "6C")] + list(JOKERS)

STANDARD_PLAN = [(0, n) for n in range(1, 9)] + [(1, 9)] * 4 + [(2, n) for n in range(8, 0, -1)] + [(3, 9)] * 4


def is_joker(card: str) -> bool:
    return card in JOKERS


def suit_of(card: str):
    return None if is_joker(card) else card[1]


def rank_of(card: str) -> int:
    return RANKS.index(card[0])


def follow_choices(hand: list, led: str, must_high: bool, trump) -> list:
    """The cards of ``hand`` a follower may play: follow (the highest only after a take
    joker), else trump, else anything; a joker always."""
    jokers = [c for c in hand if is_joker(c)]
    same = [c for c in hand if suit_of(c) == led]
    if same:
        if must_high:
            return [max(same, key=rank_of)] + jokers
        return same + jokers
    trumps = [c for c in hand if trump is not None and suit_of(c) == trump]
    if trumps:
        return trumps + jokers
    return list(hand)


# --- classic ---------------------------------------------------------------------------------


def classic_deal_score(bid: int, took: int, cards: int, khishti: int = 200) -> int:
    if took == bid:
        if bid == 0:
            return 50
        if bid == cards:
            return 100 * cards
        return 50 * (bid + 1)
    if took == 0:
        return -khishti
    return 10 * took


def classic_winner(plays: list, trump) -> int:
    """plays: (seat, card, joker mode, named suit), the lead first."""
    lead_card, lead_named = plays[0][1], plays[0][3]
    led = lead_named if is_joker(lead_card) else suit_of(lead_card)
    best_seat, best = plays[0][0], None
    for position, (seat, card, mode, _named) in enumerate(plays):
        if is_joker(card):
            key = (3, position) if mode == "take" else None
        elif trump is not None and suit_of(card) == trump:
            key = (2, rank_of(card))
        elif suit_of(card) == led:
            key = (1, rank_of(card))
        else:
            key = None
        if key is not None and (best is None or key > best):
            best, best_seat = key, seat
    return best_seat


class ReferenceClassic:
    """A classic ``standard`` game: deal, trump, bids, tricks, deal scores, pulka bonuses."""

    def __init__(self, first_dealer: int = 0):
        self.dealer = first_dealer
        self.deal_index = 0
        self.totals = [0, 0, 0, 0]
        self.deal_scores = []
        self.pulka_bonuses = []
        self.phase = "deal"
        self._pulka_rows = []

    def cards(self) -> int:
        return STANDARD_PLAN[self.deal_index][1]

    def deal(self, hands: list, trump_card) -> None:
        self.hands = [list(h) for h in hands]
        self.bids = [None] * 4
        self.taken = [0, 0, 0, 0]
        self.trick = []
        self.to_act = (self.dealer + 1) % 4
        if self.cards() == 9:
            self.trump = None
            self.phase = "trump"
        else:
            self.trump = suit_of(trump_card)  # a turned joker: no trump
            self.phase = "bid"

    def choose_trump(self, seat: int, suit) -> None:
        if self.phase != "trump" or seat != self.to_act or suit not in (*SUITS, None):
            raise ValueError("trump")
        self.trump = suit
        self.phase = "bid"

    def legal_bids(self) -> list:
        bids = list(range(self.cards() + 1))
        if sum(b is not None for b in self.bids) == 3:
            rest = self.cards() - sum(b for b in self.bids if b is not None)
            if rest in bids:
                bids.remove(rest)
        return bids

    def bid(self, seat: int, n: int) -> None:
        if self.phase != "bid" or seat != self.to_act or n not in self.legal_bids():
            raise ValueError("bid")
        self.bids[seat] = n
        self.to_act = (seat + 1) % 4
        if all(b is not None for b in self.bids):
            self.phase = "play"

    def legal_cards(self) -> list:
        hand = self.hands[self.to_act]
        if not self.trick:
            return list(hand)
        _seat, card, mode, named = self.trick[0]
        if is_joker(card):
            return follow_choices(hand, named, mode == "take", self.trump)
        return follow_choices(hand, suit_of(card), False, self.trump)

    def play(self, seat: int, card: str, mode=None, named=None) -> None:
        if self.phase != "play" or seat != self.to_act or card not in self.legal_cards():
            raise ValueError("play")
        if is_joker(card):
            if mode not in ("take", "discard") or (not self.trick) != (named is not None and named in SUITS):
                raise ValueError("joker")
        elif mode is not None or named is not None:
            raise ValueError("joker fields")
        self.hands[seat].remove(card)
        self.trick.append((seat, card, mode, named))
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        winner = classic_winner(self.trick, self.trump)
        self.taken[winner] += 1
        self.trick = []
        self.to_act = winner
        if not any(self.hands):
            self.end_deal()

    def end_deal(self) -> None:
        n = self.cards()
        scores = [classic_deal_score(self.bids[s], self.taken[s], n) for s in range(4)]
        self.deal_scores.append(scores)
        self._pulka_rows.append((list(self.bids), list(self.taken), scores))
        for s in range(4):
            self.totals[s] += scores[s]
        pulka = STANDARD_PLAN[self.deal_index][0]
        self.deal_index += 1
        if self.deal_index == len(STANDARD_PLAN) or STANDARD_PLAN[self.deal_index][0] != pulka:
            self.end_pulka()
        self.dealer = (self.dealer + 1) % 4
        self.phase = "over" if self.deal_index == len(STANDARD_PLAN) else "deal"

    def end_pulka(self) -> None:
        rows = self._pulka_rows
        closed = [all(bids[s] == taken[s] for bids, taken, _ in rows) for s in range(4)]
        best = [max(scores[s] for _, _, scores in rows) for s in range(4)]
        bonus = []
        for s in range(4):
            if closed[s]:
                bonus.append(best[s])
            elif any(closed) and best[s] > 0:
                bonus.append(-best[s])
            else:
                bonus.append(0)
        self.pulka_bonuses.append(bonus)
        for s in range(4):
            self.totals[s] += bonus[s]
        self._pulka_rows = []


def classic_split(deck: list, dealer: int, n: int):
    """Hands by seat and the turned card, dealt as the engine deals (docs/engine.md)."""
    if n < 9:
        packets = [deck[k * n : (k + 1) * n] for k in range(4)]
        turned = deck[4 * n]
    else:
        packets = [deck[3 * k : 3 * k + 3] + deck[12 + 6 * k : 18 + 6 * k] for k in range(4)]
        turned = None
    hands = [None] * 4
    for k in range(4):
        hands[(dealer + 1 + k) % 4] = packets[k]
    return hands, turned


def play_random_classic(rng, first_dealer: int = 0) -> ReferenceClassic:
    """A full standard game of uniformly random legal moves and random deals."""
    game = ReferenceClassic(first_dealer)
    while game.phase != "over":
        deck = list(DECK)
        rng.shuffle(deck)
        hands, turned = classic_split(deck, game.dealer, game.cards())
        game.deal(hands, turned)
        if game.phase == "trump":
            game.choose_trump(game.to_act, rng.choice([*SUITS, None]))
        while game.phase == "bid":
            game.bid(game.to_act, rng.choice(game.legal_bids()))
        while game.phase == "play":
            card = rng.choice(game.legal_cards())
            if is_joker(card):
                mode = rng.choice(["take", "discard"])
                named = rng.choice(SUITS) if not game.trick else None
                game.play(game.to_act, card, mode, named)
            else:
                game.play(game.to_act, card)
    return game


# --- Japanese --------------------------------------------------------------------------------


def japanese_follower_takes(lead: str, named, follow: str, trump) -> bool:
    if is_joker(follow):
        return True
    if is_joker(lead):
        return trump is not None and named != trump and suit_of(follow) == trump
    if trump is not None and suit_of(follow) == trump and suit_of(lead) != trump:
        return True
    return suit_of(follow) == suit_of(lead) and rank_of(follow) > rank_of(lead)


class ReferenceJapanese:
    """A Japanese match: hands, five columns each, 18 tricks a deal, to ``target``."""

    def __init__(self, target: int = 21, first_declarer: int = 0):
        self.target = target
        self.declarer = first_declarer
        self.totals = [0, 0]
        self.deal_scores = []
        self.phase = "deal"

    def deal(self, hands: list, columns: list) -> None:
        self.hands = [list(h) for h in hands]
        self.columns = [[list(c) for c in columns[0]], [list(c) for c in columns[1]]]
        self.first_done = [False, False]
        self.taken = [0, 0]
        self.trick = []
        self.to_act = self.declarer
        self.phase = "trump"

    def choose_trump(self, seat: int, suit) -> None:
        if self.phase != "trump" or seat != self.declarer or suit not in (*SUITS, None):
            raise ValueError("trump")
        self.trump = suit
        self.phase = "play"

    def face_up(self, seat: int) -> list:
        return [c[1] for c in self.columns[seat] if c is not None]

    def available(self, seat: int) -> list:
        if self.first_done[seat]:
            return self.hands[seat] + self.face_up(seat)
        return list(self.hands[seat])

    def legal_cards(self) -> list:
        cards = self.available(self.to_act)
        if not self.trick:
            return cards
        lead, named = self.trick[0][1], self.trick[0][2]
        if is_joker(lead):
            return follow_choices(cards, named, True, self.trump)
        return follow_choices(cards, suit_of(lead), False, self.trump)

    def play(self, seat: int, card: str, named=None) -> None:
        if self.phase != "play" or seat != self.to_act or card not in self.legal_cards():
            raise ValueError("play")
        if is_joker(card) and (not self.trick) != (named is not None and named in SUITS):
            raise ValueError("joker")
        if card in self.hands[seat]:
            self.hands[seat].remove(card)
        else:
            columns = self.columns[seat]
            for i, column in enumerate(columns):
                if column is not None and column[1] == card:
                    self.hands[seat].append(column[0])
                    columns[i] = None
            left = [c for c in columns if c is not None]
            if len(left) == 1:
                self.hands[seat].extend(left[0])
                self.columns[seat] = [None] * len(columns)
        self.first_done[seat] = True
        self.trick.append((seat, card, named))
        if len(self.trick) == 1:
            self.to_act = 1 - seat
            return
        (leader, lead, lead_named), (follower, follow, _) = self.trick
        winner = follower if japanese_follower_takes(lead, lead_named, follow, self.trump) else leader
        self.taken[winner] += 1
        self.trick = []
        self.to_act = winner
        if sum(self.taken) == 18:
            self.end_deal()

    def end_deal(self) -> None:
        a, b = self.taken
        scores = [a - b, 0] if a > b else [0, b - a]
        self.deal_scores.append(scores)
        self.totals = [self.totals[0] + scores[0], self.totals[1] + scores[1]]
        if max(self.totals) >= self.target:
            self.phase = "over"
        else:
            self.phase = "deal"
            self.declarer = 1 - self.declarer


def japanese_split(deck: list, declarer: int):
    """Hands and columns by seat, dealt as the engine deals (docs/engine.md)."""
    hands, columns = [None, None], [None, None]
    for k, seat in enumerate((declarer, 1 - declarer)):
        hands[seat] = deck[3 * k : 3 * k + 3] + deck[6 + 5 * k : 11 + 5 * k]
        table = deck[16 + 10 * k : 26 + 10 * k]
        columns[seat] = [(table[2 * c], table[2 * c + 1]) for c in range(5)]
    return hands, columns


def play_random_japanese_deal(game: ReferenceJapanese, rng) -> None:
    """One deal of a Japanese match: a random deal, trump and legal cards."""
    deck = list(DECK)
    rng.shuffle(deck)
    game.deal(*japanese_split(deck, game.declarer))
    game.choose_trump(game.declarer, rng.choice([*SUITS, None]))
    while game.phase == "play":
        card = rng.choice(game.legal_cards())
        game.play(game.to_act, card, rng.choice(SUITS) if is_joker(card) and not game.trick else None)
