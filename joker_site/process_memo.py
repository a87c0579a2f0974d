"""What a process keeps of things that never change once known, up to a limit (the oldest goes
first). The sockets' database threads (joker_site/db_threads.py) fill one at the same time:
dropping the oldest entry while another thread adds one must not fail."""

import threading


class ProcessMemo:
    def __init__(self, limit: int):
        self._items: dict = {}
        self._limit = limit
        self._adding = threading.Lock()

    def get(self, key, default=None):
        return self._items.get(key, default)

    def put(self, key, value) -> None:
        with self._adding:
            if key not in self._items and len(self._items) >= self._limit:
                self._items.pop(next(iter(self._items)), None)
            self._items[key] = value

    def values(self) -> list:
        return list(self._items.values())

    def clear(self) -> None:
        with self._adding:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)
