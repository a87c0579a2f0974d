"""`make test` shares the suite without browsers between its halves by what each test took
(tests/suite_halves.py): every test runs in exactly one half, each half keeps the tests' order,
and the halves' times come out close."""

from dataclasses import dataclass

from suite_halves import UNTIMED_SECONDS, every_nth, share_by_time


@dataclass(frozen=True)
class Item:
    nodeid: str


def test_every_test_runs_in_one_half_in_its_order_and_the_halves_take_about_the_same_time():
    items = [Item(f"tests/test_x.py::test_{i}") for i in range(40)]
    # A few long tests at the front, as sorted files put them: every second test would give
    # the first half all of them.
    seconds = {items[0].nodeid: 30.0, items[2].nodeid: 25.0, items[4].nodeid: 20.0, items[6].nodeid: 5.0}
    first, second = (share_by_time(items, k, 2, seconds) for k in (1, 2))
    assert sorted(first + second, key=items.index) == items
    assert first == sorted(first, key=items.index) and second == sorted(second, key=items.index)

    def took(share):
        return sum(seconds.get(item.nodeid, UNTIMED_SECONDS) for item in share)

    assert abs(took(first) - took(second)) <= 5.0
    nth = every_nth(items, 1, 2), every_nth(items, 2, 2)
    assert abs(took(nth[0]) - took(nth[1])) > 70  # what the shares by time put right
    assert share_by_time(items, 1, 2, seconds) == first  # the same items, the same shares
