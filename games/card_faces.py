"""Card faces for every page of the site: the live table, the rules pages, replays.

A card is written the way docs/record-format.md writes it: ranks ``6 7 8 9 T J Q K A``,
suits ``S C D H``, jokers ``X1`` and ``X2`` (``6S`` and ``6C`` do not exist).
This module only draws cards; what a card *does* is the engine's business.

Faces are inline SVG (no image files, nothing fetched from any host), so they stay
sharp at any size and carry an ``aria-label`` with the card's name in the current
language ("ace of spades", "ყვავის ტუზი", "туз пик").
"""

import functools

from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, pgettext

from .engine import JOKERS, RANKS, SUITS

SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
# The 36-card Joker deck: the black sixes are replaced by the two jokers.
ALL_CARDS = tuple(rank + suit for suit in SUITS for rank in RANKS if rank + suit not in {"6S", "6C"}) + JOKERS
SIZES = ("xs", "sm", "md", "lg")
RED_SUITS = {"D", "H"}
RANK_LABELS = {"T": "10"}


class CardCodeError(ValueError):
    """A card code that is not one of the 36 cards of the Joker deck."""


def check_card(code):
    """Return ``code`` if it names a card of the deck, else raise CardCodeError."""
    if not isinstance(code, str) or code not in ALL_CARDS:
        if code in {"6S", "6C"}:
            raise CardCodeError(f"{code} is not in the Joker deck: the black sixes are replaced by jokers")
        raise CardCodeError(
            f"unknown card code {code!r}: use a rank of {' '.join(RANKS)} and a suit of {' '.join(SUITS)}, "
            "or X1/X2 for the jokers"
        )
    return code


def check_suit(suit):
    if suit not in SUITS:
        raise CardCodeError(f"unknown suit {suit!r}: use one of {' '.join(SUITS)}")
    return suit


def is_joker(code):
    return code in JOKERS


# How a hand is shown: jokers first, then suits with colours alternating, high to low.
DISPLAY_SUIT_ORDER = "SHCD"


def display_order(codes):
    def key(code):
        if is_joker(code):
            return (0, code, 0)
        return (1, DISPLAY_SUIT_ORDER.index(code[1]), -RANKS.index(code[0]))

    return sorted(codes, key=key)


# --- Names in the current language -------------------------------------------------


def _once_per_language(draw):
    """A face or a name depends only on its arguments and the language: this process makes each
    once (a live table redraws the same few dozen cards for every seat on every move)."""
    drawn = {}

    @functools.wraps(draw)
    def cached(*args, **kwargs):
        key = (get_language(), args, tuple(sorted(kwargs.items())))
        face = drawn.get(key)
        if face is None:
            face = drawn[key] = draw(*args, **kwargs)  # a bad code raises, and nothing is kept
        return face  # a name is a plain str, a face safe HTML

    return cached


def rank_name(rank):
    names = {
        "6": pgettext("card rank", "six"),
        "7": pgettext("card rank", "seven"),
        "8": pgettext("card rank", "eight"),
        "9": pgettext("card rank", "nine"),
        "T": pgettext("card rank", "ten"),
        "J": pgettext("card rank", "jack"),
        "Q": pgettext("card rank", "queen"),
        "K": pgettext("card rank", "king"),
        "A": pgettext("card rank", "ace"),
    }
    return names[rank]


@_once_per_language
def suit_name(suit):
    """The suit as a trump is named: "hearts", "გული", "черви"; ``none`` is no trump."""
    names = {
        "S": pgettext("suit", "spades"),
        "C": pgettext("suit", "clubs"),
        "D": pgettext("suit", "diamonds"),
        "H": pgettext("suit", "hearts"),
        "none": pgettext("suit", "no trump"),
    }
    return names[suit]


def _suit_of_form(suit):
    # The form a suit takes inside a card's name: "of spades", Georgian genitive
    # "ყვავის", Russian genitive plural "пик".
    names = {
        "S": pgettext("suit inside a card name, as in 'ace of ___'", "spades"),
        "C": pgettext("suit inside a card name, as in 'ace of ___'", "clubs"),
        "D": pgettext("suit inside a card name, as in 'ace of ___'", "diamonds"),
        "H": pgettext("suit inside a card name, as in 'ace of ___'", "hearts"),
    }
    return names[suit]


@_once_per_language
def card_name(code):
    check_card(code)
    if is_joker(code):
        return gettext("joker")
    # Translators: a card's name; reorder freely, e.g. "%(suit)s %(rank)s".
    return gettext("%(rank)s of %(suit)s") % {"rank": rank_name(code[0]), "suit": _suit_of_form(code[1])}


@_once_per_language
def card_label(code):
    """The card's name as a label begins: "Ace of spades", "Туз пик", "ყვავის ტუზი".

    Georgian script has no capital letters for a sentence to begin with (Python's
    upper() would turn Mkhedruli into Mtavruli, the all-caps display script), so
    a Georgian name stays as it is."""
    name = card_name(code)
    if not name or "\u10a0" <= name[0] <= "\u10ff" or "\u1c90" <= name[0] <= "\u1cbf":
        return name
    return name[0].upper() + name[1:]


# --- Drawing -----------------------------------------------------------------------
# All faces share one 50 x 70 box. Suit shapes are drawn in a 10 x 12 box and placed
# with a transform; they are our own paths so every browser shows the same symbol
# (text glyphs for ♠♥ turn into emoji on some phones).

SUIT_PATHS = {
    "S": "M5 0C5 0 0 4.2 0 7.2C0 8.8 1.3 10 2.8 10C3.7 10 4.4 9.6 4.8 9.1L4.1 12H5.9L5.2 9.1"
    "C5.6 9.6 6.3 10 7.2 10C8.7 10 10 8.8 10 7.2C10 4.2 5 0 5 0Z",
    "H": "M5 11.5C5 11.5 0 7.6 0 3.6C0 1.6 1.5 0 3.2 0C4.1 0 4.7 .5 5 1.3C5.3 .5 5.9 0 6.8 0"
    "C8.5 0 10 1.6 10 3.6C10 7.6 5 11.5 5 11.5Z",
    "D": "M5 0L9.2 6L5 12L.8 6Z",
    "C": "M5 0A2.6 2.6 0 0 0 2.6 3.6A2.6 2.6 0 1 0 4.3 8.2L3.8 12H6.2L5.7 8.2A2.6 2.6 0 1 0 7.4 3.6"
    "A2.6 2.6 0 0 0 5 0Z",
}
STAR_PATH = "M5 0L6.2 3.6H10L6.9 5.8L8.1 9.5L5 7.2L1.9 9.5L3.1 5.8L0 3.6H3.8Z"
# A jester's cap: three floppy points with bells over a band.
JESTER_CAP = (
    "M9 40C8 31 5 24 1 19C8 19 13 24 16 31C16 22 19 13 25 8C31 13 34 22 34 31C37 24 42 19 49 19"
    "C45 24 42 31 41 40Z"
)
JESTER_BAND = "M8 39.5Q25 44 42 39.5L42 45Q25 49.5 8 45Z"
FRAME = '<rect x=".75" y=".75" width="48.5" height="68.5" rx="5" class="card__frame"/>'


def _suit_shape(suit, x, y, scale, css_class="card__suit"):
    return (
        f'<path class="{css_class}" transform="translate({x} {y}) scale({scale})" d="{SUIT_PATHS[suit]}"/>'
    )


def _face_body(code, size):
    rank, suit = code[0], code[1]
    label = RANK_LABELS.get(rank, rank)
    if size == "xs":
        # Inside a line of text: rank over suit, both as large as the card allows.
        return (
            FRAME
            + '<text x="25" y="30" class="card__rank card__rank--big" text-anchor="middle"'
            + (' textLength="34" lengthAdjust="spacingAndGlyphs"' if len(label) == 2 else "")
            + f">{label}</text>"
            + _suit_shape(suit, 13, 35.5, 2.4)
        )
    # "10" is two digits: squeeze it into the corner.
    squeeze = ' textLength="17" lengthAdjust="spacingAndGlyphs"' if len(label) == 2 else ""
    return (
        FRAME
        + f'<text x="{4 if squeeze else 4.5}" y="19" class="card__rank"{squeeze}>{label}</text>'
        + _suit_shape(suit, 5, 23, 1.05, "card__suit card__suit--corner")
        + _suit_shape(suit, 19.5, 30, 2.55, "card__suit card__suit--pip")
    )


def _joker_body(size):
    cap = (
        f'<g transform="translate(4.5 {9 if size == "xs" else 4}) scale(.82)">'
        f'<path class="card__cap" d="{JESTER_CAP}"/>'
        '<path class="card__cap-fold" d="M16 31L18 40M34 31L32 40"/>'
        f'<path class="card__band" d="{JESTER_BAND}"/>'
        '<circle class="card__bell" cx="1.8" cy="19" r="2.6"/>'
        '<circle class="card__bell" cx="25" cy="7.5" r="2.6"/>'
        '<circle class="card__bell" cx="48.2" cy="19" r="2.6"/></g>'
    )
    if size == "xs":
        # Inside a line of text only the cap is drawn, as large as it fits.
        return FRAME + cap + (
            f'<path class="card__star card__star--small" transform="translate(19 51) scale(1.2)" d="{STAR_PATH}"/>'
        )
    return (
        FRAME
        + f'<path class="card__star" transform="translate(4 4) scale(1.1)" d="{STAR_PATH}"/>'
        + f'<path class="card__star" transform="translate(35 55) scale(1.1)" d="{STAR_PATH}"/>'
        + cap.replace('translate(4.5 4)', 'translate(4.5 8)')
        + '<path class="card__star card__star--small" transform="translate(21.5 50) scale(.7)" '
        f'd="{STAR_PATH}"/>'
    )


def _back_body():
    # A lattice of small diamonds inside an inner border; drawn as one path so no ids are needed.
    diamonds = []
    for row in range(9):
        for col in range(6):
            cx, cy = 7 + col * 7.2 + (3.6 if row % 2 else 0), 7 + row * 7
            if cx > 44 or cy > 64:
                continue
            diamonds.append(f"M{cx:.1f} {cy - 2.6:.1f}l2.2 2.6l-2.2 2.6l-2.2-2.6Z")
    return (
        FRAME
        + '<rect x="4" y="4" width="42" height="62" rx="3" class="card__back-inner"/>'
        + f'<path class="card__back-lattice" d="{"".join(diamonds)}"/>'
    )


def _check_size(size):
    if size not in SIZES:
        raise ValueError(f"unknown card size {size!r}: use one of {', '.join(SIZES)}")
    return size


@_once_per_language
def render_card(code, size="md", extra_class=""):
    """The face of one card as inline SVG (safe HTML)."""
    check_card(code)
    _check_size(size)
    if is_joker(code):
        colour, body = ("joker-red" if code == "X1" else "joker-black"), _joker_body(size)
    else:
        colour, body = ("red" if code[1] in RED_SUITS else "black"), _face_body(code, size)
    classes = f"card card--{size} card--{colour}" + (f" {extra_class}" if extra_class else "")
    return format_html(
        '<svg class="{}" data-card="{}" viewBox="0 0 50 70" role="img" aria-label="{}" focusable="false">'
        "{}</svg>",
        classes,
        code,
        card_name(code),
        mark_safe(body),
    )


@_once_per_language
def render_back(size="md", extra_class=""):
    """A face-down card."""
    _check_size(size)
    classes = f"card card--{size} card--back" + (f" {extra_class}" if extra_class else "")
    return format_html(
        '<svg class="{}" data-card="back" viewBox="0 0 50 70" role="img" aria-label="{}" focusable="false">'
        "{}</svg>",
        classes,
        gettext("face-down card"),
        mark_safe(_back_body()),
    )


BACK_CODES = {"--", "back"}


def render_cards(codes, size="md", extra_class=""):
    """A row of cards (a hand, a trick). ``codes`` is a list or a space-separated string;
    ``--`` stands for a face-down card."""
    if isinstance(codes, str):
        codes = codes.split()
    faces = [render_back(size) if code in BACK_CODES else render_card(code, size) for code in codes]
    classes = f"card-row card-row--{size}" + (f" {extra_class}" if extra_class else "")
    return format_html('<span class="{}" role="group">{}</span>', classes, mark_safe("".join(faces)))


def render_columns(face_up, size="sm", extra_class=""):
    """Japanese Joker's table: each column a face-down card under a face-up one.
    ``face_up`` lists the face-up cards; ``--`` stands for a column whose top is unknown."""
    if isinstance(face_up, str):
        face_up = face_up.split()
    columns = [
        format_html(
            '<span class="card-column">{}{}</span>',
            render_back(size, "card-column__down"),
            render_back(size, "card-column__up") if code in BACK_CODES else render_card(code, size, "card-column__up"),
        )
        for code in face_up
    ]
    classes = f"card-columns card-row--{size}" + (f" {extra_class}" if extra_class else "")
    return format_html(
        '<span class="{}" role="group" aria-label="{}">{}</span>',
        classes, gettext("table columns"), mark_safe("".join(columns)),
    )


@_once_per_language
def render_suit(suit, extra_class=""):
    """A suit symbol on its own (a trump indicator); ``none`` shows the no-trump mark."""
    if suit == "none":
        return format_html(
            '<svg class="suit suit--none{}" viewBox="0 0 12 12" role="img" aria-label="{}" focusable="false">'
            '<circle cx="6" cy="6" r="4.6"/><path d="M2.7 9.3L9.3 2.7"/></svg>',
            f" {extra_class}" if extra_class else "",
            suit_name("none"),
        )
    check_suit(suit)
    colour = "red" if suit in RED_SUITS else "black"
    return format_html(
        '<svg class="suit suit--{}{}" data-suit="{}" viewBox="-1 0 12 12" role="img" aria-label="{}" focusable="false">'
        '<path d="{}"/></svg>',
        colour,
        f" {extra_class}" if extra_class else "",
        suit,
        suit_name(suit),
        SUIT_PATHS[suit],
    )
