"""The live table's line about fair deals.

    {% load deal_fairness %}{% match_fairness sv table %}

Shows the current deal's commitment (in full, shortened on screen) and, once a
deal is over, its revealed salt with the server's check. The deal's cards are
not written into the live frame: the fairness page shows them.
"""

from django import template
from django.core.cache import cache

from games.fairness import check_deal
from games.models import MatchAction
from games.templatetags.pure_include import pure_include
from joker_site.process_memo import ProcessMemo

register = template.Library()


def deal_verified(match_id: int, entry: dict) -> bool:
    """The server's check of one revealed deal (cached: a finished deal never changes)."""
    index = entry["deal"]
    key = f"deal-verified:{match_id}:{index}:{entry['commitment']}"
    verified = _verified.get(key)  # never changes: this process's copy first, then the shared cache
    if verified is None:
        verified = cache.get(key)
    if verified is None:
        deal = MatchAction.dealt(match_id, index)
        verified = isinstance(deal, dict) and check_deal(index, deal, entry).verified
        cache.set(key, verified, timeout=None)
    _verified.put(key, verified)
    return verified


_verified = ProcessMemo(4096)


@register.simple_tag
def match_fairness(sv, table):
    commitments = sv.get("commitments") or []
    revealed = [entry for entry in commitments if "salt" in entry]
    last_revealed = revealed[-1] if revealed else None
    over = sv.get("status") != "running"
    return pure_include(
        "games/_match_fairness.html",
        table_id=table.pk,
        current=commitments[-1] if commitments and not over else None,
        last_revealed=last_revealed,
        verified=deal_verified(sv["match"], last_revealed) if last_revealed else None,
        over=over,
    )
