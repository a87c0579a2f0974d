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
    assert gc.get_threshold() == heap.GC_THRESHOLDS


def test_a_long_full_collection_is_logged_and_a_short_one_is_not(caplog, monkeypatch):
    heap.settle()
    assert gc.callbacks.count(heap._log_long_pauses) == 1
    heap.settle()  # a second call does not watch twice
    assert gc.callbacks.count(heap._log_long_pauses) == 1
    # settle's own full collection may itself be logged (over 100 ms on a busy machine).
    caplog.clear()
    monkeypatch.setattr(heap, "LONG_PAUSE_MS", 0)
    # Only the collections asked for here: an automatic full one could come at any allocation.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        with caplog.at_level("WARNING", logger="joker_site.heap"):
            gc.collect(1)
            assert not caplog.records
            gc.collect()
    finally:
        if was_enabled:
            gc.enable()
    assert any("full garbage collection paused" in r.getMessage() for r in caplog.records)
    caplog.clear()
    monkeypatch.setattr(heap, "LONG_PAUSE_MS", 10_000)
    with caplog.at_level("WARNING", logger="joker_site.heap"):
        gc.collect()
    assert not caplog.records
