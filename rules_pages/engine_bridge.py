"""ENGINE BRIDGE: the worked examples of the rules pages, played out by the rules engine.

This is the only module of ``rules_pages`` that calls ``games.engine``. For every
example block it builds a real game through the engine's public API and reads the
outcome from the engine's state, so a page is held to the code the live game runs:

- ``trick``, ``legal``, ``try``: a real deal whose cards give the example's trick (and
  the reader's hand and table columns) is dealt into a real game; trump comes from the
  turned card (1-8-card deals; a turned joker is no trump) or from ``ChooseTrump``
  (9-card deals, Japanese); bids are made; the example's cards go on the table as
  ``Play`` actions. Legal cards come from ``legal_actions``, the winner from the trick
  counts. A Japanese position later in a deal is reached by playing the earlier tricks.
- ``bid``: a real deal of that size; the three bids are made and the dealer's
  forbidden number is read from ``view``.
- ``score``, ``pulka``: a real game of the right type and table options, whose deals
  are played so that every seat bids and takes what the example says; the deal scores
  and the premium/moshla come from ``scores()``.
- ``japanese_deal``, ``match``: a real match whose deals are played to the example's
  trick split; points, totals and the winner come from the state.

Choosing cards and searching for a line of play is construction only: the bridge may
pick any cards and moves, the engine refuses every one that breaks a rule, and each
outcome is read from the engine. Nothing here decides who wins a trick, which card is
legal, what is forbidden or what anything scores. The searches are seeded, so an
example always gets the same cards.
"""

import functools
import json
import random

from games.engine import (
    JOKERS,
    RANKS,
    SUITS,
    Bid,
    ChooseTrump,
    ClassicState,
    IllegalAction,
    JapaneseState,
    Phase,
    deal_from_deck,
    full_deck,
    shuffled_deck,
)
from games.engine import (
    Play as Move,
)
from games.engine.classic import PLANS  # the schedule of deals of each game type (engine data)

from .examples import ExampleError, choice_keys, deck_order, parse_choice, plays_of

DECK = tuple(full_deck())
RANKS_HIGH_FIRST = RANKS[::-1]
SEED = 9  # the searches are seeded: the same example always gets the same cards and moves
ATTEMPTS = 40  # card layouts tried before the bridge gives up on an example
SEARCH_BUDGET = 3_000  # moves tried per layout in a search for a line of play
JAPANESE_TRICKS = 18
JAPANESE_HAND = 8
JAPANESE_COLUMNS = 5
# A Japanese match that must not end while the bridge plays one deal (the highest target).
NO_MATCH_END = 31


class PositionError(ExampleError):
    """No real game gives this example: the example is impossible, or the search gave up."""


# --- small helpers ---------------------------------------------------------------------------


def _suit(card):
    return None if card in JOKERS else card[1]


def _trump_choice(trump):
    return None if trump == "none" else trump


def _move(seat, play):
    return Move(seat, play.card, play.joker, play.suit)


def _winner(before, after):
    """The seat whose trick count went up between two states of the same deal."""
    gained = [now - then for now, then in zip(after.taken, before.taken)]
    return gained.index(1)


def _cache_key(example):
    return json.dumps(example.machine_data(), sort_keys=True)


def _strength_order(trump):
    """Cards roughly from strongest to weakest: jokers, trumps, then by rank.

    Only a hint for dealing cards that make a wanted trick split easy to reach; the
    engine decides every trick.
    """
    order = list(JOKERS)
    if trump in SUITS:
        order += [rank + trump for rank in RANKS_HIGH_FIRST if rank + trump in DECK]
    order += [
        rank + suit for rank in RANKS_HIGH_FIRST for suit in SUITS if suit != trump and rank + suit in DECK
    ]
    return order


def _quiet_cards(plays, trump):
    """Ordinary cards of the suits that no play of the trick shows or names, other than trump.

    A follower who also holds such cards may still play the card the example gives them.
    """
    busy = {play.suit for play in plays if play and play.suit}
    busy |= {_suit(play.card) for play in plays if play and _suit(play.card)}
    return {card for card in DECK if card not in JOKERS and _suit(card) not in busy | {trump}}


# --- playing searches ------------------------------------------------------------------------


class _OutOfBudget(Exception):
    pass


def _search(state, allowed, goal, order, budget):
    """Depth-first search for a line of legal play from ``state``.

    ``allowed(state, action)`` filters the engine's legal actions, ``goal(state)`` says
    True (reached), False (no longer reachable) or None (play on), ``order(state,
    actions)`` sorts the moves to try. Returns the state at the goal, or None.
    """
    tried = 0

    def walk(current):
        nonlocal tried
        verdict = goal(current)
        if verdict is not None:
            return current if verdict else None
        seat = current.to_act
        moves = [action for action in current.legal_actions(seat) if allowed(current, action)]
        for action in order(current, moves):
            tried += 1
            if tried > budget:
                raise _OutOfBudget
            following = current.copy()
            following.apply(action)
            found = walk(following)
            if found is not None:
                return found
        return None

    try:
        return walk(state)
    except _OutOfBudget:
        return None


def _steer_towards(target, trump, rng):
    """Move order for a search that wants seat s to take ``target[s]`` tricks (None: any number):
    a seat that still needs tricks tries its strong cards first, one that does not its weak ones;
    a seat without a target helps the others (it wants tricks once a counted seat has enough)."""
    rank = {card: index for index, card in enumerate(_strength_order(trump))}

    def strength(action):
        if action.card in JOKERS:
            return -1 if action.joker in (None, "take") else len(rank)
        return rank[action.card]

    def order(state, moves):
        seat = state.to_act
        if target[seat] is None:
            wants = any(t is not None and state.taken[s] >= t for s, t in enumerate(target))
        else:
            wants = target[seat] > state.taken[seat]
        keyed = [(strength(m) if wants else -strength(m), rng.random(), i) for i, m in enumerate(moves)]
        return [moves[i] for *_, i in sorted(keyed)]

    return order


def _play_deal_to_tricks(state, target, trump, rng, budget):
    """Play the current deal out so that seat s takes ``target[s]`` tricks (None: any number).
    Returns the finished state, or None when the search gives up."""
    counted = [seat for seat, wanted in enumerate(target) if wanted is not None]

    def goal(current):
        if any(current.taken[s] > target[s] for s in counted):
            return False
        if current.phase is not Phase.PLAY:
            return all(current.taken[s] == target[s] for s in counted)
        return None

    return _search(state, lambda current, action: True, goal, _steer_towards(target, trump, rng), budget)


def _biased_hands(sizes, target, trump, exclude, rng):
    """Hands of the given sizes in which seat s holds ``target[s]`` of the strongest cards and a
    seat that must take nothing the weakest ones. Returns (hands, cards left over).

    A hint for the search only; ``target`` holds whole numbers here.
    """
    cards = [card for card in _strength_order(trump) if card not in exclude]
    strong_count = sum(target)
    strong, weak = cards[:strong_count], cards[strong_count:]
    owners = [seat for seat, count in enumerate(target) for _ in range(count)]
    rng.shuffle(owners)
    hands = [[] for _ in sizes]
    for card, seat in zip(strong, owners):
        hands[seat].append(card)
    for seat, size in enumerate(sizes):
        if target[seat] == 0:
            while len(hands[seat]) < size:
                hands[seat].append(weak.pop())
    rng.shuffle(weak)
    for seat, size in enumerate(sizes):
        while len(hands[seat]) < size:
            hands[seat].append(weak.pop())
        rng.shuffle(hands[seat])
    return hands, weak


# --- classic games ---------------------------------------------------------------------------


def _first_deal(kind, cards):
    """(game type, deal index) of the earliest deal of this kind and size in any game type."""
    found = [
        (spec.index, game_type)
        for game_type, plan in PLANS.items()
        for spec in plan
        if spec.kind == kind and spec.cards == cards
    ]
    if not found:
        raise PositionError(f"no game type has a {kind} deal of {cards} cards")
    index, game_type = min(found)
    return game_type, index


def _first_pulka(deal_sizes):
    """(game type, deal index) of the earliest bidding pulka whose deals have these sizes."""
    found = []
    for game_type, plan in PLANS.items():
        for pulka in {spec.pulka for spec in plan}:
            specs = [spec for spec in plan if spec.pulka == pulka]
            if [spec.cards for spec in specs] == list(deal_sizes) and specs[0].kind == "normal":
                found.append((specs[0].index, game_type))
    if not found:
        raise PositionError(f"no game type has a pulka of deals {deal_sizes}")
    index, game_type = min(found)
    return game_type, index


def _classic_game(game_type, deal_index, dealer, **options):
    """A real classic game, earlier deals played out, waiting for deal ``deal_index`` dealt by ``dealer``."""
    state = ClassicState({"game_type": game_type, "first_dealer": (dealer - deal_index) % 4, **options})
    rng = random.Random(SEED)
    while state.deal_index < deal_index:
        deal_from_deck(state, shuffled_deck(rng))
        while state.phase is not Phase.DEAL:
            state.apply(state.legal_actions(state.to_act)[0])
    return state


def _start_play(state, trump, bids=None):
    """Name trump (when the deal asks for it) and bid, until the first card is due.

    ``bids`` by seat; without it each seat makes its first legal bid.
    """
    while state.phase in (Phase.TRUMP, Phase.BID):
        seat = state.to_act
        if state.phase is Phase.TRUMP:
            state.apply(ChooseTrump(seat, _trump_choice(trump)))
        elif bids is not None and bids[seat] is not None:
            state.apply(Bid(seat, bids[seat]))
        else:
            state.apply(state.legal_actions(seat)[0])
    if state.trump != trump:
        raise PositionError(f"the deal's trump is {state.trump}, not {trump}")


def _classic_trick_position(trump, leader, before, hand=None, after=()):
    """A real classic deal at the start of a trick: ``before`` (the plays from the leader up
    to the reader), the reader's exact ``hand`` (None: no reader, ``before`` is the whole
    trick) and ``after`` (the plays after the reader) are all legal in it.

    Deal size: the reader's hand, or one card each for a bare trick (a 9-card deal with a
    named trump when no turned card can show the trump). Other players get cards that keep
    their plays legal: first cards of suits nobody plays, names or trumps.
    """
    reader = (leader + len(before)) % 4 if hand is not None else None
    plays = list(before) + ([None] if hand is not None else []) + list(after)
    played = {(leader + i) % 4: play.card for i, play in enumerate(plays) if play is not None}
    known = set(played.values()) | set(hand or ())
    size = len(hand) if hand is not None else 1
    turned = None
    if size < 9:
        shows_trump = (lambda c: c in JOKERS) if trump == "none" else (lambda c: _suit(c) == trump)
        showing = [c for c in DECK if c not in known and shows_trump(c)]
        if showing:
            turned = showing[-1]
        elif hand is None:
            size = 9
        else:
            raise PositionError(f"no card is left to turn up for trump {trump!r}")
    quiet = _quiet_cards(plays, trump)
    # Followers must be able to make their plays; the leader and those who do not play break no rule.
    followers = [seat for seat in played if seat != leader]
    free = [seat for seat in range(4) if seat not in followers and seat != reader]
    game_type, deal_index = _first_deal("normal", size)
    game = _classic_game(game_type, deal_index, dealer=(leader - 1) % 4)
    problem = None
    for attempt in range(ATTEMPTS):
        rng = random.Random(SEED + attempt)
        pool = [c for c in DECK if c not in known and c != turned]
        quiet_pool = [c for c in pool if c in quiet]
        loud_pool = [c for c in pool if c not in quiet]
        if attempt:
            rng.shuffle(quiet_pool)
            rng.shuffle(loud_pool)
        hands = [None] * 4
        if reader is not None:
            hands[reader] = list(hand)
        for seat in followers:
            hands[seat] = [played[seat]]
            while len(hands[seat]) < size:
                hands[seat].append((quiet_pool or loud_pool).pop(0))
        for seat in free:
            hands[seat] = [played[seat]] if seat in played else []
            while len(hands[seat]) < size:
                hands[seat].append((loud_pool or quiet_pool).pop(0))
        state = game.copy()
        try:
            state.deal(hands, turned)
            _start_play(state, trump)
            if state.to_act != leader:
                raise PositionError(f"seat {state.to_act} leads, not seat {leader}")
            _check_trick_plays(state, leader, before, reader, after)
        except IllegalAction as exc:
            problem = exc
            continue
        return state, reader
    raise PositionError(f"no classic deal makes this trick legal (last refusal: {problem})")


def _check_trick_plays(start, leader, before, reader, after):
    """Raise IllegalAction unless the trick's plays (and, after the reader's first legal card,
    the plays after the reader) are legal from ``start``."""
    state = start.copy()
    seats = state.seats
    for i, play in enumerate(before):
        state.apply(_move((leader + i) % seats, play))
    if reader is None or not after:
        return
    state.apply(state.legal_actions(reader)[0])
    for i, play in enumerate(after):
        state.apply(_move((reader + 1 + i) % seats, play))


# --- Japanese games --------------------------------------------------------------------------


def _japanese_deal(state, hands, tables):
    """Deal 8-card hands and 10 table cards per seat (five columns, [face-down, face-up])."""
    columns = [[[table[2 * c], table[2 * c + 1]] for c in range(JAPANESE_COLUMNS)] for table in tables]
    state.deal(hands, columns)


def _japanese_first_trick(trump, leader, before, hand=None, face_up=None, after=()):
    """A real Japanese deal at its first trick, the leader declaring: the trick's plays are
    legal and the reader (if any) holds exactly ``hand`` with ``face_up`` on the table."""
    reader = (leader + len(before)) % 2 if hand is not None else None
    plays = list(before) + ([None] if hand is not None else []) + list(after)
    played = {(leader + i) % 2: play.card for i, play in enumerate(plays) if play is not None}
    if reader is not None and (len(hand) != JAPANESE_HAND or len(face_up) != JAPANESE_COLUMNS):
        raise PositionError("before the first card a player holds 8 cards with 5 face-up columns")
    known = set(played.values()) | set(hand or ()) | set(face_up or ())
    quiet = _quiet_cards(plays, trump)
    problem = None
    for attempt in range(ATTEMPTS):
        rng = random.Random(SEED + attempt)
        pool = [c for c in DECK if c not in known]
        quiet_pool = [c for c in pool if c in quiet]
        loud_pool = [c for c in pool if c not in quiet]
        if attempt:
            rng.shuffle(quiet_pool)
            rng.shuffle(loud_pool)
        hands, tables = [None, None], [None, None]
        follower = 1 - leader
        if reader is not None:
            hands[reader] = list(hand)
        if follower != reader:  # the follower's first card comes from the hand: keep it playable
            hands[follower] = [played[follower]] if follower in played else []
            while len(hands[follower]) < JAPANESE_HAND:
                hands[follower].append((quiet_pool or loud_pool).pop(0))
        if leader != reader:
            hands[leader] = [played[leader]]
            while len(hands[leader]) < JAPANESE_HAND:
                hands[leader].append((loud_pool or quiet_pool).pop(0))
        rest = loud_pool + quiet_pool
        for seat in (0, 1):
            ups = list(face_up) if seat == reader else [rest.pop() for _ in range(JAPANESE_COLUMNS)]
            tables[seat] = [card for up in ups for card in (rest.pop(), up)]
        state = JapaneseState({"target": NO_MATCH_END, "first_declarer": leader})
        try:
            _japanese_deal(state, hands, tables)
            state.apply(ChooseTrump(leader, _trump_choice(trump)))
            _check_trick_plays(state, leader, before, reader, after)
        except IllegalAction as exc:
            problem = exc
            continue
        return state, reader
    raise PositionError(f"no Japanese deal makes this trick legal (last refusal: {problem})")


def _japanese_later_trick(trump, leader, before, hand, face_up, after=()):
    """A real Japanese deal later on: earlier tricks are played so that the reader has
    played their first card and holds exactly ``hand`` with ``face_up`` on the table, and
    the leader, to lead, still holds the cards of ``before``.

    The reader's cards that are gone by then (a few in the hand, the cards of the emptied
    columns) are chosen at random, and a search finds earlier tricks in which the reader
    plays exactly those and the other player leads the wanted trick.
    """
    reader = (leader + len(before)) % 2
    other = 1 - reader
    kept_columns = len(face_up)
    emptied = JAPANESE_COLUMNS - kept_columns
    earlier = JAPANESE_TRICKS - len(hand) - 2 * kept_columns  # tricks played before this one
    if kept_columns == 1 or earlier < 1:
        raise PositionError(f"a player cannot hold {len(hand)} cards with {kept_columns} face-up columns")
    # The reader's first card came from the hand, so one hand place at least held a card now gone.
    in_hand = min(len(hand), JAPANESE_HAND - 1)
    from_columns = list(hand[in_hand:])  # came into the hand from under emptied columns
    if len(from_columns) > emptied:
        raise PositionError(f"a player cannot hold {len(hand)} cards with {kept_columns} face-up columns")
    leader_keeps = [play.card for play in before]
    known = set(hand) | set(face_up) | set(leader_keeps)
    for attempt in range(ATTEMPTS):
        rng = random.Random(SEED + attempt)
        pool = [c for c in DECK if c not in known]
        rng.shuffle(pool)
        gone, rest = pool[:earlier], pool[earlier:]
        reader_hand = list(hand[:in_hand]) + gone[: JAPANESE_HAND - in_hand]
        emptied_cards = gone[JAPANESE_HAND - in_hand :]
        ups, downs = emptied_cards[:emptied], from_columns + emptied_cards[emptied:]
        reader_table = [card for down, up in zip(downs, ups) for card in (down, up)]
        reader_table += [card for up in face_up for card in (rest.pop(), up)]
        other_hand = leader_keeps + [rest.pop() for _ in range(JAPANESE_HAND - len(leader_keeps))]
        hands, tables = [None, None], [None, None]
        hands[reader], tables[reader] = reader_hand, reader_table
        hands[other], tables[other] = other_hand, rest
        gone_set = set(gone)

        def allowed(state, action, gone_set=gone_set):
            if state.to_act == reader:
                return action.card in gone_set
            return action.card not in leader_keeps

        def goal(state):
            if sum(state.taken) < earlier:
                return None
            return state.to_act == leader and not state.trick

        def order(state, moves, rng=rng):
            return rng.sample(moves, len(moves))

        for declarer in (reader, other):
            state = JapaneseState({"target": NO_MATCH_END, "first_declarer": declarer})
            _japanese_deal(state, hands, tables)
            state.apply(ChooseTrump(declarer, _trump_choice(trump)))
            found = _search(state, allowed, goal, order, SEARCH_BUDGET)
            if found is None:
                continue
            if sorted(found.hand(reader)) != sorted(hand) or sorted(found.face_up(reader)) != sorted(face_up):
                raise PositionError("the earlier tricks left the reader other cards than the example's")
            try:
                _check_trick_plays(found, leader, before, reader, after)
            except IllegalAction:
                continue
            return found, reader
    raise PositionError("no line of earlier tricks reaches this Japanese position")


# --- positions of the examples ---------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _position(key):
    """(state at the start of the example's trick, the reader's seat or None), built once per example."""
    data = json.loads(key)
    kind, variant, trump = data["kind"], data["variant"], data["trump"]
    if kind == "trick":
        before, hand, face_up, after, leader = plays_of(data["plays"]), None, None, [], data["leader"]
        first_play = True
    else:
        before, hand, face_up = plays_of(data["trick"]), data["hand"], data.get("face_up", [])
        after = plays_of(data.get("after", []))
        first_play = bool(data.get("first_play", False))
        # A 'legal' example does not say who leads: the reader sits at the highest seat.
        seats = 4 if variant == "classic" else 2
        leader = data["leader"] if kind == "try" else (seats - 1 - len(before)) % seats
    if variant == "classic":
        return _classic_trick_position(trump, leader, before, hand, after)
    if first_play:
        return _japanese_first_trick(trump, leader, before, hand, face_up, after)
    return _japanese_later_trick(trump, leader, before, hand, face_up, after)


def position(example):
    """A fresh copy of the example's position (the engine state at the lead) and the reader's seat."""
    start, reader = _position(_cache_key(example))
    return start.copy(), reader


def _on_table(example):
    """The example's position with the cards before the reader played; and the reader's seat."""
    state, reader = position(example)
    data = example.data
    leader = data.get("leader", state.to_act)
    for i, play in enumerate(plays_of(data["trick"])):
        state.apply(_move((leader + i) % state.seats, play))
    return state, reader


def engine_legal_cards(example):
    """The cards the reader of a 'legal' or 'try' example may play, from ``legal_actions``."""
    state, reader = _on_table(example)
    return deck_order({action.card for action in state.legal_actions(reader)})


def engine_trick_winner(example, choice=None):
    """The seat that wins the example's trick: a 'trick' as stated, a 'try' board after the
    reader's ``choice`` ("QH", "X2:take")."""
    data = example.data
    if example.kind == "trick":
        state, _ = position(example)
        start = state.copy()
        for i, play in enumerate(plays_of(data["plays"])):
            state.apply(_move((data["leader"] + i) % state.seats, play))
        return _winner(start, state)
    state, reader = _on_table(example)
    start = state.copy()
    state.apply(_move(reader, parse_choice(example, choice)))
    for i, play in enumerate(plays_of(data["after"])):
        state.apply(_move((reader + 1 + i) % state.seats, play))
    return _winner(start, state)


# --- bids and scores -------------------------------------------------------------------------


def engine_forbidden_bid(deal_size, bids):
    """The dealer's forbidden number after ``bids`` (seats 0-2; seat 3 deals) in a real deal."""
    game_type, deal_index = _first_deal("normal", deal_size)
    state = _classic_game(game_type, deal_index, dealer=3)
    deal_from_deck(state, shuffled_deck(random.Random(SEED)))
    if state.phase is Phase.TRUMP:
        state.apply(state.legal_actions(state.to_act)[0])
    for seat, bid in enumerate(bids):
        state.apply(Bid(seat, bid))
    return state.view(3)["forbidden_bid"]


def _deal_and_play(state, bids, tricks, rng_seed):
    """Deal the next deal of ``state`` and play it: seat s bids ``bids[s]`` (``bids`` None: no
    bidding; a None bid: any legal bid) and takes ``tricks[s]`` (None: any number).
    Returns the state after the deal."""
    size = state.cards_per_player
    trump = "H"
    turned = None if size == 9 else "6H"  # a turned heart: hearts are trump
    spare = size - sum(t for t in tricks if t is not None)
    free = [seat for seat, t in enumerate(tricks) if t is None]
    # The hint for the cards shares the tricks nobody counts among the seats without a target.
    hint = [
        t if t is not None else spare // len(free) + (free.index(seat) < spare % len(free))
        for seat, t in enumerate(tricks)
    ]
    for attempt in range(ATTEMPTS):
        rng = random.Random(rng_seed + attempt)
        hands, _ = _biased_hands([size] * 4, hint, trump, {turned}, rng)
        deal = state.copy()
        deal.deal(hands, turned)
        _start_play(deal, trump, bids)
        finished = _play_deal_to_tricks(deal, tricks, trump, rng, SEARCH_BUDGET)
        if finished is not None:
            return finished
    raise PositionError(f"no deal found in which the seats take {tricks} tricks")


def engine_deal_score(deal_size, bid, tricks, khishti=200, pulka=None):
    """Seat 0's score in a real deal where it bids ``bid`` (no bid in golden/misère) and takes ``tricks``."""
    kind = pulka or "normal"
    game_type, deal_index = _first_deal(kind, deal_size)
    options = {"khishti": khishti} if kind == "normal" else {}
    state = _classic_game(game_type, deal_index, dealer=3, **options)
    bids = [bid, None, None, None] if kind == "normal" else None
    state = _deal_and_play(state, bids, [tricks, None, None, None], SEED)
    return state.scores()["deal_scores"][-1][0]


def engine_pulka(setting, khishti, deal_sizes, bids, tricks):
    """Deal scores (a row per seat) and premium + moshla per seat of a real pulka played
    with these bids and tricks, at a table with these options."""
    game_type, deal_index = _first_pulka(deal_sizes)
    state = _classic_game(game_type, deal_index, dealer=0, khishti=khishti, pulka_bonus=setting)
    for deal in range(len(deal_sizes)):
        column = [row[deal] for row in tricks]
        state = _deal_and_play(state, [row[deal] for row in bids], column, SEED + 1000 * deal)
    sheet = state.scores()
    scores = sheet["deal_scores"][deal_index:]
    rows = [[scores[deal][seat] for deal in range(len(deal_sizes))] for seat in range(4)]
    return rows, sheet["pulka_bonus"][-1]


def _japanese_deal_and_play(state, tricks, rng_seed):
    """Deal the next Japanese deal and play it so that seat s takes ``tricks[s]``."""
    trump = "H"
    for attempt in range(ATTEMPTS):
        rng = random.Random(rng_seed + attempt)
        cards, _ = _biased_hands([JAPANESE_TRICKS] * 2, tricks, trump, set(), rng)
        deal = state.copy()
        hands, tables = [own[:JAPANESE_HAND] for own in cards], [own[JAPANESE_HAND:] for own in cards]
        _japanese_deal(deal, hands, tables)
        deal.apply(ChooseTrump(deal.declarer, trump))
        finished = _play_deal_to_tricks(deal, tricks, trump, rng, SEARCH_BUDGET)
        if finished is not None:
            return finished
    raise PositionError(f"no Japanese deal found that ends {tricks[0]}:{tricks[1]}")


def engine_japanese_match(target, deals):
    """Points per deal, totals and winner (or None) of a real match to ``target`` whose deals
    end with these trick splits. Deals after the match is over are not played."""
    state = JapaneseState({"target": target})
    for number, tricks in enumerate(deals):
        if state.phase is Phase.GAME_OVER:
            break
        state = _japanese_deal_and_play(state, tricks, SEED + 1000 * number)
    sheet = state.scores()
    return sheet["deal_scores"], sheet["totals"], (sheet["winner"] or [None])[0]


# --- the outcome of an example ---------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _outcome(key):
    data = json.loads(key)
    kind = data["kind"]
    if kind == "bid":
        return {"forbidden": engine_forbidden_bid(data["deal_size"], data["bids"])}
    if kind == "score":
        size, khishti = data.get("deal_size", 9), data.get("khishti", 200)
        return {"score": engine_deal_score(size, data.get("bid"), data["tricks"], khishti, data.get("pulka"))}
    if kind == "pulka":
        scores, bonus = engine_pulka(
            data["setting"], data.get("khishti", 200), data["deal_sizes"], data["bids"], data["tricks"]
        )
        return {"deal_scores": scores, "bonus": bonus}
    if kind == "japanese_deal":
        points, _, _ = engine_japanese_match(NO_MATCH_END, [data["tricks"]])
        return {"points": points[0]}
    if kind == "match":
        points, totals, winner = engine_japanese_match(data["target"], data["deals"])
        return {"points": points, "totals": totals, "winner": winner}
    raise ExampleError(f"no engine check for kind {kind!r}")


def outcome_from_engine(example):
    """The engine's outcome for an example, shaped like ``examples.stated_outcome``."""
    if example.kind == "trick":
        return {"winner": engine_trick_winner(example)}
    if example.kind == "legal":
        return {"legal": engine_legal_cards(example)}
    if example.kind == "try":
        legal = engine_legal_cards(example)  # the choices are the engine's legal cards, not the page's
        winners = {key: engine_trick_winner(example, key) for key in choice_keys(example, legal)}
        return {"legal": legal, "winners": winners}
    return json.loads(json.dumps(_outcome(_cache_key(example))))  # a fresh copy of the cached answer


# --- the try-it boards -----------------------------------------------------------------------


def try_board_legal_cards(example):
    """The cards the reader of a 'try' board may play, from the engine."""
    return engine_legal_cards(example)


def try_board_winner(example, choice):
    """The seat that takes the board's trick once the reader plays ``choice`` (a legal card);
    ExampleError for a malformed choice."""
    return engine_trick_winner(example, choice)
