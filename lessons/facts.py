"""Answers to the quiz questions, asked of the engine.

A quiz question in a step file names a fact (`{"name": "deal_score", "deal": 0,
"seat": 2}`) and offers choices; it never says which choice is right. The
engine decides: `answer(fact, state)` returns the right choice's value and the
numbers the host's explanation quotes. So a step cannot teach a score or a
rule the engine does not play.
"""

from games import card_faces
from games.engine import RANKS, SUITS, full_deck


class UnknownFact(ValueError):
    pass


def _cards_left_out(fact, state):
    """The cards of an ordinary 36-card deck (six to ace) that the Joker deck leaves out."""
    ordinary = {rank + suit for suit in SUITS for rank in RANKS}
    missing = sorted(ordinary - set(full_deck()))
    return " ".join(missing), {}


def _deck_size(fact, state):
    size = len(full_deck())
    return str(size), {"size": size}


def _suit_words(trump):
    from django.utils.translation import gettext

    return gettext("no trump") if trump == "none" else card_faces.suit_name(trump)


def _trump(fact, state):
    card = state.trump_card
    return state.trump, {"suit": _suit_words(state.trump), "card": card_faces.card_name(card) if card else ""}


def _deal_score(fact, state):
    result = state.results[fact["deal"]]
    seat = fact["seat"]
    score = result.scores[seat]
    return str(score), {"bid": result.bids[seat], "took": result.tricks[seat], "score": score, "cards": result.cards}


def _pulka_bonus(part):
    def fact_of(fact, state):
        pulka = state.pulka_results[fact["pulka"]]
        seat = fact["seat"]
        best = max(r.scores[seat] for r in state.results if r.pulka == pulka.pulka)
        premium, moshla = pulka.premium[seat], pulka.moshla[seat]
        value = premium if part == "premium" else moshla
        return str(value), {"best": best, "premium": premium, "moshla": moshla}

    return fact_of


def _japanese_points(fact, state):
    result = state.results[fact["deal"]]
    seat = fact["seat"]
    return str(result.scores[seat]), {
        "mine": result.tricks[seat],
        "theirs": result.tricks[1 - seat],
        "points": result.scores[seat],
    }


def _match_winner(fact, state):
    winners = state.winners()
    value = str(winners[0]) if len(winners) == 1 else "none"
    return value, {"target": state.options.target}


def _match_total(fact, state):
    total = state.totals[fact["seat"]]
    return str(total), {"total": total, "target": state.options.target}


def _visible_cards(view) -> set:
    """Every card a seat's view shows: its hand, all face-up column cards, the cards on the table."""
    seen = set(view["hand"])
    for side in view["columns"]:
        seen.update(col["up"] for col in side if col)
    seen.update(entry["play"] for entry in view["trick"])
    return seen


def _current_columns(state, seat):
    """The [face_down, face_up] pairs dealt to ``seat`` in the deal being played (from its record)."""
    return state.record_deals()[-1]["columns"][seat]


def _opponent_sees(fact, state):
    """Which of ``seat``'s cards the other player's view shows, as a category of the quiz."""
    seat = fact["seat"]
    mine = set(state.hand(seat))
    columns = _current_columns(state, seat)
    face_up = {up for _down, up in columns}
    face_down = {down for down, _up in columns}
    shown = _visible_cards(state.view(1 - seat)) & (mine | face_up | face_down)
    categories = {"face_up": face_up, "hand": mine, "all": mine | face_up | face_down, "none": set()}
    value = next((name for name, cards in categories.items() if cards == shown), "other")
    return value, {}


def _face_down_seen_by(fact, state):
    seat = fact["seat"]
    face_down = {down for down, _up in _current_columns(state, seat)}
    seen_by = {s for s in (0, 1) if face_down & _visible_cards(state.view(s))}
    value = {frozenset(): "nobody", frozenset({seat}): "owner", frozenset({0, 1}): "both"}.get(
        frozenset(seen_by), "other"
    )
    return value, {}


FACTS = {
    "cards_left_out": _cards_left_out,
    "deck_size": _deck_size,
    "trump": _trump,
    "deal_score": _deal_score,
    "pulka_premium": _pulka_bonus("premium"),
    "pulka_moshla": _pulka_bonus("moshla"),
    "japanese_points": _japanese_points,
    "match_winner": _match_winner,
    "match_total": _match_total,
    "opponent_sees": _opponent_sees,
    "face_down_seen_by": _face_down_seen_by,
}

# Facts that need no position (the deck itself).
STATELESS = {"cards_left_out", "deck_size"}


def answer(fact: dict, state) -> tuple[str, dict]:
    """(the right choice's value, numbers for the explanation) for a question's fact."""
    try:
        compute = FACTS[fact["name"]]
    except KeyError:
        raise UnknownFact(f"no fact called {fact.get('name')!r}") from None
    return compute(fact, state)


def step_params(state) -> dict:
    """Facts of a position any of its texts may quote (the match target, the trump)."""
    if state is None:
        return {}
    params = {}
    options = state.options.to_record()
    if "target" in options:
        params["target"] = options["target"]
    return params
