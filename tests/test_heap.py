"""A web process does its first-use work at start-up and freezes what start-up made."""

import gc

from django.template import engines
from django.urls import get_resolver

from joker_site import heap


def _compiled() -> set[str]:
    names = set()
    for loader in engines["django"].engine.template_loaders:
        names |= {template.origin.template_name for template in getattr(loader, "get_template_cache", {}).values()
                  if hasattr(template, "origin")}
    return names


def test_settling_indexes_the_urls_compiles_the_socket_templates_and_freezes_the_heap():
    heap.settle()
    assert get_resolver()._populated
    compiled = _compiled()
    assert {"games/_match.html", "games/_match_fairness.html", "games/_sheet_classic_row.html",
            "ratings/_badge.html"} <= compiled
    assert gc.get_freeze_count() > 10_000
