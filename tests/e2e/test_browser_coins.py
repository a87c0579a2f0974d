"""The Domino Coin page on a 360×740 phone in Georgian and Russian: the wallet and its whole
ledger (the last column too) fit the screen; coin amounts at the tables are written in the
page's language, never as the Latin "DC"."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from e2e.layout import PHONE, assert_nothing_cut_off
from e2e.match_play import boxes_of


def ledger_of_several_kinds(username):
    """A stake held at a table and given back, and the welcome grant: lines of each width."""
    from coins import services

    user = get_user_model().objects.get(username=username)
    for table_id in (901, 902, 903):
        services.stake(user, f"table:{table_id}", services.TABLE_STAKES[-1])
        services.refund_stake(user, f"table:{table_id}")


@pytest.mark.parametrize("language", ["ka", "ru"])
def test_the_coin_ledger_fits_a_phone(new_member, snap, language):
    page = new_member("tamar", locale=f"{language}-{language.upper()}", **PHONE)
    ledger_of_several_kinds("tamar")
    page.goto(f"/{language}/coins/")
    expect(page.locator(".coins-history tbody tr")).to_have_count(7)
    last_column = boxes_of(page, ".coins-history tbody td:last-child")
    assert all(box["x"] + box["width"] <= 360 for box in last_column), last_column
    assert_nothing_cut_off(page)
    snap(page, f"coins-{language}")
    assert not re.search(r"\bDC\b", page.locator("main").inner_text())
