"""The all-seeing bot: the master's search run on the true deal (for scripts/bench_levels.py only).

It reads the state's hidden cards (every hand, the face-down column cards), so
it is a ceiling to measure the master against, never a player: nothing under
games/ imports it and no table can ask for it. Its samples are the true deal
every time; the playouts' own randomness (the opponents' model) still varies.
"""

from __future__ import annotations

from games.engine import ClassicState
from games.engine.bot import MASTER, MASTER_JAPANESE_SEARCH, MASTER_SEARCH, decide, observe
from games.engine.bot_classic import choose_action as classic_choice
from games.engine.bot_japanese import choose_play as japanese_choice

ORACLE = "oracle"
# Half-oracles, to tell where the ceiling's gain lies: the true deal for the bids only (the
# master's search for the cards), or for the cards only (the master's bids). Classic only.
ORACLE_BIDS = "oracle_bids"
ORACLE_PLAYS = "oracle_plays"
ORACLES = {ORACLE: ("bid", "play"), ORACLE_BIDS: ("bid",), ORACLE_PLAYS: ("play",)}


class _TrueClassicDeal:
    """Deals every sample as the cards really lie."""

    def __init__(self, state, seat: int):
        self.hands = list(state.hands)
        self.trump = state._trump if state._trump is not None else -1
        # The cards others hold: what tells two of our cards apart (bot_classic._distinct_plays).
        self.out = 0
        for s in range(4):
            if s != seat:
                self.out |= self.hands[s]

    def sample(self, _rng) -> list[int]:
        return list(self.hands)


class _TrueJapaneseDeal:
    def __init__(self, state, seat: int):
        self.opp = 1 - seat
        self.trump = state._trump if state._trump is not None else -1
        self.opp_hand = state.hands[self.opp]
        self.downs = [[col[0] for col in state._cols[s] if col is not None] for s in (0, 1)]
        # The cards still to come from the opponent or from under a column (bot_japanese._distinct_plays).
        self.pool = self.opp_hand
        for downs in self.downs:
            for card in downs:
                self.pool |= 1 << card

    def sample(self, _rng):
        return self.opp_hand, [list(d) for d in self.downs]


def choose(state, seat: int, rng, effort: float = 1.0, oracle: str = ORACLE):
    """The move of ``oracle`` (one of ORACLES) for ``seat``: one of the state's legal actions."""
    obs = observe(state, seat)
    if len(obs.legal) == 1 or obs.phase not in ORACLES[oracle]:
        return decide(obs, rng, effort, level=MASTER)
    if isinstance(state, ClassicState):
        return classic_choice(obs, rng, effort, MASTER_SEARCH, _TrueClassicDeal(state, seat))
    return japanese_choice(obs, rng, effort, MASTER_JAPANESE_SEARCH, _TrueJapaneseDeal(state, seat))
