"""A process's memo stays within its limit, oldest out first, with threads adding at once."""

import threading

from joker_site.process_memo import ProcessMemo


def test_the_oldest_entry_goes_first_and_the_limit_holds():
    memo = ProcessMemo(3)
    for key in "abcd":
        memo.put(key, key.upper())
    assert len(memo) == 3 and memo.get("a") is None and memo.get("d") == "D"
    memo.put("b", "again")  # a known key is replaced, nothing else goes
    assert len(memo) == 3 and memo.get("c") == "C" and memo.get("b") == "again"


def test_threads_adding_past_the_limit_at_once_never_fail():
    memo = ProcessMemo(50)
    failures = []

    def add(thread):
        try:
            for n in range(3000):
                memo.put((thread, n), n)
                memo.get((thread, n - 1))
        except Exception as error:  # the failure is the finding
            failures.append(error)

    threads = [threading.Thread(target=add, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and len(memo) == 50
