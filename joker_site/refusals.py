"""The one type of a refused request, shared by every app.

A service that refuses raises a `Refusal` (or a subclass: `TableError`,
`MatchError`, the coin ledger's `LedgerError` family, …) and changes nothing.
Every refusal says the same three things, so each front end translates them
once: the JSON protocol sends `code`, `message` and `params` as its `error`
message (games/protocol.py), the pages show `message` (games/views.py,
games/consumers.py).
"""

class Refusal(Exception):
    """A refused request that changed nothing.

    `code` is a stable word for programs; `message` a sentence for people, in the
    language active when it was made (a subclass that words it from its params
    overrides the property, and then it is worded when read); `params` the facts
    a client may act on, e.g. `version`, the match's version when it was refused.
    """

    code = "refused"

    def __init__(self, code: str | None = None, message=None, params: dict | None = None):
        super().__init__(code, message)
        if code is not None:
            self.code = code
        self._message = message
        self.params = dict(params or {})

    @property
    def message(self) -> str:
        return str(self._message)

    def __str__(self) -> str:
        return self.message
