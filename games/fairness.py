"""Deals anyone can verify (docs/fairness.md): the one home of dealing and its commitments.

Each deal is shuffled with the operating system's secure generator and, before
anyone acts in it, the site stores and shows a commitment: the SHA-256 of the
deal's canonical text, a "|" and a secret salt (`commitment_for`). Once the
deal is over the salt is revealed (`is_revealed`), and anyone can recompute the
hash from the deal written in the game record.

This module deals (`deal_next`, the only place a match's cards are dealt),
builds what the players see of the commitments (`public_commitments`) and the
public fairness document (`fairness.json`), and checks a record against one.
The check is the same for the page's "verified" mark, for `manage.py
verify_deals` and for the tests.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from . import engine
from .models import Match, MatchStatus

VERIFIED = "verified"
MISMATCH = "mismatch"  # the record's deal is not the deal that was committed
NOT_REVEALED = "not_revealed"  # the deal is still being played: no salt yet
NO_COMMITMENT = "no_commitment"  # the fairness document has nothing for this deal
NO_DEAL = "no_deal"  # a commitment for a deal the record does not have
SHORT_HASH_LENGTH = 12


class FairnessInputError(ValueError):
    """A record or fairness document that cannot be checked (not the expected shape)."""


# --- Dealing and committing ---------------------------------------------------------

def canonical_deal(deal: dict) -> str:
    """The dealt cards of one record deal, as the exact text the commitment hashes."""
    keys = ("hands", "columns") if "columns" in deal else ("hands", "trump_card")
    return json.dumps({k: deal.get(k) for k in keys}, sort_keys=True, separators=(",", ":"))


def commitment_for(deal: dict, salt: str) -> str:
    return hashlib.sha256(f"{canonical_deal(deal)}|{salt}".encode()).hexdigest()


def dealing_rng(purpose: str):
    """The generator behind the cards and the first dealer: the OS's secure one.

    Browser tests alone fix it with the setting TEST_DEAL_SEED (a known deal, so a
    scenario can lead a joker). Nothing sets it but a test's settings override: it
    is not read from the environment nor from any request, and it is refused when
    DEBUG is off, so the real site always deals at random (docs/testing.md)."""
    seed = getattr(settings, "TEST_DEAL_SEED", None)
    if seed is None:
        return secrets.SystemRandom()
    if not settings.DEBUG:
        raise ImproperlyConfigured("TEST_DEAL_SEED fixes the deals: it is for tests and refused when DEBUG is off")
    return random.Random(f"{seed}:{purpose}")


def deal_next(state, commitments: list) -> None:
    """Shuffle with the OS's secure generator, deal, and append the deal's
    `{commitment, salt}` to `commitments` (the match's `deal_commitments`)."""
    deck = engine.shuffled_deck(dealing_rng(f"deal-{len(commitments)}"))
    engine.deal_from_deck(state, deck)
    salt = secrets.token_hex(16)
    deal = state.record_deals()[-1]
    commitments.append({"commitment": commitment_for(deal, salt), "salt": salt})


# --- What may be shown ------------------------------------------------------------------

def is_revealed(match: Match, index: int) -> bool:
    """A deal's salt is public once the deal is over: a later deal exists, or the match is."""
    return index < len(match.deal_commitments) - 1 or match.status != MatchStatus.RUNNING


def public_commitments(match: Match) -> list[dict]:
    """What a seat view shows: `{deal, commitment}` for every deal, with `salt` once it is revealed."""
    shown = []
    for index, entry in enumerate(match.deal_commitments):
        item = {"deal": index, "commitment": entry["commitment"]}
        if is_revealed(match, index):
            item["salt"] = entry["salt"]
        shown.append(item)
    return shown


def fairness_document(match: Match) -> dict:
    """`{deal index: {commitment, salt, canonical_deal}}`, salt and deal only for revealed deals.

    Keys are deal indices as strings (JSON object keys), counted from 0 as in
    the record's `deals` list."""
    deals = match.record.get("deals", [])
    doc = {}
    for index, entry in enumerate(match.deal_commitments):
        item = {"commitment": entry["commitment"]}
        if is_revealed(match, index) and index < len(deals):
            item["salt"] = entry["salt"]
            item["canonical_deal"] = canonical_deal(deals[index])
        doc[str(index)] = item
    return doc


@dataclass(frozen=True)
class DealCheck:
    """The verdict on one deal: does the deal played hash to the commitment shown before it?"""

    index: int
    status: str
    commitment: str | None = None
    salt: str | None = None
    canonical: str | None = None
    computed: str | None = None

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def verified(self) -> bool:
        return self.status == VERIFIED

    @property
    def short_commitment(self) -> str:
        return (self.commitment or "")[:SHORT_HASH_LENGTH]

    @property
    def hashed_text(self) -> str | None:
        """The exact text whose SHA-256 is the commitment."""
        if self.canonical is None or self.salt is None:
            return None
        return f"{self.canonical}|{self.salt}"


def _record_deals(record) -> list:
    if not isinstance(record, dict) or not isinstance(record.get("deals"), list):
        raise FairnessInputError("the record is not a joker-record/1 document with a list of deals")
    for i, deal in enumerate(record["deals"]):
        if not isinstance(deal, dict) or "hands" not in deal:
            raise FairnessInputError(f"deal {i} of the record has no hands")
    return record["deals"]


def _fairness_entries(fairness) -> dict[int, dict]:
    if not isinstance(fairness, dict):
        raise FairnessInputError("the fairness document is not a JSON object")
    entries = {}
    for key, entry in fairness.items():
        try:
            index = int(key)
        except (TypeError, ValueError):
            raise FairnessInputError(f"{key!r} is not a deal index") from None
        if index < 0 or str(index) != str(key).strip():
            raise FairnessInputError(f"{key!r} is not a deal index")
        if not isinstance(entry, dict) or not isinstance(entry.get("commitment"), str):
            raise FairnessInputError(f"deal {key} has no commitment")
        if "salt" in entry and not isinstance(entry["salt"], str):
            raise FairnessInputError(f"the salt of deal {key} is not a string")
        entries[index] = entry
    return entries


def check_deal(index: int, deal: dict, entry: dict | None) -> DealCheck:
    # The deal's text goes into the verdict only next to its revealed salt: a deal
    # still in play must not leak through a check of it.
    if entry is None:
        return DealCheck(index, NO_COMMITMENT)
    commitment, salt = entry["commitment"], entry.get("salt")
    if salt is None:
        return DealCheck(index, NOT_REVEALED, commitment=commitment)
    canonical = canonical_deal(deal)
    computed = commitment_for(deal, salt)
    status = VERIFIED if computed == commitment.strip().lower() else MISMATCH
    return DealCheck(index, status, commitment, salt, canonical, computed)


def check_deals(record, fairness) -> list[DealCheck]:
    """Recompute every deal's commitment from the record and compare (one DealCheck per deal).

    Raises FairnessInputError when either document has the wrong shape."""
    deals = _record_deals(record)
    entries = _fairness_entries(fairness)
    checks = [check_deal(i, deal, entries.get(i)) for i, deal in enumerate(deals)]
    checks += [DealCheck(i, NO_DEAL, commitment=entries[i]["commitment"]) for i in sorted(entries) if i >= len(deals)]
    return checks


def all_verified(checks: list[DealCheck]) -> bool:
    return bool(checks) and all(c.verified for c in checks)


def match_checks(match: Match) -> list[DealCheck]:
    """The server's own check of a match: its stored record against its stored commitments."""
    return check_deals(match.record, fairness_document(match))
