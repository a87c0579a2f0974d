"""The rules of play at mask level, written once: what a follower may play, who wins a
trick, what a deal scores, and the card tables they work on.

The engine's states (classic.py, japanese.py) and the bot's playouts
(bot_classic.py, bot_japanese.py) both call these; nothing else restates them.
Cards are the engine's indices and hands 36-bit masks (cards.py); joker modes are
common.py's MODE_NONE / MODE_TAKE / MODE_DISCARD; a trump or led suit is 0-3, -1
for none.
"""

from __future__ import annotations

from .cards import (
    ABOVE,
    BELOW,
    BIT,
    CARD_INDEX,
    CARD_NAMES,
    FULL_DECK,
    JOKER_MASK,
    NO_SUIT,
    RANK_OF,
    RANKS,
    SUIT_INDEX,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    X1,
    X2,
)
from .common import MODE_DISCARD, MODE_NAMES, MODE_NONE, MODE_OF, MODE_TAKE

__all__ = [
    "ABOVE",
    "BELOW",
    "BIDDING_KINDS",
    "BIT",
    "CARD_INDEX",
    "CARD_NAMES",
    "DARK",
    "FULL_DECK",
    "GOLDEN",
    "JOKER_MASK",
    "LED_STRENGTH",
    "MISERE",
    "MODE_DISCARD",
    "MODE_NAMES",
    "MODE_NONE",
    "MODE_OF",
    "MODE_TAKE",
    "NORMAL",
    "NO_SUIT",
    "NO_TRUMP",
    "RANKS",
    "RANK_OF",
    "STRENGTH",
    "SUITS",
    "SUIT_INDEX",
    "SUIT_MASK",
    "SUIT_OF",
    "TAKE_STRENGTH",
    "TRUMP_STRENGTH",
    "X1",
    "X2",
    "classic_beaters",
        "classic_trick_winner",
    "deal_score",
    "japanese_beaters",
    "japanese_deal_scores",
    "japanese_follower_wins",
    "lead_of",
    "legal_follow",
    "play_from_column",
    "play_strength",
    "player_score",
    "special_score",
    "strength_row",
]

# The kinds of classic deals (pulkas).
NORMAL = "normal"
GOLDEN = "golden"
NO_TRUMP = "no_trump"
DARK = "dark"
MISERE = "misere"
BIDDING_KINDS = (NORMAL, NO_TRUMP, DARK)


# --- following (both variants) --------------------------------------------------------------


def legal_follow(
    hand: int, led: int, must_high: bool, trump_mask: int, _jokers=JOKER_MASK, _suit_mask=SUIT_MASK, _bit=BIT
) -> int:
    """The cards of ``hand`` a follower may play (rules.md 2.4-2.5, 3.3), as a mask.

    Follow the led (or named) suit — only its highest card when ``must_high``
    (after a classic joker led as take, after any Japanese joker lead) — else
    trump, else anything; a joker may always be played. In Japanese ``hand`` is
    every card the player may use (the hand, and the face-up cards once their
    first card is down).
    """
    # (The tables are bound as defaults: a local is read faster than a global on this hot path.)
    jokers = hand & _jokers
    follow = hand & _suit_mask[led]
    if follow:
        if must_high:
            return _bit[follow.bit_length() - 1] | jokers
        return follow | jokers
    trumps = hand & trump_mask
    if trumps:
        return trumps | jokers
    return hand


def lead_of(card: int, mode: int, named: int) -> tuple[int, bool]:
    """(led suit, must followers play their highest card of it) of a card that leads.

    A joker leads the suit it names; followers must play their highest card of it
    after a take (a Japanese joker always takes: pass MODE_TAKE).
    """
    if card == X1 or card == X2:
        return named, mode == MODE_TAKE
    return SUIT_OF[card], False


# --- who takes a classic trick (rules.md 2.6) --------------------------------------------------

# A card's strength in a trick: the highest strength takes it. An ordinary card is
# TRUMP_STRENGTH + index as a trump, LED_STRENGTH + index in the led suit, -1 otherwise
# (it can never win). A joker played as take is TAKE_STRENGTH + its position in the
# trick (0 = the lead), so a later take beats an earlier one; a joker discarded is -1.
# With nothing above -1 the trick stays with its leader (a joker led as discard that
# nobody follows or trumps: the rare case of 2.6 step 4).
TRUMP_STRENGTH = 200
LED_STRENGTH = 100
TAKE_STRENGTH = 1000
TAKE_AT = (TAKE_STRENGTH, TAKE_STRENGTH + 1, TAKE_STRENGTH + 2, TAKE_STRENGTH + 3)

# STRENGTH[trump + 1][led][card]: the strength of an ordinary card (jokers: -1).
STRENGTH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            -1
            if SUIT_OF[c] == NO_SUIT
            else TRUMP_STRENGTH + c
            if SUIT_OF[c] == trump
            else LED_STRENGTH + c
            if SUIT_OF[c] == led
            else -1
            for c in range(36)
        )
        for led in range(4)
    )
    for trump in range(-1, 4)
)


def strength_row(trump: int, led: int) -> tuple[int, ...]:
    """The strength of every ordinary card in a trick led in ``led`` under ``trump``."""
    return STRENGTH[trump + 1][led]


def play_strength(row: tuple[int, ...], card: int, mode: int, position: int) -> int:
    """The strength of a card played at ``position`` (0 = the lead) of a trick with strength ``row``."""
    if card == X1 or card == X2:
        return TAKE_AT[position] if mode == MODE_TAKE else -1
    return row[card]


def classic_trick_winner(plays, trump: int) -> int:
    """The seat that takes a trick of (seat, card, mode, named) plays, the lead first."""
    seat0, card0, mode0, named0 = plays[0]
    led, _ = lead_of(card0, mode0, named0)
    row = STRENGTH[trump + 1][led]
    best = play_strength(row, card0, mode0, 0)
    winner = seat0
    for position in range(1, len(plays)):
        seat, card, mode, _named = plays[position]
        strength = play_strength(row, card, mode, position)
        if strength > best:
            best, winner = strength, seat
    return winner


def classic_beaters(legal: int, best: int, best_card: int, led: int, trump_mask: int) -> int:
    """The cards of ``legal`` that would take the trick from the card now winning it
    (``best`` its strength, ``best_card`` the card); jokers count as played to take."""
    jokers = legal & JOKER_MASK
    if best >= TAKE_STRENGTH:
        return jokers
    if best >= TRUMP_STRENGTH:
        return (legal & trump_mask & ABOVE[best_card]) | jokers
    if best >= LED_STRENGTH:
        return (legal & ABOVE[best_card]) | (legal & trump_mask) | jokers
    return (legal & (SUIT_MASK[led] | trump_mask)) | jokers


# --- who takes a Japanese trick (rules.md 3.4) -------------------------------------------------


def japanese_follower_wins(lead: int, named: int, follow: int, trump: int) -> bool:
    """True when the follower's card takes the trick from ``lead``.

    ``named`` is the suit a leading joker named (ignored for an ordinary lead).
    A joker that follows always wins; a joker lead loses only to a trump when it
    named another suit.
    """
    if follow == X1 or follow == X2:
        return True
    follow_suit = SUIT_OF[follow]
    if lead == X1 or lead == X2:
        return trump != NO_SUIT and named != trump and follow_suit == trump
    lead_suit = SUIT_OF[lead]
    if follow_suit == trump and lead_suit != trump:
        return True
    return follow_suit == lead_suit and follow > lead


def japanese_beaters(legal: int, lead: int, named: int, trump: int, trump_mask: int) -> int:
    """The ordinary cards of ``legal`` that take the trick from ``lead`` (as japanese_follower_wins)."""
    legal &= ~JOKER_MASK
    if lead == X1 or lead == X2:
        return legal & trump_mask if trump != NO_SUIT and named != trump else 0
    if SUIT_OF[lead] == trump:
        return legal & ABOVE[lead]
    return (legal & ABOVE[lead]) | (legal & trump_mask)


# --- the Japanese table (rules.md 3.2) -------------------------------------------------------------


def play_from_column(columns: list, index: int, hand: int, up: int) -> tuple[int, int]:
    """A player's face-up card is played from their table, from ``columns[index]``: that
    column empties and the face-down card under it goes into the hand; when this leaves a
    single column, its two cards go into the hand as well. ``columns`` lists the player's
    columns as (face_down, face_up) pairs, None for an emptied one (it is changed in place);
    ``hand`` and ``up`` are the player's hand and face-up masks. Returns the new (hand, up).
    """
    down, card = columns[index]
    columns[index] = None
    hand |= BIT[down]
    up ^= BIT[card]
    if len(columns) - columns.count(None) == 1:
        for i, column in enumerate(columns):
            if column is not None:
                hand |= BIT[column[0]] | BIT[column[1]]
                up ^= BIT[column[1]]
                columns[i] = None
    return hand, up


# --- what a deal scores --------------------------------------------------------------------------


def deal_score(bid: int, took: int, cards: int, khishti) -> int:
    """Score of one player in a bidding deal (rules.md 2.7); ``khishti`` is the option's value."""
    if took == bid:
        if bid == 0:
            return 50
        if bid == cards:
            return 100 * cards
        return 50 * (bid + 1)
    if took == 0:  # and bid >= 1: khishti
        return -(100 * cards if khishti == "per_card" else khishti)
    return 10 * took


def special_score(kind: str, took: int, cards: int) -> int:
    """Score in the golden and misère pulkas (no bidding)."""
    if kind == GOLDEN:
        return 100 * took
    return 100 * cards if took == cards else -100 * took


def player_score(kind: str, bid, took: int, cards: int, khishti) -> int:
    """Score of one player in a deal of any kind (``bid`` is ignored in golden and misère)."""
    if kind == GOLDEN or kind == MISERE:
        return special_score(kind, took, cards)
    return deal_score(bid, took, cards, khishti)


def pulka_standing(deals) -> tuple[tuple, tuple]:
    """(closed, best) by seat over a bidding pulka's ``deals`` so far, each given as its (bids,
    tricks, scores) by seat (rules.md 2.8): whether each player took exactly their bid in every
    one of them, and their best deal score in them."""
    deals = list(deals)
    seats = range(len(deals[0][0]))
    closed = tuple(all(bids[s] == tricks[s] for bids, tricks, _scores in deals) for s in seats)
    best = tuple(max(scores[s] for _bids, _tricks, scores in deals) for s in seats)
    return closed, best


def pulka_bonus(mode: str, closed, best) -> tuple[tuple, tuple]:
    """(premium, moshla) by seat when a bidding pulka ends (rules.md 2.8): ``mode`` the table's
    ``pulka_bonus`` option, ``closed`` by seat whether the player took exactly their bid in every
    deal of the pulka, ``best`` by seat their best deal score in it."""
    seats = range(len(closed))
    zeros = (0,) * len(closed)
    premium = tuple(best[s] if closed[s] else 0 for s in seats) if mode != "none" else zeros
    moshla = zeros
    if mode == "premium_moshla" and any(closed):
        moshla = tuple(-best[s] if not closed[s] and best[s] > 0 else 0 for s in seats)
    return premium, moshla


def japanese_deal_scores(taken) -> tuple[int, int]:
    """A Japanese deal's scores by seat: the difference in tricks goes to the one who took more."""
    a, b = taken
    return (a - b, 0) if a > b else (0, b - a)
