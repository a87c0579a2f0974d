"""Worked examples of the rules pages, as data the engine can check.

Every worked example in a content file sits next to a fenced block::

    ```example
    {"id": "joker-take-beats-trump-ace", "kind": "trick", ...}
    ```

This module parses such a block against the schema in docs/rules_pages.md
(``parse_example``) and says what outcome the page states (``stated_outcome``).
The engine bridge (``rules_pages.engine_bridge.outcome_from_engine``) plays the same
example out in the rules engine; tests/test_rules_pages_examples.py compares the two,
so the pages and the engine never disagree. The rules themselves live only in
``games.engine``; nothing here decides who wins a trick or what a hand scores.
"""

import json
import re
from dataclasses import dataclass, field

from games.card_faces import ALL_CARDS, JOKERS, SUITS, CardCodeError, check_card
from games.engine.classic import KHISHTI_VALUES, PULKA_BONUS_MODES
from games.engine.japanese import TARGETS as JAPANESE_TARGETS

VARIANTS = {"classic": 4, "japanese": 2}  # variant -> number of seats
TRUMPS = (*SUITS, "none")
KHISHTI = KHISHTI_VALUES
PULKA_SETTINGS = PULKA_BONUS_MODES
SPECIAL_PULKAS = ("golden", "misere")
JAPANESE_TRICKS = 18
JOKER_MODES = ("take", "discard")
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
KINDS = ("trick", "legal", "bid", "score", "pulka", "japanese_deal", "match", "try")
# Keys a translation may word differently; every other key must be the same in all languages.
LOCALIZED_KEYS = frozenset({"names", "caption", "why"})
COMMON_KEYS = {"id", "kind"} | LOCALIZED_KEYS


class ExampleError(ValueError):
    """An example block that does not follow the schema."""


@dataclass(frozen=True)
class Play:
    """One card put on a trick, with the joker's words when it is a joker."""

    card: str
    joker: str | None = None  # "take" or "discard"
    suit: str | None = None  # the suit named by a joker that leads

    def as_dict(self):
        data = {"card": self.card}
        if self.joker:
            data["joker"] = self.joker
        if self.suit:
            data["suit"] = self.suit
        return data


@dataclass
class Example:
    id: str
    kind: str
    data: dict
    localized: dict = field(default_factory=dict)

    @property
    def seats(self):
        if self.kind in ("japanese_deal", "match"):
            return VARIANTS["japanese"]
        return VARIANTS[self.data.get("variant", "classic")]

    def machine_data(self):
        """What must be equal in every language: the block without its wording."""
        return {"id": self.id, "kind": self.kind, **self.data}

    def name_of(self, seat):
        names = self.localized.get("names")
        return names[seat] if names else None


# --- Parsing -----------------------------------------------------------------------


def parse_example(text, where="example"):
    """Parse the JSON of one block and check it against the schema; raise ExampleError."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ExampleError(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno})") from exc
    if not isinstance(raw, dict):
        raise ExampleError(f"{where}: an example block must be a JSON object")
    example_id = raw.get("id")
    if not isinstance(example_id, str) or not ID_PATTERN.match(example_id):
        raise ExampleError(f"{where}: 'id' must be lower-case words joined by '-', got {example_id!r}")
    where = f"{where} {example_id!r}"
    kind = raw.get("kind")
    if kind not in KINDS:
        raise ExampleError(f"{where}: 'kind' must be one of {', '.join(KINDS)}, got {kind!r}")
    data = {k: v for k, v in raw.items() if k not in COMMON_KEYS}
    localized = {k: v for k, v in raw.items() if k in LOCALIZED_KEYS}
    example = Example(id=example_id, kind=kind, data=data, localized=localized)
    try:
        CHECKERS[kind](example)
        _check_localized(example)
    except (CardCodeError, KeyError, TypeError) as exc:
        raise ExampleError(f"{where}: {exc}") from exc
    except ExampleError as exc:
        raise ExampleError(f"{where}: {exc}") from exc
    return example


def _require(data, allowed, required):
    unknown = set(data) - set(allowed)
    if unknown:
        raise ExampleError(f"unknown key(s) {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(allowed))}")
    missing = [key for key in required if key not in data]
    if missing:
        raise ExampleError(f"missing key(s) {', '.join(missing)}")


def _int(value, name, low, high):
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ExampleError(f"'{name}' must be a whole number from {low} to {high}, got {value!r}")
    return value


def _choice(value, name, choices):
    choices = tuple(choices)
    if value not in choices:
        raise ExampleError(f"'{name}' must be one of {', '.join(map(str, choices))}, got {value!r}")
    return value


def _cards(value, name):
    if not isinstance(value, list):
        raise ExampleError(f"'{name}' must be a list of card codes")
    for code in value:
        check_card(code)
    if len(set(value)) != len(value):
        raise ExampleError(f"'{name}' lists a card twice")
    return value


def _plays(value, name, variant, starts_trick):
    """Plays in order; the first one leads the trick when ``starts_trick``."""
    if not isinstance(value, list):
        raise ExampleError(f"'{name}' must be a list of plays")
    plays = []
    for index, raw in enumerate(value):
        if not isinstance(raw, dict):
            raise ExampleError(f"'{name}'[{index}] must be an object like {{\"card\": \"AS\"}}")
        _require(raw, {"card", "joker", "suit"}, ["card"])
        card = check_card(raw["card"])
        leads = starts_trick and index == 0
        joker, suit = raw.get("joker"), raw.get("suit")
        if card in JOKERS:
            if variant == "classic":
                _choice(joker, f"{name}[{index}].joker", JOKER_MODES)
            elif joker not in (None, "take"):
                raise ExampleError(f"'{name}'[{index}]: a joker in Japanese Joker always takes")
            if leads:
                _choice(suit, f"{name}[{index}].suit", SUITS)
            elif suit is not None:
                raise ExampleError(f"'{name}'[{index}]: only a joker that leads names a suit")
        elif joker is not None or suit is not None:
            raise ExampleError(f"'{name}'[{index}]: only a joker takes 'joker' or 'suit'")
        plays.append(Play(card, joker if card in JOKERS else None, suit))
    return plays


def _no_repeats(*groups):
    seen = [code for group in groups for code in group]
    if len(set(seen)) != len(seen):
        raise ExampleError("the same card appears twice in one example")


def _check_trick(example):
    data = example.data
    _require(data, {"variant", "trump", "leader", "plays", "winner"}, ["variant", "trump", "leader", "plays", "winner"])
    variant = _choice(data["variant"], "variant", VARIANTS)
    seats = VARIANTS[variant]
    _choice(data["trump"], "trump", TRUMPS)
    _int(data["leader"], "leader", 0, seats - 1)
    plays = _plays(data["plays"], "plays", variant, starts_trick=True)
    if len(plays) != seats:
        raise ExampleError(f"a {variant} trick has {seats} cards, this one has {len(plays)}")
    _no_repeats([p.card for p in plays])
    _int(data["winner"], "winner", 0, seats - 1)


def _check_legal(example):
    data = example.data
    variant = _choice(data.get("variant"), "variant", VARIANTS)
    allowed = {"variant", "trump", "hand", "trick", "legal"}
    if variant == "japanese":
        allowed |= {"face_up", "first_play"}
    _require(data, allowed, ["variant", "trump", "hand", "trick", "legal"])
    _choice(data["trump"], "trump", TRUMPS)
    hand = _cards(data["hand"], "hand")
    face_up = _cards(data.get("face_up", []), "face_up")
    if "first_play" in data and not isinstance(data["first_play"], bool):
        raise ExampleError("'first_play' must be true or false")
    trick = _plays(data["trick"], "trick", variant, starts_trick=True)
    if len(trick) >= VARIANTS[variant]:
        raise ExampleError("'trick' holds the cards already played, so it must leave a place for this player")
    legal = _cards(data["legal"], "legal")
    _no_repeats(hand, face_up, [p.card for p in trick])
    if not legal or not set(legal) <= set(hand) | set(face_up):
        raise ExampleError("'legal' must name at least one card, all from 'hand' (or 'face_up')")


def _check_bid(example):
    data = example.data
    _require(data, {"deal_size", "bids", "forbidden"}, ["deal_size", "bids", "forbidden"])
    size = _int(data["deal_size"], "deal_size", 1, 9)
    if not isinstance(data["bids"], list) or len(data["bids"]) != 3:
        raise ExampleError("'bids' lists the three bids made before the dealer's")
    for bid in data["bids"]:
        _int(bid, "bids[]", 0, size)
    if data["forbidden"] is not None:
        _int(data["forbidden"], "forbidden", 0, size)


def _khishti(data):
    return _choice(data.get("khishti", 200), "khishti", KHISHTI)


def _check_score(example):
    data = example.data
    pulka = data.get("pulka")
    if pulka is None:
        _require(data, {"deal_size", "bid", "tricks", "khishti", "score"}, ["deal_size", "bid", "tricks", "score"])
        size = _int(data["deal_size"], "deal_size", 1, 9)
        _int(data["bid"], "bid", 0, size)
    else:
        _require(data, {"pulka", "deal_size", "tricks", "score"}, ["pulka", "tricks", "score"])
        _choice(pulka, "pulka", SPECIAL_PULKAS)
        size = _int(data.get("deal_size", 9), "deal_size", 9, 9)
    _int(data["tricks"], "tricks", 0, size)
    _khishti(data)
    _int(data["score"], "score", -100 * 9 * 10, 100 * 9)


def _grid(value, name, columns):
    if not isinstance(value, list) or len(value) != 4 or any(not isinstance(r, list) or len(r) != columns for r in value):
        raise ExampleError(f"'{name}' must hold four rows (one per seat) of {columns} numbers each")
    return value


def _check_pulka(example):
    data = example.data
    keys = ["setting", "deal_sizes", "bids", "tricks", "deal_scores", "bonus"]
    _require(data, set(keys) | {"khishti"}, keys)
    _choice(data["setting"], "setting", PULKA_SETTINGS)
    _khishti(data)
    sizes = data["deal_sizes"]
    if not isinstance(sizes, list) or not sizes:
        raise ExampleError("'deal_sizes' must list the cards per player of each deal of the pulka")
    for size in sizes:
        _int(size, "deal_sizes[]", 1, 9)
    bids = _grid(data["bids"], "bids", len(sizes))
    tricks = _grid(data["tricks"], "tricks", len(sizes))
    scores = _grid(data["deal_scores"], "deal_scores", len(sizes))
    for deal, size in enumerate(sizes):
        column_bids = [bids[seat][deal] for seat in range(4)]
        column_tricks = [tricks[seat][deal] for seat in range(4)]
        for value in column_bids + column_tricks:
            _int(value, "bids/tricks", 0, size)
        if sum(column_tricks) != size:
            raise ExampleError(f"deal {deal + 1}: the tricks must add up to {size}")
        if sum(column_bids) == size:
            raise ExampleError(f"deal {deal + 1}: four bids can never add up to the deal size")
        for seat in range(4):
            _int(scores[seat][deal], "deal_scores", -4500, 900)
    if not isinstance(data["bonus"], list) or len(data["bonus"]) != 4:
        raise ExampleError("'bonus' lists premium plus moshla for each of the four seats")
    for value in data["bonus"]:
        _int(value, "bonus[]", -900, 900)


def _tricks_pair(value, name):
    if not isinstance(value, list) or len(value) != 2:
        raise ExampleError(f"'{name}' must be a pair of numbers")
    for count in value:
        _int(count, name, 0, JAPANESE_TRICKS)
    if sum(value) != JAPANESE_TRICKS:
        raise ExampleError(f"'{name}': the two players take {JAPANESE_TRICKS} tricks in all")
    return value


def _check_japanese_deal(example):
    data = example.data
    _require(data, {"tricks", "points"}, ["tricks", "points"])
    _tricks_pair(data["tricks"], "tricks")
    if not isinstance(data["points"], list) or len(data["points"]) != 2:
        raise ExampleError("'points' must be a pair of numbers")
    for value in data["points"]:
        _int(value, "points", 0, JAPANESE_TRICKS)


def _check_match(example):
    data = example.data
    _require(data, {"target", "deals", "points", "totals", "winner"}, ["target", "deals", "points", "totals", "winner"])
    _choice(data["target"], "target", JAPANESE_TARGETS)
    if not isinstance(data["deals"], list) or not data["deals"]:
        raise ExampleError("'deals' lists the tricks of each deal, e.g. [[11, 7], [9, 9]]")
    for deal in data["deals"]:
        _tricks_pair(deal, "deals[]")
    points = data["points"]
    if not isinstance(points, list) or len(points) != len(data["deals"]):
        raise ExampleError("'points' lists the points of each deal, one pair per deal")
    for pair in points:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ExampleError("'points' must hold pairs of numbers")
        for value in pair:
            _int(value, "points", 0, JAPANESE_TRICKS)
    if data["totals"] != [sum(pair[seat] for pair in points) for seat in (0, 1)]:
        raise ExampleError("'totals' must be the sum of 'points'")
    if data["winner"] is not None:
        _int(data["winner"], "winner", 0, 1)


def _check_try(example):
    data = example.data
    variant = _choice(data.get("variant"), "variant", VARIANTS)
    allowed = {"variant", "trump", "leader", "trick", "hand", "after", "legal", "winners"}
    if variant == "japanese":
        allowed |= {"face_up", "first_play"}
    _require(data, allowed, ["variant", "trump", "leader", "trick", "hand", "after", "legal", "winners"])
    seats = VARIANTS[variant]
    _choice(data["trump"], "trump", TRUMPS)
    _int(data["leader"], "leader", 0, seats - 1)
    trick = _plays(data["trick"], "trick", variant, starts_trick=True)
    after = _plays(data["after"], "after", variant, starts_trick=False)
    if not trick:
        raise ExampleError("'trick' must hold at least the led card: the reader follows")
    if len(trick) + 1 + len(after) != seats:
        raise ExampleError(f"'trick', the reader's card and 'after' must make a {variant} trick of {seats}")
    hand = _cards(data["hand"], "hand")
    face_up = _cards(data.get("face_up", []), "face_up")
    if "first_play" in data and not isinstance(data["first_play"], bool):
        raise ExampleError("'first_play' must be true or false")
    _no_repeats(hand, face_up, [p.card for p in trick + after])
    legal = _cards(data["legal"], "legal")
    if not legal or not set(legal) <= set(hand) | set(face_up):
        raise ExampleError("'legal' must name at least one card, all from 'hand' (or 'face_up')")
    winners = data["winners"]
    if not isinstance(winners, dict) or set(winners) != set(choice_keys(example)):
        raise ExampleError(
            "'winners' needs one entry per legal choice: " + ", ".join(choice_keys(example))
        )
    for value in winners.values():
        _int(value, "winners[]", 0, seats - 1)


def _check_localized(example):
    names = example.localized.get("names")
    well_formed = isinstance(names, list) and len(names) == example.seats and all(isinstance(n, str) and n for n in names)
    if names is not None and not well_formed:
        raise ExampleError(f"'names' must list {example.seats} names, one per seat")
    for key in ("caption", "why"):
        if key in example.localized and not (isinstance(example.localized[key], str) and example.localized[key].strip()):
            raise ExampleError(f"'{key}' must be a non-empty text")
    if example.kind == "try" and "why" not in example.localized:
        raise ExampleError("a 'try' example needs 'why': the rule that makes the legal cards legal")


CHECKERS = {
    "trick": _check_trick,
    "legal": _check_legal,
    "bid": _check_bid,
    "score": _check_score,
    "pulka": _check_pulka,
    "japanese_deal": _check_japanese_deal,
    "match": _check_match,
    "try": _check_try,
}


# --- What the page says --------------------------------------------------------------


def deck_order(cards):
    return sorted(cards, key=ALL_CARDS.index)


def choice_keys(example, legal=None):
    """The reader's choices on a 'try' board: each legal card (the page's, or ``legal``), a
    classic joker once per mode."""
    keys = []
    for code in deck_order(example.data["legal"] if legal is None else legal):
        if code in JOKERS and example.data["variant"] == "classic":
            keys += [f"{code}:take", f"{code}:discard"]
        else:
            keys.append(code)
    return keys


def stated_outcome(example):
    """The outcome the page states for an example, in the shape outcome_from_engine returns."""
    data = example.data
    if example.kind == "trick":
        return {"winner": data["winner"]}
    if example.kind == "legal":
        return {"legal": deck_order(data["legal"])}
    if example.kind == "bid":
        return {"forbidden": data["forbidden"]}
    if example.kind == "score":
        return {"score": data["score"]}
    if example.kind == "pulka":
        return {"deal_scores": data["deal_scores"], "bonus": data["bonus"]}
    if example.kind == "japanese_deal":
        return {"points": data["points"]}
    if example.kind == "match":
        return {"points": data["points"], "totals": data["totals"], "winner": data["winner"]}
    if example.kind == "try":
        return {"legal": deck_order(data["legal"]), "winners": dict(data["winners"])}
    raise ExampleError(f"no outcome for kind {example.kind!r}")


def plays_of(plays):
    return [Play(**raw) if isinstance(raw, dict) else raw for raw in plays]


def seat_of_play(example, index):
    return (example.data["leader"] + index) % example.seats


def reader_seat(example):
    """The seat the reader plays on a 'try' board."""
    return seat_of_play(example, len(example.data["trick"]))


def parse_choice(example, choice):
    """Turn the reader's pick ("QH", or "X2:take" for a classic joker) into a Play; ExampleError if malformed."""
    card, _, mode = str(choice).partition(":")
    try:
        check_card(card)
    except CardCodeError as exc:
        raise ExampleError(str(exc)) from exc
    if card not in example.data["hand"] and card not in example.data.get("face_up", []):
        raise ExampleError(f"{card} is not one of your cards here")
    if card in JOKERS and example.data["variant"] == "classic":
        if mode not in JOKER_MODES:
            raise ExampleError("say whether the joker takes or discards: add ':take' or ':discard'")
        return Play(card, mode)
    if mode:
        raise ExampleError("only a joker in classic Joker is played with ':take' or ':discard'")
    return Play(card, "take" if card in JOKERS else None)


def full_trick(example, play):
    """The whole trick of a 'try' board once the reader has played ``play``."""
    return plays_of(example.data["trick"]) + [play] + plays_of(example.data["after"])
